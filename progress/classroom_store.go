package progress

import (
	"context"
	"time"
)

// ClassroomStore is the part of Store that keeps the classroom: teachers
// and their sessions, classes, members, assignments, and the class-wide
// reads of the dashboard. Errors follow Store's rules; ErrConflict marks a
// broken uniqueness rule.
type ClassroomStore interface {
	// CreateTeacher saves a new teacher (ID and CreatedAt are set by the
	// store from t.CreatedAt) and returns it; an e-mail already in use is
	// an error wrapping ErrConflict.
	CreateTeacher(ctx context.Context, t Teacher) (Teacher, error)
	// FindTeacher returns the teacher with this id, or ErrNotFound.
	FindTeacher(ctx context.Context, id int64) (Teacher, error)
	// FindTeacherByEmail returns the teacher with this (normalised) e-mail,
	// or ErrNotFound.
	FindTeacherByEmail(ctx context.Context, email string) (Teacher, error)
	// ListTeachers returns every teacher by e-mail, each with ClassCount.
	ListTeachers(ctx context.Context) ([]Teacher, error)
	// DeleteTeacher removes the teacher with their sessions and classes
	// (memberships and assignments with them; learners and their progress
	// stay). An unknown id is ErrNotFound.
	DeleteTeacher(ctx context.Context, id int64) error
	// SetTeacherPassword replaces the teacher's password hash and deletes
	// every session of the teacher, in one transaction. ErrNotFound for an
	// unknown id.
	SetTeacherPassword(ctx context.Context, id int64, hash string) error

	// CreateSession saves a session under the hash of its token.
	CreateSession(ctx context.Context, s Session) error
	// FindSession returns the session whose token hashes to tokenHash
	// while it has not expired at now, with its teacher; ErrNotFound
	// otherwise.
	FindSession(ctx context.Context, tokenHash string, now time.Time) (Session, Teacher, error)
	// DeleteSession removes one session; a missing one is not an error.
	DeleteSession(ctx context.Context, tokenHash string) error

	// CreateClass saves a new class and returns it with its ID; a join code
	// already used by an active class is ErrConflict.
	CreateClass(ctx context.Context, c Class) (Class, error)
	// FindClass returns the class (archived or not) with its MemberCount,
	// or ErrNotFound.
	FindClass(ctx context.Context, id int64) (Class, error)
	// FindClassByCode returns the active (not archived) class whose join
	// code is code, or ErrNotFound. An empty code finds nothing.
	FindClassByCode(ctx context.Context, code string) (Class, error)
	// TeacherClasses returns the classes the teacher owns or co-teaches,
	// active first, then by creation, each with MemberCount.
	TeacherClasses(ctx context.Context, teacherID int64) ([]Class, error)
	// UpdateClass writes the class's name, join code, time zone,
	// leaderboard switch and archive time. ErrNotFound for an unknown id;
	// ErrConflict when the join code is used by another active class.
	UpdateClass(ctx context.Context, c Class) error
	// DeleteClass removes the class with its memberships and assignments;
	// the learners and their progress stay. ErrNotFound for an unknown id.
	DeleteClass(ctx context.Context, id int64) error
	// AddCoTeacher makes the teacher a co-teacher of the class from at.
	// ErrConflict when they already are one; ErrNotFound for an unknown
	// class or teacher.
	AddCoTeacher(ctx context.Context, classID, teacherID int64, at time.Time) error
	// RemoveCoTeacher ends the teacher's co-teaching of the class.
	// ErrNotFound when they were not a co-teacher of it.
	RemoveCoTeacher(ctx context.Context, classID, teacherID int64) error
	// CoTeachers returns the class's co-teachers by e-mail, each with
	// AddedAt.
	CoTeachers(ctx context.Context, classID int64) ([]CoTeacher, error)
	// IsCoTeacher reports whether the teacher co-teaches the class.
	IsCoTeacher(ctx context.Context, classID, teacherID int64) (bool, error)

	// AddMember adds the learner (created if needed) to the class. A
	// display name already used in the class (compared by NameKey) is
	// ErrConflict; so is a learner already in the class.
	AddMember(ctx context.Context, m Member) error
	// FindMember returns the learner's membership of the class, or
	// ErrNotFound.
	FindMember(ctx context.Context, classID int64, learnerID string) (Member, error)
	// FindMemberByName returns the member of the class whose NameKey is
	// nameKey, or ErrNotFound.
	FindMemberByName(ctx context.Context, classID int64, nameKey string) (Member, error)
	// Members returns the class's members by name, each with the
	// learner's time zone.
	Members(ctx context.Context, classID int64) ([]Member, error)
	// LearnerClasses returns the learner's memberships with their classes
	// and teachers' names, active classes only, by class name.
	LearnerClasses(ctx context.Context, learnerID string) ([]Membership, error)
	// SetMemberSecret replaces a member's secret words and their hash,
	// and deletes the learner's devices signed in with the class's words,
	// in one transaction. ErrNotFound when the learner is not in the class.
	SetMemberSecret(ctx context.Context, classID int64, learnerID, secret, hash string) error
	// RemoveMember takes the learner out of the class (their progress
	// stays) and deletes their devices signed in with the class's words,
	// in one transaction. ErrNotFound when they were not in it.
	RemoveMember(ctx context.Context, classID int64, learnerID string) error
	// RemoveMemberKeeping removes as RemoveMember does and keeps the
	// membership, removed at at, for RestoreMember; it forgets every kept
	// removal made before forgetBefore. ErrNotFound as RemoveMember.
	RemoveMemberKeeping(ctx context.Context, classID int64, learnerID string, at, forgetBefore time.Time) error
	// RemovedMembers returns the class's kept removals made at or after
	// since, latest first.
	RemovedMembers(ctx context.Context, classID int64, since time.Time) ([]RemovedMember, error)
	// RestoreMember puts back a kept membership removed at or after since,
	// name and words included, in one transaction. ErrNotFound when there
	// is none; ErrConflict when the learner is in the class again or the
	// name is taken.
	RestoreMember(ctx context.Context, classID int64, learnerID string, since time.Time) (Member, error)
	// ClassEffort reads every member's actions and awards for the export's
	// per-lesson XP and time on task.
	ClassEffort(ctx context.Context, classID int64) (Effort, error)

	// AddDevice saves a device a learner signed in on with a class's
	// words.
	AddDevice(ctx context.Context, d Device) error
	// FindDevice returns the learner's device with this id, or ErrNotFound
	// (a device of another learner is not found either).
	FindDevice(ctx context.Context, learnerID, deviceID string) (Device, error)
	// TouchDevice sets a device's LastSeen; a missing device is not an
	// error.
	TouchDevice(ctx context.Context, deviceID string, at time.Time) error
	// LearnerDevices returns the learner's devices, last seen first.
	LearnerDevices(ctx context.Context, learnerID string) ([]Device, error)
	// DeleteDevices deletes the learner's devices but the one whose id is
	// keep ("" keeps none) and returns how many it deleted.
	DeleteDevices(ctx context.Context, learnerID, keep string) (int, error)
	// DeleteIdleDevices deletes the learner's devices last seen before
	// before and returns how many it deleted.
	DeleteIdleDevices(ctx context.Context, learnerID string, before time.Time) (int, error)

	// SignInFailures returns the failed sign-ins in a row counted under
	// key (zero when there are none).
	SignInFailures(ctx context.Context, key string) (SignInFailures, error)
	// AddSignInFailure counts one more failure under key at at, starting
	// again from one when the last was before since, and returns the count
	// after it. It drops other keys whose last failure was before since.
	AddSignInFailure(ctx context.Context, key string, at, since time.Time) (SignInFailures, error)
	// ClearSignInFailures forgets the failures under key.
	ClearSignInFailures(ctx context.Context, key string) error

	// SetAssignment assigns a lesson to a class, or changes its due time
	// (zero for none).
	SetAssignment(ctx context.Context, a Assignment) error
	// DeleteAssignment takes a lesson off a class's assignments; a missing
	// one is not an error.
	DeleteAssignment(ctx context.Context, classID int64, lessonSlug string) error
	// Assignments returns the class's assignments by assignment time.
	Assignments(ctx context.Context, classID int64) ([]Assignment, error)
	// SetExtension gives one learner a later due time for an assigned
	// lesson, or changes it; ErrNotFound when the lesson is not assigned.
	// DeleteAssignment deletes the lesson's extensions too.
	SetExtension(ctx context.Context, classID int64, lessonSlug, learnerID string, due time.Time) error
	// DeleteExtension takes one learner's extension back.
	DeleteExtension(ctx context.Context, classID int64, lessonSlug, learnerID string) error

	// ClassActivity returns what every member of the class has done, in a
	// fixed number of queries whatever the class's size.
	ClassActivity(ctx context.Context, classID int64) (ClassActivity, error)
	// WeeklyXP returns the XP each member of the class earned since since,
	// keyed by learner id; members who earned none are absent.
	WeeklyXP(ctx context.Context, classID int64, since time.Time) (map[string]int, error)
	// ClassFirstTries returns, for every widget and quiz members tried
	// (classify, annotate and quiz attempts; not reviews), each distinct
	// set of answers given on a member's first try and how many gave it.
	ClassFirstTries(ctx context.Context, classID int64) (FirstTries, error)
	// ClassExerciseStats returns, per exercise members submitted, the
	// submissions and failures, and how often each case failed with each
	// verdict.
	ClassExerciseStats(ctx context.Context, classID int64) ([]ExerciseStat, []CaseFailure, error)
	// LearnerAttempts returns the learner's widget, quiz and review
	// attempts (answers included), oldest first.
	LearnerAttempts(ctx context.Context, learnerID string) ([]Attempt, error)
	// LatestSubmissions returns the learner's latest run or submission of
	// each exercise, keyed by exercise id.
	LatestSubmissions(ctx context.Context, learnerID string) (map[string]Submission, error)

	// DeleteLearner removes the learner and everything they did: progress,
	// attempts, XP, reviews, code and memberships. A missing learner is not
	// an error.
	DeleteLearner(ctx context.Context, learnerID string) error
}

