package main

import (
	"bytes"
	"context"
	"flag"
	"net"
	"slices"
	"strings"
	"testing"
)

// TestFlagMistakesAreShort checks that a mistake on the command line is
// told in two lines, the mistake and where to read the flags, not above
// the whole usage text.
func TestFlagMistakesAreShort(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--colour"}, {"serve", "--run-timeout", "5"}, {"check", "--jsn"}, {"run", "--stdin"},
		{"grade", "--json=maybe", "x", "y.py"}, {"backup", "--nope"}, {"teacher", "add", "--nope"}, {"new", "course", "--bad"},
	} {
		var out, errOut bytes.Buffer
		if code := run(context.Background(), args, &out, &errOut); code != 2 {
			t.Errorf("learn %s: exit %d, want 2", strings.Join(args, " "), code)
		}
		lines := strings.Split(strings.TrimSuffix(errOut.String(), "\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "learn ") || !strings.HasSuffix(lines[1], `-h" to see its flags.`) {
			t.Errorf("learn %s printed %d lines, want the mistake and a pointer to -h:\n%s", strings.Join(args, " "), len(lines), errOut.String())
		}
	}
}

// TestHelpPlaceholders checks that no flag's value placeholder is a unit
// of time ("-runs-per-minute minute" once said a count was a minute).
func TestHelpPlaceholders(t *testing.T) {
	for _, cmd := range []string{"serve", "check", "run", "grade", "backup", "rotate-keys", "migrate-db", "teacher", "new course"} {
		var out, errOut bytes.Buffer
		run(context.Background(), append(strings.Fields(cmd), "-h"), &out, &errOut)
		help := out.String() + errOut.String()
		if !strings.Contains(help, "  -") {
			t.Errorf("learn %s -h shows no flags:\n%s", cmd, help)
		}
		for _, line := range strings.Split(help, "\n") {
			f := strings.Fields(line)
			if len(f) == 2 && strings.HasPrefix(f[0], "-") && slices.Contains([]string{"second", "seconds", "minute", "minutes", "hour", "day"}, f[1]) {
				t.Errorf("learn %s -h: %q calls its value a unit", cmd, line)
			}
		}
	}
}

func TestLearnerURLs(t *testing.T) {
	ifaces := []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1"), net.ParseIP("192.168.1.20"), net.ParseIP("fe80::1"), net.ParseIP("fd00::2")}
	tests := []struct {
		name    string
		addr    *net.TCPAddr
		local   string
		network []string
	}{
		{"every interface, IPv6", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "http://localhost:8080", []string{"http://192.168.1.20:8080", "http://[fd00::2]:8080"}},
		{"every IPv4 interface", &net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "http://localhost:8080", []string{"http://192.168.1.20:8080"}},
		{"loopback", &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 9000}, "http://127.0.0.1:9000", nil},
		{"one address", &net.TCPAddr{IP: net.ParseIP("192.168.1.20"), Port: 80}, "http://192.168.1.20:80", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			local, network := learnerURLs(tt.addr, ifaces)
			if local != tt.local || !slices.Equal(network, tt.network) {
				t.Errorf("learnerURLs = %q, %q; want %q, %q", local, network, tt.local, tt.network)
			}
		})
	}
}

// TestValueAdvice checks the advice for each kind of flag value.
func TestValueAdvice(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Duration("d", 0, "")
	fs.Int("n", 30, "")
	fs.Bool("b", false, "")
	for _, tt := range []struct{ flag, value, want string }{
		{"d", "5", "a duration needs its unit: write 5s"},
		{"d", "1.5", "write 1.5s"},
		{"d", "soon", "not a duration: write one such as 5s"},
		{"n", "x", "not a whole number: write one such as 30"},
		{"b", "maybe", "write true or false"},
	} {
		if got := valueAdvice(fs.Lookup(tt.flag), tt.value); !strings.Contains(got, tt.want) {
			t.Errorf("valueAdvice(-%s %s) = %q, want %q in it", tt.flag, tt.value, got, tt.want)
		}
	}
}

// TestServeLimitsAboveZero checks that serve refuses a limit of 0 or less
// before it starts, naming the flag and its value.
func TestServeLimitsAboveZero(t *testing.T) {
	for _, flag := range []string{"--runs-per-minute", "--run-burst", "--posts-per-minute"} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), []string{"serve", "--db", t.TempDir() + "/learn.db", flag, "0"}, &out, &errOut)
		if code == 0 || !strings.Contains(errOut.String(), flag+" 0") {
			t.Errorf("learn serve %s 0: exit %d, %q; want a refusal naming %s 0", flag, code, errOut.String(), flag)
		}
	}
}
