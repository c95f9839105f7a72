package progress

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// LTILaunch is a validated LTI launch as the core needs it (package lti
// checks the token; the web layer passes what it says on).
type LTILaunch struct {
	// Issuer and Subject name the LMS user; Name is their name in the LMS.
	Issuer, Subject, Name string
	// Instructor is set for the LMS course's instructors, Learner for its
	// learners (an instructor who is also a learner teaches).
	Instructor, Learner bool
	// Context is the LMS course; ContextTitle its title.
	Context      LTIContext
	ContextTitle string
	// PlatformID and ResourceLinkID name the LMS and its link; LessonSlug
	// is the lesson the link opens ("" for none) and LineItem its line
	// item's address when the LMS lets learn post scores to it (""
	// otherwise).
	PlatformID     int64
	ResourceLinkID string
	LessonSlug     string
	LineItem       string
	// MembershipsURL is the course's roster service (Names and Role
	// Provisioning) when the launch names one learn can use.
	MembershipsURL string
}

// LTILaunched is what a launch made of its user: the learner id the
// browser becomes, the class of the LMS course, and for an instructor a
// signed-in teacher session.
type LTILaunched struct {
	LearnerID string
	ClassID   int64
	// Teacher is set for an instructor: the session to sign the browser
	// in with.
	Teacher *SignedIn
}

// ltiPasswordHash is the password hash of a teacher account made by a
// launch: no bcrypt hash, so no password ever signs in to it; its teacher
// comes in through the LMS only.
const ltiPasswordHash = "!lti"

// LaunchLTI makes or finds what an LTI launch stands for. An LMS user is
// one learner id on every launch and device (the link is made at their
// first launch). An instructor gets a teacher account at their first
// instructor launch; the first instructor launch from an LMS course makes
// its class (named for the course, joining by code off) and owns it, and
// later instructors become its co-teachers. A learner becomes a member of
// the course's class under their LMS name; a learner's launch of a lesson
// with a line item keeps it, so that the XP they earn in the lesson goes
// to the LMS's gradebook (LMSScore). A launch that names a roster service
// the class has not used yet (the class's first launch, or another
// address) reads the course's roster from the LMS, within LTIRosterWait
// and whatever its outcome (UpdateLTIRoster reads it again).
//
// Errors: Forbidden for a launch with neither role; Invalid for a launch
// without a course, or of a learner whose course has no class yet (an
// instructor must launch first).
func (s *Service) LaunchLTI(ctx context.Context, in LTILaunch) (LTILaunched, error) {
	if s.lti == nil {
		return LTILaunched{}, errors.New("progress: launch LTI: the service has no LTI store")
	}
	if !in.Instructor && !in.Learner {
		return LTILaunched{}, &Error{Kind: Forbidden, Message: "learn takes launches of the LMS course's instructors and learners only; this user has neither role in it."}
	}
	if in.Context.ContextID == "" {
		return LTILaunched{}, invalid("The launch names no LMS course (context); launch learn from an activity inside a course.")
	}
	u, err := s.ltiUser(ctx, in)
	if err != nil {
		return LTILaunched{}, err
	}
	out := LTILaunched{LearnerID: u.LearnerID}
	if in.Instructor {
		t, err := s.ltiTeacher(ctx, in, u)
		if err != nil {
			return LTILaunched{}, err
		}
		if out.ClassID, err = s.ltiTeach(ctx, in, t); err != nil {
			return LTILaunched{}, err
		}
		if err := s.launchRoster(ctx, out.ClassID, in); err != nil {
			return LTILaunched{}, err
		}
		signed, err := s.openSession(ctx, t, s.now())
		if err != nil {
			return LTILaunched{}, err
		}
		out.Teacher = &signed
		return out, nil
	}
	classID, err := s.lti.FindLTIContext(ctx, in.Context)
	if errors.Is(err, ErrNotFound) {
		return LTILaunched{}, invalid("This LMS course has no class in learn yet: its instructor opens learn from the course once to make it; then launch again.")
	}
	if err != nil {
		return LTILaunched{}, err
	}
	out.ClassID = classID
	if err := s.ltiMember(ctx, classID, u.LearnerID, in.Name); err != nil {
		return LTILaunched{}, err
	}
	if err := s.launchRoster(ctx, classID, in); err != nil {
		return LTILaunched{}, err
	}
	if in.LineItem != "" && in.ResourceLinkID != "" {
		if _, ok := s.Course().Lesson(in.LessonSlug); ok {
			if err := s.lti.SaveLTILineItem(ctx, LTILineItem{LearnerID: u.LearnerID, PlatformID: in.PlatformID, ResourceLinkID: in.ResourceLinkID,
				LessonSlug: in.LessonSlug, ClassID: classID, LineItem: in.LineItem, Subject: in.Subject, UpdatedAt: s.now()}); err != nil {
				return LTILaunched{}, err
			}
		}
	}
	return out, nil
}

