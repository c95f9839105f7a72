package web

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"learn/progress"
)

// LMSRosterView is a class's roster as its LMS lists it (Names and Role
// Provisioning), for the dashboard: who is in the LMS course and who of
// them has started in learn.
type LMSRosterView struct {
	// Source says when the roster was last read from the LMS; Problem
	// what went wrong the last time learn tried ("" when it worked).
	Source, Problem string
	// Learners and Instructors are the members, learners first by name.
	Learners, Instructors []LMSMemberView
	// Started counts the learners who launched learn.
	Started int
}

// LMSMemberView is one member of the LMS course.
type LMSMemberView struct {
	Name string
	// State is "started", "not started", or with "(inactive in the
	// LMS)" for a member the LMS marks inactive.
	State string
	// Started is set once they launched learn from the course.
	Started bool
}

// lmsRosterView turns the core's roster from the LMS into the section's
// view; nil for a class without one.
func lmsRosterView(r *progress.ClassRoster, zone *time.Location, now time.Time) *LMSRosterView {
	if r == nil {
		return nil
	}
	v := &LMSRosterView{Source: "Not read from the LMS yet.", Problem: r.Problem}
	if !r.FetchedAt.IsZero() {
		v.Source = fmt.Sprintf("Read from the LMS %s (%s).", ago(now.Sub(r.FetchedAt)), r.FetchedAt.In(zone).Format("2 Jan 15:04"))
	}
	if r.Problem != "" {
		v.Problem = fmt.Sprintf("The last update, %s, failed: %s", ago(now.Sub(r.TriedAt)), r.Problem)
	}
	for _, m := range r.Members {
		mv := LMSMemberView{Name: m.Name, Started: m.Started, State: "not started"}
		if mv.Name == "" {
			mv.Name = "(no name shared by the LMS)"
		}
		if m.Started {
			mv.State = "started"
		}
		if !m.Active {
			mv.State += " (inactive in the LMS)"
		}
		switch {
		case m.Learner:
			v.Learners = append(v.Learners, mv)
			if m.Started {
				v.Started++
			}
		case m.Instructor:
			v.Instructors = append(v.Instructors, mv)
		}
	}
	byName := func(a, b LMSMemberView) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) }
	slices.SortStableFunc(v.Learners, byName)
	slices.SortStableFunc(v.Instructors, byName)
	return v
}

// classLMSRoster reads the class's roster from its LMS again, for one of
// its teachers ("Update the roster from the LMS").
func (s *Server) classLMSRoster(w http.ResponseWriter, r *http.Request) error {
	id, err := classID(r)
	if err != nil {
		return err
	}
	if err := s.app.UpdateLTIRoster(r.Context(), progress.ActorFrom(r.Context()), id); err != nil {
		return withForm(err, s.renderDashboard)
	}
	http.Redirect(w, r, classURL(id)+"?done=lms-roster#lms-roster", http.StatusSeeOther)
	return nil
}
