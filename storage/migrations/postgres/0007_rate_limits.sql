-- Rate limits that every server sharing the database counts together: per
-- key (a rule's name and what it limits), the time its bucket is next full,
-- in Unix nanoseconds (see progress.RateLimiter).
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY,
    tat BIGINT NOT NULL
);
