package postgres

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// bumpTimeout bounds recording one write; past it the write stands and
// other servers' cached summaries of the learner expire within a minute.
const bumpTimeout = 2 * time.Second

// WriteVersions keeps the servers sharing the database honest about their
// cached summaries: it is a server's progress.Invalidator. Invalidate
// counts a learner's write in learner_versions; Version reads the count, so
// a server notices another's write on the learner's next page, whichever
// server serves it. It costs one primary-key read per cached page view,
// instead of the seven queries of loading a summary.
//
// (LISTEN/NOTIFY was tried first: a notification reaches the other servers
// a little after the writer answers, and on a busy machine the learner's
// next request sometimes arrived first and showed the XP from before.)
type WriteVersions struct {
	store *Store
	log   *slog.Logger
}

// WriteVersions returns the store's write counter; log receives its
// failures (nil discards them).
func (s *Store) WriteVersions(log *slog.Logger) *WriteVersions {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &WriteVersions{store: s, log: log}
}

// Invalidate counts a write by the learner. A failure is logged: the
// write already stands, and other servers' cached summaries of the learner
// expire within a minute.
func (v *WriteVersions) Invalidate(learnerID string) {
	ctx, cancel := context.WithTimeout(context.Background(), bumpTimeout)
	defer cancel()
	if _, err := v.store.pool.Exec(ctx, `INSERT INTO learner_versions (learner_id, version) VALUES ($1, 1)
		ON CONFLICT (learner_id) DO UPDATE SET version = learner_versions.version + 1`, learnerID); err != nil {
		v.log.Warn("count a learner's write; other servers may show their summary from before for up to a minute", "err", err)
	}
}

// Version returns how many writes of the learner were counted (0 before
// the first).
func (v *WriteVersions) Version(ctx context.Context, learnerID string) (int64, error) {
	var n int64
	err := v.store.pool.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM learner_versions WHERE learner_id = $1", learnerID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("postgres: learner version: %w", err)
	}
	return n, nil
}
