package storage

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"
)

func errorsIs(err, target error) bool { return errors.Is(err, target) }

func TestRotateSecret(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	if _, _, err := s.PreviousSecret(ctx, "k"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("PreviousSecret before any rotation = %v, want ErrNotFound", err)
	}
	first, err := s.Secret(ctx, "k", 32)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
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
	if bytes.Equal(first, second) || len(second) != 32 || !bytes.Equal(prev, first) || !retired.Equal(at) {
		t.Errorf("after rotation: new key equal to old %v (len %d), previous is the old one %v, retired %v want %v",
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
	if _, _, err := s.PreviousSecret(ctx, "fresh"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a new name has a previous secret: %v", err)
	}
}
