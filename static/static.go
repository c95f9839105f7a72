// Package static holds the browser's files — stylesheets, small JavaScript
// modules and the bundle that `npm run build` writes to dist/ — embedded in
// the binary, and serves them under content-hashed URLs.
//
// A file "app.css" whose SHA-256 starts with 3f2a1b9c0d1e is served at
// /static/app.3f2a1b9c0d1e.css with a one-year immutable cache lifetime, so a
// new release changes the URL and browsers never hold a stale copy. Pages
// ask Assets.URL for the current address of a file.
package static

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

//go:embed public all:dist
var files embed.FS

// Prefix is the URL path under which assets are served.
const Prefix = "/static/"

// hashLen is how many hex digits of the SHA-256 go into a URL.
const hashLen = 12

type asset struct {
	name string // logical name, such as "app.css"
	body []byte
	mime string
}

// Assets is the set of files served under Prefix. It is immutable after New
// and safe for concurrent use.
type Assets struct {
	byURL  map[string]*asset // hashed URL path -> asset
	byName map[string]string // logical name -> hashed URL path
}

// New collects the embedded files and the generated ones given in extra
// (logical name -> contents, for example a stylesheet made at start-up).
func New(extra map[string][]byte) (*Assets, error) {
	a := &Assets{byURL: map[string]*asset{}, byName: map[string]string{}}
	for _, dir := range []string{"public", "dist"} {
		err := fs.WalkDir(files, dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
				return err
			}
			body, err := fs.ReadFile(files, p)
			if err != nil {
				return err
			}
			return a.add(strings.TrimPrefix(p, dir+"/"), body)
		})
		if err != nil {
			return nil, fmt.Errorf("static: collect %s: %w", dir, err)
		}
	}
	for name, body := range extra {
		if err := a.add(name, body); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func (a *Assets) add(name string, body []byte) error {
	if _, dup := a.byName[name]; dup {
		return fmt.Errorf("static: two files named %q", name)
	}
	sum := sha256.Sum256(body)
	ext := path.Ext(name)
	hashed := Prefix + strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:])[:hashLen] + ext
	ctype := mime.TypeByExtension(ext)
	if ctype == "" {
		ctype = http.DetectContentType(body)
	}
	a.byName[name] = hashed
	a.byURL[hashed] = &asset{name: name, body: body, mime: ctype}
	return nil
}

// URL returns the hashed URL path of the named file, such as
// "/static/app.3f2a1b9c0d1e.css". It panics on an unknown name, a
// programming error that every page test would catch.
func (a *Assets) URL(name string) string {
	u, ok := a.byName[name]
	if !ok {
		panic(fmt.Sprintf("static: no asset named %q", name))
	}
	return u
}

// Has reports whether a file with this logical name exists (the JavaScript
// bundle exists only after the front-end build).
func (a *Assets) Has(name string) bool {
	_, ok := a.byName[name]
	return ok
}

// ServeHTTP serves a hashed asset with a long immutable cache lifetime, or
// 404 for any other path under Prefix.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f, ok := a.byURL[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", f.mime)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}
