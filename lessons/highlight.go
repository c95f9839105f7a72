package lessons

import (
	"bytes"
	"fmt"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/styles"
)

// Highlight styles: one for light pages, one for dark ones.
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// HighlightCSS returns the stylesheet for the CSS classes the renderer puts
// on highlighted code: a light theme, and a dark one inside a
// prefers-color-scheme media query.
func HighlightCSS() ([]byte, error) {
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.ClassPrefix("hl-"))
	var b bytes.Buffer
	b.WriteString("/* Code highlighting, generated from chroma styles at start-up. */\n")
	if err := f.WriteCSS(&b, styles.Get(lightStyle)); err != nil {
		return nil, fmt.Errorf("lessons: highlight css: %w", err)
	}
	b.WriteString("\n@media (prefers-color-scheme: dark) {\n")
	// The dark style names fewer token kinds than the light one; without
	// this reset the light colours of the rest would show on a dark page.
	b.WriteString(".hl-chroma [class^=\"hl-\"], .hl-chroma [class*=\" hl-\"] { color: inherit; }\n")
	if err := f.WriteCSS(&b, styles.Get(darkStyle)); err != nil {
		return nil, fmt.Errorf("lessons: highlight css: %w", err)
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}
