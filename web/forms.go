package web

import (
	"errors"
	"net/http"
)

// parseForm reads a posted form: the one place every handler reads one, so
// that a form that cannot be read answers the same everywhere. A body over
// the route's size limit is 413, anything else unreadable 400, each with
// what to do.
func parseForm(r *http.Request) error {
	err := r.ParseForm()
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		return &Error{Status: http.StatusRequestEntityTooLarge, Err: err,
			Message: "The form is larger than the server accepts. Shorten what you typed (long code, a long post) and send it again."}
	}
	return &Error{Status: http.StatusBadRequest, Err: err, Message: "The form could not be read. Reload the page and send it again."}
}
