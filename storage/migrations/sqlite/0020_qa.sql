-- Questions and answers under lessons. A question has question_id NULL; an
-- answer names its question and shares its scope. class_id is the class
-- whose members see the thread, NULL for a public thread (learners in no
-- class). body is the author's markdown, html its sanitised rendering
-- (rendered on write). Moderation hides a post (hidden_at, with a reason
-- the author sees); it never deletes one. An author's own delete keeps the
-- row with deleted_at set and the text cleared, so answers keep their
-- question.
CREATE TABLE qa_posts (
    id            INTEGER PRIMARY KEY,
    lesson_slug   TEXT NOT NULL,
    class_id      INTEGER REFERENCES classes(id) ON DELETE CASCADE,
    question_id   INTEGER REFERENCES qa_posts(id) ON DELETE CASCADE,
    author_id     TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    author_name   TEXT NOT NULL,
    teacher_id    INTEGER,
    part          TEXT NOT NULL DEFAULT '',
    body          TEXT NOT NULL,
    html          TEXT NOT NULL,
    accepted_id   INTEGER,
    created_at    TEXT NOT NULL,
    edited_at     TEXT,
    hidden_at     TEXT,
    hidden_reason TEXT NOT NULL DEFAULT '',
    deleted_at    TEXT
);
CREATE INDEX qa_posts_lesson ON qa_posts (lesson_slug, class_id, question_id);
CREATE INDEX qa_posts_question ON qa_posts (question_id, created_at);
CREATE INDEX qa_posts_class ON qa_posts (class_id, created_at);
CREATE INDEX qa_posts_author ON qa_posts (author_id);

-- A learner's "helpful" mark on an answer, once each.
CREATE TABLE qa_helpful (
    post_id    INTEGER NOT NULL REFERENCES qa_posts(id) ON DELETE CASCADE,
    learner_id TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    marked_at  TEXT NOT NULL,
    PRIMARY KEY (post_id, learner_id)
);

-- A learner's report of a post, once each; resolved when a moderator hides
-- or restores the post.
CREATE TABLE qa_reports (
    post_id     INTEGER NOT NULL REFERENCES qa_posts(id) ON DELETE CASCADE,
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    reason      TEXT NOT NULL DEFAULT '',
    reported_at TEXT NOT NULL,
    resolved_at TEXT,
    PRIMARY KEY (post_id, learner_id)
);
CREATE INDEX qa_reports_open ON qa_reports (post_id) WHERE resolved_at IS NULL;

-- A notice for a learner: someone answered their question, or an answer
-- was accepted. read_at is NULL until they read it.
CREATE TABLE qa_notices (
    id          INTEGER PRIMARY KEY,
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    question_id INTEGER NOT NULL REFERENCES qa_posts(id) ON DELETE CASCADE,
    post_id     INTEGER NOT NULL REFERENCES qa_posts(id) ON DELETE CASCADE,
    actor_name  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    read_at     TEXT
);
CREATE INDEX qa_notices_unread ON qa_notices (learner_id, read_at);

-- The display name a learner in no class chose for public threads,
-- unique by its folded key.
CREATE TABLE qa_names (
    learner_id TEXT PRIMARY KEY REFERENCES learners(id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL UNIQUE
);
