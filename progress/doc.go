// Package progress is the application core of learn: the use cases every
// user interface calls, their effects and their rules.
//
// The use cases are methods of Service:
//
//   - Summary: a learner's header figures, opened lessons, attempt counts
//     and saved code (cached for a minute, forgotten on the learner's own
//     writes);
//   - OpenLesson and LessonStates: where a learner is in the course;
//   - CheckWidget: check a classify or annotate widget, or take a lesson
//     quiz (XP on the first right check or first pass, the lesson completed
//     on a pass, missed items into review);
//   - RunExercise: run the sample cases or submit every case of an
//     exercise through the one grading path (package grading), keeping the
//     code and granting the exercise's XP once;
//   - Reviews and AnswerReview: the spaced-review queue;
//   - Progress: the learner's whole report.
//
// Every use case takes the acting user, an Actor, which the web layer puts
// in the request's context (WithActor, ActorFrom). The rules of what earns
// XP live in package quiz; the core applies them and writes every award in
// the same transaction as the attempt that earned it, through the Store
// interface declared here. Store backends live in their own packages
// (store for SQLite) and pass the conformance suite in progress/storetest.
//
// Failures a user can act on are *Error values with a Kind (NotFound,
// Invalid, Gone, TooLarge, Unavailable) and a message safe to show; any
// other error is an internal failure.
//
// The package never imports the web layer or an SQL driver.
package progress
