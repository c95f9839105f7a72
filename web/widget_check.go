package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
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
}

// widgetCheck grades a posted widget through the core and answers with the
// lesson page (a plain form post) or JSON (the in-place script).
func (s *Server) widgetCheck(w http.ResponseWriter, r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "The form could not be read. Reload the page and try again.", Err: err}
	}
	attempt, _ := strconv.Atoi(r.PostForm.Get("attempt"))
	out, err := s.app.CheckWidget(r.Context(), progress.ActorFrom(r.Context()), progress.WidgetPost{
		LessonSlug: r.PathValue("slug"), WidgetID: r.PathValue("id"), Answers: progress.Answers(r.PostForm),
		Attempt: attempt, TimeZone: r.PostForm.Get("tz"),
	})
	status := http.StatusOK
	var view *WidgetView
	var pe *progress.Error
	switch {
	case errors.As(err, &pe) && pe.Kind == progress.Invalid:
		// An incomplete post: the form again, as it was, with the message.
		status, view = http.StatusUnprocessableEntity, refusedView(out, r.PostForm.Get("tz"), pe.Message)
	case err != nil:
		return err
	default:
		r = withSummary(r, out.Summary)
		view = checkedView(out, r.PostForm.Get("tz"))
	}
	if wantsJSON(r) {
		var buf bytes.Buffer
		if err := widget(view).Render(r.Context(), &buf); err != nil {
			return fmt.Errorf("web: render widget %s: %w", view.ID, err)
		}
		w.Header().Set("Cache-Control", "no-store")
		return writeJSON(w, status, checkResponse{
			HTML: buf.String(), Passed: view.Passed, Outcome: view.Outcome, Awarded: out.Awarded, Learner: badgeFrom(r.Context()),
		})
	}
	if view.Refused {
		// A refused post is not a result: the lesson again, the form as it
		// was left, with the message.
		return s.renderLesson(w, r, out.Lesson, lessonOverrides{widget: view, status: status})
	}
	// A plain post: show the result once on the lesson page, at the result.
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
