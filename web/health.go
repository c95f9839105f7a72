package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// healthz answers 200 while the process is alive.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintln(w, "ok")
}

// readyz answers 200 when the database answers and every extra check
// passes, and 503 listing what is not ready otherwise.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	checks := append([]ReadyCheck{{Name: "database", Check: s.app.Ping}}, s.ready...)
	var notReady []string
	for _, c := range checks {
		if err := c.Check(ctx); err != nil {
			notReady = append(notReady, c.Name+": "+err.Error())
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if len(notReady) > 0 {
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintln(w, "not ready\n"+strings.Join(notReady, "\n"))
		return
	}
	fmt.Fprintln(w, "ready")
}

// favicon sends browsers that ask for /favicon.ico to the hashed icon.
func (s *Server) favicon(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, s.assets.URL("favicon.svg"), http.StatusMovedPermanently)
}
