package web

import (
	"fmt"
	"html/template"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

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
	// StyleNonce, when set, is the nonce the page's policy admits <style>
	// elements by (pages with the code editor).
	StyleNonce string
	// Skeleton draws the learner's parts as holes, for a page skeleton
	// that is drawn once and filled in per request.
	Skeleton bool
	Learner  LearnerBadge
	// TeacherView, on a teacher's class pages, shows in the header who is
	// signed in instead of the browser's own learner XP, level and streak.
	TeacherView string
	// Course names the course in the header, the title and the footer.
	Course CourseLine
	// DevEvents, when set, is the URL of the development event stream:
	// the page script reloads the page when the course changes and shows
	// the course's problems over it (learn serve --dev).
	DevEvents string
	// Refresh, when positive, reloads the page every so many seconds for
	// browsers without JavaScript (the dashboard).
	Refresh int
}

// CourseLine is what every page says of the course: from course.yaml.
type CourseLine struct {
	Title string
	// Brand is the header's short name; "" shows Title there.
	Brand    string
	Authors  string // joined with commas; "" when none
	Licence  string
	Language string
}

// LearnerBadge is the learner's standing shown in the header.
type LearnerBadge struct {
	XP          int  `json:"xp"`
	Level       int  `json:"level"`
	StreakDays  int  `json:"streakDays"`
	ActiveToday bool `json:"activeToday"`
	ReviewsDue  int  `json:"reviewsDue"`
	// Notices counts unread answers and acceptances (the header badge).
	Notices int `json:"notices"`
	// Continue is where the learner picks up the course; nil for a new
	// visitor.
	Continue *ContinueLink `json:"continue,omitempty"`
}

// ContinueLink is "Continue: LESSON — PART", the first unfinished part of
// the lesson the learner last worked in (see progress.Summary.Resume), or,
// once every part is done, the way to review.
type ContinueLink struct {
	// Lesson and Part name where to go; Part is "" when everything is done.
	Lesson string `json:"lesson"`
	Part   string `json:"part"`
	// Label is the whole text of the link.
	Label string `json:"label"`
	Href  string `json:"href"`
	Done  bool   `json:"done"`
}

// stateClass returns the CSS class of a lesson state's badge.
func stateClass(st progress.LessonState) string {
	switch st {
	case progress.Opened:
		return "state state-opened"
	case progress.InProgress:
		return "state state-progress"
	case progress.Completed:
		return "state state-completed"
	}
	return "state"
}

// HomeView is the course home page.
type HomeView struct {
	Page
	// Heading, Tagline and Introduction come from course.yaml.
	Heading      string
	Tagline      string
	Introduction template.HTML
	Lessons      []LessonCard
	// CompletedMeans says when a lesson is completed.
	CompletedMeans string
	// Assigned are the lessons the learner's classes ask of them.
	Assigned []AssignedView
}

// LessonCard is one lesson on the course home.
type LessonCard struct {
	Number  int
	Title   string
	Slug    string
	Summary string
	Minutes int
	XP      int
	State   progress.LessonState
	// Done of Parts are finished, for "in progress".
	Done, Parts int
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
	Prev, Next *LessonLink
	// TOC maps the lesson: its sections and interactive parts with the
	// learner's state; CompletedMeans says when the lesson is completed.
	TOC            []TOCEntry
	CompletedMeans string
	// QA is the questions section (qa_views.go).
	QA QAView
	// Sources are the documents the lesson teaches from, listed at its end.
	Sources []lessons.Source
	// Finished, when the learner has completed the lesson, is the box
	// that leads to the next lesson; nil before (and in a skeleton, where
	// it is a hole).
	Finished *FinishedView
}

// FinishedView is the box at the end of a completed lesson: "Next lesson:
// TITLE", or at the end of the course, the way to the progress page.
type FinishedView struct {
	Next *LessonLink
}

// TOCEntry is one line of a lesson's table of contents.
type TOCEntry struct {
	Title, Anchor string
	// Kind is "section", or for an interactive part "try", "quiz" or
	// "exercise".
	Kind string
	// Done marks a finished part (see progress.Summary.PartDone).
	Done bool
}

// PartStatus is what a revisited lesson says about one of its parts: the
// learner's last result and when, and whether the part is done.
type PartStatus struct {
	Done bool
	Text string
	// NewTry marks a quiz not passed yet, whose next try asks new
	// versions of the questions (said unless the learner must wait).
	NewTry bool
}

