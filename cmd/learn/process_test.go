package main

import (
	"bufio"
	"context"
	"log/slog"

	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// learnProcess is the learn command running as a separate process.
type learnProcess struct {
	cmd  *exec.Cmd
	base string
	logs *strings.Builder
	done chan error
}

// freeAddr returns a loopback address with a port nobody listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// startProcess runs "learn serve" in a child process on db, with any extra
// flags, and waits until it serves.
func startProcess(t *testing.T, db string, extra ...string) *learnProcess {
	t.Helper()
	return startProcessAt(t, freeAddr(t), db, extra...)
}

// startProcessAt is startProcess listening on addr.
func startProcessAt(t *testing.T, addr, db string, extra ...string) *learnProcess {
	t.Helper()
	// Workers at the server's priority: other test binaries at normal
	// priority share these cores, and a lowered worker would then run out
	// of time on code that passes.
	args := append([]string{"serve", "--addr", addr, "--db", db, "--warm-pool", "0", "--worker-nice", "0",
		"--python-wasm", testSandboxConfig(t).WasmPath}, extra...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "LEARN_TEST_RUN_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &learnProcess{cmd: cmd, base: "http://" + addr, logs: &strings.Builder{}, done: make(chan error, 1)}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	go func() {
		for l := range lines {
			p.logs.WriteString(l + "\n")
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() { cmd.Process.Kill() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		if conn, err := net.Dial("tcp", addr); err == nil {
			conn.Close()
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("learn serve did not listen on %s within 30 s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestKilledServerLosesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	p := startProcess(t, db)
	c := newClient(t)
	get(t, c, p.base+"/")
	get(t, c, p.base+"/lessons/tool-annotations")
	// No graceful shutdown: the process dies at once, as on a power cut.
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-p.done

	p2 := startProcess(t, db)
	c2 := newClient(t)
	for _, ck := range c.Jar.Cookies(mustURL(t, p.base)) {
		c2.Jar.SetCookies(mustURL(t, p2.base), []*http.Cookie{ck})
	}
	if _, body := get(t, c2, p2.base+"/"); !lessonState(body, "tool-annotations", "opened") {
		t.Error("after the server was killed and started again, the opened lesson was lost")
	}

	// SIGTERM shuts down cleanly and exits 0.
	if err := p2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-p2.done:
		if err != nil {
			t.Errorf("learn serve exited with %v after SIGTERM, want 0\n%s", err, p2.logs)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("learn serve did not stop within 20 s of SIGTERM")
	}
	if !strings.Contains(p2.logs.String(), `"msg":"shutting down"`) {
		t.Errorf("no shutdown in the log:\n%s", p2.logs)
	}
}

func TestDevModeReloadsLessons(t *testing.T) {
	dir := t.TempDir()
	lesson := func(title string) []byte {
		return []byte("---\ntitle: " + title + "\nslug: a\norder: 1\nsummary: S.\nobjectives:\n  - O\nminutes: 3\n---\nText.\n\n## Key takeaways\n- x\n")
	}
	path := filepath.Join(dir, "01-a.md")
	if err := os.WriteFile(path, lesson("First title"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	listening := make(chan string, 1)
	cfg := serveConfig{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "l.db"), lessons: dir, dev: true, sandbox: testSandboxConfig(t)}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, slog.New(slog.DiscardHandler), listening) }()
	base := "http://" + <-listening
	c := newClient(t)
	if _, body := get(t, c, base+"/"); !strings.Contains(body, "First title") {
		t.Fatal("the course folder is not served")
	}
	// A broken edit keeps the last good course; a fixed one replaces it.
	if err := os.WriteFile(path, []byte("---\ntitle: [broken\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	if _, body := get(t, c, base+"/"); !strings.Contains(body, "First title") {
		t.Error("a broken edit replaced the last good course")
	}
	if err := os.WriteFile(path, lesson("Second title"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, body := get(t, c, base+"/"); strings.Contains(body, "Second title") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the edited lesson was not reloaded within 10 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}
