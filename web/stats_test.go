package web

import (
	"net/http"
	"strings"
	"testing"

	"learn/lessons"
	"learn/progress"
)

// TestStatsPageIsForAdminsOnly checks that an admin sees a table and a
// chart per quiz of the course, and everyone else 404.
func TestStatsPageIsForAdminsOnly(t *testing.T) {
	w := newClassWorld(t)
	w.addTeacher("admin@school.example", true)
	w.addTeacher("plain@school.example", false)
	admin, plain, learner := w.browser(), w.browser(), w.browser()
	admin.signIn("admin@school.example")
	plain.signIn("plain@school.example")
	a := admin.get("/stats")
	if a.status != http.StatusOK {
		t.Fatalf("an admin's /stats = %d", a.status)
	}
	quizzes := 0
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range course.Lessons {
		if _, ok := l.Quiz(); ok {
			quizzes++
		}
	}
	if n := strings.Count(a.body, `data-testid="stats-quiz"`); n != quizzes || strings.Count(a.body, `<svg class="stats-chart" data-testid="stats-chart" role="img" aria-label="Facility and discrimination per question: `) != quizzes {
		t.Errorf("/stats shows %d quizzes, want %d, each with a labelled chart", n, quizzes)
	}
	if !strings.Contains(admin.get("/teachers").body, `href="/stats"`) {
		t.Error("the teachers page does not link the statistics")
	}
	if a := admin.get("/stats?min=none"); a.status != http.StatusBadRequest {
		t.Errorf("/stats?min=none = %d, want 400", a.status)
	}
	for name, b := range map[string]*browser{"a teacher": plain, "a learner": learner} {
		if a := b.get("/stats"); a.status != http.StatusNotFound {
			t.Errorf("/stats for %s = %d, want 404", name, a.status)
		}
	}
}

// TestQuizChart checks the chart's geometry on figures worked by hand:
// facility 0.5 fills half of the 240-unit bar; discrimination −0.5 runs
// 60 units left of the middle at 470, and 0.25 30 units right of it.
func TestQuizChart(t *testing.T) {
	neg, pos := -0.5, 0.25
	c := quizChart(progress.QuizStats{Questions: []progress.ItemStats{
		{ID: "q1", Facility: 0.5, Discrimination: &neg}, {ID: "q2", Facility: 1, Discrimination: &pos}, {ID: "q3"},
	}})
	want := []ChartBar{
		{Y: 30, Name: "q1", FacilityW: 120, FacilityText: "0.50", DiscX: 410, DiscW: 60, DiscText: "-0.50", DiscNegative: true},
		{Y: 58, Name: "q2", FacilityW: 240, FacilityText: "1.00", DiscX: 470, DiscW: 30, DiscText: "0.25"},
		{Y: 86, Name: "q3", FacilityW: 0, FacilityText: "0.00", DiscX: 470, DiscText: "—", NoDiscrimination: true},
	}
	for i, b := range c.Bars {
		if b != want[i] {
			t.Errorf("bar %d = %+v\nwant %+v", i, b, want[i])
		}
	}
	if c.Height != 30+3*28+10 || !strings.Contains(c.Label, "q1 facility 0.50, discrimination -0.50; q2") {
		t.Errorf("height %d, label %q", c.Height, c.Label)
	}
}
