package web

import (
	"fmt"
	"net/http"
	"net/url"
	"unicode/utf8"

	"learn/progress"
)

// ClassQAView is the dashboard's list of questions that wait for an
// answer and of posts learners reported, newest first.
type ClassQAView struct {
	Unanswered []ClassPostView
	Reported   []ClassPostView
}

// ClassPostView is one listed post with a link to its thread.
type ClassPostView struct {
	Author, Lesson, When, Excerpt, URL string
	// Reports and Reason describe a reported post.
	Reports int
	Reason  string
	Hidden  bool
}

// excerptLen is how much of a post the dashboard shows.
const excerptLen = 120

func excerpt(s string) string {
	if utf8.RuneCountInString(s) <= excerptLen {
		return s
	}
	r := []rune(s)
	return string(r[:excerptLen]) + "…"
}

// classQuestions reads the class's Q&A lists for the dashboard.
func (s *Server) classQuestions(r *http.Request, classID int64) (ClassQAView, error) {
	qa, err := s.app.ClassQuestions(r.Context(), progress.ActorFrom(r.Context()), classID)
	if err != nil {
		return ClassQAView{}, err
	}
	return s.qaLists(qa), nil
}

// ModerationView is the operators' page: the public threads' questions
// without an answer and reported posts.
type ModerationView struct {
	Page
	Questions ClassQAView
}

// moderationShow serves the public threads' moderation list to admins.
func (s *Server) moderationShow(w http.ResponseWriter, r *http.Request) error {
	qa, err := s.app.PublicQuestions(r.Context(), progress.ActorFrom(r.Context()))
	if err != nil {
		return err
	}
	return render(w, r, moderationPage(ModerationView{Page: s.page(r, "Public threads", "classes"), Questions: s.qaLists(qa)}))
}

// qaLists builds the listed posts of a class's (or the public) threads.
func (s *Server) qaLists(qa progress.ClassQA) ClassQAView {
	view := func(p progress.Post, when string) ClassPostView {
		title := p.LessonSlug
		if l, ok := s.course().Lesson(p.LessonSlug); ok {
			title = l.Title
		}
		q := p.ID
		if !p.IsQuestion() {
			q = p.QuestionID
		}
		return ClassPostView{Author: p.AuthorName, Lesson: title, When: when, Excerpt: excerpt(p.Body), Hidden: p.Hidden(),
			URL: fmt.Sprintf("/lessons/%s#%s", url.PathEscape(p.LessonSlug), threadAnchor(q)), Reports: p.Reports, Reason: p.ReportReason}
	}
	var v ClassQAView
	for _, p := range qa.Unanswered {
		v.Unanswered = append(v.Unanswered, view(p, postTime(p.CreatedAt)))
	}
	for _, p := range qa.Reported {
		v.Reported = append(v.Reported, view(p, postTime(p.ReportedAt)))
	}
	return v
}
