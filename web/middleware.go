package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"learn/progress"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"
)

// contentSecurityPolicy allows only this origin's scripts, styles and
// images, no inline script and no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// policyWithStyleNonce is contentSecurityPolicy that also admits <style>
// elements carrying nonce: the code editor injects its stylesheet that way.
func policyWithStyleNonce(nonce string) string {
	return policyBeforeNonce + nonce + policyAfterNonce
}

// policyBeforeNonce and policyAfterNonce are contentSecurityPolicy cut
// where policyWithStyleNonce puts the nonce.
var policyBeforeNonce, policyAfterNonce = func() (string, string) {
	const styles = "style-src 'self'"
	before, after, ok := strings.Cut(contentSecurityPolicy, styles)
	if !ok {
		panic("web: the content security policy has no " + styles)
	}
	return before + styles + " 'nonce-", "'" + after
}()

// everyAnswersHeaders are the headers securityHeaders sets, each key in
// canonical form and each value one slice shared by every answer: it is
// set on a request's header map without canonicalising or allocating, and
// net/http only reads it (Set replaces the slice, and Add appends to a
// full one, which copies).
var everyAnswersHeaders = []struct {
	key   string
	value []string
}{
	{"Content-Security-Policy", sharedValue(contentSecurityPolicy)},
	{"X-Content-Type-Options", sharedValue("nosniff")},
	{"Referrer-Policy", sharedValue("same-origin")},
	{"X-Frame-Options", sharedValue("DENY")},
	{"Cross-Origin-Opener-Policy", sharedValue("same-origin")},
}

// sharedValue is a header value to share between answers: its capacity is
// its length, so an append never writes into it.
func sharedValue(v string) []string { return []string{v}[:1:1] }

// securityHeaders sets the headers every response carries.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, f := range everyAnswersHeaders {
			h[f.key] = f.value
		}
		next.ServeHTTP(w, r)
	})
}

// limitBody caps the request body; reading past the cap fails.
func (s *Server) limitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.maxBody {
			http.Error(w, fmt.Sprintf("Request body too large: the limit is %d bytes.", s.maxBody), http.StatusRequestEntityTooLarge)
			return
		}
		if r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, s.maxBody)
		}
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status a handler wrote, for the log. It is
// the writer nearest the connection, so it also tells a connection from
// OneWriteListener when a large write passes (conn.go).
type statusRecorder struct {
	http.ResponseWriter
	status int
	conn   *oneWriteConn
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	if s.conn == nil || len(b) < connBufferSize {
		return s.ResponseWriter.Write(b)
	}
	s.conn.holding = true
	defer func() { s.conn.holding = false }()
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// logRequests logs one line per request at debug level, and server
// failures at warn. Answers that are no failure of the server (503 busy,
// 429 rate limited, a client that went away) are only counted, and
// summarised in the log at most once a minute.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w, conn: oneWriteFrom(r.Context())}
		next.ServeHTTP(rec, r)
		// The mux set r.Pattern on this request when a route matched.
		s.obs.ObserveRequest(r.Pattern, r.Method, rec.status, time.Since(start))
		level := slog.LevelDebug
		switch {
		case r.Context().Err() != nil:
			s.quiet.note(r.Context(), reasonClientGone, start)
		case rec.status == http.StatusServiceUnavailable:
			s.quiet.note(r.Context(), reasonBusy, start)
		case rec.status == http.StatusTooManyRequests:
			s.quiet.note(r.Context(), reasonRateLimited, start)
		case rec.status >= 500 && r.URL.Path != "/readyz":
			level = slog.LevelWarn
		}
		if s.log.Enabled(r.Context(), level) {
			s.log.Log(r.Context(), level, "request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", rec.status), slog.Duration("took", time.Since(start)))
		}
	})
}

// Reasons a request was not served that are no failure of the server.
const (
	reasonBusy        = "busy"
	reasonRateLimited = "rate_limited"
	reasonClientGone  = "client_gone"
)

// quietLog counts requests not served for a reason that is no failure of
// the server, and logs the counts at info level at most once per every,
// so an overload writes a line a minute rather than one per request; each
// is also reported to the observer.
type quietLog struct {
	log   *slog.Logger
	every time.Duration
	obs   Observer

	mu     sync.Mutex
	last   time.Time
	counts map[string]int
}

func newQuietLog(log *slog.Logger, every time.Duration, obs Observer) *quietLog {
	return &quietLog{log: log, every: every, obs: obs, counts: map[string]int{}}
}

