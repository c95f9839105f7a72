package lessons

import (
	"bytes"
	"fmt"
	"html/template"
	"regexp"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark"
	highlighting "github.com/yuin/goldmark-highlighting/v2"
)

// The one highlighter configuration of learn: lessons, Q&A posts and a
// learner's code on their teacher's page are all drawn with chroma's CSS
// classes under one prefix, styled by HighlightCSS.

// Highlight styles: one for light pages, one for dark ones.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// classPrefix starts every CSS class the highlighter writes.
const classPrefix = "hl-"

// HighlightClasses matches a class attribute that holds only highlighter
// classes, for sanitisers that must keep highlighting and nothing else.
var HighlightClasses = regexp.MustCompile(`^` + classPrefix + `[a-z0-9]+( ` + classPrefix + `[a-z0-9]+)*$`)

// formatOptions are the formatter options of all highlighted code, with
// extra ones after them.
func formatOptions(extra ...chromahtml.Option) []chromahtml.Option {
	return append([]chromahtml.Option{chromahtml.WithClasses(true), chromahtml.ClassPrefix(classPrefix)}, extra...)
}

// HighlightMarkdown is the goldmark extension that highlights fenced code
// in markdown with the highlighter's classes; extra formatter options
// follow the common ones.
func HighlightMarkdown(extra ...chromahtml.Option) goldmark.Extender {
	return highlighting.NewHighlighting(highlighting.WithFormatOptions(formatOptions(extra...)...))
}

// HighlightPython draws Python code as HTML with the highlighter's classes,
// in its own pre block; chroma escapes the code.
func HighlightPython(code string) (template.HTML, error) {
	return highlight("python", code, chromahtml.TabWidth(4))
}

// HighlightJSONSpans draws JSON as the highlighter's spans, without a
// surrounding pre block: the caller puts them in an element of class
// HighlightBlock. chroma escapes the text.
func HighlightJSONSpans(json string) (template.HTML, error) {
	return highlight("json", json, chromahtml.PreventSurroundingPre(true))
}

// HighlightBlock is the class of an element whose highlighted spans the
// stylesheet colours (HighlightCSS).
const HighlightBlock = classPrefix + "chroma"

func highlight(language, code string, extra ...chromahtml.Option) (template.HTML, error) {
	it, err := lexers.Get(language).Tokenise(nil, code)
	if err != nil {
		return "", fmt.Errorf("lessons: highlight %s: %w", language, err)
	}
	var b bytes.Buffer
	if err := chromahtml.New(formatOptions(extra...)...).Format(&b, styles.Get(lightStyle), it); err != nil {
		return "", fmt.Errorf("lessons: highlight %s: %w", language, err)
	}
	return template.HTML(b.String()), nil
}

// HighlightCSS returns the stylesheet for the CSS classes the renderer puts
// on highlighted code: a light theme, and a dark one inside a
// prefers-color-scheme media query.
func HighlightCSS() ([]byte, error) {
	f := chromahtml.New(formatOptions()...)
	var b bytes.Buffer
	b.WriteString("/* Code highlighting, generated from chroma styles at start-up. */\n")
	if err := f.WriteCSS(&b, styles.Get(lightStyle)); err != nil {
		return nil, fmt.Errorf("lessons: highlight css: %w", err)
	}
	b.WriteString("\n@media (prefers-color-scheme: dark) {\n")
	// The dark style names fewer token kinds than the light one; without
	// this reset the light colours of the rest would show on a dark page.
	fmt.Fprintf(&b, ".%[1]schroma [class^=\"%[1]s\"], .%[1]schroma [class*=\" %[1]s\"] { color: inherit; }\n", classPrefix)
	if err := f.WriteCSS(&b, styles.Get(darkStyle)); err != nil {
		return nil, fmt.Errorf("lessons: highlight css: %w", err)
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}
