package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"learn/progress"
)

// EnsureLearner creates the learner with this id if it does not exist yet
// and returns it.
func (s *Store) EnsureLearner(ctx context.Context, id string, now time.Time) (progress.Learner, error) {
	if id == "" {
		return progress.Learner{}, errors.New("postgres: ensure learner: empty id")
	}
	if _, err := s.pool.Exec(ctx,
		"INSERT INTO learners (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", id, ns(now)); err != nil {
		return progress.Learner{}, fmt.Errorf("postgres: ensure learner: %w", err)
	}
	return s.FindLearner(ctx, id)
}

// FindLearner returns the learner with this id, or an error wrapping
// ErrNotFound.
func (s *Store) FindLearner(ctx context.Context, id string) (progress.Learner, error) {
	var l progress.Learner
	var created int64
	err := s.pool.QueryRow(ctx, "SELECT id, created_at, time_zone FROM learners WHERE id = $1", id).
		Scan(&l.ID, &created, &l.TimeZone)
	if err != nil {
		return progress.Learner{}, fmt.Errorf("postgres: find learner %q: %w", id, notFound(err))
	}
	l.CreatedAt = fromNS(created)
	return l, nil
}

// SetTimeZone records the learner's IANA time zone name, as given.
func (s *Store) SetTimeZone(ctx context.Context, learnerID, zone string) error {
	tag, err := s.pool.Exec(ctx, "UPDATE learners SET time_zone = $1 WHERE id = $2", zone, learnerID)
	if err != nil {
		return fmt.Errorf("postgres: set time zone: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("postgres: set time zone for %q: %w", learnerID, ErrNotFound)
	}
	return nil
}

func ensureLearner(ctx context.Context, tx pgx.Tx, id string, now time.Time) error {
	if _, err := tx.Exec(ctx,
		"INSERT INTO learners (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", id, ns(now)); err != nil {
		return fmt.Errorf("postgres: ensure learner: %w", err)
	}
	return nil
}