// note counts one request not served for reason at now, and logs the
// counts since the last summary when that is at least every ago.
func (q *quietLog) note(ctx context.Context, reason string, now time.Time) {
	q.obs.NotServed(reason)
	q.mu.Lock()
	q.counts[reason]++
	if !q.last.IsZero() && now.Sub(q.last) < q.every {
		q.mu.Unlock()
		return
	}
	attrs := make([]slog.Attr, 0, len(q.counts)+1)
	if !q.last.IsZero() {
		attrs = append(attrs, slog.Duration("over", now.Sub(q.last)))
	}
	for k, n := range q.counts {
		attrs = append(attrs, slog.Int(k, n))
	}
	clear(q.counts)
	q.last = now
	q.mu.Unlock()
	q.log.LogAttrs(ctx, slog.LevelInfo, "requests not served: overload, rate limits and clients gone", attrs...)
}

// capForm caps the body of a graded post at s.maxForm bytes, which no form
// of the course comes near, reading it whole so the handler's form parsing
// never meets a cut body; a larger body is refused with 413.
func (s *Server) capForm(next http.Handler) http.Handler {
	tooLarge := s.handle(func(w http.ResponseWriter, r *http.Request) error {
		return &Error{Status: http.StatusRequestEntityTooLarge,
			Message: fmt.Sprintf("This form is larger than the %d bytes an answer may take. Reload the page and answer again.", s.maxForm)}
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.maxForm {
			tooLarge.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, s.maxForm+1))
		var over *http.MaxBytesError
		switch {
		case errors.As(err, &over) || int64(len(body)) > s.maxForm:
			tooLarge.ServeHTTP(w, r)
			return
		case err != nil:
			// The client stopped sending; nobody is left to answer.
			s.log.DebugContext(r.Context(), "read form", slog.String("path", r.URL.Path), slog.Any("err", err))
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// graded limits how often one learner, and one address, may post graded
// answers (widget checks, quiz attempts, review answers): past either
// limit the post is refused with 429 and Retry-After, before it is read.
func (s *Server) graded(h handlerFunc) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		err := s.app.TakeAnswerTry(r.Context(), progress.ActorFrom(r.Context()), clientAddress(r))
		if err != nil {
			return err
		}
		return h(w, r)
	}
}

// recoverPanics turns a panic in a handler into a logged 500 page.
func (s *Server) recoverPanics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "handler panicked", slog.String("path", r.URL.Path), slog.Any("panic", v))
				s.renderError(w, r, &Error{Status: http.StatusInternalServerError})
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// unrouted serves mux and draws the answers the mux gives itself when no
// route matches: 404 as the not-found page, and 405 (the path exists for
// other methods) as an error page keeping the mux's Allow header.
// Redirects the mux makes (to a cleaned path) pass through unchanged.
func (s *Server) unrouted(mux *http.ServeMux) http.Handler {
	notFound := s.handle(s.notFound)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u := &unroutedWriter{ResponseWriter: w, r: r}
		mux.ServeHTTP(u, r)
		switch u.swallowed {
		case http.StatusNotFound:
			notFound.ServeHTTP(w, r)
		case http.StatusMethodNotAllowed:
			allow := w.Header().Get("Allow")
			s.handle(func(w http.ResponseWriter, r *http.Request) error {
				return &Error{Status: http.StatusMethodNotAllowed,
					Message: fmt.Sprintf("This address does not accept %s; it accepts %s.", r.Method, allow)}
			}).ServeHTTP(w, r)
		}
	})
}

// unroutedWriter holds back a 404 or 405 the mux writes for a request no
// route matched (r.Pattern is empty), so unrouted can draw a page instead.
type unroutedWriter struct {
	http.ResponseWriter
	r         *http.Request
	swallowed int
}

func (u *unroutedWriter) WriteHeader(code int) {
	if u.r.Pattern == "" && (code == http.StatusNotFound || code == http.StatusMethodNotAllowed) {
		u.swallowed = code
		return
	}
	u.ResponseWriter.WriteHeader(code)
}

func (u *unroutedWriter) Write(b []byte) (int, error) {
	if u.swallowed != 0 {
		return len(b), nil
	}
	return u.ResponseWriter.Write(b)
}

func (u *unroutedWriter) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// Header values lesson pages share (see sharedValue).
var (
	privateNoCache = sharedValue("private, no-cache")
	htmlType       = sharedValue("text/html; charset=utf-8")
)
