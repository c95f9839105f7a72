package progress

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/netip"
	"time"
)

// Every rate limit of learn is declared in this file: how often an address,
// an account, a learner's name or a learner may try something that costs
// the server (running code) or that guessing could abuse (passwords,
// secret words, posts). Each is a steady rate and a burst; a class signing
// in at once from one address (a school's network) fits in the per-address
// bursts. The tries are counted by the Service's RateLimiter, which
// servers sharing a database share, so every limit holds across them.

// Fixed limits on guessing and posting.
const (
	// SignInsPerAddress: teacher sign-in tries per minute from one address.
	SignInsPerAddress = 20
	// SignInsPerAccount: teacher sign-in tries per minute for one e-mail
	// from one address (per account and address together, so that guesses
	// from elsewhere never spend the owner's tries), and password-change
	// tries per minute for a signed-in teacher.
	SignInsPerAccount = 5
	// SecretTriesPerName: learner sign-in tries per ten minutes for one
	// name in one class from one address.
	SecretTriesPerName = 5
	// SecretTriesPerAddress: learner sign-in tries per minute from one
	// address.
	SecretTriesPerAddress = 40
	// PostsPerLearner is how many Q&A posts (questions, answers and
	// edits) one learner may make a minute.
	PostsPerLearner = 4
	// PostsPerAddress is how many Q&A posts one network address may make a
	// minute: a class behind one school address fits in it.
	PostsPerAddress = 30
	// LTILoginsPerAddress is how many LTI login initiations one address
	// may start a minute: each keeps a launch state in the database until
	// it expires, and several classes behind one school address launching
	// at once fit in it.
	LTILoginsPerAddress = 120
	// LTIRegistrationsPerAddress is how many LTI dynamic registration
	// pages (and registrations) one address may open a minute: each makes
	// learn fetch an address the request names, and an LMS administrator
	// opens one or two.
	LTIRegistrationsPerAddress = 10
)

// The doubling delay of an account that keeps failing, counted across
// addresses: after FailuresBeforeDelay wrong tries in a row for one teacher
// e-mail (or one learner's name in a class), each try must wait
// FirstSignInDelay after the last failure, doubled with every further
// failure, up to MaxSignInDelay. A try made while the account waits is
// refused unchecked and counts nothing, so the wait never grows past
// MaxSignInDelay. A right password ends the count; failures older than
// FailureMemory are forgotten. A browser that signed in to the teacher's
// account before (its known-device cookie) skips the wait, so guesses from
// anywhere else cannot lock the owner out.
const (
	FailuresBeforeDelay = 3
	FirstSignInDelay    = 15 * time.Second
	MaxSignInDelay      = 5 * time.Minute
	FailureMemory       = time.Hour
)

// SignInDelay is the wait after n failed sign-ins in a row: none below
// FailuresBeforeDelay, then FirstSignInDelay doubling up to
// MaxSignInDelay.
func SignInDelay(n int) time.Duration {
	if n < FailuresBeforeDelay {
		return 0
	}
	d := FirstSignInDelay
	for i := FailuresBeforeDelay; i < n && d < MaxSignInDelay; i++ {
		d *= 2
	}
	return min(d, MaxSignInDelay)
}

// failureKey is what the failures of an account are stored under: a hash,
// so no e-mail or name is kept in clear.
func failureKey(kind, account string) string {
	sum := sha256.Sum256([]byte(kind + "\x00" + account))
	return kind + ":" + hex.EncodeToString(sum[:16])
}

// accountWait returns how long the account under key must still wait
// before its next try, 0 when it need not.
func (s *Service) accountWait(ctx context.Context, key string, now time.Time) (time.Duration, error) {
	f, err := s.classes.SignInFailures(ctx, key)
	if err != nil {
		return 0, err
	}
	if now.Sub(f.Last) > FailureMemory {
		return 0, nil
	}
	if wait := f.Last.Add(SignInDelay(f.Count)).Sub(now); wait > 0 {
		return wait, nil
	}
	return 0, nil
}

// countFailure counts a wrong try for the account under key.
func (s *Service) countFailure(ctx context.Context, key string, now time.Time) error {
	_, err := s.classes.AddSignInFailure(ctx, key, now, now.Add(-FailureMemory))
	return err
}

