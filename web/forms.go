package web

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// readInput reads and checks every text value a request carries before
// any handler sees it: the query, and for a posted form its fields. Every
// value, and every name, must be valid UTF-8 without NUL (a NUL or broken
// text would be stored raw by one database engine and refused by the
// other). The adapter calls it first, so the core never receives text that
// was not checked. Errors are *Error: 400 for the query, and for a form 413
// past its size limit, 400 when it cannot be read and 422 for a field that
// is not text, each naming what to fix.
func readInput(r *http.Request) error {
	if name, ok := badText(r.URL.Query()); !ok {
		return &Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("The address has a value for %q that is not text (it holds a NUL character or broken UTF-8). Open the page again from its link.", name)}
	}
	if r.Method != http.MethodPost || !isForm(r) {
		return nil
	}
	if err := r.ParseForm(); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return &Error{Status: http.StatusRequestEntityTooLarge, Err: err,
				Message: "The form is larger than the server accepts. Shorten what you typed (long code, a long post) and send it again."}
		}
		return &Error{Status: http.StatusBadRequest, Err: err, Message: "The form could not be read. Reload the page and send it again."}
	}
	if name, ok := badText(r.PostForm); !ok {
		return &Error{Status: http.StatusUnprocessableEntity, Message: fmt.Sprintf("The field %q holds something that is not text (a NUL character or broken UTF-8, as pasted from a binary file). Retype it and send the form again; nothing was saved.", name)}
	}
	return nil
}

// isForm reports whether the request's body is a URL-encoded form.
func isForm(r *http.Request) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == "application/x-www-form-urlencoded"
}

// badText returns the first field (in name order) whose name or a value
// is not valid text, and false; or "", true when all are.
func badText(values url.Values) (string, bool) {
	var bad []string
	for name, vs := range values {
		if !isText(name) || slices.ContainsFunc(vs, func(v string) bool { return !isText(v) }) {
			bad = append(bad, strings.ToValidUTF8(name, "\uFFFD"))
		}
	}
	if len(bad) == 0 {
		return "", true
	}
	slices.Sort(bad)
	return bad[0], false
}

// isText reports whether s is valid UTF-8 without NUL.
func isText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}
