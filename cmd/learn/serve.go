package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"learn/grading"
	"learn/lessons"
	"learn/metrics"
	"learn/progress"
	"learn/sandbox"
	"learn/static"
	"learn/web"
)

// serveConfig is everything "learn serve" is configured with.
type serveConfig struct {
	addr          string
	db            string
	lessons       string
	logLevel      slog.Level
	dev           bool
	sandbox       sandbox.Config
	runsPerMinute int
	// runBurst is how many runs one learner may start at once.
	runBurst int
	// Limits per client address (0 turns one off) and per learner.
	runsPerAddress, postsPerMinute, postsPerAddress int
	// metricsAddr, when set, serves /metrics there.
	metricsAddr string
	// keyGrace is how long a rotated-out cookie key still verifies; 0
	// means defaultKeyGrace.
	keyGrace time.Duration
	// publicURL is learn's public https origin; LTI launches need it.
	publicURL string
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var cfg serveConfig
	fs := flagSet("serve", "Run the learn web app: the course, its quizzes and the Python sandbox.", stderr)
	fs.StringVar(&cfg.addr, "addr", "localhost:8080", "`host:port` to listen on; use :8080 to accept other machines of a classroom")
	fs.StringVar(&cfg.db, "db", "learn.db", "SQLite database `file`, created if missing, or a postgres:// URL shared by several servers")
	fs.StringVar(&cfg.lessons, "lessons", "", "serve the course in this `folder` instead of the built-in one")
	fs.TextVar(&cfg.logLevel, "log-level", slog.LevelInfo, "log `level`: debug, info, warn or error")
	fs.BoolVar(&cfg.dev, "dev", false, "development mode: readable logs; with --lessons, open pages reload when a file changes and show the course's problems")
	fs.IntVar(&cfg.runsPerMinute, "runs-per-minute", progress.DefaultRunsPerMinute, "`number` of code runs one learner may start per minute; past it the server answers 429")
	fs.IntVar(&cfg.runBurst, "run-burst", progress.DefaultRunBurst, "`number` of code runs one learner may start at once before --runs-per-minute paces them")
	fs.IntVar(&cfg.runsPerAddress, "runs-per-minute-per-address", progress.DefaultRunsPerMinutePerAddress,
		"`number` of code runs all learners behind one client address may start together per minute; raise it for a large classroom behind one NAT address, 0 turns it off")
	fs.IntVar(&cfg.postsPerMinute, "posts-per-minute", progress.DefaultAnswersPerMinute, "`number` of graded answers (checks, quizzes, reviews) one learner may post per minute")
	fs.IntVar(&cfg.postsPerAddress, "posts-per-minute-per-address", progress.DefaultAnswersPerMinutePerAddress,
		"`number` of graded answers all learners behind one client address may post together per minute; 0 turns it off")
	fs.DurationVar(&cfg.keyGrace, "key-grace", defaultKeyGrace, "how long cookies signed with a key replaced by \"learn rotate-keys\" still verify (a `duration`)")
	fs.StringVar(&cfg.publicURL, "public-url", "", "learn's public HTTPS `origin` (such as https://learn.school.example) as browsers and LMSs reach it; LTI launches need it and are refused without it")
	fs.StringVar(&cfg.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://`host:port`/metrics; off when empty")
	var sf sandboxFlags
	sf.add(fs)
	workerNice := fs.Int("worker-nice", sandbox.ServerWorkerNice, "how much lower than the server's the sandbox workers' CPU priority is (a nice `increment`, 0 to 19), so pages and posts come first when grading keeps every core busy")
	if err := parseFlags(fs, args, withEnv(fs)); err != nil {
		return err
	}
	var err error
	if cfg.sandbox, err = sf.config(); err != nil {
		return err
	}
	cfg.sandbox.WorkerNice = *workerNice
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "learn serve: unexpected argument %q\n", fs.Arg(0))
		return errUsage
	}
	if cfg.runsPerMinute <= 0 || cfg.runBurst <= 0 || cfg.postsPerMinute <= 0 || cfg.runsPerAddress < 0 || cfg.postsPerAddress < 0 {
		return fmt.Errorf("limits must be above 0 (per-address ones 0 for none): --runs-per-minute %d, --run-burst %d, --posts-per-minute %d, "+
			"--runs-per-minute-per-address %d, --posts-per-minute-per-address %d",
			cfg.runsPerMinute, cfg.runBurst, cfg.postsPerMinute, cfg.runsPerAddress, cfg.postsPerAddress)
	}
	if cfg.publicURL != "" {
		if _, err := parsePublicURL(cfg.publicURL); err != nil {
			fmt.Fprintf(stderr, "learn serve: --public-url: %v\n", err)
			return errUsage
		}
	}
	log := newLogger(stderr, cfg.logLevel, cfg.dev)
	tuneServerGC()
	return serve(ctx, cfg, log, nil)
}

