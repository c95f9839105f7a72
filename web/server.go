// Package web is the learn server's HTTP face: routes, handlers, middleware
// and the templ components that draw every page.
//
// Handlers have the shape func(w, r) error. One adapter (handle) turns a
// returned *Error into a status and an error page, logs internal failures
// once with the request's method and path, and renders every page into a
// buffer first so that a failed render never sends half a page.
//
// Handlers are thin: they parse the request, call a use case of the
// application core (package progress) with the acting user, build a view
// model and render it. The server never runs SQL, goldmark or wazero
// itself, and imports no database package.
//
// A lesson page is drawn once per lesson as a skeleton with holes for the
// learner's parts (skeleton.go), so a view writes static bytes and fills a
// few holes instead of drawing every widget; the learner's figures come
// from the core's summary, which it caches for a minute.
// Every response carries security headers (a Content-Security-Policy that
// allows no inline script, nosniff, a same-origin referrer policy, no
// framing); unsafe cross-origin requests are refused by
// net/http.CrossOriginProtection; request bodies are capped.
package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"learn/lessons"
	"learn/progress"
	"learn/static"
)

// DefaultMaxBodyBytes caps every request body; form posts and code
// submissions are far smaller.
const DefaultMaxBodyBytes = 1 << 20

// DefaultMaxFormBytes caps the body of a widget check, quiz attempt or
// review answer: the largest form of the built-in course is under a
// quarter of it (TestGradedPostLimits checks).
const DefaultMaxFormBytes = 8 << 10

// ReadyCheck reports whether one dependency is ready to serve; a non-nil
// error says why not.
type ReadyCheck struct {
	Name  string
	Check func(ctx context.Context) error
}

// Config is what the server is built from. App and Assets are required.
type Config struct {
	// App runs the use cases; the server reads the course from it.
	App    *progress.Service
	Assets *static.Assets
	Logger *slog.Logger
	// CookieKey signs the learner cookie (32 or 64 random bytes).
	CookieKey []byte
	// OldCookieKeys still verify learner cookies, which are then signed
	// again with CookieKey: the keys a rotation retired, during its grace
	// period.
	OldCookieKeys [][]byte
	// MaxBodyBytes caps request bodies; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Ready lists extra readiness checks for /readyz besides the database.
	Ready []ReadyCheck
	// Dev turns on development mode for authors (off by default): the
	// /dev/events stream and the page script that reloads pages when the
	// course changes and shows its problems (see Reload, ShowProblems).
	Dev bool
	// MaxFormBytes caps the body of a graded post; 0 means
	// DefaultMaxFormBytes. Code runs keep MaxBodyBytes.
	MaxFormBytes int64
	// Observer, if set, is told of every answered request (package
	// metrics implements it).
	Observer Observer
	// LTI takes launches from LMSs (see lti.go); nil, as on a server
	// without a public URL, refuses them with a page saying so.
	LTI LTI
}

// Observer is told of every request the server answers, for metrics.
type Observer interface {
	// ObserveRequest reports one request: the route pattern that matched
	// ("" for none), its method, the status written (0 for none: the
	// client left) and how long it took.
	ObserveRequest(route, method string, status int, took time.Duration)
	// NotServed reports a request not served for a reason that is no
	// failure of the server: "busy", "rate_limited" or "client_gone".
	NotServed(reason string)
}

// noObserver observes nothing.
type noObserver struct{}

func (noObserver) ObserveRequest(string, string, int, time.Duration) {}
func (noObserver) NotServed(string)                                  {}

// Server handles every HTTP request of the app.
type Server struct {
	app     *progress.Service
	assets  *static.Assets
	log     *slog.Logger
	ids     *identity
	maxBody int64
	ready   []ReadyCheck
	handler http.Handler

	pages pageCache
	// zip pools the compressors of drawn answers (compress.go).
	zip compressors
	// kept keeps drawn lesson pages and their gzip forms (compress.go).
	kept keptPages
	// qas keeps drawn Q&A sections by viewer (etag.go).
	qas     qaSections
	dev     *devHub // nil unless Config.Dev
	guide   *guide
	maxForm int64
	// quiet counts the answers that are not server failures (overload,
	// rate limits, clients gone) and logs them as a summary.
	quiet *quietLog
	obs   Observer
	lti   LTI
	// dlSeal keeps deep linking requests in the browser (lti_deeplink.go);
	// continueSeal the codes that continue a framed launch in a new tab
	// (lti_frame.go); dlFrameSeal the requests of pickers in frames that
	// keep no cookie (lti_deeplink_frame.go).
	dlSeal, continueSeal, dlFrameSeal *sealer
	// linkSeal seals a proven link while the learner confirms it
	// (lti_link.go).
	linkSeal *sealer
}