// delayText says a short wait exactly: "15 seconds", "2 minutes 40
// seconds", rounded up to the second.
func delayText(d time.Duration) string {
	sec := int((d + time.Second - 1) / time.Second)
	m, s := sec/60, sec%60
	plural := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	switch {
	case m == 0:
		return plural(s, "second")
	case s == 0:
		return plural(m, "minute")
	}
	return plural(m, "minute") + " " + plural(s, "second")
}

// Defaults of the limits an operator may change (Limits).
const (
	// DefaultRunsPerMinute and DefaultRunBurst: per learner, a burst for
	// quick fixes, then a steady rate no honest learner reaches by hand.
	DefaultRunsPerMinute = 30
	DefaultRunBurst      = 10
	// DefaultRunsPerMinutePerAddress: enough for a classroom of 30 behind
	// one NAT address all pressing Run at once, while one client farming
	// fresh cookies gets no more than that classroom.
	DefaultRunsPerMinutePerAddress = 240
	// DefaultAnswersPerMinute and DefaultAnswersPerMinutePerAddress: graded
	// answers (widget checks, quiz attempts, review answers), far above
	// what a learner clicks by hand, and for an address enough for a
	// classroom of 30.
	DefaultAnswersPerMinute           = 60
	DefaultAnswersPerMinutePerAddress = 900
)

// Limits are the rates an operator may set: running code, and posting
// graded answers. A zero field takes its default; a per-address field
// below zero turns that limit off (a classroom behind one NAT address that
// needs more). Bursts of the per-address limits, and of answers, are half
// the rate.
type Limits struct {
	RunsPerMinute, RunBurst, RunsPerMinutePerAddress int
	AnswersPerMinute, AnswersPerMinutePerAddress     int
}

// rules are the Service's rules, built once from its Limits.
type rules struct {
	signInAddr, signInAccount, secretName, secretAddr Rule
	postLearner, postAddr, ltiLoginAddr               Rule
	ltiRegisterAddr                                   Rule
	ltiRosterClass                                    Rule
	runLearner, runAddr, answerLearner, answerAddr    Rule
}

func newRules(l Limits) rules {
	or := func(v, def int) int {
		switch {
		case v == 0:
			return def
		case v < 0:
			return 0 // off
		}
		return v
	}
	runAddr := or(l.RunsPerMinutePerAddress, DefaultRunsPerMinutePerAddress)
	answers := or(l.AnswersPerMinute, DefaultAnswersPerMinute)
	answerAddr := or(l.AnswersPerMinutePerAddress, DefaultAnswersPerMinutePerAddress)
	return rules{
		signInAddr:      PerWindow("signin-address", SignInsPerAddress, time.Minute),
		signInAccount:   PerWindow("signin-account-address", SignInsPerAccount, time.Minute),
		secretName:      PerWindow("secret-name-address", SecretTriesPerName, 10*time.Minute),
		secretAddr:      PerWindow("secret-address", SecretTriesPerAddress, time.Minute),
		postLearner:     PerWindow("post-learner", PostsPerLearner, time.Minute),
		postAddr:        PerWindow("post-address", PostsPerAddress, time.Minute),
		ltiLoginAddr:    PerWindow("lti-login-address", LTILoginsPerAddress, time.Minute),
		ltiRegisterAddr: PerWindow("lti-register-address", LTIRegistrationsPerAddress, time.Minute),
		ltiRosterClass:  PerWindow("lti-roster-class", 1, LTIRosterUpdateEvery),
		runLearner:      PerMinute("runs-learner", or(l.RunsPerMinute, DefaultRunsPerMinute), or(l.RunBurst, DefaultRunBurst)),
		runAddr:         PerMinute("runs-address", runAddr, runAddr/2),
		answerLearner:   PerMinute("answers-learner", answers, answers/2),
		answerAddr:      PerMinute("answers-address", answerAddr, answerAddr/2),
	}
}

// tooMany is the error for a spent limit.
func tooMany(wait time.Duration, msg string) *Error {
	return &Error{Kind: TooMany, RetryAfter: wait, Message: msg}
}

