package progress

import "context"

// Role is what an actor may do beyond their own learning.
type Role string

// Roles. Every actor is at least a learner.
const (
	// RoleLearner works through the course and sees only their own data.
	RoleLearner Role = "learner"
	// RoleTeacher is a signed-in teacher: a learner who also runs classes
	// and sees their own classes' data, never another teacher's.
	RoleTeacher Role = "teacher"
	// RoleAdmin is a teacher who may also see the list of teachers. An
	// admin sees no other teacher's class.
	RoleAdmin Role = "admin"
)

// Actor is who is acting: the one small type every use case takes. The web
// layer builds it from the request (the learner cookie) and puts it in the
// request's context.
type Actor struct {
	// ID is the learner id (128 random bits as hex).
	ID string
	// Role says what else the actor may do.
	Role Role
	// Known is true when the request proved a returning browser (a valid
	// cookie). A first visit has a fresh ID and nothing is written for it
	// until it posts.
	Known bool
	// TeacherID is the signed-in teacher (0 for a learner), and
	// TeacherName their display name.
	TeacherID   int64
	TeacherName string
	// Session is the hash of the teacher's session token, so that signing
	// out and changing a password can name the session in use.
	Session string
}

// IsTeacher reports whether a is a signed-in teacher (or admin).
func (a Actor) IsTeacher() bool {
	return a.TeacherID != 0 && (a.Role == RoleTeacher || a.Role == RoleAdmin)
}

type actorKey struct{}

// WithActor returns a context carrying a.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor in ctx, or a zero Actor (no ID, not known)
// when there is none.
func ActorFrom(ctx context.Context) Actor {
	a, _ := ctx.Value(actorKey{}).(Actor)
	return a
}
