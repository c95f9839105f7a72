-- Names and Role Provisioning Services 2.0. A class of an LMS course keeps
-- where its roster comes from (the platform and the course's membership
-- container), so that a teacher can update it later, and how the last
-- fetch went: tried_at, problem ('' when it worked) and fetched_at, the
-- time of the last fetch that worked (NULL before any).
CREATE TABLE lti_rosters (
    class_id        INTEGER PRIMARY KEY REFERENCES classes(id) ON DELETE CASCADE,
    platform_id     INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    memberships_url TEXT NOT NULL,
    tried_at        TEXT NOT NULL,
    problem         TEXT NOT NULL DEFAULT '',
    fetched_at      TEXT
);
CREATE INDEX lti_rosters_platform ON lti_rosters (platform_id);

-- The roster as the LMS last listed it: one row per LMS user (issuer and
-- subject, as their launch names them), replaced as a whole by each fetch
-- that works. A member is matched to their learner through lti_users.
CREATE TABLE lti_roster_members (
    class_id   INTEGER NOT NULL REFERENCES lti_rosters(class_id) ON DELETE CASCADE,
    issuer     TEXT NOT NULL,
    subject    TEXT NOT NULL,
    name       TEXT NOT NULL,
    instructor INTEGER NOT NULL,
    learner    INTEGER NOT NULL,
    active     INTEGER NOT NULL,
    fetched_at TEXT NOT NULL,
    PRIMARY KEY (class_id, issuer, subject)
);
