package storage

// The LTI part of the store: registered platforms with their deployments,
// launch states and used nonces (lti.Store), learn's signing keys, and the
// links of LMS users and courses to learners, teachers and classes
// (progress.LTIStore).

import (
	"context"
	"errors"
	"fmt"
	"time"

	"learn/lti"
	"learn/progress"
)

var (
	_ lti.Store         = (*DB)(nil)
	_ progress.LTIStore = (*DB)(nil)
)

// AddPlatform registers p with its deployments in one transaction.
func (s *DB) AddPlatform(ctx context.Context, p lti.Platform) (lti.Platform, error) {
	err := s.inTx(ctx, func(tx q) error {
		if err := tx.row(ctx, `INSERT INTO lti_platforms (issuer, client_id, auth_url, token_url, jwks_url, created_at)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, p.Issuer, p.ClientID, p.AuthURL, p.TokenURL, p.JWKSURL, tx.t(p.CreatedAt)).Scan(&p.ID); err != nil {
			return err
		}
		for _, d := range p.DeploymentIDs {
			if _, err := tx.exec(ctx, "INSERT INTO lti_deployments (platform_id, deployment_id) VALUES (?, ?) ON CONFLICT DO NOTHING", p.ID, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return lti.Platform{}, fmt.Errorf("storage: add LTI platform %q: %w", p.Issuer, err)
	}
	p.CreatedAt = p.CreatedAt.UTC()
	return p, nil
}

const platformColumns = "id, issuer, client_id, auth_url, token_url, jwks_url, created_at"

func scanPlatform(sc scanner) (lti.Platform, error) {
	var p lti.Platform
	err := sc.Scan(&p.ID, &p.Issuer, &p.ClientID, &p.AuthURL, &p.TokenURL, &p.JWKSURL, at(&p.CreatedAt))
	return p, err
}

// deployments fills in the platforms' deployment ids.
func (s *DB) deployments(ctx context.Context, ps []lti.Platform) error {
	for i := range ps {
		err := s.each(ctx, "LTI deployments", func(sc scanner) error {
			var d string
			err := sc.Scan(&d)
			ps[i].DeploymentIDs = append(ps[i].DeploymentIDs, d)
			return err
		}, "SELECT deployment_id FROM lti_deployments WHERE platform_id = ? ORDER BY deployment_id", ps[i].ID)
		if err != nil {
			return err
		}
	}
	return nil
}

// Platforms returns every registered platform.
func (s *DB) Platforms(ctx context.Context) ([]lti.Platform, error) {
	var out []lti.Platform
	err := s.each(ctx, "LTI platforms", func(sc scanner) error {
		p, err := scanPlatform(sc)
		out = append(out, p)
		return err
	}, "SELECT "+platformColumns+" FROM lti_platforms ORDER BY issuer, client_id")
	if err != nil {
		return nil, err
	}
	return out, s.deployments(ctx, out)
}

// FindPlatform returns the platform of issuer and client id ("" for the
// issuer's only one).
func (s *DB) FindPlatform(ctx context.Context, issuer, clientID string) (lti.Platform, error) {
	var found []lti.Platform
	err := s.each(ctx, "find LTI platform", func(sc scanner) error {
		p, err := scanPlatform(sc)
		found = append(found, p)
		return err
	}, "SELECT "+platformColumns+" FROM lti_platforms WHERE issuer = ? AND (client_id = ?2 OR ?2 = '') ORDER BY id LIMIT 2", issuer, clientID)
	if err != nil {
		return lti.Platform{}, err
	}
	if len(found) != 1 {
		return lti.Platform{}, fmt.Errorf("storage: find LTI platform %q (client %q): %w", issuer, clientID, lti.ErrNotFound)
	}
	return found[0], s.deployments(ctx, found)
}

// FindPlatformByID returns the platform with this id.
func (s *DB) FindPlatformByID(ctx context.Context, id int64) (lti.Platform, error) {
	p, err := scanPlatform(s.row(ctx, "SELECT "+platformColumns+" FROM lti_platforms WHERE id = ?", id))
	if errors.Is(err, ErrNotFound) {
		return p, fmt.Errorf("storage: find LTI platform %d: %w", id, lti.ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("storage: find LTI platform %d: %w", id, err)
	}
	ps := []lti.Platform{p}
	return ps[0], s.deployments(ctx, ps)
}

// AddDeployments adds deployment ids to a registration, in one
// transaction; ids it has already are kept once.
func (s *DB) AddDeployments(ctx context.Context, issuer, clientID string, ids []string) (lti.Platform, error) {
	var id int64
	err := s.inTx(ctx, func(tx q) error {
		if err := tx.row(ctx, "SELECT id FROM lti_platforms WHERE issuer = ? AND client_id = ?", issuer, clientID).Scan(&id); err != nil {
			return err
		}
		for _, d := range ids {
			if _, err := tx.exec(ctx, "INSERT INTO lti_deployments (platform_id, deployment_id) VALUES (?, ?) ON CONFLICT DO NOTHING", id, d); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, ErrNotFound) {
		return lti.Platform{}, fmt.Errorf("storage: add LTI deployments to %q (client %q): %w", issuer, clientID, lti.ErrNotFound)
	}
	if err != nil {
		return lti.Platform{}, fmt.Errorf("storage: add LTI deployments to %q (client %q): %w", issuer, clientID, err)
	}
	return s.FindPlatformByID(ctx, id)
}

// RemovePlatform deletes a registration; its deployments and states go
// with it (ON DELETE CASCADE).
func (s *DB) RemovePlatform(ctx context.Context, issuer, clientID string) error {
	res, err := s.exec(ctx, "DELETE FROM lti_platforms WHERE issuer = ? AND client_id = ?", issuer, clientID)
	if err != nil {
		return fmt.Errorf("storage: remove LTI platform %q: %w", issuer, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("storage: remove LTI platform %q (client %q): %w", issuer, clientID, errors.Join(lti.ErrNotFound, err))
	}
	return nil
}

// SaveState keeps a launch state and forgets the expired ones.
func (s *DB) SaveState(ctx context.Context, st lti.State, now time.Time) error {
	err := s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM lti_states WHERE expires_at < ?", tx.t(now)); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `INSERT INTO lti_states (state_hash, browser_hash, nonce, platform_id, target, expires_at)
			VALUES (?, ?, ?, ?, ?, ?)`, st.StateHash, st.BrowserHash, st.Nonce, st.PlatformID, st.Target, tx.t(st.ExpiresAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: save LTI state: %w", err)
	}
	return nil
}

// TakeState deletes and returns a state in one statement: of two servers
// finishing the same launch, one gets the row.
func (s *DB) TakeState(ctx context.Context, stateHash string, now time.Time) (lti.State, error) {
	var st lti.State
	err := s.row(ctx, `DELETE FROM lti_states WHERE state_hash = ?
		RETURNING state_hash, browser_hash, nonce, platform_id, target, expires_at`, stateHash).
		Scan(&st.StateHash, &st.BrowserHash, &st.Nonce, &st.PlatformID, &st.Target, at(&st.ExpiresAt))
	if errors.Is(err, ErrNotFound) || (err == nil && !now.Before(st.ExpiresAt)) {
		return lti.State{}, fmt.Errorf("storage: take LTI state: %w", lti.ErrNotFound)
	}
	if err != nil {
		return lti.State{}, fmt.Errorf("storage: take LTI state: %w", err)
	}
	return st, nil
}

// UseNonce records a nonce; the primary key refuses a second use, on any
// server. Expired nonces are deleted first.
func (s *DB) UseNonce(ctx context.Context, issuer, nonce string, expires, now time.Time) error {
	err := s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM lti_nonces WHERE expires_at < ?", tx.t(now)); err != nil {
			return err
		}
		_, err := tx.exec(ctx, "INSERT INTO lti_nonces (issuer, nonce, expires_at) VALUES (?, ?, ?)", issuer, nonce, tx.t(expires))
		return err
	})
	if errors.Is(err, ErrConflict) {
		return fmt.Errorf("storage: use LTI nonce: %w", lti.ErrReplayed)
	}
	if err != nil {
		return fmt.Errorf("storage: use LTI nonce: %w", err)
	}
	return nil
}

// SigningKeys returns learn's LTI keys, newest first.
func (s *DB) SigningKeys(ctx context.Context) ([]lti.Key, error) {
	var out []lti.Key
	err := s.each(ctx, "LTI signing keys", func(sc scanner) error {
		var k lti.Key
		err := sc.Scan(&k.KID, &k.PrivateKey, at(&k.CreatedAt), at(&k.RetiredAt))
		out = append(out, k)
		return err
	}, "SELECT kid, private_key, created_at, retired_at FROM lti_keys ORDER BY created_at DESC, kid")
	return out, err
}

// AddSigningKey stores a new signing key and retires the current one.
func (s *DB) AddSigningKey(ctx context.Context, k lti.Key, forgetBefore time.Time) error {
	err := s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "UPDATE lti_keys SET retired_at = ? WHERE retired_at IS NULL", tx.t(k.CreatedAt)); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, "DELETE FROM lti_keys WHERE retired_at < ?", tx.t(forgetBefore)); err != nil {
			return err
		}
		_, err := tx.exec(ctx, "INSERT INTO lti_keys (kid, private_key, created_at) VALUES (?, ?, ?)", k.KID, k.PrivateKey, tx.t(k.CreatedAt))
		return err
	})
	if err != nil {
		return fmt.Errorf("storage: add LTI signing key: %w", err)
	}
	return nil
}

// FindLTIUser returns the link of an LMS user.
func (s *DB) FindLTIUser(ctx context.Context, issuer, subject string) (progress.LTIUser, error) {
	u := progress.LTIUser{Issuer: issuer, Subject: subject}
	var teacher *int64
	err := s.row(ctx, "SELECT learner_id, teacher_id, created_at FROM lti_users WHERE issuer = ? AND subject = ?", issuer, subject).
		Scan(&u.LearnerID, &teacher, at(&u.CreatedAt))
	if teacher != nil {
		u.TeacherID = *teacher
	}
	return u, notFoundOr(err, "storage: find LTI user")
}

// CreateLTIUser links an LMS user to a learner (and a teacher).
func (s *DB) CreateLTIUser(ctx context.Context, u progress.LTIUser) error {
	var teacher any
	if u.TeacherID != 0 {
		teacher = u.TeacherID
	}
	_, err := s.exec(ctx, "INSERT INTO lti_users (issuer, subject, learner_id, teacher_id, created_at) VALUES (?, ?, ?, ?, ?)",
		u.Issuer, u.Subject, u.LearnerID, teacher, s.t(u.CreatedAt))
	return notFoundOr(err, "storage: create LTI user")
}

// SetLTIUserTeacher records the teacher account of a linked LMS user.
func (s *DB) SetLTIUserTeacher(ctx context.Context, issuer, subject string, teacherID int64) error {
	res, err := s.exec(ctx, "UPDATE lti_users SET teacher_id = ? WHERE issuer = ? AND subject = ?", teacherID, issuer, subject)
	if err != nil {
		return fmt.Errorf("storage: set LTI user's teacher: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("storage: set LTI user's teacher: %w", errors.Join(ErrNotFound, err))
	}
	return nil
}

// FindLTIContext returns the class linked to an LMS course.
func (s *DB) FindLTIContext(ctx context.Context, c progress.LTIContext) (int64, error) {
	var id int64
	err := s.row(ctx, "SELECT class_id FROM lti_contexts WHERE issuer = ? AND deployment_id = ? AND context_id = ?",
		c.Issuer, c.DeploymentID, c.ContextID).Scan(&id)
	return id, notFoundOr(err, "storage: find LTI context")
}

// CreateLTIContext links an LMS course to a class.
func (s *DB) CreateLTIContext(ctx context.Context, c progress.LTIContext, classID int64, now time.Time) error {
	_, err := s.exec(ctx, "INSERT INTO lti_contexts (issuer, deployment_id, context_id, class_id, created_at) VALUES (?, ?, ?, ?, ?)",
		c.Issuer, c.DeploymentID, c.ContextID, classID, s.t(now))
	return notFoundOr(err, "storage: create LTI context")
}