func newLogger(w io.Writer, level slog.Level, dev bool) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if dev {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// loadCourse loads the course folder dir (through lessons.OpenFolder, so
// nothing outside it is read), or the built-in course when dir is "". It
// returns the course of the lessons without errors of their own (see
// lessons.LoadSound), the name to speak of it by, and every problem found.
func loadCourse(dir string) (*lessons.Course, string, lessons.Problems, error) {
	if dir == "" {
		c, ps, err := lessons.LoadSound(lessons.BuiltIn())
		return c, "built-in course", ps, err
	}
	fsys, closer, err := lessons.OpenFolder(dir)
	if err != nil {
		return nil, dir, nil, err
	}
	defer closer.Close()
	c, ps, err := lessons.LoadSound(fsys)
	return c, dir, ps, err
}

// loadSoundCourse is loadCourse for a command that needs the whole course:
// a course with errors is an error listing every problem.
func loadSoundCourse(dir string) (*lessons.Course, string, error) {
	course, name, problems, err := loadCourse(dir)
	if err != nil {
		return nil, name, err
	}
	if len(problems.Errors()) > 0 {
		return nil, name, fmt.Errorf("load %s:\n%w", name, problems)
	}
	return course, name, nil
}

// serve runs the server until ctx is cancelled, then shuts down in reverse
// order of start. If listening is non-nil it receives the bound address
// once the server accepts connections (tests use it with port 0).
//
// In development mode on a course folder a broken course does not stop
// it: the lessons without errors are served and every page shows the
// problems until they are fixed.
func serve(ctx context.Context, cfg serveConfig, log *slog.Logger, listening chan<- string) error {
	devCourse := cfg.dev && cfg.lessons != ""
	course, courseName, problems, err := loadCourse(cfg.lessons)
	if err != nil {
		return err
	}
	if len(problems.Errors()) > 0 && !devCourse {
		return fmt.Errorf("load %s:\n%w\nfix these, then check again with \"learn check %s\" (or serve with --dev to see them on the pages)", courseName, problems, cfg.lessons)
	}
	log.Info("course loaded", "course", courseName, "lessons", len(course.Lessons))

	st, invalidator, err := openDatabase(ctx, cfg.db, log)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("close database", "err", err)
		}
	}()
	grace := cfg.keyGrace
	if grace <= 0 {
		grace = defaultKeyGrace
	}
	key, oldKeys, err := cookieKeys(ctx, st, grace, time.Now())
	if err != nil {
		return err
	}
	highlight, err := lessons.HighlightCSS()
	if err != nil {
		return err
	}
	assets, err := static.New(map[string][]byte{"highlight.css": highlight})
	if err != nil {
		return err
	}
	cfg.sandbox.Logger = log.With("component", "sandbox")
	box, err := sandbox.New(cfg.sandbox)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := box.Close(ctx); err != nil {
			log.Error("close sandbox", "err", err)
		}
	}()
	warmCtx, stopWarm := context.WithCancel(ctx)
	defer stopWarm()
	go func() {
		// Pages are served while the interpreter compiles; /readyz says
		// ready once this ends.
		if err := box.Warm(warmCtx, func(msg string) { log.Info(msg, "component", "sandbox") }); err != nil && warmCtx.Err() == nil {
			log.Error("sandbox warm-up failed; exercises cannot run until this is fixed", "err", err)
		}
	}()
	var (
		grader    grading.Runner = box
		appStore  progress.Store = st
		observer  web.Observer
		collector *metrics.Metrics
	)
	if cfg.metricsAddr != "" {
		collector = metrics.New()
		collector.Sandbox(box.Config())
		collector.SandboxStats(box.Stats)
		grader, appStore, observer = collector.Runner(grader), collector.Store(st), collector
	}
	rosters, err := ltiRosters(cfg, st)
	if err != nil {
		return err
	}
	app, err := progress.New(progress.Config{Course: course, Store: appStore, Grader: grader, Invalidator: invalidator, Limiter: rateLimiter(cfg.db, st), LTI: st, Rosters: rosters,
		Limits: progress.Limits{RunsPerMinute: cfg.runsPerMinute, RunBurst: cfg.runBurst, RunsPerMinutePerAddress: offIfZero(cfg.runsPerAddress),
			AnswersPerMinute: cfg.postsPerMinute, AnswersPerMinutePerAddress: offIfZero(cfg.postsPerAddress)}})
	if err != nil {
		return err
	}
	webLTI, err := ltiTool(ctx, cfg, st, grace, log)
	if err != nil {
		return err
	}
	if webLTI != nil {
		stopScores, err := startScoreSender(ctx, st, log)
		if err != nil {
			return err
		}
		defer stopScores()
	}
	srv, err := web.New(web.Config{
		App: app, Assets: assets, Logger: log, CookieKey: key, OldCookieKeys: oldKeys, Observer: observer, LTI: webLTI,
		Dev:   devCourse,
		Ready: []web.ReadyCheck{{Name: "sandbox", Check: func(context.Context) error { return sandboxReadiness(box) }}},
	})
	if err != nil {
		return err
	}
	if devCourse {
		go watchCourse(ctx, cfg.lessons, srv, box, course, problems, log)
	}

	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (is another learn already running? pick another with --addr)", cfg.addr, err)
	}
	// One write per answer where net/http would make two (web/conn.go).
	ln = web.OneWriteListener(ln)
	httpServer := &http.Server{
		Handler:           srv,
		ConnContext:       web.ConnContext,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      writeTimeout(cfg.sandbox),
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	// Development event streams never end by themselves.
	httpServer.RegisterOnShutdown(srv.CloseEvents)
	if collector != nil {
		stopMetrics, err := serveMetrics(cfg.metricsAddr, collector, log)
		if err != nil {
			ln.Close()
			return err
		}
		defer stopMetrics()
	}
	served := make(chan error, 1)
	go func() { served <- httpServer.Serve(ln) }()
	local, network := learnerURLs(ln.Addr(), interfaceAddrs())
	if len(network) > 0 {
		log.Info("serving", "url", local, "db", dbName(cfg.db), "network", strings.Join(network, " "))
	} else {
		log.Info("serving", "url", local, "db", dbName(cfg.db))
	}
	if listening != nil {
		listening <- ln.Addr().String()
	}

	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := httpServer.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}

