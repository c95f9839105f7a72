package postgres

import (
	"context"
	"sync"
	"testing"
	"time"

	"learn/postgres/pgtest"
)

// heard records what a listening server was told.
type heard struct {
	mu      sync.Mutex
	ids     []string
	flushes int
	got     chan string
}

func (h *heard) forget(id string) {
	h.mu.Lock()
	h.ids = append(h.ids, id)
	h.mu.Unlock()
	h.got <- id
}

func (h *heard) forgetAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.flushes++
}

// testNotifier announces writes from one server to another through the
// database, and checks that a server skips its own announcements and
// listens again after its connection is cut.
func testNotifier(t *testing.T, c *pgtest.Cluster) {
	url := c.NewDatabase(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func() *Notifier {
		s, err := Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		n, err := s.Notifier(nil)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	a, b := open(), open()
	ha, hb := &heard{got: make(chan string, 10)}, &heard{got: make(chan string, 10)}
	done := make(chan error, 2)
	go func() { done <- a.Listen(ctx, ha.forget, ha.forgetAll) }()
	go func() { done <- b.Listen(ctx, hb.forget, hb.forgetAll) }()
	<-a.Ready()
	<-b.Ready()

	a.Invalidate("learner-1")
	if id := receive(t, hb.got); id != "learner-1" {
		t.Errorf("b heard %q, want learner-1", id)
	}
	b.Invalidate("learner-2")
	if id := receive(t, ha.got); id != "learner-2" {
		t.Errorf("a heard %q, want learner-2", id)
	}
	// Each server skipped its own announcement: b's channel holds nothing
	// more once a has heard b's.
	select {
	case id := <-hb.got:
		t.Errorf("b heard its own announcement %q", id)
	default:
	}

	// Cut b's listening connection: it connects again, forgets everything
	// once more, and hears the next announcement.
	if _, err := a.store.pool.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE query = 'LISTEN `+channel+`' AND pid <> pg_backend_pid()`); err != nil {
		t.Fatal(err)
	}
	for {
		hb.mu.Lock()
		flushes := hb.flushes
		hb.mu.Unlock()
		if flushes >= 2 {
			break
		}
		select {
		case <-time.After(50 * time.Millisecond):
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		}
	}
	a.Invalidate("learner-3")
	if id := receive(t, hb.got); id != "learner-3" {
		t.Errorf("after reconnecting b heard %q, want learner-3", id)
	}
	cancel()
	for range 2 {
		if err := <-done; err != nil {
			t.Errorf("Listen returned %v after its context ended, want nil", err)
		}
	}
}

// receive waits for one announcement; a missing one fails after a minute,
// far beyond any busy machine's delivery time.
func receive(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case id := <-ch:
		return id
	case <-time.After(time.Minute):
		t.Fatal("no announcement arrived")
		return ""
	}
}
