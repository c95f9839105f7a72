package progress

import (
	"context"
	"fmt"
	"testing"
	"time"
)

func TestAddressKey(t *testing.T) {
	tests := []struct{ address, want string }{
		{"203.0.113.7", "203.0.113.7"},
		{"::ffff:203.0.113.7", "203.0.113.7"},
		{"2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"},
		{"2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"fe80::1%eth0", "fe80::/64"},
		{"not an address", "not an address"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := addressKey(tt.address); got != tt.want {
			t.Errorf("addressKey(%q) = %q, want %q", tt.address, got, tt.want)
		}
	}
}

// TestIPv6HostCannotRotate spends the per-address run limit from one IPv6
// address, then tries from others of the same /64 (refused: one host) and
// from another /64 (allowed).
func TestIPv6HostCannotRotate(t *testing.T) {
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s := &Service{limiter: NewMemoryLimiter(), now: func() time.Time { return now }, rules: newRules(Limits{RunsPerMinutePerAddress: 4})}
	ctx := context.Background()
	for i := range 2 { // the address burst is half the rate
		if err := s.TakeRunTry(ctx, Actor{}, fmt.Sprintf("2001:db8:1:2::%x", i+1)); err != nil {
			t.Fatalf("try %d: %v", i+1, err)
		}
	}
	if err := s.TakeRunTry(ctx, Actor{}, "2001:db8:1:2:ffff::9"); err == nil {
		t.Error("another address of the same /64 was let through past the limit")
	}
	if err := s.TakeRunTry(ctx, Actor{}, "2001:db8:1:3::1"); err != nil {
		t.Errorf("another /64 was refused: %v", err)
	}
}

// TestMemoryLimiterKeepsSpentKeys fills a small limiter's table with fresh
// keys, as an attacker choosing secret-word names would, and checks that a
// spent key stays spent: the table evicts the oldest times, never all.
func TestMemoryLimiterKeepsSpentKeys(t *testing.T) {
	m := newMemoryLimiter(100)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	guessed := PerWindow("secret-name", 5, 10*time.Minute)
	for i := range 5 {
		if wait, err := m.TakeRate(ctx, guessed, "year9\x00red kite", now); err != nil || wait != 0 {
			t.Fatalf("try %d: wait %v, %v", i+1, wait, err)
		}
	}
	for i := range 1000 {
		if _, err := m.TakeRate(ctx, guessed, fmt.Sprint("year9\x00name ", i), now.Add(time.Duration(i)*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
		if len(m.tat) > 100 {
			t.Fatalf("the table holds %d keys, over its bound of 100", len(m.tat))
		}
	}
	if wait, _ := m.TakeRate(ctx, guessed, "year9\x00red kite", now.Add(2*time.Second)); wait == 0 {
		t.Error("flooding the table with fresh names freed the spent name's limit")
	}
}

func TestSignInDelayDoublesAndCaps(t *testing.T) {
	tests := []struct {
		failures int
		want     time.Duration
	}{
		{0, 0}, {1, 0}, {2, 0},
		{3, 15 * time.Second}, {4, 30 * time.Second}, {5, time.Minute}, {6, 2 * time.Minute},
		{7, 4 * time.Minute}, {8, 5 * time.Minute}, {9, 5 * time.Minute}, {1000, 5 * time.Minute},
	}
	for _, tc := range tests {
		if got := SignInDelay(tc.failures); got != tc.want {
			t.Errorf("SignInDelay(%d) = %v, want %v", tc.failures, got, tc.want)
		}
	}
}

func TestDelayText(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{time.Second, "1 second"}, {500 * time.Millisecond, "1 second"}, {15 * time.Second, "15 seconds"},
		{time.Minute, "1 minute"}, {90 * time.Second, "1 minute 30 seconds"}, {5 * time.Minute, "5 minutes"},
		{2*time.Minute + time.Second, "2 minutes 1 second"},
	}
	for _, tc := range tests {
		if got := delayText(tc.d); got != tc.want {
			t.Errorf("delayText(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
