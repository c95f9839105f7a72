package quiz

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustDecode[T Widget](t *testing.T, kind string) T {
	t.Helper()
	w, ps := DecodeString(kind, docExamples(t)[kind])
	if len(ps) > 0 {
		t.Fatalf("decode %s: %v", kind, ps)
	}
	return w.(T)
}

func TestGradeClassify(t *testing.T) {
	c := mustDecode[*Classify](t, KindClassify)
	tests := []struct {
		name       string
		answers    ClassifyAnswers
		wantScore  int
		wantAll    bool
		wantMissed []string
		wantMsgs   []string
	}{
		{
			name:      "all right",
			answers:   ClassifyAnswers{"unknown-tool": "protocol", "bad-date": "execution"},
			wantScore: 2, wantAll: true,
			wantMsgs: []string{"Right: a Protocol error.", "Right: a Tool execution error."},
		},
		{
			name:      "one wrong",
			answers:   ClassifyAnswers{"unknown-tool": "protocol", "bad-date": "protocol"},
			wantScore: 1, wantMissed: []string{"bad-date"},
			wantMsgs: []string{"Right: a Protocol error.", "Not a Protocol error: it is a Tool execution error."},
		},
		{
			name:      "unanswered and unknown category are wrong",
			answers:   ClassifyAnswers{"bad-date": "network"},
			wantScore: 0, wantMissed: []string{"unknown-tool", "bad-date"},
			wantMsgs: []string{"Not answered. It is a Protocol error.", `"network" is not one of the categories. It is a Tool execution error.`},
		},
		{
			name:      "nil answers",
			answers:   nil,
			wantScore: 0, wantMissed: []string{"unknown-tool", "bad-date"},
			wantMsgs: []string{"Not answered. It is a Protocol error.", "Not answered. It is a Tool execution error."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fb := GradeClassify(c, tt.answers)
			if fb.Score != tt.wantScore || fb.Total != 2 || fb.AllCorrect != tt.wantAll {
				t.Errorf("score %d/%d all %v, want %d/2 all %v", fb.Score, fb.Total, fb.AllCorrect, tt.wantScore, tt.wantAll)
			}
			if diff := cmp.Diff(tt.wantMissed, fb.Missed); diff != "" {
				t.Errorf("missed (-want +got):\n%s", diff)
			}
			var msgs []string
			for i, it := range fb.Items {
				msgs = append(msgs, it.Message)
				if it.Explanation != c.Items[i].Explanation || it.Answer != c.Items[i].Answer {
					t.Errorf("item %s lacks its key or explanation: %+v", it.ID, it)
				}
			}
			if diff := cmp.Diff(tt.wantMsgs, msgs); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

func hints(ro, de, id, ow *bool) map[Hint]bool {
	m := map[Hint]bool{}
	for h, v := range map[Hint]*bool{ReadOnlyHint: ro, DestructiveHint: de, IdempotentHint: id, OpenWorldHint: ow} {
		if v != nil {
			m[h] = *v
		}
	}
	return m
}

var (
	yes = new(true)
	no  = new(false)
)

func TestGradeAnnotate(t *testing.T) {
	a := mustDecode[*Annotate](t, KindAnnotate)
	rightMemory := hints(no, yes, yes, no)
	tests := []struct {
		name      string
		answers   AnnotateAnswers
		wantScore int
		wantAll   bool
		wantTools []bool
		// wantHints are the (Right, Matters) of search_issues' four hints.
		wantHints [4][2]bool
	}{
		{
			name:      "all right, read-only tool with the cautious defaults on destructive and idempotent",
			answers:   AnnotateAnswers{"search_issues": hints(yes, yes, no, yes), "remember_fact": rightMemory},
			wantScore: 8, wantAll: true, wantTools: []bool{true, true},
			wantHints: [4][2]bool{{true, true}, {true, false}, {true, false}, {true, true}},
		},
		{
			name:      "read-only tool with destructive and idempotent unanswered still right",
			answers:   AnnotateAnswers{"search_issues": hints(yes, nil, nil, yes), "remember_fact": rightMemory},
			wantScore: 8, wantAll: true, wantTools: []bool{true, true},
			wantHints: [4][2]bool{{true, true}, {true, false}, {true, false}, {true, true}},
		},
		{
			name:      "marking the search tool as writing makes its other hints count",
			answers:   AnnotateAnswers{"search_issues": hints(no, yes, no, yes), "remember_fact": rightMemory},
			wantScore: 7, wantTools: []bool{false, true},
			wantHints: [4][2]bool{{false, true}, {true, false}, {true, false}, {true, true}},
		},
		{
			name:      "unanswered hints are wrong where they matter",
			answers:   AnnotateAnswers{"remember_fact": hints(no, yes, nil, no)},
			wantScore: 5, wantTools: []bool{false, false},
			wantHints: [4][2]bool{{false, true}, {true, false}, {true, false}, {false, true}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fb := GradeAnnotate(a, tt.answers)
			if fb.Score != tt.wantScore || fb.Total != 8 || fb.AllCorrect != tt.wantAll {
				t.Errorf("score %d/%d all %v, want %d/8 all %v", fb.Score, fb.Total, fb.AllCorrect, tt.wantScore, tt.wantAll)
			}
			var tools []bool
			for _, tf := range fb.Tools {
				tools = append(tools, tf.Right)
			}
			if diff := cmp.Diff(tt.wantTools, tools); diff != "" {
				t.Errorf("tools right (-want +got):\n%s", diff)
			}
			var got [4][2]bool
			for i, h := range fb.Tools[0].Hints {
				got[i] = [2]bool{h.Right, h.Matters}
				if !h.Matters && h.Message == "" {
					t.Errorf("%s: no message", h.Hint)
				}
			}
			if got != tt.wantHints {
				t.Errorf("search_issues hints (right, matters) = %v, want %v", got, tt.wantHints)
			}
		})
	}
}

func TestGradeAnnotateMessages(t *testing.T) {
	a := mustDecode[*Annotate](t, KindAnnotate)
	fb := GradeAnnotate(a, AnnotateAnswers{
		"search_issues": hints(yes, no, nil, yes),
		"remember_fact": hints(no, no, nil, no),
	})
	got := map[string]string{}
	for _, tf := range fb.Tools {
		for _, h := range tf.Hints {
			got[tf.Name+"."+string(h.Hint)] = h.Message
		}
	}
	want := map[string]string{
		"search_issues.readOnlyHint":    "Right: readOnlyHint is true.",
		"search_issues.destructiveHint": "Does not matter here: search_issues is read-only, and destructiveHint only means something when readOnlyHint is false, so any answer is accepted.",
		"search_issues.idempotentHint":  "Does not matter here: search_issues is read-only, and idempotentHint only means something when readOnlyHint is false, so any answer is accepted.",
		"search_issues.openWorldHint":   "Right: openWorldHint is true.",
		"remember_fact.readOnlyHint":    "Right: readOnlyHint is false.",
		"remember_fact.destructiveHint": "Not quite: destructiveHint should be true, not false.",
		"remember_fact.idempotentHint":  "Not answered: idempotentHint should be true (the default is false).",
		"remember_fact.openWorldHint":   "Right: openWorldHint is false.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestGradeQuestion(t *testing.T) {
	q := mustDecode[*Quiz](t, KindQuiz)
	rightHints := []string{HintChoice(ReadOnlyHint, false), HintChoice(DestructiveHint, true), HintChoice(IdempotentHint, true), HintChoice(OpenWorldHint, false)}
	tests := []struct {
		name      string
		question  string
		choices   []string
		wantRight bool
		wantMsg   string
	}{
		{"single right", "is-error", []string{"b"}, true, "Right."},
		{"single wrong", "is-error", []string{"a"}, false, "Not quite: see the right option and why."},
		{"single two choices", "is-error", []string{"a", "b"}, false, "Choose one option only."},
		{"single repeated choice counts once", "is-error", []string{"b", "b"}, true, "Right."},
		{"single unanswered", "is-error", nil, false, "Not answered."},
		{"single empty choice is unanswered", "is-error", []string{""}, false, "Not answered."},
		{"single unknown option", "is-error", []string{"z"}, false, "Your answer names an option this question does not have."},
		{"multiple exact set", "protocol-codes", []string{"b", "a"}, true, "Right."},
		{"multiple subset", "protocol-codes", []string{"a"}, false, "Not quite: 1 of the 2 right options chosen, and 0 wrong."},
		{"multiple superset", "protocol-codes", []string{"a", "b", "c"}, false, "Not quite: 2 of the 2 right options chosen, and 1 wrong."},
		{"classify right", "expired-handle", []string{"execution"}, true, "Right: a Tool execution error."},
		{"classify wrong", "expired-handle", []string{"protocol"}, false, "Not a Protocol error: it is a Tool execution error."},
		{"classify two choices", "expired-handle", []string{"protocol", "execution"}, false, "Choose one category only."},
		{"classify unanswered", "expired-handle", nil, false, "Not answered. It is a Tool execution error."},
		{"annotate right", "delete-file", rightHints, true, "Right: every hint that matters is set correctly."},
		{"annotate one hint wrong", "delete-file", append(rightHints[:3:3], HintChoice(OpenWorldHint, true)), false, "Not quite: see each hint below."},
		{"annotate one hint missing", "delete-file", rightHints[:3], false, "Not quite: see each hint below."},
		{"annotate unanswered", "delete-file", nil, false, "Not answered."},
		{"annotate misspelt hint", "delete-file", append(rightHints[:3:3], "openworldHint=false"), false, "Your answer names a hint value this question does not have."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qn, ok := q.QuestionByID(tt.question)
			if !ok {
				t.Fatalf("no question %q", tt.question)
			}
			f := GradeQuestion(qn, tt.choices)
			if f.Right != tt.wantRight || f.Message != tt.wantMsg {
				t.Errorf("got right %v %q, want %v %q", f.Right, f.Message, tt.wantRight, tt.wantMsg)
			}
			for _, o := range f.Options {
				if qn.kind() != QuestionClassify && o.Explanation == "" {
					t.Errorf("option %s has no explanation after the attempt", o.ID)
				}
			}
		})
	}
}

func TestGradeQuestionOptionFeedback(t *testing.T) {
	q := mustDecode[*Quiz](t, KindQuiz)
	qn, _ := q.QuestionByID("protocol-codes")
	f := GradeQuestion(qn, []string{"a", "c"})
	want := []OptionFeedback{
		{ID: "a", Text: "The body is not valid JSON", Chosen: true, Correct: true, Explanation: "A parse error (-32700) is about the request itself."},
		{ID: "b", Text: "The method is unknown", Chosen: false, Correct: true, Explanation: "Method not found (-32601) is a protocol error."},
		{ID: "c", Text: "The weather service times out", Chosen: true, Correct: false, Explanation: "The tool ran and met an upstream failure, which makes it an execution error."},
	}
	if diff := cmp.Diff(want, f.Options); diff != "" {
		t.Errorf("options (-want +got):\n%s", diff)
	}
}

// TestGradeAuthoredOrder grades the zero Draw: every question as written,
// in authored order, scored against the pass mark.
func TestGradeAuthoredOrder(t *testing.T) {
	q := mustDecode[*Quiz](t, KindQuiz) // pass: 3 of 4
	right := QuizAnswers{
		"is-error":       {"b"},
		"protocol-codes": {"a", "b"},
		"expired-handle": {"execution"},
		"delete-file":    {"readOnlyHint=false", "destructiveHint=true", "idempotentHint=true", "openWorldHint=false"},
	}
	with := func(changes QuizAnswers) QuizAnswers {
		a := QuizAnswers{}
		for k, v := range right {
			a[k] = v
		}
		for k, v := range changes {
			a[k] = v
		}
		return a
	}
	tests := []struct {
		name       string
		answers    QuizAnswers
		wantScore  int
		wantPassed bool
		wantMissed []string
	}{
		{"all right", right, 4, true, nil},
		{"one wrong still passes at 3 of 4", with(QuizAnswers{"is-error": {"a"}}), 3, true, []string{"is-error"}},
		{"one unanswered and one wrong fails", with(QuizAnswers{"is-error": nil, "expired-handle": {"protocol"}}), 2, false, []string{"is-error", "expired-handle"}},
		{"nothing answered", nil, 0, false, []string{"is-error", "protocol-codes", "expired-handle", "delete-file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := GradeDraw(q, Draw{}, tt.answers)
			if r.Score != tt.wantScore || r.Total != 4 || r.PassMark != 3 || r.Passed != tt.wantPassed {
				t.Errorf("got %d/%d pass mark %d passed %v, want %d/4 pass mark 3 passed %v", r.Score, r.Total, r.PassMark, r.Passed, tt.wantScore, tt.wantPassed)
			}
			if diff := cmp.Diff(tt.wantMissed, r.Missed); diff != "" {
				t.Errorf("missed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQuizDefaults(t *testing.T) {
	q := &Quiz{}
	if q.PassMark() != 5 || q.XPValue() != 50 {
		t.Errorf("defaults: pass %d xp %d, want 5 and 50", q.PassMark(), q.XPValue())
	}
	zero := 0
	q.XP = &zero
	if q.XPValue() != 0 {
		t.Errorf("xp: 0 gave %d", q.XPValue())
	}
}

func TestReviewQuestions(t *testing.T) {
	c := mustDecode[*Classify](t, KindClassify)
	a := mustDecode[*Annotate](t, KindAnnotate)
	cq, ok := c.ItemQuestion("bad-date")
	if !ok {
		t.Fatal("no classify item question")
	}
	aq, ok := a.ToolQuestion("search_issues")
	if !ok {
		t.Fatal("no annotate tool question")
	}
	if _, ok := c.ItemQuestion("nope"); ok {
		t.Error("unknown item gave a question")
	}
	tests := []struct {
		name      string
		q         Question
		choices   []string
		wantRight bool
	}{
		{"classify item right", cq, []string{"execution"}, true},
		{"classify item wrong", cq, []string{"protocol"}, false},
		{"annotate tool right, unanswered hints that do not matter", aq, []string{"readOnlyHint=true", "openWorldHint=true"}, true},
		{"annotate tool wrong", aq, []string{"readOnlyHint=false", "openWorldHint=true"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if ps := tt.q.Validate(); len(ps) > 0 {
				t.Fatalf("derived question is invalid: %v", ps)
			}
			if got := GradeQuestion(&tt.q, tt.choices).Right; got != tt.wantRight {
				t.Errorf("right = %v, want %v", got, tt.wantRight)
			}
		})
	}
}
