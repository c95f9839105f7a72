package lti

import "fmt"

// Refusal is a login or launch learn refused: which check failed, what
// went wrong, and what an LMS administrator should change. Its texts are
// safe to show: they never hold a token or a secret.
type Refusal struct {
	// Check names the rule, such as "aud" or "nonce".
	Check string
	// Problem says what was wrong; Fix what to change in the LMS's
	// registration of learn (or in learn's of the LMS).
	Problem, Fix string
	// Err is the cause, for the log only.
	Err error
}

// Error implements error.
func (r *Refusal) Error() string {
	if r.Err != nil {
		return fmt.Sprintf("lti: launch refused (%s): %s: %v", r.Check, r.Problem, r.Err)
	}
	return fmt.Sprintf("lti: launch refused (%s): %s", r.Check, r.Problem)
}

// Unwrap returns the cause.
func (r *Refusal) Unwrap() error { return r.Err }

func refuse(check, problem, fix string, err error) *Refusal {
	return &Refusal{Check: check, Problem: problem, Fix: fix, Err: err}
}
