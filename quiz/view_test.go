package quiz

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// keyFields are names a view type must never have: they would carry the key
// or the explanation to the page.
var keyFields = []string{"Answer", "Correct", "Expected", "Explanation", "Value", "Right"}

func checkNoKeyFields(t *testing.T, typ reflect.Type, path string, seen map[reflect.Type]bool) {
	t.Helper()
	for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice || typ.Kind() == reflect.Array || typ.Kind() == reflect.Map {
		typ = typ.Elem()
	}
	if typ.Kind() != reflect.Struct || seen[typ] {
		return
	}
	seen[typ] = true
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		for _, bad := range keyFields {
			if strings.Contains(f.Name, bad) {
				t.Errorf("%s.%s: a view has a field that can carry a key or an explanation", path, f.Name)
			}
		}
		checkNoKeyFields(t, f.Type, path+"."+f.Name, seen)
	}
}

func TestViewTypesHaveNoKeyFields(t *testing.T) {
	for _, v := range []any{ClassifyView{}, AnnotateView{}, QuizView{}, QuestionView{}} {
		typ := reflect.TypeOf(v)
		checkNoKeyFields(t, typ, typ.Name(), map[reflect.Type]bool{})
	}
}

// TestViewsCarryNoKeys fills every explanation with a marker and checks
// that no view of the doc examples contains one, nor any expected hint value
// or correct flag.
func TestViewsCarryNoKeys(t *testing.T) {
	const marker = "SECRET-EXPLANATION"
	c := mustDecode[*Classify](t, KindClassify)
	for i := range c.Items {
		c.Items[i].Explanation = marker
	}
	a := mustDecode[*Annotate](t, KindAnnotate)
	for _, tool := range a.Tools {
		for _, h := range AllHints() {
			if k := tool.Hints.Get(h); k != nil {
				k.Explanation = marker
			}
		}
	}
	q := mustDecode[*Quiz](t, KindQuiz)
	for i := range q.Questions {
		qn := &q.Questions[i]
		qn.Explanation = marker
		for j := range qn.Options {
			qn.Options[j].Explanation = marker
		}
		if qn.Tool != nil {
			for _, h := range AllHints() {
				if k := qn.Tool.Hints.Get(h); k != nil {
					k.Explanation = marker
				}
			}
		}
	}
	views := map[string]any{
		"classify":   c.View(),
		"annotate":   a.View(),
		"quiz":       q.View(nil),
		"quiz order": q.View(Order(q, "learner#1")),
	}
	for name, v := range views {
		dump := fmt.Sprintf("%+v", v)
		if strings.Contains(dump, marker) {
			t.Errorf("%s view carries an explanation: %s", name, dump)
		}
		if strings.Contains(dump, "Correct") || strings.Contains(dump, "correct:") {
			t.Errorf("%s view carries a correct flag: %s", name, dump)
		}
	}
	// The classify key is the category of each item: the item views must
	// not pair an item with a category id.
	for _, it := range c.View().Items {
		if it.Text == "" || it.ID == "" {
			t.Errorf("item view lost its text: %+v", it)
		}
	}
}

func TestQuizViewOrder(t *testing.T) {
	q := mustDecode[*Quiz](t, KindQuiz)
	order := []int{3, 0, 2, 1}
	v := q.View(order)
	var ids []string
	for _, qv := range v.Questions {
		ids = append(ids, qv.ID)
	}
	if got, want := strings.Join(ids, ","), "delete-file,is-error,expired-handle,protocol-codes"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	if v.PassMark != 3 || v.XP != 50 {
		t.Errorf("pass mark %d xp %d", v.PassMark, v.XP)
	}
	if hv := v.Questions[0].Hints; len(hv) != 4 || hv[1].Name != DestructiveHint || !hv[1].Default || hv[1].TrueChoice != "destructiveHint=true" {
		t.Errorf("annotate question hints: %+v", hv)
	}
}
