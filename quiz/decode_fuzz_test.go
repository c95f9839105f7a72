package quiz_test

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"learn/lessons"
	"learn/quiz"
)

// widgetBlock finds the widget blocks of a lesson file.
var widgetBlock = regexp.MustCompile("(?s)```(classify|annotate|quiz)\n(.*?)\n```")

// FuzzDecodeString decodes arbitrary YAML as each kind of widget block:
// Decode may not panic; it returns a widget or problems that say what is
// wrong, and a widget it returns without problems validates and grades an
// empty answer.
func FuzzDecodeString(f *testing.F) {
	err := fs.WalkDir(lessons.BuiltIn(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		b, err := fs.ReadFile(lessons.BuiltIn(), path)
		for _, m := range widgetBlock.FindAllStringSubmatch(string(b), -1) {
			f.Add(m[1], m[2])
		}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("quiz", "id: q\nquestions: [{id: a, kind: bogus}]")
	f.Add("classify", "id: c\ncategories: &a [*a]")
	f.Add("annotate", "{")
	f.Fuzz(func(t *testing.T, kind, src string) {
		w, problems := quiz.DecodeString(kind, src)
		for _, p := range problems {
			if p.Message == "" || p.String() == "" {
				t.Errorf("a problem without a message: %+v", p)
			}
		}
		if len(problems) > 0 || w == nil {
			return
		}
		if w.Kind() != kind {
			t.Errorf("decoded a %q block as %q", kind, w.Kind())
		}
		if again := w.Validate(); len(again) > 0 {
			t.Errorf("a widget decoded without problems fails validation: %v", again)
		}
		switch x := w.(type) {
		case *quiz.Classify:
			fb := quiz.GradeClassify(x, quiz.ClassifyAnswers{})
			if fb.Score != 0 || fb.Total != len(x.Items) {
				t.Errorf("an empty classify answer scored %d of %d (items %d)", fb.Score, fb.Total, len(x.Items))
			}
		case *quiz.Annotate:
			_ = quiz.GradeAnnotate(x, quiz.AnnotateAnswers{})
		}
	})
}
