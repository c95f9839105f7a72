package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// boxSVG is an image with a script that marks the document if it runs.
const boxSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40" width="40" height="40">` +
	`<script>document.documentElement.setAttribute("data-ran", "yes")</script>` +
	`<rect width="40" height="40" fill="#1f6feb"/></svg>`

// hashedFile matches a course file's address.
var hashedFile = regexp.MustCompile(`^http://[^/]+/course-files/[0-9a-f]{16}/`)

// TestBrowserCourseAssets serves a course with an image and a download
// with --dev: the page shows the image at its hashed address (the
// policy allows it), the download is served, an edit of the image on disk
// reloads the page with the new address, and the image opened on its own
// cannot run the script inside it.
func TestBrowserCourseAssets(t *testing.T) {
	dir := t.TempDir()
	if err := newCourse(dir, "Files in lessons", io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "images"), 0o755); err != nil {
		t.Fatal(err)
	}
	image := filepath.Join(dir, "images", "box.svg")
	for name, body := range map[string]string{image: boxSVG, filepath.Join(dir, "notes.txt"): "Read me.\n"} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit(t, filepath.Join(dir, "01-first-lesson.md"), "## Sorting into categories\n",
		"![A blue box](images/box.svg)\n\n[The notes](notes.txt)\n\n## Sorting into categories\n")
	base := startDevServer(t, dir)
	b := newBrowser(t)
	b.do(t, chromedp.Navigate(base+"/lessons/a-first-lesson"), chromedp.WaitVisible(chromedp.CSS("#lesson-title")))
	b.waitTrue(t, "the image to load", `(() => { const i = document.querySelector('img[alt="A blue box"]'); return i !== null && i.complete && i.naturalWidth === 40; })()`)
	src := b.eval(t, `document.querySelector('img[alt="A blue box"]').src`)
	if !hashedFile.MatchString(src) || !strings.HasSuffix(src, "/box.svg") {
		t.Errorf("image src = %q, want a hashed address", src)
	}
	href := b.eval(t, `document.querySelector('a[download="notes.txt"]')?.href ?? ""`)
	if !hashedFile.MatchString(href) {
		t.Errorf("download href = %q, want a hashed address", href)
	}
	got := b.eval(t, `fetch(document.querySelector('a[download="notes.txt"]').href).then(async r => r.status + " " + r.headers.get("content-type") + " " + r.headers.get("content-disposition") + " " + (await r.text()))`)
	if got != "200 text/plain; charset=utf-8 attachment; filename=notes.txt Read me.\n" {
		t.Errorf("the download answers %q", got)
	}
	b.waitTrue(t, "the dev script to subscribe", `document.documentElement.dataset.devEvents === "following"`)

	// An edit of the image alone reloads the page, with the new address.
	edit(t, image, `fill="#1f6feb"`, `fill="#bf3989"`)
	b.waitTrue(t, "the page to show the edited image", `(() => { const i = document.querySelector('img[alt="A blue box"]'); return i !== null && i.src !== `+jsString(src)+` && i.complete && i.naturalWidth === 40; })()`)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors on the lesson page: %q", errs)
	}

	// Opened on its own, the SVG is a document; its policy stops its script.
	newSrc := b.eval(t, `document.querySelector('img[alt="A blue box"]').src`)
	b.do(t, chromedp.Navigate(newSrc))
	b.waitTrue(t, "the SVG to open", `document.documentElement.localName === "svg"`)
	if ran := b.eval(t, `document.documentElement.getAttribute("data-ran") ?? "no"`); ran != "no" {
		t.Errorf("the script inside the SVG ran (data-ran=%q)", ran)
	}
}

// eval returns the string a JavaScript expression (or promise) gives.
func (b *browser) eval(t *testing.T, expr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStepLimit)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("browser: %s: %v\nconsole errors: %q", expr, err, b.consoleErrors())
	}
	return out
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
