package web

import (
	"net/http"

	"learn/grading"
)

// routes lists every route of the app in one place.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", s.assets)
	mux.HandleFunc("GET /favicon.ico", s.favicon)
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)

	mux.Handle("GET /{$}", s.handle(s.homeShow))
	mux.Handle("GET /lessons/{slug}", s.handle(s.lessonShow))
	mux.Handle("POST /lessons/{slug}/widgets/{id}", s.capForm(s.handle(s.graded(s.widgetCheck))))
	mux.Handle("POST /lessons/{slug}/exercises/{id}", s.handle(s.exerciseForm))
	mux.Handle("POST /api/exercises/{id}/run", s.handle(s.apiExercise(grading.Run)))
	mux.Handle("POST /api/exercises/{id}/submit", s.handle(s.apiExercise(grading.Submit)))
	mux.Handle("GET /review", s.handle(s.reviewShow))
	mux.Handle("POST /review", s.capForm(s.handle(s.graded(s.reviewAnswer))))
	mux.Handle("GET /progress", s.handle(s.progressShow))
	mux.Handle("GET /guide", s.handle(s.guideShow))
	if s.dev != nil {
		mux.HandleFunc("GET /dev/events", s.devEvents)
	}

	// No catch-all route: the mux's own 404 and 405 (with Allow) are drawn
	// as pages by unrouted.
	var h http.Handler = s.unrouted(mux)
	h = http.NewCrossOriginProtection().Handler(h)
	h = s.limitBody(h)
	h = securityHeaders(h)
	h = s.recoverPanics(h)
	h = s.logRequests(h)
	return h
}
