-- The attempt that earned each award (a widget check, quiz attempt, review
-- answer or exercise submission), written in the award's transaction.
-- Awards granted before this migration keep their XP and have none.
ALTER TABLE xp_awards ADD COLUMN attempt_id BIGINT REFERENCES attempts(id) ON DELETE SET NULL;

-- Every attempt at a lesson quiz as the server drew it: its number, kept
-- by the server and never taken from the form, the draw of variants and
-- option orders it showed (quiz.Draw as JSON), and its outcome. The key
-- refuses a second post of the same attempt; the failures in a row decide
-- the wait before the next one.
CREATE TABLE quiz_attempts (
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    lesson_slug TEXT NOT NULL,
    quiz_id     TEXT NOT NULL,
    number      INTEGER NOT NULL,
    draw        TEXT NOT NULL,
    passed      INTEGER NOT NULL,
    started_at  TEXT NOT NULL,
    finished_at TEXT NOT NULL,
    PRIMARY KEY (learner_id, lesson_slug, quiz_id, number)
);
