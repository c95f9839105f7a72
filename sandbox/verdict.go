package sandbox

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Case is one test of an exercise: the program gets Stdin and must print
// Expected, or, when Checks is set, output that passes every check. Hidden
// cases are graded like the others; Report.Redacted removes what a learner
// must not see of them.
type Case struct {
	Name     string
	Stdin    string
	Expected string
	Hidden   bool
	// Schema names a definition of the MCP 2026-07-28 schema (see package
	// mcpschema), such as "JSONRPCResponse", that the output must fit
	// before it is compared. Used only with CompareJSON.
	Schema string
	// Checks, when not nil, grade the output instead of Expected and the
	// Comparison.
	Checks *Checks
}

// Comparison says how actual output is compared with the expected output.
type Comparison int

const (
	// CompareTrimmedLines compares line by line, ignoring whitespace at both
	// ends of each line, "\r\n" against "\n", and blank lines at the end.
	// It is the zero value and the default.
	CompareTrimmedLines Comparison = iota
	// CompareExact compares byte for byte.
	CompareExact
	// CompareJSON parses the output as one JSON value, checks it against
	// the case's Schema if it names one, and compares it structurally with
	// the expected JSON: spacing, key order, string escapes and the
	// spelling of numbers (7, 7.0, 7e0) do not matter.
	CompareJSON
)

func (c Comparison) String() string {
	switch c {
	case CompareExact:
		return "exact"
	case CompareTrimmedLines:
		return "trimmed lines"
	case CompareJSON:
		return "json"
	}
	return fmt.Sprintf("Comparison(%d)", int(c))
}

// ParseComparison reads "exact", "json" or "trimmed lines" (also
// "trimmed", "trimmed-lines", "trimmed_lines", "lines" and "" for the
// default).
func ParseComparison(s string) (Comparison, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "exact":
		return CompareExact, nil
	case "json":
		return CompareJSON, nil
	case "", "trimmed", "trimmed lines", "trimmed-lines", "trimmed_lines", "lines":
		return CompareTrimmedLines, nil
	}
	return 0, fmt.Errorf("sandbox: unknown comparison %q (want exact, json or trimmed lines)", s)
}

// Verdict is the outcome of one case.
type Verdict string

const (
	VerdictPassed Verdict = "passed"
	// VerdictFailed is a hidden case's verdict as its learner sees it:
	// failed, without saying how (see grading's Plan.ForLearner).
	VerdictFailed      Verdict = "failed"
	VerdictWrongOutput Verdict = "wrong output"
	VerdictError       Verdict = "error"
	VerdictTimeout     Verdict = "timeout"
	VerdictMemoryLimit Verdict = "memory limit"
	VerdictOutputLimit Verdict = "output limit"
)

// CaseResult is the outcome of one case with what the learner needs to act
// on it. Message is a plain sentence that says what to do next.
type CaseResult struct {
	Name    string  `json:"name"`
	Hidden  bool    `json:"hidden"`
	Verdict Verdict `json:"verdict"`
	Message string  `json:"message"`
	// Expected and Actual are the whole outputs; Diff is a line diff of
	// them, set for a wrong output.
	Expected string `json:"expected,omitempty"`
	Actual   string `json:"actual,omitempty"`
	Diff     string `json:"diff,omitempty"`
	// Error is the learner's traceback (only frames of their code) or the
	// syntax error.
	Error string `json:"error,omitempty"`
	// Stderr is what the code wrote to sys.stderr.
	Stderr string `json:"stderr,omitempty"`
	// HiddenMessage, when set, replaces Message once the case is redacted:
	// it says what kind of thing went wrong (not JSON, a failed check)
	// without any value of the case. It is never serialized.
	HiddenMessage string `json:"-"`
}

// Report is the outcome of grading one submission.
type Report struct {
	Cases  []CaseResult `json:"cases"`
	Passed bool         `json:"passed"` // every case passed
	// Cold is true when no started interpreter was waiting (for metrics).
	Cold bool `json:"-"`
	// Ran is the run's time from hand-over to the interpreter until its
	// answer, queue wait and a cold start excluded (for metrics).
	Ran time.Duration `json:"-"`
}

// Redacted returns a copy fit to send to a learner: hidden cases keep their
// name, verdict and a message that gives nothing of the case away.
func (r Report) Redacted() Report {
	out := Report{Passed: r.Passed, Cold: r.Cold, Ran: r.Ran, Cases: make([]CaseResult, len(r.Cases))}
	for i, c := range r.Cases {
		if !c.Hidden {
			out.Cases[i] = c
			continue
		}
		msg := c.HiddenMessage
		if msg == "" {
			msg = hiddenMessage(c.Verdict)
		}
		out.Cases[i] = CaseResult{Name: c.Name, Hidden: true, Verdict: c.Verdict, Message: msg}
	}
	return out
}

