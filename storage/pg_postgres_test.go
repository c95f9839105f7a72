package storage

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"learn/postgres/pgtest"
	"learn/progress"
	"learn/progress/storetest"
)

// TestPostgres runs every test of the backend against one throw-away
// cluster, each on a database of its own.
func TestPostgres(t *testing.T) {
	c := pgtest.Start(t)
	open := func(t *testing.T) *DB {
		t.Helper()
		s, err := OpenPostgres(context.Background(), c.NewDatabase(t))
		if err != nil {
			t.Fatalf("Open: %v\n%s", err, c.Logs())
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	t.Run("Conformance", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) storetest.Backend { return open(t) })
	})
	t.Run("MigrationsOnceAcrossServers", func(t *testing.T) { testMigrationsOnce(t, c) })
	t.Run("SecretShared", func(t *testing.T) { testSecretShared(t, c) })
	t.Run("SecretRotation", func(t *testing.T) { testSecretRotation(t, c) })
	t.Run("OpenErrors", func(t *testing.T) { testOpenErrors(t, c) })
	t.Run("WriteVersions", func(t *testing.T) { testWriteVersions(t, c) })
	t.Run("Import", func(t *testing.T) { testImport(t, open) })
	t.Run("CatalogueMatchesSQLite", func(t *testing.T) { testCatalogue(t, open) })
	t.Run("InvalidText", func(t *testing.T) { testInvalidText(t, open(t)) })
	t.Run("UpgradeRelease", func(t *testing.T) { testUpgradePostgresRelease(t, c.NewDatabase(t)) })
	t.Run("LTI", func(t *testing.T) { testLTI(t, open) })
	t.Run("LTIScores", func(t *testing.T) { testLTIScores(t, open) })
}

