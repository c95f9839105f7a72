package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"learn/progress"
)

// The learners' devices and the sign-in failure counts of
// progress.ClassroomStore.

func device(t *testing.T, s progress.Store, id, learner string, classID int64, seen time.Time) progress.Device {
	t.Helper()
	d := progress.Device{ID: id, LearnerID: learner, ClassID: classID, UserAgent: "UA " + id, CreatedAt: t0, LastSeen: seen}
	if err := s.AddDevice(context.Background(), d); err != nil {
		t.Fatalf("AddDevice(%s): %v", id, err)
	}
	return d
}

// deviceIDs returns the ids of the learner's devices in the order listed.
func deviceIDs(t *testing.T, s progress.Store, learner string) []string {
	t.Helper()
	ds, err := s.LearnerDevices(context.Background(), learner)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, d.ID)
	}
	return out
}

func sameDeviceIDs(got []string, want ...string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func testDevices(t *testing.T, s Backend) {
	ctx := context.Background()
	a := teacher(t, s, "a@school.example")
	one := class(t, s, a.ID, "one", "ABCDEF")
	two := class(t, s, a.ID, "two", "GHJKMN")
	member(t, s, one.ID, "l1", "amber")
	member(t, s, two.ID, "l1", "amber")
	member(t, s, one.ID, "l2", "basil")
	d1 := device(t, s, "d1", "l1", one.ID, t0.Add(time.Minute))
	device(t, s, "d2", "l1", one.ID, t0.Add(2*time.Minute))
	device(t, s, "d3", "l1", two.ID, t0.Add(500*time.Millisecond))
	device(t, s, "e1", "l2", one.ID, t0)

	got, err := s.FindDevice(ctx, "l1", "d1")
	if err != nil || got != d1 {
		t.Errorf("FindDevice(l1, d1) = %+v, %v, want %+v", got, err, d1)
	}
	if _, err := s.FindDevice(ctx, "l2", "d1"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("another learner's device was found (%v)", err)
	}
	if ids := deviceIDs(t, s, "l1"); !sameDeviceIDs(ids, "d2", "d1", "d3") {
		t.Errorf("LearnerDevices(l1) = %v, want last seen first: d2 d1 d3", ids)
	}
	if err := s.TouchDevice(ctx, "d3", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchDevice(ctx, "missing", t0); err != nil {
		t.Errorf("touching a missing device: %v, want nil", err)
	}
	if ids := deviceIDs(t, s, "l1"); !sameDeviceIDs(ids, "d3", "d2", "d1") {
		t.Errorf("after touching d3 the devices are %v, want d3 d2 d1", ids)
	}

	// New words in class one end its devices, not class two's nor other
	// learners'.
	if err := s.SetMemberSecret(ctx, one.ID, "l1", "x y z", "h2"); err != nil {
		t.Fatal(err)
	}
	if ids := deviceIDs(t, s, "l1"); !sameDeviceIDs(ids, "d3") {
		t.Errorf("after new words in class one l1's devices are %v, want d3", ids)
	}
	if ids := deviceIDs(t, s, "l2"); !sameDeviceIDs(ids, "e1") {
		t.Errorf("another learner's devices went with new words: %v", ids)
	}
	if err := s.SetMemberSecret(ctx, one.ID, "nobody", "x", "h"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("SetMemberSecret of a non-member = %v, want ErrNotFound", err)
	}

	// Removal from a class ends that class's devices.
	device(t, s, "d4", "l1", one.ID, t0)
	if err := s.RemoveMember(ctx, two.ID, "l1"); err != nil {
		t.Fatal(err)
	}
	if ids := deviceIDs(t, s, "l1"); !sameDeviceIDs(ids, "d4") {
		t.Errorf("after removal from class two l1's devices are %v, want d4", ids)
	}

	// Idle devices go: those last seen before the time given, of that
	// learner only.
	device(t, s, "i1", "l1", one.ID, t0.Add(-48*time.Hour))
	device(t, s, "i2", "l1", one.ID, t0.Add(-time.Hour))
	device(t, s, "i3", "l2", one.ID, t0.Add(-48*time.Hour))
	if n, err := s.DeleteIdleDevices(ctx, "l1", t0.Add(-24*time.Hour)); err != nil || n != 1 {
		t.Errorf("DeleteIdleDevices(l1, a day before) = %d, %v, want 1", n, err)
	}
	if ids := deviceIDs(t, s, "l1"); !sameDeviceIDs(ids, "d4", "i2") {
		t.Errorf("after deleting l1's idle devices: %v, want d4 i2", ids)
	}
	if ids := deviceIDs(t, s, "l2"); !sameDeviceIDs(ids, "e1", "i3") {
		t.Errorf("another learner's idle device went: %v, want e1 i3", ids)
	}
	if _, err := s.DeleteDevices(ctx, "l1", "d4"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteDevices(ctx, "l2", "e1"); err != nil {
		t.Fatal(err)
	}

	// Signing out the others keeps one.
	device(t, s, "d5", "l1", one.ID, t0.Add(time.Second))
	if n, err := s.DeleteDevices(ctx, "l1", "d5"); err != nil || n != 1 {
		t.Errorf("DeleteDevices(l1, keep d5) = %d, %v, want 1", n, err)
	}
	if ids := deviceIDs(t, s, "l1"); !sameDeviceIDs(ids, "d5") {
		t.Errorf("after signing out the others: %v, want d5", ids)
	}
	if n, err := s.DeleteDevices(ctx, "l1", ""); err != nil || n != 1 {
		t.Errorf("DeleteDevices(l1, keep none) = %d, %v, want 1", n, err)
	}

	// Deleting a learner deletes their devices.
	device(t, s, "d6", "l1", one.ID, t0)
	if err := s.DeleteLearner(ctx, "l1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindDevice(ctx, "l1", "d6"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a deleted learner's device stayed (%v)", err)
	}
	if ids := deviceIDs(t, s, "l2"); !sameDeviceIDs(ids, "e1") {
		t.Errorf("another learner's devices went with a deletion: %v", ids)
	}
}

func testSignInFailures(t *testing.T, s Backend) {
	ctx := context.Background()
	if f, err := s.SignInFailures(ctx, "k"); err != nil || f.Count != 0 || !f.Last.IsZero() {
		t.Errorf("failures of a new key = %+v, %v, want none", f, err)
	}
	since := t0.Add(-time.Hour)
	for i := 1; i <= 3; i++ {
		at := t0.Add(time.Duration(i) * time.Second)
		f, err := s.AddSignInFailure(ctx, "k", at, since)
		if err != nil || f.Count != i || !f.Last.Equal(at) {
			t.Errorf("failure %d = %+v, %v, want count %d at %v", i, f, err, i, at)
		}
	}
	if f, _ := s.SignInFailures(ctx, "k"); f.Count != 3 || !f.Last.Equal(t0.Add(3*time.Second)) {
		t.Errorf("SignInFailures(k) = %+v, want 3", f)
	}
	if _, err := s.AddSignInFailure(ctx, "other", t0, since); err != nil {
		t.Fatal(err)
	}
	// Two hours on, an old count starts again from one and other keys
	// whose last failure is older than since are dropped.
	later := t0.Add(2 * time.Hour)
	f, err := s.AddSignInFailure(ctx, "k", later, later.Add(-time.Hour))
	if err != nil || f.Count != 1 {
		t.Errorf("a failure after the memory = %+v, %v, want count 1", f, err)
	}
	if f, _ := s.SignInFailures(ctx, "other"); f.Count != 0 {
		t.Errorf("an old key was kept: %+v", f)
	}
	if err := s.ClearSignInFailures(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if f, _ := s.SignInFailures(ctx, "k"); f.Count != 0 {
		t.Errorf("after clearing: %+v", f)
	}
	if err := s.ClearSignInFailures(ctx, "missing"); err != nil {
		t.Errorf("clearing a missing key: %v", err)
	}
}
