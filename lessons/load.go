package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// frontMatter is the YAML header of a lesson file.
type frontMatter struct {
	Title      string   `yaml:"title"`
	Slug       string   `yaml:"slug"`
	Order      int      `yaml:"order"`
	Summary    string   `yaml:"summary"`
	Objectives []string `yaml:"objectives"`
	Minutes    int      `yaml:"minutes"`
	XP         *int     `yaml:"xp"`
	Sources    []Source `yaml:"sources"`

	xpLine int // the line of xp in the file
}

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Load reads course.yaml and every *.md file at the top of fsys (but
// README.md) as a lesson, and returns the course in lesson order. If any
// problem is an error it returns a nil course and a Problems error listing
// every problem found, warnings included; otherwise the course carries its
// warnings in Course.Warnings.
func Load(fsys fs.FS) (*Course, error) {
	c, problems, err := LoadSound(fsys)
	if err != nil {
		return nil, err
	}
	if len(problems.Errors()) > 0 {
		return nil, problems
	}
	return c, nil
}

// LoadSound reads a course folder as Load does but goes on past errors:
// it returns the course of the lessons with no error in their own file
// (perhaps none), whose Warnings are theirs and the folder's, and every
// problem found in the folder, errors and warnings. learn check uses it to
// run the exercises of the sound lessons of a broken course, and learn
// serve --dev to start on one. The error is for a folder that cannot be
// listed.
func LoadSound(fsys fs.FS) (*Course, Problems, error) {
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, nil, fmt.Errorf("lessons: list course: %w", err)
	}
	r := newRenderer(fsys)
	info, ips := loadInfo(r, fsys)
	problems := Problems(ips)
	if len(names) == 0 {
		problems = append(problems, Problem{File: ".", Message: "the course has no lessons: add a file such as 01-first-lesson.md with YAML front matter"})
	}
	var lessons []*Lesson
	for _, name := range names {
		if strings.EqualFold(name, "README.md") {
			continue
		}
		src, p := readCapped(fsys, name, MaxLessonBytes)
		if p == nil {
			p = nestingProblem(name, src, 1)
		}
		if p != nil {
			problems = append(problems, *p)
			continue
		}
		l, ps := parseLesson(r, name, src)
		problems = append(problems, ps...)
		if l != nil {
			lessons = append(lessons, l)
		}
	}
	problems = append(problems, checkCourse(lessons)...)
	broken := map[string]bool{}
	for _, p := range problems.Errors() {
		broken[p.File] = true
	}
	sound := lessons[:0:0]
	var warnings Problems
	for _, l := range lessons {
		if !broken[l.File] {
			sound = append(sound, l)
		}
	}
	for _, p := range problems {
		if p.IsWarning() && !broken[p.File] {
			warnings = append(warnings, p)
		}
	}
	sort.SliceStable(sound, func(i, j int) bool { return sound[i].Order < sound[j].Order })
	c := &Course{Info: info, Lessons: sound, Warnings: warnings, bySlug: make(map[string]int, len(sound)), assets: map[string]*Asset{}}
	for _, a := range r.assets {
		c.assets[a.URL] = a
	}
	for i, l := range sound {
		c.bySlug[l.Slug] = i
	}
	return c, problems, nil
}

// checkCourse finds problems between lessons: shared slugs and orders.
func checkCourse(lessons []*Lesson) []Problem {
	var ps []Problem
	slugs := map[string]string{}
	orders := map[int]string{}
	exercises := map[string]string{}
	for _, l := range lessons {
		for _, seg := range l.Segments {
			if w := seg.Widget; w != nil && w.Exercise != nil {
				if other, dup := exercises[w.ID]; dup {
					ps = append(ps, Problem{File: l.File, Line: w.Line, Message: fmt.Sprintf("exercise id %q is already used in %s: exercise ids are unique across the course", w.ID, other)})
				}
				exercises[w.ID] = l.File
			}
		}
		if l.Slug != "" {
			if other, dup := slugs[l.Slug]; dup {
				ps = append(ps, Problem{File: l.File, Line: 2, Message: fmt.Sprintf("slug %q is already used by %s: every lesson needs its own slug", l.Slug, other)})
			} else {
				slugs[l.Slug] = l.File
			}
		}
		if other, dup := orders[l.Order]; dup && l.Order > 0 {
			ps = append(ps, Problem{File: l.File, Line: 2, Message: fmt.Sprintf("order %d is already used by %s: give each lesson its own order number", l.Order, other)})
		} else {
			orders[l.Order] = l.File
		}
	}
	return ps
}

// splitFrontMatter separates the YAML header from the body. bodyLine is the
// 1-based line of the file where the body starts.
func splitFrontMatter(src []byte) (header, body []byte, bodyLine int, err error) {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
	if !bytes.HasPrefix(src, []byte("---\n")) {
		return nil, nil, 0, errors.New(`the file must start with YAML front matter: a line "---", fields such as "title: …", then "---"`)
	}
	rest := src[len("---\n"):]
	end := bytes.Index(rest, []byte("\n---\n"))
	if end < 0 {
		if bytes.HasSuffix(rest, []byte("\n---")) {
			end = len(rest) - len("\n---")
		} else {
			return nil, nil, 0, errors.New(`the front matter is not closed: add a line "---" after its last field`)
		}
	}
	header = rest[:end+1]
	body = rest[min(len(rest), end+len("\n---\n")):]
	bodyLine = 2 + bytes.Count(header, []byte("\n")) + 1
	return header, body, bodyLine, nil
}

