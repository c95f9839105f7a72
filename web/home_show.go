package web

import (
	"net/http"

	"learn/progress"
)

// homeShow renders the course home: every lesson in order with this
// learner's state.
func (s *Server) homeShow(w http.ResponseWriter, r *http.Request) error {
	// The summary identify read holds every part's state (cached, so the
	// home page costs no query most of the time).
	sum := summaryFrom(r.Context())
	info := s.course().Info
	v := HomeView{Page: s.page(r, "Course", "course"), Heading: info.Title, Tagline: info.Tagline, Introduction: info.IntroductionHTML,
		CompletedMeans: progress.CompletedMeans}
	v.Description = info.Tagline
	for i, lesson := range s.course().Lessons {
		st := sum.LessonStatus(lesson)
		v.Lessons = append(v.Lessons, LessonCard{
			Number: i + 1, Title: lesson.Title, Slug: lesson.Slug, Summary: lesson.Summary,
			Minutes: lesson.Minutes, XP: lesson.EarnableXP(), State: st.State, Done: st.Done, Parts: st.Parts,
		})
	}
	mine, err := s.app.MyClasses(r.Context(), progress.ActorFrom(r.Context()))
	if err != nil {
		return err
	}
	for _, c := range myClassViews(mine) {
		v.Assigned = append(v.Assigned, c.Assignments...)
	}
	return render(w, r, homePage(v))
}
