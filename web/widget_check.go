package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"learn/progress"
)

// checkResponse is the JSON the page script uses to show feedback in place.
type checkResponse struct {
	// HTML is the widget redrawn with its feedback.
	HTML    string `json:"html"`
	Passed  bool   `json:"passed"`
	Outcome string `json:"outcome"`
	// Awarded is the XP this check granted (0 when already earned).
	Awarded int `json:"awarded"`
	// Learner is the header's figures after the check.
	Learner LearnerBadge `json:"learner"`
	// Finished is the box that ends the lesson, drawn once the check
	// completed it ("Next lesson: TITLE"); "" before.
	Finished string `json:"finished,omitempty"`
}

// widgetCheck grades a posted widget through the core and answers with the
// lesson page (a plain form post) or JSON (the in-place script).
func (s *Server) widgetCheck(w http.ResponseWriter, r *http.Request) error {
	attempt, _ := strconv.Atoi(r.PostForm.Get("attempt"))
	tz := r.PostForm.Get("tz")
	slug, id := r.PathValue("slug"), r.PathValue("id")
	out, err := s.app.CheckWidget(r.Context(), progress.ActorFrom(r.Context()), progress.WidgetPost{
		LessonSlug: slug, WidgetID: id, Answers: widgetAnswers(s.widget(slug, id), r.PostForm),
		Attempt: attempt, TimeZone: tz,
	})
	if err != nil {
		if out.Lesson == nil {
			return err
		}
		// An incomplete post: the form again, as it was, with the message.
		return withForm(err, func(w http.ResponseWriter, r *http.Request, status int, message string) error {
			view := refusedView(out, tz, message)
			// A quiz post while the learner waits: the form says when the
			// next attempt opens, as the page does.
			if err := s.withQuizWait(r, out.Lesson, out.Widget, summaryFrom(r.Context()), view); err != nil {
				return err
			}
			return s.answerWidget(w, r, out, view, status)
		})
	}
	r = withSummary(r, out.Summary)
	return s.answerWidget(w, r, out, checkedView(out, tz), http.StatusOK)
}

// widgetShow answers a GET of a widget's form address, which a browser
// shows after a refused plain post (the page drawn at the address posted
// to) and asks again on reload: it sends the learner to the lesson at the
// widget.
func (s *Server) widgetShow(w http.ResponseWriter, r *http.Request) error {
	slug, id := r.PathValue("slug"), r.PathValue("id")
	lesson, ok := s.course().Lesson(slug)
	if !ok {
		return notFoundError(fmt.Sprintf("There is no lesson called %q. The course home lists every lesson.", slug))
	}
	target := "/lessons/" + url.PathEscape(lesson.Slug)
	if _, ok := lesson.Widget(id); ok {
		target += "#w-" + id
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
	return nil
}

// answerWidget answers a widget post with its redrawn view: JSON for the
// in-place script, else the lesson page (a refused post, the form as it
// was left, with the message) or the result shown once at the widget.
func (s *Server) answerWidget(w http.ResponseWriter, r *http.Request, out progress.WidgetOutcome, view *WidgetView, status int) error {
	if wantsJSON(r) {
		var buf bytes.Buffer
		if err := widget(view).Render(r.Context(), &buf); err != nil {
			return fmt.Errorf("web: render widget %s: %w", view.ID, err)
		}
		var finished bytes.Buffer
		if f := s.finished(out.Lesson, summaryFrom(r.Context())); f != nil {
			if err := finishedBox(f).Render(r.Context(), &finished); err != nil {
				return fmt.Errorf("web: render the end of %s: %w", out.Lesson.Slug, err)
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		return writeJSON(w, status, checkResponse{
			HTML: buf.String(), Passed: view.Passed, Outcome: view.Outcome, Awarded: out.Awarded, Learner: s.badgeFrom(r.Context()),
			Finished: finished.String(),
		})
	}
	if view.Refused {
		return s.renderLesson(w, r, out.Lesson, lessonOverrides{widget: view, status: status})
	}
	return s.keepResult(w, r, out.Lesson.Slug, view.ID, widget(view), "w-"+view.ID+"-result")
}

// wantsJSON reports whether the client asked for JSON rather than a page.
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

// writeJSON writes v as a JSON response.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("web: encode json: %w", err)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	if _, err := w.Write(body); err != nil {
		return fmt.Errorf("%w: %v", errClientGone, err)
	}
	return nil
}
