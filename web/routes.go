package web

import (
	"net/http"

	"learn/grading"
	"learn/lessons"
	"learn/lti"
)

// routes lists every route of the app in one place.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", s.assets)
	mux.HandleFunc("GET /favicon.ico", s.favicon)
	mux.Handle("GET "+lessons.AssetPrefix+"{hash}/{name}", s.handle(s.courseFile))
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)

	mux.Handle("GET /{$}", s.handle(s.homeShow))
	mux.Handle("GET /lessons/{slug}", s.handle(s.lessonShow))
	mux.Handle("GET /lessons/{slug}/widgets/{id}", s.handle(s.widgetShow))
	mux.Handle("POST /lessons/{slug}/widgets/{id}", s.capForm(s.handle(s.graded(s.widgetCheck))))
	mux.Handle("POST /lessons/{slug}/exercises/{id}", s.handle(s.exerciseForm))
	mux.Handle("POST /lessons/{slug}/exercises/{id}/hints", s.handle(s.exerciseHint))
	mux.Handle("POST /api/exercises/{id}/run", s.handle(s.apiExercise(grading.Run)))
	mux.Handle("POST /api/exercises/{id}/submit", s.handle(s.apiExercise(grading.Submit)))
	mux.Handle("POST /lessons/{slug}/questions", s.handle(s.questionAsk))
	mux.Handle("POST /questions/{id}/answers", s.handle(s.questionAnswer))
	mux.Handle("POST /posts/{id}/edit", s.handle(s.postEdit))
	mux.Handle("POST /posts/{id}/accept", s.handle(s.postAction(s.postAccept)))
	mux.Handle("POST /posts/{id}/helpful", s.handle(s.postAction(s.postHelpful)))
	mux.Handle("POST /posts/{id}/delete", s.handle(s.postAction(s.postDelete)))
	mux.Handle("POST /posts/{id}/report", s.handle(s.postAction(s.postReport)))
	mux.Handle("POST /posts/{id}/hide", s.handle(s.postAction(s.postHide)))
	mux.Handle("POST /posts/{id}/restore", s.handle(s.postAction(s.postRestore)))
	mux.Handle("POST /qa/name", s.handle(s.qaName))
	mux.Handle("GET /notices", s.handle(s.noticesShow))
	mux.Handle("GET /notices/{id}", s.handle(s.noticeOpen))
	mux.Handle("POST /notices/read", s.handle(s.noticesRead))
	mux.Handle("GET /review", s.handle(s.reviewShow))
	mux.Handle("POST /review", s.capForm(s.handle(s.graded(s.reviewAnswer))))
	mux.Handle("GET /progress", s.handle(s.progressShow))
	mux.Handle("GET /guide", s.handle(s.guideShow))
	if s.dev != nil {
		mux.HandleFunc("GET /dev/events", s.devEvents)
	}

	mux.Handle("GET /signin", s.handle(s.signInShow))
	mux.Handle("POST /signin", s.handle(s.signIn))
	mux.Handle("POST /signout", s.handle(s.signOut))
	mux.Handle("GET /account/password", s.handle(s.passwordShow))
	mux.Handle("POST /account/password", s.handle(s.passwordChange))
	mux.Handle("GET /teachers", s.handle(s.teachersShow))
	mux.Handle("GET /stats", s.handle(s.statsShow))
	mux.Handle("GET /moderation", s.handle(s.moderationShow))
	mux.Handle("GET /classes", s.handle(s.classesShow))
	mux.Handle("POST /classes", s.handle(s.classCreate))
	mux.Handle("GET /classes/{id}", s.handle(s.classShow))
	mux.Handle("POST /classes/{id}/settings", s.handle(s.classSettings))
	mux.Handle("POST /classes/{id}/assignments", s.handle(s.classAssign))
	mux.Handle("POST /classes/{id}/assignments/{slug}/delete", s.handle(s.classUnassign))
	mux.Handle("POST /classes/{id}/delete", s.handle(s.classDelete))
	mux.Handle("POST /classes/{id}/teachers", s.handle(s.coTeacherAdd))
	mux.Handle("POST /classes/{id}/teachers/{teacher}/remove", s.handle(s.coTeacherRemove))
	mux.Handle("POST /classes/{id}/lms-roster", s.handle(s.classLMSRoster))
	mux.Handle("GET /classes/{id}/export.csv", s.handle(s.classExport))
	mux.Handle("GET /classes/{id}/learners/{learner}", s.handle(s.classLearner))
	mux.Handle("POST /classes/{id}/learners/{learner}/secret", s.handle(s.learnerSecret))
	mux.Handle("POST /classes/{id}/learners/{learner}/remove", s.handle(s.learnerRemove))
	mux.Handle("POST /classes/{id}/learners/{learner}/restore", s.handle(s.learnerRestore))
	mux.Handle("POST /classes/{id}/learners/{learner}/quiz/{slug}/reset", s.handle(s.learnerResetQuiz))
	mux.Handle("POST /classes/{id}/learners/{learner}/exercise/{exercise}/reset", s.handle(s.learnerResetExercise))
	mux.Handle("POST /classes/{id}/learners/{learner}/extensions/{slug}", s.handle(s.learnerExtend))
	mux.Handle("GET /classes/{id}/sheet", s.handle(s.classSheet))
	mux.Handle("GET /classes/{id}/projector", s.handle(s.classProjector))
	mux.Handle("POST /classes/{id}/leave", s.handle(s.leave))
	mux.Handle("GET /join", s.handle(s.joinShow))
	mux.Handle("POST /join", s.handle(s.join))
	mux.Handle("GET /join/signin", s.handle(s.joinSignInShow))
	mux.Handle("POST /join/signin", s.handle(s.joinSignIn))
	mux.Handle("GET "+lti.JWKSPath, s.handle(s.ltiKeySet))
	mux.Handle("GET "+lti.LoginPath, s.handle(s.ltiLogin))
	mux.Handle("POST "+lti.LoginPath, s.handle(s.ltiLogin))
	mux.Handle("POST "+lti.LaunchPath, s.handle(s.ltiLaunch))
	mux.Handle("POST "+lti.DeepLinkPath, s.handle(s.ltiDeepLink))
	mux.Handle("POST "+ContinuePath, s.handle(s.continueLTI))
	mux.Handle("GET "+lti.RegisterPath, s.handle(s.ltiRegisterShow))
	mux.Handle("POST "+lti.RegisterPath, s.handle(s.ltiRegister))
	mux.Handle("GET /me", s.handle(s.meShow))
	mux.Handle("POST /me/signout-others", s.handle(s.signOutElsewhere))
	mux.Handle("GET /me/delete", s.handle(s.deleteMeShow))
	mux.Handle("POST /me/delete", s.handle(s.deleteMe))
	mux.Handle("GET "+LinkPath, s.handle(s.linkShow))
	mux.Handle("POST "+LinkPath, s.handle(s.linkProve))
	mux.Handle("POST "+LinkConfirmPath, s.handle(s.linkConfirm))

	// No catch-all route: the mux's own 404 and 405 (with Allow) are drawn
	// as pages by unrouted.
	var h http.Handler = s.unrouted(mux)
	// The LMS posts the login initiation and the launch from its own
	// origin; they stand on their own proofs (lti.go), and every other
	// unsafe request keeps the protection.
	cop := http.NewCrossOriginProtection()
	cop.AddInsecureBypassPattern("POST " + lti.LoginPath)
	cop.AddInsecureBypassPattern("POST " + lti.LaunchPath)
	h = cop.Handler(h)
	h = s.limitBody(h)
	h = s.framing(h)
	h = securityHeaders(h)
	h = s.recoverPanics(h)
	h = s.compress(h)
	h = s.logRequests(h)
	return h
}
