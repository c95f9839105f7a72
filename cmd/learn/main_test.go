package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCommands(t *testing.T) {
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "01-a.md"), []byte("---\ntitle: A\nslug: Not A Slug\norder: 1\n---\nBody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		code       int
		wantOut    []string
		wantErrOut []string
	}{
		{"no command", nil, 2, nil, []string{"Usage:", "serve", "check"}},
		{"help", []string{"--help"}, 0, []string{"Commands:"}, nil},
		{"unknown command", []string{"teleport"}, 2, nil, []string{`unknown command "teleport"`}},
		{"serve help", []string{"serve", "--help"}, 0, nil, []string{"-addr", "[LEARN_ADDR]", "-db", "-lessons", "-log-level", "-dev"}},
		{"serve bad flag", []string{"serve", "--colour"}, 2, nil, []string{"flag provided but not defined: -colour"}},
		{"check built-in", []string{"check"}, 0, []string{"built-in course: ok", "lessons"}, nil},
		{"check bad folder", []string{"check", bad}, 1, []string{
			"01-a.md:3: slug \"Not A Slug\" is not valid", "01-a.md:2: missing summary", "missing takeaways", "problem(s)",
		}, nil},
		{"check missing folder", []string{"check", filepath.Join(bad, "nope")}, 1, nil, []string{"is not a folder"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tt.args, &out, &errOut)
			if code != tt.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, out.String(), errOut.String())
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out.String(), w) {
					t.Errorf("stdout lacks %q:\n%s", w, out.String())
				}
			}
			for _, w := range tt.wantErrOut {
				if !strings.Contains(errOut.String(), w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut.String())
				}
			}
		})
	}
}

func TestEnvironmentFillsFlags(t *testing.T) {
	t.Setenv("LEARN_DB", "from-env.db")
	t.Setenv("LEARN_ADDR", "127.0.0.1:1")
	fs := flagSet("serve", "", &bytes.Buffer{})
	db := fs.String("db", "learn.db", "")
	addr := fs.String("addr", "localhost:8080", "")
	if err := parseFlags(fs, []string{"--addr", "127.0.0.1:2"}, withEnv(fs)); err != nil {
		t.Fatal(err)
	}
	if *db != "from-env.db" {
		t.Errorf("db = %q, want the environment's value", *db)
	}
	if *addr != "127.0.0.1:2" {
		t.Errorf("addr = %q, want the command line to win over the environment", *addr)
	}
	if got := envName("log-level"); got != "LEARN_LOG_LEVEL" {
		t.Errorf("envName = %q", got)
	}
}
