-- Learners are anonymous: the id lives in a signed cookie.
CREATE TABLE learners (
    id         TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    time_zone  TEXT NOT NULL DEFAULT 'UTC'
);

-- One row per learner and lesson, written when the lesson is first opened.
CREATE TABLE lesson_progress (
    learner_id   TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    lesson_slug  TEXT NOT NULL,
    opened_at    TEXT NOT NULL,
    completed_at TEXT,
    PRIMARY KEY (learner_id, lesson_slug)
);

-- The XP ledger: every award is one row, and its key makes it happen once.
CREATE TABLE xp_awards (
    id         INTEGER PRIMARY KEY,
    learner_id TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    award_key  TEXT NOT NULL,
    amount     INTEGER NOT NULL CHECK (amount > 0),
    reason     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (learner_id, award_key)
);
CREATE INDEX xp_awards_learner_time ON xp_awards (learner_id, created_at);

-- Server-wide secrets and settings, such as the cookie signing key.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
