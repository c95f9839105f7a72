-- A teacher's reset of one learner's attempts at a lesson's quiz: the
-- attempts finished before reset_at no longer count towards the wait after
-- failures in a row or the falling XP of a pass (progress.ResetQuiz), and
-- the learner's page lists the reset. XP already earned stays. Deleting
-- the class keeps the reset (class_id becomes NULL), deleting the learner
-- deletes it.
CREATE TABLE attempt_resets (
    id          INTEGER PRIMARY KEY,
    class_id    INTEGER REFERENCES classes(id) ON DELETE SET NULL,
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    lesson_slug TEXT NOT NULL,
    widget_id   TEXT NOT NULL,
    reset_at    TEXT NOT NULL
);
CREATE INDEX attempt_resets_learner ON attempt_resets (learner_id, lesson_slug, widget_id);
