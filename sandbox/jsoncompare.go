package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"learn/sandbox/mcpschema"
)

// jsonSyntaxError says where text stops being JSON.
type jsonSyntaxError struct {
	Line, Column int
	Near         string // the text around the break, with ⟨here⟩ marking it
	Reason       string
	// Extra is true when one JSON value was complete and more text followed.
	Extra bool
}

func (e *jsonSyntaxError) Error() string {
	if e.Extra {
		return fmt.Sprintf("more text after the JSON value, from line %d, column %d", e.Line, e.Column)
	}
	return fmt.Sprintf("%s at line %d, column %d", e.Reason, e.Line, e.Column)
}

// decodeJSON parses s as exactly one JSON value (whitespace around it
// allowed), keeping numbers as written.
func decodeJSON(s string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, syntaxAt(s, err)
	}
	end := int(dec.InputOffset())
	if rest := strings.TrimLeft(s[end:], " \t\r\n"); rest != "" {
		at := len(s) - len(rest)
		line, col := lineColumn(s, at)
		return nil, &jsonSyntaxError{Line: line, Column: col, Near: near(s, at), Extra: true}
	}
	return v, nil
}

// syntaxAt turns a decoding error into a position and a plain reason.
func syntaxAt(s string, err error) error {
	at := len(s)
	reason := err.Error()
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		// Offset is just past the byte that broke the value.
		at = max(int(se.Offset)-1, 0)
		reason = strings.TrimPrefix(se.Error(), "json: ")
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		reason = "the text ends before the JSON value does"
		if strings.TrimSpace(s) == "" {
			reason = "there is no JSON value"
		}
	}
	if hint := pythonHint(s, at); hint != "" {
		reason = hint
	}
	line, col := lineColumn(s, at)
	return &jsonSyntaxError{Line: line, Column: col, Near: near(s, at), Reason: reason}
}

// pythonHint names the Python spellings that are not JSON, when one
// starts at byte at.
func pythonHint(s string, at int) string {
	rest := s[min(at, len(s)):]
	switch {
	case strings.HasPrefix(rest, "'"):
		return "JSON puts strings and keys in double quotes, not single quotes (printing a dict shows Python's form, not JSON)"
	case strings.HasPrefix(rest, "True"), strings.HasPrefix(rest, "False"), strings.HasPrefix(rest, "None"):
		return "JSON writes true, false and null, not Python's True, False and None"
	case strings.HasPrefix(rest, "NaN"), strings.HasPrefix(rest, "Infinity"), strings.HasPrefix(rest, "-Infinity"):
		return "JSON has no NaN or Infinity"
	}
	return ""
}

// lineColumn gives the 1-based line and column (in characters) of byte at.
func lineColumn(s string, at int) (int, int) {
	at = min(at, len(s))
	before := s[:at]
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}

// near shows up to 20 characters either side of byte at on its line.
func near(s string, at int) string {
	at = min(at, len(s))
	start := strings.LastIndexByte(s[:at], '\n') + 1
	end := len(s)
	if i := strings.IndexByte(s[at:], '\n'); i >= 0 {
		end = at + i
	}
	left, right := []rune(s[start:at]), []rune(s[at:end])
	l, r := "", ""
	if len(left) > 20 {
		left, l = left[len(left)-20:], "…"
	}
	if len(right) > 20 {
		right, r = right[:20], "…"
	}
	return l + string(left) + "⟨here⟩" + string(right) + r
}

// judgeJSON grades a case under CompareJSON: the output must be one JSON
// value, fit the case's schema definition if it names one, and equal the
// expected JSON structurally.
func judgeJSON(res *CaseResult, c Case, actual string) {
	expected, err := decodeJSON(c.Expected)
	if err != nil {
		res.Verdict = VerdictError
		res.Message = "This case's expected output is not valid JSON (" + err.Error() + "): the fault is in the lesson, not in your code."
		res.HiddenMessage = "A hidden case's expected output is not valid JSON: the fault is in the lesson, not in your code."
		return
	}
	res.Expected = prettyJSON(expected)
	if strings.TrimSpace(actual) == "" {
		res.Verdict = VerdictWrongOutput
		res.Message = "Your code printed nothing: print the JSON value, for example with print(json.dumps(response))."
		res.HiddenMessage = "A hidden case printed nothing: check inputs the samples do not show."
		return
	}
	got, err := decodeJSON(actual)
	var se *jsonSyntaxError
	if errors.As(err, &se) {
		res.Verdict = VerdictWrongOutput
		if se.Extra {
			res.Message = fmt.Sprintf("Your output is more than one JSON value: the first one ends before line %d, column %d (%s). Print the whole response once, as one JSON value.", se.Line, se.Column, se.Near)
		} else {
			res.Message = fmt.Sprintf("Your output is not valid JSON: it breaks at line %d, column %d (%s): %s. Build the value from Python dicts and lists and print it with json.dumps.", se.Line, se.Column, se.Near, se.Reason)
		}
		res.HiddenMessage = "A hidden case printed output that is not valid JSON: build the value from Python dicts and lists, print it with json.dumps, and check inputs the samples do not show."
		return
	}
	if c.Schema != "" {
		err := mcpschema.Validate(c.Schema, got)
		var m *mcpschema.Mismatch
		switch {
		case errors.As(err, &m):
			res.Verdict = VerdictWrongOutput
			res.Diff = Diff(res.Expected, prettyJSON(got))
			res.Message = fmt.Sprintf("Your output is JSON but not a valid %s of the MCP %s schema: %s the value %s.", m.Definition, mcpschema.Version, m.Where(), m.Want)
			res.HiddenMessage = fmt.Sprintf("A hidden case printed JSON that is not a valid %s of the MCP %s schema: check inputs the samples do not show.", m.Definition, mcpschema.Version)
			return
		case err != nil:
			res.Verdict = VerdictError
			res.Message = fmt.Sprintf("This case names the schema definition %q, which cannot be used (%v): the fault is in the lesson, not in your code.", c.Schema, err)
			res.HiddenMessage = "A hidden case names a schema definition that cannot be used: the fault is in the lesson, not in your code."
			return
		}
	}
	path, what, differs := jsonDifference("", expected, got)
	if !differs {
		res.Verdict = VerdictPassed
		res.Message = "Passed."
		return
	}
	res.Verdict = VerdictWrongOutput
	res.Diff = Diff(res.Expected, prettyJSON(got))
	where := "at the top level"
	if path != "" {
		where = "at " + path
	}
	res.Message = fmt.Sprintf("Your JSON differs from the expected JSON %s: %s. Spacing and the order of members do not matter; compare the two in the diff.", where, what)
	res.HiddenMessage = "A hidden case printed JSON that differs from the expected JSON: check inputs the samples do not show, such as other kinds of failure and unusual messages."
}

