package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"learn/progress"
)

// The learners' signed-in devices and the sign-in failure counts of the
// classroom part of the store (progress.ClassroomStore).

// AddDevice saves a device signed in with a class's words.
func (s *DB) AddDevice(ctx context.Context, d progress.Device) error {
	if _, err := s.exec(ctx, `INSERT INTO learner_devices (id, learner_id, class_id, user_agent, created_at, last_seen)
		VALUES (?, ?, ?, ?, ?, ?)`, d.ID, d.LearnerID, d.ClassID, d.UserAgent, s.t(d.CreatedAt), s.t(d.LastSeen)); err != nil {
		return fmt.Errorf("storage: add device: %w", err)
	}
	return nil
}

const deviceColumns = "id, learner_id, class_id, user_agent, created_at, last_seen"

func scanDevice(sc scanner) (progress.Device, error) {
	var d progress.Device
	err := sc.Scan(&d.ID, &d.LearnerID, &d.ClassID, &d.UserAgent, at(&d.CreatedAt), at(&d.LastSeen))
	return d, err
}

// FindDevice returns the learner's device, or ErrNotFound.
func (s *DB) FindDevice(ctx context.Context, learnerID, deviceID string) (progress.Device, error) {
	d, err := scanDevice(s.row(ctx, "SELECT "+deviceColumns+" FROM learner_devices WHERE id = ? AND learner_id = ?", deviceID, learnerID))
	return d, notFoundOr(err, "storage: find device")
}

// TouchDevice sets a device's last-seen time.
func (s *DB) TouchDevice(ctx context.Context, deviceID string, when time.Time) error {
	if _, err := s.exec(ctx, "UPDATE learner_devices SET last_seen = ? WHERE id = ?", s.t(when), deviceID); err != nil {
		return fmt.Errorf("storage: touch device: %w", err)
	}
	return nil
}

// LearnerDevices returns the learner's devices, last seen first.
func (s *DB) LearnerDevices(ctx context.Context, learnerID string) ([]progress.Device, error) {
	var out []progress.Device
	return out, s.each(ctx, "devices of a learner", func(sc scanner) error {
		d, err := scanDevice(sc)
		out = append(out, d)
		return err
	}, "SELECT "+deviceColumns+" FROM learner_devices WHERE learner_id = ? ORDER BY last_seen DESC, id", learnerID)
}

// DeleteDevices deletes the learner's devices but keep.
func (s *DB) DeleteDevices(ctx context.Context, learnerID, keep string) (int, error) {
	res, err := s.exec(ctx, "DELETE FROM learner_devices WHERE learner_id = ? AND id <> ?", learnerID, keep)
	if err != nil {
		return 0, fmt.Errorf("storage: sign out devices: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: sign out devices: %w", err)
	}
	return int(n), nil
}

// DeleteIdleDevices deletes the learner's devices last seen before before.
func (s *DB) DeleteIdleDevices(ctx context.Context, learnerID string, before time.Time) (int, error) {
	res, err := s.exec(ctx, "DELETE FROM learner_devices WHERE learner_id = ? AND last_seen < ?", learnerID, s.t(before))
	if err != nil {
		return 0, fmt.Errorf("storage: sign out idle devices: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: sign out idle devices: %w", err)
	}
	return int(n), nil
}

// SignInFailures returns the failures counted under key.
func (s *DB) SignInFailures(ctx context.Context, key string) (progress.SignInFailures, error) {
	var f progress.SignInFailures
	err := s.row(ctx, "SELECT failures, last_at FROM signin_failures WHERE key = ?", key).Scan(&f.Count, at(&f.Last))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return f, fmt.Errorf("storage: read sign-in failures: %w", err)
	}
	return f, nil
}

// AddSignInFailure counts a failure under key, from one again when the
// last was before since, and drops keys whose last failure was before
// since.
func (s *DB) AddSignInFailure(ctx context.Context, key string, when, since time.Time) (progress.SignInFailures, error) {
	var f progress.SignInFailures
	err := s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM signin_failures WHERE last_at < ? AND key <> ?", tx.t(since), key); err != nil {
			return fmt.Errorf("storage: drop old sign-in failures: %w", err)
		}
		return tx.row(ctx, `INSERT INTO signin_failures (key, failures, last_at) VALUES (?, 1, ?)
			ON CONFLICT (key) DO UPDATE SET
				failures = CASE WHEN signin_failures.last_at < ? THEN 1 ELSE signin_failures.failures + 1 END,
				last_at = excluded.last_at
			RETURNING failures, last_at`, key, tx.t(when), tx.t(since)).Scan(&f.Count, at(&f.Last))
	})
	if err != nil {
		return f, fmt.Errorf("storage: count a sign-in failure: %w", err)
	}
	return f, nil
}

// ClearSignInFailures forgets the failures under key.
func (s *DB) ClearSignInFailures(ctx context.Context, key string) error {
	if _, err := s.exec(ctx, "DELETE FROM signin_failures WHERE key = ?", key); err != nil {
		return fmt.Errorf("storage: clear sign-in failures: %w", err)
	}
	return nil
}
