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
// anywhere in the output unless IgnoreCase, NormalizeSpace or WholeWords
// say otherwise. A case graded by checks ignores Expected.
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
	// to match the whole. The options below do not apply to it (write
	// (?i) for a pattern that ignores case).
	Matches string
	// NotMatches is a regular expression (Go RE2 syntax) the output must
	// not match anywhere, such as `\b[A-Z]\w*Error\b` for any exception
	// name.
	NotMatches string
	// MentionsOneOf lists sets of synonyms: of each set at least one must
	// appear, such as ["try again", "retry"].
	MentionsOneOf [][]string
	// IgnoreCase matches the strings of Contains, ContainsAny, NotContains
	// and MentionsOneOf without regard to case.
	IgnoreCase bool
	// NormalizeSpace treats every run of whitespace, in the output and in
	// those strings, as one space.
	NormalizeSpace bool
	// WholeWords matches those strings only where they are not part of a
	// longer word: "retry" is not found in "retrying".
	WholeWords bool
}

// matcher finds a check's strings in one output with the checks' options.
type matcher struct {
	text string
	c    Checks
}

func (c Checks) matcher(output string) matcher {
	return matcher{text: c.fold(output), c: c}
}

// fold applies the case and space options to s.
func (c Checks) fold(s string) string {
	if c.NormalizeSpace {
		s = strings.Join(strings.Fields(s), " ")
	}
	if c.IgnoreCase {
		s = strings.ToLower(s)
	}
	return s
}

// has reports whether want appears in the output under the options.
func (m matcher) has(want string) bool {
	w := m.c.fold(want)
	if w == "" {
		return true
	}
	if !m.c.WholeWords {
		return strings.Contains(m.text, w)
	}
	for from := 0; from <= len(m.text); {
		i := strings.Index(m.text[from:], w)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(w)
		before, _ := utf8.DecodeLastRuneInString(m.text[:start])
		after, _ := utf8.DecodeRuneInString(m.text[end:])
		if (start == 0 || !isWordRune(before) || !isWordRune(firstRune(w))) &&
			(end == len(m.text) || !isWordRune(after) || !isWordRune(lastRune(w))) {
			return true
		}
		_, size := utf8.DecodeRuneInString(m.text[start:])
		from = start + size
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }

func lastRune(s string) rune { r, _ := utf8.DecodeLastRuneInString(s); return r }

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
	m := c.matcher(output)
	for _, s := range c.Contains {
		if !m.has(s) {
			fails = append(fails, checkFailure{fmt.Sprintf("it does not contain %s", quoteText(s)), missing})
		}
	}
	if len(c.ContainsAny) > 0 {
		found := false
		for _, s := range c.ContainsAny {
			found = found || m.has(s)
		}
		if !found {
			fails = append(fails, checkFailure{"it contains none of " + quoteList(c.ContainsAny, "or"), missing})
		}
	}
	for _, set := range c.MentionsOneOf {
		if !slices.ContainsFunc(set, m.has) {
			fails = append(fails, checkFailure{"it mentions none of " + quoteList(set, "or"), missing})
		}
	}
	for _, s := range c.NotContains {
		if m.has(s) {
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
	if c.NotMatches != "" {
		re, err := regexp.Compile(c.NotMatches)
		if err != nil {
			return fails, fmt.Errorf("sandbox: checks: not_matches %q is not a valid regular expression: %w", c.NotMatches, err)
		}
		if loc := re.FindStringIndex(trimmed); loc != nil {
			fails = append(fails, checkFailure{fmt.Sprintf("it contains %s, which the pattern %s forbids", quoteText(trimmed[loc[0]:loc[1]]), c.NotMatches), forbidden})
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
