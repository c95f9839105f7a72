package progress

import (
	"bytes"
	"fmt"
	"learn/lessons"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Post text limits.
const (
	// MaxPostLen is the longest post, in characters: room for a question
	// with a short code sample, too little for a pasted file.
	MaxPostLen = 4000
	// MaxReasonLen bounds a moderator's reason and a report's note.
	MaxReasonLen = 200
)

// LinkRel is the rel attribute of every link in a post: the server vouches
// for none of them, and a page opened from one gets no handle on this one.
const LinkRel = "nofollow ugc noopener"

// postText renders learners' markdown to HTML that is safe to show to
// anyone. Posts are rendered once, on write: a lesson page is read far
// more often than a post is written, so the sanitiser runs once per post
// rather than once per view, and the markdown is kept beside the HTML so
// a post can be edited (and re-rendered if the policy ever changes).
//
// Two layers: goldmark renders CommonMark with GitHub tables and
// strikethrough but drops raw HTML (it is never rendered "unsafe"), and
// bluemonday then keeps only the elements and attributes a post needs,
// so a mistake in either layer alone lets nothing through.
type postText struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
}

func newPostText() *postText {
	md := goldmark.New(
		goldmark.WithExtensions(
			extension.Table, extension.Strikethrough, extension.Linkify,
			lessons.HighlightMarkdown(),
		),
		goldmark.WithParserOptions(parser.WithASTTransformers(util.Prioritized(linkRel{}, 500))),
	)
	// A narrowed UGC policy: text structure, lists, quotes, code, tables
	// and links; no images (a tracking pixel or a huge picture), no
	// headings (a post would look like part of the lesson), no ids (they
	// could clash with the page's anchors), no styles.
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "strong", "em", "del", "code", "pre", "blockquote", "ul", "ol", "li", "hr",
		"table", "thead", "tbody", "tr", "th", "td", "span")
	p.AllowAttrs("class").Matching(lessons.HighlightClasses).OnElements("span", "pre", "code")
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("rel").Matching(regexp.MustCompile("^" + LinkRel + "$")).OnElements("a")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|right|center)$`)).OnElements("th", "td")
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	return &postText{md: md, policy: p}
}

// render returns the safe HTML of a post's markdown.
func (pt *postText) render(src string) (string, error) {
	var b bytes.Buffer
	if err := pt.md.Convert([]byte(src), &b); err != nil {
		return "", fmt.Errorf("progress: render post: %w", err)
	}
	return pt.policy.Sanitize(b.String()), nil
}

// linkRel gives every link and autolink the rel attribute LinkRel.
type linkRel struct{}

func (linkRel) Transform(doc *ast.Document, _ text.Reader, _ parser.Context) {
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.Link, *ast.AutoLink:
			n.SetAttributeString("rel", []byte(LinkRel))
		}
		return ast.WalkContinue, nil
	})
}

// cleanPost checks a post's markdown: not blank, not over MaxPostLen, no
// control characters but tabs and newlines. It returns the text with its
// line ends made "\n" and its outer blank space trimmed.
func cleanPost(body string) (string, *Error) {
	body = strings.TrimSpace(strings.ReplaceAll(body, "\r\n", "\n"))
	switch {
	case !utf8.ValidString(body):
		return "", invalid("The post has bytes that are not text; paste it again as plain text.")
	case body == "":
		return "", invalid("Write something first: the post is empty.")
	case utf8.RuneCountInString(body) > MaxPostLen:
		return "", &Error{Kind: TooLarge, Message: fmt.Sprintf("The post has %d characters; the limit is %d. Shorten it, or share only the lines that matter.", utf8.RuneCountInString(body), MaxPostLen)}
	}
	for _, r := range body {
		if r < 0x20 && r != '\n' && r != '\t' {
			return "", invalid("The post has a control character; paste it again as plain text.")
		}
	}
	return body, nil
}

// cleanReason trims a moderator's reason or a report's note and bounds it.
func cleanReason(s string) (string, *Error) {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > MaxReasonLen {
		return "", invalid(fmt.Sprintf("Keep the reason under %d characters.", MaxReasonLen))
	}
	return s, nil
}
