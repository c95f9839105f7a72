package lessons

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// InfoFile is the name of the file that describes a course folder.
const InfoFile = "course.yaml"

// DefaultTitle and DefaultLanguage are what a course folder without a
// course.yaml is served with (Load warns about the missing file).
const (
	DefaultTitle    = "Untitled course"
	DefaultLanguage = "en"
)

// MaxBrandLength is the most characters a course's brand may have: the
// header has room for a short name beside the navigation on a phone.
const MaxBrandLength = 24

// Info describes a course: the course.yaml file at the top of its folder.
//
//	title: Reading HTTP status codes
//	brand: http.codes
//	tagline: What a server's three digits tell a client.
//	introduction: |
//	  Every HTTP response starts with a status code. …
//	authors: [The course team]
//	licence: CC BY 4.0
//	language: en
//
// Only title is required. The home page shows the title, tagline and
// introduction; every page's title and footer name the course, and its
// header shows the brand, or the title when there is none.
type Info struct {
	Title string `yaml:"title"`
	// Brand is the short name in every page's header, "" for none (the
	// header then shows Title); at most MaxBrandLength characters.
	Brand        string   `yaml:"brand"`
	Tagline      string   `yaml:"tagline"`
	Introduction string   `yaml:"introduction"`
	Authors      []string `yaml:"authors"`
	Licence      string   `yaml:"licence"`
	Language     string   `yaml:"language"`

	// IntroductionHTML is Introduction rendered as markdown.
	IntroductionHTML template.HTML `yaml:"-"`
}

// Field documents one field an author may write, for the guide and for
// error messages.
type Field struct {
	Name     string
	Required bool
	// Default is what an absent optional field means.
	Default string
	// Meaning says what the field does, with an example value.
	Meaning string
}

// InfoFields documents every field of course.yaml, in the order the guide
// lists them.
func InfoFields() []Field {
	return []Field{
		{Name: "title", Required: true, Meaning: "The course's name, shown on the home page, in every page title and in the footer."},
		{Name: "brand", Default: "the title", Meaning: fmt.Sprintf("A short name for the header of every page, such as \"learn.mcp\", at most %d characters; what follows its first dot is shown in the accent colour.", MaxBrandLength)},
		{Name: "tagline", Default: "none", Meaning: "One line under the title on the home page, and the pages' description for search engines."},
		{Name: "introduction", Default: "none", Meaning: "Markdown shown on the home page above the lessons: who the course is for and what it covers."},
		{Name: "authors", Default: "none", Meaning: "A list of names, shown in the footer."},
		{Name: "licence", Default: "none", Meaning: "The licence of the course text, such as \"CC BY 4.0\", shown in the footer."},
		{Name: "language", Default: DefaultLanguage, Meaning: "The language of the lessons as a language tag, such as \"en\" or \"pt-BR\"; pages declare it for screen readers."},
	}
}

// FrontMatterFields documents every field of a lesson's front matter, in
// the order the guide lists them.
func FrontMatterFields() []Field {
	return []Field{
		{Name: "title", Required: true, Meaning: "The lesson's heading, on its page and on the course home."},
		{Name: "slug", Required: true, Meaning: "The lesson's address, /lessons/SLUG: lowercase letters, digits and single hyphens. Progress is kept by slug, so keep it once learners have started."},
		{Name: "order", Required: true, Meaning: "A whole number above 0 that places the lesson in the course; each lesson has its own."},
		{Name: "summary", Required: true, Meaning: "One sentence for the lesson's card on the course home."},
		{Name: "objectives", Required: true, Meaning: "A list of what the learner will be able to do, shown at the top of the lesson."},
		{Name: "minutes", Required: true, Meaning: "About how long the lesson takes, shown on its card."},
		{Name: "xp", Default: "the XP the lesson's parts earn", Meaning: "Not needed: pages show the XP a learner can earn from the lesson's widgets, quiz and exercises. If set, learn check warns when it differs from that sum."},
		{Name: "sources", Default: "none", Meaning: "The documents the lesson teaches from, listed in a Sources section at its end: each has a title and an http or https url, such as \"- {title: \"MCP specification: Tools\", url: https://modelcontextprotocol.io/specification/2026-07-28/server/tools}\"."},
	}
}

