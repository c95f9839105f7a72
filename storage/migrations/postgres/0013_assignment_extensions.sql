-- A later due time for one learner and one assigned lesson (an extension):
-- "late" then counts from it for that learner, on the dashboard, their
-- classes page and the export. Unassigning the lesson deletes its
-- extensions too, as does deleting the class or the learner.
CREATE TABLE assignment_extensions (
    class_id    BIGINT NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    lesson_slug TEXT NOT NULL,
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    due_at      BIGINT NOT NULL,
    PRIMARY KEY (class_id, lesson_slug, learner_id)
);
CREATE INDEX assignment_extensions_learner ON assignment_extensions (learner_id);
