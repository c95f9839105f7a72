package postgres

import (
	"context"
	"crypto/rand"
	"fmt"

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
