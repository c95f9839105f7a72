-- LTI 1.3 (package lti). A registered platform is an LMS that may launch
-- learn: its issuer and the client id it gave learn, the addresses of its
-- OIDC authorisation endpoint, token endpoint and key set, and the
-- deployment ids it may launch from.
CREATE TABLE lti_platforms (
    id         INTEGER PRIMARY KEY,
    issuer     TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    auth_url   TEXT NOT NULL,
    token_url  TEXT NOT NULL,
    jwks_url   TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (issuer, client_id)
);
CREATE TABLE lti_deployments (
    platform_id   INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    deployment_id TEXT NOT NULL,
    PRIMARY KEY (platform_id, deployment_id)
);

-- A launch begun by a login initiation: only the SHA-256 of its state and
-- of the browser's cookie are kept. The launch deletes the row as it
-- reads it, so a state serves once on whichever server finishes it.
CREATE TABLE lti_states (
    state_hash   TEXT PRIMARY KEY,
    browser_hash TEXT NOT NULL,
    nonce        TEXT NOT NULL,
    platform_id  INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    target       TEXT NOT NULL,
    expires_at   TEXT NOT NULL
);
CREATE INDEX lti_states_expiry ON lti_states (expires_at);

-- Nonces of id_tokens already accepted, kept until the tokens expire: the
-- primary key refuses a second use.
CREATE TABLE lti_nonces (
    issuer     TEXT NOT NULL,
    nonce      TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (issuer, nonce)
);
CREATE INDEX lti_nonces_expiry ON lti_nonces (expires_at);

-- learn's own RSA signing keys (PKCS #8), by key id. The newest without
-- retired_at signs; a retired one stays in the published key set for the
-- key grace period.
CREATE TABLE lti_keys (
    kid         TEXT PRIMARY KEY,
    private_key BLOB NOT NULL,
    created_at  TEXT NOT NULL,
    retired_at  TEXT
);

-- An LMS user (issuer and subject) is one learner id on every launch and
-- device; an instructor also has a teacher account.
CREATE TABLE lti_users (
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    learner_id TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    teacher_id INTEGER REFERENCES teachers(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX lti_users_learner ON lti_users (learner_id);
CREATE INDEX lti_users_teacher ON lti_users (teacher_id);

-- An LMS course (issuer, deployment and context id) is one class.
CREATE TABLE lti_contexts (
    issuer        TEXT NOT NULL,
    deployment_id TEXT NOT NULL,
    context_id    TEXT NOT NULL,
    class_id      INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (issuer, deployment_id, context_id)
);
CREATE INDEX lti_contexts_class ON lti_contexts (class_id);
