// Package metrics counts what the learn server does, for Prometheus: HTTP
// requests by route pattern and status, requests not served (overload,
// rate limits, clients gone), grading time and verdicts, XP awards, and the
// sandbox's configured pool sizes, besides the Go runtime and process
// figures (memory, CPU, open files).
//
// A Metrics holds its own registry, never the library's global one, and is
// served only on the listener main opens for it (learn serve
// --metrics-addr). It observes through decorators: Runner wraps the
// grader, Store (or Learning, its part) wraps the core's store, and the
// web server calls ObserveRequest and NotServed from its middleware.
package metrics

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"learn/grading"
	"learn/progress"
	"learn/sandbox"
)

// Metrics is one server's collectors. The zero value is not usable; build
// one with New. It is safe for concurrent use.
type Metrics struct {
	reg       *prometheus.Registry
	requests  *prometheus.CounterVec
	latency   *prometheus.HistogramVec
	notServed *prometheus.CounterVec
	grading   *prometheus.HistogramVec
	queueWait *prometheus.HistogramVec
	inFlight  prometheus.Gauge
	verdicts  *prometheus.CounterVec
	awards    *prometheus.CounterVec
	xp        *prometheus.CounterVec
}

// New returns collectors registered in a fresh registry, with the Go
// runtime's and this process's.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "learn_http_requests_total", Help: "HTTP requests answered, by route pattern, method and status (status \"none\" when the client left before any answer).",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "learn_http_request_duration_seconds", Help: "Time to answer an HTTP request, by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
		}, []string{"route"}),
		notServed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "learn_http_not_served_total", Help: "Requests not served for a reason that is no server failure: busy (503), rate_limited (429), client_gone.",
		}, []string{"reason"}),
		grading: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "learn_grading_duration_seconds", Help: "Time a grading call took, waiting for a sandbox slot included, by call (grade, mcp, run) and outcome (graded, busy, too_large, canceled, error).",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 3, 5, 8, 13, 20, 30, 60},
		}, []string{"call", "outcome"}),
		queueWait: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "learn_grading_queue_wait_seconds", Help: "Time a graded call waited for a sandbox slot and an interpreter before its code ran (the call's time less the run's), by call (grade, mcp).",
			Buckets: []float64{.001, .005, .01, .05, .1, .25, .5, 1, 2, 3, 5, 8, 13, 20, 30},
		}, []string{"call"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "learn_grading_in_flight", Help: "Grading calls running or waiting for a sandbox slot now.",
		}),
		verdicts: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "learn_grading_verdicts_total", Help: "Graded cases by verdict.",
		}, []string{"verdict"}),
		awards: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "learn_awards_total", Help: "XP awards granted, by what earned them (classify, annotate, quiz, exercise, review).",
		}, []string{"kind"}),
		xp: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "learn_awarded_xp_total", Help: "XP granted, by what earned it.",
		}, []string{"kind"}),
	}
	m.reg.MustRegister(m.requests, m.latency, m.notServed, m.grading, m.queueWait, m.inFlight, m.verdicts, m.awards, m.xp,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// ObserveRequest counts one answered request. route is the pattern that
// matched ("" when none did); status 0 means nothing was written.
func (m *Metrics) ObserveRequest(route, method string, status int, d time.Duration) {
	if route == "" {
		route = "unrouted"
	}
	code := "none"
	if status != 0 {
		code = strconv.Itoa(status)
	}
	m.requests.WithLabelValues(route, method, code).Inc()
	m.latency.WithLabelValues(route).Observe(d.Seconds())
}

// NotServed counts one request not served for reason (busy, rate_limited,
// client_gone).
func (m *Metrics) NotServed(reason string) { m.notServed.WithLabelValues(reason).Inc() }

// SandboxStats publishes a sandbox's counters (runs, busy answers,
// abandoned waits, timeouts, crashes) and the submissions in flight, read
// from stats at each scrape.
func (m *Metrics) SandboxStats(stats func() sandbox.Stats) {
	counters := map[string]func(sandbox.Stats) uint64{
		"runs": func(s sandbox.Stats) uint64 { return s.Runs }, "busy": func(s sandbox.Stats) uint64 { return s.Busy },
		"abandoned": func(s sandbox.Stats) uint64 { return s.Abandoned }, "timeouts": func(s sandbox.Stats) uint64 { return s.Timeouts },
		"crashes": func(s sandbox.Stats) uint64 { return s.Crashes },
	}
	for name, get := range counters {
		m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "learn_sandbox_events_total", Help: "The sandbox's counters since start: runs, busy answers, waits abandoned by their client, runs stopped at their deadline, interpreters that crashed.",
			ConstLabels: prometheus.Labels{"event": name},
		}, func() float64 { return float64(get(stats())) }))
	}
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "learn_sandbox_in_flight", Help: "Submissions running or waiting in the sandbox now.",
	}, func() float64 { return float64(stats().InFlight) }))
}

// Sandbox publishes a sandbox's configured sizes as gauges: slots running
// at once, queue length, and the plain and MCP warm pools.
func (m *Metrics) Sandbox(cfg sandbox.Config) {
	for name, v := range map[string]int{"slots": cfg.MaxConcurrent, "queue": cfg.QueueSize, "warm_pool": cfg.PoolSize, "mcp_warm_pool": cfg.MCPPoolSize} {
		g := prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "learn_sandbox_configured", Help: "The sandbox's configured sizes.", ConstLabels: prometheus.Labels{"size": name},
		})
		g.Set(float64(v))
		m.reg.MustRegister(g)
	}
}

