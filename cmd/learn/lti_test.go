package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"learn/internal/ltiplatform"
	"learn/postgres/pgtest"
	"learn/store"
)

// testLTICommand registers, lists and removes platforms in the database
// db names (a SQLite file or a postgres:// URL).
func testLTICommand(t *testing.T, db string) {
	ctx := context.Background()
	runL := func(args ...string) (string, string, error) {
		var out, errOut bytes.Buffer
		err := runLTI(ctx, append(args, "--db", db), &out, &errOut)
		return out.String(), errOut.String(), err
	}
	add := []string{"add", "--issuer", "https://lms.example", "--client-id", "c1", "--deployment", "d1", "--deployment", "d2",
		"--login", "https://lms.example/auth", "--token", "https://lms.example/token", "--jwks", "https://lms.example/jwks"}
	if out, _, err := runL(add...); err != nil || !strings.Contains(out, "registered https://lms.example") || !strings.Contains(out, "d1, d2") {
		t.Fatalf("lti add = %q, %v", out, err)
	}
	if _, _, err := runL(add...); err == nil || !strings.Contains(err.Error(), "registered already") {
		t.Errorf("adding again: %v, want it refused", err)
	}
	for _, tc := range []struct {
		name    string
		replace [2]string // flag value to change
		want    string
	}{
		{"http off localhost", [2]string{"https://lms.example/jwks", "http://lms.example/jwks"}, "not https"},
		{"not an address", [2]string{"https://lms.example/auth", "lms/auth"}, "not an absolute"},
		{"no client id", [2]string{"c1", ""}, "client id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string(nil), add...)
			for i := range args {
				if args[i] == tc.replace[0] {
					args[i] = tc.replace[1]
				}
			}
			if _, errOut, err := runL(args...); !errors.Is(err, errUsage) || !strings.Contains(errOut, tc.want) {
				t.Errorf("lti add = %v, %q; want a usage error saying %q", err, errOut, tc.want)
			}
		})
	}
	local := []string{"add", "--issuer", "http://localhost:8081", "--client-id", "c2", "--deployment", "d",
		"--login", "http://localhost:8081/auth", "--token", "http://127.0.0.1:8081/token", "--jwks", "http://localhost:8081/jwks"}
	if _, errOut, err := runL(local...); err != nil {
		t.Errorf("http on localhost: %v %s", err, errOut)
	}
	if out, _, err := runL("list"); err != nil || !strings.Contains(out, "https://lms.example/jwks") || !strings.Contains(out, "d1,d2") || !strings.Contains(out, "c2") {
		t.Errorf("lti list = %q, %v", out, err)
	}
	if out, _, err := runL("add-deployment", "--issuer", "https://lms.example", "--client-id", "c1", "--deployment", "d3", "--deployment", "d1"); err != nil ||
		!strings.Contains(out, "may launch from deployments d1, d2, d3") {
		t.Errorf("lti add-deployment = %q, %v", out, err)
	}
	if _, _, err := runL("add-deployment", "--issuer", "https://lms.example", "--client-id", "nobody", "--deployment", "d4"); err == nil || !strings.Contains(err.Error(), "no platform") {
		t.Errorf("add-deployment to an unregistered client id: %v", err)
	}
	if _, errOut, err := runL("add-deployment", "--issuer", "https://lms.example", "--client-id", "c1"); !errors.Is(err, errUsage) || !strings.Contains(errOut, "one --deployment or more") {
		t.Errorf("add-deployment without a deployment: %v, %q", err, errOut)
	}
	if out, _, err := runL("remove", "--issuer", "https://lms.example", "--client-id", "c1"); err != nil || !strings.Contains(out, "removed") {
		t.Errorf("lti remove = %q, %v", out, err)
	}
	if _, _, err := runL("remove", "--issuer", "https://lms.example", "--client-id", "c1"); err == nil {
		t.Error("removing twice succeeded")
	}
	if out, _, err := runL("list"); err != nil || strings.Contains(out, "lms.example/jwks") {
		t.Errorf("lti list after removing = %q, %v", out, err)
	}
	if _, _, err := runL("promote"); !errors.Is(err, errUsage) {
		t.Errorf("an unknown action: %v, want a usage error", err)
	}
}

func TestLTICommand(t *testing.T) {
	testLTICommand(t, filepath.Join(t.TempDir(), "learn.db"))
}

func TestLTICommandOnPostgres(t *testing.T) {
	testLTICommand(t, pgtest.Start(t).NewDatabase(t))
}

