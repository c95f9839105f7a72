package lessons

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// svgDiagram is a small SVG image.
const svgDiagram = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" role="img"><title>Box</title><rect width="10" height="10"/></svg>`

// hashedURL is the address Load gives a file with these bytes.
func hashedURL(data []byte, name string) string {
	sum := sha256.Sum256(data)
	return AssetPrefix + hex.EncodeToString(sum[:8]) + "/" + name
}

// TestAssets checks the images and downloads of a lesson: each is read
// from the course's files once and served under its hashed address, and
// each mistake is a problem on the line it is on.
func TestAssets(t *testing.T) {
	big := bytes.Repeat([]byte("x"), AssetWarnBytes+1)
	files := fstest.MapFS{
		"images/box.svg": {Data: []byte(svgDiagram)},
		"notes.pdf":      {Data: []byte("%PDF-1.4 notes")},
		"big.png":        {Data: big},
		"page.html":      {Data: []byte("<p>hi</p>")},
	}
	tests := []struct {
		name     string
		body     string
		problems []string // whole problems as String gives them
		html     []string // in the lesson's HTML
	}{
		{"an image", "![A box](images/box.svg)", nil,
			[]string{`<img src="` + hashedURL([]byte(svgDiagram), "box.svg") + `" alt="A box">`}},
		{"a download", "[The notes](notes.pdf)", nil,
			[]string{`<a href="` + hashedURL([]byte("%PDF-1.4 notes"), "notes.pdf") + `" download="notes.pdf">The notes</a>`}},
		{"the same image twice", "![A box](images/box.svg) and ![The box again](./images/box.svg)", nil,
			[]string{`alt="A box"`, `<img src="` + hashedURL([]byte(svgDiagram), "box.svg") + `" alt="The box again">`}},
		{"addresses elsewhere stay", "![A logo](https://example.org/logo.png) [home](/) [a section](#key-takeaways) [page](page.html)", nil,
			[]string{`src="https://example.org/logo.png"`, `href="/"`, `href="#key-takeaways"`, `href="page.html"`}},
		{"no alt text", "![](images/box.svg)", []string{"01-t.md:10: the image images/box.svg has no alt text: write what it shows between the brackets, such as ![A 404 page in a browser](images/box.svg)"}, nil},
		{"a missing image", "Text.\n\n![A chart](chart.png)", []string{"01-t.md:12: the image chart.png is not in the course folder: add the file, or correct its name (names are case-sensitive)"}, nil},
		{"an image outside the folder", "![A secret](../secret.png)", []string{"01-t.md:10: the image ../secret.png is outside the course folder: put the file in the folder, or a folder inside it, and give its path from there, such as images/diagram.svg or files/notes.pdf"}, nil},
		{"a download outside the folder", "[Notes](../../notes.pdf)", []string{"01-t.md:10: the download ../../notes.pdf is outside the course folder: put the file in the folder, or a folder inside it, and give its path from there, such as images/diagram.svg or files/notes.pdf"}, nil},
		{"not an image type", "![A page](page.html)", []string{"01-t.md:10: the image page.html is not a type of image learn serves: use SVG, PNG, JPEG, GIF or WebP"}, nil},
		{"a large image", "![A big one](big.png)", []string{"01-t.md:10: warning: the image big.png is 1.0 MiB: learners on a slow network wait for it; make it smaller than 1 MiB (SVG, or a PNG or WebP at the size it is shown)"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{"01-t.md": {Data: []byte(lessonWith(tt.body + "\n\n" + kindsBlock))}}
			for k, v := range files {
				fsys[k] = v
			}
			c, ps, err := LoadSound(fsys)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range ps {
				// The fixture's other warnings (no course.yaml, no why_not) are not the test's.
				if strings.Contains(p.Message, "image") || strings.Contains(p.Message, "download") {
					got = append(got, p.String())
				}
			}
			if strings.Join(got, "\n") != strings.Join(tt.problems, "\n") {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.problems, "\n"))
			}
			if len(tt.html) == 0 {
				return
			}
			html := string(c.Lessons[0].Segments[0].HTML)
			for _, h := range tt.html {
				if !strings.Contains(html, h) {
					t.Errorf("HTML lacks %s:\n%s", h, html)
				}
			}
			for _, a := range c.Assets() {
				if got, ok := c.Asset(a.URL); !ok || got != a || !bytes.Equal(a.Data, files[a.Path].Data) {
					t.Errorf("asset %s is not served at %s with its file's bytes", a.Path, a.URL)
				}
			}
		})
	}
}

// TestAssetSymlinkOutside checks that an image whose file is a link out of
// the course folder is an error: the folder is read through os.Root.
func TestAssetSymlinkOutside(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.svg")
	if err := os.WriteFile(outside, []byte(svgDiagram), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "box.svg")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "01-t.md"), []byte(lessonWith("![A box](box.svg)\n\n"+kindsBlock)), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, closer, err := OpenFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	_, err = Load(fsys)
	var ps Problems
	if !errors.As(err, &ps) || !strings.Contains(ps.Error(), "01-t.md:10: the image box.svg cannot be read inside the course folder") {
		t.Errorf("Load = %v, want the image refused", err)
	}
}
