-- Rows the dashboard reads instead of re-deriving them on every view,
-- kept by triggers so that every write path fills them (SQLite triggers;
-- a PostgreSQL backend keeps them with its own triggers or in its writes).

-- Each learner's first try at each widget or quiz.
CREATE TABLE first_tries (
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    lesson_slug TEXT NOT NULL,
    widget_id   TEXT NOT NULL,
    attempt_id  INTEGER NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
    PRIMARY KEY (learner_id, kind, lesson_slug, widget_id)
);
INSERT INTO first_tries (learner_id, kind, lesson_slug, widget_id, attempt_id)
    SELECT learner_id, kind, lesson_slug, widget_id, min(id) FROM attempts
    WHERE kind IN ('annotate', 'classify', 'quiz') GROUP BY learner_id, kind, lesson_slug, widget_id;
CREATE TRIGGER attempts_first_try AFTER INSERT ON attempts
    WHEN NEW.kind IN ('annotate', 'classify', 'quiz')
BEGIN
    INSERT OR IGNORE INTO first_tries (learner_id, kind, lesson_slug, widget_id, attempt_id)
    VALUES (NEW.learner_id, NEW.kind, NEW.lesson_slug, NEW.widget_id, NEW.id);
END;

-- Each failing case of each failed submission, from its JSON report. A
-- report that is not valid JSON adds nothing (and never blocks the save).
CREATE TABLE submission_failures (
    submission_id INTEGER NOT NULL REFERENCES submissions(id) ON DELETE CASCADE,
    learner_id    TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    exercise_id   TEXT NOT NULL,
    case_name     TEXT NOT NULL,
    verdict       TEXT NOT NULL
);
CREATE INDEX submission_failures_learner ON submission_failures (learner_id, exercise_id);
INSERT INTO submission_failures (submission_id, learner_id, exercise_id, case_name, verdict)
    SELECT s.id, s.learner_id, s.exercise_id, coalesce(json_extract(c.value, '$.name'), ''), coalesce(json_extract(c.value, '$.verdict'), '')
    FROM submissions s, json_each(s.report, '$.cases') c
    WHERE s.mode = 'submit' AND s.passed = 0 AND json_valid(s.report) AND coalesce(json_extract(c.value, '$.verdict'), '') <> 'passed';
CREATE TRIGGER submissions_failures AFTER INSERT ON submissions
    WHEN NEW.mode = 'submit' AND NEW.passed = 0 AND json_valid(NEW.report)
BEGIN
    INSERT INTO submission_failures (submission_id, learner_id, exercise_id, case_name, verdict)
    SELECT NEW.id, NEW.learner_id, NEW.exercise_id, coalesce(json_extract(c.value, '$.name'), ''), coalesce(json_extract(c.value, '$.verdict'), '')
    FROM json_each(NEW.report, '$.cases') c
    WHERE coalesce(json_extract(c.value, '$.verdict'), '') <> 'passed';
END;

-- Each classify or annotate widget a learner has checked fully right.
CREATE TABLE widget_passes (
    learner_id  TEXT NOT NULL REFERENCES learners(id) ON DELETE CASCADE,
    lesson_slug TEXT NOT NULL,
    widget_id   TEXT NOT NULL,
    PRIMARY KEY (learner_id, lesson_slug, widget_id)
);
INSERT OR IGNORE INTO widget_passes (learner_id, lesson_slug, widget_id)
    SELECT learner_id, lesson_slug, widget_id FROM attempts WHERE kind IN ('annotate', 'classify') AND passed = 1;
CREATE TRIGGER attempts_widget_pass AFTER INSERT ON attempts
    WHEN NEW.kind IN ('annotate', 'classify') AND NEW.passed = 1
BEGIN
    INSERT OR IGNORE INTO widget_passes (learner_id, lesson_slug, widget_id) VALUES (NEW.learner_id, NEW.lesson_slug, NEW.widget_id);
END;
