-- Every graded try: a widget check, a lesson quiz, a review answer.
-- Attempts are also the learner's activity for streaks.
CREATE TABLE attempts (
    id          INTEGER PRIMARY KEY,
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    lesson_slug TEXT NOT NULL,
    widget_id   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    score       INTEGER NOT NULL,
    total       INTEGER NOT NULL,
    passed      INTEGER NOT NULL,
    answers     TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX attempts_learner_widget ON attempts (learner_id, lesson_slug, widget_id);
CREATE INDEX attempts_learner_time ON attempts (learner_id, created_at);

-- The spaced-review queue: one card per missed item, scheduled by FSRS.
CREATE TABLE review_cards (
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    item_key    TEXT NOT NULL,
    lesson_slug TEXT NOT NULL,
    widget_id   TEXT NOT NULL,
    item_id     TEXT NOT NULL,
    state       INTEGER NOT NULL,
    step        INTEGER NOT NULL,
    stability   REAL NOT NULL,
    difficulty  REAL NOT NULL,
    due         TEXT NOT NULL,
    last_review TEXT,
    reps        INTEGER NOT NULL,
    lapses      INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (learner_id, item_key)
);
CREATE INDEX review_cards_due ON review_cards (learner_id, due);
