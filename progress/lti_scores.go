package progress

import (
	"context"
	"time"

	"learn/lessons"
	"learn/quiz"
)

// LMSScore asks the store, with an attempt or a submission that earns XP
// in a lesson, to queue the lesson's score for every LMS line item the
// learner launched the lesson from (LTILineItem), in the same
// transaction: no award is lost between the ledger and the outbox. The
// store sums the learner's awards under AwardKeys (after this one) as
// the score given and reads the lesson's completion; a line item's
// queued score is replaced only by a newer one (by the attempt's time).
type LMSScore struct {
	LessonSlug string
	// Maximum is the lesson's earnable XP (lessons.Lesson.EarnableXP).
	Maximum int
	// AwardKeys are the keys of every award the lesson offers.
	AwardKeys []string
}

// LTILineItem is a line item of an LMS gradebook a learner launched a
// lesson from (Assignment and Grade Services): where the learner's score
// for the lesson goes.
type LTILineItem struct {
	LearnerID  string
	PlatformID int64
	// ResourceLinkID is the LMS's link that opened the lesson.
	ResourceLinkID string
	LessonSlug     string
	ClassID        int64
	// LineItem is the line item's address; Subject the LMS's id of the
	// learner.
	LineItem, Subject string
	UpdatedAt         time.Time
}

// The states of an LTIScoreState.
const (
	LMSScorePending = "pending"
	LMSScoreSent    = "sent"
	LMSScoreFailed  = "failed"
)

// LTIScoreState is how a learner's score for one lesson's line item
// stands in the outbox, for the teacher.
type LTIScoreState struct {
	LearnerID, LessonSlug string
	// State is LMSScorePending, LMSScoreSent or LMSScoreFailed.
	State          string
	Given, Maximum int
	Completed      bool
	// At is when the score was earned; Attempts how often it was sent.
	At       time.Time
	Attempts int
	// Status and Answer are the LMS's last answer (0 and "" before any),
	// Answer a short excerpt, valid UTF-8, to show escaped.
	Status int
	Answer string
}

// lmsScore returns what queues the lesson's score with an award earned
// in it.
func lmsScore(l *lessons.Lesson) *LMSScore {
	sc := &LMSScore{LessonSlug: l.Slug, Maximum: l.EarnableXP()}
	for _, seg := range l.Segments {
		w := seg.Widget
		var a quiz.Award
		ok := false
		switch {
		case w == nil:
		case w.Exercise != nil:
			a, ok = quiz.ExerciseAward(w.Exercise.ID, w.Exercise.Title, w.Exercise.XPValue(), true)
		case w.Kind == quiz.KindQuiz:
			if q, isQuiz := w.Value.(*quiz.Quiz); isQuiz {
				a, ok = quiz.QuizAward(l.Slug, q, quiz.QuizResult{Passed: true}, 0)
			}
		case w.Kind == quiz.KindClassify || w.Kind == quiz.KindAnnotate:
			a, ok = quiz.WidgetAward(l.Slug, w.ID, true)
		}
		if ok {
			sc.AwardKeys = append(sc.AwardKeys, a.Key)
		}
	}
	return sc
}

// classScores returns the class's LMS scores by learner, or none when
// the service keeps no LTI links.
func (s *Service) classScores(ctx context.Context, classID int64) (map[string][]LTIScoreState, error) {
	if s.lti == nil {
		return nil, nil
	}
	states, err := s.lti.ClassLTIScores(ctx, classID)
	if err != nil {
		return nil, err
	}
	out := map[string][]LTIScoreState{}
	for _, st := range states {
		out[st.LearnerID] = append(out[st.LearnerID], st)
	}
	return out, nil
}

// submissionScore is the LMS score to queue with a submission's award:
// none without one.
func submissionScore(l *lessons.Lesson, award *Award) *LMSScore {
	if award == nil {
		return nil
	}
	return lmsScore(l)
}
