package lti

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// The states of a score in the outbox.
const (
	// ScorePending waits to be sent (again).
	ScorePending = "pending"
	// ScoreSent was accepted by the platform.
	ScoreSent = "sent"
	// ScoreFailed was refused by the platform with an answer that retrying
	// will not change (a 4xx other than 408 and 429); the next score of
	// the learner and line item is tried again.
	ScoreFailed = "failed"
)

// Backoff bounds: the first retry waits MinBackoff, each next one twice
// as long, never more than MaxBackoff.
const (
	MinBackoff = time.Second
	MaxBackoff = 10 * time.Minute
)

// ScoreLease is how long a claimed score is held by the sender that
// claimed it: longer than a token request and a post together
// (2×DefaultServiceTimeout), so that no other sender sends the same line
// item's scores at once, and short enough that a sender killed mid-send
// holds nothing for long.
const ScoreLease = 2*DefaultServiceTimeout + 20*time.Second

// MaxAnswerExcerpt bounds the excerpt of a platform's answer kept with a
// score.
const MaxAnswerExcerpt = 300

// maxAnswerBytes is how much of a platform's answer to a score is read.
const maxAnswerBytes = 64 << 10

// Score is one entry of the outbox: the newest score of a learner for a
// line item, with how sending it went so far.
type Score struct {
	ID         int64
	LearnerID  string
	PlatformID int64
	// LineItem is the line item's address.
	LineItem string
	// UserID is the platform's id of the learner (the launch's subject).
	UserID string
	// Given and Maximum are the XP earned in the lesson and the XP it
	// offers.
	Given, Maximum int
	// Completed is set once the lesson is completed.
	Completed bool
	// At is when the score was earned: the score's timestamp.
	At time.Time
	// Attempts counts the sends of this score so far.
	Attempts int
	// Lease names the sender's claim of the row.
	Lease string
}

// ScoreResult is how one send went, for Store.FinishScore.
type ScoreResult struct {
	// State is ScoreSent, ScoreFailed, or ScorePending to try again at
	// NextTry.
	State   string
	NextTry time.Time
	// Status is the platform's HTTP status (0 when it did not answer);
	// Answer a short excerpt of its answer or of the error, valid UTF-8.
	Status int
	Answer string
	At     time.Time
}

// ScoreStore is the outbox of scores kept in the database, so that a
// score survives a restart and any server sharing the database may send
// it. Errors are the backend's, wrapped.
type ScoreStore interface {
	// ClaimScores leases up to limit pending scores due at now (whose
	// lease, if any, ended) to lease until leaseUntil, in one statement
	// so that no two senders get the same row, and returns them with
	// Lease set.
	ClaimScores(ctx context.Context, now, leaseUntil time.Time, lease string, limit int) ([]Score, error)
	// FinishScore records how sending s went and ends its lease: the
	// result is kept only while the row still holds s (the same At); a
	// newer score that replaced it meanwhile stays pending, to be sent
	// next.
	FinishScore(ctx context.Context, s Score, r ScoreResult) error
	// FindPlatformByID returns the platform; errors wrap ErrNotFound.
	FindPlatformByID(ctx context.Context, id int64) (Platform, error)
	// SigningKeys returns learn's keys, newest first.
	SigningKeys(ctx context.Context) ([]Key, error)
}

// ServiceError is a platform service's answer other than success: its
// status and an excerpt of its body (valid UTF-8, at most
// MaxAnswerExcerpt bytes), safe to show a teacher.
type ServiceError struct {
	Status  int
	Excerpt string
}

// Error implements error.
func (e *ServiceError) Error() string {
	if e.Excerpt == "" {
		return fmt.Sprintf("the platform answered %d %s", e.Status, http.StatusText(e.Status))
	}
	return fmt.Sprintf("the platform answered %d %s: %s", e.Status, http.StatusText(e.Status), e.Excerpt)
}

// Retry reports whether the same request may succeed later: 408, 429 and
// 5xx.
func (e *ServiceError) Retry() bool {
	return e.Status >= 500 || e.Status == http.StatusTooManyRequests || e.Status == http.StatusRequestTimeout
}

