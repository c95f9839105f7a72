package progress

import (
	"strings"
	"testing"
	"time"
)

func TestJoinCodes(t *testing.T) {
	for range 200 {
		code, err := newJoinCode()
		if err != nil {
			t.Fatal(err)
		}
		if len(code) != JoinCodeLen || strings.ContainsAny(code, "0O1IL") || strings.Trim(code, joinCodeAlphabet) != "" {
			t.Fatalf("join code %q has a look-alike or foreign character, or the wrong length", code)
		}
	}
	tests := []struct{ in, want string }{
		{"abc234", "ABC234"},
		{" ab-c 234 ", "ABC234"},
		{"", ""},
	}
	for _, tc := range tests {
		if got := NormalizeJoinCode(tc.in); got != tc.want {
			t.Errorf("NormalizeJoinCode(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestSecretWords(t *testing.T) {
	words := secretWords()
	if len(words) < 150 {
		t.Fatalf("%d secret words, want at least 150", len(words))
	}
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] || strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" || len(w) > 9 {
			t.Errorf("word %q is repeated, not plain lower-case letters, or long", w)
		}
		seen[w] = true
	}
	s, err := newSecret()
	if err != nil {
		t.Fatal(err)
	}
	if parts := strings.Fields(s); len(parts) != SecretWordCount || parts[0] == parts[1] || parts[1] == parts[2] || parts[0] == parts[2] {
		t.Errorf("secret %q, want %d distinct words", s, SecretWordCount)
	}
	for _, typed := range []string{strings.ToUpper(s), "  " + strings.ReplaceAll(s, " ", ", ") + ".", strings.ReplaceAll(s, " ", "-")} {
		if hashSecret(7, typed) != hashSecret(7, s) {
			t.Errorf("typed %q does not match %q", typed, s)
		}
	}
	if hashSecret(7, s) == hashSecret(8, s) {
		t.Error("the same words hash alike in two classes")
	}
}

func TestCleanName(t *testing.T) {
	tests := []struct {
		in, clean, key string
		bad            bool
	}{
		{"  Blue   Fox ", "Blue Fox", "blue fox", false},
		{"", "", "", true},
		{"   ", "", "", true},
		{strings.Repeat("x", MaxNameLen+1), "", "", true},
		{"tab\x07bell", "", "", true},
	}
	for _, tc := range tests {
		clean, key, problem := cleanName(tc.in, "name")
		if (problem != "") != tc.bad || clean != tc.clean || key != tc.key {
			t.Errorf("cleanName(%q) = %q, %q, %q; want %q, %q, refused %v", tc.in, clean, key, problem, tc.clean, tc.key, tc.bad)
		}
	}
}

func TestLateAndDueDay(t *testing.T) {
	due := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC) // the end of 1 December
	as := Assignment{Due: due, Extensions: map[string]time.Time{"extended": due.Add(24 * time.Hour)}}
	tests := []struct {
		name string
		lp   LessonProgress
		now  time.Time
		want bool
	}{
		{"before the due time", LessonProgress{}, due.Add(-time.Minute), false},
		{"past due, not done", LessonProgress{}, due.Add(time.Minute), true},
		{"done in time", LessonProgress{CompletedAt: due.Add(-time.Hour)}, due.Add(time.Hour), false},
		{"done after the due time", LessonProgress{CompletedAt: due.Add(time.Hour)}, due.Add(2 * time.Hour), true},
	}
	for _, tc := range tests {
		if got := late(as, "learner", tc.lp, tc.now); got != tc.want {
			t.Errorf("%s: late = %v, want %v", tc.name, got, tc.want)
		}
	}
	// An extension moves the due time for that learner only.
	if late(as, "extended", LessonProgress{}, due.Add(time.Hour)) || !late(as, "extended", LessonProgress{}, due.Add(25*time.Hour)) {
		t.Error("an extended learner is late before their own due time, or not after it")
	}
	for _, tc := range []struct{ text, want string }{
		{"2026-12-05", "2026-12-05"}, {"2026-12-05 14:00", "2026-12-05 14:00"}, {"2026-12-05T09:30", "2026-12-05 09:30"}, {"2026-12-05 00:00", "2026-12-04"},
	} {
		d, err := parseDue(tc.text, "Europe/Paris")
		if err != nil || DueLabel(d, "Europe/Paris") != tc.want {
			t.Errorf("parseDue(%q) then DueLabel = %q (%v), want %q", tc.text, DueLabel(d, "Europe/Paris"), err, tc.want)
		}
	}
	if _, err := parseDue("5/12/2026", "UTC"); err == nil {
		t.Error("a malformed due date was read")
	}
	if late(Assignment{}, "learner", LessonProgress{}, due) {
		t.Error("an assignment without a due date is late")
	}
	if got := DueDay(as, "UTC"); got != "2026-12-01" {
		t.Errorf("DueDay = %q, want 2026-12-01", got)
	}
}

func TestLeaderRows(t *testing.T) {
	members := []Member{{LearnerID: "a", Name: "Amber"}, {LearnerID: "b", Name: "Basil"}, {LearnerID: "c", Name: "Cedar"}, {LearnerID: "d", Name: "Dune"}}
	got := leaderRows(members, map[string]int{"a": 10, "b": 30, "c": 10})
	want := []LeaderRow{{1, "Basil", 30}, {2, "Amber", 10}, {2, "Cedar", 10}}
	if len(got) != len(want) {
		t.Fatalf("leaderRows = %+v, want %+v (no XP, no row)", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestWeekStart(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, paris) // a Thursday
	if got := weekStart(now, paris); !got.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, paris)) {
		t.Errorf("weekStart = %v, want Monday 30 November 00:00 in Paris", got)
	}
	monday := time.Date(2026, 11, 30, 0, 30, 0, 0, paris)
	if got := weekStart(monday, paris); !got.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, paris)) {
		t.Errorf("weekStart on Monday = %v", got)
	}
}
