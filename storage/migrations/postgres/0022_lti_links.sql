-- An LMS user who had used learn with secret words before linked that
-- learner to their LMS account (progress.LinkLTILearner): from then on
-- lti_users names learner_id, the word-made learner, and from_learner_id
-- is the learner their first launch had made (deleted by the link). The
-- primary key lets an LMS user link once; the unique learner_id lets a
-- word-made learner be linked to one LMS user. class_id is the class whose
-- words proved the learner.
CREATE TABLE lti_links (
    issuer          TEXT NOT NULL,
    subject         TEXT NOT NULL,
    learner_id      TEXT NOT NULL UNIQUE REFERENCES learners(id) ON DELETE CASCADE,
    from_learner_id TEXT NOT NULL,
    class_id        BIGINT REFERENCES classes(id) ON DELETE SET NULL,
    linked_at       BIGINT NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX lti_links_class ON lti_links (class_id);
