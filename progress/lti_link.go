package progress

// Linking: a learner who used learn with secret words before their school
// added learn to its LMS takes that progress to their LMS account, once
// and knowingly. The learner proves the old learner with its class code,
// name and words (ProveWordsLearner, under the words sign-in's rules),
// sees what will happen, and confirms (LinkWordsLearner).
//
// What a link does: the LMS user's row in lti_users names the word-made
// learner from then on, so every later launch, on any device, is that
// learner; what the learner the first launch made did since (memberships,
// lessons, XP, answers, quiz attempts, code, hints, reviews, Q&A, line
// items and scores) joins the word-made learner's, and that learner is
// deleted. Where both did the same thing (an award, a lesson, a review
// card), the word-made learner's record stays, so nothing counts twice; a
// lesson keeps the earlier opening and completion of the two, and quiz
// attempts are numbered after the word-made learner's.

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// LTILinkStore keeps the links of LMS users to learners made with secret
// words. Errors wrap ErrNotFound and ErrConflict as Store's do.
type LTILinkStore interface {
	// FindLTIUserByLearner returns the LMS user whose launches are this
	// learner; errors wrap ErrNotFound.
	FindLTIUserByLearner(ctx context.Context, learnerID string) (LTIUser, error)
	// FindLTILink returns the link the LMS user made; errors wrap
	// ErrNotFound.
	FindLTILink(ctx context.Context, issuer, subject string) (LTILink, error)
	// FindLTILinkByLearner returns the link that took the word-made
	// learner; errors wrap ErrNotFound.
	FindLTILinkByLearner(ctx context.Context, learnerID string) (LTILink, error)
	// LinkLTIUser makes the link in one transaction (see the package
	// comment of lti_link.go). It wraps ErrConflict, and changes nothing,
	// when the LMS user linked already, the learner was linked already or
	// belongs to an LMS user, the LMS user's row no longer names
	// FromLearnerID; else it merges that learner into the word-made one.
	LinkLTIUser(ctx context.Context, l LTILink) error
}

// LTILink is the link of an LMS user to the learner they had made with
// secret words.
type LTILink struct {
	Issuer, Subject string
	// LearnerID is the word-made learner, FromLearnerID the learner the
	// LMS user's first launch had made.
	LearnerID, FromLearnerID string
	// ClassID is the class whose words proved the learner (0 once it is
	// deleted).
	ClassID  int64
	LinkedAt time.Time
	// Scores are the course's lessons' scores (LMSScore), which the store
	// queues again after the merge, as of LinkedAt, for every LMS line
	// item the learner has then: the gradebook gets the merged XP at once.
	Scores []LMSScore
}

// LTILinkStatus is what a learner's own page says about linking.
type LTILinkStatus struct {
	// LMS is set for a learner made by (or linked to) an LMS account.
	LMS bool
	// Linked is set once that account linked a word-made learner.
	Linked bool
}

// WordsLearner is a learner made with secret words, as the confirmation
// of a link shows it.
type WordsLearner struct {
	LearnerID string
	ClassID   int64
	// Class is the class's name, Name the learner's in it.
	Class, Name string
	// XP is the learner's XP; Lessons the lessons they completed.
	XP, Lessons int
}

// LTILinkStatus tells whether a is an LMS account's learner and whether
// that account linked a word-made learner.
func (s *Service) LTILinkStatus(ctx context.Context, a Actor) (LTILinkStatus, error) {
	if s.lti == nil || !a.Known {
		return LTILinkStatus{}, nil
	}
	u, err := s.lti.FindLTIUserByLearner(ctx, a.ID)
	if errors.Is(err, ErrNotFound) {
		return LTILinkStatus{}, nil
	}
	if err != nil {
		return LTILinkStatus{}, err
	}
	_, err = s.lti.FindLTILink(ctx, u.Issuer, u.Subject)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return LTILinkStatus{}, err
	}
	return LTILinkStatus{LMS: true, Linked: err == nil}, nil
}

// ProveWordsLearner checks the class code, name and secret words of the
// learner a, an LMS account's learner, wants to link to, with the rate
// limits and delays of SignInLearner, and returns that learner without
// changing anything but the counts of tries.
//
// Errors: those of SignInLearner; Forbidden when a is no LMS account's
// learner or a link is refused (see LinkWordsLearner).
func (s *Service) ProveWordsLearner(ctx context.Context, a Actor, in LearnerSignIn) (WordsLearner, error) {
	u, err := s.linkingUser(ctx, a)
	if err != nil {
		return WordsLearner{}, err
	}
	// Refusals that do not depend on the words come first: no try is
	// spent on a link that cannot be made.
	if err := s.linkProblem(ctx, u, ""); err != nil {
		return WordsLearner{}, err
	}
	c, m, err := s.wordsMember(ctx, in)
	if err != nil {
		return WordsLearner{}, err
	}
	if err := s.linkProblem(ctx, u, m.LearnerID); err != nil {
		return WordsLearner{}, err
	}
	return s.wordsLearner(ctx, c, m)
}

