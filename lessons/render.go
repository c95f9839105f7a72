package lessons

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"strings"

	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// takeawaysHeading is the title of the section shown in the takeaways box.
const takeawaysHeading = "Key takeaways"

// renderer turns lesson bodies into segments. It is built once per Load.
type renderer struct {
	md goldmark.Markdown
	// fsys is the course's files, from which assets are read (nil: none).
	fsys fs.FS
	// assets are the assets read so far, by path in the folder.
	assets map[string]*Asset
}

// newRenderer returns a renderer reading assets from fsys.
func newRenderer(fsys fs.FS) *renderer {
	md := goldmark.New(
		goldmark.WithExtensions(
			extension.GFM,
			HighlightMarkdown(chromahtml.WithPreWrapper(focusablePre{})),
		),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			parser.WithASTTransformers(util.Prioritized(headingAnchors{}, 500)),
		),
	)
	return &renderer{md: md, fsys: fsys, assets: map[string]*Asset{}}
}

// render parses body (which starts on line bodyLine of the file) into l's
// segments, takeaways and examples.
func (r *renderer) render(l *Lesson, body []byte, bodyLine int) []Problem {
	var ps []Problem
	doc := r.md.Parser().Parse(text.NewReader(body))
	lineOf := func(offset int) int { return bodyLine + bytes.Count(body[:offset], []byte("\n")) }

	var html bytes.Buffer
	flush := func() {
		if html.Len() > 0 {
			l.Segments = append(l.Segments, Segment{HTML: template.HTML(html.String())})
			html.Reset()
		}
	}
	inTakeaways := false
	var takeaways bytes.Buffer
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if h, ok := n.(*ast.Heading); ok && h.Level <= 3 {
			if id, ok := h.AttributeString("id"); ok {
				if b, ok := id.([]byte); ok {
					l.Parts = append(l.Parts, Part{Kind: "heading", ID: string(b), Title: strings.TrimSpace(string(nodeText(h, body)))})
				}
			}
		}
		if h, ok := n.(*ast.Heading); ok && h.Level <= 2 {
			inTakeaways = h.Level == 2 && strings.TrimSpace(string(nodeText(h, body))) == takeawaysHeading
			if inTakeaways {
				flush()
				l.TakeawaysAt = len(l.Segments)
				continue
			}
		}
		if fence, ok := n.(*ast.FencedCodeBlock); ok {
			info := fenceInfo(fence, body)
			line := lineOf(fenceStart(fence, body))
			if len(info) > 0 && info[0] == KindFAQ {
				if l.FAQ != nil {
					ps = append(ps, Problem{File: l.File, Line: line, Message: "a lesson has one faq block: merge these entries into the first one"})
					continue
				}
				faq, fps := r.decodeFAQ(l.File, fenceBody(fence, body), line)
				ps = append(ps, fps...)
				if faq == nil {
					faq = []FAQ{}
				}
				l.FAQ = faq
				l.FAQSource = fenceSource(fence, body)
				continue
			}
			if len(info) > 0 && widgetKinds[info[0]] {
				if inTakeaways {
					ps = append(ps, Problem{File: l.File, Line: line, Message: fmt.Sprintf("the %s block cannot stand in the %q section: move it above that heading", info[0], takeawaysHeading)})
					continue
				}
				w, wps := r.decodeWidget(l.File, info[0], fenceBody(fence, body), line)
				ps = append(ps, wps...)
				if w != nil {
					w.Source = fenceSource(fence, body)
					flush()
					l.Segments = append(l.Segments, Segment{Widget: w})
					l.Parts = append(l.Parts, widgetPart(w))
				}
				continue
			}
			if len(info) > 0 {
				if kind, ok := misspeltBlock(info[0]); ok {
					ps = append(ps, Problem{File: l.File, Line: line, Message: fmt.Sprintf(
						"unknown block %q: did you mean %q? As written it shows as plain code and learners get no %s", info[0], kind, kind)})
				}
			}
			ex, eps := codeExample(l.File, info, fence, body, line)
			ps = append(ps, eps...)
			l.Examples = append(l.Examples, ex)
		}
		ps = append(ps, r.linkAssets(l.File, n, body, lineOf)...)
		out := &html
		if inTakeaways {
			out = &takeaways
		}
		if err := r.md.Renderer().Render(out, body, n); err != nil {
			ps = append(ps, Problem{File: l.File, Line: lineOf(nodeStart(n, body)), Message: fmt.Sprintf("cannot render this part: %v", err)})
		}
	}
	flush()
	l.Takeaways = template.HTML(takeaways.String())
	if takeaways.Len() == 0 {
		ps = append(ps, Problem{File: l.File, Line: bodyLine, Message: fmt.Sprintf("missing takeaways: end the lesson with a section \"## %s\" holding a short bullet list", takeawaysHeading)})
	}
	return ps
}

