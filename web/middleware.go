package web

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// contentSecurityPolicy allows only this origin's scripts, styles and
// images, no inline script and no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// policyWithStyleNonce is contentSecurityPolicy that also admits <style>
// elements carrying nonce: the code editor injects its stylesheet that way.
func policyWithStyleNonce(nonce string) string {
	return strings.Replace(contentSecurityPolicy, "style-src 'self'", "style-src 'self' 'nonce-"+nonce+"'", 1)
}

// securityHeaders sets the headers every response carries.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
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
		r.Body = http.MaxBytesReader(w, r.Body, s.maxBody)
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status a handler wrote, for the log.
type statusRecorder struct {
	http.ResponseWriter
	status int
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
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// logRequests logs one line per request at debug level, and 5xx at warn.
func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		level := slog.LevelDebug
		if rec.status >= 500 && r.URL.Path != "/readyz" {
			level = slog.LevelWarn
		}
		if s.log.Enabled(r.Context(), level) {
			s.log.Log(r.Context(), level, "request", slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", rec.status), slog.Duration("took", time.Since(start)))
		}
	})
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
