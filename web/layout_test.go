package web

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestBrand checks the header's name: a course's brand with what follows
// its first dot in the accent span, else the course title whole.
func TestBrand(t *testing.T) {
	tests := []struct {
		name   string
		course CourseLine
		want   string // the link's inner HTML
	}{
		{"brand with a dot", CourseLine{Title: "MCP tool errors", Brand: "learn.mcp"}, "learn<span>.mcp</span>"},
		{"accent from the first dot on", CourseLine{Title: "T", Brand: "learn.mcp.dev"}, "learn<span>.mcp.dev</span>"},
		{"brand without a dot", CourseLine{Title: "T", Brand: "Permissions"}, "Permissions"},
		{"leading dot is no split", CourseLine{Title: "T", Brand: ".mcp"}, ".mcp"},
		{"trailing dot is no split", CourseLine{Title: "T", Brand: "learn."}, "learn."},
		{"no brand: the title, dots and all", CourseLine{Title: "Node.js in a day"}, "Node.js in a day"},
		{"no brand and no title", CourseLine{}, "learn"},
		{"escaped", CourseLine{Title: "T", Brand: "<b>.&"}, "&lt;b&gt;<span>.&amp;</span>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := brand(Page{Course: tt.course}).Render(context.Background(), &b); err != nil {
				t.Fatal(err)
			}
			want := `<a class="brand" href="/" data-testid="brand">` + tt.want + `</a>`
			if b.String() != want {
				t.Errorf("brand =\n%s\nwant\n%s", b.String(), want)
			}
		})
	}
}

// TestBuiltInBrand checks that the built-in course keeps its header:
// "learn" with ".mcp" in the accent colour.
func TestBuiltInBrand(t *testing.T) {
	ts := httptest.NewServer(newTestServer(t))
	defer ts.Close()
	_, body := newClient(t, ts.URL).get("/")
	if want := `<a class="brand" href="/" data-testid="brand">learn<span>.mcp</span></a>`; !strings.Contains(body, want) {
		t.Errorf("the home page lacks the built-in brand %s", want)
	}
}