// prettyJSON prints v indented by two spaces, members sorted by name, and
// characters such as é and < as themselves: a canonical form to diff.
func prettyJSON(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return buf.String()
}

// jsonEqual reports whether two decoded JSON values are structurally
// equal: numbers by value, objects regardless of member order.
func jsonEqual(a, b any) bool {
	_, _, differs := jsonDifference("", a, b)
	return !differs
}

// jsonDifference finds the first place, in member-name order, where got
// differs from want: its JSON pointer and a plain phrase.
func jsonDifference(path string, want, got any) (string, string, bool) {
	if kindOf(want) != kindOf(got) {
		return path, fmt.Sprintf("expected %s, found %s", describe(want), describe(got)), true
	}
	switch w := want.(type) {
	case map[string]any:
		g := got.(map[string]any)
		for _, k := range sortedKeys(w) {
			p := path + "/" + escapePointer(k)
			gv, ok := g[k]
			if !ok {
				return p, fmt.Sprintf("the member %q is missing", k), true
			}
			if p, what, d := jsonDifference(p, w[k], gv); d {
				return p, what, true
			}
		}
		for _, k := range sortedKeys(g) {
			if _, ok := w[k]; !ok {
				return path + "/" + escapePointer(k), fmt.Sprintf("the member %q is not expected", k), true
			}
		}
	case []any:
		g := got.([]any)
		for i := range min(len(w), len(g)) {
			if p, what, d := jsonDifference(fmt.Sprintf("%s/%d", path, i), w[i], g[i]); d {
				return p, what, true
			}
		}
		if len(w) != len(g) {
			return path, fmt.Sprintf("expected %s, found %s", items(len(w)), items(len(g))), true
		}
	case json.Number:
		if !sameNumber(w, got.(json.Number)) {
			return path, fmt.Sprintf("expected %s, found %s", w, got), true
		}
	default:
		if want != got {
			return path, fmt.Sprintf("expected %s, found %s", describe(want), describe(got)), true
		}
	}
	return "", "", false
}

func items(n int) string {
	if n == 1 {
		return "1 item"
	}
	return fmt.Sprintf("%d items", n)
}

func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number, float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// describe names a value for a message: scalars as JSON, containers by kind.
func describe(v any) string {
	switch v.(type) {
	case map[string]any, []any:
		return kindOf(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if s := string(b); utf8.RuneCountInString(s) <= 60 {
		return s
	}
	return string([]rune(string(b))[:57]) + "…"
}

// sameNumber compares two JSON numbers by exact value, without big
// arithmetic (an exponent such as 1e999999999 costs nothing).
func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, ok1 := canonicalNumber(string(a))
	y, ok2 := canonicalNumber(string(b))
	return ok1 && ok2 && x == y
}

// canonicalNumber writes a JSON number as sign, significant digits and the
// exponent of 0.DIGITS, so equal values get equal strings: "7", "7.0" and
// "70e-1" all become "+7e1".
func canonicalNumber(s string) (string, bool) {
	sign := "+"
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	exp := 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil {
			return "", false
		}
		exp, s = e, s[:i]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := intPart + frac
	exp += len(intPart)
	trimmed := strings.TrimLeft(digits, "0")
	exp -= len(digits) - len(trimmed)
	trimmed = strings.TrimRight(trimmed, "0")
	if trimmed == "" {
		return "0", true // 0, -0 and 0.0e5 are one value
	}
	return sign + trimmed + "e" + strconv.Itoa(exp), true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}
