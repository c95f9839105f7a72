package storage

// The roster part of the store (Names and Role Provisioning Services):
// where each LMS course's roster comes from, how its last fetch went, and
// the members it listed (progress.LTIStore).

import (
	"context"
	"fmt"
	"strings"

	"learn/progress"
)

// FindLTIRoster returns the class's roster source and last outcome.
func (s *DB) FindLTIRoster(ctx context.Context, classID int64) (progress.LTIRoster, error) {
	r := progress.LTIRoster{ClassID: classID}
	err := s.row(ctx, "SELECT platform_id, memberships_url, tried_at, problem, fetched_at FROM lti_rosters WHERE class_id = ?", classID).
		Scan(&r.PlatformID, &r.MembershipsURL, at(&r.TriedAt), &r.Problem, at(&r.FetchedAt))
	return r, notFoundOr(err, "storage: find LTI roster of class %d", classID)
}

// LTIRosterMembers returns the class's roster, each member with their
// learner once their launch linked one (lti_users).
func (s *DB) LTIRosterMembers(ctx context.Context, classID int64) ([]progress.LTIRosterMember, error) {
	var out []progress.LTIRosterMember
	err := s.each(ctx, "LTI roster members", func(r scanner) error {
		var m progress.LTIRosterMember
		err := r.Scan(&m.Issuer, &m.Subject, &m.Name, &m.Instructor, &m.Learner, &m.Active, &m.LearnerID)
		out = append(out, m)
		return err
	}, `SELECT m.issuer, m.subject, m.name, m.instructor, m.learner, m.active, coalesce(u.learner_id, '')
		FROM lti_roster_members m LEFT JOIN lti_users u ON u.issuer = m.issuer AND u.subject = m.subject
		WHERE m.class_id = ? ORDER BY m.name, m.subject`, classID)
	return out, err
}

// rosterBatch is how many members one INSERT writes.
const rosterBatch = 100

// SaveLTIRosterFetch records a fetch; one that worked replaces the
// members in the same transaction, so a reader sees the old roster or
// the new one, never a part.
func (s *DB) SaveLTIRosterFetch(ctx context.Context, f progress.LTIRosterFetch) error {
	err := s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, `INSERT INTO lti_rosters (class_id, platform_id, memberships_url, tried_at, problem) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (class_id) DO UPDATE SET platform_id = excluded.platform_id, memberships_url = excluded.memberships_url,
			tried_at = excluded.tried_at, problem = excluded.problem`,
			f.ClassID, f.PlatformID, f.MembershipsURL, tx.t(f.At), f.Problem); err != nil {
			return err
		}
		if f.Problem != "" {
			return nil
		}
		if _, err := tx.exec(ctx, "UPDATE lti_rosters SET fetched_at = ? WHERE class_id = ?", tx.t(f.At), f.ClassID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, "DELETE FROM lti_roster_members WHERE class_id = ?", f.ClassID); err != nil {
			return err
		}
		for start := 0; start < len(f.Members); start += rosterBatch {
			batch := f.Members[start:min(start+rosterBatch, len(f.Members))]
			args := make([]any, 0, 8*len(batch))
			for _, m := range batch {
				args = append(args, f.ClassID, m.Issuer, m.Subject, m.Name, m.Instructor, m.Learner, m.Active, tx.t(f.At))
			}
			rows := strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?, ?, ?, ?), ", len(batch)), ", ")
			if _, err := tx.exec(ctx, `INSERT INTO lti_roster_members (class_id, issuer, subject, name, instructor, learner, active, fetched_at)
				VALUES `+rows+" ON CONFLICT DO NOTHING", args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: save LTI roster of class %d: %w", f.ClassID, err)
	}
	return nil
}