// Teacher is someone who runs classes, signed in by e-mail and password.
type Teacher struct {
	ID int64
	// Email is lower case and unique.
	Email string
	Name  string
	Admin bool
	// PasswordHash is a bcrypt hash.
	PasswordHash string
	CreatedAt    time.Time
	// ClassCount is filled by ListTeachers only.
	ClassCount int
}

// CoTeacher is a teacher account that co-teaches a class: it sees and
// manages the class as the owner does, but may not delete it or remove a
// co-teacher.
type CoTeacher struct {
	Teacher
	AddedAt time.Time
}

// Session is a signed-in teacher's session. Only the SHA-256 of its token
// is stored; the token itself lives in the teacher's cookie.
type Session struct {
	TokenHash string
	TeacherID int64
	CreatedAt time.Time
	ExpiresAt time.Time
}

// Class is a teacher's class.
type Class struct {
	ID        int64
	TeacherID int64
	Name      string
	// JoinCode is upper case; "" when joining is turned off.
	JoinCode string
	// TimeZone is an IANA name: due dates and the weekly leaderboard
	// count days there.
	TimeZone string
	// Leaderboard shows the class a weekly XP table when true.
	Leaderboard bool
	// ArchivedAt is zero while the class is active.
	ArchivedAt time.Time
	CreatedAt  time.Time
	// MemberCount is filled by FindClass and TeacherClasses.
	MemberCount int
}

