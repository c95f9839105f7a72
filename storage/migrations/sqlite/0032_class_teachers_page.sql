-- Co-teachers change which classes' questions a teacher's lesson page
-- shows and moderates, so adding or removing one moves the page
-- generation too (see 0031).
CREATE TRIGGER class_teachers_page_insert AFTER INSERT ON class_teachers
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER class_teachers_page_update AFTER UPDATE ON class_teachers
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER class_teachers_page_delete AFTER DELETE ON class_teachers
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
