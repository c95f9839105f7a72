package sandbox

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestChecks(t *testing.T) {
	rules := Checks{
		Contains:    []string{"party_size", "40"},
		ContainsAny: []string{"1 to 12", "1-12"},
		NotContains: []string{"Traceback", `File "`},
		MaxLength:   60,
	}
	tests := []struct {
		name   string
		checks Checks
		output string
		want   []string
	}{
		{"all hold", rules, "party_size 40 is too large: use 1 to 12.\n", nil},
		{"the other spelling", rules, "party_size 40 is out of range 1-12.", nil},
		{"field missing", rules, "40 is too large: use 1 to 12.", []string{`it does not contain “party_size”`}},
		{"no rule", rules, "party_size 40 is too large.", []string{`it contains none of “1 to 12” or “1-12”`}},
		{"traceback", rules, "Traceback: party_size 40, 1 to 12", []string{`it contains “Traceback”, which it must not`}},
		{"too long", rules, "party_size 40 is too large: use 1 to 12. " + strings.Repeat("x", 30),
			[]string{"it is 71 characters long, more than the 60 allowed"}},
		{"length counts characters, not bytes", Checks{MaxLength: 3}, "ééé\n", nil},
		{"length ignores the final newline", Checks{MaxLength: 3}, "abc\r\n", nil},
		{"several failures", rules, "Invalid input.", []string{`it does not contain “party_size”`, `it does not contain “40”`, `it contains none of “1 to 12” or “1-12”`}},
		{"pattern holds", Checks{Matches: `^\w+ .* is not valid`}, "note 'xx' is not valid: use 3 words.\n", nil},
		{"pattern fails", Checks{Matches: `^\w+ `}, " : nothing", []string{`it does not have the form the pattern ^\w+  describes`}},
		{"quotes need no escapes", Checks{Contains: []string{`""`, `File "`}}, "x", []string{`it does not contain “""”`, `it does not contain “File "”`}},
		{"control characters are escaped", Checks{Contains: []string{"a\tb"}}, "x", []string{`it does not contain "a\tb"`}},
		{"case counts", Checks{Contains: []string{"City"}}, "city", []string{`it does not contain “City”`}},
		{"ignore_case finds another case", Checks{Contains: []string{"try again"}, IgnoreCase: true}, "Try Again in a minute.", nil},
		{"ignore_case forbids another case", Checks{NotContains: []string{"traceback"}, IgnoreCase: true}, "TRACEBACK (most recent call last)", []string{`it contains “traceback”, which it must not`}},
		{"ignore_case applies to contains_any", Checks{ContainsAny: []string{"EMPTY", `""`}, IgnoreCase: true}, "city is empty", nil},
		{"spaces count without normalize_space", Checks{Contains: []string{"try again"}}, "try  again", []string{`it does not contain “try again”`}},
		{"normalize_space joins runs of spaces", Checks{Contains: []string{"try again"}, NormalizeSpace: true}, "try \n\t again", nil},
		{"normalize_space applies to the wanted text too", Checks{Contains: []string{"try   again"}, NormalizeSpace: true}, "try again", nil},
		{"whole_words refuses a part of a word", Checks{Contains: []string{"retry"}, WholeWords: true}, "retrying later", []string{`it does not contain “retry”`}},
		{"whole_words finds a later whole word", Checks{Contains: []string{"retry"}, WholeWords: true}, "retrying; retry later", nil},
		{"whole_words at the ends", Checks{Contains: []string{"retry"}, WholeWords: true}, "retry", nil},
		{"whole_words needs a word's start", Checks{Contains: []string{"Error:"}, WholeWords: true}, "ValueError: x", []string{`it does not contain “Error:”`}},
		{"whole_words lets punctuation edges touch words", Checks{Contains: []string{`File "`}, WholeWords: true}, `File "x.py"`, nil},
		{"whole_words keeps not_contains to words", Checks{NotContains: []string{"Error"}, WholeWords: true}, "ValueError - x", nil},
		{"whole_words with accents", Checks{Contains: []string{"Espa"}, WholeWords: true}, "España", []string{`it does not contain “Espa”`}},
		{"mentions_one_of passes on any synonym", Checks{MentionsOneOf: [][]string{{"try again", "retry"}, {"minute", "shortly"}}}, "Please retry shortly.", nil},
		{"mentions_one_of names the missing set", Checks{MentionsOneOf: [][]string{{"try again", "retry"}, {"minute", "shortly"}}}, "Please retry.", []string{`it mentions none of “minute” or “shortly”`}},
		{"mentions_one_of with every option", Checks{MentionsOneOf: [][]string{{"try again", "retry"}}, IgnoreCase: true, NormalizeSpace: true, WholeWords: true}, "TRY\n again", nil},
		{"not_matches names what it found", Checks{NotMatches: `\b[A-Z]\w*(Error|Exception)\b`}, "ValueError - bad date", []string{"it contains “ValueError”, which the pattern \\b[A-Z]\\w*(Error|Exception)\\b forbids"}},
		{"not_matches passes what it does not match", Checks{NotMatches: `\b[A-Z]\w*(Error|Exception)\b`}, "Error: bad date", nil},
		{"options leave the pattern alone", Checks{Matches: `^Try`, IgnoreCase: true}, "try", []string{`it does not have the form the pattern ^Try describes`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.checks.Check(tt.output)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Check(%q) (-want +got):\n%s", tt.output, diff)
			}
		})
	}
	if _, err := (Checks{Matches: "("}).Check("x"); err == nil {
		t.Error("an invalid pattern gave no error")
	}
}

