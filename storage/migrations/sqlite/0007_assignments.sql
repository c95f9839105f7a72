-- Lessons assigned to a class; due_at is the instant the lesson is due
-- (the end of the due day in the class's zone), NULL for no due date.
CREATE TABLE assignments (
    class_id    INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    lesson_slug TEXT NOT NULL,
    due_at      TEXT,
    assigned_at TEXT NOT NULL,
    PRIMARY KEY (class_id, lesson_slug)
);