// TakeLTILogin spends one of the LTI login initiations the client address
// may start (LTILoginsPerAddress a minute). Errors: TooMany when none is
// left.
func (s *Service) TakeLTILogin(ctx context.Context, address string) error {
	wait, err := s.takeTries(ctx, s.now(), RateCheck{s.rules.ltiLoginAddr, addressKey(address)})
	if err != nil {
		return err
	}
	if wait > 0 {
		return tooMany(wait, fmt.Sprintf("Too many launches from your network. Try again in %s.", delayText(wait)))
	}
	return nil
}

// TakeLTIRegistration spends one of the LTI dynamic registration pages
// the client address may open (LTIRegistrationsPerAddress a minute): each
// fetches the platform's configuration. Errors: TooMany when none is
// left.
func (s *Service) TakeLTIRegistration(ctx context.Context, address string) error {
	wait, err := s.takeTries(ctx, s.now(), RateCheck{s.rules.ltiRegisterAddr, addressKey(address)})
	if err != nil {
		return err
	}
	if wait > 0 {
		return tooMany(wait, fmt.Sprintf("Too many registrations from your network. Try again in %s.", delayText(wait)))
	}
	return nil
}

// ltiUser returns the link of the launch's user, made at their first
// launch with a fresh learner.
func (s *Service) ltiUser(ctx context.Context, in LTILaunch) (LTIUser, error) {
	u, err := s.lti.FindLTIUser(ctx, in.Issuer, in.Subject)
	if !errors.Is(err, ErrNotFound) {
		return u, err
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return LTIUser{}, fmt.Errorf("progress: new learner id: %w", err)
	}
	now := s.now()
	u = LTIUser{Issuer: in.Issuer, Subject: in.Subject, LearnerID: hex.EncodeToString(b[:]), CreatedAt: now}
	if _, err := s.learning.EnsureLearner(ctx, u.LearnerID, now); err != nil {
		return LTIUser{}, err
	}
	if err := s.lti.CreateLTIUser(ctx, u); errors.Is(err, ErrConflict) {
		// Another server linked the user at the same time: theirs stands.
		return s.lti.FindLTIUser(ctx, in.Issuer, in.Subject)
	} else if err != nil {
		return LTIUser{}, err
	}
	return u, nil
}