// LinkWordsLearner links the LMS account of a to the learner of the class
// that ProveWordsLearner returned, once: from then on every launch of the
// account is that learner, who is returned (with their progress as it is
// now). The caller must have had the words checked by ProveWordsLearner
// for a and this learner.
//
// Errors: Forbidden when a is no LMS account's learner, the account linked
// already, the learner was linked to an LMS account already or is one, or
// is no longer in the class.
func (s *Service) LinkWordsLearner(ctx context.Context, a Actor, classID int64, learnerID string) (WordsLearner, error) {
	u, err := s.linkingUser(ctx, a)
	if err != nil {
		return WordsLearner{}, err
	}
	if err := s.linkProblem(ctx, u, learnerID); err != nil {
		return WordsLearner{}, err
	}
	c, err := s.classes.FindClass(ctx, classID)
	if errors.Is(err, ErrNotFound) {
		return WordsLearner{}, gone()
	}
	if err != nil {
		return WordsLearner{}, err
	}
	m, err := s.classes.FindMember(ctx, classID, learnerID)
	if errors.Is(err, ErrNotFound) {
		return WordsLearner{}, gone()
	}
	if err != nil {
		return WordsLearner{}, err
	}
	l := LTILink{Issuer: u.Issuer, Subject: u.Subject, LearnerID: learnerID, FromLearnerID: u.LearnerID, ClassID: classID, LinkedAt: s.now()}
	for _, lesson := range s.Course().Lessons {
		l.Scores = append(l.Scores, *lmsScore(lesson))
	}
	if err := s.lti.LinkLTIUser(ctx, l); errors.Is(err, ErrConflict) {
		// Another request made or spoiled the link meanwhile: say which
		// rule it broke, as read now.
		if perr := s.linkProblem(ctx, u, learnerID); perr != nil {
			return WordsLearner{}, perr
		}
		return WordsLearner{}, &Error{Kind: Forbidden, Err: err,
			Message: "Your LMS account changed while linking. Open learn from your LMS again and look at your page before linking again."}
	} else if err != nil {
		return WordsLearner{}, err
	}
	s.summaries.forget(u.LearnerID)
	s.summaries.forget(learnerID)
	return s.wordsLearner(ctx, c, m)
}

// linkingUser returns the LMS user whose learner a is.
func (s *Service) linkingUser(ctx context.Context, a Actor) (LTIUser, error) {
	if s.lti == nil {
		return LTIUser{}, errors.New("progress: link LMS account: the service has no LTI store")
	}
	u, err := s.lti.FindLTIUserByLearner(ctx, a.ID)
	if errors.Is(err, ErrNotFound) || (err == nil && !a.Known) {
		return LTIUser{}, &Error{Kind: Forbidden,
			Message: "Only a learner who opened learn from their school's LMS can take their secret-words progress along. Open learn from your LMS course first, then come back to your page."}
	}
	return u, err
}

// linkProblem says why u may not link to the learner (or, for "", to any
// learner); nil when nothing stands in the way.
func (s *Service) linkProblem(ctx context.Context, u LTIUser, learnerID string) error {
	refused := func(msg string) error { return &Error{Kind: Forbidden, Message: msg} }
	if _, err := s.lti.FindLTILink(ctx, u.Issuer, u.Subject); err == nil {
		return refused("Your LMS account already took over the progress you made with secret words; a link is made once and cannot be undone or changed. If this is wrong, ask your teacher.")
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if learnerID == "" {
		return nil
	}
	if learnerID == u.LearnerID {
		return refused("These are the words of your LMS account's own place in its class, not of progress you made before. Type the class code, name and words you used before learn came to your LMS.")
	}
	if _, err := s.lti.FindLTILinkByLearner(ctx, learnerID); err == nil {
		return refused("This progress was already taken over by another LMS account, and a link cannot be undone. If it is yours, ask your teacher.")
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	if _, err := s.lti.FindLTIUserByLearner(ctx, learnerID); err == nil {
		return refused("This progress belongs to an LMS account already: open learn from that account's LMS to continue it.")
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

// gone is the refusal of a link whose learner left the class (or whose
// class was deleted) since the words were checked.
func gone() error {
	return &Error{Kind: Forbidden, Message: "That learner is no longer in the class (the teacher removed them or deleted the class); nothing was linked. Ask your teacher."}
}

// wordsLearner is the learner of the membership m of c with their XP and
// completed lessons.
func (s *Service) wordsLearner(ctx context.Context, c Class, m Member) (WordsLearner, error) {
	w := WordsLearner{LearnerID: m.LearnerID, ClassID: c.ID, Class: c.Name, Name: m.Name}
	var err error
	if w.XP, err = s.learning.TotalXP(ctx, m.LearnerID); err != nil {
		return WordsLearner{}, fmt.Errorf("progress: XP of the learner to link: %w", err)
	}
	lessons, err := s.learning.ProgressByLesson(ctx, m.LearnerID)
	if err != nil {
		return WordsLearner{}, fmt.Errorf("progress: lessons of the learner to link: %w", err)
	}
	for _, p := range lessons {
		if p.Completed() {
			w.Lessons++
		}
	}
	return w, nil
}
