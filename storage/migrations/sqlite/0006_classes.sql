-- A teacher's class. join_code is NULL while joining is off; codes are
-- unique among classes that are not archived.
CREATE TABLE classes (
    id          INTEGER PRIMARY KEY,
    teacher_id  INTEGER NOT NULL REFERENCES teachers(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    join_code   TEXT,
    time_zone   TEXT NOT NULL DEFAULT 'UTC',
    leaderboard INTEGER NOT NULL DEFAULT 0,
    archived_at TEXT,
    created_at  TEXT NOT NULL
);
CREATE INDEX classes_teacher ON classes (teacher_id, created_at);
CREATE UNIQUE INDEX classes_active_code ON classes (join_code)
    WHERE join_code IS NOT NULL AND archived_at IS NULL;

-- A learner in a class under a display name (unique in the class by its
-- folded name_key). secret is the sign-in words, kept readable for the
-- teacher's page; sign-in compares secret_hash.
CREATE TABLE class_members (
    class_id    INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    secret      TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    joined_at   TEXT NOT NULL,
    PRIMARY KEY (class_id, learner_id),
    UNIQUE (class_id, name_key)
);
CREATE INDEX class_members_learner ON class_members (learner_id);
