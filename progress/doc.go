// Package progress is the application core of learn: the use cases every
// user interface calls, their effects and their rules.
//
// The use cases are methods of Service:
//
//   - Summary: a learner's header figures, opened lessons, attempt counts
//     and saved code (cached for a minute, forgotten on the learner's own
//     writes);
//   - OpenLesson, and Summary.LessonStatus: where a learner is in the course;
//   - CheckWidget: check a classify or annotate widget, or take a lesson
//     quiz (XP on the first right check or first pass, the lesson completed
//     on a pass, missed items into review);
//   - RunExercise: run the sample cases or submit every case of an
//     exercise through the one grading path (package grading), keeping the
//     code and granting the exercise's XP once;
//   - Reviews and AnswerReview: the spaced-review queue;
//   - Progress: the learner's whole report;
//   - LaunchLTI (lti.go): what an LTI launch that package lti validated
//     stands for: one learner per LMS user, a class per LMS course owned
//     by its first instructor and co-taught by the others, members under
//     their LMS names;
//   - the classroom (classroom.go, teachers.go, dashboard.go): teachers
//     and their sessions, classes with join codes, joining and signing in
//     with secret words, assignments, the dashboard, a learner's page, the
//     export, the weekly leaderboard, leaving, removing and deleting data.
//
// Classroom rules. A teacher sees only their own classes: every class use
// case answers NotFound, the same as for a class that does not exist, to
// another teacher, a learner or a stranger. Teachers sign in by e-mail and
// a bcrypt-hashed password; a session is 256 random bits whose SHA-256
// alone is stored, opened afresh at every sign-in (the browser's old one
// revoked) and revoked at sign-out and on a password change. Sign-in tries
// are limited per address and per account, learners' secret-word tries per
// name and per address; every rule is declared in limits.go and counted by
// the RateLimiter the Service is given, which servers sharing a database
// share (the database counts them), so a limit holds across replicas. A learner keeps one id: joining a class adds a
// membership to it, and signing in elsewhere gives that browser the same
// id.
//
// Secret words are three words from an embedded list of 183 (about six
// million combinations). Sign-in compares a hash of them; the words are
// also kept readable, in plain text beside the hash, because the teacher
// must be able to read them back to a child who forgot. Encrypting that
// copy would need a key kept in the same database, which would add
// nothing; the words guard a child's course progress, not money, and the
// per-name rate limit stops online guessing.
//
// Every use case takes the acting user, an Actor, which the web layer puts
// in the request's context (WithActor, ActorFrom). The rules of what earns
// XP live in package quiz; the core applies them and writes every award in
// the same transaction as the attempt that earned it. What the core keeps
// goes through the store's parts declared here, each use case using only
// its own: LearningStore (learners, attempts, submissions, XP, reviews),
// ClassroomStore (teachers, sessions, classes, members, assignments, the
// dashboard's reads), QAStore (questions and answers), RateLimiter and
// SecretStore; Store is their sum, for wiring. Package storage implements
// them once for SQLite and PostgreSQL, and every part passes the
// conformance suite in progress/storetest on both engines.
//
// Failures a user can act on are *Error values with a Kind (NotFound,
// Invalid, Gone, TooLarge, Unavailable, Denied, TooMany, Forbidden) and a
// message safe to show; any other error, and an *Error of kind Internal, is
// a failure of the server that the caller logs and shows as such.
//
// The package never imports the web layer or an SQL driver.
package progress