// TestRotateKeysRotatesLTIKey: the new key signs, the old one stays in
// the published set for the grace period.
func TestRotateKeysRotatesLTIKey(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "learn.db")
	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	first, err := ltiKeys(ctx, st, time.Now())
	st.Close()
	if err != nil || len(first) != 1 {
		t.Fatalf("first keys = %d, %v", len(first), err)
	}
	var out, errOut bytes.Buffer
	if code := run(ctx, []string{"rotate-keys", "--db", db}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "LTI signing key") {
		t.Fatalf("rotate-keys = %d\n%s%s", code, out.String(), errOut.String())
	}
	st, err = store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	keys, err := ltiKeys(ctx, st, time.Now())
	if err != nil || len(keys) != 2 || keys[1].KID != first[0].KID || keys[0].KID == first[0].KID || keys[1].RetiredAt.IsZero() || !keys[0].RetiredAt.IsZero() {
		t.Errorf("after rotating: %d keys, %v", len(keys), err)
	}
}

func TestParsePublicURL(t *testing.T) {
	for _, tc := range []struct{ raw, want, problem string }{
		{"https://learn.school.example", "https://learn.school.example", ""},
		{"https://learn.school.example/", "https://learn.school.example", ""},
		{"https://learn.school.example:8443", "https://learn.school.example:8443", ""},
		{"http://localhost:8080", "http://localhost:8080", ""},
		{"http://learn.school.example", "", "not https"},
		{"https://learn.school.example/learn", "", "origin alone"},
		{"https://learn.school.example/?a=b", "", "origin alone"},
		{"learn.school.example", "", "not an absolute"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			u, err := parsePublicURL(tc.raw)
			switch {
			case tc.problem == "" && (err != nil || u.String() != tc.want):
				t.Errorf("parsePublicURL = %v, %v; want %s", u, err, tc.want)
			case tc.problem != "" && (err == nil || !strings.Contains(err.Error(), tc.problem)):
				t.Errorf("parsePublicURL = %v, %v; want an error saying %q", u, err, tc.problem)
			}
		})
	}
	var errOut bytes.Buffer
	if err := runServe(context.Background(), []string{"--public-url", "http://learn.school.example"}, &bytes.Buffer{}, &errOut); !errors.Is(err, errUsage) || !strings.Contains(errOut.String(), "--public-url") {
		t.Errorf("serve with an http public URL: %v, %q", err, errOut.String())
	}
}

// TestServeLTIRoutes: with --public-url the server publishes its key set
// (the same key after a restart) and takes login initiations; without it
// every LTI address says what to start it with.
func TestServeLTIRoutes(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	public := func(cfg *serveConfig) { cfg.publicURL = "http://localhost:8080" }
	keySet := func(base string) string {
		resp, body := get(t, newClient(t), base+"/lti/jwks")
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `"kid"`) {
			t.Fatalf("GET /lti/jwks = %d\n%s", resp.StatusCode, body)
		}
		return body
	}
	base, stop := startServerWith(t, db, public)
	first := keySet(base)
	if resp, body := get(t, newClient(t), base+"/lti/login"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "login_hint") {
		t.Errorf("an empty login initiation = %d\n%s", resp.StatusCode, body)
	}
	stop()
	base, stop = startServerWith(t, db, public)
	if again := keySet(base); again != first {
		t.Errorf("the key set changed across a restart:\n%s\n%s", first, again)
	}
	stop()
	base, _ = startServerWith(t, db, nil)
	if resp, body := get(t, newClient(t), base+"/lti/jwks"); resp.StatusCode != http.StatusNotFound || !strings.Contains(body, "--public-url") {
		t.Errorf("GET /lti/jwks without a public URL = %d\n%s", resp.StatusCode, body)
	}
}

// plainLMS starts a test LMS over plain HTTP on loopback and registers it
// in the database db with "learn lti add", as an administrator would.
func plainLMS(t *testing.T, db string) *ltiplatform.Platform {
	t.Helper()
	lms := ltiplatform.StartPlain(t, "learn-client", "deployment-1")
	var out, errOut bytes.Buffer
	if err := runLTI(context.Background(), []string{"add", "--db", db, "--issuer", lms.Issuer(), "--client-id", lms.ClientID,
		"--deployment", lms.DeploymentID, "--login", lms.AuthURL(), "--token", lms.TokenURL(), "--jwks", lms.JWKSURL()}, &out, &errOut); err != nil {
		t.Fatalf("lti add: %v\n%s", err, errOut.String())
	}
	return lms
}

// serveOnLocalhost runs learn in this process on db with its public
// address on localhost (where Chromium keeps Secure cookies over http,
// and which is another site than the test LMS's 127.0.0.1) and returns
// that address.
func serveOnLocalhost(t *testing.T, db string) string {
	t.Helper()
	addr := freeAddr(t)
	base := "http://localhost:" + addr[strings.LastIndex(addr, ":")+1:]
	startServerWith(t, db, func(cfg *serveConfig) { cfg.addr, cfg.publicURL = addr, base })
	return base
}