// testMigrationsOnce opens one database from several servers at once:
// each migration is applied and recorded exactly once.
func testMigrationsOnce(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	url := c.NewDatabase(t)
	const servers = 4
	stores := make([]*DB, servers)
	errs := make([]error, servers)
	var wg sync.WaitGroup
	for i := range servers {
		wg.Go(func() { stores[i], errs[i] = OpenPostgres(ctx, url) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("server %d: Open: %v", i, err)
		}
		defer stores[i].Close()
	}
	migrations, err := loadMigrations("postgres")
	if err != nil {
		t.Fatal(err)
	}
	var n, distinct int
	if err := stores[0].row(ctx, "SELECT count(*), count(DISTINCT version) FROM schema_migrations").Scan(&n, &distinct); err != nil {
		t.Fatal(err)
	}
	if n != len(migrations) || distinct != n {
		t.Errorf("schema_migrations has %d rows (%d versions), want %d", n, distinct, len(migrations))
	}
	// Reopening applies nothing again.
	s, err := OpenPostgres(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.row(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil || n != len(migrations) {
		t.Errorf("after reopening, schema_migrations has %d rows (%v), want %d", n, err, len(migrations))
	}
}

// testSecretShared checks that two servers on one database read the same
// cookie key, even when both create it at once.
func testSecretShared(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	url := c.NewDatabase(t)
	a, err := OpenPostgres(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenPostgres(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var ka, kb []byte
	var ea, eb error
	var wg sync.WaitGroup
	wg.Go(func() { ka, ea = a.Secret(ctx, "cookie", 64) })
	wg.Go(func() { kb, eb = b.Secret(ctx, "cookie", 64) })
	wg.Wait()
	if ea != nil || eb != nil {
		t.Fatalf("Secret: %v, %v", ea, eb)
	}
	if len(ka) != 64 || string(ka) != string(kb) {
		t.Errorf("the two servers got different keys (%d and %d bytes)", len(ka), len(kb))
	}
	if again, err := a.Secret(ctx, "cookie", 64); err != nil || string(again) != string(ka) {
		t.Errorf("the key changed on a second read (%v)", err)
	}
	if other, err := a.Secret(ctx, "other", 16); err != nil || len(other) != 16 || string(other) == string(ka[:16]) {
		t.Errorf("another name gave %d bytes (%v), want a fresh 16-byte secret", len(other), err)
	}
}

// testSecretRotation rotates a key on one server: the other reads the new
// key and the retired one with its time.
func testSecretRotation(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	url := c.NewDatabase(t)
	a, err := OpenPostgres(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := OpenPostgres(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, _, err := a.PreviousSecret(ctx, "cookie"); !errors.Is(err, progress.ErrNotFound) {
		t.Fatalf("PreviousSecret before any rotation = %v, want ErrNotFound", err)
	}
	first, err := a.Secret(ctx, "cookie", 64)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 123456789, time.UTC)
	if err := a.RotateSecret(ctx, "cookie", 64, at); err != nil {
		t.Fatal(err)
	}
	now, err := b.Secret(ctx, "cookie", 64)
	if err != nil || len(now) != 64 || string(now) == string(first) {
		t.Fatalf("after rotation the other server reads %d bytes (%v), want a new 64-byte key", len(now), err)
	}
	prev, retired, err := b.PreviousSecret(ctx, "cookie")
	if err != nil || string(prev) != string(first) || !retired.Equal(at) {
		t.Errorf("PreviousSecret = %d bytes retired %v (%v), want the first key retired %v", len(prev), retired, err, at)
	}
	if err := b.RotateSecret(ctx, "fresh", 16, at); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.PreviousSecret(ctx, "fresh"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a first rotation left a previous secret (%v)", err)
	}
}

func testOpenErrors(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	tests := []struct {
		name, url, want string
		secret          string
	}{
		{"not a URL", "postgres://a b c:%%", "storage: open", ""},
		{"missing database", c.URL("nosuchdb"), "nosuchdb", ""},
		{"password not repeated", strings.Replace(c.URL("nosuchdb"), "postgres@", "postgres:hunter2secret@", 1), "nosuchdb", "hunter2secret"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := OpenPostgres(ctx, tc.url)
			if err == nil {
				s.Close()
				t.Fatalf("OpenPostgres(%q) succeeded", tc.url)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open error = %q, want it to mention %q", err, tc.want)
			}
			if tc.secret != "" && strings.Contains(err.Error(), tc.secret) {
				t.Errorf("Open error repeats the password: %q", err)
			}
		})
	}
	if !errors.Is(ErrNotFound, progress.ErrNotFound) {
		t.Error("ErrNotFound is not progress.ErrNotFound")
	}
}

func TestIsURL(t *testing.T) {
	tests := []struct {
		db   string
		want bool
	}{
		{"postgres://u@h/db", true},
		{"postgresql://u@h/db?sslmode=disable", true},
		{"learn.db", false},
		{"/var/lib/learn/learn.db", false},
		{"postgres.db", false},
	}
	for _, tc := range tests {
		if got := IsURL(tc.db); got != tc.want {
			t.Errorf("IsURL(%q) = %v, want %v", tc.db, got, tc.want)
		}
	}
}

func TestRedacted(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://learn:s3cret@db.internal:5432/learn?sslmode=require", "postgres://learn:xxxxx@db.internal:5432/learn?sslmode=require"},
		{"postgres://learn@db/learn", "postgres://learn@db/learn"},
		{"postgres://a b:%%", "(unreadable URL)"},
	}
	for _, tc := range tests {
		if got := Redacted(tc.in); got != tc.want {
			t.Errorf("Redacted(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// testInvalidText checks that PostgreSQL's refusal of invalid UTF-8 and
// NUL bytes is classified (ErrInvalidText), not a bare driver error, and
// that a unique violation is ErrConflict as on SQLite.
func testInvalidText(t *testing.T, s *DB) {
	ctx := context.Background()
	for _, name := range []string{"bad \xff byte", "nul \x00 byte"} {
		err := s.SetPublicName(ctx, "l1", name, "key-"+name, time.Now())
		if !errors.Is(err, ErrInvalidText) {
			t.Errorf("SetPublicName(%q) = %v, want ErrInvalidText", name, err)
		}
	}
	if _, err := s.CreateTeacher(ctx, progress.Teacher{Email: "a@example.org", Name: "A", PasswordHash: "h", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	_, err := s.CreateTeacher(ctx, progress.Teacher{Email: "a@example.org", Name: "B", PasswordHash: "h", CreatedAt: time.Now()})
	if !errors.Is(err, progress.ErrConflict) || errors.Is(err, ErrInvalidText) {
		t.Errorf("a second teacher with the same e-mail = %v, want ErrConflict", err)
	}
}
