package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"learn/lti"
	"learn/store"
)

// cookieKeyName is the setting that holds the learner cookie's signing key.
const cookieKeyName = "cookie-hash-key"

// defaultKeyGrace is how long cookies signed with a rotated-out key still
// verify: a learner's cookie is the only record of who they are, so it must
// outlast a term's gap between visits; each visit signs it again with the
// new key.
const defaultKeyGrace = 90 * 24 * time.Hour

// runRotateKeys replaces the cookie signing key in the database.
func runRotateKeys(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flagSet("rotate-keys", "Replace the key that signs learner cookies, and the LTI signing key. Cookies signed with the old key keep working "+
		"during the grace period of \"learn serve --key-grace\" and are signed again with the new key on each visit. Restart the server afterwards.", stderr)
	db := fs.String("db", "learn.db", "SQLite database `file` of the server, or the postgres:// URL its replicas share")
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "learn rotate-keys: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	st, _, err := openDatabase(ctx, *db, slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	now := time.Now()
	rotErr := st.RotateSecret(ctx, cookieKeyName, 64, now)
	if rotErr == nil {
		rotErr = rotateLTIKey(ctx, st, defaultKeyGrace, now)
	}
	if err := errors.Join(rotErr, st.Close()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "The cookie signing key of %s was replaced. Restart the server (every replica): it then signs with the new key, "+
		"and cookies signed with the old one verify for the grace period (--key-grace, default %s).\n", dbName(*db), graceText(defaultKeyGrace))
	fmt.Fprintf(stdout, "The LTI signing key was replaced too; the old public key stays in the key set (%s) for %s.\n", lti.JWKSPath, graceText(defaultKeyGrace))
	return nil
}

// cookieKeys returns the current cookie key, created on first use, and the
// retired one while it is within grace.
func cookieKeys(ctx context.Context, st database, grace time.Duration, now time.Time) (key []byte, old [][]byte, err error) {
	key, err = st.Secret(ctx, cookieKeyName, 64)
	if err != nil {
		return nil, nil, err
	}
	prev, retired, err := st.PreviousSecret(ctx, cookieKeyName)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return key, nil, nil
	case err != nil:
		return nil, nil, err
	case now.Sub(retired) < grace:
		old = append(old, prev)
	}
	return key, old, nil
}

// graceText writes a grace period in days when it is whole days.
func graceText(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.String()
}
