package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"learn/quiz"
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

// widgetCheck grades a posted widget, stores the attempt with its award and
// review items in one transaction, and answers with the lesson page (a
// plain form post) or JSON (the in-place script).
func (s *Server) widgetCheck(w http.ResponseWriter, r *http.Request) error {
	course := s.course.Load()
	lesson, ok := course.Lesson(r.PathValue("slug"))
	if !ok {
		return notFoundError("There is no such lesson. The course home lists every lesson.")
	}
	block, ok := lesson.Widget(r.PathValue("id"))
	if !ok {
		return notFoundError("This lesson has no such exercise. Reload the lesson to get its current version.")
	}
	if err := r.ParseForm(); err != nil {
		return &Error{Status: http.StatusBadRequest, Message: "The form could not be read. Reload the page and try again.", Err: err}
	}
	l := learnerFrom(r.Context())
	now := s.now()
	res, err := gradeWidget(lesson, block, r.PostForm, l.ID, now)
	if err != nil {
		return err
	}
	if err := s.rememberZone(r, l, r.PostForm.Get("tz")); err != nil {
		return err
	}
	granted, err := s.store.RecordAttempt(r.Context(), res.attempt, res.effects)
	if err != nil {
		return err
	}
	r, badge, err := s.reloadLearner(r)
	if err != nil {
		return err
	}
	awarded := 0
	if granted {
		awarded = res.effects.Award.Amount
		res.view.Outcome += fmt.Sprintf(" +%d XP.", awarded)
	}
	if wantsJSON(r) {
		var buf bytes.Buffer
		if err := widget(res.view).Render(r.Context(), &buf); err != nil {
			return fmt.Errorf("web: render widget %s: %w", res.view.ID, err)
		}
		w.Header().Set("Cache-Control", "no-store")
		return writeJSON(w, http.StatusOK, checkResponse{
			HTML: buf.String(), Passed: res.view.Passed, Outcome: res.view.Outcome, Awarded: awarded, Learner: badge,
		})
	}
	// A plain post: redraw the whole lesson with this widget's feedback.
	return s.renderLesson(w, r, lesson, lessonOverrides{widget: res.view})
}

// rememberZone stores the browser's time zone when it is a real IANA name
// that differs from the one on record.
func (s *Server) rememberZone(r *http.Request, l learner, zone string) error {
	if zone == "" || zone == l.zone || len(zone) > 64 {
		return nil
	}
	if _, ok := quiz.Zone(zone); !ok {
		return nil
	}
	if _, err := s.store.EnsureLearner(r.Context(), l.ID, s.now()); err != nil {
		return err
	}
	return s.store.SetTimeZone(r.Context(), l.ID, zone)
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
