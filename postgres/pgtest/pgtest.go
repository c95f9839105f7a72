// Package pgtest starts a throw-away PostgreSQL cluster for tests: initdb
// in a temporary folder, a server that listens only on a unix socket in
// that folder (no port to collide with), a fresh database per caller, and
// everything stopped and removed when the test ends.
//
// The binaries are found from $LEARN_POSTGRES_BIN, then initdb on $PATH,
// then Debian's /usr/lib/postgresql/<version>/bin (the newest version).
// Without them Start skips the test with a reason, or fails it when
// CI=true: CI installs Debian's postgresql package (scripts/ensure-postgresql).
//
// PostgreSQL refuses to run as root. Run as root, the cluster is created
// and started as the "postgres" system user that Debian's package creates
// (through runuser), in a folder owned by that user.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Cluster is a running throw-away PostgreSQL server.
type Cluster struct {
	bin    string
	dir    string
	socket string
	asUser string // system user to run as; "" for the current one
	next   atomic.Int64
	admin  string
}

// Start creates and starts a cluster for t and stops it in t.Cleanup. It
// skips t when PostgreSQL is not installed and CI is not set.
func Start(t testing.TB) *Cluster {
	t.Helper()
	bin, err := findBin()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pgtest: %v; CI must install it (scripts/ensure-postgresql)", err)
		}
		t.Skipf("pgtest: %v; install Debian's postgresql package (scripts/ensure-postgresql) to run this test", err)
	}
	c := &Cluster{bin: bin}
	if os.Geteuid() == 0 {
		if _, err := user.Lookup("postgres"); err != nil {
			t.Fatalf("pgtest: running as root, and there is no \"postgres\" system user to run PostgreSQL as (Debian's postgresql package creates it): %v", err)
		}
		c.asUser = "postgres"
	}
	// Not t.TempDir: its parents are root's and closed to the postgres
	// user, and a unix socket path must stay under about 100 bytes.
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c.dir = dir
	c.socket = dir
	if c.asUser != "" {
		if out, err := exec.Command("chown", c.asUser+":", dir).CombinedOutput(); err != nil {
			t.Fatalf("pgtest: chown %s: %v\n%s", dir, err, out)
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := c.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "--encoding=UTF8",
		"--locale=C.UTF-8", "--no-sync"); err != nil {
		t.Fatalf("pgtest: initdb: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-c listen_addresses='' -c unix_socket_directories=%s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", c.socket)
	if out, err := c.run("pg_ctl", "-D", data, "-l", filepath.Join(dir, "server.log"), "-o", opts, "-w", "-t", "120", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		t.Fatalf("pgtest: pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	t.Cleanup(func() {
		if out, err := c.run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"); err != nil {
			t.Logf("pgtest: pg_ctl stop: %v\n%s", err, out)
		}
	})
	c.admin = c.URL("postgres")
	return c
}

// run runs one of the cluster's binaries, as the cluster's user.
func (c *Cluster) run(name string, args ...string) ([]byte, error) {
	path := filepath.Join(c.bin, name)
	var cmd *exec.Cmd
	if c.asUser != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.asUser, "--", path}, args...)...)
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = os.TempDir()
	return cmd.CombinedOutput()
}

// URL returns the connection URL of the named database of the cluster.
func (c *Cluster) URL(database string) string {
	return "postgres://postgres@/" + url.PathEscape(database) + "?host=" + url.QueryEscape(c.socket) + "&sslmode=disable"
}

// NewDatabase creates an empty database for t, dropped in t.Cleanup, and
// returns its URL.
func (c *Cluster) NewDatabase(t testing.TB) string {
	t.Helper()
	name := "t" + strconv.FormatInt(c.next.Add(1), 10)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("pgtest: drop database %s: %v", name, err)
		}
	})
	return c.URL(name)
}

func (c *Cluster) exec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, c.admin)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// findBin returns the folder holding initdb and pg_ctl.
func findBin() (string, error) {
	if dir := os.Getenv("LEARN_POSTGRES_BIN"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err != nil {
			return "", fmt.Errorf("LEARN_POSTGRES_BIN=%s has no initdb: %w", dir, err)
		}
		return dir, nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin)")
}

// version reads the major version from /usr/lib/postgresql/<v>/bin.
func version(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

// Logs returns the server's log so far, for a failing test to print.
func (c *Cluster) Logs() string {
	b, err := os.ReadFile(filepath.Join(c.dir, "server.log"))
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(string(b))
}
