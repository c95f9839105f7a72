package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"learn/progress"
)

// StatsView is the authors' statistics page (/stats, admins only).
type StatsView struct {
	Page
	MinAnswers int
	Quizzes    []QuizStatsView
	Widgets    []StatsRow
	Exercises  []ExerciseStatsRow
}

// QuizStatsView is one quiz: a row per question and version, and a chart.
type QuizStatsView struct {
	Title    string
	Learners int
	Rows     []StatsRow
	Chart    QuizChart
}

// StatsRow is one question, version or widget item, its figures in words.
type StatsRow struct {
	Where, ID, Prompt, Answered, Facility, Discrimination, Choices string
	Version                                                        bool
	Flags                                                          []string
}

// ExerciseStatsRow is one exercise's figures in words.
type ExerciseStatsRow struct {
	Where, Title, Learners, Solved, Median, Hints, MostFailing string
}

// QuizChart is a quiz's chart drawn by the server as SVG: per question a
// bar of its facility (0 to 1) and one of its discrimination (-1 to 1
// around the middle line).
type QuizChart struct {
	Width, Height int
	Label         string
	Bars          []ChartBar
	// FacilityX and DiscMid are where the two scales start and centre.
	FacilityX, FacilityW, DiscMid, DiscHalf int
}

// ChartBar is one question of a chart.
type ChartBar struct {
	Y                              int
	Name                           string
	FacilityW                      int
	FacilityText                   string
	DiscX, DiscW                   int
	DiscText                       string
	DiscNegative, NoDiscrimination bool
}

// Chart geometry, in SVG user units.
const (
	chartRow      = 28
	chartTop      = 30
	chartFacX     = 70
	chartFacW     = 240
	chartDiscMid  = 470
	chartDiscHalf = 120
)

// statsShow renders the authors' statistics, across every learner.
func (s *Server) statsShow(w http.ResponseWriter, r *http.Request) error {
	min := progress.DefaultStatsMinAnswers
	if v := r.URL.Query().Get("min"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return &Error{Status: http.StatusBadRequest, Message: "min must be a whole number of answers above 0, such as ?min=20."}
		}
		min = n
	}
	st, err := s.app.CourseStats(r.Context(), progress.ActorFrom(r.Context()), min)
	if err != nil {
		return err
	}
	v := StatsView{Page: s.page(r, "Course statistics", "classes"), MinAnswers: st.MinAnswers}
	for _, q := range st.Quizzes {
		qv := QuizStatsView{Title: q.LessonTitle, Learners: q.Learners, Chart: quizChart(q)}
		for _, it := range q.Questions {
			qv.Rows = append(qv.Rows, statsRow(it, false))
			for _, ver := range it.Versions {
				qv.Rows = append(qv.Rows, statsRow(ver, true))
			}
		}
		v.Quizzes = append(v.Quizzes, qv)
	}
	for _, it := range st.Widgets {
		row := statsRow(it, false)
		row.Where = it.Lesson + " / " + it.Widget
		v.Widgets = append(v.Widgets, row)
	}
	for _, e := range st.Exercises {
		row := ExerciseStatsRow{Where: e.Lesson + " / " + e.ID, Title: e.Title, Learners: strconv.Itoa(e.Learners),
			Solved: fmt.Sprintf("%d (%.0f %%)", e.Solvers, 100*e.SolvedShare), Median: strconv.FormatFloat(e.MedianToSolve, 'f', -1, 64),
			Hints: fmt.Sprintf("%d (%.0f %%)", e.HintLearners, 100*e.HintShare), MostFailing: "—"}
		if e.MostFailing != "" {
			row.MostFailing = fmt.Sprintf("%s: %s, %d times", e.MostFailing, e.MostFailingVerdict, e.MostFailingCount)
		}
		v.Exercises = append(v.Exercises, row)
	}
	return render(w, r, statsPage(v))
}

func statsRow(it progress.ItemStats, version bool) StatsRow {
	row := StatsRow{ID: it.ID, Prompt: it.Prompt, Answered: strconv.Itoa(it.Answered), Facility: fmt.Sprintf("%.2f", it.Facility),
		Discrimination: "—", Version: version, Flags: it.Flags}
	if it.Discrimination != nil {
		row.Discrimination = fmt.Sprintf("%.2f", *it.Discrimination)
	}
	var choices []string
	for _, c := range it.Choices {
		choices = append(choices, fmt.Sprintf("%s: %d", c.Text, c.Count))
	}
	row.Choices = strings.Join(choices, " · ")
	return row
}

// quizChart lays out a quiz's chart.
func quizChart(q progress.QuizStats) QuizChart {
	c := QuizChart{Width: chartDiscMid + chartDiscHalf + 60, Height: chartTop + chartRow*len(q.Questions) + 10,
		FacilityX: chartFacX, FacilityW: chartFacW, DiscMid: chartDiscMid, DiscHalf: chartDiscHalf}
	var words []string
	for i, it := range q.Questions {
		b := ChartBar{Y: chartTop + chartRow*i, Name: it.ID, FacilityW: int(float64(chartFacW)*it.Facility + 0.5), FacilityText: fmt.Sprintf("%.2f", it.Facility),
			DiscText: "—", NoDiscrimination: it.Discrimination == nil, DiscX: chartDiscMid}
		said := fmt.Sprintf("%s facility %.2f", it.ID, it.Facility)
		if d := it.Discrimination; d != nil {
			w := int(float64(chartDiscHalf)*abs(*d) + 0.5)
			b.DiscW, b.DiscText, b.DiscNegative = w, fmt.Sprintf("%.2f", *d), *d < 0
			if *d < 0 {
				b.DiscX = chartDiscMid - w
			}
			said += fmt.Sprintf(", discrimination %.2f", *d)
		}
		words = append(words, said)
		c.Bars = append(c.Bars, b)
	}
	c.Label = "Facility and discrimination per question: " + strings.Join(words, "; ")
	return c
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
