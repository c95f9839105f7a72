package progress_test

import (
	"testing"
	"time"

	"learn/progress"
	"learn/progress/storetest"
)

// The in-memory limiter passes the same suite as the databases'.
func TestMemoryLimiter(t *testing.T) {
	storetest.RateLimiter(t, func(*testing.T) progress.RateLimiter { return progress.NewMemoryLimiter() })
}

func TestRules(t *testing.T) {
	tests := []struct {
		rule      progress.Rule
		off       bool
		every     time.Duration
		burst     int
		perMinute int
	}{
		{progress.PerMinute("a", 60, 10), false, time.Second, 10, 60},
		{progress.PerMinute("b", 7, 0), false, time.Minute / 7, 1, 7},
		{progress.PerMinute("c", 0, 5), true, 0, 0, 0},
		{progress.PerMinute("d", -1, 5), true, 0, 0, 0},
		{progress.PerWindow("e", 5, 10*time.Minute), false, 2 * time.Minute, 5, 0},
	}
	for _, tt := range tests {
		t.Run(tt.rule.Name, func(t *testing.T) {
			r := tt.rule
			if r.Off() != tt.off || r.Every != tt.every || r.Burst != tt.burst || r.PerMinuteRate() != tt.perMinute {
				t.Errorf("%+v: off %v, per minute %d; want off %v, every %v, burst %d, per minute %d",
					r, r.Off(), r.PerMinuteRate(), tt.off, tt.every, tt.burst, tt.perMinute)
			}
		})
	}
}
