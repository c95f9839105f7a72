package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"learn/store"
)

func TestRotateKeysAndBackupCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "learn.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	first, old, err := cookieKeys(ctx, st, defaultKeyGrace, time.Now())
	if err != nil || len(first) != 64 || len(old) != 0 {
		t.Fatalf("first keys: %d bytes, %d old, %v", len(first), len(old), err)
	}
	st.Close()

	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"rotate-keys", "--db", db}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "Restart the server") {
		t.Fatalf("rotate-keys = %d\n%s%s", code, out.String(), errOut.String())
	}
	st, err = store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	key, old, err := cookieKeys(ctx, st, time.Hour, time.Now())
	if err != nil || bytes.Equal(key, first) || len(old) != 1 || !bytes.Equal(old[0], first) {
		t.Errorf("after rotating: new key differs %v, old keys %d (the first one: %v), %v",
			!bytes.Equal(key, first), len(old), len(old) == 1 && bytes.Equal(old[0], first), err)
	}
	if _, old, _ := cookieKeys(ctx, st, time.Hour, time.Now().Add(2*time.Hour)); len(old) != 0 {
		t.Error("the retired key still verifies after its grace period")
	}

	dest := filepath.Join(dir, "copy.db")
	out.Reset()
	errOut.Reset()
	if code := run(ctx, []string{"backup", "--db", db, dest}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "Copied") {
		t.Fatalf("backup = %d\n%s%s", code, out.String(), errOut.String())
	}
	cp, err := store.Open(ctx, dest)
	if err != nil {
		t.Fatal(err)
	}
	defer cp.Close()
	if k, _, err := cookieKeys(ctx, cp, time.Hour, time.Now()); err != nil || !bytes.Equal(k, key) {
		t.Errorf("the copy does not hold the current key: %v", err)
	}
	for _, args := range [][]string{{"backup", "--db", db, dest}, {"backup", "--db", db}} {
		errOut.Reset()
		if code := run(ctx, args, &out, &errOut); code == 0 || errOut.Len() == 0 {
			t.Errorf("learn %v = %d with %q, want a failure that says why", args, code, errOut.String())
		}
	}
}