// Archived reports whether the class is archived.
func (c Class) Archived() bool { return !c.ArchivedAt.IsZero() }

// Effort is what a class's export counts per lesson: every member's
// actions (attempts, runs and submissions) with their times, and every
// award with the attempt that earned it.
type Effort struct {
	// Actions are in order of learner, then time.
	Actions []EffortEvent
	// Awards have the earning attempt's lesson, kind and widget, and XP.
	Awards []EffortEvent
}

// EffortEvent is one action or award. LessonSlug is "" for a run or
// submission (Kind "submission"), whose WidgetID is the exercise's id.
type EffortEvent struct {
	LearnerID, LessonSlug, Kind, WidgetID string
	At                                    time.Time
	XP                                    int
}

// RemovedMember is a membership a teacher removed, kept for the undo.
type RemovedMember struct {
	Member
	RemovedAt time.Time
}

// Member is a learner in a class under a display name.
type Member struct {
	ClassID   int64
	LearnerID string
	// Name is as the learner typed it (trimmed); NameKey is its folded
	// form, unique within the class.
	Name, NameKey string
	// Secret is the sign-in words, kept readable for the teacher's page;
	// SecretHash is what sign-in compares against.
	Secret, SecretHash string
	JoinedAt           time.Time
	// TimeZone is the learner's own zone (filled by Members only), so a
	// streak on the dashboard counts the days the learner's header counts.
	TimeZone string
}

