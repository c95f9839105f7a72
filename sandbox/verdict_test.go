package sandbox

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSame(t *testing.T) {
	tests := []struct {
		name             string
		expected, actual string
		cmp              Comparison
		want             bool
	}{
		{"identical", "a\nb\n", "a\nb\n", CompareExact, true},
		{"exact: missing final newline", "a\n", "a", CompareExact, false},
		{"exact: trailing space", "a\n", "a \n", CompareExact, false},
		{"trimmed: missing final newline", "a\n", "a", CompareTrimmedLines, true},
		{"trimmed: spaces at both ends", "a b\n", "  a b \t\n", CompareTrimmedLines, true},
		{"trimmed: CRLF", "a\nb\n", "a\r\nb\r\n", CompareTrimmedLines, true},
		{"trimmed: blank lines at the end", "a\n", "a\n\n\n", CompareTrimmedLines, true},
		{"trimmed: blank line in the middle counts", "a\nb\n", "a\n\nb\n", CompareTrimmedLines, false},
		{"trimmed: inner spaces count", "a b\n", "a  b\n", CompareTrimmedLines, false},
		{"trimmed: nothing printed", "a\n", "", CompareTrimmedLines, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Same(tt.expected, tt.actual, tt.cmp); got != tt.want {
				t.Errorf("Same(%q, %q, %v) = %v", tt.expected, tt.actual, tt.cmp, got)
			}
		})
	}
}

func TestParseComparison(t *testing.T) {
	tests := []struct {
		in   string
		want Comparison
		ok   bool
	}{
		{"exact", CompareExact, true},
		{"Exact", CompareExact, true},
		{"", CompareTrimmedLines, true},
		{"trimmed lines", CompareTrimmedLines, true},
		{"trimmed-lines", CompareTrimmedLines, true},
		{"json", CompareJSON, true},
		{"fuzzy", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseComparison(tt.in)
			if (err == nil) != tt.ok || got != tt.want {
				t.Errorf("ParseComparison(%q) = %v, %v", tt.in, got, err)
			}
		})
	}
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name             string
		expected, actual string
		want             string
	}{
		{"equal", "a\n", "a\n", ""},
		{"one line changed", "a\nb\nc\n", "a\nx\nc\n", "  a\n- b\n+ x\n  c\n"},
		{"line missing", "a\nb\n", "a\n", "  a\n- b\n"},
		{"line extra", "a\n", "a\nb\n", "  a\n+ b\n"},
		{"nothing printed", "a\n", "", "- a\n"},
		{"trailing space made visible", "a\n", "a  \n", "- a\n+ a··\n"},
		{"missing final newline", "a\n", "a", "- a\n+ a  (no newline at end)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Diff(tt.expected, tt.actual)); diff != "" {
				t.Errorf("Diff mismatch (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("long outputs are cut", func(t *testing.T) {
		d := Diff(strings.Repeat("a\n", 1000), strings.Repeat("b\n", 1000))
		if n := strings.Count(d, "\n"); n != maxDiffLines+1 || !strings.Contains(d, "more lines") {
			t.Errorf("diff has %d lines, ends %q", n, d[len(d)-30:])
		}
	})
	t.Run("huge outputs pair lines by position", func(t *testing.T) {
		e := strings.Repeat("a\n", 5000)
		a := strings.Repeat("a\n", 4999) + "b\n"
		d := Diff(e, a)
		if !strings.HasPrefix(d, "  a\n") || !strings.Contains(d, "more lines") {
			t.Errorf("diff starts %q", d[:20])
		}
	})
}

func TestCapText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		n    int
		want string
		cut  bool
	}{
		{"under", "abc", 5, "abc", false},
		{"at", "abc", 3, "abc", false},
		{"over", "abcd", 3, "abc", true},
		{"inside a rune", "aé", 2, "a", true},
		{"after a rune", "éa", 2, "é", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := capText(tt.in, tt.n)
			if got != tt.want || cut != tt.cut {
				t.Errorf("capText(%q, %d) = %q, %v", tt.in, tt.n, got, cut)
			}
		})
	}
}