func TestJudgeChecks(t *testing.T) {
	l := DefaultConfig().limits()
	ok := func(out string) guestCase {
		return guestCase{Started: true, Ended: true, Status: statusOK, Stdout: []byte(out)}
	}
	secret := Checks{Contains: []string{"quantity", "-3"}, NotContains: []string{"Traceback"}, MaxLength: 50}
	tests := []struct {
		name        string
		c           Case
		out         string
		verdict     Verdict
		message     string // a part of Message
		hiddenParts []string
	}{
		{"passes", Case{Name: "a", Checks: &secret}, "quantity -3 is not valid: use 1 or more.\n", VerdictPassed, "Passed.", nil},
		{"expected is ignored", Case{Name: "a", Expected: "something else", Checks: &secret}, "quantity -3 must be 1 or more.\n", VerdictPassed, "Passed.", nil},
		{"names what is missing", Case{Name: "a", Checks: &secret}, "Invalid input.\n", VerdictWrongOutput, `Your output fails 2 checks: it does not contain “quantity”; it does not contain “-3”.`, nil},
		{"printed nothing", Case{Name: "a", Checks: &secret}, "", VerdictWrongOutput, "printed nothing", nil},
		{"hidden: kinds only", Case{Name: "h", Hidden: true, Checks: &secret}, "Traceback " + strings.Repeat("y", 60) + "\n", VerdictWrongOutput, "Traceback",
			[]string{"leaves out something it must include", "includes something it must not", "is too long"}},
		{"broken pattern is the lesson's fault", Case{Name: "a", Checks: &Checks{Matches: "("}}, "x\n", VerdictError, "fault is in the lesson", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := judge([]Case{tt.c}, transcript{Done: true, Cases: []guestCase{ok(tt.out)}}, execOutcome{}, CompareTrimmedLines, l)
			res := rep.Cases[0]
			if res.Verdict != tt.verdict || !strings.Contains(res.Message, tt.message) {
				t.Errorf("got %s %q, want %s with %q", res.Verdict, res.Message, tt.verdict, tt.message)
			}
			if !strings.HasSuffix(res.Message, ".") {
				t.Errorf("message %q is not a sentence", res.Message)
			}
			red := rep.Redacted().Cases[0]
			if !tt.c.Hidden {
				return
			}
			for _, p := range tt.hiddenParts {
				if !strings.Contains(red.Message, p) {
					t.Errorf("redacted message %q does not say %q", red.Message, p)
				}
			}
			for _, v := range append(append(secret.Contains, secret.NotContains...), "50") {
				if strings.Contains(red.Message, v) {
					t.Errorf("redacted message %q leaks %q", red.Message, v)
				}
			}
			if red.Expected != "" || red.Actual != "" || red.Diff != "" {
				t.Errorf("redacted case keeps details: %+v", red)
			}
		})
	}
}
