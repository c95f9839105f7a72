package storage

import (
	"context"
	"fmt"
	"slices"
)

// The SQLite side of "learn migrate-db": a SQLite database is the Source
// that Import (postgres_import.go) copies into PostgreSQL.

// Tables names the tables of a SQLite database's data, its migration
// bookkeeping excluded, for moving them to another backend.
func (s *DB) Tables(ctx context.Context) ([]string, error) {
	// The dashboard's derived tables (migration 0009) are left out: the
	// target rebuilds them from attempts and submissions as it copies them;
	// so is the page generation (migration 0031), which the target's
	// triggers move as rows arrive.
	var out []string
	return out, s.each(ctx, "tables", func(sc scanner) error {
		var name string
		err := sc.Scan(&name)
		out = append(out, name)
		return err
	}, `SELECT name FROM sqlite_master
		WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'
		AND name NOT IN ('first_tries', 'submission_failures', 'widget_passes', 'page_generations') ORDER BY name`)
}

// table returns the name quoted for SQL, or an error when it is not one of
// Tables: names never come from outside the database.
func (s *DB) table(ctx context.Context, name string) (string, error) {
	tables, err := s.Tables(ctx)
	if err != nil {
		return "", err
	}
	if !slices.Contains(tables, name) {
		return "", fmt.Errorf("storage: no table %q", name)
	}
	return `"` + name + `"`, nil
}

// CountRows returns how many rows the table holds.
func (s *DB) CountRows(ctx context.Context, name string) (int64, error) {
	q, err := s.table(ctx, name)
	if err != nil {
		return 0, err
	}
	var n int64
	if err := s.row(ctx, "SELECT count(*) FROM "+q).Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: count %s: %w", name, err)
	}
	return n, nil
}

// ExportRows calls fn with the column names and values of each row of the
// table; values are as SQLite holds them (int64, float64,
// string, []byte or nil; instants are RFC 3339 text). It stops at fn's
// first error and returns it.
func (s *DB) ExportRows(ctx context.Context, name string, fn func(columns []string, values []any) error) error {
	q, err := s.table(ctx, name)
	if err != nil {
		return err
	}
	rows, err := s.rows(ctx, "SELECT * FROM "+q)
	if err != nil {
		return fmt.Errorf("storage: export %s: %w", name, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("storage: export %s: %w", name, err)
	}
	for rows.Next() {
		values := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("storage: export %s: %w", name, err)
		}
		if err := fn(cols, values); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("storage: export %s: %w", name, err)
	}
	return nil
}
