package web

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestAxisLabels(t *testing.T) {
	day := func(d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, time.UTC) }
	tests := []struct {
		name     string
		from, to time.Time
		wantFrom string
		wantTo   string
	}{
		{"one day: hours", day(1, 9, 5), day(1, 11, 40), "09:05", "11:40 on 1 Dec"},
		{"two days: dates", day(1, 9, 5), day(3, 11, 40), "1 Dec", "3 Dec"},
		{"two years: dates with the year", day(1, 9, 5), time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC), "1 Dec 2026", "2 Jan 2027"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to := axisLabels(tt.from, tt.to)
			if from != tt.wantFrom || to != tt.wantTo {
				t.Errorf("axisLabels = %q, %q; want %q, %q", from, to, tt.wantFrom, tt.wantTo)
			}
		})
	}
}

// TestStillToDoNamesUnopenedLessons: for a new learner "Still to do" names
// each lesson with its count of parts instead of listing every part of
// every lesson; a lesson opened lists its parts not done yet.
func TestStillToDoNamesUnopenedLessons(t *testing.T) {
	s := newTestServer(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	c := newClient(t, ts.URL)
	_, page := c.get("/progress")
	lessons := s.app.Course().Lessons
	if n := strings.Count(page, `data-testid="not-started"`); n != len(lessons) {
		t.Errorf("a new learner's Still to do names %d lessons as not started, want all %d", n, len(lessons))
	}
	if strings.Contains(page, `data-testid="unfinished-parts"`) {
		t.Error("a new learner's Still to do lists parts of lessons never opened")
	}
	first := lessons[0]
	c.get("/lessons/" + first.Slug)
	_, page = c.get("/progress")
	i := strings.Index(page, `data-testid="todo-`+first.Slug+`"`)
	if i < 0 || !strings.Contains(page[i:], `data-testid="unfinished-parts"`) || strings.Count(page, `data-testid="not-started"`) != len(lessons)-1 {
		t.Errorf("after opening %s, Still to do does not list its parts", first.Slug)
	}
}
