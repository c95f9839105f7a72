-- The dashboard finds each member's first try at each widget: attempts by
-- learner, kind and widget, in id order (the rowid ends every index).
CREATE INDEX attempts_learner_kind_widget ON attempts (learner_id, kind, lesson_slug, widget_id);
