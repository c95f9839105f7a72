package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"learn/progress"
)

// testRateLimits runs the rate-limit suite on the store, whose contract
// includes progress.RateLimiter: servers sharing a database count together.
func testRateLimits(t *testing.T, s Backend) {
	RateLimiter(t, func(*testing.T) progress.RateLimiter { return s })
}

// RateLimiter is the conformance suite of progress.RateLimiter, for the
// database backends and the in-memory one. open returns an empty limiter,
// or one whose keys no other subtest uses.
func RateLimiter(t *testing.T, open func(t *testing.T) progress.RateLimiter) {
	ctx := context.Background()
	take := func(t *testing.T, l progress.RateLimiter, rule progress.Rule, key string, now time.Time) time.Duration {
		t.Helper()
		wait, err := l.TakeRate(ctx, rule, key, now)
		if err != nil {
			t.Fatalf("take %s/%s: %v", rule.Name, key, err)
		}
		return wait
	}
	// Three at once, then one every 20 s.
	rule := progress.PerMinute("suite-burst", 3, 3)

	t.Run("BurstThenSteadyRate", func(t *testing.T) {
		l := open(t)
		for i := range 3 {
			if w := take(t, l, rule, "a", t0); w != 0 {
				t.Fatalf("try %d of a burst of 3 waits %v", i+1, w)
			}
		}
		if w := take(t, l, rule, "a", t0); w != 20*time.Second {
			t.Errorf("the 4th try at once waits %v, want 20s", w)
		}
		// A refused try spends nothing: 5 s later the wait is 15 s.
		if w := take(t, l, rule, "a", t0.Add(5*time.Second)); w != 15*time.Second {
			t.Errorf("5 s later the wait is %v, want 15s", w)
		}
		if w := take(t, l, rule, "a", t0.Add(20*time.Second)); w != 0 {
			t.Errorf("after 20 s a try waits %v, want none", w)
		}
		if w := take(t, l, rule, "a", t0.Add(20*time.Second)); w == 0 {
			t.Error("a second try after 20 s went ahead, want a wait")
		}
		// After a whole minute idle the burst is back, no more.
		later := t0.Add(2 * time.Minute)
		for i := range 3 {
			if w := take(t, l, rule, "a", later); w != 0 {
				t.Fatalf("after a rest, try %d waits %v", i+1, w)
			}
		}
		if w := take(t, l, rule, "a", later); w == 0 {
			t.Error("after a rest the burst grew past 3")
		}
	})

	t.Run("KeysAndRulesApart", func(t *testing.T) {
		l := open(t)
		one := progress.PerMinute("suite-one", 1, 1)
		other := progress.PerMinute("suite-other", 1, 1)
		if take(t, l, one, "k", t0) != 0 || take(t, l, one, "k", t0) == 0 {
			t.Fatal("a rule of one a minute allowed two at once, or none")
		}
		if take(t, l, one, "k2", t0) != 0 {
			t.Error("another key shares the first key's tries")
		}
		if take(t, l, other, "k", t0) != 0 {
			t.Error("another rule shares the first rule's tries for the same key")
		}
	})

	t.Run("Refund", func(t *testing.T) {
		l := open(t)
		one := progress.PerMinute("suite-refund", 1, 1)
		if take(t, l, one, "r", t0) != 0 {
			t.Fatal("first try refused")
		}
		if err := l.RefundRate(ctx, one, "r"); err != nil {
			t.Fatal(err)
		}
		if w := take(t, l, one, "r", t0); w != 0 {
			t.Errorf("after a refund the try waits %v, want none", w)
		}
		if err := l.RefundRate(ctx, one, "never-taken"); err != nil {
			t.Errorf("refund of a key never taken: %v", err)
		}
	})

	t.Run("OffLetsAllThrough", func(t *testing.T) {
		l := open(t)
		off := progress.PerMinute("suite-off", 0, 0)
		for range 50 {
			if w := take(t, l, off, "x", t0); w != 0 {
				t.Fatalf("a rule that is off made a try wait %v", w)
			}
		}
	})

	// Concurrent tries (as from several servers) count one by one: of 16
	// at once against a burst of 5, exactly 5 go ahead.
	t.Run("ConcurrentTriesCountOnce", func(t *testing.T) {
		l := open(t)
		five := progress.PerMinute("suite-concurrent", 5, 5)
		var mu sync.Mutex
		allowed := 0
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				wait, err := l.TakeRate(ctx, five, "c", t0)
				if err != nil {
					t.Errorf("take: %v", err)
					return
				}
				if wait == 0 {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if allowed != 5 {
			t.Errorf("%d of 16 concurrent tries went ahead, want exactly 5", allowed)
		}
	})

	t.Run("TakeAllIsAllOrNone", func(t *testing.T) {
		l := open(t)
		wide := progress.PerMinute("suite-wide", 10, 10)
		narrow := progress.PerMinute("suite-narrow", 1, 1)
		checks := []progress.RateCheck{{Rule: wide, Key: "w"}, {Rule: narrow, Key: "n"}}
		if i, w, err := progress.TakeAll(ctx, l, t0, checks...); err != nil || w != 0 || i != -1 {
			t.Fatalf("first TakeAll = %d, %v, %v; want -1, 0, nil", i, w, err)
		}
		i, w, err := progress.TakeAll(ctx, l, t0, checks...)
		if err != nil || w == 0 || i != 1 {
			t.Fatalf("second TakeAll = %d, %v, %v; want the narrow rule (1) to refuse", i, w, err)
		}
		// The refused TakeAll gave back its wide try: 9 remain of 10.
		for n := range 9 {
			if w := take(t, l, wide, "w", t0); w != 0 {
				t.Fatalf("wide try %d of the 9 left waits %v", n+1, w)
			}
		}
		if w := take(t, l, wide, "w", t0); w == 0 {
			t.Error("the wide rule allowed an 11th try: a refused TakeAll kept what it took")
		}
	})
}
