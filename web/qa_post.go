package web

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"learn/lessons"
	"learn/progress"
)

// qaResponse is the JSON qa.js gets back: the section drawn afresh, the
// thread to show, and the header's notice count.
type qaResponse struct {
	HTML    string `json:"html"`
	Anchor  string `json:"anchor"`
	Notices int    `json:"notices"`
}

// postID reads the {id} of a Q&A route.
func postID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, notFoundError("There is no such question here.")
	}
	return id, nil
}

// qaDone answers a successful Q&A post: 303 back to the lesson at the
// thread, or, for qa.js, the section drawn afresh as JSON.
func (s *Server) qaDone(w http.ResponseWriter, r *http.Request, slug string, questionID int64) error {
	anchor := threadAnchor(questionID)
	if questionID == 0 {
		anchor = "qa"
	}
	if !wantsJSON(r) {
		http.Redirect(w, r, "/lessons/"+url.PathEscape(slug)+"#"+anchor, http.StatusSeeOther)
		return nil
	}
	lesson, ok := s.course().Lesson(slug)
	if !ok {
		return notFoundError("There is no such lesson.")
	}
	// The header figures may have changed (a notice read); read them again.
	a := progress.ActorFrom(r.Context())
	sum, err := s.app.Summary(r.Context(), a)
	if err != nil {
		return err
	}
	r = withSummary(r, sum)
	v, err := s.qaView(r, lesson, qaDraft{})
	if err != nil {
		return err
	}
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(buf)
	if err := qaSection(v).Render(r.Context(), buf); err != nil {
		return fmt.Errorf("web: render questions of %s: %w", slug, err)
	}
	return writeJSON(w, http.StatusOK, qaResponse{HTML: buf.String(), Anchor: anchor, Notices: sum.Notices})
}

// qaRefused answers a refused post: for a plain form, a failure the learner
// can fix (a blank or over-long post, a rate limit, no name yet) draws the
// lesson page again with the message above the forms and the text put
// back; for qa.js, and without a lesson to draw, the error answers as any
// other (JSON for qa.js).
func (s *Server) qaRefused(lesson *lessons.Lesson, err error, form, text string, json bool) error {
	if json || lesson == nil {
		return err
	}
	return withForm(err, func(w http.ResponseWriter, r *http.Request, status int, message string) error {
		return s.renderLesson(w, r, lesson, lessonOverrides{status: status, qa: &qaDraft{problem: message, text: text, form: form}})
	})
}

// postLesson returns the lesson a post belongs to, for answering with its
// page; nil when the post cannot be seen (the error page answers then).
func (s *Server) postLesson(r *http.Request, id int64) *lessons.Lesson {
	slug, err := s.app.PostLesson(r.Context(), progress.ActorFrom(r.Context()), id)
	if err != nil {
		return nil
	}
	l, _ := s.course().Lesson(slug)
	return l
}

// questionAsk posts a question under a lesson.
func (s *Server) questionAsk(w http.ResponseWriter, r *http.Request) error {
	slug := r.PathValue("slug")
	lesson, ok := s.course().Lesson(slug)
	if !ok {
		return notFoundError(fmt.Sprintf("There is no lesson called %q. The course home lists every lesson.", slug))
	}
	in := progress.PostInput{LessonSlug: slug, Part: r.PostFormValue("part"), Body: r.PostFormValue("body"), Address: clientAddress(r)}
	if c := r.PostFormValue("class"); c != "" {
		id, err := strconv.ParseInt(c, 10, 64)
		if err != nil {
			return &Error{Status: http.StatusBadRequest, Message: "Pick the class to ask in from the list."}
		}
		in.ClassID = id
	}
	p, err := s.app.Ask(r.Context(), progress.ActorFrom(r.Context()), in)
	if err != nil {
		return s.qaRefused(lesson, err, "ask", in.Body, wantsJSON(r))
	}
	return s.qaDone(w, r, slug, p.ID)
}

// questionAnswer posts an answer to a question.
func (s *Server) questionAnswer(w http.ResponseWriter, r *http.Request) error {
	id, err := postID(r)
	if err != nil {
		return err
	}
	body := r.PostFormValue("body")
	p, err := s.app.Answer(r.Context(), progress.ActorFrom(r.Context()), id, progress.PostInput{Body: body, Address: clientAddress(r)})
	if err != nil {
		return s.qaRefused(s.postLesson(r, id), err, fmt.Sprintf("answer-%d", id), body, wantsJSON(r))
	}
	return s.qaDone(w, r, p.LessonSlug, p.QuestionID)
}

// threadOf is the question a post belongs to.
func threadOf(p progress.Post) int64 {
	if p.IsQuestion() {
		return p.ID
	}
	return p.QuestionID
}

