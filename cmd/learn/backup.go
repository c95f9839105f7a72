package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"learn/postgres"
	"learn/store"
)

// runBackup copies the database to a new file, safely while a server runs
// on it.
func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("backup", "Copy the database to FILE (which must not exist), safely while the server runs. "+
		"To restore, stop the server and copy FILE over the database (see the README).", stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Copy the database to FILE, safely while the server runs.\n\nUsage:\n  learn backup [flags] FILE\n\n"+
			"To restore: stop the server, remove the database's -wal and -shm files, copy FILE over the database, start the server.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	db := fs.String("db", "learn.db", "SQLite database `file` to copy")
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "learn backup: name one file to write the copy to, for example: learn backup --db learn.db learn-backup.db")
		return errUsage
	}
	dest := fs.Arg(0)
	if postgres.IsURL(*db) {
		return errors.New("backup: --db is a PostgreSQL database; back it up with PostgreSQL's own tools (pg_dump, or the server's base backups), which copy it while the replicas run")
	}
	st, err := store.Open(ctx, *db)
	if err != nil {
		return err
	}
	backupErr := st.Backup(ctx, dest)
	if err := errors.Join(backupErr, st.Close()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Copied %s to %s.\n", *db, dest)
	return nil
}
