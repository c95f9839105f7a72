package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLTIInviteCommands: "learn lti invite" prints a one-time registration
// address on the public URL, "invites" lists it as open, "revoke-invite"
// withdraws it (and says so for an unknown id), and the flags are
// checked with actionable messages.
func TestLTIInviteCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "learn.db")
	run := func(args ...string) (string, string, error) {
		var out, errOut bytes.Buffer
		err := runLTI(context.Background(), append(args, "--db", db), &out, &errOut)
		return out.String(), errOut.String(), err
	}
	out, errOut, err := run("invite", "--public-url", "https://learn.school.example", "--expires", "48h")
	if err != nil {
		t.Fatalf("invite: %v\n%s", err, errOut)
	}
	address := regexp.MustCompile(`https://learn\.school\.example/lti/register\?invite=[A-Za-z0-9_-]{20,}`).FindString(out)
	if address == "" {
		t.Fatalf("invite printed no registration address:\n%s", out)
	}
	if out, _, err := run("invites"); err != nil || !strings.Contains(out, "open") {
		t.Fatalf("invites = %q, %v; want the invite listed as open", out, err)
	}
	if out, _, err := run("revoke-invite", "--id", "1"); err != nil || !strings.Contains(out, "revoked invite 1") {
		t.Fatalf("revoke-invite = %q, %v", out, err)
	}
	if out, _, err := run("invites"); err != nil || strings.Contains(out, "open") {
		t.Errorf("after revoking, invites = %q, %v; want no open invite", out, err)
	}
	if _, _, err := run("revoke-invite", "--id", "99"); err == nil || !strings.Contains(err.Error(), "no invite 99") {
		t.Errorf("revoking an unknown invite: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"invite"}, "give --public-url"},
		{[]string{"invite", "--public-url", "https://learn.school.example", "--expires", "-1h"}, "positive duration"},
	} {
		_, errOut, err := run(tc.args...)
		if err == nil || !strings.Contains(errOut+err.Error(), tc.want) {
			t.Errorf("%v: %v %q; want %q", tc.args, err, errOut, tc.want)
		}
	}
}
