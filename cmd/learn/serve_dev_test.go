package main

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyCourse copies the fixture courses of testdata/broken named by
// courses into one new course folder.
func copyCourse(t *testing.T, courses ...string) string {
	t.Helper()
	dir := t.TempDir()
	for i, c := range courses {
		src, err := os.ReadFile(filepath.Join("testdata", "broken", c, "01-sums.md"))
		if err != nil {
			t.Fatal(err)
		}
		// Each lesson its own file, slug, order and exercise id.
		text := strings.NewReplacer("slug: sums", "slug: sums-"+c, "order: 1", "order: "+string(rune('1'+i)), "id: sum\n", "id: sum-"+c+"\n").Replace(string(src))
		if err := os.WriteFile(filepath.Join(dir, "0"+string(rune('1'+i))+"-"+c+".md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestServeDevBrokenCourse checks that learn serve --dev starts on a
// course with errors, serves its sound lessons, and sends every problem to
// the pages' overlay, the failing reference solution with its diff; and
// that without --dev the same course stops the server with the problems.
func TestServeDevBrokenCourse(t *testing.T) {
	dir := copyCourse(t, "misspelt-block", "failing-solution")
	cfg := serveConfig{addr: "127.0.0.1:0", db: filepath.Join(t.TempDir(), "learn.db"), lessons: dir, logLevel: slog.LevelWarn,
		sandbox: testSandboxConfig(t), runsPerMinute: 600, postsPerMinute: 600}
	err := serve(context.Background(), cfg, serverLog(t), nil)
	if err == nil || !strings.Contains(err.Error(), `unknown block "clasify"`) || !strings.Contains(err.Error(), "--dev") {
		t.Fatalf("serve without --dev = %v, want the problems and a word on --dev", err)
	}

	cfg.dev = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	listening := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, serverLog(t), listening) }()
	var base string
	select {
	case addr := <-listening:
		base = "http://" + addr
	case err := <-done:
		t.Fatalf("serve --dev on a broken course: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve --dev did not start within 30 s")
	}
	c := newClient(t)
	if resp, body := get(t, c, base+"/lessons/sums-failing-solution"); resp.StatusCode != http.StatusOK {
		t.Errorf("the sound lesson: %d\n%s", resp.StatusCode, body)
	}
	if resp, _ := get(t, c, base+"/lessons/sums-misspelt-block"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the broken lesson: %d, want 404", resp.StatusCode)
	}

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/dev/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	want := []string{`01-misspelt-block.md:12: unknown block "clasify"`,
		// and the case "Negative numbers" after it
		"02-failing-solution.md:12: exercise sum-failing-solution: the reference solution fails case \"Small numbers\" (wrong output): Line 1 of your output differs from the expected output: compare them in the diff and fix your code.\n    - expected\n    + actual\n    - 3\n    + 2"}
	states := make(chan []string)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var st struct{ Problems []string }
			if json.Unmarshal([]byte(data), &st) == nil {
				states <- st.Problems
			}
		}
		close(states)
	}()
	deadline := time.After(60 * time.Second)
	var last []string
	for {
		select {
		case ps, ok := <-states:
			if !ok {
				t.Fatalf("the event stream ended; last problems: %q", last)
			}
			last = ps
			if len(ps) == len(want)+1 && strings.HasPrefix(ps[0], want[0]) && ps[1] == want[1] {
				return
			}
		case <-deadline:
			t.Fatalf("the overlay never showed every problem; last: %q\nwant %q", last, want)
		}
	}
}