// learnerURLs returns the address to open on this machine for a server
// listening at addr, and for a listener on every interface (such as ":8080",
// which binds [::] or 0.0.0.0, an address nobody can type) the address of
// each of the machine's other interfaces, for the other machines of a
// classroom.
func learnerURLs(addr net.Addr, ifaces []net.IP) (local string, network []string) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String(), nil
	}
	port := strconv.Itoa(tcp.Port)
	if !tcp.IP.IsUnspecified() {
		return "http://" + net.JoinHostPort(tcp.IP.String(), port), nil
	}
	for _, ip := range ifaces {
		if ip.IsLoopback() || ip.IsLinkLocalUnicast() || (tcp.IP.To4() != nil && ip.To4() == nil) {
			continue
		}
		network = append(network, "http://"+net.JoinHostPort(ip.String(), port))
	}
	return "http://" + net.JoinHostPort("localhost", port), network
}

// interfaceAddrs returns the IP addresses of the machine's interfaces, or
// none when they cannot be read.
func interfaceAddrs() []net.IP {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var ips []net.IP
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			ips = append(ips, n.IP)
		}
	}
	return ips
}

// sandboxReadiness is the sandbox's /readyz answer: nil when ready, else
// the reason, such as the interpreter still warming up or missing with its
// fix, without the "sandbox: " prefix the check's name already gives.
func sandboxReadiness(box *sandbox.Sandbox) error {
	err := box.ReadyErr()
	if err == nil {
		return nil
	}
	return errors.New(strings.TrimPrefix(err.Error(), "sandbox: "))
}

