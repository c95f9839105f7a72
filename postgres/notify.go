package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// channel is the LISTEN/NOTIFY channel on which servers announce that a
// learner wrote.
const channel = "learn_learner_changed"

// notifyTimeout bounds one announcement; past it the write stands and
// other servers' cached summaries expire on their own within a minute.
const notifyTimeout = 2 * time.Second

// Notifier carries learners' writes between the servers sharing the
// database, with LISTEN/NOTIFY: it is the progress.Invalidator of a server,
// and Listen hands other servers' announcements to its Service.Forget.
// The payload is "<server id> <learner id>", so a server skips its own.
type Notifier struct {
	store  *Store
	origin string
	log    *slog.Logger
	ready  chan struct{}
}

// Notifier returns the store's notifier; log receives its failures (nil
// discards them).
func (s *Store) Notifier(log *slog.Logger) (*Notifier, error) {
	var id [8]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, fmt.Errorf("postgres: notifier: %w", err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Notifier{store: s, origin: hex.EncodeToString(id[:]), log: log, ready: make(chan struct{})}, nil
}

// Invalidate announces that the learner wrote. Failures are logged: the
// write already stands.
func (n *Notifier) Invalidate(learnerID string) {
	ctx, cancel := context.WithTimeout(context.Background(), notifyTimeout)
	defer cancel()
	if _, err := n.store.pool.Exec(ctx, "SELECT pg_notify($1, $2)", channel, n.origin+" "+learnerID); err != nil {
		n.log.Warn("announce a write to the other servers; their cached summary of this learner expires within a minute",
			"err", err)
	}
}

// Ready is closed once Listen first listens.
func (n *Notifier) Ready() <-chan struct{} { return n.ready }

// Listen receives other servers' announcements on a connection of its own
// until ctx ends, calling forget with each learner id. Each time it starts
// listening, the first time included, it calls forgetAll: announcements
// made while it was not listening are lost. When the connection drops it
// logs and connects again, waiting up to 10 s between tries. It returns
// nil when ctx ends.
func (n *Notifier) Listen(ctx context.Context, forget func(learnerID string), forgetAll func()) error {
	wait := 100 * time.Millisecond
	first := true
	for {
		err := n.listenOnce(ctx, forget, forgetAll, func() {
			wait = 100 * time.Millisecond
			if first {
				first = false
				close(n.ready)
			}
		})
		if ctx.Err() != nil {
			return nil
		}
		n.log.Warn("listening for other servers' writes stopped; trying again", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		wait = min(2*wait, 10*time.Second)
	}
}

func (n *Notifier) listenOnce(ctx context.Context, forget func(string), forgetAll func(), listening func()) error {
	conn, err := pgx.ConnectConfig(ctx, n.store.pool.Config().ConnConfig.Copy())
	if err != nil {
		return fmt.Errorf("postgres: listen: connect: %w", err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return fmt.Errorf("postgres: listen: %w", err)
	}
	forgetAll()
	listening()
	for {
		msg, err := conn.WaitForNotification(ctx)
		if err != nil {
			return fmt.Errorf("postgres: listen: %w", err)
		}
		origin, learnerID, ok := strings.Cut(msg.Payload, " ")
		if !ok || origin == n.origin {
			continue
		}
		forget(learnerID)
	}
}
