-- Every run and submission of learner code, with its outcome.
CREATE TABLE submissions (
    id          INTEGER PRIMARY KEY,
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    exercise_id TEXT NOT NULL,
    mode        TEXT NOT NULL CHECK (mode IN ('run', 'submit')),
    code        TEXT NOT NULL,
    passed      INTEGER NOT NULL,
    report      TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX submissions_learner_exercise ON submissions (learner_id, exercise_id, created_at);

-- The learner's latest code per exercise, shown again in the editor.
CREATE TABLE exercise_code (
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    exercise_id TEXT NOT NULL,
    code        TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (learner_id, exercise_id)
);
