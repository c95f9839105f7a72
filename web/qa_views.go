package web

import (
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"time"

	"learn/lessons"
	"learn/progress"
)

// QAView is a lesson's questions section: the author's FAQ first, then
// the threads the learner may see, and the form to ask.
type QAView struct {
	// Hole draws the section's skeleton marker instead (skeleton.go).
	Hole bool
	Slug string
	FAQ  []FAQView
	// Threads are the questions the learner sees, in the core's order.
	Threads []ThreadView
	// Scopes are where the learner may ask; ShowScopes when there is a
	// choice (a learner in two classes, a teacher of several).
	Scopes     []progress.Scope
	ShowScopes bool
	// NeedName is true for a learner in no class who has not chosen the
	// name others see; the section then shows the name form.
	NeedName bool
	// Parts are the options of "About which part".
	Parts []PartOption
	// Problem is the message of a refused post, shown above the forms;
	// Draft the refused text, put back into its form (DraftFor names it:
	// "ask", "answer-<id>" or "edit-<id>").
	Problem, Draft, DraftFor string
}

// FAQView is one entry of the author's FAQ.
type FAQView struct {
	Question string
	Answer   template.HTML
}

// PartOption is one choice of the part a question is about.
type PartOption struct {
	Key, Title string
	Selected   bool
}

// ThreadView is a question with its answers.
type ThreadView struct {
	ID       int64
	Anchor   string
	Question PostView
	Answers  []PostView
	Scope    string
	// PartTitle and PartHref link the question to the part it is about.
	PartTitle, PartHref string
	CanAnswer           bool
	// AnswerDraft is refused answer text to put back.
	AnswerDraft string
}

// PostView is one post as the learner sees it.
type PostView struct {
	progress.PostView
	HTML      template.HTML
	When      string
	WhenISO   string
	EditDraft string
}

// partHref is where on the lesson page a part stands (see the widget and
// exercise templates for their ids).
func partHref(p lessons.Part) string {
	switch p.Kind {
	case "widget":
		return "#w-" + p.ID
	case "exercise":
		return "#x-" + p.ID
	default:
		return "#" + p.ID
	}
}

// threadAnchor is the page fragment of a thread.
func threadAnchor(id int64) string { return "q-" + strconv.FormatInt(id, 10) }

// postTime formats a post's time for the page, in UTC.
func postTime(t time.Time) string { return t.UTC().Format("2 Jan 2006, 15:04 UTC") }

// qaDraft is a refused post to show again with its message.
type qaDraft struct {
	problem, text, form string
}

// partChoices are the parts a question may be about, each title once: a
// heading named like an interactive part ("Lesson quiz" above the quiz)
// gives way to that part.
func partChoices(parts []lessons.Part) []lessons.Part {
	widgets := map[string]bool{}
	for _, p := range parts {
		if p.Kind != "heading" {
			widgets[strings.ToLower(p.Title)] = true
		}
	}
	var out []lessons.Part
	for _, p := range parts {
		if p.Kind == "heading" && widgets[strings.ToLower(p.Title)] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// qaView builds the questions section of a lesson for the request's
// learner. about preselects the part of the ask form.
func (s *Server) qaView(r *http.Request, lesson *lessons.Lesson, d qaDraft) (QAView, error) {
	a := progress.ActorFrom(r.Context())
	v := QAView{Slug: lesson.Slug, Problem: d.problem, Draft: d.text, DraftFor: d.form}
	for _, f := range lesson.FAQ {
		v.FAQ = append(v.FAQ, FAQView{Question: f.Question, Answer: f.Answer})
	}
	qa, err := s.app.LessonQuestions(r.Context(), a, lesson.Slug)
	if err != nil {
		return v, err
	}
	v.Scopes = qa.Scopes
	v.ShowScopes = len(qa.Scopes) > 1
	for _, sc := range qa.Scopes {
		if sc.ClassID == 0 && sc.AuthorName == "" {
			v.NeedName = true
		}
	}
	about := r.URL.Query().Get("about")
	for _, p := range partChoices(qa.Parts) {
		v.Parts = append(v.Parts, PartOption{Key: p.Key(), Title: p.Title, Selected: p.Key() == about})
	}
	for _, t := range qa.Threads {
		tv := ThreadView{ID: t.Question.ID, Anchor: threadAnchor(t.Question.ID), Question: postView(t.Question, d),
			CanAnswer: !t.Question.Hidden() && !t.Question.Deleted() && t.Scope.AuthorName != ""}
		if v.ShowScopes {
			tv.Scope = t.Scope.Name
		}
		if t.Question.Part.ID != "" {
			tv.PartTitle, tv.PartHref = t.Question.Part.Title, partHref(t.Question.Part)
		}
		if d.form == fmt.Sprintf("answer-%d", t.Question.ID) {
			tv.AnswerDraft = d.text
		}
		for _, p := range t.Answers {
			tv.Answers = append(tv.Answers, postView(p, d))
		}
		v.Threads = append(v.Threads, tv)
	}
	return v, nil
}

func postView(p progress.PostView, d qaDraft) PostView {
	v := PostView{PostView: p, HTML: template.HTML(p.HTML), When: postTime(p.CreatedAt), WhenISO: p.CreatedAt.UTC().Format(time.RFC3339)}
	v.EditDraft = p.Body
	if d.form == fmt.Sprintf("edit-%d", p.ID) {
		v.EditDraft = d.text
	}
	return v
}

// NoticesView is the page of a learner's notices.
type NoticesView struct {
	Page
	Notices []NoticeView
}

// NoticeView is one notice.
type NoticeView struct {
	ID     int64
	Text   string
	Lesson string
	When   string
	Unread bool
}