// yamlTypeNoise is the part of a decoder error that names Go, not the file.
var yamlTypeNoise = regexp.MustCompile(`line \d+: | in type [\w.]+`)

var languagePattern = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// loadInfo reads course.yaml from fsys. A missing file gives the defaults
// and a warning.
func loadInfo(r *renderer, fsys fs.FS) (Info, []Problem) {
	info := Info{Title: DefaultTitle, Language: DefaultLanguage}
	if _, err := fs.Stat(fsys, InfoFile); errors.Is(err, fs.ErrNotExist) {
		return info, []Problem{warning(InfoFile, 0, "the course has no course.yaml, so it is served as %q: add one with at least \"title: …\" (learn new course writes one)", DefaultTitle)}
	}
	src, p := readCapped(fsys, InfoFile, MaxInfoBytes)
	if p != nil {
		return info, []Problem{*p}
	}
	var ps []Problem
	add := func(line, col int, format string, args ...any) {
		ps = append(ps, Problem{File: InfoFile, Line: line, Column: col, Message: fmt.Sprintf(format, args...)})
	}
	fields := InfoFields()
	names := make([]string, 0, len(fields))
	for _, f := range fields {
		names = append(names, f.Name)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		at, msg := yamlSyntax(src, err)
		add(at, 0, "not valid YAML: %s", msg)
		return info, ps
	}
	var got Info
	dec := yaml.NewDecoder(bytes.NewReader(src))
	dec.KnownFields(true)
	if err := dec.Decode(&got); err != nil && !errors.Is(err, io.EOF) {
		msg := yamlTypeNoise.ReplaceAllString(yamlErrorText(err, 0), "")
		add(yamlErrorLine(err, 0), 0, "%s (known fields: %s)", msg, strings.Join(names, ", "))
		return info, ps
	}
	at := func(key string) (int, int) {
		n := keyNode(&root, key)
		if n == nil {
			return 1, 0
		}
		return n.Line, n.Column
	}
	if strings.TrimSpace(got.Title) == "" {
		l, c := at("title")
		add(l, c, `missing title: add a line such as "title: Reading HTTP status codes"`)
	}
	got.Brand = strings.TrimSpace(got.Brand)
	if n := utf8.RuneCountInString(got.Brand); strings.Contains(got.Brand, "\n") {
		l, c := at("brand")
		add(l, c, "brand is one line of at most %d characters, such as \"learn.mcp\"", MaxBrandLength)
	} else if n > MaxBrandLength {
		l, c := at("brand")
		add(l, c, "brand %q is %d characters, more than the header has room for: shorten it to at most %d, or remove it to show the title", got.Brand, n, MaxBrandLength)
	}
	if strings.ContainsAny(strings.TrimSpace(got.Tagline), "\n") {
		l, c := at("tagline")
		add(l, c, "tagline is one line: move the rest into introduction")
	}
	if got.Language == "" {
		got.Language = DefaultLanguage
	} else if !languagePattern.MatchString(got.Language) {
		l, c := at("language")
		add(l, c, "language %q is not a language tag: use one such as \"en\", \"fr\" or \"pt-BR\"", got.Language)
	}
	for i, a := range got.Authors {
		if strings.TrimSpace(a) == "" {
			l, c := at("authors")
			add(l, c, "author %d is empty: write a name or remove the line", i+1)
		}
	}
	var intro bytes.Buffer
	if err := r.md.Convert([]byte(got.Introduction), &intro); err != nil {
		l, c := at("introduction")
		add(l, c, "the introduction could not be rendered: %v", err)
	}
	got.IntroductionHTML = template.HTML(intro.String())
	if len(ps) > 0 {
		return info, ps
	}
	return got, nil
}

// keyNode returns the key node of a top-level key in a YAML document, or
// nil.
func keyNode(doc *yaml.Node, key string) *yaml.Node {
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value == key {
			return doc.Content[i]
		}
	}
	return nil
}
