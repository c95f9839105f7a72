package progress

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// LTIRosterWait bounds the fetch of a roster within a launch: a slow or
// broken roster service costs the launch this much at most, and the
// dashboard then says what failed.
const LTIRosterWait = 5 * time.Second

// LTIRosterUpdateWait bounds a teacher's "Update the roster from the
// LMS", which may read many pages.
const LTIRosterUpdateWait = time.Minute

// LTIRosterUpdateEvery is how often a class's roster may be updated on
// demand: each update calls the LMS.
const LTIRosterUpdateEvery = 30 * time.Second

// LMSRosters reads the roster of an LMS course (Names and Role
// Provisioning Services); package lti's Roster implements it.
type LMSRosters interface {
	// LMSRoster returns the members of the course whose membership
	// container is at membershipsURL on the platform, but those the LMS
	// deleted. A roster not read is an *Error whose Message says what to
	// do; other errors are the store's.
	LMSRoster(ctx context.Context, platformID int64, membershipsURL string) ([]LTIRosterMember, error)
}

// LTIRosterMember is one member of an LMS course's roster.
type LTIRosterMember struct {
	// Issuer and Subject name the LMS user, as a launch of theirs would.
	Issuer, Subject, Name string
	// Instructor and Learner are their roles in the course.
	Instructor, Learner bool
	// Active is false for a member the LMS marks inactive.
	Active bool
	// LearnerID is their learner once they launched learn ("" before);
	// set by the store when it reads the roster.
	LearnerID string
}

// LTIRoster is where a class's roster comes from and how its last fetch
// went.
type LTIRoster struct {
	ClassID, PlatformID int64
	MembershipsURL      string
	// TriedAt is when it was last fetched, FetchedAt when it last worked
	// (zero for never); Problem says what went wrong the last time, ""
	// when it worked.
	TriedAt, FetchedAt time.Time
	Problem            string
}

// LTIRosterFetch is one fetch of a class's roster, for the store.
type LTIRosterFetch struct {
	ClassID, PlatformID int64
	MembershipsURL      string
	At                  time.Time
	// Problem is what went wrong, "" when it worked; Members the roster
	// then.
	Problem string
	Members []LTIRosterMember
}

// maxRosterProblem bounds the text kept of a failed fetch.
const maxRosterProblem = 500

// launchRoster fetches the class's roster when the launch names a roster
// service the class has not used (its first, or another address): the
// launch goes on whatever the fetch's outcome, which the dashboard shows.
func (s *Service) launchRoster(ctx context.Context, classID int64, in LTILaunch) error {
	if s.rosters == nil || in.MembershipsURL == "" {
		return nil
	}
	r, err := s.lti.FindLTIRoster(ctx, classID)
	if err == nil && r.MembershipsURL == in.MembershipsURL && r.PlatformID == in.PlatformID {
		return nil
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return s.fetchRoster(ctx, classID, in.PlatformID, in.MembershipsURL, LTIRosterWait)
}

// fetchRoster reads the roster from the LMS within wait and records the
// outcome; only the store's errors are returned.
func (s *Service) fetchRoster(ctx context.Context, classID, platformID int64, address string, wait time.Duration) error {
	fctx, cancel := context.WithTimeout(ctx, wait)
	members, err := s.rosters.LMSRoster(fctx, platformID, address)
	cancel()
	f := LTIRosterFetch{ClassID: classID, PlatformID: platformID, MembershipsURL: address, At: s.now(), Members: members}
	if err != nil {
		pe, ok := errors.AsType[*Error](err)
		if !ok {
			return fmt.Errorf("progress: fetch the LMS roster: %w", err)
		}
		f.Problem, f.Members = truncateRunes(pe.Message, maxRosterProblem), nil
	}
	return s.lti.SaveLTIRosterFetch(ctx, f)
}

// UpdateLTIRoster fetches the class's roster from its LMS again, for one
// of its teachers; once per LTIRosterUpdateEvery per class. The outcome
// is recorded for the dashboard, a failed fetch too (it is no error
// here). Errors: NotFound for a class the actor does not teach, Invalid
// for a class with no roster service, TooMany when updated moments ago.
func (s *Service) UpdateLTIRoster(ctx context.Context, a Actor, classID int64) error {
	c, err := s.teachClass(ctx, a, classID)
	if err != nil {
		return err
	}
	if s.lti == nil || s.rosters == nil {
		return invalid("This learn server reads no rosters from an LMS.")
	}
	r, err := s.lti.FindLTIRoster(ctx, c.ID)
	if errors.Is(err, ErrNotFound) {
		return invalid("This class has no roster service of an LMS: launch learn from the LMS course (with Names and Role Provisioning enabled) first.")
	}
	if err != nil {
		return err
	}
	wait, err := s.takeTries(ctx, s.now(), RateCheck{s.rules.ltiRosterClass, fmt.Sprint(c.ID)})
	if err != nil {
		return err
	}
	if wait > 0 {
		return tooMany(wait, fmt.Sprintf("The roster was updated moments ago. Try again in %s.", delayText(wait)))
	}
	return s.fetchRoster(ctx, c.ID, r.PlatformID, r.MembershipsURL, LTIRosterUpdateWait)
}

// ClassRoster is a class's roster from its LMS for the dashboard.
type ClassRoster struct {
	LTIRoster
	// Members are the roster's members, each with Started set once they
	// are a member of the class in learn.
	Members []ClassRosterMember
}

// ClassRosterMember is one member of the roster from the LMS.
type ClassRosterMember struct {
	LTIRosterMember
	// Started is set for a learner who launched learn and is a member of
	// the class (their progress is in the dashboard's roster), and for
	// an instructor who opened learn from the course.
	Started bool
}

// classRoster returns the class's roster from the LMS, nil for a class
// that has none; members are the class's members in learn.
func (s *Service) classRoster(ctx context.Context, classID int64, inClass map[string]bool) (*ClassRoster, error) {
	if s.lti == nil {
		return nil, nil
	}
	r, err := s.lti.FindLTIRoster(ctx, classID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	members, err := s.lti.LTIRosterMembers(ctx, classID)
	if err != nil {
		return nil, err
	}
	out := &ClassRoster{LTIRoster: r}
	for _, m := range members {
		started := m.LearnerID != "" && (inClass[m.LearnerID] || (m.Instructor && !m.Learner))
		out.Members = append(out.Members, ClassRosterMember{LTIRosterMember: m, Started: started})
	}
	return out, nil
}
