package progress

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Default limits on guessing. Each is a steady rate and a burst: a class
// signing in at once from one address (a school's network) fits in the
// per-address burst, and one account or one learner's name gets a few
// tries before it has to wait.
const (
	// SignInsPerAddress: teacher sign-in tries per minute from one address.
	SignInsPerAddress = 20
	// SignInsPerAccount: teacher sign-in tries per minute for one e-mail.
	SignInsPerAccount = 5
	// SecretTriesPerName: learner sign-in tries per ten minutes for one
	// name in one class.
	SecretTriesPerName = 5
	// SecretTriesPerAddress: learner sign-in tries per minute from one
	// address.
	SecretTriesPerAddress = 40
)

// limiterMax bounds each limiter table; when full it starts again empty,
// which can only let a guesser retry sooner, never lock anyone out.
const limiterMax = 50_000

// limiter is a table of token buckets keyed by what is limited (an
// address, an e-mail). It lives in the Service; each replica counts its
// own tries.
type limiter struct {
	mu    sync.Mutex
	every time.Duration
	burst int
	m     map[string]*rate.Limiter
}

func newLimiter(perWindow int, window time.Duration) *limiter {
	return &limiter{every: window / time.Duration(perWindow), burst: perWindow}
}

// take spends one try for key at now, and returns how long to wait when
// there is none left (0 when the try may go ahead).
func (l *limiter) take(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil || len(l.m) >= limiterMax {
		l.m = make(map[string]*rate.Limiter)
	}
	lim, ok := l.m[key]
	if !ok {
		lim = rate.NewLimiter(rate.Every(l.every), l.burst)
		l.m[key] = lim
	}
	r := lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d
	}
	return 0
}

// tooMany is the error for a spent limit.
func tooMany(wait time.Duration, msg string) *Error {
	return &Error{Kind: TooMany, RetryAfter: wait, Message: msg}
}

// limits are the Service's tables of tries.
type limits struct {
	signInAddr, signInAccount *limiter
	secretName, secretAddr    *limiter
	postLearner, postAddr     *limiter
}

func newLimits() limits {
	return limits{
		signInAddr:    newLimiter(SignInsPerAddress, time.Minute),
		signInAccount: newLimiter(SignInsPerAccount, time.Minute),
		secretName:    newLimiter(SecretTriesPerName, 10*time.Minute),
		secretAddr:    newLimiter(SecretTriesPerAddress, time.Minute),
		postLearner:   newLimiter(PostsPerLearner, time.Minute),
		postAddr:      newLimiter(PostsPerAddress, time.Minute),
	}
}
