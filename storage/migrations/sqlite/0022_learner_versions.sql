-- The write counter of PostgreSQL's migration 0002 (WriteVersions), so that
-- both engines have one schema (the catalogue test compares them). A server
-- on SQLite owns its file and needs no counter, so the table stays empty;
-- migrate-db carries it over as it is.
CREATE TABLE learner_versions (
    learner_id TEXT PRIMARY KEY,
    version    BIGINT NOT NULL
);
