package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"learn/lessons"
)

// Development mode (Config.Dev, learn serve --dev) tells open pages about
// the course as the author edits it. Pages carry a dev marker (Page
// .DevEvents) and the dev script, which subscribes to /dev/events, a stream
// of server-sent events. Each event is the course's state: a version that
// grows with every reload, and the problems of the last edit, if it broke
// the course. A page reloads (keeping its scroll position) when the version
// changes, and draws the problems over itself while there are any, so a
// page never shows the last good version without saying so.

// devHeartbeat is how often an idle stream sends a comment, so proxies
// and browsers keep it open.
const devHeartbeat = 25 * time.Second

// DevState is what the event stream sends: the course version and the
// problems of the folder as "file:line: message", empty when it loads.
type DevState struct {
	Version  int      `json:"version"`
	Problems []string `json:"problems"`
}

// devHub holds the state and wakes every stream when it changes.
type devHub struct {
	mu      sync.Mutex
	state   DevState
	changed chan struct{} // closed and replaced on every change
	closed  chan struct{} // closed by CloseEvents
	once    sync.Once
}

func newDevHub() *devHub {
	return &devHub{state: DevState{Version: 1, Problems: []string{}}, changed: make(chan struct{}), closed: make(chan struct{})}
}

// snapshot returns the state and the channel closed at its next change.
func (h *devHub) snapshot() (DevState, <-chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.state, h.changed
}

// set changes the state with f and wakes the streams.
func (h *devHub) set(f func(*DevState)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f(&h.state)
	close(h.changed)
	h.changed = make(chan struct{})
}

// Reload serves course c from now on and tells open pages to reload; if c
// cannot be served (an exercise cannot be graded) the old course stays
// and pages show why. Without Config.Dev it only replaces the course.
func (s *Server) Reload(c *lessons.Course) error {
	err := s.SetCourse(c)
	if s.dev == nil {
		return err
	}
	if err != nil {
		s.dev.set(func(st *DevState) { st.Problems = []string{err.Error()} })
		return err
	}
	s.dev.set(func(st *DevState) { st.Version++; st.Problems = []string{} })
	return nil
}

// ShowProblems tells open pages that the course folder has problems (the
// old course is still served). Without Config.Dev it does nothing.
func (s *Server) ShowProblems(ps lessons.Problems) {
	if s.dev == nil {
		return
	}
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	s.dev.set(func(st *DevState) { st.Problems = lines })
}

// CloseEvents ends every development event stream, so the HTTP server can
// shut down without waiting for them (register it with
// http.Server.RegisterOnShutdown). Safe to call more than once.
func (s *Server) CloseEvents() {
	if s.dev != nil {
		s.dev.once.Do(func() { close(s.dev.closed) })
	}
}

// devEvents streams the course state as server-sent events: at once, then
// at every change.
func (s *Server) devEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	// The stream outlives the server's write timeout.
	if err := rc.SetWriteDeadline(time.Time{}); err != nil {
		s.log.DebugContext(r.Context(), "dev events: cannot lift the write deadline", "err", err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	// A dropped stream is retried after a second.
	fmt.Fprint(w, "retry: 1000\n\n")
	send := func(format string, args ...any) bool {
		if _, err := fmt.Fprintf(w, format, args...); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	beat := time.NewTicker(devHeartbeat)
	defer beat.Stop()
	for {
		state, changed := s.dev.snapshot()
		data, err := json.Marshal(state)
		if err != nil || !send("event: state\ndata: %s\n\n", data) {
			return
		}
		for waiting := true; waiting; {
			select {
			case <-changed:
				waiting = false
			case <-beat.C:
				if !send(": still here\n\n") {
					return
				}
			case <-r.Context().Done():
				return
			case <-s.dev.closed:
				return
			}
		}
	}
}
