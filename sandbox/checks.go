package sandbox

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Checks are properties a case's output must have, for exercises where
// many outputs are right (a message in the learner's own words). Every
// check that is set must hold; strings are matched case-sensitively
// anywhere in the output. A case graded by checks ignores Expected.
//
// The fields match those of lessons.Checks, so a caller converts with
// (*sandbox.Checks)(c.Checks).
type Checks struct {
	// Contains lists strings that must each appear.
	Contains []string
	// ContainsAny lists strings of which at least one must appear, such as
	// the spellings "None" and "null" of one value.
	ContainsAny []string
	// NotContains lists strings that must not appear, such as "Traceback".
	NotContains []string
	// MaxLength is the most characters (not bytes) the output may have,
	// not counting whitespace at its ends; 0 means no limit.
	MaxLength int
	// Matches is a regular expression (Go RE2 syntax) the output, without
	// whitespace at its ends, must match somewhere; anchor it with ^ and $
	// to match the whole.
	Matches string
}

// checkFailure is one check that did not hold: what a learner reads for a
// visible case, and the kind of check only for a hidden one.
type checkFailure struct {
	text string // "it does not contain \"party_size\""
	kind string // "leaves out something it must include"
}

// Check judges output against the checks and returns one plain phrase per
// failed check, such as `it does not contain "party_size"`; none when the
// output passes. An invalid Matches pattern is returned as an error.
func (c Checks) Check(output string) ([]string, error) {
	fails, err := c.check(output)
	var out []string
	for _, f := range fails {
		out = append(out, f.text)
	}
	return out, err
}

func (c Checks) check(output string) ([]checkFailure, error) {
	const (
		missing   = "leaves out something it must include"
		forbidden = "includes something it must not"
		tooLong   = "is too long"
		form      = "does not have the required form"
	)
	var fails []checkFailure
	for _, s := range c.Contains {
		if !strings.Contains(output, s) {
			fails = append(fails, checkFailure{fmt.Sprintf("it does not contain %s", quoteText(s)), missing})
		}
	}
	if len(c.ContainsAny) > 0 {
		found := false
		for _, s := range c.ContainsAny {
			found = found || strings.Contains(output, s)
		}
		if !found {
			fails = append(fails, checkFailure{"it contains none of " + quoteList(c.ContainsAny, "or"), missing})
		}
	}
	for _, s := range c.NotContains {
		if strings.Contains(output, s) {
			fails = append(fails, checkFailure{fmt.Sprintf("it contains %s, which it must not", quoteText(s)), forbidden})
		}
	}
	trimmed := strings.TrimSpace(strings.ReplaceAll(output, "\r\n", "\n"))
	if n := utf8.RuneCountInString(trimmed); c.MaxLength > 0 && n > c.MaxLength {
		fails = append(fails, checkFailure{fmt.Sprintf("it is %d characters long, more than the %d allowed", n, c.MaxLength), tooLong})
	}
	if c.Matches != "" {
		re, err := regexp.Compile(c.Matches)
		if err != nil {
			return fails, fmt.Errorf("sandbox: checks: matches %q is not a valid regular expression: %w", c.Matches, err)
		}
		if !re.MatchString(trimmed) {
			fails = append(fails, checkFailure{fmt.Sprintf("it does not have the form the pattern %s describes", c.Matches), form})
		}
	}
	return fails, nil
}

// judgeChecks grades a case by its checks.
func judgeChecks(res *CaseResult, c Checks, actual string) {
	fails, err := c.check(actual)
	switch {
	case err != nil:
		res.Verdict = VerdictError
		res.Message = "This case's checks are broken (" + err.Error() + "): the fault is in the lesson, not in your code."
		res.HiddenMessage = "A hidden case's checks are broken: the fault is in the lesson, not in your code."
	case len(fails) == 0:
		res.Verdict = VerdictPassed
		res.Message = "Passed."
	case strings.TrimSpace(actual) == "":
		res.Verdict = VerdictWrongOutput
		res.Message = "Your code printed nothing: print the answer with print()."
		res.HiddenMessage = "A hidden case printed nothing: check inputs the samples do not show, such as empty or unusual values."
	default:
		res.Verdict = VerdictWrongOutput
		texts := make([]string, len(fails))
		var kinds []string
		for i, f := range fails {
			texts[i] = f.text
			if !slices.Contains(kinds, f.kind) {
				kinds = append(kinds, f.kind)
			}
		}
		what := "a check"
		if len(fails) > 1 {
			what = fmt.Sprintf("%d checks", len(fails))
		}
		res.Message = fmt.Sprintf("Your output fails %s: %s.", what, strings.Join(texts, "; "))
		res.HiddenMessage = "A hidden case's output " + joinAnd(kinds) + ": check inputs the samples do not show, such as long, empty or unusual values."
	}
}

// quoteText quotes s for a message in curly quotes, so quotes inside it
// need no escapes; a string with control characters is Go-quoted instead.
func quoteText(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 {
		return strconv.Quote(s)
	}
	return "“" + s + "”"
}

func quoteList(list []string, conj string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = quoteText(s)
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + conj + " " + q[len(q)-1]
}

func joinAnd(list []string) string {
	if len(list) <= 1 {
		return strings.Join(list, "")
	}
	return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
}
