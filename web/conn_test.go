package web

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// writeSyscalls is the number of write system calls this process made
// (the kernel's syscw count).
func writeSyscalls(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Skipf("no /proc/self/io here to count system calls: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "syscw: "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatalf("read /proc/self/io: %v", err)
			}
			return n
		}
	}
	t.Skip("/proc/self/io has no syscw line")
	return 0
}

// startConnServer serves h like learn serve does: through
// OneWriteListener with ConnContext when oneWrite is set, plainly
// otherwise.
func startConnServer(t *testing.T, h http.Handler, oneWrite bool) *httptest.Server {
	t.Helper()
	ts := httptest.NewUnstartedServer(h)
	if oneWrite {
		ts.Listener = OneWriteListener(ts.Listener)
		ts.Config.ConnContext = ConnContext
	}
	ts.Start()
	t.Cleanup(ts.Close)
	return ts
}

// getRaw sends one GET on an open connection and reads the answer whole.
func getRaw(t *testing.T, c net.Conn, br *bufio.Reader, path, header string) (*http.Response, []byte) {
	t.Helper()
	if err := c.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: learn.test\r\n%s\r\n", path, header); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("GET %s: read body: %v (the server held back part of its answer?)", path, err)
	}
	return res, body
}

// TestOneWritePerPage counts the server's write system calls for a lesson
// page through the real server: one with OneWriteListener, where net/http
// alone makes two. Other goroutines' writes can only add to a count, so
// the least of several requests is the answer's own.
func TestOneWritePerPage(t *testing.T) {
	s := newTestServer(t)
	const path = "/lessons/two-ways-to-fail"
	for _, tc := range []struct {
		name     string
		oneWrite bool
		header   string
		want     int
	}{
		{"plain net/http", false, "", 2},
		{"one write", true, "", 1},
		{"one write, gzip", true, "Accept-Encoding: gzip\r\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := startConnServer(t, s, tc.oneWrite)
			c, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			br := bufio.NewReader(c)
			_, first := getRaw(t, c, br, path, tc.header)
			least := -1
			for range 7 {
				before := writeSyscalls(t)
				res, body := getRaw(t, c, br, path, tc.header)
				n := writeSyscalls(t) - before - 1 // the request's own write
				if res.StatusCode != http.StatusOK || len(body) < 8<<10 {
					t.Fatalf("GET %s = %d with %d bytes, want 200 and the page", path, res.StatusCode, len(body))
				}
				if tc.header == "" && !bytes.Equal(body[:200], first[:200]) {
					t.Fatalf("the page changed between requests")
				}
				if least < 0 || n < least {
					least = n
				}
			}
			if least != tc.want {
				t.Errorf("a lesson page took %d write system calls, want %d", least, tc.want)
			}
		})
	}
}

// TestOneWriteConnSendsEverything writes answers of sizes around the
// connection buffer's, with and without a length, flushed first or not,
// in one write or several, and checks each arrives whole and at once (the
// client's deadline fails a held write that is never sent).
func TestOneWriteConnSendsEverything(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		size, _ := strconv.Atoi(q.Get("size"))
		pieces, _ := strconv.Atoi(q.Get("pieces"))
		rec := &statusRecorder{ResponseWriter: w, conn: oneWriteFrom(r.Context())}
		body := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
		if q.Has("length") {
			rec.Header().Set("Content-Length", strconv.Itoa(size))
		}
		if q.Has("flush") {
			rec.WriteHeader(http.StatusOK)
			http.NewResponseController(rec).Flush()
		}
		step := size/pieces + 1
		for len(body) > 0 {
			n := min(step, len(body))
			if _, err := rec.Write(body[:n]); err != nil {
				return
			}
			body = body[n:]
		}
	})
	ts := startConnServer(t, h, true)
	c, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	for _, size := range []int{0, 100, 4095, 4096, 4097, 8191, 8192, 8193, 12288, 57669, 300_000} {
		for _, mode := range []string{"", "&length", "&flush", "&length&flush"} {
			for _, pieces := range []int{1, 3} {
				path := fmt.Sprintf("/?size=%d&pieces=%d%s", size, pieces, mode)
				res, body := getRaw(t, c, br, path, "")
				want := bytes.Repeat([]byte("0123456789abcdef"), size/16+1)[:size]
				if res.StatusCode != http.StatusOK || !bytes.Equal(body, want) {
					t.Fatalf("GET %s = %d with %d bytes, want 200 with %d", path, res.StatusCode, len(body), size)
				}
			}
		}
	}
}
