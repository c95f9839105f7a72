package progress

import (
	"context"
	"fmt"
	"time"
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

// tooMany is the error for a spent limit.
func tooMany(wait time.Duration, msg string) *Error {
	return &Error{Kind: TooMany, RetryAfter: wait, Message: msg}
}

// The Service's rules. They are counted by the Service's RateLimiter, which
// servers sharing a database share.
var (
	ruleSignInAddr    = PerWindow("signin-address", SignInsPerAddress, time.Minute)
	ruleSignInAccount = PerWindow("signin-account", SignInsPerAccount, time.Minute)
	ruleSecretName    = PerWindow("secret-name", SecretTriesPerName, 10*time.Minute)
	ruleSecretAddr    = PerWindow("secret-address", SecretTriesPerAddress, time.Minute)
	rulePostLearner   = PerWindow("post-learner", PostsPerLearner, time.Minute)
	rulePostAddr      = PerWindow("post-address", PostsPerAddress, time.Minute)
)

// takeTries spends a try of every check (all or none) and returns the
// wait when one has none left, 0 when the request may go ahead.
func (s *Service) takeTries(ctx context.Context, now time.Time, checks ...RateCheck) (time.Duration, error) {
	_, wait, err := TakeAll(ctx, s.limiter, now, checks...)
	if err != nil {
		return 0, fmt.Errorf("progress: count tries: %w", err)
	}
	return wait, nil
}

// Limiter is the RateLimiter the Service counts tries with, for the other
// limits of the same server (runs and posts in the web layer).
func (s *Service) Limiter() RateLimiter { return s.limiter }