// Excerpt returns s as one line of valid UTF-8 of at most
// MaxAnswerExcerpt bytes: invalid bytes, NULs and control characters
// become spaces, runs of spaces one.
func Excerpt(s string) string {
	s = strings.ToValidUTF8(s, " ")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > MaxAnswerExcerpt {
		cut := MaxAnswerExcerpt - len("…")
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// Backoff is how long to wait before the next try of a score sent
// attempts times: MinBackoff after the first, doubling, at most
// MaxBackoff.
func Backoff(attempts int) time.Duration {
	d := MinBackoff
	for i := 1; i < attempts && d < MaxBackoff; i++ {
		d *= 2
	}
	return min(d, MaxBackoff)
}

// ScoresURL returns the address scores of lineItem are posted to: its
// path with /scores appended, its query kept (AGS 2.0, section 3.4).
func ScoresURL(lineItem string) (string, error) {
	u, err := url.Parse(lineItem)
	if err != nil {
		return "", fmt.Errorf("lti: line item %q: %w", lineItem, err)
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/scores"
	u.RawPath = ""
	return u.String(), nil
}

// scoreTime is how a score's timestamp is written: RFC 3339 with
// microseconds, which every LMS's parser takes.
const scoreTime = "2006-01-02T15:04:05.000000Z07:00"

// ScoreTimestamp returns the timestamp learn sends for a score earned at
// t.
func ScoreTimestamp(t time.Time) string { return t.UTC().Format(scoreTime) }

// scoreBody is a score as AGS 2.0 (section 3.4) has it posted.
type scoreBody struct {
	UserID           string  `json:"userId"`
	ScoreGiven       float64 `json:"scoreGiven"`
	ScoreMaximum     float64 `json:"scoreMaximum"`
	ActivityProgress string  `json:"activityProgress"`
	GradingProgress  string  `json:"gradingProgress"`
	Timestamp        string  `json:"timestamp"`
}

// SenderConfig is what a Sender is built from; Store is required.
type SenderConfig struct {
	Store ScoreStore
	// Client sends the requests; nil means a client whose timeout is
	// DefaultServiceTimeout.
	Client *http.Client
	// Tokens fetches service tokens; nil makes one with Client.
	Tokens *Tokens
	// Poll is how often the outbox is read; 0 means DefaultPoll.
	Poll time.Duration
	// Now returns the time; nil means time.Now.
	Now func() time.Time
	// Log reports failed sends; nil discards.
	Log *slog.Logger
}

// DefaultPoll is how often a sender looks for due scores: a learner's
// score reaches the gradebook within seconds, for one indexed query a
// second per server.
const DefaultPoll = time.Second

// claimBatch is how many scores a sender claims at once.
const claimBatch = 20

// Sender posts the outbox's scores to the platforms' line items (AGS
// 2.0): claimed with a lease, sent at least once, retried with Backoff on
// network errors, 408, 429 and 5xx, and marked failed on other refusals.
// Several senders (one per server) may share one outbox.
type Sender struct {
	store  ScoreStore
	client *http.Client
	tokens *Tokens
	poll   time.Duration
	now    func() time.Time
	log    *slog.Logger
}

// NewSender returns a sender for cfg.
func NewSender(cfg SenderConfig) (*Sender, error) {
	if cfg.Store == nil {
		return nil, errors.New("lti: new sender: a store is required")
	}
	s := &Sender{store: cfg.Store, client: cfg.Client, tokens: cfg.Tokens, poll: cfg.Poll, now: cfg.Now, log: cfg.Log}
	if s.client == nil {
		s.client = &http.Client{Timeout: DefaultServiceTimeout}
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.tokens == nil {
		s.tokens = NewTokens(s.client, cfg.Store.SigningKeys, s.now)
	}
	if s.poll <= 0 {
		s.poll = DefaultPoll
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// Run sends due scores every poll until ctx ends; a failing outbox read
// is logged and tried again at the next poll.
func (s *Sender) Run(ctx context.Context) {
	tick := time.NewTicker(s.poll)
	defer tick.Stop()
	for {
		for {
			n, err := s.SendDue(ctx)
			if err != nil && ctx.Err() == nil {
				s.log.Error("LTI scores: read the outbox", "err", err)
			}
			if err != nil || n < claimBatch {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// SendDue claims the scores due now, sends each and records how it went;
// it returns how many it claimed.
func (s *Sender) SendDue(ctx context.Context) (int, error) {
	lease, err := random()
	if err != nil {
		return 0, err
	}
	now := s.now()
	due, err := s.store.ClaimScores(ctx, now, now.Add(ScoreLease), lease, claimBatch)
	if err != nil {
		return 0, fmt.Errorf("lti: claim scores: %w", err)
	}
	for _, sc := range due {
		r := s.send(ctx, sc)
		if ctx.Err() != nil {
			// Shutting down mid-send: record what is known and hand an
			// unanswered score back at once, to be sent again by this
			// server or another (were this server killed instead, its
			// lease would run out).
			if r.State != ScoreSent {
				r = ScoreResult{State: ScorePending, NextTry: s.now(), Answer: "learn stopped before the LMS answered", At: s.now()}
			}
			back, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			err := s.store.FinishScore(back, sc, r)
			cancel()
			return len(due), errors.Join(ctx.Err(), err)
		}
		if err := s.store.FinishScore(ctx, sc, r); err != nil {
			return len(due), fmt.Errorf("lti: finish score %d: %w", sc.ID, err)
		}
	}
	return len(due), nil
}

// send posts one score and says how it went.
func (s *Sender) send(ctx context.Context, sc Score) ScoreResult {
	sc.Attempts++
	retry := func(status int, answer string) ScoreResult {
		return ScoreResult{State: ScorePending, NextTry: s.now().Add(Backoff(sc.Attempts)), Status: status, Answer: Excerpt(answer), At: s.now()}
	}
	p, err := s.store.FindPlatformByID(ctx, sc.PlatformID)
	if err != nil {
		return ScoreResult{State: ScoreFailed, Answer: "the platform is no longer registered with learn", At: s.now()}
	}
	status, answer, err := s.post(ctx, p, sc)
	if se, ok := errors.AsType[*ServiceError](err); ok && se.Status == http.StatusUnauthorized {
		// A token revoked before its expiry: ask for a new one once.
		s.tokens.Forget(p, ScopeScore)
		status, answer, err = s.post(ctx, p, sc)
	}
	var se *ServiceError
	switch {
	case err == nil:
		return ScoreResult{State: ScoreSent, Status: status, Answer: Excerpt(answer), At: s.now()}
	case errors.As(err, &se) && !se.Retry():
		s.log.Warn("LTI score refused", "platform", p.Issuer, "line_item", sc.LineItem, "status", se.Status, "answer", se.Excerpt)
		what := "the line item answered: "
		if errors.Is(err, ErrTokenRefused) {
			what = "the token endpoint answered: "
		}
		return ScoreResult{State: ScoreFailed, Status: se.Status, Answer: Excerpt(what + se.Error()), At: s.now()}
	case errors.As(err, &se):
		return retry(se.Status, se.Error())
	}
	s.log.Warn("LTI score not sent; trying again later", "platform", p.Issuer, "line_item", sc.LineItem, "attempts", sc.Attempts, "err", err)
	return retry(0, err.Error())
}

// post sends sc with a token for the score scope; a non-2xx answer is a
// *ServiceError (wrapping ErrTokenRefused for the token endpoint's).
func (s *Sender) post(ctx context.Context, p Platform, sc Score) (int, string, error) {
	token, err := s.tokens.Token(ctx, p, ScopeScore)
	if err != nil {
		return 0, "", err
	}
	to, err := ScoresURL(sc.LineItem)
	if err != nil {
		return 0, "", err
	}
	progress := "InProgress"
	if sc.Completed {
		progress = "Completed"
	}
	body, err := json.Marshal(scoreBody{UserID: sc.UserID, ScoreGiven: float64(sc.Given), ScoreMaximum: float64(sc.Maximum),
		ActivityProgress: progress, GradingProgress: "FullyGraded", Timestamp: ScoreTimestamp(sc.At)})
	if err != nil {
		return 0, "", fmt.Errorf("lti: score: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultServiceTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, to, bytes.NewReader(body))
	if err != nil {
		return 0, "", fmt.Errorf("lti: score to %s: %w", to, err)
	}
	req.Header.Set("Content-Type", ScoreMediaType)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("lti: score to %s: %w", to, err)
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil && resp.StatusCode/100 != 2 {
		return 0, "", fmt.Errorf("lti: score to %s: %w", to, err)
	}
	if resp.StatusCode/100 != 2 {
		return resp.StatusCode, "", &ServiceError{Status: resp.StatusCode, Excerpt: Excerpt(string(answer))}
	}
	return resp.StatusCode, strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode), nil
}
