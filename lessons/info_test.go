package lessons

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadInfo(t *testing.T) {
	tests := []struct {
		name      string
		yaml      *string
		want      Info
		problems  []string // substrings of Problem.String, in order
		loads     bool
		wantTitle string
		wantBrand string
	}{
		{name: "full", yaml: ptr("title: Reading HTTP status codes\nbrand: http.codes\ntagline: Three digits.\nintroduction: |\n  For **everyone**.\nauthors: [A team]\nlicence: CC BY 4.0\nlanguage: pt-BR\n"),
			loads: true, wantTitle: "Reading HTTP status codes", wantBrand: "http.codes"},
		{name: "no brand", yaml: ptr("title: T\n"), loads: true, wantTitle: "T", wantBrand: ""},
		{name: "brand at the limit", yaml: ptr("title: T\nbrand: \"  " + strings.Repeat("é", MaxBrandLength) + "  \"\n"), loads: true, wantTitle: "T", wantBrand: strings.Repeat("é", MaxBrandLength)},
		{name: "brand too long", yaml: ptr("title: T\nbrand: " + strings.Repeat("b", MaxBrandLength+1) + "\n"),
			problems: []string{`course.yaml:2:1: brand "bbbbbbbbbbbbbbbbbbbbbbbbb" is 25 characters, more than the header has room for: shorten it to at most 24`}},
		{name: "brand on two lines", yaml: ptr("title: T\nbrand: |\n  learn\n  mcp\n"), problems: []string{"course.yaml:2:1: brand is one line of at most 24 characters"}},
		{name: "missing file", yaml: nil, loads: true, wantTitle: DefaultTitle,
			problems: []string{"course.yaml: warning: the course has no course.yaml"}},
		{name: "empty file", yaml: ptr(""), problems: []string{"course.yaml:1: missing title"}},
		{name: "unknown field", yaml: ptr("title: T\nsubtitle: x\n"), problems: []string{"course.yaml:2: field subtitle not found", "known fields: title, brand, tagline, introduction, authors, licence, language"}},
		{name: "bad language", yaml: ptr("title: T\nlanguage: English\n"), problems: []string{`course.yaml:2:1: language "English" is not a language tag`}},
		{name: "empty author", yaml: ptr("title: T\nauthors:\n  - \"\"\n"), problems: []string{"course.yaml:2:1: author 1 is empty"}},
		{name: "bad yaml", yaml: ptr("title: [unclosed\n"), problems: []string{"course.yaml:", "not valid YAML"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"01-first.md": {Data: []byte(strings.Replace(goodLesson, "Intro with a table.", "Intro.\n\n"+classifyBlock, 1))}}
			if tt.yaml != nil {
				fsys[InfoFile] = &fstest.MapFile{Data: []byte(*tt.yaml)}
			}
			c, err := Load(fsys)
			var all Problems
			if err != nil {
				if !errors.As(err, &all) {
					t.Fatalf("Load: %v", err)
				}
			} else {
				all = c.Warnings
			}
			if tt.loads != (c != nil) {
				t.Fatalf("loaded = %v, want %v (problems: %v)", c != nil, tt.loads, all)
			}
			text := all.Error()
			for _, w := range tt.problems {
				if !strings.Contains(text, w) {
					t.Errorf("problems lack %q:\n%s", w, text)
				}
			}
			if len(tt.problems) == 0 && len(all) > 0 {
				t.Errorf("unexpected problems:\n%s", text)
			}
			if c != nil && c.Info.Title != tt.wantTitle {
				t.Errorf("title = %q, want %q", c.Info.Title, tt.wantTitle)
			}
			if c != nil && c.Info.Brand != tt.wantBrand {
				t.Errorf("brand = %q, want %q", c.Info.Brand, tt.wantBrand)
			}
		})
	}
	c, err := Load(fstest.MapFS{"01-first.md": {Data: []byte(strings.Replace(goodLesson, "Intro with a table.", classifyBlock, 1))},
		InfoFile: {Data: []byte("title: T\nintroduction: For **everyone**.\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(c.Info.IntroductionHTML); !strings.Contains(got, "<strong>everyone</strong>") {
		t.Errorf("introduction = %q, want rendered markdown", got)
	}
	if c.Info.Language != DefaultLanguage {
		t.Errorf("language = %q, want the default %q", c.Info.Language, DefaultLanguage)
	}
}

func ptr(s string) *string { return &s }

// TestFieldsDocumented keeps the guide's field tables in step with the
// decoders: every YAML field is documented, and nothing else.
func TestFieldsDocumented(t *testing.T) {
	for _, tt := range []struct {
		name   string
		typ    reflect.Type
		fields []Field
	}{
		{"course.yaml", reflect.TypeOf(Info{}), InfoFields()},
		{"front matter", reflect.TypeOf(frontMatter{}), FrontMatterFields()},
	} {
		var tags, documented []string
		for i := 0; i < tt.typ.NumField(); i++ {
			if tag := tt.typ.Field(i).Tag.Get("yaml"); tag != "" && tag != "-" {
				tags = append(tags, tag)
			}
		}
		for _, f := range tt.fields {
			documented = append(documented, f.Name)
			if f.Meaning == "" || (f.Required == (f.Default != "")) {
				t.Errorf("%s field %s: a field has a meaning and either is required or has a default: %+v", tt.name, f.Name, f)
			}
		}
		if !reflect.DeepEqual(tags, documented) {
			t.Errorf("%s: decoded fields %v, documented %v", tt.name, tags, documented)
		}
	}
}

func TestWarnings(t *testing.T) {
	quiz3 := "```quiz\nid: q\npass: 1\nquestions:\n" + strings.Repeat("", 0)
	for i := 1; i <= 3; i++ {
		quiz3 += "  - id: q" + string(rune('0'+i)) + "\n    prompt: P?\n    options:\n      - {id: a, text: A, correct: true, explanation: Yes.}\n      - {id: b, text: B, explanation: No.}\n"
	}
	quiz3 += "```\n"
	tests := []struct {
		name string
		body string // replaces "Intro with a table."
		xp   string // front-matter xp line, or ""
		want []string
	}{
		{"no practice", "Intro.", "", []string{"01-first.md:1: warning: the lesson has no practice"}},
		{"short quiz", quiz3, "", []string{"01-first.md:10: warning: the quiz has 3 question(s): give it at least 4"}},
		{"xp that differs", classifyBlock, "xp: 80\n", []string{"01-first.md:9: warning: xp 80 is not what a learner can earn here: the lesson's parts earn 5 XP (classify kinds 5)"}},
		{"xp that matches", classifyBlock, "xp: 5\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := strings.Replace(goodLesson, "Intro with a table.", tt.body, 1)
			src = strings.Replace(src, "minutes: 5\n", "minutes: 5\n"+tt.xp, 1)
			c, err := Load(fstest.MapFS{"01-first.md": {Data: []byte(src)}, InfoFile: {Data: []byte("title: T\n")}})
			if err != nil {
				t.Fatalf("Load: a warning must not stop the course: %v", err)
			}
			text := c.Warnings.Error()
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("warnings lack %q:\n%s", w, text)
				}
			}
			if len(tt.want) == 0 && len(c.Warnings) > 0 {
				t.Errorf("unexpected warnings:\n%s", text)
			}
			for _, p := range c.Warnings {
				if !p.IsWarning() {
					t.Errorf("%v is not a warning", p)
				}
			}
		})
	}
}

