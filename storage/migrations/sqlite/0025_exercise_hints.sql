-- How many of an exercise's hints each learner has revealed: hints come
-- one at a time, on request, after a failed run or submission, and the
-- count only grows (a doubled post of the same hint changes nothing).
-- Teachers see it on a learner's page; it changes no XP.
CREATE TABLE exercise_hints (
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    exercise_id TEXT NOT NULL,
    shown       INTEGER NOT NULL CHECK (shown > 0),
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (learner_id, exercise_id)
);
