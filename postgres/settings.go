package postgres

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Secret returns the server secret stored under name, creating it with n
// random bytes the first time. Every server sharing the database gets the
// same value, so a cookie signed by one verifies on all of them; when
// several start at once, the first insert wins and the others read it.
func (s *Store) Secret(ctx context.Context, name string, n int) ([]byte, error) {
	fresh := make([]byte, n)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("postgres: secret %q: %w", name, err)
	}
	var value []byte
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx,
			"INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", name, fresh); err != nil {
			return err
		}
		return tx.QueryRow(ctx, "SELECT value FROM settings WHERE name = $1", name).Scan(&value)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: secret %q: %w", name, err)
	}
	return value, nil
}

// RotateSecret replaces the secret stored under name with n fresh random
// bytes and keeps the one it replaces as the previous secret, retired at
// now (see PreviousSecret), in one transaction. A name never used before
// gets a fresh secret and no previous one. The settings are named as the
// SQLite backend names them, so that migrate-db carries them over.
func (s *Store) RotateSecret(ctx context.Context, name string, n int, now time.Time) error {
	fresh := make([]byte, n)
	if _, err := rand.Read(fresh); err != nil {
		return fmt.Errorf("postgres: rotate secret %q: %w", name, err)
	}
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		var old []byte
		// FOR UPDATE: two rotations at once take turns.
		switch err := tx.QueryRow(ctx, "SELECT value FROM settings WHERE name = $1 FOR UPDATE", name).Scan(&old); {
		case errors.Is(err, pgx.ErrNoRows):
		case err != nil:
			return err
		default:
			if err := setSetting(ctx, tx, previousName(name), old); err != nil {
				return err
			}
			if err := setSetting(ctx, tx, retiredName(name), []byte(now.UTC().Format(time.RFC3339Nano))); err != nil {
				return err
			}
		}
		return setSetting(ctx, tx, name, fresh)
	})
	if err != nil {
		return fmt.Errorf("postgres: rotate secret %q: %w", name, err)
	}
	return nil
}

// PreviousSecret returns the secret RotateSecret last replaced under name,
// and when it was retired. The error wraps ErrNotFound when name was never
// rotated.
func (s *Store) PreviousSecret(ctx context.Context, name string) ([]byte, time.Time, error) {
	var value, retired []byte
	err := s.pool.QueryRow(ctx, `SELECT p.value, r.value FROM settings p JOIN settings r ON r.name = $2
		WHERE p.name = $1`, previousName(name), retiredName(name)).Scan(&value, &retired)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("postgres: previous secret %q: %w", name, notFound(err))
	}
	at, err := time.Parse(time.RFC3339Nano, string(retired))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("postgres: previous secret %q: retired at %q: %w", name, retired, err)
	}
	return value, at.UTC(), nil
}

func previousName(name string) string { return name + ".previous" }
func retiredName(name string) string  { return name + ".retired-at" }

// setSetting writes one setting, replacing its value.
func setSetting(ctx context.Context, tx pgx.Tx, name string, value []byte) error {
	_, err := tx.Exec(ctx,
		"INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value", name, value)
	return err
}
