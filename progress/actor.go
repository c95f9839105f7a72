package progress

import "context"

// Role is what an actor may do beyond their own learning.
type Role string

// Roles. Every actor is at least a learner.
const (
	// RoleLearner works through the course and sees only their own data.
	RoleLearner Role = "learner"
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
