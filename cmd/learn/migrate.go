package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"learn/postgres"
	"learn/store"
)

// runMigrateDB copies a SQLite database into an empty PostgreSQL one:
// "learn migrate-db --from learn.db --to postgres://…".
func runMigrateDB(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("migrate-db", "Copy every row of a SQLite database into an empty PostgreSQL database, in one transaction, and check the counts.\n"+
		"Stop every server using the SQLite file first; the PostgreSQL database must be empty (its schema is created).", stderr)
	from := fs.String("from", "", "SQLite database `file` to copy; it is brought up to this version's schema first")
	to := fs.String("to", "", "PostgreSQL database `URL` to fill, such as postgres://learn@db.example/learn")
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "learn migrate-db: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	if *from == "" || *to == "" {
		fmt.Fprintln(stderr, "learn migrate-db: both --from (a SQLite file) and --to (a postgres:// URL) are required")
		return errUsage
	}
	if !postgres.IsURL(*to) {
		return fmt.Errorf("migrate-db: --to %q is not a PostgreSQL URL: it must start with postgres:// or postgresql://", *to)
	}
	if postgres.IsURL(*from) {
		return errors.New("migrate-db: --from must be a SQLite file; copying between PostgreSQL databases is pg_dump's job")
	}
	// store.Open would create a missing file: check first, so a typo
	// copies nothing rather than an empty database.
	if info, err := os.Stat(*from); err != nil {
		return fmt.Errorf("migrate-db: --from: %w", err)
	} else if info.IsDir() {
		return fmt.Errorf("migrate-db: --from %s is a folder, not a SQLite file", *from)
	}
	src, err := store.Open(ctx, *from)
	if err != nil {
		return fmt.Errorf("migrate-db: %w", err)
	}
	defer src.Close()
	dst, err := postgres.Open(ctx, *to)
	if err != nil {
		return fmt.Errorf("migrate-db: %w", err)
	}
	defer dst.Close()
	counts, err := dst.Import(ctx, src)
	if err != nil {
		return fmt.Errorf("migrate-db: nothing was copied: %w", err)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "table\trows\t")
	var total int64
	for _, c := range counts {
		fmt.Fprintf(tw, "%s\t%d\t\n", c.Table, c.Rows)
		total += c.Rows
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Copied %d rows of %d tables from %s to %s; every table's count matches the source.\n",
		total, len(counts), *from, postgres.Redacted(*to))
	return nil
}
