package progress

import (
	"context"
	"errors"
	"time"

	"learn/quiz"
)

// ErrNotFound is returned (wrapped) by a Store when a looked-up row does not
// exist. Use cases turn it into an *Error of kind NotFound where a user can
// act on it.
var ErrNotFound = errors.New("progress: not found")

// ErrConflict is returned (wrapped) by a Store when a write would break a
// uniqueness rule: a teacher's e-mail, a join code among active classes, a
// display name within a class.
var ErrConflict = errors.New("progress: conflict")

// Store is everything the use cases need to remember, cut by concern:
// each use case depends on the parts it uses, and every backend (package
// storage, on SQLite or PostgreSQL) implements them all and passes the
// conformance suite in progress/storetest unchanged. The rate limiter is
// part of the contract, so a decorator of Store that embeds it keeps it.
//
// Unless a method says otherwise, errors are wrapped with the backend's
// context; ErrNotFound and ErrConflict (matched with errors.Is) are the
// errors a caller is expected to handle. Methods are safe for concurrent
// use. Times are stored to the nanosecond and come back in UTC.
type Store interface {
	// Ping reports whether the backend answers.
	Ping(ctx context.Context) error

	// LearningStore keeps learners and what they do in lessons.
	LearningStore

	// ClassroomStore keeps teachers, sessions, classes and their members,
	// assignments, and reads a class's activity (classroom_store.go).
	ClassroomStore

	// QAStore keeps questions and answers under lessons (qa_store.go).
	QAStore

	// RateLimiter counts tries against rate limits in the database, shared
	// by every server that opens it (ratelimit.go).
	RateLimiter

	// StatsStore reads what every learner did, for the authors'
	// statistics (stats.go).
	StatsStore
}

// SecretStore keeps the server's secrets (cookie keys) in the database, so
// that every server sharing it signs and verifies alike, and a restart
// keeps them.
type SecretStore interface {
	// Secret returns the server secret stored under name, creating it with
	// n random bytes the first time.
	Secret(ctx context.Context, name string, n int) ([]byte, error)
	// RotateSecret replaces the secret stored under name with n fresh
	// random bytes and keeps the one it replaces as the previous secret,
	// retired at now, in one transaction.
	RotateSecret(ctx context.Context, name string, n int, now time.Time) error
	// PreviousSecret returns the secret RotateSecret last replaced under
	// name and when it was retired; ErrNotFound when name was never
	// rotated.
	PreviousSecret(ctx context.Context, name string) ([]byte, time.Time, error)
}