// serveMetrics serves /metrics on its own listener at addr, apart from the
// app so that it can stay on a private address, and returns what stops it.
func serveMetrics(addr string, m *metrics.Metrics, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen for metrics on %s: %w (pick another with --metrics-addr)", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener stopped", "err", err)
		}
	}()
	log.Info("serving metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			log.Warn("stop metrics listener", "err", err)
		}
	}, nil
}

// coursePoll is how often watchCourse looks at the course folder: often
// enough that a saved file shows in the browser within a second, and one
// directory listing each time, which costs next to nothing.
const coursePoll = 250 * time.Millisecond

// watchCourse reloads the course when a file of dir, or of a folder in it
// such as an image, changes (names, sizes and modification times are
// compared), and tells srv:
// open pages reload, or show every problem while the folder has any. The
// last good course is served meanwhile. course and problems are what was
// loaded at start. After each load the exercises' reference solutions and
// starters run in box (see devCheck).
func watchCourse(ctx context.Context, dir string, srv *web.Server, box grading.Runner, course *lessons.Course, problems lessons.Problems, log *slog.Logger) {
	stopCheck := func() {}
	defer func() { stopCheck() }()
	showAndCheck := func(c *lessons.Course, ps lessons.Problems) {
		if len(ps.Errors()) > 0 {
			srv.ShowProblems(ps)
			log.Warn("course has problems; pages show them until they are fixed", "problems", ps.Error())
		}
		stopCheck()
		var checkCtx context.Context
		checkCtx, stopCheck = context.WithCancel(ctx)
		go devCheck(checkCtx, srv, box, c, ps.Errors(), log)
	}
	showAndCheck(course, problems)
	last := courseStamp(dir)
	tick := time.NewTicker(coursePoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		stamp := courseStamp(dir)
		if stamp == last {
			continue
		}
		last = stamp
		c, _, ps, err := loadCourse(dir)
		if err != nil {
			srv.ShowProblems(lessons.Problems{{File: ".", Message: err.Error()}})
			log.Warn("course not reloaded", "err", err)
			continue
		}
		if len(ps.Errors()) == 0 {
			if err := srv.Reload(c); err != nil {
				log.Warn("course not reloaded", "err", err)
				continue
			}
			log.Info("course reloaded", "lessons", len(c.Lessons), "warnings", len(c.Warnings))
		}
		showAndCheck(c, ps)
	}
}

// devCheck runs the reference solution and the starter of every exercise
// of c in box, as learn check does, and when one fails (or passes) shows it
// on the pages with its diff, after errs, the folder's other errors. It
// gives up silently once ctx ends (a newer version of the course is being
// checked).
func devCheck(ctx context.Context, srv *web.Server, box grading.Runner, c *lessons.Course, errs lessons.Problems, log *slog.Logger) {
	jobs, failed := exerciseJobs(c, nil)
	ps, err := runExercises(ctx, box, jobs, false, func(string) {})
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		log.Warn("exercises of the course not checked", "err", err)
		return
	}
	failed = append(failed, ps...)
	if len(failed) == 0 {
		return
	}
	all := append(errs, failed...)
	srv.ShowProblems(all)
	log.Warn("exercises of the course fail their checks; pages show them until they are fixed", "problems", lessons.Problems(failed).Error())
}

// maxStampFiles bounds the files courseStamp looks at, so a folder holding
// far more than a course costs no more than a course.
const maxStampFiles = 5000

// courseStamp summarises the names, sizes and times of the files in dir
// and the folders inside it (where images and downloads may be), but
// hidden ones such as .git.
func courseStamp(dir string) string {
	var stamp strings.Builder
	n := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && strings.HasPrefix(e.Name(), ".") {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > maxStampFiles {
			return filepath.SkipAll
		}
		if info, err := e.Info(); err == nil {
			fmt.Fprintf(&stamp, "%s:%d:%d;", p, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	if err != nil {
		return err.Error()
	}
	return stamp.String()
}

// offIfZero maps a flag's 0 ("no limit") to progress.Limits' negative.
func offIfZero(n int) int {
	if n == 0 {
		return -1
	}
	return n
}