// codeExample records a plain fenced block and checks its flags. It sets the
// "linenos" attribute the highlighter reads.
func codeExample(file string, info []string, fence *ast.FencedCodeBlock, body []byte, line int) (CodeExample, []Problem) {
	var ps []Problem
	ex := CodeExample{Code: string(fenceBody(fence, body)), Line: line}
	if len(info) == 0 {
		return ex, ps
	}
	ex.Language = info[0]
	for _, flag := range info[1:] {
		name, value, _ := strings.Cut(flag, "=")
		switch {
		case flag == "linenos":
			fence.SetAttributeString("linenos", true)
		case name == "mcp" && ex.Language == "json" && value != "":
			ex.Schema = value
		default:
			ps = append(ps, Problem{File: file, Line: line, Message: fmt.Sprintf("unknown flag %q on a %s block: use \"linenos\", or \"mcp=CallToolResult\" (a schema definition) on a json block", flag, ex.Language)})
		}
	}
	return ex, ps
}

func fenceInfo(f *ast.FencedCodeBlock, src []byte) []string {
	if f.Info == nil {
		return nil
	}
	return strings.Fields(string(f.Info.Segment.Value(src)))
}

func fenceBody(f *ast.FencedCodeBlock, src []byte) []byte {
	var b bytes.Buffer
	lines := f.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	return b.Bytes()
}

// fenceStart returns the byte offset of the opening fence line.
func fenceStart(f *ast.FencedCodeBlock, src []byte) int {
	off := 0
	if f.Info != nil {
		off = f.Info.Segment.Start
	} else if f.Lines().Len() > 0 {
		off = f.Lines().At(0).Start
		// The first content line follows the fence line.
		if i := bytes.LastIndexByte(src[:max(0, off-1)], '\n'); i >= 0 {
			return i + 1
		}
		return 0
	}
	return off
}

// fenceSource returns a fenced block as written: from its opening fence
// line to its closing fence line.
func fenceSource(f *ast.FencedCodeBlock, src []byte) string {
	start := fenceStart(f, src)
	if i := bytes.LastIndexByte(src[:start], '\n'); i >= 0 {
		start = i + 1
	} else {
		start = 0
	}
	end := start
	if lines := f.Lines(); lines.Len() > 0 {
		end = lines.At(lines.Len() - 1).Stop
	} else if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i + 1
	}
	// The closing fence is the next line, when there is one.
	if end < len(src) {
		if i := bytes.IndexByte(src[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(src)
		}
	}
	return string(src[start:end])
}

// nodeStart returns a byte offset inside the node's first line, or 0.
func nodeStart(n ast.Node, src []byte) int {
	for c := n; c != nil; c = c.FirstChild() {
		if c.Type() == ast.TypeBlock && c.Lines().Len() > 0 {
			return c.Lines().At(0).Start
		}
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	return 0
}

// nodeText returns the plain text of an inline container such as a heading.
func nodeText(n ast.Node, src []byte) []byte {
	var b bytes.Buffer
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	return b.Bytes()
}

// headingAnchors adds a self-link to every heading that has an id, so a
// reader can link to a section.
type headingAnchors struct{}

func (headingAnchors) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok {
			return ast.WalkContinue, nil
		}
		id, ok := h.AttributeString("id")
		if !ok {
			return ast.WalkSkipChildren, nil
		}
		idBytes, _ := id.([]byte)
		link := ast.NewLink()
		link.Destination = append([]byte("#"), idBytes...)
		link.SetAttributeString("class", []byte("anchor"))
		link.SetAttributeString("aria-hidden", []byte("true"))
		link.SetAttributeString("tabindex", []byte("-1"))
		link.AppendChild(link, ast.NewString([]byte("#")))
		h.AppendChild(h, link)
		return ast.WalkSkipChildren, nil
	})
}

// Compile-time check that the transformer fits goldmark.
var _ parser.ASTTransformer = headingAnchors{}

// focusablePre wraps highlighted code in a <pre> that keyboard users can
// focus, so a block wider than the page can be scrolled without a mouse.
type focusablePre struct{}

func (focusablePre) Start(code bool, styleAttr string) string {
	if code {
		return `<pre tabindex="0"` + styleAttr + `><code>`
	}
	return `<pre tabindex="0"` + styleAttr + `>`
}

func (focusablePre) End(code bool) string {
	if code {
		return "</code></pre>"
	}
	return "</pre>"
}