// frame builds one harness frame.
func frame(nonce, idx, kind, payload string) string {
	return "\x1e" + nonce + " " + idx + " " + kind + " " + itoa(len(payload)) + "\n" + payload
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

func caseFrames(nonce, idx, out, end string) string {
	return frame(nonce, idx, "start", "") + frame(nonce, idx, "out", out) + frame(nonce, idx, "err", "") + frame(nonce, idx, "end", end)
}

func TestParseFrames(t *testing.T) {
	const nonce = "0123456789abcdef0123456789abcdef"
	const other = "ffffffffffffffffffffffffffffffff"
	tests := []struct {
		name   string
		stream string
		ncases int
		want   transcript
	}{
		{
			name:   "two cases",
			stream: caseFrames(nonce, "0", "a\n", "ok 0 0 0") + caseFrames(nonce, "1", "b\n", "error 1 0 0") + frame(nonce, "-1", "done", ""),
			ncases: 2,
			want: transcript{Done: true, Cases: []guestCase{
				{Started: true, Ended: true, Status: statusOK, Stdout: []byte("a\n")},
				{Started: true, Ended: true, Status: statusError, ExitCode: 1, Stdout: []byte("b\n")},
			}},
		},
		{
			name:   "syntax error",
			stream: frame(nonce, "-1", "syntax", "SyntaxError: x\n") + frame(nonce, "-1", "done", ""),
			ncases: 1,
			want:   transcript{Syntax: "SyntaxError: x\n", Done: true, Cases: []guestCase{{}}},
		},
		{
			name:   "stray bytes belong to the running case",
			stream: frame(nonce, "0", "start", "") + "raw" + frame(nonce, "0", "out", "p\n") + frame(nonce, "0", "end", "ok 0 1 0"),
			ncases: 1,
			want:   transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusOK, Stdout: []byte("p\n"), Stray: []byte("raw"), StdoutCut: true}}},
		},
		{
			name:   "frames with another nonce are output",
			stream: frame(nonce, "0", "start", "") + caseFrames(other, "0", "fake", "ok 0 0 0"),
			ncases: 1,
			want:   transcript{Cases: []guestCase{{Started: true, Stray: []byte(caseFrames(other, "0", "fake", "ok 0 0 0"))}}},
		},
		{
			name:   "a case may not start before the previous one ends",
			stream: frame(nonce, "0", "start", "") + frame(nonce, "1", "start", "") + frame(nonce, "1", "out", "x") + frame(nonce, "1", "end", "ok 0 0 0"),
			ncases: 2,
			want:   transcript{Cases: []guestCase{{Started: true}, {}}, OutOfTurn: 3},
		},
		{
			name:   "frames after a case ended are ignored",
			stream: caseFrames(nonce, "0", "real\n", "ok 0 0 0") + frame(nonce, "0", "out", "forged\n"),
			ncases: 1,
			want:   transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusOK, Stdout: []byte("real\n")}}, OutOfTurn: 1},
		},
		{
			name:   "a second frame of one kind in a case is out of turn, and the later one counts",
			stream: frame(nonce, "0", "start", "") + frame(nonce, "0", "resp", "forged") + frame(nonce, "0", "out", "x") + frame(nonce, "0", "resp", "real") + frame(nonce, "0", "out", "y") + frame(nonce, "0", "end", "ok 0 0 0"),
			ncases: 1,
			want:   transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusOK, Stdout: []byte("y"), Response: []byte("real"), HasResponse: true}}, OutOfTurn: 2},
		},
		{
			name:   "an empty response frame is no response",
			stream: frame(nonce, "0", "start", "") + frame(nonce, "0", "resp", "") + frame(nonce, "0", "end", "ok 0 0 0"),
			ncases: 1,
			want:   transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusOK}}},
		},
		{
			name:   "case index out of range",
			stream: frame(nonce, "0", "start", "") + frame(nonce, "7", "start", ""),
			ncases: 1,
			want:   transcript{Cases: []guestCase{{Started: true}}, OutOfTurn: 1},
		},
		{
			name:   "truncated frame is output",
			stream: frame(nonce, "0", "start", "") + "\x1e" + nonce + " 0 out 100\nshort",
			ncases: 1,
			want:   transcript{Cases: []guestCase{{Started: true, Stray: []byte("\x1e" + nonce + " 0 out 100\nshort")}}},
		},
	}
	tests = append(tests, struct {
		name   string
		stream string
		ncases int
		want   transcript
	}{
		name:   "a syntax error after a case started is out of turn",
		stream: caseFrames(nonce, "0", "a\n", "ok 0 0 0") + frame(nonce, "-1", "syntax", "leaked\n"),
		ncases: 1,
		want:   transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusOK, Stdout: []byte("a\n")}}, OutOfTurn: 1},
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseFrames([]byte(tt.stream), nonce, tt.ncases)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseFrames mismatch (-want +got):\n%s", diff)
			}
			// The engine reads the stream as it comes, in any pieces.
			for size := 1; size <= 40; size += 3 {
				p := newFrameParser(nonce, tt.ncases, true)
				for b := []byte(tt.stream); len(b) > 0; {
					n := min(size, len(b))
					p.write(b[:n])
					b = b[n:]
				}
				if diff := cmp.Diff(tt.want, p.finish()); diff != "" {
					t.Errorf("in pieces of %d (-want +got):\n%s", size, diff)
				}
			}
		})
	}
}