// Runner returns r with every call timed and its verdicts counted.
func (m *Metrics) Runner(r grading.Runner) grading.Runner { return &runner{Runner: r, m: m} }

type runner struct {
	grading.Runner
	m *Metrics
}

func (r *runner) Grade(ctx context.Context, code string, cases []sandbox.Case, cmp sandbox.Comparison) (sandbox.Report, error) {
	done := r.m.start("grade")
	rep, err := r.Runner.Grade(ctx, code, cases, cmp)
	done(ctx, graded{cases: rep.Cases, ran: rep.Ran}, err)
	return rep, err
}

func (r *runner) GradeMCP(ctx context.Context, code string, calls []sandbox.MCPCall, opt sandbox.MCPOptions) (sandbox.MCPReport, error) {
	done := r.m.start("mcp")
	rep, err := r.Runner.GradeMCP(ctx, code, calls, opt)
	done(ctx, graded{cases: rep.Cases, ran: rep.Ran}, err)
	return rep, err
}

func (r *runner) Run(ctx context.Context, code, stdin string) (sandbox.RunResult, error) {
	done := r.m.start("run")
	res, err := r.Runner.Run(ctx, code, stdin)
	done(ctx, graded{}, err)
	return res, err
}

// graded is what a finished grading call tells the metrics: its cases and
// how long its code ran (0 when unknown).
type graded struct {
	cases []sandbox.CaseResult
	ran   time.Duration
}

// start counts a grading call in flight and returns what ends it.
func (m *Metrics) start(call string) func(ctx context.Context, g graded, err error) {
	began := time.Now()
	m.inFlight.Inc()
	return func(ctx context.Context, g graded, err error) {
		m.inFlight.Dec()
		took := time.Since(began)
		m.grading.WithLabelValues(call, outcome(ctx, err)).Observe(took.Seconds())
		if err == nil {
			for _, c := range g.cases {
				m.verdicts.WithLabelValues(string(c.Verdict)).Inc()
			}
			if g.ran > 0 && g.ran <= took {
				m.queueWait.WithLabelValues(call).Observe((took - g.ran).Seconds())
			}
		}
	}
}

// outcome names how a grading call ended.
func outcome(ctx context.Context, err error) string {
	switch {
	case err == nil:
		return "graded"
	case errors.Is(err, sandbox.ErrBusy):
		return "busy"
	case errors.Is(err, sandbox.ErrCodeTooLarge):
		return "too_large"
	case ctx.Err() != nil:
		return "canceled"
	}
	return "error"
}

// Learning returns the learning part of a store with every granted award
// counted by kind.
func (m *Metrics) Learning(s progress.LearningStore) progress.LearningStore {
	return &countingLearning{LearningStore: s, m: m}
}

// Store returns s with its learning part counted (see Learning); every
// other part, the rate limiter among them, is s's own.
func (m *Metrics) Store(s progress.Store) progress.Store {
	return &countingStore{Store: s, learning: &countingLearning{LearningStore: s, m: m}}
}

// countingStore is a Store whose award-granting methods go through
// countingLearning.
type countingStore struct {
	progress.Store
	learning *countingLearning
}

func (s *countingStore) RecordAttempt(ctx context.Context, a progress.Attempt, fx progress.AttemptEffects) (bool, error) {
	return s.learning.RecordAttempt(ctx, a, fx)
}

func (s *countingStore) RecordSubmission(ctx context.Context, sub progress.Submission, award *progress.Award) (bool, error) {
	return s.learning.RecordSubmission(ctx, sub, award)
}

func (s *countingStore) AnswerReview(ctx context.Context, a progress.ReviewAnswer) (bool, bool, error) {
	return s.learning.AnswerReview(ctx, a)
}

type countingLearning struct {
	progress.LearningStore
	m *Metrics
}

func (s *countingLearning) RecordAttempt(ctx context.Context, a progress.Attempt, fx progress.AttemptEffects) (bool, error) {
	granted, err := s.LearningStore.RecordAttempt(ctx, a, fx)
	if granted && fx.Award != nil {
		s.m.award(a.Kind, fx.Award.Amount)
	}
	return granted, err
}

func (s *countingLearning) RecordSubmission(ctx context.Context, sub progress.Submission, award *progress.Award) (bool, error) {
	granted, err := s.LearningStore.RecordSubmission(ctx, sub, award)
	if granted && award != nil {
		s.m.award("exercise", award.Amount)
	}
	return granted, err
}

func (s *countingLearning) AnswerReview(ctx context.Context, a progress.ReviewAnswer) (bool, bool, error) {
	applied, granted, err := s.LearningStore.AnswerReview(ctx, a)
	if granted && a.Award != nil {
		s.m.award("review", a.Award.Amount)
	}
	return applied, granted, err
}

func (m *Metrics) award(kind string, xp int) {
	m.awards.WithLabelValues(kind).Inc()
	m.xp.WithLabelValues(kind).Add(float64(xp))
}
