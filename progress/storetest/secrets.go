package storetest

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"learn/progress"
)

// testSecretStable checks that a secret is made once and then read back,
// and that names are apart.
func testSecretStable(t *testing.T, s Backend) {
	ctx := context.Background()
	first, err := s.Secret(ctx, "cookie", 32)
	if err != nil {
		t.Fatalf("Secret: %v", err)
	}
	again, err := s.Secret(ctx, "cookie", 32)
	if err != nil {
		t.Fatalf("Secret again: %v", err)
	}
	other, err := s.Secret(ctx, "other", 16)
	if err != nil {
		t.Fatalf("Secret other: %v", err)
	}
	if len(first) != 32 || !bytes.Equal(first, again) || len(other) != 16 || bytes.Equal(first[:16], other) {
		t.Errorf("Secret = %x then %x (other %x), want one 32-byte value, and another for another name", first, again, other)
	}
}

// testSecretRotation checks RotateSecret and PreviousSecret.
func testSecretRotation(t *testing.T, s Backend) {
	ctx := context.Background()
	if _, _, err := s.PreviousSecret(ctx, "k"); !errors.Is(err, progress.ErrNotFound) {
		t.Fatalf("PreviousSecret before any rotation = %v, want ErrNotFound", err)
	}
	first, err := s.Secret(ctx, "k", 32)
	if err != nil {
		t.Fatal(err)
	}
	at := t0.Add(123456789 * time.Nanosecond)
	if err := s.RotateSecret(ctx, "k", 32, at); err != nil {
		t.Fatal(err)
	}
	second, err := s.Secret(ctx, "k", 32)
	if err != nil {
		t.Fatal(err)
	}
	prev, retired, err := s.PreviousSecret(ctx, "k")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(first, second) || len(second) != 32 || !bytes.Equal(prev, first) || !retired.Equal(at) || retired.Location() != time.UTC {
		t.Errorf("after rotation: new key equal to old %v (len %d), previous is the old one %v, retired %v want %v in UTC",
			bytes.Equal(first, second), len(second), bytes.Equal(prev, first), retired, at)
	}
	// A second rotation retires the second key; the first is gone.
	if err := s.RotateSecret(ctx, "k", 32, at.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if prev, _, _ := s.PreviousSecret(ctx, "k"); !bytes.Equal(prev, second) {
		t.Error("the second rotation did not keep the second key as the previous one")
	}
	// Rotating a name never used creates it with no previous secret.
	if err := s.RotateSecret(ctx, "fresh", 16, at); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PreviousSecret(ctx, "fresh"); !errors.Is(err, progress.ErrNotFound) {
		t.Errorf("a new name has a previous secret: %v", err)
	}
}
