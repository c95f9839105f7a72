-- The page generation: a count the database itself moves on every write
-- that can change what a lesson page shows a learner of other people's
-- doing (Q&A posts, helpful marks and reports, public names, classes,
-- their members, assignments and extensions), by triggers in the writing
-- transaction, so every server sharing the database, and every write path
-- (migrate-db and cascades included), moves it. Servers key the Q&A
-- section they keep drawn, and the lesson page's entity tag, by it (see
-- web/etag.go); a learner's own writes are in their summary. The row is
-- made by the first such write (no row reads as 0), so a new database
-- stays empty for migrate-db, and the SQLite export leaves it out.
CREATE TABLE page_generations (
    name       TEXT PRIMARY KEY,
    generation BIGINT NOT NULL
);
CREATE TRIGGER qa_posts_page_insert AFTER INSERT ON qa_posts
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_posts_page_update AFTER UPDATE ON qa_posts
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_posts_page_delete AFTER DELETE ON qa_posts
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_helpful_page_insert AFTER INSERT ON qa_helpful
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_helpful_page_update AFTER UPDATE ON qa_helpful
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_helpful_page_delete AFTER DELETE ON qa_helpful
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_reports_page_insert AFTER INSERT ON qa_reports
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_reports_page_update AFTER UPDATE ON qa_reports
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_reports_page_delete AFTER DELETE ON qa_reports
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_names_page_insert AFTER INSERT ON qa_names
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_names_page_update AFTER UPDATE ON qa_names
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER qa_names_page_delete AFTER DELETE ON qa_names
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER classes_page_insert AFTER INSERT ON classes
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER classes_page_update AFTER UPDATE ON classes
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER classes_page_delete AFTER DELETE ON classes
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER class_members_page_insert AFTER INSERT ON class_members
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER class_members_page_update AFTER UPDATE ON class_members
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER class_members_page_delete AFTER DELETE ON class_members
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER assignments_page_insert AFTER INSERT ON assignments
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER assignments_page_update AFTER UPDATE ON assignments
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER assignments_page_delete AFTER DELETE ON assignments
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER assignment_extensions_page_insert AFTER INSERT ON assignment_extensions
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER assignment_extensions_page_update AFTER UPDATE ON assignment_extensions
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
CREATE TRIGGER assignment_extensions_page_delete AFTER DELETE ON assignment_extensions
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = generation + 1;
END;
