package storage

// The secrets part of the store (progress.SecretStore): the cookie keys,
// kept in settings so that every server sharing the database signs alike.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Secret returns the server secret stored under name, creating it with n
// random bytes the first time. Keeping it in the database means cookies
// signed before a restart still verify after it.
func (s *DB) Secret(ctx context.Context, name string, n int) ([]byte, error) {
	fresh := make([]byte, n)
	if _, err := rand.Read(fresh); err != nil {
		return nil, fmt.Errorf("storage: secret %q: %w", name, err)
	}
	var value []byte
	err := s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx,
			"INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", name, fresh); err != nil {
			return err
		}
		return tx.row(ctx, "SELECT value FROM settings WHERE name = ?", name).Scan(&value)
	})
	if err != nil {
		return nil, fmt.Errorf("storage: secret %q: %w", name, err)
	}
	return value, nil
}

// RotateSecret replaces the secret stored under name with n fresh random
// bytes and keeps the one it replaces as the previous secret, retired at
// now (see PreviousSecret), all in one transaction. A name never used
// before gets a fresh secret and no previous one.
func (s *DB) RotateSecret(ctx context.Context, name string, n int, now time.Time) error {
	fresh := make([]byte, n)
	if _, err := rand.Read(fresh); err != nil {
		return fmt.Errorf("storage: rotate secret %q: %w", name, err)
	}
	err := s.inTx(ctx, func(tx q) error {
		var old []byte
		switch err := tx.row(ctx, "SELECT value FROM settings WHERE name = ?"+s.e.forUpdate, name).Scan(&old); {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		default:
			if err := setSetting(ctx, tx, previousName(name), old); err != nil {
				return err
			}
			if err := setSetting(ctx, tx, retiredName(name), []byte(now.UTC().Format(textTime))); err != nil {
				return err
			}
		}
		return setSetting(ctx, tx, name, fresh)
	})
	if err != nil {
		return fmt.Errorf("storage: rotate secret %q: %w", name, err)
	}
	return nil
}

// PreviousSecret returns the secret RotateSecret last replaced under name,
// and when it was retired. The error wraps ErrNotFound when name was never
// rotated.
func (s *DB) PreviousSecret(ctx context.Context, name string) ([]byte, time.Time, error) {
	var value, retired []byte
	err := s.row(ctx, "SELECT value FROM settings WHERE name = ?", previousName(name)).Scan(&value)
	if err == nil {
		err = s.row(ctx, "SELECT value FROM settings WHERE name = ?", retiredName(name)).Scan(&retired)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, time.Time{}, fmt.Errorf("storage: previous secret %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("storage: previous secret %q: %w", name, err)
	}
	at, err := parseTime(string(retired))
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("storage: previous secret %q: %w", name, err)
	}
	return value, at, nil
}

func previousName(name string) string { return name + ".previous" }
func retiredName(name string) string  { return name + ".retired-at" }

// setSetting writes one setting, replacing its value.
func setSetting(ctx context.Context, tx q, name string, value []byte) error {
	_, err := tx.exec(ctx,
		"INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", name, value)
	return err
}
