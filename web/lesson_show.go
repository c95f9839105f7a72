package web

import (
	"fmt"
	"net/http"

	"learn/lessons"
)

// lessonShow renders one lesson and records that the learner opened it.
func (s *Server) lessonShow(w http.ResponseWriter, r *http.Request) error {
	slug := r.PathValue("slug")
	lesson, ok := s.course.Load().Lesson(slug)
	if !ok {
		return notFoundError(fmt.Sprintf("There is no lesson called %q. The course home lists every lesson.", slug))
	}
	if err := s.recordOpened(r, slug); err != nil {
		return err
	}
	return s.renderLesson(w, r, lesson, lessonOverrides{})
}

// lessonOverrides replaces parts of a lesson page after a post: a widget
// or an exercise drawn with its results, and the status to answer with.
type lessonOverrides struct {
	widget   *WidgetView
	exercise *ExerciseView
	status   int
}

// renderLesson draws the lesson page, with the overrides of a post.
func (s *Server) renderLesson(w http.ResponseWriter, r *http.Request, lesson *lessons.Lesson, o lessonOverrides) error {
	course := s.course.Load()
	l := learnerFrom(r.Context())
	attempt, err := s.quizAttempt(r, lesson)
	if err != nil {
		return err
	}
	v := LessonView{
		Page: s.page(r, lesson.Title, "course"), Title: lesson.Title, Slug: lesson.Slug, Number: course.Number(lesson.Slug),
		Minutes: lesson.Minutes, XP: lesson.XP, Objectives: lesson.Objectives, Takeaways: lesson.Takeaways,
	}
	v.Description = lesson.Summary
	if len(lesson.Exercises()) > 0 && s.assets.Has("editor.js") {
		v.Scripts = append(v.Scripts, s.assets.URL("editor.js"))
		nonce, err := newNonce()
		if err != nil {
			return err
		}
		v.StyleNonce = nonce
		w.Header().Set("Content-Security-Policy", policyWithStyleNonce(nonce))
	}
	for _, seg := range lesson.Segments {
		switch {
		case seg.Widget == nil:
			v.Body = append(v.Body, BodyPart{HTML: seg.HTML})
		case seg.Widget.Exercise != nil && o.exercise != nil && o.exercise.ID == seg.Widget.ID:
			v.Body = append(v.Body, BodyPart{Exercise: o.exercise})
		case seg.Widget.Exercise != nil:
			code, err := s.learnerCode(r.Context(), l, seg.Widget.Exercise)
			if err != nil {
				return err
			}
			v.Body = append(v.Body, BodyPart{Exercise: exerciseView(lesson, seg.Widget.Exercise, code)})
		case o.widget != nil && o.widget.ID == seg.Widget.ID:
			v.Body = append(v.Body, BodyPart{Widget: o.widget})
		default:
			v.Body = append(v.Body, BodyPart{Widget: widgetView(lesson, seg.Widget, l.ID, attempt, l.zone)})
		}
	}
	prev, next := course.Neighbours(lesson.Slug)
	if prev != nil {
		v.Prev = &LessonLink{Title: prev.Title, Slug: prev.Slug}
	}
	if next != nil {
		v.Next = &LessonLink{Title: next.Title, Slug: next.Slug}
	}
	status := o.status
	if status == 0 {
		status = http.StatusOK
	}
	return renderStatus(w, r, status, lessonPage(v))
}

// recordOpened marks the lesson opened for a returning learner. A lesson
// the summary already shows as opened costs no write.
func (s *Server) recordOpened(r *http.Request, slug string) error {
	l := learnerFrom(r.Context())
	if !l.Known || l.opened[slug] {
		return nil
	}
	ctx := r.Context()
	now := s.now()
	if _, err := s.store.EnsureLearner(ctx, l.ID, now); err != nil {
		return err
	}
	defer s.summaries.forget(l.ID)
	return s.store.MarkLessonOpened(ctx, l.ID, slug, now)
}
