-- Devices a learner signed in on with a class's secret words: the learner
-- cookie of such a browser names the device, and the server finds the row
-- on every request, so deleting it signs that browser out on every server.
-- New words or leaving the class delete the class's rows; deleting the
-- learner deletes them all. The browser a learner started on has no row.
CREATE TABLE learner_devices (
    id         TEXT PRIMARY KEY,
    learner_id TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    user_agent TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seen  TEXT NOT NULL
);
CREATE INDEX learner_devices_learner ON learner_devices (learner_id, class_id);
CREATE INDEX learner_devices_class ON learner_devices (class_id);

-- Failed sign-ins in a row per account (a hash of a teacher's e-mail, or of
-- a class and a learner's name), for the doubling delay of
-- progress/limits.go. A success deletes the row.
CREATE TABLE signin_failures (
    key      TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_at  TEXT NOT NULL
);
CREATE INDEX signin_failures_last ON signin_failures (last_at);