// takeTries spends a try of every check (all or none) and returns the
// wait when one has none left, 0 when the request may go ahead.
func (s *Service) takeTries(ctx context.Context, now time.Time, checks ...RateCheck) (time.Duration, error) {
	_, wait, err := TakeAll(ctx, s.limiter, now, checks...)
	if err != nil {
		return 0, fmt.Errorf("progress: count tries: %w", err)
	}
	return wait, nil
}

// limitKey is whom a request counts against as one learner: the learner
// when their cookie is known, else the client's network (addressKey), so
// that dropping the cookie gains nothing.
func limitKey(a Actor, address string) string {
	if a.Known {
		return "learner:" + a.ID
	}
	return "anon:" + addressKey(address)
}

// addressKey is the network a client address counts as for the
// per-address limits: an IPv4 address itself, an IPv6 address its /64,
// since one host commonly holds a whole /64 and could rotate through it.
// Anything that does not parse as an address counts as itself.
func addressKey(address string) string {
	ip, err := netip.ParseAddr(address)
	if err != nil {
		return address
	}
	ip = ip.Unmap()
	if ip.Is4() {
		return ip.String()
	}
	p, err := ip.Prefix(64)
	if err != nil {
		return address
	}
	return p.String()
}

// refusal is a spent limit's message, given the limit a minute and the
// wait in words.
type refusal func(perMinute int, wait string) string

// takeLimited takes a try of each rule with its key and message, all or
// none; the first rule with none left refuses with an *Error of kind
// TooMany saying what was exceeded and how long to wait.
func (s *Service) takeLimited(ctx context.Context, checks []RateCheck, messages []refusal) error {
	i, wait, err := TakeAll(ctx, s.limiter, s.now(), checks...)
	if err != nil {
		return fmt.Errorf("progress: count tries: %w", err)
	}
	if wait > 0 {
		return tooMany(wait, messages[i](checks[i].Rule.PerMinuteRate(), waitText(wait+time.Second)))
	}
	return nil
}

// TakeRunTry spends one of a's tries at running code from address (a run
// or a submission), per learner and per address. Callers ask before
// grading, so a refused run costs the sandbox nothing.
//
// Errors: *Error of kind TooMany, with RetryAfter and what to wait, past
// either limit; a failure of the limiter's database.
func (s *Service) TakeRunTry(ctx context.Context, a Actor, address string) error {
	return s.takeLimited(ctx,
		[]RateCheck{{s.rules.runLearner, limitKey(a, address)}, {s.rules.runAddr, addressKey(address)}},
		[]refusal{
			func(n int, wait string) string {
				return fmt.Sprintf("You are running code faster than %d times a minute. Wait %s, then run again.", n, wait)
			},
			func(n int, wait string) string {
				return fmt.Sprintf("Too much code is being run from your network: one address may run code %d times a minute. Wait %s, then run again.", n, wait)
			},
		})
}

// TakeAnswerTry spends one of a's tries at posting a graded answer (a
// widget check, a quiz attempt, a review answer) from address, per learner
// and per address. Callers ask before reading the answer.
//
// Errors: as TakeRunTry's.
func (s *Service) TakeAnswerTry(ctx context.Context, a Actor, address string) error {
	return s.takeLimited(ctx,
		[]RateCheck{{s.rules.answerLearner, limitKey(a, address)}, {s.rules.answerAddr, addressKey(address)}},
		[]refusal{
			func(n int, wait string) string {
				return fmt.Sprintf("You are sending answers faster than %d a minute. Wait %s, then check again.", n, wait)
			},
			func(n int, wait string) string {
				return fmt.Sprintf("Too many answers are coming from your network: one address may send %d a minute. Wait %s, then check again.", n, wait)
			},
		})
}

// waitText says a wait in words, as a learner reads it on a refusal:
// "less than a minute", "1 minute", "3 minutes".
func waitText(d time.Duration) string {
	switch n := int(d / time.Minute); {
	case n < 1:
		return "less than a minute"
	case n == 1:
		return "1 minute"
	default:
		return fmt.Sprintf("%d minutes", n)
	}
}
