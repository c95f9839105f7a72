package progress

import (
	"strings"
	"testing"
)

func TestPostTextIsSafe(t *testing.T) {
	pt := newPostText()
	cases := []struct {
		name, in string
		want     []string
		banned   []string
	}{
		{"script", "<script>alert(1)</script>\n\nhi", []string{"hi"}, []string{"<script", "alert(1)</script>"}},
		{"img onerror", `<img src=x onerror=alert(1)>`, nil, []string{"<img", "onerror"}},
		{"javascript link", "[x](javascript:alert(1))", []string{">x</a>"}, []string{"javascript:"}},
		{"javascript autolink", "<javascript:alert(1)>", nil, []string{`href="javascript`}},
		{"data link", "[x](data:text/html;base64,PHNjcmlwdD4=)", nil, []string{"data:"}},
		{"link rel", "[spec](https://example.com/a)", []string{`<a href="https://example.com/a" rel="nofollow ugc noopener">spec</a>`}, nil},
		{"autolink rel", "https://example.com/b", []string{`href="https://example.com/b" rel="nofollow ugc noopener"`}, nil},
		{"image", "![x](https://example.com/p.png)", nil, []string{"<img"}},
		{"heading", "# Big", []string{"Big"}, []string{"<h1"}},
		{"code highlighted", "```python\nx = 1\n```", []string{`<pre class="hl-chroma">`, `class="hl-`}, []string{"style="}},
		{"inline code escapes", "`<b>`", []string{"<code>&lt;b&gt;</code>"}, []string{"<b>"}},
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |", []string{"<table>", "<td>1</td>"}, nil},
		{"raw attributes", `<p onclick="x" style="color:red" class="evil">y</p>`, nil, []string{"onclick", "style=", "evil"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pt.render(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("render(%q) = %q, lacks %q", tc.in, got, w)
				}
			}
			for _, b := range tc.banned {
				if strings.Contains(got, b) {
					t.Errorf("render(%q) = %q, contains %q", tc.in, got, b)
				}
			}
		})
	}
}

func TestCleanPost(t *testing.T) {
	cases := []struct {
		name, in string
		kind     Kind
		ok       bool
	}{
		{"text", "  hello\r\nworld  ", 0, true},
		{"blank", " \n\t ", Invalid, false},
		{"too long", strings.Repeat("é", MaxPostLen+1), TooLarge, false},
		{"at the limit", strings.Repeat("é", MaxPostLen), 0, true},
		{"control character", "a\x00b", Invalid, false},
		{"not utf-8", "a\xffb", Invalid, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := cleanPost(tc.in)
			if tc.ok != (err == nil) {
				t.Fatalf("cleanPost(%q) error = %v, want ok %v", tc.in, err, tc.ok)
			}
			if err != nil && err.Kind != tc.kind {
				t.Errorf("kind = %v, want %v", err.Kind, tc.kind)
			}
			if tc.name == "text" && got != "hello\nworld" {
				t.Errorf("cleanPost = %q", got)
			}
		})
	}
}