// BodyPart is one piece of a lesson body: rendered HTML, a widget, an
// exercise, or the key takeaways box, where the author put it.
type BodyPart struct {
	HTML      template.HTML
	Takeaways template.HTML
	Widget    *WidgetView
	Exercise  *ExerciseView
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

// WidgetView is one interactive block on a lesson page: its questions,
// the learner's last answers and, after a check, the feedback. Exactly one
// of Classify, Annotate and Quiz is set.
type WidgetView struct {
	Kind   string
	ID     string
	Action string // where the form posts
	// TimeZone pre-fills the hidden time-zone field (the script refines it).
	TimeZone string

	Classify         *quiz.ClassifyView
	ClassifyFeedback *quiz.ClassifyFeedback
	Annotate         *quiz.AnnotateView
	AnnotateFeedback *quiz.AnnotateFeedback
	Quiz             *quiz.QuizView
	QuizResult       *quiz.QuizResult
	// Attempt is the quiz attempt the shown order belongs to.
	Attempt int
	// RetryURL is where a failed quiz's retry starts: the lesson page,
	// by an address of its own so that following it loads the next
	// attempt, at the quiz.
	RetryURL string
	// Wait, when set, is the wait before the next quiz attempt opens,
	// after failures in a row: the page says when and offers no submit.
	Wait *QuizWait

	// Answers are the learner's last answers by form field name, to keep
	// their choices checked.
	Answers map[string][]string
	// Outcome summarises the check for screen readers and sighted users.
	Outcome string
	// Passed is true when the check was all correct (or the quiz passed).
	Passed bool
	// Checked is true once the learner has submitted.
	Checked bool
	// Refused is true when the post was refused (incomplete): Outcome says
	// why and there is no feedback.
	Refused bool
	// LessonURL is where a retry starts: the lesson page at this widget.
	LessonURL string
	// Status is the learner's last result, on a revisit; nil before any.
	Status *PartStatus
	// Folded puts a passed quiz's form behind "take it again".
	Folded bool
}

// QuizWait is the wait before a learner's next quiz attempt, as the page
// says it.
type QuizWait struct {
	// Text says why and when, in the learner's zone and in minutes.
	Text string
	// Label is the disabled retry button's: "Try again at 15:04 CET".
	Label string
	// OpensAt is the time in RFC 3339, for the page script to offer the
	// attempt then.
	OpensAt string
}

// Chosen reports whether value was the learner's answer for field.
func (v *WidgetView) Chosen(field, value string) bool {
	for _, a := range v.Answers[field] {
		if a == value {
			return true
		}
	}
	return false
}

// RadioChecked reports whether the radio with this value should be checked:
// the learner's answer once there is one, else the default (isDefault).
func (v *WidgetView) RadioChecked(field, value string, isDefault bool) bool {
	if given := v.Answers[field]; len(given) > 0 {
		return given[0] == value
	}
	return isDefault
}

// PartsText says how far into a lesson's parts the learner is:
// "2 of 5 parts done".
func PartsText(done, parts int) string {
	return fmt.Sprintf("%d of %s done", done, Plural(parts, "part", "parts"))
}

// LTIRefusedView is the page of a refused LTI login or launch: the check
// that failed, what was wrong and what to change, and learn's addresses
// ("" when learn has no public URL).
type LTIRefusedView struct {
	Page
	Check, Problem, Fix string
	Login, Launch, JWKS string
}

// LTIStorageView is a page that talks to the platform's client-side
// storage (LTI Client Side postMessages) for a launch in a frame that
// keeps no cookie: Target names the platform's frame to ask, Origin is
// the platform's (the messages' target and the answers' origin), Key the
// storage key. The login's page puts Value and goes on to Next (the
// authorisation), or offers NewTab; the launch's page gets the value and
// posts it with IDToken and State to Next.
type LTIStorageView struct {
	Page
	Target, Origin, Key, Value, Next, NewTab string
	IDToken, State                           string
}

// LTINewTabView offers to repeat a framed login initiation in a new tab,
// where cookies work.
type LTINewTabView struct {
	Page
	NewTab string
}

// LTIContinueView is the button that continues a framed launch, signed
// in, in a new tab: a post of the sealed, single-use Code to Action.
type LTIContinueView struct {
	Page
	Action, Code string
}

// DeepLinkView is the deep linking picker: the course's lessons to add to
// an LMS course, and the whole course. Multiple is set when the LMS takes
// several links (checkboxes), else one is chosen (radio buttons).
type DeepLinkView struct {
	Page
	// Action is where the form posts; Request the id of the LMS's
	// request the picker answers.
	Action, Request string
	Multiple        bool
	CourseTitle     string
	WholeCourse     DeepLinkChoice
	Lessons         []DeepLinkChoice
	// Problem says why the last post was not taken ("" for none).
	Problem string
	// Frame, for a picker in a frame that keeps no cookie, carries its
	// sealed request and where its script gets the browser's proof; nil
	// for a picker whose request waits in its cookie.
	Frame *DeepLinkFrame
}

// DeepLinkFrame is what a picker in a cookieless frame posts besides the
// choices: Sealed, the request sealed and bound to a browser value that
// the platform's client-side storage keeps under Key, which the page
// script asks for (from the frame Target, at the platform's Origin).
type DeepLinkFrame struct {
	Sealed, Target, Origin, Key string
}

// DeepLinkChoice is one choice of the picker: its form value and its
// label (a lesson's title and the XP that is its gradebook column's
// maximum).
type DeepLinkChoice struct {
	Value, Label string
	Checked      bool
}

// DeepLinkReturnView is the page that posts a deep linking response to
// the LMS: the LMS's return address, the signed response and how many
// links it holds.
type DeepLinkReturnView struct {
	Page
	Action, JWT string
	Count       int
}
