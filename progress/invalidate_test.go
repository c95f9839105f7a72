package progress_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
	"learn/store"
)

// bus carries announcements between services in one process, as
// LISTEN/NOTIFY carries them between servers.
type bus struct {
	mu        sync.Mutex
	heard     []string
	listeners []*progress.Service
}

func (b *bus) Invalidate(learnerID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.heard = append(b.heard, learnerID)
	for _, s := range b.listeners {
		s.Forget(learnerID)
	}
}

func (b *bus) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.heard)
}

// twoServers returns two services sharing one store, as two replicas
// share one database; a announces its writes on the bus, b listens.
func twoServers(t *testing.T, announce bool) (a, b *progress.Service, bs *bus) {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "learn.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	now := func() time.Time { return time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC) }
	bs = &bus{}
	cfg := progress.Config{Course: course, Store: st, Now: now}
	if b, err = progress.New(cfg); err != nil {
		t.Fatal(err)
	}
	if announce {
		cfg.Invalidator = bs
		bs.listeners = append(bs.listeners, b)
	}
	if a, err = progress.New(cfg); err != nil {
		t.Fatal(err)
	}
	return a, b, bs
}

func TestWritesAnnouncedToOtherServers(t *testing.T) {
	ctx := context.Background()
	learner := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	tests := []struct {
		name     string
		announce bool
		wantXP   int // what b shows after a's write, within the cache's minute
	}{
		{"with an invalidator the other server reads the new XP", true, quiz.WidgetXP},
		{"without one it keeps its cached summary", false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b, bs := twoServers(t, tc.announce)
			if sum, err := b.Summary(ctx, learner); err != nil || sum.XP != 0 {
				t.Fatalf("b's first summary: XP %d (%v), want 0", sum.XP, err)
			}
			if _, err := a.Summary(ctx, learner); err != nil {
				t.Fatal(err)
			}
			if bs.count() != 0 {
				t.Errorf("reading a summary announced %d writes", bs.count())
			}
			out, err := a.CheckWidget(ctx, learner, progress.WidgetPost{LessonSlug: "two-ways-to-fail", WidgetID: "which-channel",
				Answers: classifyAnswers(t, a, "two-ways-to-fail", "which-channel", false)})
			if err != nil || out.Awarded != quiz.WidgetXP {
				t.Fatalf("CheckWidget: awarded %d (%v)", out.Awarded, err)
			}
			sum, err := b.Summary(ctx, learner)
			if err != nil || sum.XP != tc.wantXP {
				t.Errorf("b's summary after a's write: XP %d (%v), want %d", sum.XP, err, tc.wantXP)
			}
			if tc.announce && bs.count() == 0 {
				t.Error("the write was not announced")
			}
			if err := a.OpenLesson(ctx, learner, "tool-annotations"); err != nil {
				t.Fatal(err)
			}
			sum, _ = b.Summary(ctx, learner)
			if got := sum.Opened["tool-annotations"]; got != tc.announce {
				t.Errorf("b sees the lesson opened on a: %v, want %v", got, tc.announce)
			}
			b.ForgetAll()
			if sum, _ := b.Summary(ctx, learner); sum.XP != quiz.WidgetXP || !sum.Opened["tool-annotations"] {
				t.Errorf("after ForgetAll b shows XP %d, opened %v; want the stored figures", sum.XP, sum.Opened)
			}
		})
	}
}