// postEdit replaces the text of one's own post.
func (s *Server) postEdit(w http.ResponseWriter, r *http.Request) error {
	id, err := postID(r)
	if err != nil {
		return err
	}
	body := r.PostFormValue("body")
	p, err := s.app.EditPost(r.Context(), progress.ActorFrom(r.Context()), id, body, clientAddress(r))
	if err != nil {
		return s.qaRefused(s.postLesson(r, id), err, fmt.Sprintf("edit-%d", id), body, wantsJSON(r))
	}
	return s.qaDone(w, r, p.LessonSlug, threadOf(p))
}

// postAction adapts a one-step action on a post (accept, helpful, delete,
// report, hide, restore) to a handler.
func (s *Server) postAction(act func(r *http.Request, a progress.Actor, id int64) (progress.Post, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := postID(r)
		if err != nil {
			return err
		}
		p, err := act(r, progress.ActorFrom(r.Context()), id)
		if err != nil {
			return s.qaRefused(s.postLesson(r, id), err, "", "", wantsJSON(r))
		}
		return s.qaDone(w, r, p.LessonSlug, threadOf(p))
	}
}

func (s *Server) postAccept(r *http.Request, a progress.Actor, id int64) (progress.Post, error) {
	return s.app.Accept(r.Context(), a, id)
}

func (s *Server) postHelpful(r *http.Request, a progress.Actor, id int64) (progress.Post, error) {
	return s.app.MarkHelpful(r.Context(), a, id)
}

func (s *Server) postDelete(r *http.Request, a progress.Actor, id int64) (progress.Post, error) {
	return s.app.DeletePost(r.Context(), a, id)
}

func (s *Server) postReport(r *http.Request, a progress.Actor, id int64) (progress.Post, error) {
	return s.app.Report(r.Context(), a, id, r.PostFormValue("reason"))
}

func (s *Server) postHide(r *http.Request, a progress.Actor, id int64) (progress.Post, error) {
	return s.app.Moderate(r.Context(), a, id, true, r.PostFormValue("reason"))
}

func (s *Server) postRestore(r *http.Request, a progress.Actor, id int64) (progress.Post, error) {
	return s.app.Moderate(r.Context(), a, id, false, "")
}

// qaName sets the name a learner in no class posts under.
func (s *Server) qaName(w http.ResponseWriter, r *http.Request) error {
	slug := r.PostFormValue("lesson")
	lesson, ok := s.course().Lesson(slug)
	name := r.PostFormValue("name")
	if _, err := s.app.ChoosePublicName(r.Context(), progress.ActorFrom(r.Context()), name); err != nil {
		if !ok {
			return err
		}
		return s.qaRefused(lesson, err, "name", name, wantsJSON(r))
	}
	if !ok {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return nil
	}
	http.Redirect(w, r, "/lessons/"+url.PathEscape(slug)+"#qa-ask-title", http.StatusSeeOther)
	return nil
}

// noticesShow lists the learner's notices.
func (s *Server) noticesShow(w http.ResponseWriter, r *http.Request) error {
	a := progress.ActorFrom(r.Context())
	ns, err := s.app.Notices(r.Context(), a)
	if err != nil {
		return err
	}
	v := NoticesView{Page: s.page(r, "Answers to your questions", "")}
	for _, n := range ns {
		title := n.LessonSlug
		if l, ok := s.course().Lesson(n.LessonSlug); ok {
			title = l.Title
		}
		text := n.ActorName + " answered your question"
		if n.Kind == progress.NoticeAccepted {
			text = n.ActorName + " accepted an answer in your thread"
		}
		v.Notices = append(v.Notices, NoticeView{ID: n.ID, Text: text, Lesson: title, When: postTime(n.CreatedAt), Unread: !n.Read()})
	}
	return render(w, r, noticesPage(v))
}

// noticeOpen marks a notice read and goes to its thread. Reading is a
// harmless change, so a plain link may make it.
func (s *Server) noticeOpen(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return notFoundError("There is no such notice.")
	}
	n, err := s.app.OpenNotice(r.Context(), progress.ActorFrom(r.Context()), id)
	if err != nil {
		return err
	}
	http.Redirect(w, r, "/lessons/"+url.PathEscape(n.LessonSlug)+"#"+threadAnchor(n.QuestionID), http.StatusSeeOther)
	return nil
}

// noticesRead marks every notice read.
func (s *Server) noticesRead(w http.ResponseWriter, r *http.Request) error {
	if err := s.app.ReadNotices(r.Context(), progress.ActorFrom(r.Context()), 0); err != nil {
		return err
	}
	http.Redirect(w, r, "/notices", http.StatusSeeOther)
	return nil
}
