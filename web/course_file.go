package web

import (
	"bytes"
	"mime"
	"net/http"
	"time"
)

// courseFilePolicy is the security policy of a course file: it may load
// nothing and run nothing, so an SVG opened on its own cannot run a script
// on this origin (an <img> never runs one), and the sandbox directive
// treats it as from no origin at all.
const courseFilePolicy = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

// courseFileCache lets browsers and proxies keep a course file for a year:
// its address holds its hash, so a changed file has a new one.
const courseFileCache = "public, max-age=31536000, immutable"

// courseFile serves an image or download of the course (lessons.Asset) at
// its content-hashed address, with its type; a download is sent as an
// attachment under its file name.
func (s *Server) courseFile(w http.ResponseWriter, r *http.Request) error {
	a, ok := s.course().Asset(r.URL.Path)
	if !ok {
		return notFoundError("No such file in this course: the address of a course file changes when the file does, so reload the lesson.")
	}
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("Cache-Control", courseFileCache)
	h.Set("Content-Security-Policy", courseFilePolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", `"`+a.Hash+`"`)
	if !a.Image {
		h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": a.Name}))
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(a.Data))
	return nil
}
