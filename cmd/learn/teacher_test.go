package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"learn/store"
)

func TestTeacherCommand(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	ctx := context.Background()
	runT := func(stdin string, args ...string) (string, string, error) {
		var out, errOut bytes.Buffer
		err := runTeacher(ctx, args, strings.NewReader(stdin), &out, &errOut)
		return out.String(), errOut.String(), err
	}
	// Flags may come after the arguments.
	if out, _, err := runT("a long enough password\n", "add", "Room12@School.example", "--name", "Room 12", "--db", db, "--admin"); err != nil || !strings.Contains(out, "room12@school.example") {
		t.Fatalf("teacher add = %q, %v", out, err)
	}
	if _, _, err := runT("a long enough password\n", "add", "room12@school.example", "--db", db); err == nil || !strings.Contains(err.Error(), "already a teacher") {
		t.Errorf("adding the same e-mail again: %v, want it refused", err)
	}
	if _, _, err := runT("short\n", "add", "bo@school.example", "--db", db); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a short password: %v, want it refused", err)
	}
	if _, _, err := runT("", "add", "bo@school.example", "--db", db); err == nil {
		t.Error("an empty standard input was taken as a password")
	}
	if _, _, err := runT("a long enough password\n", "add", "not-an-email", "--db", db); err == nil || !strings.Contains(err.Error(), "not an e-mail") {
		t.Errorf("a bad e-mail: %v", err)
	}
	out, _, err := runT("", "list", "--db", db)
	if err != nil || !strings.Contains(out, "room12@school.example") || !strings.Contains(out, "Room 12") || !strings.Contains(out, "true") {
		t.Errorf("teacher list = %q, %v", out, err)
	}
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	tc, err := st.FindTeacherByEmail(ctx, "room12@school.example")
	st.Close()
	if err != nil || !tc.Admin || tc.PasswordHash == "a long enough password" || !strings.HasPrefix(tc.PasswordHash, "$2") {
		t.Errorf("stored teacher = %+v (%v), want an admin with a bcrypt hash", tc, err)
	}
	if out, _, err := runT("", "remove", "ROOM12@school.example", "--db", db); err != nil || !strings.Contains(out, "removed") {
		t.Errorf("teacher remove = %q, %v", out, err)
	}
	if _, _, err := runT("", "remove", "room12@school.example", "--db", db); err == nil {
		t.Error("removing a teacher twice succeeded")
	}
	if _, _, err := runT("", "promote", "x", "--db", db); !errors.Is(err, errUsage) {
		t.Errorf("an unknown subcommand: %v, want a usage error", err)
	}
}