// LearningStore is the part of Store that keeps learners, their lesson
// progress, attempts, results to show, exercise submissions, XP and
// review queue.
type LearningStore interface {
	// EnsureLearner creates the learner with this id if it does not exist
	// yet (time zone "UTC") and returns it.
	EnsureLearner(ctx context.Context, id string, now time.Time) (Learner, error)
	// FindLearner returns the learner, or an error wrapping ErrNotFound.
	FindLearner(ctx context.Context, id string) (Learner, error)
	// SetTimeZone records the learner's IANA zone name (validated by the
	// caller); an unknown learner is an error wrapping ErrNotFound.
	SetTimeZone(ctx context.Context, learnerID, zone string) error

	// MarkLessonOpened records the first opening of a lesson; later calls
	// change nothing. The learner must exist.
	MarkLessonOpened(ctx context.Context, learnerID, slug string, now time.Time) error
	// ProgressByLesson returns the learner's lessons keyed by slug; lessons
	// never opened are absent. An unknown learner has none.
	ProgressByLesson(ctx context.Context, learnerID string) (map[string]LessonProgress, error)

	// RecordAttempt saves a graded attempt and its effects in one
	// transaction (creating the learner if needed) and reports whether the
	// effects' award was granted by this call: false when the learner
	// already held its key (or, for an award with Slots, every one of its
	// keys). Every award is stored with the attempt that earned it. An
	// attempt other than a review opens its lesson when no page view did.
	RecordAttempt(ctx context.Context, a Attempt, fx AttemptEffects) (granted bool, err error)
	// QuizAttempts returns the learner's attempts at one quiz, by number.
	QuizAttempts(ctx context.Context, learnerID, lessonSlug, quizID string) ([]QuizAttempt, error)
	// AddReset records a teacher's reset. Of a quiz's attempts:
	// QuizAttempts then marks those finished at or before it Reset. Of an
	// exercise's submissions: those made at or before it no longer count
	// in the learner's exercise progress (ExerciseProgress, the class
	// reads' per-learner exercise figures and latest code); they stay in
	// the class's statistics and time on task.
	AddReset(ctx context.Context, r Reset) error
	// Resets returns the learner's resets, oldest first.
	Resets(ctx context.Context, learnerID string) ([]Reset, error)
	// AttemptCounts returns how many widget and quiz attempts (not reviews)
	// the learner made, keyed "lessonSlug/widgetID".
	AttemptCounts(ctx context.Context, learnerID string) (map[string]int, error)
	// ActivityTimes returns when the learner made each attempt (reviews and
	// submissions included), oldest first.
	ActivityTimes(ctx context.Context, learnerID string) ([]time.Time, error)
	// QuizScores returns, per lesson, the learner's quiz attempts: first
	// and best score, count, and whether any passed.
	QuizScores(ctx context.Context, learnerID string) (map[string]QuizScore, error)
	// LastAttempts returns the learner's latest widget or quiz attempt (not
	// review answers) per "lessonSlug/widgetID", with its validated answers
	// and time; ties in time go to the one recorded last.
	LastAttempts(ctx context.Context, learnerID string) (map[string]Attempt, error)

	// KeepResult saves a result to show once, replacing the learner's
	// earlier one for the same lesson, and may drop results expired by now.
	KeepResult(ctx context.Context, r ResultToShow, now time.Time) error
	// TakeResult returns the learner's result for the lesson and deletes
	// it, so it shows once. It returns an error wrapping ErrNotFound when
	// there is none or it expired at or before now.
	TakeResult(ctx context.Context, learnerID, lessonSlug string, now time.Time) (ResultToShow, error)

	// RecordSubmission saves a run or submission, keeps its code as the
	// learner's latest for the exercise, counts a submit as activity, and
	// grants award (if non-nil) once, all in one transaction. It reports
	// whether the award was granted by this call.
	RecordSubmission(ctx context.Context, sub Submission, award *Award) (granted bool, err error)
	// LatestCodes returns the learner's last code per exercise id.
	LatestCodes(ctx context.Context, learnerID string) (map[string]string, error)
	// ExerciseStates returns, per exercise id, how the learner's runs and
	// submissions went.
	ExerciseStates(ctx context.Context, learnerID string) (map[string]ExerciseState, error)
	// RevealHints records that the learner (who must exist) has seen the
	// exercise's first n hints, n at least 1, and returns how many they
	// have seen now: the count never goes down, so posting the same n
	// twice, or a smaller one, changes nothing.
	RevealHints(ctx context.Context, learnerID, exerciseID string, n int, now time.Time) (int, error)
	// HintsShown returns how many hints the learner has seen, by exercise
	// id; an exercise with none is absent.
	HintsShown(ctx context.Context, learnerID string) (map[string]int, error)

	// TotalXP returns the sum of the learner's awards (0 for nobody).
	TotalXP(ctx context.Context, learnerID string) (int, error)
	// XPHistory returns the learner's awards, oldest first, each with the
	// attempt that earned it.
	XPHistory(ctx context.Context, learnerID string) ([]XPEntry, error)

	// DueReviews returns up to limit cards due at now, longest overdue
	// first (ties by key).
	DueReviews(ctx context.Context, learnerID string, now time.Time, limit int) ([]ReviewCard, error)
	// ReviewCounts returns how many cards are due at now and how many are
	// queued.
	ReviewCounts(ctx context.Context, learnerID string, now time.Time) (due, total int, err error)
	// FindReview returns one card, or an error wrapping ErrNotFound.
	FindReview(ctx context.Context, learnerID, key string) (ReviewCard, error)
	// AnswerReview moves the card from a.Before to a.After and records the
	// attempt and award in one transaction, only while the stored card
	// still equals a.Before (same reps and due). applied is false, and
	// nothing is written, when it had moved on: a doubled post. An award
	// with Slots takes the first free one of its keys (see quiz.Award).
	AnswerReview(ctx context.Context, a ReviewAnswer) (applied, granted bool, err error)
}

// Learner is one user of the course, known by the id in their cookie.
type Learner struct {
	ID        string
	CreatedAt time.Time
	// TimeZone is an IANA name reported by the learner's browser; "UTC"
	// until then.
	TimeZone string
}

// LessonProgress is what one learner has done with one lesson.
type LessonProgress struct {
	LessonSlug  string
	OpenedAt    time.Time
	CompletedAt time.Time // zero while the lesson is not completed
}

// Completed reports whether the lesson has been completed.
func (p LessonProgress) Completed() bool { return !p.CompletedAt.IsZero() }

// Attempt is one graded try at a widget, a quiz or a review item.
type Attempt struct {
	LearnerID  string
	LessonSlug string
	WidgetID   string
	Kind       string // classify, annotate, quiz or review
	Score      int
	Total      int
	Passed     bool
	// Answers are the learner's validated answers as JSON: item and option
	// ids only, never raw posted text.
	Answers string
	At      time.Time
}

