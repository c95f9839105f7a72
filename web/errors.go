package web

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/a-h/templ"

	"learn/progress"
)

// Error is a failure a handler returns: a status, a message safe to show the
// user, and the cause for the log.
type Error struct {
	Status  int
	Message string
	Err     error
	// RetryAfter, when set on a 429 or 503, is sent as Retry-After.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %v", e.Status, e.Message, e.Err)
	}
	return fmt.Sprintf("%d %s", e.Status, e.Message)
}

func (e *Error) Unwrap() error { return e.Err }

// notFoundError is the error for a page that does not exist.
func notFoundError(what string) *Error {
	return &Error{Status: http.StatusNotFound, Message: what}
}

// webError returns err as an *Error: itself, the core's *progress.Error
// with the status its kind stands for, or a 500 for anything else.
func webError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var pe *progress.Error
	if errors.As(err, &pe) {
		return &Error{Status: kindStatus[pe.Kind], Message: pe.Message, RetryAfter: min(pe.RetryAfter, maxRetryAfter), Err: err}
	}
	return &Error{Status: http.StatusInternalServerError, Err: err}
}

// maxRetryAfter caps the Retry-After the core asks for: a run waits for
// the sandbox at most the run queue's wait (30 s by default), so asking a client to
// come back minutes later only turns it away from a server that will have
// room long before.
const maxRetryAfter = 30 * time.Second

// kindStatus is the HTTP status of each kind of failure of the core.
var kindStatus = map[progress.Kind]int{
	progress.Internal:    http.StatusInternalServerError,
	progress.NotFound:    http.StatusNotFound,
	progress.Invalid:     http.StatusUnprocessableEntity,
	progress.Gone:        http.StatusGone,
	progress.TooLarge:    http.StatusRequestEntityTooLarge,
	progress.Unavailable: http.StatusServiceUnavailable,
	progress.Denied:      http.StatusUnauthorized,
	progress.TooMany:     http.StatusTooManyRequests,
	progress.Forbidden:   http.StatusForbidden,
}

// handlerFunc is the shape of every page handler.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// handle adapts a handlerFunc: it maps a returned error to a status and an
// error page, and logs server failures once.
func (s *Server) handle(h handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, err := s.identify(w, r)
		if err == nil {
			err = readInput(r)
		}
		if err == nil {
			err = h(w, r)
		}
		if err == nil {
			return
		}
		if errors.Is(err, errClientGone) || r.Context().Err() != nil {
			s.log.DebugContext(r.Context(), "client went away", slog.String("path", r.URL.Path), slog.Any("err", err))
			return
		}
		e := webError(err)
		var fe *formError
		if errors.As(err, &fe) && redrawable(e.Status) {
			// The user's to fix: the form again, with the message.
			if e.RetryAfter > 0 {
				w.Header().Set("Retry-After", retryAfter(e.RetryAfter))
			}
			if err = fe.redraw(w, r, e.Status, e.Message); err == nil {
				return
			}
			e = webError(err)
		}
		// A busy sandbox is overload, not a failure: logRequests counts it.
		if e.Status >= 500 && e.Status != http.StatusServiceUnavailable {
			s.log.ErrorContext(r.Context(), "request failed", slog.String("method", r.Method),
				slog.String("path", r.URL.Path), slog.Int("status", e.Status), slog.Any("err", err))
		}
		s.renderError(w, r, e)
	})
}

// redrawFunc draws a handler's form again under status, with message
// saying what to change.
type redrawFunc func(w http.ResponseWriter, r *http.Request, status int, message string) error

// formError is a handler's error with the form to draw again when the
// failure is the user's to fix (see redrawable). The adapter decides, from
// the status the error stands for, whether the form or the error page
// answers: a handler never matches error kinds itself.
type formError struct {
	err    error
	redraw redrawFunc
}

func (e *formError) Error() string { return e.err.Error() }
func (e *formError) Unwrap() error { return e.err }