func TestJudge(t *testing.T) {
	l := DefaultConfig()
	l.Timeout = 1e9
	lim := l.limits()
	ok := func(out string) guestCase {
		return guestCase{Started: true, Ended: true, Status: statusOK, Stdout: []byte(out)}
	}
	cases := []Case{{Name: "one", Expected: "a\n"}, {Name: "two", Expected: "b\n", Hidden: true}}
	tests := []struct {
		name   string
		tr     transcript
		end    execOutcome
		want   []Verdict
		passed bool
	}{
		{"all pass", transcript{Done: true, Cases: []guestCase{ok("a\n"), ok("b")}}, execOutcome{}, []Verdict{VerdictPassed, VerdictPassed}, true},
		{"one wrong", transcript{Done: true, Cases: []guestCase{ok("a\n"), ok("c\n")}}, execOutcome{}, []Verdict{VerdictPassed, VerdictWrongOutput}, false},
		{"syntax error fails all", transcript{Syntax: "SyntaxError: x", Cases: make([]guestCase, 2)}, execOutcome{}, []Verdict{VerdictError, VerdictError}, false},
		{"exception", transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusError, Traceback: "ValueError: x\n"}, ok("b\n")}}, execOutcome{}, []Verdict{VerdictError, VerdictPassed}, false},
		{"sys.exit(0) with right output passes", transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusExit, Stdout: []byte("a\n")}, ok("b\n")}}, execOutcome{}, []Verdict{VerdictPassed, VerdictPassed}, true},
		{"sys.exit(2) is an error", transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusExit, ExitCode: 2, Stdout: []byte("a\n")}, ok("b\n")}}, execOutcome{}, []Verdict{VerdictError, VerdictPassed}, false},
		{"memory error", transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusMemory}, ok("b\n")}}, execOutcome{}, []Verdict{VerdictMemoryLimit, VerdictPassed}, false},
		{"stdout cut", transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusOK, Stdout: []byte("a\n"), StdoutCut: true}, ok("b\n")}}, execOutcome{}, []Verdict{VerdictOutputLimit, VerdictPassed}, false},
		{"stderr cut", transcript{Cases: []guestCase{{Started: true, Ended: true, Status: statusOK, Stdout: []byte("a\n"), StderrCut: true}, ok("b\n")}}, execOutcome{}, []Verdict{VerdictOutputLimit, VerdictPassed}, false},
		{"timeout in the first case", transcript{Cases: []guestCase{{Started: true}, {}}}, execOutcome{TimedOut: true}, []Verdict{VerdictTimeout, VerdictTimeout}, false},
		{"timeout in the second case", transcript{Cases: []guestCase{ok("a\n"), {Started: true}}}, execOutcome{TimedOut: true}, []Verdict{VerdictPassed, VerdictTimeout}, false},
		{"flood stopped by the host", transcript{Cases: []guestCase{{Started: true}, {}}}, execOutcome{Flood: true}, []Verdict{VerdictOutputLimit, VerdictError}, false},
		{"died out of memory", transcript{Cases: []guestCase{{Started: true}, {}}}, execOutcome{ExitCode: -1, Stderr: []byte("Fatal Python error: MemoryError")}, []Verdict{VerdictMemoryLimit, VerdictError}, false},
		{"os._exit mid-case", transcript{Cases: []guestCase{{Started: true}, {}}}, execOutcome{ExitCode: 3}, []Verdict{VerdictError, VerdictError}, false},
		{"no cases never passes", transcript{}, execOutcome{}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := cases
			if tt.want == nil {
				cs = nil
			}
			rep := judge(cs, tt.tr, tt.end, CompareTrimmedLines, lim)
			if diff := cmp.Diff(tt.want, verdicts(rep)); diff != "" {
				t.Errorf("verdicts (-want +got):\n%s", diff)
			}
			if rep.Passed != tt.passed {
				t.Errorf("Passed = %v, want %v", rep.Passed, tt.passed)
			}
			for _, c := range rep.Cases {
				if c.Message == "" || !strings.HasSuffix(c.Message, ".") {
					t.Errorf("case %q: message %q is not a sentence", c.Name, c.Message)
				}
			}
		})
	}
}

func TestRedacted(t *testing.T) {
	rep := Report{Cases: []CaseResult{
		{Name: "shown", Verdict: VerdictWrongOutput, Message: "m", Expected: "e", Actual: "a", Diff: "d"},
		{Name: "hidden", Hidden: true, Verdict: VerdictWrongOutput, Message: "Line 1 differs", Expected: "secret", Actual: "a", Diff: "- secret", Error: "x", Stderr: "y"},
	}}
	got := rep.Redacted()
	if diff := cmp.Diff(rep.Cases[0], got.Cases[0]); diff != "" {
		t.Errorf("shown case changed:\n%s", diff)
	}
	h := got.Cases[1]
	if h.Name != "hidden" || h.Verdict != VerdictWrongOutput || h.Expected != "" || h.Actual != "" || h.Diff != "" || h.Error != "" || h.Stderr != "" || strings.Contains(h.Message, "Line 1") {
		t.Errorf("hidden case not redacted: %+v", h)
	}
	if rep.Cases[1].Expected != "secret" {
		t.Error("Redacted changed the original")
	}
}