// AttemptEffects is what an attempt earns, written in the same transaction
// as the attempt so both happen or neither does.
type AttemptEffects struct {
	// Award, if non-nil, is granted unless the learner already holds its key.
	Award *Award
	// CompleteLesson marks the attempt's lesson completed (opening it too);
	// only the first completion is kept.
	CompleteLesson bool
	// Missed items enter the review queue; an item already queued keeps its
	// schedule unchanged, so missing it again cannot make it due sooner.
	Missed []ReviewCard
	// Quiz, for a quiz attempt, is the attempt as the server drew it,
	// kept under its number: when the learner already has an attempt of
	// that number at that quiz, nothing is written and the error wraps
	// ErrConflict (the same attempt posted twice).
	Quiz *QuizAttempt
	// Score, if non-nil, queues the lesson's score for the LMS when the
	// award is granted or the lesson completed (see LMSScore).
	Score *LMSScore
}

// QuizAttempt is one attempt at a lesson quiz as the server drew it.
type QuizAttempt struct {
	LearnerID, LessonSlug, QuizID string
	// Number counts the learner's attempts at the quiz from 1.
	Number int
	// Draw is what the attempt showed: quiz.Draw as JSON.
	Draw   string
	Passed bool
	// StartedAt is when the attempt could first be taken (the previous
	// attempt's end, or its wait's); FinishedAt when it was posted.
	StartedAt, FinishedAt time.Time
	// Reset is set, when read back, for an attempt a teacher's reset
	// (Reset) came after: it counts for its number only.
	Reset bool
}

// Reset is a teacher's reset of one learner's attempts at a lesson's quiz
// or of their submissions to an exercise.
type Reset struct {
	// ClassID is the class the teacher reset from (0 once it is deleted).
	ClassID              int64
	LearnerID            string
	LessonSlug, WidgetID string
	// Kind is ResetQuizKind (WidgetID is the quiz) or ResetExerciseKind
	// (WidgetID is the exercise).
	Kind string
	At   time.Time
}

// The kinds of Reset.
const (
	ResetQuizKind     = "quiz"
	ResetExerciseKind = "exercise"
)

// Award is one grant of XP under a key the learner can hold once.
type Award = quiz.Award

// XPEntry is one row of a learner's ledger.
type XPEntry struct {
	Award
	At time.Time
	// Earned is the attempt that earned the award (Kind "exercise" for a
	// submission, WidgetID the exercise id); zero for an award granted
	// before attempts were linked to awards.
	Earned Attempt
}

// QuizScore sums up a learner's attempts at a lesson's quiz.
type QuizScore struct {
	LessonSlug string
	// First is the score of the first attempt; Best the highest.
	First, Best int
	Total       int
	Attempts    int
	Passed      bool
	// LastAt is when the latest attempt was made.
	LastAt time.Time
}

// Submission is one run or submission of learner code with its graded
// report (JSON).
type Submission struct {
	LearnerID  string
	ExerciseID string
	Mode       string // "run" (sample cases) or "submit" (all cases)
	Code       string
	Passed     bool
	Report     string
	At         time.Time
	// Score, if non-nil, queues the exercise's lesson's score for the LMS
	// when the award is granted (see LMSScore).
	Score *LMSScore
}

// ExerciseState is how a learner's work on one exercise stands.
type ExerciseState struct {
	ExerciseID string
	Runs       int // runs and submissions together
	// Failures counts the runs and submissions that did not pass.
	Failures int
	// SolvedAt is the first passing submission; zero while unsolved.
	SolvedAt time.Time
	// LastPassed and LastAt describe the latest run or submission.
	LastPassed bool
	LastMode   string
	LastAt     time.Time
}

// Solved reports whether a submission passed.
func (e ExerciseState) Solved() bool { return !e.SolvedAt.IsZero() }

// ReviewCard is one item in a learner's review queue and its schedule.
type ReviewCard struct {
	Key        string // quiz.ReviewItemKey(lesson, widget, item)
	LessonSlug string
	WidgetID   string
	ItemID     string
	Card       quiz.Card
}

// ReviewAnswer is a graded answer to a review card.
type ReviewAnswer struct {
	Attempt Attempt
	// Before is the card the answer was graded against; After its new
	// schedule.
	Before, After ReviewCard
	Award         *Award
}

// ResultToShow is a graded result kept for the next drawing of its lesson:
// a form posted without JavaScript is answered with a redirect to the
// lesson, which shows the result where the form was.
type ResultToShow struct {
	LearnerID  string
	LessonSlug string
	// PartID names the lesson part the result replaces (a widget or
	// exercise id).
	PartID string
	// Body is the result as the page draws it; the store keeps it opaque.
	Body string
	// Expires is when the result is no longer shown.
	Expires time.Time
}