func hiddenMessage(v Verdict) string {
	switch v {
	case VerdictPassed:
		return "Passed."
	case VerdictWrongOutput:
		return "A hidden case printed the wrong output: check inputs the samples do not show, such as edge cases and unusual messages."
	case VerdictError:
		return "Your code raised an error on a hidden case: check inputs the samples do not show, such as edge cases and unusual messages."
	case VerdictTimeout:
		return "A hidden case ran out of time: look for a loop that never ends."
	case VerdictMemoryLimit:
		return "A hidden case ran out of memory: look for data that grows without bound."
	case VerdictOutputLimit:
		return "A hidden case printed too much: look for a print inside a loop that never ends."
	}
	return ""
}

// normalize applies a comparison to an output.
func normalize(s string, cmp Comparison) string {
	if cmp == CompareExact {
		return s
	}
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// Same reports whether actual output matches expected under cmp. Under
// CompareJSON both must be one JSON value each, structurally equal (no
// schema is checked).
func Same(expected, actual string, cmp Comparison) bool {
	if cmp == CompareJSON {
		e, err := decodeJSON(expected)
		if err != nil {
			return false
		}
		a, err := decodeJSON(actual)
		return err == nil && jsonEqual(e, a)
	}
	return normalize(expected, cmp) == normalize(actual, cmp)
}

// limits are the numbers messages quote.
type limits struct {
	Timeout   string // "5 s"
	Memory    string // "64 MiB"
	Output    string // "64 KiB"
	OutputCap int    // bytes
}

// outputCutMarker is appended where output was cut at the limit.
func outputCutMarker(l limits) string {
	return "\n[output cut at " + l.Output + "]\n"
}

// capText cuts s to at most n bytes on a rune boundary and reports whether
// it cut.
func capText(s string, n int) (string, bool) {
	if n <= 0 || len(s) <= n {
		return s, false
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s[len(s)-min(len(s), utf8.UTFMax):]) {
		s = s[:len(s)-1]
	}
	return s, true
}

// judge turns what the guest reported, and how the run ended, into one
// result per case. It is the only place a verdict is decided.
func judge(cases []Case, tr transcript, end execOutcome, cmp Comparison, l limits) Report {
	rep := Report{Passed: len(cases) > 0, Cold: end.Cold, Ran: end.Ran}
	timedOutCase := -1
	for i, c := range cases {
		res := CaseResult{Name: c.Name, Hidden: c.Hidden, Expected: c.Expected}
		var g guestCase
		if i < len(tr.Cases) {
			g = tr.Cases[i]
		}
		switch {
		case tr.Syntax != "":
			res.Verdict = VerdictError
			res.Error = tr.Syntax
			res.Message = syntaxMessage(tr.Syntax)
		case g.Ended:
			judgeEnded(&res, c, g, cmp, l)
		case g.Started && end.TimedOut:
			timedOutCase = i
			res.Verdict = VerdictTimeout
			res.Actual, _ = actualOutput(g, l)
			res.Message = fmt.Sprintf("Your code ran for more than %s and was stopped: look for a loop that never ends, or input() waiting for a line that never comes.", l.Timeout)
		case g.Started && end.Flood:
			res.Verdict = VerdictOutputLimit
			res.Message = fmt.Sprintf("Your code printed more than %s and was stopped: look for a print inside a loop that never ends.", l.Output)
		case g.Started && memoryExhausted(end):
			res.Verdict = VerdictMemoryLimit
			res.Message = fmt.Sprintf("Your code used more than %s of memory and was stopped: look for a list or string that grows without bound.", l.Memory)
		case g.Started:
			res.Verdict = VerdictError
			res.Actual, _ = actualOutput(g, l)
			res.Message = "The run ended in the middle of this case: do not call os._exit or os.abort, or write to file descriptor 1 directly, and run again."
		case end.TimedOut || timedOutCase >= 0:
			res.Verdict = VerdictTimeout
			res.Message = fmt.Sprintf("Not run: an earlier case used up the %s time limit. Fix that case first.", l.Timeout)
		default:
			res.Verdict = VerdictError
			res.Message = "Not run: the interpreter stopped before this case. Fix the earlier case first."
		}
		if res.Verdict != VerdictPassed {
			rep.Passed = false
		}
		rep.Cases = append(rep.Cases, res)
	}
	return rep
}

// actualOutput is the case's stdout as the learner would see it, cut at the
// output limit with a visible marker.
func actualOutput(g guestCase, l limits) (string, bool) {
	s := string(g.Stdout) + string(g.Stray)
	s, cut := capText(s, l.OutputCap)
	cut = cut || g.StdoutCut
	if cut {
		s += outputCutMarker(l)
	}
	return s, cut
}

func judgeEnded(res *CaseResult, c Case, g guestCase, cmp Comparison, l limits) {
	actual, cut := actualOutput(g, l)
	res.Actual = actual
	res.Stderr, _ = capText(string(g.Stderr), l.OutputCap)
	if g.StderrCut {
		res.Stderr += outputCutMarker(l)
	}
	switch {
	case g.Status == statusMemory:
		res.Verdict = VerdictMemoryLimit
		res.Message = fmt.Sprintf("Your code used more than %s of memory (MemoryError): look for a list or string that grows without bound.", l.Memory)
	case cut || g.StderrCut:
		res.Verdict = VerdictOutputLimit
		res.Message = fmt.Sprintf("Your code printed more than %s, so the output was cut: look for a print inside a loop that never ends.", l.Output)
	case g.Status == statusError:
		res.Verdict = VerdictError
		res.Error = g.Traceback
		res.Message = errorMessage(g.Traceback)
	case g.Status == statusExit && g.ExitCode != 0:
		res.Verdict = VerdictError
		res.Message = fmt.Sprintf("Your code called sys.exit(%d): a program that succeeds ends normally or exits with 0.", g.ExitCode)
	case c.Checks != nil:
		judgeChecks(res, *c.Checks, actual)
	case cmp == CompareJSON:
		judgeJSON(res, c, actual)
	case Same(c.Expected, actual, cmp):
		res.Verdict = VerdictPassed
		res.Message = "Passed."
	default:
		res.Verdict = VerdictWrongOutput
		res.Diff = Diff(normalizeForDiff(c.Expected, cmp), normalizeForDiff(actual, cmp))
		res.Message = wrongMessage(c.Expected, actual, cmp)
	}
}

func normalizeForDiff(s string, cmp Comparison) string {
	if cmp == CompareExact {
		return s
	}
	if s = normalize(s, cmp); s != "" {
		s += "\n"
	}
	return s
}

// wrongMessage names the first line that differs.
func wrongMessage(expected, actual string, cmp Comparison) string {
	e := strings.Split(strings.TrimSuffix(normalizeForDiff(expected, cmp), "\n"), "\n")
	a := strings.Split(strings.TrimSuffix(normalizeForDiff(actual, cmp), "\n"), "\n")
	if strings.TrimSpace(actual) == "" {
		return "Your code printed nothing: print the answer with print()."
	}
	for i := 0; i < max(len(e), len(a)); i++ {
		switch {
		case i >= len(a):
			return fmt.Sprintf("Your output stops after line %d, but %d lines were expected: compare with the expected output and print what is missing.", len(a), len(e))
		case i >= len(e):
			return fmt.Sprintf("Your output has more lines than expected (from line %d): remove the extra prints.", i+1)
		case e[i] != a[i]:
			return fmt.Sprintf("Line %d of your output differs from the expected output: compare them in the diff and fix your code.", i+1)
		}
	}
	return "Your output differs from the expected output only in whitespace: with exact comparison, spaces and the final newline count."
}

// errorMessage names the exception and the learner's line it came from.
func errorMessage(tb string) string {
	lines := strings.Split(strings.TrimRight(tb, "\n"), "\n")
	last := ""
	if len(lines) > 0 {
		last = lines[len(lines)-1]
	}
	line := ""
	for _, l := range lines {
		if strings.HasPrefix(l, "  File \"main.py\", line ") {
			line = strings.TrimPrefix(l, "  File \"main.py\", ")
			if k := strings.IndexByte(line, ','); k >= 0 {
				line = line[:k]
			}
		}
	}
	if line == "" {
		return "Your code raised " + last + ": read the message, fix the cause, and run again."
	}
	return "Your code raised " + last + " on " + line + ": read the traceback, fix that line, and run again."
}

func syntaxMessage(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	last := lines[len(lines)-1]
	for _, l := range lines {
		if strings.HasPrefix(l, "  File \"main.py\", line ") {
			return "Python cannot read your code (" + last + ") on " + strings.TrimPrefix(l, "  File \"main.py\", ") + ": fix it and run again."
		}
	}
	return "Python cannot read your code (" + last + "): fix it and run again."
}

// memoryExhausted guesses from the interpreter's own stderr whether a run
// that died without reporting ran out of memory.
func memoryExhausted(end execOutcome) bool {
	s := string(end.Stderr)
	return strings.Contains(s, "MemoryError") || strings.Contains(s, "Cannot allocate memory") || strings.Contains(s, "out of memory")
}
