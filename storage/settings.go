package storage

import (
	"context"
	"crypto/rand"
	"fmt"
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
