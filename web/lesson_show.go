package web

import (
	"fmt"
	"html/template"
	"net/http"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// lessonShow renders one lesson and records that the learner opened it.
func (s *Server) lessonShow(w http.ResponseWriter, r *http.Request) error {
	slug := r.PathValue("slug")
	lesson, ok := s.course().Lesson(slug)
	if !ok {
		return notFoundError(fmt.Sprintf("There is no lesson called %q. The course home lists every lesson.", slug))
	}
	if err := s.app.OpenLesson(r.Context(), progress.ActorFrom(r.Context()), slug); err != nil {
		return err
	}
	return s.serveLesson(w, r, lesson)
}

// lessonOverrides replaces parts of a lesson page after a post: a widget
// or an exercise drawn with its results, and the status to answer with.
type lessonOverrides struct {
	widget   *WidgetView
	exercise *ExerciseView
	status   int
}

// renderLesson draws the whole lesson page with the overrides of a post.
func (s *Server) renderLesson(w http.ResponseWriter, r *http.Request, lesson *lessons.Lesson, o lessonOverrides) error {
	v, err := s.lessonView(r, lesson, o, false)
	if err != nil {
		return err
	}
	if v.StyleNonce != "" {
		w.Header().Set("Content-Security-Policy", policyWithStyleNonce(v.StyleNonce))
	}
	status := o.status
	if status == 0 {
		status = http.StatusOK
	}
	return renderStatus(w, r, status, lessonPage(v))
}

// lessonView builds the lesson page's view model. With skeleton set, the
// learner's parts are holes (see skeleton.go).
func (s *Server) lessonView(r *http.Request, lesson *lessons.Lesson, o lessonOverrides, skeleton bool) (LessonView, error) {
	course := s.course()
	a, sum := progress.ActorFrom(r.Context()), summaryFrom(r.Context())
	v := LessonView{
		Page: s.page(r, lesson.Title, "course"), Title: lesson.Title, Slug: lesson.Slug, Number: course.Number(lesson.Slug),
		Minutes: lesson.Minutes, XP: lesson.EarnableXP(), Objectives: lesson.Objectives,
	}
	v.Description = lesson.Summary
	v.Skeleton = skeleton
	if len(lesson.Exercises()) > 0 && s.assets.Has("editor.js") {
		v.Scripts = append(v.Scripts, s.assets.URL("editor.js"))
		if skeleton {
			v.StyleNonce = hole(holeNonce)
		} else {
			nonce, err := newNonce()
			if err != nil {
				return v, err
			}
			v.StyleNonce = nonce
		}
	}
	attempt := 0
	if !skeleton {
		attempt = quizAttempt(a, sum, lesson)
	}
	for i, seg := range lesson.Segments {
		if i == lesson.TakeawaysAt && lesson.Takeaways != "" {
			v.Body = append(v.Body, BodyPart{Takeaways: lesson.Takeaways})
		}
		w := seg.Widget
		switch {
		case w == nil:
			v.Body = append(v.Body, BodyPart{HTML: seg.HTML})
		case w.Exercise != nil && o.exercise != nil && o.exercise.ID == w.ID:
			v.Body = append(v.Body, BodyPart{Exercise: o.exercise})
		case w.Exercise != nil && skeleton:
			v.Body = append(v.Body, BodyPart{Exercise: s.exerciseView(lesson, w.Exercise, hole(holeCode+w.ID))})
		case w.Exercise != nil:
			v.Body = append(v.Body, BodyPart{Exercise: s.exerciseView(lesson, w.Exercise, learnerCode(sum, w.Exercise))})
		case o.widget != nil && o.widget.ID == w.ID:
			v.Body = append(v.Body, BodyPart{Widget: o.widget})
		case w.Kind == quiz.KindQuiz && skeleton:
			v.Body = append(v.Body, BodyPart{HTML: template.HTML(hole(holeQuiz + w.ID))})
		default:
			// The time-zone field is left empty; the page script fills it.
			var draw quiz.Draw
			if q, ok := w.Value.(*quiz.Quiz); ok {
				draw = progress.QuizDraw(a, q, attempt)
			}
			v.Body = append(v.Body, BodyPart{Widget: widgetView(lesson, w, draw, attempt, "")})
		}
	}
	if lesson.TakeawaysAt >= len(lesson.Segments) && lesson.Takeaways != "" {
		v.Body = append(v.Body, BodyPart{Takeaways: lesson.Takeaways})
	}
	prev, next := course.Neighbours(lesson.Slug)
	if prev != nil {
		v.Prev = &LessonLink{Title: prev.Title, Slug: prev.Slug}
	}
	if next != nil {
		v.Next = &LessonLink{Title: next.Title, Slug: next.Slug}
	}
	return v, nil
}
