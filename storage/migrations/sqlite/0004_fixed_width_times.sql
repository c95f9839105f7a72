-- Times were written with RFC 3339's trimmed fractions ("…:05Z",
-- "…:05.5Z"), which do not sort as text: "05Z" sorts after "05.1Z". From now
-- on every instant is written with nine fraction digits; this rewrites the
-- rows written before. Every stored time is UTC and ends in "Z".

UPDATE learners SET
created_at = CASE
    WHEN created_at IS NULL OR length(created_at) = 30 THEN created_at
    WHEN instr(created_at, '.') = 0 THEN substr(created_at, 1, 19) || '.000000000Z'
    ELSE substr(created_at, 1, 20) || substr(substr(created_at, 21, length(created_at) - 21) || '000000000', 1, 9) || 'Z' END;

UPDATE lesson_progress SET
opened_at = CASE
    WHEN opened_at IS NULL OR length(opened_at) = 30 THEN opened_at
    WHEN instr(opened_at, '.') = 0 THEN substr(opened_at, 1, 19) || '.000000000Z'
    ELSE substr(opened_at, 1, 20) || substr(substr(opened_at, 21, length(opened_at) - 21) || '000000000', 1, 9) || 'Z' END,
completed_at = CASE
    WHEN completed_at IS NULL OR length(completed_at) = 30 THEN completed_at
    WHEN instr(completed_at, '.') = 0 THEN substr(completed_at, 1, 19) || '.000000000Z'
    ELSE substr(completed_at, 1, 20) || substr(substr(completed_at, 21, length(completed_at) - 21) || '000000000', 1, 9) || 'Z' END;

UPDATE xp_awards SET
created_at = CASE
    WHEN created_at IS NULL OR length(created_at) = 30 THEN created_at
    WHEN instr(created_at, '.') = 0 THEN substr(created_at, 1, 19) || '.000000000Z'
    ELSE substr(created_at, 1, 20) || substr(substr(created_at, 21, length(created_at) - 21) || '000000000', 1, 9) || 'Z' END;

UPDATE attempts SET
created_at = CASE
    WHEN created_at IS NULL OR length(created_at) = 30 THEN created_at
    WHEN instr(created_at, '.') = 0 THEN substr(created_at, 1, 19) || '.000000000Z'
    ELSE substr(created_at, 1, 20) || substr(substr(created_at, 21, length(created_at) - 21) || '000000000', 1, 9) || 'Z' END;

UPDATE review_cards SET
due = CASE
    WHEN due IS NULL OR length(due) = 30 THEN due
    WHEN instr(due, '.') = 0 THEN substr(due, 1, 19) || '.000000000Z'
    ELSE substr(due, 1, 20) || substr(substr(due, 21, length(due) - 21) || '000000000', 1, 9) || 'Z' END,
last_review = CASE
    WHEN last_review IS NULL OR length(last_review) = 30 THEN last_review
    WHEN instr(last_review, '.') = 0 THEN substr(last_review, 1, 19) || '.000000000Z'
    ELSE substr(last_review, 1, 20) || substr(substr(last_review, 21, length(last_review) - 21) || '000000000', 1, 9) || 'Z' END,
created_at = CASE
    WHEN created_at IS NULL OR length(created_at) = 30 THEN created_at
    WHEN instr(created_at, '.') = 0 THEN substr(created_at, 1, 19) || '.000000000Z'
    ELSE substr(created_at, 1, 20) || substr(substr(created_at, 21, length(created_at) - 21) || '000000000', 1, 9) || 'Z' END;

UPDATE submissions SET
created_at = CASE
    WHEN created_at IS NULL OR length(created_at) = 30 THEN created_at
    WHEN instr(created_at, '.') = 0 THEN substr(created_at, 1, 19) || '.000000000Z'
    ELSE substr(created_at, 1, 20) || substr(substr(created_at, 21, length(created_at) - 21) || '000000000', 1, 9) || 'Z' END;

UPDATE exercise_code SET
updated_at = CASE
    WHEN updated_at IS NULL OR length(updated_at) = 30 THEN updated_at
    WHEN instr(updated_at, '.') = 0 THEN substr(updated_at, 1, 19) || '.000000000Z'
    ELSE substr(updated_at, 1, 20) || substr(substr(updated_at, 21, length(updated_at) - 21) || '000000000', 1, 9) || 'Z' END;
