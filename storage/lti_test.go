package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"learn/lti"
	"learn/progress"
)

// TestLTISQLite runs the tests of lti.Store on a SQLite file (TestPostgres
// runs them on PostgreSQL; the links of progress.LTIStore are in the
// conformance suite).
func TestLTISQLite(t *testing.T) {
	testLTI(t, func(t *testing.T) *DB {
		s, _ := openTemp(t)
		return s
	})
}

// TestLTIScoresSQLite runs the tests of the score outbox on a SQLite file
// (TestPostgres runs them on PostgreSQL).
func TestLTIScoresSQLite(t *testing.T) {
	testLTIScores(t, func(t *testing.T) *DB {
		s, _ := openTemp(t)
		return s
	})
}

func testLTI(t *testing.T, open func(t *testing.T) *DB) {
	ctx := context.Background()
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	platform := lti.Platform{Issuer: "https://lms.example", ClientID: "client-1", AuthURL: "https://lms.example/auth",
		TokenURL: "https://lms.example/token", JWKSURL: "https://lms.example/jwks", DeploymentIDs: []string{"d1", "d2"}, CreatedAt: now}

	t.Run("Platforms", func(t *testing.T) {
		s := open(t)
		p, err := s.AddPlatform(ctx, platform)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.AddPlatform(ctx, platform); !errors.Is(err, ErrConflict) {
			t.Errorf("adding the same issuer and client again: %v, want ErrConflict", err)
		}
		other := platform
		other.ClientID = "client-2"
		other.DeploymentIDs = nil
		if _, err := s.AddPlatform(ctx, other); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name, issuer, client string
			want                 string // client id found, "" for not found
		}{
			{"by issuer and client", platform.Issuer, "client-1", "client-1"},
			{"the other client", platform.Issuer, "client-2", "client-2"},
			{"issuer alone is ambiguous", platform.Issuer, "", ""},
			{"unknown issuer", "https://other.example", "client-1", ""},
			{"unknown client", platform.Issuer, "client-3", ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := s.FindPlatform(ctx, tc.issuer, tc.client)
				if tc.want == "" {
					if !errors.Is(err, lti.ErrNotFound) {
						t.Errorf("FindPlatform = %+v, %v; want ErrNotFound", got, err)
					}
					return
				}
				if err != nil || got.ClientID != tc.want {
					t.Errorf("FindPlatform = %+v, %v; want client %s", got, err, tc.want)
				}
			})
		}
		got, err := s.FindPlatformByID(ctx, p.ID)
		if err != nil || !slices.Equal(got.DeploymentIDs, []string{"d1", "d2"}) || !got.CreatedAt.Equal(now) || got.JWKSURL != platform.JWKSURL {
			t.Errorf("FindPlatformByID = %+v, %v", got, err)
		}
		all, err := s.Platforms(ctx)
		if err != nil || len(all) != 2 {
			t.Fatalf("Platforms = %+v, %v", all, err)
		}
		if err := s.RemovePlatform(ctx, platform.Issuer, "client-1"); err != nil {
			t.Fatal(err)
		}
		if err := s.RemovePlatform(ctx, platform.Issuer, "client-1"); !errors.Is(err, lti.ErrNotFound) {
			t.Errorf("removing twice: %v, want ErrNotFound", err)
		}
		if _, err := s.FindPlatform(ctx, platform.Issuer, ""); err != nil {
			t.Errorf("after removing one, the issuer's only client: %v", err)
		}
	})

	t.Run("StatesServeOnce", func(t *testing.T) {
		s := open(t)
		p, err := s.AddPlatform(ctx, platform)
		if err != nil {
			t.Fatal(err)
		}
		st := lti.State{StateHash: "s1", BrowserHash: "b1", Nonce: "n1", PlatformID: p.ID, Target: "https://learn.example/lessons/x", ExpiresAt: now.Add(time.Minute)}
		if err := s.SaveState(ctx, st, now); err != nil {
			t.Fatal(err)
		}
		expired := st
		expired.StateHash, expired.ExpiresAt = "s2", now.Add(-time.Second)
		if err := s.SaveState(ctx, expired, now.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		// Several takers at once: exactly one gets the state.
		var wg sync.WaitGroup
		var mu sync.Mutex
		got := 0
		for range 4 {
			wg.Go(func() {
				back, err := s.TakeState(ctx, "s1", now)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					got++
					if back.Nonce != "n1" || back.BrowserHash != "b1" || back.PlatformID != p.ID || back.Target != st.Target {
						t.Errorf("TakeState = %+v", back)
					}
				case !errors.Is(err, lti.ErrNotFound):
					t.Errorf("TakeState: %v", err)
				}
			})
		}
		wg.Wait()
		if got != 1 {
			t.Errorf("%d takers got the state, want 1", got)
		}
		if _, err := s.TakeState(ctx, "s2", now); !errors.Is(err, lti.ErrNotFound) {
			t.Errorf("an expired state: %v, want ErrNotFound", err)
		}
	})

	t.Run("NoncesServeOnce", func(t *testing.T) {
		s := open(t)
		if err := s.UseNonce(ctx, "iss", "n", now.Add(time.Minute), now); err != nil {
			t.Fatal(err)
		}
		if err := s.UseNonce(ctx, "iss", "n", now.Add(time.Minute), now); !errors.Is(err, lti.ErrReplayed) {
			t.Errorf("second use: %v, want ErrReplayed", err)
		}
		if err := s.UseNonce(ctx, "other", "n", now.Add(time.Minute), now); err != nil {
			t.Errorf("another issuer's nonce: %v", err)
		}
		// Once expired, the nonce is forgotten (a token with it is refused
		// by its exp anyway).
		if err := s.UseNonce(ctx, "iss", "n", now.Add(3*time.Minute), now.Add(2*time.Minute)); err != nil {
			t.Errorf("after expiry: %v", err)
		}
	})

	t.Run("Rosters", func(t *testing.T) {
		s := open(t)
		p, err := s.AddPlatform(ctx, platform)
		if err != nil {
			t.Fatal(err)
		}
		teacher, err := s.CreateTeacher(ctx, progress.Teacher{Email: "t@roster.invalid", Name: "T", PasswordHash: "x", CreatedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		class, err := s.CreateClass(ctx, progress.Class{TeacherID: teacher.ID, Name: "LMS course", TimeZone: "UTC", CreatedAt: now})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.FindLTIRoster(ctx, class.ID); !errors.Is(err, progress.ErrNotFound) {
			t.Errorf("FindLTIRoster before any fetch: %v, want ErrNotFound", err)
		}
		// A first fetch that failed: its problem, no members, never fetched.
		failed := progress.LTIRosterFetch{ClassID: class.ID, PlatformID: p.ID, MembershipsURL: "https://lms.example/m", At: now, Problem: "down"}
		if err := s.SaveLTIRosterFetch(ctx, failed); err != nil {
			t.Fatal(err)
		}
		if r, err := s.FindLTIRoster(ctx, class.ID); err != nil || r.Problem != "down" || !r.FetchedAt.IsZero() || !r.TriedAt.Equal(now) || r.PlatformID != p.ID {
			t.Errorf("after a failed fetch: %+v, %v", r, err)
		}
		// 250 members (three batches), one of them a learner who launched.
		if _, err := s.EnsureLearner(ctx, "l-7", now); err != nil {
			t.Fatal(err)
		}
		if err := s.CreateLTIUser(ctx, progress.LTIUser{Issuer: platform.Issuer, Subject: "u007", LearnerID: "l-7", CreatedAt: now}); err != nil {
			t.Fatal(err)
		}
		var members []progress.LTIRosterMember
		for i := range 250 {
			members = append(members, progress.LTIRosterMember{Issuer: platform.Issuer, Subject: fmt.Sprintf("u%03d", i), Name: fmt.Sprintf("Member %03d", i),
				Learner: i > 0, Instructor: i == 0, Active: i%50 != 1})
		}
		worked := failed
		worked.At, worked.Problem, worked.Members = now.Add(time.Minute), "", members
		if err := s.SaveLTIRosterFetch(ctx, worked); err != nil {
			t.Fatal(err)
		}
		got, err := s.LTIRosterMembers(ctx, class.ID)
		if err != nil || len(got) != 250 {
			t.Fatalf("LTIRosterMembers = %d members, %v; want 250", len(got), err)
		}
		for i, m := range got {
			want := members[i]
			if i == 7 {
				want.LearnerID = "l-7"
			}
			if m != want {
				t.Errorf("member %d = %+v, want %+v", i, m, want)
			}
		}
		// A later failure keeps the members and the time it last worked.
		failed.At = now.Add(2 * time.Minute)
		if err := s.SaveLTIRosterFetch(ctx, failed); err != nil {
			t.Fatal(err)
		}
		r, err := s.FindLTIRoster(ctx, class.ID)
		if err != nil || r.Problem != "down" || !r.FetchedAt.Equal(now.Add(time.Minute)) || !r.TriedAt.Equal(now.Add(2*time.Minute)) {
			t.Errorf("after a later failure: %+v, %v", r, err)
		}
		if got, _ := s.LTIRosterMembers(ctx, class.ID); len(got) != 250 {
			t.Errorf("a failed fetch changed the members: %d", len(got))
		}
		// A fetch that works replaces them all.
		worked.At, worked.Members = now.Add(3*time.Minute), members[:1]
		if err := s.SaveLTIRosterFetch(ctx, worked); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.LTIRosterMembers(ctx, class.ID); len(got) != 1 || got[0].Subject != "u000" {
			t.Errorf("after a fetch of one member: %+v", got)
		}
		if r, err := s.FindLTIRoster(ctx, class.ID); err != nil || r.Problem != "" || !r.FetchedAt.Equal(now.Add(3*time.Minute)) {
			t.Errorf("after it worked again: %+v, %v", r, err)
		}
	})

	t.Run("InvitesServeOnce", func(t *testing.T) {
		s := open(t)
		inv, err := s.AddInvite(ctx, lti.Invite{TokenHash: "h1", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}, now)
		if err != nil || inv.ID == 0 {
			t.Fatalf("AddInvite = %+v, %v", inv, err)
		}
		if _, err := s.AddInvite(ctx, lti.Invite{TokenHash: "old", CreatedAt: now.Add(-2 * time.Hour), ExpiresAt: now.Add(-time.Hour)}, now.Add(-3*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got, err := s.FindInvite(ctx, "h1"); err != nil || got.ID != inv.ID || !got.UsedAt.IsZero() || !got.ExpiresAt.Equal(now.Add(time.Hour)) {
			t.Errorf("FindInvite = %+v, %v", got, err)
		}
		if _, err := s.FindInvite(ctx, "nope"); !errors.Is(err, lti.ErrNotFound) {
			t.Errorf("FindInvite of an unknown hash: %v, want ErrNotFound", err)
		}
		if _, err := s.SpendInvite(ctx, "old", now); !errors.Is(err, lti.ErrNotFound) {
			t.Errorf("spending an expired invite: %v, want ErrNotFound", err)
		}
		// Several spenders at once: exactly one gets the invite.
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for range 4 {
			wg.Go(func() {
				got, err := s.SpendInvite(ctx, "h1", now)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won++
					if got.ID != inv.ID || !got.UsedAt.Equal(now) {
						t.Errorf("SpendInvite = %+v", got)
					}
				case !errors.Is(err, lti.ErrNotFound):
					t.Errorf("SpendInvite: %v", err)
				}
			})
		}
		wg.Wait()
		if won != 1 {
			t.Errorf("%d spenders got the invite, want 1", won)
		}
		if got, err := s.FindInvite(ctx, "h1"); err != nil || !got.UsedAt.Equal(now) {
			t.Errorf("a spent invite = %+v, %v; want it used at %v", got, err, now)
		}
		// A failed registration gives the invite back, once more usable.
		if err := s.RestoreInvite(ctx, inv.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SpendInvite(ctx, "h1", now); err != nil {
			t.Errorf("spending a restored invite: %v", err)
		}
		all, err := s.Invites(ctx)
		if err != nil || len(all) != 2 || all[0].TokenHash != "h1" {
			t.Fatalf("Invites = %+v, %v", all, err)
		}
		// A new invite forgets those expired before its cut-off.
		if _, err := s.AddInvite(ctx, lti.Invite{TokenHash: "h2", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}, now); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FindInvite(ctx, "old"); !errors.Is(err, lti.ErrNotFound) {
			t.Errorf("an invite expired before the cut-off: %v, want it forgotten", err)
		}
		if err := s.RevokeInvite(ctx, inv.ID); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			err  error
		}{
			{"revoke twice", s.RevokeInvite(ctx, inv.ID)},
			{"restore a revoked invite", s.RestoreInvite(ctx, inv.ID)},
		} {
			if !errors.Is(tc.err, lti.ErrNotFound) {
				t.Errorf("%s: %v, want ErrNotFound", tc.name, tc.err)
			}
		}
	})

	t.Run("SigningKeys", func(t *testing.T) {
		s := open(t)
		if ks, err := s.SigningKeys(ctx); err != nil || len(ks) != 0 {
			t.Fatalf("SigningKeys before any = %v, %v", ks, err)
		}
		for i, kid := range []string{"k1", "k2", "k3"} {
			k := lti.Key{KID: kid, PrivateKey: []byte(kid), CreatedAt: now.Add(time.Duration(i) * 24 * time.Hour)}
			if err := s.AddSigningKey(ctx, k, now.Add(time.Duration(i)*24*time.Hour-12*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		ks, err := s.SigningKeys(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var kids []string
		for _, k := range ks {
			kids = append(kids, k.KID)
		}
		// k1 retired a day after its making, before the cut-off: deleted.
		if !slices.Equal(kids, []string{"k3", "k2"}) || !ks[0].RetiredAt.IsZero() || !ks[1].RetiredAt.Equal(ks[0].CreatedAt) || string(ks[0].PrivateKey) != "k3" {
			t.Errorf("SigningKeys = %+v", ks)
		}
	})
}
