package web

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"learn/lessons"
)

// readState reads the stream up to its next state event.
func readState(t *testing.T, r *bufio.Reader) DevState {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("read stream: %v", err)
		}
		if data, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			var st DevState
			if err := json.Unmarshal([]byte(data), &st); err != nil {
				t.Fatalf("state %q: %v", data, err)
			}
			return st
		}
	}
}

func TestDevEvents(t *testing.T) {
	plain := httptest.NewServer(newTestServer(t))
	defer plain.Close()
	resp, err := http.Get(plain.URL + "/dev/events")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("without Dev, /dev/events = %d, want 404", resp.StatusCode)
	}
	page, _ := http.Get(plain.URL + "/")
	var body strings.Builder
	bufio.NewReader(page.Body).WriteTo(&body)
	page.Body.Close()
	if strings.Contains(body.String(), "learn-dev-events") {
		t.Error("without Dev, pages carry the dev marker")
	}

	s := newTestServer(t, func(ts *testSetup) { ts.Dev = true })
	srv := httptest.NewServer(s)
	defer srv.Close()
	defer s.CloseEvents()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/dev/events", nil)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q", ct)
	}
	r := bufio.NewReader(resp.Body)
	first := readState(t, r)
	if len(first.Problems) != 0 {
		t.Errorf("first state = %+v, want no problems", first)
	}
	s.ShowProblems(lessons.Problems{{File: "01-a.md", Line: 3, Message: "slug is not valid"}})
	if st := readState(t, r); st.Version != first.Version || len(st.Problems) != 1 || st.Problems[0] != "01-a.md:3: slug is not valid" {
		t.Errorf("after ShowProblems: %+v", st)
	}
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Reload(course); err != nil {
		t.Fatal(err)
	}
	if st := readState(t, r); st.Version != first.Version+1 || len(st.Problems) != 0 {
		t.Errorf("after Reload: %+v, want the next version and no problems", st)
	}
	page, _ = http.Get(srv.URL + "/")
	body.Reset()
	bufio.NewReader(page.Body).WriteTo(&body)
	page.Body.Close()
	if !strings.Contains(body.String(), `<meta name="learn-dev-events" content="/dev/events">`) {
		t.Error("with Dev, pages lack the dev marker")
	}
	s.CloseEvents()
	if _, err := r.ReadString('\n'); err == nil {
		if _, err := r.ReadString('\n'); err == nil {
			t.Error("the stream goes on after CloseEvents")
		}
	}
}