// New builds a server from cfg.
func New(cfg Config) (*Server, error) {
	if cfg.App == nil || cfg.Assets == nil {
		return nil, fmt.Errorf("web: new server: app and assets are required")
	}
	for _, k := range append([][]byte{cfg.CookieKey}, cfg.OldCookieKeys...) {
		if len(k) < 32 {
			return nil, fmt.Errorf("web: new server: a cookie key must have at least 32 bytes, got %d", len(k))
		}
	}
	s := &Server{
		app:     cfg.App,
		assets:  cfg.Assets,
		log:     cfg.Logger,
		ids:     newIdentity(cfg.CookieKey, cfg.OldCookieKeys...),
		maxBody: cfg.MaxBodyBytes,
		ready:   cfg.Ready,
		lti:     cfg.LTI,
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBodyBytes
	}
	s.maxForm = cfg.MaxFormBytes
	if s.maxForm <= 0 {
		s.maxForm = DefaultMaxFormBytes
	}
	obs := cfg.Observer
	if obs == nil {
		obs = noObserver{}
	}
	if cfg.Dev {
		s.dev = newDevHub()
	}
	g, err := newGuide()
	if err != nil {
		return nil, err
	}
	s.guide = g
	keys := append([][]byte{cfg.CookieKey}, cfg.OldCookieKeys...)
	if s.dlSeal, err = newDeepLinkSeal(keys); err != nil {
		return nil, err
	}
	if s.dlFrameSeal, err = newDeepLinkFrameSeal(keys); err != nil {
		return nil, err
	}
	if s.continueSeal, err = newSealer(keys, "learn: LTI continue in a new tab", "learn_lti_continue"); err != nil {
		return nil, err
	}
	if s.linkSeal, err = newLinkSeal(keys); err != nil {
		return nil, err
	}
	s.obs = obs
	s.quiet = newQuietLog(s.log, time.Minute, obs)
	s.handler = s.routes()
	return s, nil
}

// SetCourse replaces the course being served, for reloading in
// development; the old course stays when the new one cannot be graded.
// Pages drawn from the old course are dropped.
func (s *Server) SetCourse(c *lessons.Course) error {
	if err := s.app.SetCourse(c); err != nil {
		return err
	}
	s.pages.mu.Lock()
	s.pages.skeletons, s.pages.quizzes, s.pages.maps = nil, nil, nil
	s.pages.mu.Unlock()
	s.qas.mu.Lock()
	s.qas.m = nil
	s.qas.mu.Unlock()
	s.kept.drop()
	return nil
}

// course returns the course being served.
func (s *Server) course() *lessons.Course { return s.app.Course() }

// now is the core's clock.
func (s *Server) now() time.Time { return s.app.Now() }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler.ServeHTTP(w, r)
}

// page returns the layout's view model for a page titled title.
func (s *Server) page(r *http.Request, title, nav string) Page {
	info := s.course().Info
	p := Page{
		Title:  title,
		Course: CourseLine{Title: info.Title, Brand: info.Brand, Authors: strings.Join(info.Authors, ", "), Licence: info.Licence, Language: info.Language},
		Nav:    nav,
		// The highlighter's stylesheet first, so the app's own rules (theme
		// colours with enough contrast) win where both apply.
		Stylesheet: []string{s.assets.URL("highlight.css"), s.assets.URL("app.css")},
		Learner:    s.badgeFrom(r.Context()),
		Icon:       s.assets.URL("favicon.svg"),
	}
	if s.assets.Has("app.js") {
		p.Scripts = append(p.Scripts, s.assets.URL("app.js"))
	}
	if s.dev != nil {
		p.DevEvents = "/dev/events"
		if s.assets.Has("dev.js") {
			p.Scripts = append(p.Scripts, s.assets.URL("dev.js"))
		}
	}
	return p
}
