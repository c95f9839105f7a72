package web

import (
	"bytes"
	"fmt"
	"net/url"
	"time"

	"github.com/a-h/templ"
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
	a := progress.ActorFrom(r.Context())
	if err := s.app.OpenLesson(r.Context(), a, slug); err != nil {
		return err
	}
	if a.Known && !summaryFrom(r.Context()).Opened[slug] {
		// A first opening moves "Continue" to this lesson.
		sum, err := s.app.Summary(r.Context(), a)
		if err != nil {
			return err
		}
		r = withSummary(r, sum)
	}
	var shown *progress.ResultToShow
	if c, err := r.Cookie(resultCookie); err == nil && c.Value == slug {
		// A plain form post left a result to show once (see keepResult).
		setCookie(w, r, &http.Cookie{Name: resultCookie, Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
		res, ok, err := s.app.TakeResult(r.Context(), a, slug)
		if err != nil {
			return err
		}
		if ok {
			shown = &res
			w.Header().Set("Cache-Control", "no-store")
		}
	}
	return s.serveLesson(w, r, lesson, shown)
}

// resultCookie tells the next drawing of a lesson that a plain form post
// kept a result for it, so that page views without one cost no query. It
// names the lesson; the result itself stays on the server, keyed by the
// learner.
const resultCookie = "learn_result"

// keepResult answers a plain (no-JavaScript) form post that was graded:
// the drawn part is kept to show once, and the browser is sent with 303 to
// the lesson at the result, so reload, back and share open the lesson.
func (s *Server) keepResult(w http.ResponseWriter, r *http.Request, lessonSlug, partID string, part templ.Component, anchor string) error {
	var buf bytes.Buffer
	if err := part.Render(r.Context(), &buf); err != nil {
		return fmt.Errorf("web: render result of %s: %w", partID, err)
	}
	if err := s.app.KeepResult(r.Context(), progress.ActorFrom(r.Context()), lessonSlug, partID, buf.String()); err != nil {
		return err
	}
	setCookie(w, r, &http.Cookie{Name: resultCookie, Value: lessonSlug, Path: "/", MaxAge: int(progress.ResultTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
	http.Redirect(w, r, "/lessons/"+url.PathEscape(lessonSlug)+"#"+anchor, http.StatusSeeOther)
	return nil
}

// lessonOverrides replaces parts of a lesson page after a post: a widget
// or an exercise drawn with its results, and the status to answer with.
type lessonOverrides struct {
	widget   *WidgetView
	exercise *ExerciseView
	status   int
	// qa is a refused Q&A post to show again with its message.
	qa *qaDraft
}

// renderLesson draws the whole lesson page with the overrides of a post.
func (s *Server) renderLesson(w http.ResponseWriter, r *http.Request, lesson *lessons.Lesson, o lessonOverrides) error {
	v, err := s.lessonView(r, lesson, o, false)
	if err != nil {
		return err
	}
	if v.StyleNonce != "" {
		w.Header().Set("Content-Security-Policy", stylePolicy(r.Context(), v.StyleNonce))
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
	if s.assets.Has("qa.js") {
		v.Scripts = append(v.Scripts, s.assets.URL("qa.js"))
	}
	attempt := 0
	if !skeleton {
		attempt = quizAttempt(a, sum, lesson)
	}
	v.CompletedMeans = progress.CompletedMeans
	v.TOC = s.lessonMap(lesson)
	if !skeleton {
		v.TOC = learnerMap(v.TOC, lesson, sum)
	}
	for i, seg := range lesson.Segments {
		if i == lesson.TakeawaysAt && lesson.Takeaways != "" {
			v.Body = append(v.Body, BodyPart{Takeaways: lesson.Takeaways})
		}
		w := seg.Widget
		switch {
		case w == nil:
			v.Body = append(v.Body, BodyPart{HTML: seg.HTML})
		case skeleton:
			v.Body = append(v.Body, BodyPart{HTML: template.HTML(hole(holePart + w.ID))})
		case w.Exercise != nil && o.exercise != nil && o.exercise.ID == w.ID:
			v.Body = append(v.Body, BodyPart{Exercise: o.exercise})
		case w.Exercise != nil:
			v.Body = append(v.Body, BodyPart{Exercise: s.learnerExerciseView(lesson, w.Exercise, sum)})
		case o.widget != nil && o.widget.ID == w.ID:
			v.Body = append(v.Body, BodyPart{Widget: o.widget})
		default:
			// The time-zone field is left empty; the page script fills it.
			var draw quiz.Draw
			if q, ok := w.Value.(*quiz.Quiz); ok {
				draw = progress.QuizDraw(a, q, attempt)
			}
			wv := learnerWidgetView(lesson, w, sum, draw, attempt)
			if err := s.withQuizWait(r, lesson, w, sum, wv); err != nil {
				return v, err
			}
			v.Body = append(v.Body, BodyPart{Widget: wv})
		}
	}
	if lesson.TakeawaysAt >= len(lesson.Segments) && lesson.Takeaways != "" {
		v.Body = append(v.Body, BodyPart{Takeaways: lesson.Takeaways})
	}
	if skeleton {
		v.QA = QAView{Hole: true}
	} else {
		var d qaDraft
		if o.qa != nil {
			d = *o.qa
		}
		qa, err := s.qaView(r, lesson, d)
		if err != nil {
			return v, err
		}
		v.QA = qa
	}
	v.Sources = lesson.Sources
	if !skeleton {
		v.Finished = s.finished(lesson, sum)
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

// finished is the box that ends the lesson once the learner completed it
// (see progress.Summary.LessonStatus), nil before.
func (s *Server) finished(lesson *lessons.Lesson, sum progress.Summary) *FinishedView {
	if sum.LessonStatus(lesson).State != progress.Completed {
		return nil
	}
	f := &FinishedView{}
	if _, next := s.course().Neighbours(lesson.Slug); next != nil {
		f.Next = &LessonLink{Title: next.Title, Slug: next.Slug}
	}
	return f
}
