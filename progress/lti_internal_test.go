package progress

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestLTILoginsPerAddress: an address starts LTILoginsPerAddress logins a
// minute, then waits; another address does not.
func TestLTILoginsPerAddress(t *testing.T) {
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	s := &Service{limiter: NewMemoryLimiter(), now: func() time.Time { return now }, rules: newRules(Limits{})}
	ctx := context.Background()
	for i := range LTILoginsPerAddress {
		if err := s.TakeLTILogin(ctx, "203.0.113.7"); err != nil {
			t.Fatalf("login %d: %v", i+1, err)
		}
	}
	var pe *Error
	if err := s.TakeLTILogin(ctx, "203.0.113.7"); !errors.As(err, &pe) || pe.Kind != TooMany || pe.RetryAfter <= 0 {
		t.Errorf("one login too many: %v", err)
	}
	if err := s.TakeLTILogin(ctx, "203.0.113.8"); err != nil {
		t.Errorf("another address: %v", err)
	}
	now = now.Add(time.Minute)
	if err := s.TakeLTILogin(ctx, "203.0.113.7"); err != nil {
		t.Errorf("a minute later: %v", err)
	}
}
