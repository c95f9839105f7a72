package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"learn/progress"
)

// EnsureLearner creates the learner with this id if it does not exist yet and
// returns it. It is safe to call on every request that needs a learner row.
func (s *DB) EnsureLearner(ctx context.Context, id string, now time.Time) (progress.Learner, error) {
	if id == "" {
		return progress.Learner{}, errors.New("storage: ensure learner: empty id")
	}
	if _, err := s.exec(ctx,
		"INSERT INTO learners (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
		id, s.t(now)); err != nil {
		return progress.Learner{}, fmt.Errorf("storage: ensure learner: %w", err)
	}
	return s.FindLearner(ctx, id)
}

// FindLearner returns the learner with this id, or an error wrapping
// ErrNotFound.
func (s *DB) FindLearner(ctx context.Context, id string) (progress.Learner, error) {
	var l progress.Learner
	var created string
	err := s.row(ctx, "SELECT id, created_at, time_zone FROM learners WHERE id = ?", id).
		Scan(&l.ID, &created, &l.TimeZone)
	if errors.Is(err, sql.ErrNoRows) {
		return progress.Learner{}, fmt.Errorf("storage: find learner %q: %w", id, ErrNotFound)
	}
	if err != nil {
		return progress.Learner{}, fmt.Errorf("storage: find learner %q: %w", id, err)
	}
	if l.CreatedAt, err = parseTime(created); err != nil {
		return progress.Learner{}, fmt.Errorf("storage: find learner %q: %w", id, err)
	}
	return l, nil
}

// SetTimeZone records the learner's IANA time zone name. The caller validates
// the name; the store keeps what it is given.
func (s *DB) SetTimeZone(ctx context.Context, learnerID, zone string) error {
	res, err := s.exec(ctx, "UPDATE learners SET time_zone = ? WHERE id = ?", zone, learnerID)
	if err != nil {
		return fmt.Errorf("storage: set time zone: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("storage: set time zone for %q: %w", learnerID, ErrNotFound)
	}
	return nil
}