// withForm returns err carrying the form to draw again, or nil for nil.
func withForm(err error, redraw redrawFunc) error {
	if err == nil {
		return nil
	}
	return &formError{err: err, redraw: redraw}
}

// redrawable reports whether a failure answered with status is one the
// user can fix on the form they sent: any 4xx but 404, which says the
// thing is not there (or not theirs to see) and answers with the error
// page as on any other page. Server failures (5xx) are logged and answered
// with the error page.
func redrawable(status int) bool {
	return status >= 400 && status < 500 && status != http.StatusNotFound
}

// renderError writes the error page for e, falling back to plain text if
// even that fails.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, e *Error) {
	heading, message := http.StatusText(e.Status), e.Message
	switch {
	case e.Status == http.StatusNotFound:
		heading = "Page not found"
		if message == "" {
			message = "There is no page at this address. The course home lists every lesson."
		}
	case e.Status >= 500:
		heading = "Something went wrong on our side"
		if message == "" {
			message = "The server could not finish this request. Your progress is saved; try again in a moment."
		}
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", retryAfter(e.RetryAfter))
	}
	if wantsJSON(r) {
		if err := writeJSON(w, e.Status, apiError{Error: message}); err != nil {
			s.log.DebugContext(r.Context(), "write error", slog.Any("err", err))
		}
		return
	}
	v := ErrorView{Page: s.page(r, heading, ""), Status: e.Status, Heading: heading, Message: message}
	var buf bytes.Buffer
	if err := errorPage(v).Render(r.Context(), &buf); err != nil {
		if r.Context().Err() != nil {
			// The client went away; logRequests counts it.
			return
		}
		s.log.ErrorContext(r.Context(), "render error page", slog.Any("err", err))
		http.Error(w, heading+": "+message, e.Status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(e.Status)
	_, _ = w.Write(buf.Bytes())
}

// pageBuffers recycles the buffers pages are rendered into; a lesson page is
// tens of kilobytes, and growing a fresh buffer for each one dominated the
// cost of serving it.
var pageBuffers = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 64<<10)) }}

// errClientGone marks a response the client stopped reading; there is
// nobody left to show an error page to.
var errClientGone = errors.New("web: client went away")

// apiError is the JSON body of an error answer.
type apiError struct {
	Error string `json:"error"`
}

// retryAfter formats a wait as whole seconds, rounded up, at least 1.
func retryAfter(d time.Duration) string {
	return strconv.Itoa(int((d + time.Second - 1) / time.Second))
}

// render writes a component as a full HTML page with status 200, rendering
// into a buffer first so a failed render never sends half a page.
func render(w http.ResponseWriter, r *http.Request, c templ.Component) error {
	return renderStatus(w, r, http.StatusOK, c)
}

// renderStatus is render with another status.
func renderStatus(w http.ResponseWriter, r *http.Request, status int, c templ.Component) error {
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(buf)
	if err := c.Render(r.Context(), buf); err != nil {
		if r.Context().Err() != nil {
			return fmt.Errorf("%w: %v", errClientGone, err)
		}
		return fmt.Errorf("web: render %s: %w", r.URL.Path, err)
	}
	return writePage(w, status, buf)
}

// putPageBuffer returns a buffer to the pool unless it grew very large.
func putPageBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 1<<20 {
		buf.Reset()
		pageBuffers.Put(buf)
	}
}

// writePage sends a drawn HTML page.
func writePage(w http.ResponseWriter, status int, buf *bytes.Buffer) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("%w: %v", errClientGone, err)
	}
	return nil
}

// writeCodedPage sends a drawn HTML page already compressed with coding.
func writeCodedPage(w http.ResponseWriter, status int, body *bytes.Buffer, coding string) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Encoding", coding)
	h.Add("Vary", "Accept-Encoding")
	h.Set("Content-Length", strconv.Itoa(body.Len()))
	w.WriteHeader(status)
	if _, err := w.Write(body.Bytes()); err != nil {
		return fmt.Errorf("%w: %v", errClientGone, err)
	}
	return nil
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) error {
	return notFoundError("")
}
