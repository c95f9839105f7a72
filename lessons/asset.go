package lessons

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/yuin/goldmark/ast"
)

// Course assets are the images and downloads a lesson's text shows or
// links to by a relative address, such as ![A diagram](images/fail.svg)
// or [the checklist](checklist.pdf). Load reads each through the course's
// file system (an os.Root for a folder, so nothing outside it is read),
// and rewrites the address to AssetPrefix, the first 16 hex digits of the
// file's SHA-256 and its name: a changed file gets a new address, so the
// server may let browsers keep one for a year. An address with a scheme,
// a host or a leading "/" is left as written.

// AssetPrefix starts the address of every course asset.
const AssetPrefix = "/course-files/"

// Asset limits: a larger file is a warning (pages get slow), and past the
// hard cap an error (the server keeps assets in memory).
const (
	AssetWarnBytes = 1 << 20
	MaxAssetBytes  = 16 << 20
)

// assetTypes are the types served for each extension: images a lesson
// may show, and downloads it may link to.
var assetTypes = map[string]struct {
	contentType string
	image       bool
}{
	".svg": {"image/svg+xml", true}, ".png": {"image/png", true}, ".jpg": {"image/jpeg", true}, ".jpeg": {"image/jpeg", true},
	".gif": {"image/gif", true}, ".webp": {"image/webp", true},
	".pdf": {"application/pdf", false}, ".txt": {"text/plain; charset=utf-8", false}, ".csv": {"text/csv; charset=utf-8", false},
	".zip": {"application/zip", false},
}

// Asset is one file of the course folder that a lesson shows or links to.
type Asset struct {
	// Path is the file's path in the course folder.
	Path string
	// URL is the address it is served at: AssetPrefix, hash, "/", name.
	URL string
	// Name is the file's base name, which a download is saved as.
	Name string
	// ContentType is the type it is served with.
	ContentType string
	// Image is true for an image, false for a download.
	Image bool
	// Hash is the first 16 hex digits of the SHA-256 of Data.
	Hash string
	Data []byte
}

// Asset returns the asset served at the URL path p.
func (c *Course) Asset(p string) (*Asset, bool) {
	a, ok := c.assets[p]
	return a, ok
}

// Assets returns every asset of the course, in no order.
func (c *Course) Assets() []*Asset {
	out := make([]*Asset, 0, len(c.assets))
	for _, a := range c.assets {
		out = append(out, a)
	}
	return out
}

// assetRef is a relative address found in a lesson: the file's path in
// the folder, or a problem.
func assetPath(dest string) (string, bool, error) {
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || strings.HasPrefix(dest, "/") || u.Path == "" {
		return "", false, nil
	}
	p := path.Clean(u.Path)
	if p == ".." || strings.HasPrefix(p, "../") || !fs.ValidPath(p) {
		return p, true, errors.New("outside the course folder")
	}
	return p, true, nil
}

// linkAssets finds the images and asset links in the top-level node n of
// a lesson file, reads each file once through r.fsys, and points them at
// their hashed addresses. It returns the problems: an image without alt
// text, a missing file or one outside the folder, a type not served, and
// a warning for a file over AssetWarnBytes.
func (r *renderer) linkAssets(file string, n ast.Node, src []byte, lineOf func(int) int) []Problem {
	var ps []Problem
	line := lineOf(nodeStart(n, src))
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch c := c.(type) {
		case *ast.Image:
			dest := string(c.Destination)
			if len(strings.TrimSpace(string(nodeText(c, src)))) == 0 {
				ps = append(ps, Problem{File: file, Line: line, Message: fmt.Sprintf("the image %s has no alt text: write what it shows between the brackets, such as ![A 404 page in a browser](%s)", dest, dest)})
			}
			p, local, err := assetPath(dest)
			if !local {
				return ast.WalkSkipChildren, nil
			}
			a, problem := r.asset(p, err, true)
			if problem != "" {
				ps = append(ps, Problem{File: file, Line: line, Message: fmt.Sprintf("the image %s %s", dest, problem)})
			}
			if a != nil {
				c.Destination = []byte(a.URL)
				if len(a.Data) > AssetWarnBytes {
					ps = append(ps, warning(file, line, "the image %s is %.1f MiB: learners on a slow network wait for it; make it smaller than 1 MiB (SVG, or a PNG or WebP at the size it is shown)", dest, float64(len(a.Data))/(1<<20)))
				}
			}
			return ast.WalkSkipChildren, nil
		case *ast.Link:
			dest := string(c.Destination)
			p, local, err := assetPath(dest)
			if !local {
				return ast.WalkContinue, nil
			}
			if _, known := assetTypes[strings.ToLower(path.Ext(p))]; !known {
				return ast.WalkContinue, nil
			}
			a, problem := r.asset(p, err, false)
			if problem != "" {
				ps = append(ps, Problem{File: file, Line: line, Message: fmt.Sprintf("the download %s %s", dest, problem)})
			}
			if a != nil {
				c.Destination = []byte(a.URL)
				c.SetAttributeString("download", []byte(a.Name))
				if len(a.Data) > AssetWarnBytes {
					ps = append(ps, warning(file, line, "the download %s is %.1f MiB, over 1 MiB: make it smaller if you can", dest, float64(len(a.Data))/(1<<20)))
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return ps
}

// asset reads the asset at path p of the folder once, or says what is
// wrong with it (pathErr is assetPath's). An image must be of an image
// type; a link's type was checked by the caller.
func (r *renderer) asset(p string, pathErr error, image bool) (*Asset, string) {
	if pathErr != nil {
		return nil, "is outside the course folder: put the file in the folder, or a folder inside it, and give its path from there, such as images/diagram.svg or files/notes.pdf"
	}
	ext := strings.ToLower(path.Ext(p))
	t, known := assetTypes[ext]
	if image && (!known || !t.image) {
		return nil, "is not a type of image learn serves: use SVG, PNG, JPEG, GIF or WebP"
	}
	if a, ok := r.assets[p]; ok {
		return a, ""
	}
	if r.fsys == nil {
		return nil, "cannot be served: this text is not part of a course folder"
	}
	st, err := fs.Stat(r.fsys, p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "is not in the course folder: add the file, or correct its name (names are case-sensitive)"
	case err != nil:
		return nil, fmt.Sprintf("cannot be read inside the course folder (a link that leads out of it?): %v", err)
	case st.IsDir():
		return nil, "is a folder: give a file"
	case st.Size() > MaxAssetBytes:
		return nil, fmt.Sprintf("is larger than %d MiB, the limit for one file", MaxAssetBytes>>20)
	}
	data, problem := readCapped(r.fsys, p, MaxAssetBytes)
	if problem != nil {
		return nil, problem.Message
	}
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:8])
	name := path.Base(p)
	a := &Asset{Path: p, Name: name, ContentType: t.contentType, Image: t.image, Hash: hash, Data: data,
		URL: AssetPrefix + hash + "/" + url.PathEscape(name)}
	r.assets[p] = a
	return a, ""
}
