package progress

import (
	"context"
	"time"
)

// LTIStore keeps the links between an LMS and learn that LTI launches
// make (see LaunchLTI): an LMS user is one learner (and, once they launch
// as an instructor, one teacher account), and an LMS course is one class.
// Errors wrap ErrNotFound and ErrConflict as Store's do.
type LTIStore interface {
	// FindLTIUser returns the link of the LMS user subject of issuer;
	// errors wrap ErrNotFound.
	FindLTIUser(ctx context.Context, issuer, subject string) (LTIUser, error)
	// CreateLTIUser saves a new link (TeacherID 0 for none); an LMS user
	// already linked wraps ErrConflict. The learner must exist.
	CreateLTIUser(ctx context.Context, u LTIUser) error
	// SetLTIUserTeacher gives the linked LMS user a teacher account.
	SetLTIUserTeacher(ctx context.Context, issuer, subject string, teacherID int64) error
	// FindLTIContext returns the class of an LMS course; errors wrap
	// ErrNotFound.
	FindLTIContext(ctx context.Context, c LTIContext) (int64, error)
	// CreateLTIContext links an LMS course to a class; a course already
	// linked wraps ErrConflict.
	CreateLTIContext(ctx context.Context, c LTIContext, classID int64, now time.Time) error
	// SaveLTILineItem keeps the line item of a learner's launch of a
	// resource link, replacing the one kept for the same learner,
	// platform and link.
	SaveLTILineItem(ctx context.Context, li LTILineItem) error
	// ClassLTIScores returns the outbox's scores of the class's line
	// items, by learner and lesson.
	ClassLTIScores(ctx context.Context, classID int64) ([]LTIScoreState, error)
	// FindLTIRoster returns where the class's roster comes from and how
	// its last fetch went, without its members; errors wrap ErrNotFound
	// for a class whose LMS named no roster service yet.
	FindLTIRoster(ctx context.Context, classID int64) (LTIRoster, error)
	// LTIRosterMembers returns the class's roster from the LMS, by name,
	// each with the learner id of the LMS user once they launched.
	LTIRosterMembers(ctx context.Context, classID int64) ([]LTIRosterMember, error)
	// SaveLTIRosterFetch records a fetch of the class's roster, in one
	// transaction: its source and outcome, and when it worked (Problem
	// "") its members in place of those kept before.
	SaveLTIRosterFetch(ctx context.Context, f LTIRosterFetch) error
	// LTILinkStore links an LMS user to a learner made with secret words
	// (lti_link.go).
	LTILinkStore
}

// LTIUser links an LMS user (issuer and subject) to learn's identities.
type LTIUser struct {
	Issuer, Subject string
	LearnerID       string
	// TeacherID is 0 until the user first launches as an instructor.
	TeacherID int64
	CreatedAt time.Time
}

// LTIContext names an LMS course: the issuer, the deployment it was
// launched from and its context id.
type LTIContext struct {
	Issuer, DeploymentID, ContextID string
}
