package web

import (
	"net/http"

	"learn/progress"
)

// homeShow renders the course home: every lesson in order with this
// learner's state.
func (s *Server) homeShow(w http.ResponseWriter, r *http.Request) error {
	states, err := s.app.LessonStates(r.Context(), progress.ActorFrom(r.Context()))
	if err != nil {
		return err
	}
	info := s.course().Info
	v := HomeView{Page: s.page(r, "Course", "course"), Heading: info.Title, Tagline: info.Tagline, Introduction: info.IntroductionHTML}
	v.Description = info.Tagline
	for i, lesson := range s.course().Lessons {
		state := LessonState(states[lesson.Slug])
		if state == "" {
			state = NotStarted
		}
		v.Lessons = append(v.Lessons, LessonCard{
			Number: i + 1, Title: lesson.Title, Slug: lesson.Slug, Summary: lesson.Summary,
			Minutes: lesson.Minutes, XP: lesson.EarnableXP(), State: state,
		})
	}
	return render(w, r, homePage(v))
}
