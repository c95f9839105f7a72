package quiz

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestQuizAward(t *testing.T) {
	xp10 := 10
	tests := []struct {
		name   string
		q      *Quiz
		r      QuizResult
		want   Award
		wantOK bool
	}{
		{"failed earns nothing", &Quiz{ID: "quiz"}, QuizResult{Score: 4, Total: 6, PassMark: 5}, Award{}, false},
		{"pass earns the default", &Quiz{ID: "quiz"}, QuizResult{Score: 5, Total: 6, PassMark: 5, Passed: true},
			Award{Key: "quiz:tool-errors:quiz", Amount: 50, Reason: "Passed the quiz of tool-errors (5 of 6)"}, true},
		{"pass earns the author's xp", &Quiz{ID: "final", XP: &xp10}, QuizResult{Score: 6, Total: 6, PassMark: 5, Passed: true},
			Award{Key: "quiz:tool-errors:final", Amount: 10, Reason: "Passed the quiz of tool-errors (6 of 6)"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := QuizAward("tool-errors", tt.q, tt.r, 0)
			if ok != tt.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tt.wantOK)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("award (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAwardKeysAreStable(t *testing.T) {
	q := &Quiz{ID: "quiz"}
	pass := QuizResult{Score: 5, Total: 6, PassMark: 5, Passed: true}
	better := QuizResult{Score: 6, Total: 6, PassMark: 5, Passed: true}
	a1, _ := QuizAward("l", q, pass, 0)
	a2, _ := QuizAward("l", q, better, 0)
	if a1.Key != a2.Key {
		t.Errorf("a second, better pass has a new key %q (first %q): it would earn twice", a2.Key, a1.Key)
	}
	w1, _ := WidgetAward("l", "error-kinds", true)
	w2, _ := WidgetAward("l", "error-kinds", true)
	if w1 != w2 || w1.Amount != WidgetXP || w1.Key != "widget:l:error-kinds" {
		t.Errorf("widget awards %+v and %+v", w1, w2)
	}
	if _, ok := WidgetAward("l", "error-kinds", false); ok {
		t.Error("a check that was not fully correct earned XP")
	}
}

func TestReviewAward(t *testing.T) {
	now := time.Date(2026, 3, 2, 23, 30, 0, 0, time.UTC)
	key := ReviewItemKey("tool-errors", "quiz", "is-error")
	c := MissedCard(now)
	c.Due = now
	a1, ok := ReviewAward(key, c, true, now, nil)
	if !ok || a1.Amount != ReviewXP || a1.Key != "review:day:2026-03-02:" || a1.Slots != ReviewCardsPerDay {
		t.Fatalf("first review award %+v %v, want the slots of 2026-03-02", a1, ok)
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no zone data:", err)
	}
	if local, _ := ReviewAward(key, c, true, now, tokyo); local.Key != "review:day:2026-03-03:" {
		t.Errorf("award in Tokyo keyed %q, want the local date 2026-03-03", local.Key)
	}
	next := Schedule(c, Good, now)
	if _, ok := ReviewAward(key, next, true, now, nil); ok {
		t.Errorf("a card answered before it is due (due %v) earned XP", next.Due)
	}
	if _, ok := ReviewAward(key, next, true, next.Due, nil); !ok {
		t.Error("the next due review earned nothing")
	}
	if _, ok := ReviewAward(key, c, false, now, nil); ok {
		t.Error("a wrong review answer earned XP")
	}
	if ReviewDailyCapXP != ReviewCardsPerDay*ReviewXP {
		t.Errorf("ReviewDailyCapXP = %d", ReviewDailyCapXP)
	}
}

func TestQuizPassXP(t *testing.T) {
	tests := []struct{ xp, failed, want int }{
		{50, 0, 50}, {50, 1, 40}, {50, 2, 30}, {50, 3, 20}, {50, 9, 20}, {50, -1, 50},
		{100, 1, 80}, {10, 3, 4},
	}
	for _, tt := range tests {
		if got := QuizPassXP(tt.xp, tt.failed); got != tt.want {
			t.Errorf("QuizPassXP(%d, %d) = %d, want %d", tt.xp, tt.failed, got, tt.want)
		}
	}
}

func TestLevel(t *testing.T) {
	tests := []struct {
		name                    string
		xp                      int
		level, into, forNextLvl int
	}{
		{"start", 0, 1, 0, 100},
		{"negative counts as zero", -5, 1, 0, 100},
		{"just below level 2", 99, 1, 99, 100},
		{"level 2", 100, 2, 0, 200},
		{"inside level 2", 250, 2, 150, 200},
		{"level 3", 300, 3, 0, 300},
		{"level 4", 600, 4, 0, 400},
		{"level 5", 1000, 5, 0, 500},
		{"inside level 5", 1234, 5, 234, 500},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, in, nx := Level(tt.xp)
			if l != tt.level || in != tt.into || nx != tt.forNextLvl {
				t.Errorf("Level(%d) = %d, %d, %d; want %d, %d, %d", tt.xp, l, in, nx, tt.level, tt.into, tt.forNextLvl)
			}
		})
	}
}

func TestQuizWait(t *testing.T) {
	tests := []struct {
		fails int
		want  time.Duration
	}{
		{0, 0}, {2, 0}, {3, 10 * time.Minute}, {4, 20 * time.Minute}, {5, 40 * time.Minute}, {6, time.Hour}, {40, time.Hour},
	}
	for _, tt := range tests {
		if got := QuizWait(tt.fails); got != tt.want {
			t.Errorf("QuizWait(%d) = %v, want %v", tt.fails, got, tt.want)
		}
	}
}