func TestEarnableXP(t *testing.T) {
	course, err := Load(BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	if course.Info.Title == DefaultTitle || course.Info.Title == "" {
		t.Errorf("the built-in course has no course.yaml title: %+v", course.Info)
	}
	for _, l := range course.Lessons {
		want := 0
		for _, s := range l.Segments {
			switch w := s.Widget; {
			case w == nil:
			case w.Exercise != nil:
				want += w.Exercise.XPValue()
			case w.Kind == "quiz":
				q, _ := l.Quiz()
				want += q.XPValue()
			default:
				want += 5
			}
		}
		if got := l.EarnableXP(); got != want || got == 0 {
			t.Errorf("%s: EarnableXP = %d, want %d (its widgets, quiz and exercises)", l.Slug, got, want)
		}
	}
}

func TestWidgetSource(t *testing.T) {
	src := strings.Replace(goodLesson, "Intro with a table.", "Intro.\n\n"+classifyBlock, 1)
	c, err := Load(fstest.MapFS{"01-first.md": {Data: []byte(src)}, InfoFile: {Data: []byte("title: T\n")}})
	if err != nil {
		t.Fatal(err)
	}
	l, _ := c.Lesson("first")
	w, ok := l.Widget("kinds")
	if !ok {
		t.Fatal("no widget kinds")
	}
	if w.Source != classifyBlock {
		t.Errorf("Source = %q, want the block as written %q", w.Source, classifyBlock)
	}
}

// TestGuide loads the guide's examples, which the /guide page shows: they
// load without a warning and hold every widget and exercise kind.
func TestGuide(t *testing.T) {
	c, err := Guide()
	if err != nil {
		t.Fatalf("the guide's examples do not load:\n%v", err)
	}
	if len(c.Warnings) > 0 {
		t.Errorf("the guide's examples have warnings:\n%v", c.Warnings)
	}
	kinds := map[string]bool{}
	for _, l := range c.Lessons {
		for _, s := range l.Segments {
			w := s.Widget
			switch {
			case w == nil:
			case w.Exercise != nil && w.Exercise.MCP != nil:
				kinds["mcp exercise"] = true
			case w.Exercise != nil && w.Exercise.Comparison() == CompareJSON && w.Exercise.Schema != "":
				kinds["json exercise"] = true
			case w.Exercise != nil && w.Exercise.Checks != nil:
				kinds["checks exercise"] = true
			case w.Exercise != nil:
				kinds["output exercise"] = true
			default:
				kinds[w.Kind] = true
			}
			if w != nil && w.Source == "" {
				t.Errorf("%s: widget %s has no source to show", l.File, w.ID)
			}
		}
	}
	for _, k := range []string{"classify", "annotate", "quiz", "output exercise", "json exercise", "checks exercise", "mcp exercise"} {
		if !kinds[k] {
			t.Errorf("the guide has no %s example", k)
		}
	}
	if c.Info.Title == DefaultTitle || len(c.Info.Authors) == 0 || c.Info.Licence == "" {
		t.Errorf("the guide's course.yaml should set every field: %+v", c.Info)
	}
}
