-- A graded result to show once (SQLite migration 0010): a form posted
-- without JavaScript is answered with a redirect to the lesson, which then
-- draws this result where the form was and deletes it. Kept in the
-- database, so the redirect may land on any server. One per learner and
-- lesson, the latest post winning; rows live a minute. No foreign key: a
-- refused or anonymous post may come before the learner row exists.
CREATE TABLE results_to_show (
    learner_id  TEXT NOT NULL,
    lesson_slug TEXT NOT NULL,
    part_id     TEXT NOT NULL,
    body        TEXT NOT NULL,
    expires_at  BIGINT NOT NULL,
    PRIMARY KEY (learner_id, lesson_slug)
);
CREATE INDEX results_to_show_expiry ON results_to_show (expires_at);