// ltiTeacher returns the teacher account of an instructor, made at their
// first instructor launch. Its e-mail is made up (no LMS is trusted to
// own an address here) and unique to the LMS user.
func (s *Service) ltiTeacher(ctx context.Context, in LTILaunch, u LTIUser) (Teacher, error) {
	if u.TeacherID != 0 {
		return s.classes.FindTeacher(ctx, u.TeacherID)
	}
	sum := sha256.Sum256([]byte(in.Issuer + "\x00" + in.Subject))
	email := "lti-" + hex.EncodeToString(sum[:10]) + "@lti.invalid"
	name, _, problem := cleanName(in.Name, "name")
	if problem != "" {
		name = "LMS instructor"
	}
	t, err := s.classes.CreateTeacher(ctx, Teacher{Email: email, Name: name, PasswordHash: ltiPasswordHash, CreatedAt: s.now()})
	if errors.Is(err, ErrConflict) {
		t, err = s.classes.FindTeacherByEmail(ctx, email)
	}
	if err != nil {
		return Teacher{}, err
	}
	if err := s.lti.SetLTIUserTeacher(ctx, in.Issuer, in.Subject, t.ID); err != nil {
		return Teacher{}, err
	}
	return t, nil
}

// ltiTeach makes t a teacher of the course's class: its owner when the
// launch makes the class, else a co-teacher.
func (s *Service) ltiTeach(ctx context.Context, in LTILaunch, t Teacher) (int64, error) {
	classID, err := s.lti.FindLTIContext(ctx, in.Context)
	if errors.Is(err, ErrNotFound) {
		name, _, problem := cleanName(in.ContextTitle, "class name")
		if problem != "" {
			name = "LMS course " + in.Context.ContextID
			if name, _, problem = cleanName(name, "class name"); problem != "" {
				name = "LMS course"
			}
		}
		c, err := s.classes.CreateClass(ctx, Class{TeacherID: t.ID, Name: name, TimeZone: "UTC", CreatedAt: s.now()})
		if err != nil {
			return 0, err
		}
		err = s.lti.CreateLTIContext(ctx, in.Context, c.ID, s.now())
		if err == nil {
			return c.ID, nil
		}
		// Another instructor's launch made the class at the same time:
		// theirs stands, this one goes.
		if derr := s.classes.DeleteClass(ctx, c.ID); derr != nil {
			return 0, errors.Join(err, derr)
		}
		if !errors.Is(err, ErrConflict) {
			return 0, err
		}
		if classID, err = s.lti.FindLTIContext(ctx, in.Context); err != nil {
			return 0, err
		}
	} else if err != nil {
		return 0, err
	}
	c, err := s.classes.FindClass(ctx, classID)
	if err != nil {
		return 0, err
	}
	if c.TeacherID == t.ID {
		return c.ID, nil
	}
	if err := s.classes.AddCoTeacher(ctx, c.ID, t.ID, s.now()); err != nil && !errors.Is(err, ErrConflict) {
		return 0, err
	}
	return c.ID, nil
}

// ltiMember adds the learner to the class under their LMS name, told
// apart by a number when another member has it; a member already there
// stays as they are.
func (s *Service) ltiMember(ctx context.Context, classID int64, learnerID, lmsName string) error {
	if _, err := s.classes.FindMember(ctx, classID, learnerID); err == nil {
		return nil
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	base, _, problem := cleanName(lmsName, "name")
	if problem != "" {
		base = "Learner"
	}
	secret, err := newSecret()
	if err != nil {
		return err
	}
	for i := 1; i <= 20; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s (%d)", strings.TrimSpace(truncateRunes(base, 70)), i)
		}
		clean, key, problem := cleanName(name, "name")
		if problem != "" {
			return invalid(problem)
		}
		m := Member{ClassID: classID, LearnerID: learnerID, Name: clean, NameKey: key, Secret: secret,
			SecretHash: hashSecret(classID, secret), JoinedAt: s.now()}
		err := s.classes.AddMember(ctx, m)
		if err == nil {
			s.summaries.forget(learnerID)
			return nil
		}
		if !errors.Is(err, ErrConflict) {
			return err
		}
		if _, ferr := s.classes.FindMember(ctx, classID, learnerID); ferr == nil {
			return nil // the same learner, added by a launch at the same time
		}
	}
	return invalid("Too many members of this class share this name in learn; rename the LMS user or ask the teacher.")
}

// truncateRunes cuts s to at most n characters.
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}
