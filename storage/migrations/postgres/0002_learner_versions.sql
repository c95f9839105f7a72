-- How many times each learner wrote, counted by every server sharing the
-- database (WriteVersions). A server serves its cached summary of a learner
-- only while this count is the one it read before loading the summary, so
-- a write on one server is seen at once by a reload on any other. No
-- foreign key: the count is bumped after the learner's write committed,
-- and a learner without a row has written nothing yet.
CREATE TABLE learner_versions (
    learner_id TEXT PRIMARY KEY,
    version    BIGINT NOT NULL
);
