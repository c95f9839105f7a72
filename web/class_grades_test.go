package web

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"learn/progress"
)

func TestGradeView(t *testing.T) {
	at := time.Date(2026, 12, 3, 7, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name                  string
		in                    progress.LTIScoreState
		wantScore, wantAnswer string
	}{
		{"sent hides the answer", progress.LTIScoreState{State: progress.LMSScoreSent, Given: 55, Maximum: 70, Completed: true, At: at, Attempts: 3, Status: 200, Answer: "200 OK"},
			"55 of 70, completed", ""},
		{"pending after 503s", progress.LTIScoreState{State: progress.LMSScorePending, Given: 5, Maximum: 70, At: at, Attempts: 4, Status: 503,
			Answer: "the platform answered 503 Service Unavailable: down"}, "5 of 70", "the platform answered 503 Service Unavailable: down (4 tries)"},
		{"pending before any try", progress.LTIScoreState{State: progress.LMSScorePending, Given: 5, Maximum: 70, At: at}, "5 of 70", ""},
		{"failed without the status in the text", progress.LTIScoreState{State: progress.LMSScoreFailed, Given: 5, Maximum: 70, At: at, Attempts: 1, Status: 400,
			Answer: "bad userId"}, "5 of 70", "400: bad userId"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gradeView("Grace", "Two ways to fail", tc.in)
			if g.Score != tc.wantScore || g.Answer != tc.wantAnswer || g.State != tc.in.State || g.Name != "Grace" {
				t.Errorf("gradeView = %+v; want score %q, answer %q", g, tc.wantScore, tc.wantAnswer)
			}
		})
	}
}

// TestGradesTableEscapes: the LMS's answer is the LMS's text, shown as
// text.
func TestGradesTableEscapes(t *testing.T) {
	var buf bytes.Buffer
	grades := []GradeView{{Name: "<b>Grace</b>", Lesson: "Two ways", Score: "5 of 70", State: "failed", Answer: `400: <script>alert("x")</script>`}}
	if err := gradesTable(grades).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<script>") || strings.Contains(buf.String(), "<b>") {
		t.Fatalf("unescaped markup in\n%s", buf.String())
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	row := doc.Find(`[data-testid="lms-grade"]`)
	if row.Length() != 1 || row.AttrOr("data-state", "") != "failed" || !strings.Contains(row.Text(), `<script>alert("x")</script>`) {
		t.Errorf("row = %q", row.Text())
	}
}
