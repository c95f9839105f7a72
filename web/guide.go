package web

import (
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"

	"learn/grading"
	"learn/lessons"
	"learn/quiz"
)

// The authoring guide (/guide) documents every field and block an author
// writes. Its examples are the files of lessons.GuideFiles: each is shown
// as written beside the same file loaded by lessons.Load and drawn with the
// components lesson pages use, in forms that are disabled, so the guide
// shows exactly what a learner sees and cannot drift from the code.

// GuideView is the authoring guide page.
type GuideView struct {
	Page
	InfoFields, FrontMatterFields []lessons.Field
	// CourseYAML and LessonFile are example files as written.
	CourseYAML, LessonFile string
	LessonFileName         string
	Examples               []GuideExample
	// FAQ is the example faq block as written (FAQFile, FAQSource) and its
	// entries as a learner sees them.
	FAQFile, FAQSource string
	FAQ                []FAQView
	XP                 GuideXP
	MinQuizQuestions   int
}

// GuideExample is one example block: what it shows, its source and how it
// renders.
type GuideExample struct {
	ID, Title string
	// About is the example lesson's prose, rendered.
	About  template.HTML
	File   string
	Source string
	Live   BodyPart
}

// GuideXP are the XP rules' figures.
type GuideXP struct {
	Widget, Quiz, Exercise, Review, LevelStep int
	// ReviewCards and ReviewCap are the review answers that earn XP per
	// local day and the XP they make; QuizFloor is the least a pass of a
	// default quiz earns after failed attempts.
	ReviewCards, ReviewCap, QuizFloor int
	// QuizFails is how many failed attempts in a row make the next wait,
	// QuizFirstWait and QuizMaxWait the first and longest wait in minutes.
	QuizFails, QuizFirstWait, QuizMaxWait int
}

// guide is the guide page's content, built once when the server starts.
type guide struct {
	view GuideView
}

// newGuide loads the guide's examples and draws their views.
func newGuide() (*guide, error) {
	course, err := lessons.Guide()
	if err != nil {
		return nil, fmt.Errorf("web: guide examples: %w", err)
	}
	book, err := grading.Compile(course)
	if err != nil {
		return nil, fmt.Errorf("web: guide examples: %w", err)
	}
	files := lessons.GuideFiles()
	read := func(name string) (string, error) {
		b, err := fs.ReadFile(files, name)
		if err != nil {
			return "", fmt.Errorf("web: guide example %s: %w", name, err)
		}
		return string(b), nil
	}
	v := GuideView{
		InfoFields: lessons.InfoFields(), FrontMatterFields: lessons.FrontMatterFields(),
		XP: GuideXP{Widget: quiz.WidgetXP, Quiz: quiz.DefaultQuizXP, Exercise: lessons.DefaultExerciseXP, Review: quiz.ReviewXP, LevelStep: quiz.LevelStepXP,
			ReviewCards: quiz.ReviewCardsPerDay, ReviewCap: quiz.ReviewDailyCapXP, QuizFloor: quiz.QuizPassXP(quiz.DefaultQuizXP, quiz.QuizFailsBeforeWait),
			QuizFails: quiz.QuizFailsBeforeWait, QuizFirstWait: int(quiz.QuizFirstWait.Minutes()), QuizMaxWait: int(quiz.QuizMaxWait.Minutes())},
		MinQuizQuestions: lessons.MinQuizQuestions,
	}
	if v.CourseYAML, err = read(lessons.InfoFile); err != nil {
		return nil, err
	}
	first := course.Lessons[0]
	v.LessonFileName = first.File
	if v.LessonFile, err = read(first.File); err != nil {
		return nil, err
	}
	for _, l := range course.Lessons {
		if l.FAQSource != "" && v.FAQSource == "" {
			v.FAQFile, v.FAQSource = l.File, l.FAQSource
			for _, f := range l.FAQ {
				v.FAQ = append(v.FAQ, FAQView{Question: f.Question, Answer: f.Answer})
			}
		}
		var about template.HTML
		for _, seg := range l.Segments {
			w := seg.Widget
			if w == nil {
				about += seg.HTML
				continue
			}
			ex := GuideExample{ID: "example-" + l.Slug, Title: l.Title, About: about, File: l.File, Source: w.Source}
			if w.Exercise != nil {
				plan, _ := book.Plan(w.Exercise.ID)
				ex.Live = BodyPart{Exercise: newExerciseView(w.Exercise, plan, w.Exercise.Starter, "/guide")}
			} else {
				var draw quiz.Draw
				if q, ok := w.Value.(*quiz.Quiz); ok {
					draw = quiz.DrawFor(q, "guide", 0)
				}
				wv := widgetView(l, w, draw, 0, "")
				wv.Action, wv.LessonURL = "/guide", "/guide"
				ex.Live = BodyPart{Widget: wv}
			}
			v.Examples = append(v.Examples, ex)
			about = ""
		}
	}
	return &guide{view: v}, nil
}

// guideShow renders the authoring guide.
func (s *Server) guideShow(w http.ResponseWriter, r *http.Request) error {
	v := s.guide.view
	v.Page = s.page(r, "Writing lessons", "guide")
	v.Description = "How to write a course for learn: every field, every block with a live example, the XP rules and learn check."
	return render(w, r, guidePage(v))
}

// fieldRequired says whether a field is required, for the tables.
func fieldRequired(f lessons.Field) string {
	if f.Required {
		return "required"
	}
	return "optional"
}

func xpText(n int) string { return strconv.Itoa(n) }
