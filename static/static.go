// Package static holds the browser's files — the stylesheet and icon in
// public/ and the bundles that static/build.mjs (make setup) writes to
// dist/ — embedded in the binary, and serves them under content-hashed URLs.
// Nothing is read from disk at run time, so a binary serves from any folder.
//
// A build without the bundles still compiles, and its pages go without
// scripts (see Assets.Has); a release build (-tags release, as make build
// does) fails to compile without them.
//
// Text files are gzipped once at start and sent compressed to browsers that
// accept it. A file "app.css" whose SHA-256 starts with 3f2a1b9c0d1e is served at
// /static/app.3f2a1b9c0d1e.css with a one-year immutable cache lifetime, so a
// new release changes the URL and browsers never hold a stale copy. Pages
// ask Assets.URL for the current address of a file.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
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
	gz   []byte // body gzipped once at start, when that saves space
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
	f := &asset{name: name, body: body, mime: ctype}
	if compressible(ctype) {
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return fmt.Errorf("static: gzip %s: %w", name, err)
		}
		if _, err := zw.Write(body); err != nil {
			return fmt.Errorf("static: gzip %s: %w", name, err)
		}
		if err := zw.Close(); err != nil {
			return fmt.Errorf("static: gzip %s: %w", name, err)
		}
		if buf.Len() < len(body) {
			f.gz = buf.Bytes()
		}
	}
	a.byName[name] = hashed
	a.byURL[hashed] = f
	return nil
}

// compressible reports whether a type is text worth gzipping.
func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") ||
		strings.Contains(ctype, "json") || strings.Contains(ctype, "svg")
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
	body := f.body
	if f.gz != nil {
		h.Add("Vary", "Accept-Encoding")
		if acceptsGzip(r) {
			h.Set("Content-Encoding", "gzip")
			body = f.gz
		}
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// acceptsGzip reports whether the request's Accept-Encoding allows gzip.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		q := strings.TrimSpace(params)
		if v, ok := strings.CutPrefix(q, "q="); ok {
			weight, err := strconv.ParseFloat(v, 64)
			return err == nil && weight > 0
		}
		return true
	}
	return false
}