// Device is a browser a learner signed in on with a class's secret words.
// Its learner cookie names it, and it stays signed in while its row does.
type Device struct {
	// ID is 128 random bits as hex.
	ID        string
	LearnerID string
	// ClassID is the class whose words signed it in.
	ClassID int64
	// UserAgent is the browser's User-Agent header, cut to
	// MaxUserAgentLen bytes.
	UserAgent string
	CreatedAt time.Time
	LastSeen  time.Time
}

// SignInFailures is a count of failed sign-ins in a row for one account
// and the time of the last.
type SignInFailures struct {
	Count int
	Last  time.Time
}

// Membership is one of a learner's classes, as their home shows it.
type Membership struct {
	Class       Class
	Member      Member
	TeacherName string
}

// Assignment is a lesson a class is asked to do, with an optional due time.
type Assignment struct {
	ClassID    int64
	LessonSlug string
	// Due is zero when there is no due date.
	Due        time.Time
	AssignedAt time.Time
	// Extensions are later due times for some learners, by learner id
	// (read by Assignments; nil when there are none).
	Extensions map[string]time.Time
}

// DueFor returns when the assignment is due for one learner: their
// extension, or Due.
func (as Assignment) DueFor(learnerID string) time.Time {
	if t, ok := as.Extensions[learnerID]; ok {
		return t
	}
	return as.Due
}

// ClassActivity is every member's activity, keyed by learner id.
type ClassActivity struct {
	Lessons   map[string]map[string]LessonProgress
	Quizzes   map[string]map[string]QuizScore
	Exercises map[string]map[string]ExerciseState
	// WidgetsPassed counts, per learner and lesson, the classify and
	// annotate widgets checked fully right at least once.
	WidgetsPassed map[string]map[string]int
	XP            map[string]int
	// Times are every attempt's time, oldest first (streaks, last active).
	Times map[string][]time.Time
}

// FirstTries is how a class answered widgets and quizzes on their first
// try: each distinct set of answers to a widget with how many members gave
// it. Most of a class gives the same few sets, so this stays short however
// large the class.
type FirstTries struct {
	Answers []AnswerSet
}

// AnswerSet is one set of answers to one widget or quiz (the attempt's
// Answers JSON, as stored) and how many members gave it on their first
// try.
type AnswerSet struct {
	LessonSlug, WidgetID, Kind string
	// LearnerID is set for a quiz's sets only: a quiz draws its questions
	// per learner and attempt, so its answers are graded against that
	// learner's draw.
	LearnerID string
	Answers   string
	Count     int
}

// ExerciseStat is how a class's submissions of one exercise went.
type ExerciseStat struct {
	ExerciseID string
	// Learners counts members who submitted; Solvers those with a passing
	// submission.
	Learners, Solvers int
	Submits, Failed   int
}

// CaseFailure is how often one case of an exercise failed with one
// verdict in a class's submissions.
type CaseFailure struct {
	ExerciseID, Case, Verdict string
	Count                     int
}
