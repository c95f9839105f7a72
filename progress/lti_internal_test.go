package progress

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLTIRatesPerAddress: an address starts LTILoginsPerAddress logins
// (and opens LTIRegistrationsPerAddress registrations) a minute, then
// waits; another address does not.
func TestLTIRatesPerAddress(t *testing.T) {
	for _, tc := range []struct {
		name  string
		limit int
		take  func(s *Service, ctx context.Context, address string) error
	}{
		{"logins", LTILoginsPerAddress, (*Service).TakeLTILogin},
		{"registrations", LTIRegistrationsPerAddress, (*Service).TakeLTIRegistration},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
			s := &Service{limiter: NewMemoryLimiter(), now: func() time.Time { return now }, rules: newRules(Limits{})}
			ctx := context.Background()
			for i := range tc.limit {
				if err := tc.take(s, ctx, "203.0.113.7"); err != nil {
					t.Fatalf("try %d: %v", i+1, err)
				}
			}
			var pe *Error
			if err := tc.take(s, ctx, "203.0.113.7"); !errors.As(err, &pe) || pe.Kind != TooMany || pe.RetryAfter <= 0 {
				t.Errorf("one too many: %v", err)
			}
			if err := tc.take(s, ctx, "203.0.113.8"); err != nil {
				t.Errorf("another address: %v", err)
			}
			now = now.Add(time.Minute)
			if err := tc.take(s, ctx, "203.0.113.7"); err != nil {
				t.Errorf("a minute later: %v", err)
			}
		})
	}
}
