package web

import "html/template"

// Page is what the layout needs for every page: the title, asset URLs and
// the learner's standing for the header.
type Page struct {
	Title       string
	Description string
	// Nav names the current section ("course", "progress") for aria-current.
	Nav        string
	Stylesheet []string
	Scripts    []string
	Icon       string
	Learner    LearnerBadge
}

// LearnerBadge is the learner's standing shown in the header.
type LearnerBadge struct {
	XP int
}

// LessonState is where a learner stands with one lesson.
type LessonState string

// Lesson states shown on the course home.
const (
	NotStarted LessonState = "not started"
	Opened     LessonState = "opened"
	Completed  LessonState = "completed"
)

// Class returns the CSS class of the state badge.
func (s LessonState) Class() string {
	switch s {
	case Opened:
		return "state state-opened"
	case Completed:
		return "state state-completed"
	}
	return "state"
}

// HomeView is the course home page.
type HomeView struct {
	Page
	Lessons []LessonCard
}

// LessonCard is one lesson on the course home.
type LessonCard struct {
	Number  int
	Title   string
	Slug    string
	Summary string
	Minutes int
	XP      int
	State   LessonState
}

// LessonView is the lesson page.
type LessonView struct {
	Page
	Title      string
	Slug       string
	Number     int
	Minutes    int
	XP         int
	Objectives []string
	Body       []BodyPart
	Takeaways  template.HTML
	Prev, Next *LessonLink
}

// BodyPart is one piece of a lesson body, rendered HTML or a widget.
type BodyPart struct {
	HTML template.HTML
}

// LessonLink points to a neighbouring lesson.
type LessonLink struct {
	Title string
	Slug  string
}

// ErrorView is the page shown for 4xx and 5xx answers.
type ErrorView struct {
	Page
	Status  int
	Heading string
	Message string
}
