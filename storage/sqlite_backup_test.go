package storage

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"learn/progress"
)

// TestBackupWhileWriting copies the database while writers keep adding
// awarded attempts, then opens the copy: it passes SQLite's integrity
// check and holds every attempt acknowledged before the backup began.
func TestBackupWhileWriting(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	record := func(learner string, i int) error {
		_, err := s.RecordAttempt(ctx, progress.Attempt{
			LearnerID: learner, LessonSlug: "l", WidgetID: "w", Kind: "quiz", Score: 1, Total: 1, Passed: true,
			Answers: `{"q1":["a"]}`, At: time.Now(),
		}, progress.AttemptEffects{Award: &progress.Award{Key: fmt.Sprintf("quiz:%d", i), Amount: 10, Reason: "quiz"}})
		return err
	}
	const before = 200
	for i := range before {
		if err := record("a", i); err != nil {
			t.Fatal(err)
		}
	}
	var written atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := record(fmt.Sprintf("writer-%d", w), i); err != nil {
					t.Errorf("a write during the backup failed: %v", err)
					return
				}
				written.Add(1)
			}
		})
	}
	for written.Load() < 20 {
		time.Sleep(time.Millisecond)
	}
	dest := filepath.Join(t.TempDir(), "copy.db")
	err := s.Backup(ctx, dest)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatalf("Backup: %v", err)
	}
	if written.Load() < 20 {
		t.Fatalf("only %d writes happened around the backup", written.Load())
	}

	fi, err := os.Stat(dest)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the copy has mode %v, want -rw-------", fi.Mode().Perm())
	}
	cp, err := OpenSQLite(ctx, dest)
	if err != nil {
		t.Fatalf("open the copy: %v", err)
	}
	defer cp.Close()
	var check string
	if err := cp.db.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("integrity_check of the copy = %q, %v", check, err)
	}
	xp, err := cp.TotalXP(ctx, "a")
	if err != nil || xp != before*10 {
		t.Errorf("the copy holds %d XP for the learner written before the backup, want %d (%v)", xp, before*10, err)
	}
	var rows int
	if err := cp.db.QueryRowContext(ctx, "SELECT count(*) FROM attempts").Scan(&rows); err != nil || rows < before {
		t.Errorf("the copy holds %d attempts, want at least %d (%v)", rows, before, err)
	}
	t.Logf("%d attempts in the copy; %d written during the backup", rows, written.Load())

	if err := s.Backup(ctx, dest); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a backup over an existing file = %v, want a refusal", err)
	}
}