// parseLesson parses one lesson file. It returns the lesson (possibly
// incomplete) and every problem found in it.
func parseLesson(r *renderer, name string, src []byte) (*Lesson, []Problem) {
	for _, c := range []string{"\uE000", "\uE001"} {
		// The server marks the learner's parts of a page with these
		// private-use characters (web/skeleton.go).
		if i := bytes.Index(src, []byte(c)); i >= 0 {
			return nil, []Problem{{File: name, Line: 1 + bytes.Count(src[:i], []byte("\n")),
				Message: fmt.Sprintf("the private-use character U+%04X is reserved by the server: remove it", []rune(c)[0])}}
		}
	}
	header, body, bodyLine, err := splitFrontMatter(src)
	if err != nil {
		return nil, []Problem{{File: name, Line: 1, Message: err.Error()}}
	}
	fm, ps := parseFrontMatter(name, header)
	l := &Lesson{
		Title: fm.Title, Slug: fm.Slug, Order: fm.Order, Summary: fm.Summary,
		Objectives: fm.Objectives, Minutes: fm.Minutes, File: name, Sources: fm.Sources,
	}
	ps = append(ps, r.render(l, body, bodyLine)...)
	ps = append(ps, checkWidgets(l)...)
	ps = append(ps, lessonWarnings(l)...)
	if fm.XP != nil && *fm.XP >= 0 && *fm.XP != l.EarnableXP() {
		ps = append(ps, warning(name, fm.xpLine, "xp %d is not what a learner can earn here: the lesson's parts earn %d XP (%s), which pages show; remove the xp line",
			*fm.XP, l.EarnableXP(), l.xpBreakdown()))
	}
	return l, ps
}

// parseFrontMatter decodes and checks the header. Lines in problems are
// lines of the file (the header starts on line 2).
func parseFrontMatter(name string, header []byte) (frontMatter, []Problem) {
	var fm frontMatter
	var ps []Problem
	add := func(line int, format string, args ...any) {
		ps = append(ps, Problem{File: name, Line: line, Message: fmt.Sprintf(format, args...)})
	}
	var root yaml.Node
	if err := yaml.Unmarshal(header, &root); err != nil {
		at, msg := yamlSyntax(header, err)
		add(1+at, "bad front matter: %s", msg)
		return fm, ps
	}
	dec := yaml.NewDecoder(bytes.NewReader(header))
	dec.KnownFields(true)
	if err := dec.Decode(&fm); err != nil {
		add(yamlErrorLine(err, 1), "bad front matter: %s (known fields: title, slug, order, summary, objectives, minutes, xp, sources; a source has title and url)", yamlErrorText(err, 1))
		return fm, ps
	}
	line := func(key string) int { return keyLine(&root, key) + 1 }
	fm.xpLine = line("xp")
	if strings.TrimSpace(fm.Title) == "" {
		add(line("title"), `missing title: add a line such as "title: Two ways a tool call fails"`)
	}
	if !slugPattern.MatchString(fm.Slug) {
		add(line("slug"), "slug %q is not valid: use lowercase letters, digits and single hyphens, such as \"two-ways-to-fail\"", fm.Slug)
	}
	if fm.Order <= 0 {
		add(line("order"), "order must be a whole number above 0, such as \"order: 3\"; it places the lesson in the course")
	}
	if strings.TrimSpace(fm.Summary) == "" {
		add(line("summary"), `missing summary: add one sentence such as "summary: How a failed tool call reaches the model."`)
	}
	if len(fm.Objectives) == 0 {
		add(line("objectives"), "missing objectives: add a list such as \"objectives:\\n  - Tell a protocol error from a tool execution error\"")
	}
	for i, o := range fm.Objectives {
		if strings.TrimSpace(o) == "" {
			add(line("objectives"), "objective %d is empty: write what the learner will be able to do", i+1)
		}
	}
	if fm.Minutes <= 0 {
		add(line("minutes"), "minutes must be a whole number above 0, such as \"minutes: 12\"")
	}
	if fm.XP != nil && *fm.XP < 0 {
		add(line("xp"), "xp must be 0 or more; better, leave it out: pages show the XP the lesson's parts earn")
	}
	for i, src := range fm.Sources {
		at := caseKeyLine(&root, "sources", i, "url") + 1
		for _, p := range src.problems() {
			add(at, "source %d %s", i+1, p)
		}
	}
	return fm, ps
}

// keyLine returns the 1-based line of a top-level key in a YAML document
// node, or 1 when the key is absent.
func keyLine(doc *yaml.Node, key string) int {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return 1
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == key {
			return doc.Content[i].Line
		}
	}
	return 1
}

var yamlLinePattern = regexp.MustCompile(`line (\d+)`)

// yamlErrorLine finds the first "line N" in a YAML error and adds offset.
func yamlErrorLine(err error, offset int) int {
	m := yamlLinePattern.FindStringSubmatch(err.Error())
	if m == nil {
		return offset
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n + offset
}
