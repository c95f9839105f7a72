package progress

import (
	"fmt"
	"time"
)

// Kind classifies a use case's failure so that a caller can pick a status
// (the web layer maps each to an HTTP status) without reading messages.
type Kind int

// Kinds of failure. The zero Kind is Internal.
const (
	// Internal is a failure of the server (database, sandbox crash); the
	// user can only try again.
	Internal Kind = iota
	// NotFound: the lesson, widget, exercise or review item does not exist.
	NotFound
	// Invalid: the input cannot be used as given (an unanswered quiz, a
	// malformed answer); Message says what to change.
	Invalid
	// Gone: the thing existed but the course changed under it.
	Gone
	// TooLarge: the input is over a size limit.
	TooLarge
	// Unavailable: a dependency (the sandbox) is busy or not ready;
	// RetryAfter says when to try again when it is known.
	Unavailable
	// Denied: the actor must prove who they are first (sign in), or the
	// proof given was wrong; Message never says which part was wrong.
	Denied
	// TooMany: the actor tried too often; RetryAfter says when to try
	// again.
	TooMany
	// Forbidden: the actor is known but may not do this to this thing (edit
	// another learner's post).
	Forbidden
)

// Error is a use case's failure: a kind, a message safe to show the user,
// and the cause for the log.
type Error struct {
	Kind    Kind
	Message string
	// RetryAfter, for Unavailable, is how long to wait before trying again.
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("progress: %s: %v", e.Message, e.Err)
	}
	return "progress: " + e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

func notFound(msg string) *Error { return &Error{Kind: NotFound, Message: msg} }
