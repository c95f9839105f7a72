-- The attempt that earned each award (a widget check, quiz attempt, review
-- answer or exercise submission), written in the award's transaction.
-- Awards granted before this migration keep their XP and have none.
ALTER TABLE xp_awards ADD COLUMN attempt_id BIGINT REFERENCES attempts(id) ON DELETE SET NULL;
