-- Learners a teacher removed from a class, kept for 7 days so the removal
-- can be undone (progress.RemovalUndoFor): the membership as it was, name
-- and words included. Undoing puts the row back in class_members; rows past
-- the 7 days are deleted at the next removal. A learner who leaves a class
-- themselves is not kept. Deleting the class or the learner deletes them.
CREATE TABLE removed_members (
    class_id    INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    secret      TEXT NOT NULL,
    secret_hash TEXT NOT NULL,
    joined_at   TEXT NOT NULL,
    removed_at  TEXT NOT NULL,
    PRIMARY KEY (class_id, learner_id)
);
CREATE INDEX removed_members_learner ON removed_members (learner_id);
CREATE INDEX removed_members_removed ON removed_members (removed_at);
