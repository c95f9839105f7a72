-- Co-teachers change which classes' questions a teacher's lesson page
-- shows and moderates, so adding or removing one moves the page
-- generation too (see 0016).
CREATE TRIGGER class_teachers_page AFTER INSERT OR UPDATE OR DELETE ON class_teachers FOR EACH STATEMENT EXECUTE FUNCTION learn_page_generation();
