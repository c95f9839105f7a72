package sandbox

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

const fuzzNonce = "n0nce"

// fuzzFrame is one harness frame for case idx.
func fuzzFrame(idx int, kind, payload string) string {
	return fmt.Sprintf("\x1e%s %d %s %d\n%s", fuzzNonce, idx, kind, len(payload), payload)
}

// FuzzParseFrames feeds the frame parser and the judge arbitrary guest
// output: neither may panic, every case keeps its slot, and no case passes
// that did not print its expected output.
func FuzzParseFrames(f *testing.F) {
	good := fuzzFrame(0, "start", "") + fuzzFrame(0, "out", "42\n") + fuzzFrame(0, "end", "ok 0 0 0") +
		fuzzFrame(1, "start", "") + fuzzFrame(1, "out", "x\n") + fuzzFrame(1, "err", "oops") + fuzzFrame(1, "end", "error 1 0 1") +
		string(doneFrame(fuzzNonce))
	f.Add([]byte(good), uint8(2))
	f.Add([]byte(fuzzFrame(-1, "syntax", "  File \"main.py\", line 1\nSyntaxError: bad")+string(doneFrame(fuzzNonce))), uint8(1))
	f.Add([]byte("stray"+fuzzFrame(0, "start", "")+"more stray"+fuzzFrame(0, "end", "memory 1 1 0")), uint8(1))
	f.Add([]byte(fuzzFrame(3, "start", "")+fuzzFrame(0, "out", "42\n")+fuzzFrame(0, "end", "ok 0 0")), uint8(1))
	f.Add([]byte("\x1e"+fuzzNonce+" 0 out 99999\n42"), uint8(1))
	f.Add([]byte(fuzzFrame(0, "start", "")+fuzzFrame(0, "tb", "Traceback\nValueError: x")+fuzzFrame(0, "end", "error 1 0 0")), uint8(1))
	f.Fuzz(func(t *testing.T, stream []byte, n uint8) {
		ncases := int(n % 6)
		tr := parseFrames(stream, fuzzNonce, ncases)
		if len(tr.Cases) != ncases {
			t.Fatalf("%d cases parsed for %d", len(tr.Cases), ncases)
		}
		cases := make([]Case, ncases)
		for i := range cases {
			cases[i] = Case{Name: fmt.Sprintf("case %d", i), Expected: "42"}
		}
		l := limits{Timeout: "5 s", Memory: "64 MiB", Output: "64 KiB", OutputCap: 64 << 10}
		rep := judge(cases, tr, execOutcome{}, CompareTrimmedLines, l)
		if len(rep.Cases) != ncases {
			t.Fatalf("%d results for %d cases", len(rep.Cases), ncases)
		}
		for i, c := range rep.Cases {
			// What the report quotes is text, whatever bytes the guest forged.
			if c.Message == "" || !utf8.ValidString(c.Message) {
				t.Errorf("case %d: message %q", i, c.Message)
			}
			for _, s := range []string{c.Actual, c.Error, c.Stderr, c.Diff} {
				if !utf8.ValidString(s) {
					t.Errorf("case %d: the report quotes invalid UTF-8: %q", i, s)
				}
			}
			if c.Verdict == VerdictPassed && !strings.Contains(string(stream), "42") {
				t.Errorf("case %d passed without printing the expected output", i)
			}
		}
	})
}

// TestForgedFrameCutsACharacter declares a frame one byte short, so that it
// ends inside a two-byte character, in every kind of frame that carries
// text: the report still quotes only valid UTF-8.
func TestForgedFrameCutsACharacter(t *testing.T) {
	for _, kind := range []string{"tb", "err", "out", "syntax"} {
		t.Run(kind, func(t *testing.T) {
			idx := 0
			if kind == "syntax" {
				idx = -1
			}
			payload := "ValueError é"
			stream := fuzzFrame(0, "start", "") + fmt.Sprintf("\x1e%s %d %s %d\n%s", fuzzNonce, idx, kind, len(payload)-1, payload) +
				fuzzFrame(0, "end", "error 1 0 1") + string(doneFrame(fuzzNonce))
			if !utf8.ValidString(stream) {
				t.Fatal("the stream itself must be valid UTF-8")
			}
			tr := parseFrames([]byte(stream), fuzzNonce, 1)
			l := limits{Timeout: "5 s", Memory: "64 MiB", Output: "64 KiB", OutputCap: 64 << 10}
			rep := judge([]Case{{Name: "c", Expected: "42"}}, tr, execOutcome{}, CompareTrimmedLines, l)
			for _, c := range rep.Cases {
				for _, s := range []string{c.Message, c.Actual, c.Error, c.Stderr, c.Diff} {
					if !utf8.ValidString(s) {
						t.Errorf("the report quotes invalid UTF-8: %q", s)
					}
				}
			}
		})
	}
}
