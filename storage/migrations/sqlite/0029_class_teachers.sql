-- Co-teachers: teacher accounts the class's owner (classes.teacher_id)
-- added by e-mail. They see and manage the class as its owner does, but
-- only the owner deletes the class or removes a co-teacher
-- (progress.AddCoTeacher). Deleting the class or the co-teacher's account
-- deletes the row.
CREATE TABLE class_teachers (
    class_id   INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
    teacher_id INTEGER NOT NULL REFERENCES teachers(id) ON DELETE CASCADE,
    added_at   TEXT NOT NULL,
    PRIMARY KEY (class_id, teacher_id)
);
CREATE INDEX class_teachers_teacher ON class_teachers (teacher_id);

-- A reset is of a quiz's attempts or of an exercise's submissions: kind
-- says which, widget_id names the quiz or the exercise.
ALTER TABLE attempt_resets ADD COLUMN kind TEXT NOT NULL DEFAULT 'quiz';
