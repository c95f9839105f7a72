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
	v := HomeView{Page: s.page(r, "Course", "course")}
	v.Description = "A hands-on course on MCP tool errors and tool annotations."
	for i, lesson := range s.course().Lessons {
		state := LessonState(states[lesson.Slug])
		if state == "" {
			state = NotStarted
		}
		v.Lessons = append(v.Lessons, LessonCard{
			Number: i + 1, Title: lesson.Title, Slug: lesson.Slug, Summary: lesson.Summary,
			Minutes: lesson.Minutes, XP: lesson.XP, State: state,
		})
	}
	return render(w, r, homePage(v))
}
