-- Assignment and Grade Services 2.0. A learner's launch of a resource link
-- that carries a line item keeps it here: the line item's address, the
-- lesson the link opens, the class of its LMS course, and the LMS user
-- (subject) to report the score for.
CREATE TABLE lti_line_items (
    learner_id       TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    platform_id      INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    resource_link_id TEXT NOT NULL,
    lesson_slug      TEXT NOT NULL,
    class_id         INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    line_item        TEXT NOT NULL,
    subject          TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    PRIMARY KEY (learner_id, platform_id, resource_link_id)
);
CREATE INDEX lti_line_items_lesson ON lti_line_items (learner_id, lesson_slug);

-- The outbox of scores: one row per learner and line item holding the
-- newest score (scored_at orders them; an older one never replaces it).
-- state is pending, sent or failed; a sender claims a due pending row by
-- setting lease and lease_until, so that one sender at a time holds it.
CREATE TABLE lti_scores (
    id            INTEGER PRIMARY KEY,
    learner_id    TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    platform_id   INTEGER NOT NULL REFERENCES lti_platforms(id) ON DELETE CASCADE,
    line_item     TEXT NOT NULL,
    class_id      INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    lesson_slug   TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    score_given   INTEGER NOT NULL,
    score_maximum INTEGER NOT NULL,
    completed     INTEGER NOT NULL,
    scored_at     TEXT NOT NULL,
    state         TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'failed')),
    attempts      INTEGER NOT NULL DEFAULT 0,
    next_try      TEXT NOT NULL,
    lease         TEXT,
    lease_until   TEXT,
    last_status   INTEGER NOT NULL DEFAULT 0,
    last_answer   TEXT NOT NULL DEFAULT '',
    updated_at    TEXT NOT NULL,
    UNIQUE (learner_id, platform_id, line_item)
);
CREATE INDEX lti_scores_due ON lti_scores (state, next_try);
CREATE INDEX lti_scores_class ON lti_scores (class_id);
