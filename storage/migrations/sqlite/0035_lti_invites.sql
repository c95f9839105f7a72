-- LTI Dynamic Registration. An invite is a one-time registration address
-- a learn administrator made ("learn lti invite") for an LMS
-- administrator to paste into the LMS: only the SHA-256 of its token is
-- kept. used_at is set by the one statement that spends it, so it serves
-- once on every server; a registration that fails sets it back.
CREATE TABLE lti_invites (
    id         INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at    TEXT
);
CREATE INDEX lti_invites_expiry ON lti_invites (expires_at);
