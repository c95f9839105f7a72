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

// versions counts learners' writes in memory, as learner_versions counts
// them in a database that several servers share.
type versions struct {
	mu     sync.Mutex
	counts map[string]int64
	reads  int
}

func (v *versions) Invalidate(learnerID string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.counts[learnerID]++
}

func (v *versions) Version(ctx context.Context, learnerID string) (int64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.reads++
	return v.counts[learnerID], nil
}

func (v *versions) written() int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	var n int64
	for _, c := range v.counts {
		n += c
	}
	return n
}

// twoServers returns two services sharing one store, as two replicas
// share one database, and (with shared) one write counter.
func twoServers(t *testing.T, shared bool) (a, b *progress.Service, vs *versions) {
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
	vs = &versions{counts: map[string]int64{}}
	cfg := progress.Config{Course: course, Store: st, Now: now}
	if shared {
		cfg.Invalidator = vs
	}
	if a, err = progress.New(cfg); err != nil {
		t.Fatal(err)
	}
	if b, err = progress.New(cfg); err != nil {
		t.Fatal(err)
	}
	return a, b, vs
}

func TestWritesSeenByOtherServers(t *testing.T) {
	ctx := context.Background()
	learner := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	tests := []struct {
		name   string
		shared bool
		wantXP int // what b shows after a's write, within the cache's minute
	}{
		{"with a shared write count the other server reads the new XP", true, quiz.WidgetXP},
		{"without one it keeps its cached summary", false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b, vs := twoServers(t, tc.shared)
			if sum, err := b.Summary(ctx, learner); err != nil || sum.XP != 0 {
				t.Fatalf("b's first summary: XP %d (%v), want 0", sum.XP, err)
			}
			if _, err := a.Summary(ctx, learner); err != nil {
				t.Fatal(err)
			}
			if n := vs.written(); n != 0 {
				t.Errorf("reading summaries counted %d writes", n)
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
			if tc.shared && vs.written() == 0 {
				t.Error("the write was not counted")
			}
			if err := a.OpenLesson(ctx, learner, "tool-annotations"); err != nil {
				t.Fatal(err)
			}
			sum, _ = b.Summary(ctx, learner)
			if got := sum.Opened["tool-annotations"]; got != tc.shared {
				t.Errorf("b sees the lesson opened on a: %v, want %v", got, tc.shared)
			}
			// A cached page view costs one version read, and no write.
			before := vs.written()
			for range 3 {
				if _, err := b.Summary(ctx, learner); err != nil {
					t.Fatal(err)
				}
			}
			if vs.written() != before {
				t.Error("page views counted writes")
			}
		})
	}
}

// TestFingerprintFollowsContent checks the summary's fingerprint: the same
// on two servers for the same learner, moved by the learner's write (read
// on the other server), and 0 for a first visit.
func TestFingerprintFollowsContent(t *testing.T) {
	ctx := context.Background()
	learner := progress.Actor{ID: "0123456789abcdef0123456789abcdef", Role: progress.RoleLearner, Known: true}
	a, b, _ := twoServers(t, true)
	if sum, err := a.Summary(ctx, progress.Actor{ID: "fedcba9876543210fedcba9876543210", Role: progress.RoleLearner}); err != nil || sum.Fingerprint != 0 {
		t.Errorf("a first visit's fingerprint = %x (%v), want 0", sum.Fingerprint, err)
	}
	sa, err := a.Summary(ctx, learner)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.Summary(ctx, learner)
	if err != nil {
		t.Fatal(err)
	}
	if sa.Fingerprint == 0 || sa.Fingerprint != sb.Fingerprint {
		t.Fatalf("fingerprints of one learner: %x on a, %x on b; want equal and not 0", sa.Fingerprint, sb.Fingerprint)
	}
	if _, err := a.CheckWidget(ctx, learner, progress.WidgetPost{LessonSlug: "two-ways-to-fail", WidgetID: "which-channel",
		Answers: classifyAnswers(t, a, "two-ways-to-fail", "which-channel", false)}); err != nil {
		t.Fatal(err)
	}
	after, err := b.Summary(ctx, learner)
	if err != nil {
		t.Fatal(err)
	}
	if after.Fingerprint == sb.Fingerprint {
		t.Errorf("the fingerprint on b stayed %x after the learner's write on a", after.Fingerprint)
	}
}
