package web

import "net/http"

// homeShow renders the course home: every lesson in order with this
// learner's state.
func (s *Server) homeShow(w http.ResponseWriter, r *http.Request) error {
	course := s.course.Load()
	l := learnerFrom(r.Context())
	states := map[string]LessonState{}
	if l.Known {
		progress, err := s.store.ProgressByLesson(r.Context(), l.ID)
		if err != nil {
			return err
		}
		for slug, p := range progress {
			states[slug] = Opened
			if p.Completed() {
				states[slug] = Completed
			}
		}
	}
	v := HomeView{Page: s.page(r, "Course", "course")}
	v.Description = "A hands-on course on MCP tool errors and tool annotations."
	for i, lesson := range course.Lessons {
		state := states[lesson.Slug]
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
