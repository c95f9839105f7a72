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
CREATE FUNCTION learn_page_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO page_generations (name, generation) VALUES ('shared', 1)
        ON CONFLICT (name) DO UPDATE SET generation = page_generations.generation + 1;
    RETURN NULL;
END $$;
CREATE TRIGGER qa_posts_page AFTER INSERT OR UPDATE OR DELETE ON qa_posts FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
CREATE TRIGGER qa_helpful_page AFTER INSERT OR UPDATE OR DELETE ON qa_helpful FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
CREATE TRIGGER qa_reports_page AFTER INSERT OR UPDATE OR DELETE ON qa_reports FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
CREATE TRIGGER qa_names_page AFTER INSERT OR UPDATE OR DELETE ON qa_names FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
CREATE TRIGGER classes_page AFTER INSERT OR UPDATE OR DELETE ON classes FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
CREATE TRIGGER class_members_page AFTER INSERT OR UPDATE OR DELETE ON class_members FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
CREATE TRIGGER assignments_page AFTER INSERT OR UPDATE OR DELETE ON assignments FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
CREATE TRIGGER assignment_extensions_page AFTER INSERT OR UPDATE OR DELETE ON assignment_extensions FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
