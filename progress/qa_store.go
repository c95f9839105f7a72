package progress

import (
	"context"
	"time"
)

// QAStore is the part of Store that keeps questions and answers under
// lessons, helpful marks, reports, notices and the display names of
// learners in no class. Errors follow Store's rules.
type QAStore interface {
	// CreatePost saves a question (QuestionID 0) or an answer and returns
	// it with its ID. When n is non-nil it is saved in the same
	// transaction, with PostID set to the new post. The author must exist.
	CreatePost(ctx context.Context, p Post, n *Notice) (Post, error)
	// FindPost returns the post with its helpful and open report counts,
	// or ErrNotFound.
	FindPost(ctx context.Context, id int64) (Post, error)
	// EditPost replaces a post's markdown and HTML and sets EditedAt.
	// ErrNotFound for an unknown id.
	EditPost(ctx context.Context, id int64, body, html string, at time.Time) error
	// DeletePost marks the post deleted at at and clears its text; its
	// answers, marks and reports stay. ErrNotFound for an unknown id.
	DeletePost(ctx context.Context, id int64, at time.Time) error
	// SetAccepted makes answerID the question's accepted answer (0 for
	// none) and saves notices in the same transaction. ErrNotFound for an
	// unknown question.
	SetAccepted(ctx context.Context, questionID, answerID int64, notices []Notice) error
	// MarkHelpful records the learner's helpful mark on a post; added is
	// false when they had marked it already. The learner must exist.
	MarkHelpful(ctx context.Context, postID int64, learnerID string, at time.Time) (added bool, err error)
	// SetHidden hides a post (hiddenAt non-zero, with the reason its author
	// sees) or restores it (hiddenAt zero, reason cleared), and resolves
	// the post's open reports at resolvedAt. ErrNotFound for an unknown id.
	SetHidden(ctx context.Context, postID int64, hiddenAt time.Time, reason string, resolvedAt time.Time) error
	// ReportPost records the learner's report of a post; added is false
	// when they had an open report of it already.
	ReportPost(ctx context.Context, postID int64, learnerID, reason string, at time.Time) (added bool, err error)
	// LessonPosts returns every post (questions and answers, hidden and
	// deleted ones too) of the lesson in the scopes q names, oldest
	// first, with helpful counts and the viewer's own marks and reports.
	LessonPosts(ctx context.Context, q PostQuery) ([]Post, error)
	// UnansweredQuestions returns the class's questions (classID 0: the
	// public ones) that are neither hidden nor deleted and have no answer
	// that is neither, newest first, at most limit.
	UnansweredQuestions(ctx context.Context, classID int64, limit int) ([]Post, error)
	// ReportedPosts returns the class's posts (classID 0: public) with open
	// reports, latest report first, at most limit, each with Reports and
	// ReportReason (the latest note).
	ReportedPosts(ctx context.Context, classID int64, limit int) ([]Post, error)

	// Notices returns the learner's notices, newest first, at most limit,
	// each with the lesson of its question.
	Notices(ctx context.Context, learnerID string, limit int) ([]Notice, error)
	// UnreadNotices counts the learner's unread notices.
	UnreadNotices(ctx context.Context, learnerID string) (int, error)
	// ReadNotices marks the learner's unread notices of one question (0:
	// all of them) read at at and returns how many it marked.
	ReadNotices(ctx context.Context, learnerID string, questionID int64, at time.Time) (int, error)

	// SetPublicName records the display name a learner uses in public
	// threads (creating the learner if needed), replacing any earlier one.
	// A key another learner uses is ErrConflict.
	SetPublicName(ctx context.Context, learnerID, name, key string, now time.Time) error
	// PublicName returns the learner's public display name, or ErrNotFound.
	PublicName(ctx context.Context, learnerID string) (string, error)

	// PageGeneration returns the page generation: a count that moves, in
	// the writing transaction, with every write that can change what a
	// lesson page shows of others' doing (Q&A posts, helpful marks,
	// reports, public names, classes, members, assignments and
	// extensions), whichever server or path wrote it; 0 before the first.
	PageGeneration(ctx context.Context) (int64, error)
}

// Post is a question (QuestionID 0) or an answer under a lesson.
type Post struct {
	ID         int64
	LessonSlug string
	// ClassID is the class whose members see the thread; 0 for a public
	// thread, seen by learners in no class.
	ClassID int64
	// QuestionID is the question an answer belongs to; 0 for a question.
	QuestionID int64
	AuthorID   string
	AuthorName string
	// TeacherID is the teacher who wrote it, 0 for a learner's post.
	TeacherID int64
	// Part ties a question to a part of the lesson ("heading:ID",
	// "widget:ID" or "exercise:ID"); "" for the lesson as a whole.
	Part string
	// Body is the author's markdown; HTML its sanitised rendering.
	Body, HTML string
	// AcceptedID is a question's accepted answer, 0 for none.
	AcceptedID int64
	CreatedAt  time.Time
	EditedAt   time.Time
	// HiddenAt is when a moderator hid the post (zero while shown), and
	// HiddenReason what they told its author.
	HiddenAt     time.Time
	HiddenReason string
	DeletedAt    time.Time

	// Filled by reads: helpful marks, open reports (with the latest note,
	// for ReportedPosts), and the viewer's own mark and report
	// (LessonPosts).
	Helpful       int
	Reports       int
	ReportReason  string
	ReportedAt    time.Time
	MarkedHelpful bool
	Reported      bool
}

// IsQuestion reports whether p is a question.
func (p Post) IsQuestion() bool { return p.QuestionID == 0 }

// Hidden reports whether a moderator hid p.
func (p Post) Hidden() bool { return !p.HiddenAt.IsZero() }

// Deleted reports whether p's author deleted it.
func (p Post) Deleted() bool { return !p.DeletedAt.IsZero() }

// PostQuery selects a lesson's posts in some scopes, for one viewer.
type PostQuery struct {
	LessonSlug string
	// ClassIDs are the classes whose threads to include; Public includes
	// the public threads.
	ClassIDs []int64
	Public   bool
	// Viewer is the learner whose marks and reports are filled in.
	Viewer string
}

// Notice kinds.
const (
	// NoticeAnswer: someone answered the learner's question.
	NoticeAnswer = "answer"
	// NoticeAccepted: an answer to the learner's question, or the
	// learner's answer, was accepted.
	NoticeAccepted = "accepted"
)

// Notice tells a learner that something happened to their question or
// answer.
type Notice struct {
	ID         int64
	LearnerID  string
	Kind       string
	QuestionID int64
	PostID     int64
	// ActorName is who answered or accepted.
	ActorName string
	CreatedAt time.Time
	ReadAt    time.Time
	// LessonSlug is filled by Notices.
	LessonSlug string
}

// Read reports whether the learner has read n.
func (n Notice) Read() bool { return !n.ReadAt.IsZero() }
