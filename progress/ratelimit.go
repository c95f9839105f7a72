package progress

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Rule is one rate limit: Burst tries at once, then one more every Every.
// A rule with Every or Burst not above zero lets everything through.
type Rule struct {
	// Name says what is limited and keeps one rule's keys apart from
	// another's ("signin-address", "runs-learner").
	Name  string
	Every time.Duration
	Burst int
}

// PerMinute is the rule that allows n tries a minute with burst of them at
// once (at least one). n not above zero turns the rule off.
func PerMinute(name string, n, burst int) Rule {
	if n <= 0 {
		return Rule{Name: name}
	}
	return Rule{Name: name, Every: time.Minute / time.Duration(n), Burst: max(burst, 1)}
}

// PerWindow is the rule that allows n tries per window, all of them at once
// if need be.
func PerWindow(name string, n int, window time.Duration) Rule {
	if n <= 0 {
		return Rule{Name: name}
	}
	return Rule{Name: name, Every: window / time.Duration(n), Burst: n}
}

// Off reports whether the rule lets everything through.
func (r Rule) Off() bool { return r.Every <= 0 || r.Burst <= 0 }

// PerMinuteRate is how many tries a minute the rule allows in the long run.
func (r Rule) PerMinuteRate() int {
	if r.Off() {
		return 0
	}
	return int(time.Minute / r.Every)
}

// RateLimiter counts tries against rules, per key (an address, a learner,
// an account). Servers that share a database must share its counts, or a
// learner behind N servers gets N times every limit: both backends
// implement RateLimiter in the database, and one server alone may count in
// memory (MemoryLimiter).
//
// Each key of a rule keeps one time, when its bucket is next full (the
// generic cell rate algorithm): a try at now is allowed when moving that
// time to max(it, now)+Every keeps it within Burst×Every of now.
type RateLimiter interface {
	// TakeRate spends one try of rule for key at now. It returns 0 when the
	// try may go ahead, or how long until one would, spending nothing.
	TakeRate(ctx context.Context, rule Rule, key string, now time.Time) (time.Duration, error)
	// RefundRate gives back one try that TakeRate spent, for a request
	// refused by a later rule.
	RefundRate(ctx context.Context, rule Rule, key string) error
}

// RateCheck is one rule a request must take a try from, with its key.
type RateCheck struct {
	Rule Rule
	Key  string
}

// TakeAll takes one try from every check, or from none: at the first check
// with no try left it gives back what it took and returns that check's
// index and wait. It returns -1 and 0 when every check allowed the try.
func TakeAll(ctx context.Context, l RateLimiter, now time.Time, checks ...RateCheck) (int, time.Duration, error) {
	var taken []RateCheck
	refund := func() {
		for _, c := range taken {
			// A failed refund leaves a try spent: stricter, never looser.
			_ = l.RefundRate(ctx, c.Rule, c.Key)
		}
	}
	for i, c := range checks {
		if c.Rule.Off() {
			continue
		}
		wait, err := l.TakeRate(ctx, c.Rule, c.Key, now)
		if err != nil {
			refund()
			return i, 0, fmt.Errorf("rate limit %s: %w", c.Rule.Name, err)
		}
		if wait > 0 {
			refund()
			return i, wait, nil
		}
		taken = append(taken, c)
	}
	return -1, 0, nil
}

// NextTAT is the algorithm's step, shared by every RateLimiter: given the
// key's stored time (0 for a new key) and now, in Unix nanoseconds, it
// returns the time to store and 0 when the try is allowed, or the wait
// when it is not (then nothing is to be stored).
func NextTAT(rule Rule, tat, now int64) (next int64, wait time.Duration) {
	next = max(tat, now) + int64(rule.Every)
	if over := next - now - int64(rule.Burst)*int64(rule.Every); over > 0 {
		return 0, time.Duration(over)
	}
	return next, 0
}

// RateKey is the key a RateLimiter stores for rule and key: the rule's
// name and a hash of the key, so that a stored key has a fixed length, no
// byte a database refuses, and no address, e-mail or name in clear.
func RateKey(rule Rule, key string) string {
	sum := sha256.Sum256([]byte(key))
	return rule.Name + ":" + base64.RawURLEncoding.EncodeToString(sum[:18])
}

// MemoryLimiter is a RateLimiter in this process's memory, for a server
// that owns its database alone. Its table is bounded: when full, keys whose
// bucket is full again are dropped, and if that frees too little, the keys
// nearest to a full bucket (the oldest times) go, a tenth of the table at
// once. Dropping a key can only let its caller in sooner; the keys most
// spent, such as a name someone is guessing, are kept longest, so filling
// the table with fresh keys frees nobody's spent limit.
type MemoryLimiter struct {
	mu  sync.Mutex
	tat map[string]int64
	max int
}

// memoryLimiterMax bounds a MemoryLimiter's table.
const memoryLimiterMax = 100_000

// NewMemoryLimiter returns an empty MemoryLimiter.
func NewMemoryLimiter() *MemoryLimiter { return newMemoryLimiter(memoryLimiterMax) }

// newMemoryLimiter returns an empty MemoryLimiter holding at most max keys.
func newMemoryLimiter(max int) *MemoryLimiter {
	return &MemoryLimiter{tat: make(map[string]int64), max: max}
}

// TakeRate implements RateLimiter.
func (m *MemoryLimiter) TakeRate(_ context.Context, rule Rule, key string, now time.Time) (time.Duration, error) {
	if rule.Off() {
		return 0, nil
	}
	k, n := RateKey(rule, key), now.UnixNano()
	m.mu.Lock()
	defer m.mu.Unlock()
	next, wait := NextTAT(rule, m.tat[k], n)
	if wait > 0 {
		return wait, nil
	}
	if _, ok := m.tat[k]; !ok && len(m.tat) >= m.max {
		m.sweep(n)
	}
	m.tat[k] = next
	return 0, nil
}

// RefundRate implements RateLimiter.
func (m *MemoryLimiter) RefundRate(_ context.Context, rule Rule, key string) error {
	if rule.Off() {
		return nil
	}
	k := RateKey(rule, key)
	m.mu.Lock()
	defer m.mu.Unlock()
	if tat, ok := m.tat[k]; ok {
		m.tat[k] = tat - int64(rule.Every)
	}
	return nil
}

// sweep makes room in a full table: keys whose bucket is full again first,
// then the oldest times, down to nine tenths of the bound.
func (m *MemoryLimiter) sweep(now int64) {
	for k, tat := range m.tat {
		if tat <= now {
			delete(m.tat, k)
		}
	}
	keep := m.max - max(m.max/10, 1)
	if len(m.tat) <= keep {
		return
	}
	tats := make([]int64, 0, len(m.tat))
	for _, tat := range m.tat {
		tats = append(tats, tat)
	}
	slices.Sort(tats)
	cut := tats[len(tats)-keep-1] // drop every time at or before it
	for k, tat := range m.tat {
		if tat <= cut && len(m.tat) > keep {
			delete(m.tat, k)
		}
	}
}
