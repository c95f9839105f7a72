package storage

// LTI Dynamic Registration invites (lti.Store): one-time registration
// addresses, kept as the SHA-256 of their tokens.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"learn/lti"
)

const inviteColumns = "id, token_hash, created_at, expires_at, used_at"

func scanInvite(sc scanner) (lti.Invite, error) {
	var inv lti.Invite
	err := sc.Scan(&inv.ID, &inv.TokenHash, at(&inv.CreatedAt), at(&inv.ExpiresAt), at(&inv.UsedAt))
	return inv, err
}

// AddInvite stores an invite and forgets those expired before
// forgetBefore, in one transaction.
func (s *DB) AddInvite(ctx context.Context, inv lti.Invite, forgetBefore time.Time) (lti.Invite, error) {
	err := s.inTx(ctx, func(tx q) error {
		if _, err := tx.exec(ctx, "DELETE FROM lti_invites WHERE expires_at < ?", tx.t(forgetBefore)); err != nil {
			return err
		}
		return tx.row(ctx, "INSERT INTO lti_invites (token_hash, created_at, expires_at) VALUES (?, ?, ?) RETURNING id",
			inv.TokenHash, tx.t(inv.CreatedAt), tx.t(inv.ExpiresAt)).Scan(&inv.ID)
	})
	if err != nil {
		return lti.Invite{}, fmt.Errorf("storage: add LTI invite: %w", err)
	}
	inv.CreatedAt, inv.ExpiresAt = inv.CreatedAt.UTC(), inv.ExpiresAt.UTC()
	return inv, nil
}

// Invites returns every invite kept, newest first.
func (s *DB) Invites(ctx context.Context) ([]lti.Invite, error) {
	var out []lti.Invite
	err := s.each(ctx, "LTI invites", func(sc scanner) error {
		inv, err := scanInvite(sc)
		out = append(out, inv)
		return err
	}, "SELECT "+inviteColumns+" FROM lti_invites ORDER BY created_at DESC, id DESC")
	return out, err
}

// FindInvite returns the invite of a token hash.
func (s *DB) FindInvite(ctx context.Context, tokenHash string) (lti.Invite, error) {
	inv, err := scanInvite(s.row(ctx, "SELECT "+inviteColumns+" FROM lti_invites WHERE token_hash = ?", tokenHash))
	if errors.Is(err, ErrNotFound) {
		return lti.Invite{}, fmt.Errorf("storage: find LTI invite: %w", lti.ErrNotFound)
	}
	return inv, notFoundOr(err, "storage: find LTI invite")
}

// SpendInvite marks an unused, unexpired invite used in one UPDATE: of
// two servers spending it at once, one gets the row.
func (s *DB) SpendInvite(ctx context.Context, tokenHash string, now time.Time) (lti.Invite, error) {
	inv, err := scanInvite(s.row(ctx, "UPDATE lti_invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING "+inviteColumns,
		s.t(now), tokenHash, s.t(now)))
	if errors.Is(err, ErrNotFound) {
		return lti.Invite{}, fmt.Errorf("storage: spend LTI invite: %w", lti.ErrNotFound)
	}
	return inv, notFoundOr(err, "storage: spend LTI invite")
}

// RestoreInvite makes a spent invite unused again.
func (s *DB) RestoreInvite(ctx context.Context, id int64) error {
	return s.changeInvite(ctx, "restore", "UPDATE lti_invites SET used_at = NULL WHERE id = ?", id)
}

// RevokeInvite deletes an invite.
func (s *DB) RevokeInvite(ctx context.Context, id int64) error {
	return s.changeInvite(ctx, "revoke", "DELETE FROM lti_invites WHERE id = ?", id)
}

// changeInvite runs query on invite id; no such invite wraps
// lti.ErrNotFound.
func (s *DB) changeInvite(ctx context.Context, what, query string, id int64) error {
	res, err := s.exec(ctx, query, id)
	if err != nil {
		return fmt.Errorf("storage: %s LTI invite %d: %w", what, id, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("storage: %s LTI invite %d: %w", what, id, errors.Join(lti.ErrNotFound, err))
	}
	return nil
}
