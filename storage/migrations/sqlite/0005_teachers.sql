-- Teachers sign in by e-mail and password (a bcrypt hash); the e-mail is
-- stored lower case.
CREATE TABLE teachers (
    id            INTEGER PRIMARY KEY,
    email         TEXT NOT NULL UNIQUE,
    name          TEXT NOT NULL,
    admin         INTEGER NOT NULL DEFAULT 0,
    password_hash TEXT NOT NULL,
    created_at    TEXT NOT NULL
);

-- A signed-in browser: only the SHA-256 of the cookie's token is kept.
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    teacher_id INTEGER NOT NULL REFERENCES teachers(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX sessions_teacher ON sessions (teacher_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);
