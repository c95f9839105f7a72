package web

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/cespare/xxhash/v2"
)

// Compression. HTML pages, error pages and JSON answers are compressed when
// the browser asks: brotli where it is accepted at least as much as gzip,
// else gzip. A lesson page is always sent as gzip when the browser takes
// gzip, compressed once per distinct content and kept (writeGzipPage):
// every new visitor gets the same page, and a returning learner the same
// page until they or others write something it shows.
//
// BREACH: a compressed answer must never hold a secret beside text the
// requester controls. The answers that hold secrets are the join page
// after joining and a learner's page on the teacher's side (both show
// secret words; the latter also shows the learner's code) and the style
// nonce of a lesson page. The first two are never compressed (plainBody);
// the nonce is sent in a stored DEFLATE block of its own, so its bytes are
// never matched against anything and the answer's length does not depend
// on them. Cookies are headers, which are not compressed.

// minCompressBytes is the smallest body worth compressing: below about a
// packet, compression saves nothing on the wire.
const minCompressBytes = 1024

// Content codings the server writes.
const (
	codingIdentity = ""
	codingGzip     = "gzip"
	codingBrotli   = "br"
)

// Compression levels: answers drawn per request are compressed fast; a
// lesson page, compressed once and kept, as small as can be.
const (
	brotliLevel        = 4
	gzipLevel          = 5
	lessonDeflateLevel = flate.BestCompression
)

// acceptedCodings returns the q-values the request's Accept-Encoding gives
// gzip and brotli (0 when refused or absent; "*" covers both).
func acceptedCodings(r *http.Request) (gz, br float64) {
	star := -1.0
	gz, br = -1, -1
	for part := range strings.SplitSeq(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(part, ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				continue
			}
			q = f
		}
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip":
			gz = q
		case "br":
			br = q
		case "*":
			star = q
		}
	}
	if gz < 0 {
		gz = max(star, 0)
	}
	if br < 0 {
		br = max(star, 0)
	}
	return gz, br
}

// chooseCoding picks the coding for a drawn answer.
func chooseCoding(r *http.Request) string {
	gz, br := acceptedCodings(r)
	switch {
	case br > 0 && br >= gz:
		return codingBrotli
	case gz > 0:
		return codingGzip
	}
	return codingIdentity
}

// acceptsGzip reports whether the request takes gzip at all.
func acceptsGzip(r *http.Request) bool {
	gz, _ := acceptedCodings(r)
	return gz > 0
}

// compressibleType reports whether a Content-Type is text the server
// draws: HTML pages and JSON answers.
func compressibleType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	switch strings.TrimSpace(strings.ToLower(mt)) {
	case "text/html", "application/json", "text/plain":
		return true
	}
	return false
}

// compressors pools the compressors answers are written through; a
// compressor's state is hundreds of kilobytes, too much to make per answer.
type compressors struct {
	gzip   sync.Pool
	brotli sync.Pool
	flate  sync.Pool // raw DEFLATE for lesson pages
}

func (c *compressors) getGzip(w io.Writer) *gzip.Writer {
	if zw, ok := c.gzip.Get().(*gzip.Writer); ok {
		zw.Reset(w)
		return zw
	}
	zw, _ := gzip.NewWriterLevel(w, gzipLevel) // the level is valid
	return zw
}

func (c *compressors) getBrotli(w io.Writer) *brotli.Writer {
	if bw, ok := c.brotli.Get().(*brotli.Writer); ok {
		bw.Reset(w)
		return bw
	}
	return brotli.NewWriterLevel(w, brotliLevel)
}

func (c *compressors) getFlate(w io.Writer) *flate.Writer {
	if fw, ok := c.flate.Get().(*flate.Writer); ok {
		fw.Reset(w)
		return fw
	}
	fw, _ := flate.NewWriter(w, lessonDeflateLevel) // the level is valid
	return fw
}

// compress is the middleware that compresses drawn answers (see
// compressWriter). Answers that set their own Content-Encoding (static
// assets, lesson pages) pass through untouched.
func (s *Server) compress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		coding := codingIdentity
		if r.Method != http.MethodHead {
			coding = chooseCoding(r)
		}
		cw := &compressWriter{ResponseWriter: w, pools: &s.zip, coding: coding}
		defer cw.close()
		next.ServeHTTP(cw, r)
	})
}

// compressWriter compresses an answer whose type is compressible, whose
// body is at least minCompressBytes and whose status has a body. It
// decides when the first body bytes (or the end) arrive, so a body
// without a Content-Length is judged by its first write.
type compressWriter struct {
	http.ResponseWriter
	pools  *compressors
	coding string
	// plain is set by plainBody: the answer holds a secret.
	plain   bool
	status  int
	decided bool
	zw      interface {
		io.WriteCloser
		Flush() error
	}
}

func (c *compressWriter) WriteHeader(code int) {
	if c.decided || code < 200 {
		if !c.decided && code < 200 {
			c.ResponseWriter.WriteHeader(code)
		}
		return
	}
	if c.status == 0 {
		c.status = code
	}
}

func (c *compressWriter) Write(b []byte) (int, error) {
	if !c.decided {
		c.decide(len(b))
	}
	if c.zw != nil {
		return c.zw.Write(b)
	}
	return c.ResponseWriter.Write(b)
}

// decide writes the header, compressing when the answer qualifies; first
// is the length of the first write (-1 when flushed before any).
func (c *compressWriter) decide(first int) {
	c.decided = true
	if c.status == 0 {
		c.status = http.StatusOK
	}
	h := c.Header()
	if compressibleType(h.Get("Content-Type")) && h.Get("Content-Encoding") == "" {
		h.Add("Vary", "Accept-Encoding")
		size := first
		if cl := h.Get("Content-Length"); cl != "" {
			if n, err := strconv.Atoi(cl); err == nil {
				size = n
			}
		}
		if c.coding != codingIdentity && !c.plain && bodyAllowed(c.status) && (size < 0 || size >= minCompressBytes) {
			h.Del("Content-Length")
			h.Set("Content-Encoding", c.coding)
			if et := h.Get("ETag"); et != "" {
				h.Set("ETag", codedETag(et, c.coding))
			}
			switch c.coding {
			case codingBrotli:
				c.zw = c.pools.getBrotli(c.ResponseWriter)
			default:
				c.zw = c.pools.getGzip(c.ResponseWriter)
			}
		}
	}
	c.ResponseWriter.WriteHeader(c.status)
}

// bodyAllowed reports whether an answer with status carries a body.
func bodyAllowed(status int) bool {
	return status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}

// FlushError sends what is buffered, for streams, through the writers
// beneath (http.ResponseController finds it).
func (c *compressWriter) FlushError() error {
	if !c.decided {
		c.decide(-1)
	}
	if c.zw != nil {
		if err := c.zw.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(c.ResponseWriter).Flush()
}

// Flush is FlushError for http.Flusher.
func (c *compressWriter) Flush() { _ = c.FlushError() }

// close ends the compressed stream and returns the compressor to its pool.
func (c *compressWriter) close() {
	if !c.decided {
		c.decide(0)
	}
	if c.zw == nil {
		return
	}
	_ = c.zw.Close()
	switch zw := c.zw.(type) {
	case *gzip.Writer:
		c.pools.gzip.Put(zw)
	case *brotli.Writer:
		c.pools.brotli.Put(zw)
	}
	c.zw = nil
}

func (c *compressWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// findCompressWriter finds the compressWriter under w's wrappers.
func findCompressWriter(w http.ResponseWriter) *compressWriter {
	for {
		switch x := w.(type) {
		case *compressWriter:
			return x
		case interface{ Unwrap() http.ResponseWriter }:
			w = x.Unwrap()
		default:
			return nil
		}
	}
}

// plainBody marks the answer being written to w as one that must not be
// compressed: it shows a secret next to text the requester controls.
func plainBody(w http.ResponseWriter) {
	if c := findCompressWriter(w); c != nil {
		c.plain = true
	}
}

// codedETag gives a compressed answer its own entity tag: the bytes differ
// from the identity answer's.
func codedETag(etag, coding string) string {
	if coding == codingIdentity {
		return etag
	}
	if strings.HasSuffix(etag, `"`) {
		return etag[:len(etag)-1] + "-" + coding + `"`
	}
	return etag
}

// gzipHeader is a gzip member header: DEFLATE, no name, no time, unknown OS.
const gzipHeader = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"

// finalEmptyBlock is a final, empty DEFLATE block with fixed codes.
const finalEmptyBlock = "\x03\x00"

// storedBlocks appends p as non-final stored (uncompressed) DEFLATE
// blocks; the stream must be on a byte boundary, and stays on one.
func storedBlocks(out *bytes.Buffer, p []byte) {
	for len(p) > 0 {
		n := min(len(p), 0xffff)
		var hdr [5]byte
		hdr[0] = 0 // not final, stored
		binary.LittleEndian.PutUint16(hdr[1:], uint16(n))
		binary.LittleEndian.PutUint16(hdr[3:], ^uint16(n))
		out.Write(hdr[:])
		out.Write(p[:n])
		p = p[n:]
	}
}

// pageSpan is where one hole's bytes lie in a drawn page, and whether they
// are secret (sent stored, never compressed).
type pageSpan struct {
	start, end int
	secret     bool
}

// gzipPage is a lesson page compressed once: the page's pieces between its
// secret holes, each as raw DEFLATE ending on a sync flush, so that they
// join with the secrets (stored blocks) into one stream. plain keeps the
// pieces to compare on a hit.
type gzipPage struct {
	plain    [][]byte
	deflated [][]byte
}

// gzipPages keeps compressed lesson pages by their content without the
// secrets: every new visitor, and a learner whose page did not change
// since the last view, gets the same bytes, so the page is compressed
// once, not per request.
type gzipPages struct {
	mu    sync.Mutex
	pages map[uint64]*gzipPage
}

// maxGzipPages bounds the compressed pages kept (each is the page and its
// compressed form, about 70 KB); past it the cache starts again empty.
const maxGzipPages = 256

// secretPieces splits page at its secret spans.
func secretPieces(page []byte, spans []pageSpan) (pieces, secrets [][]byte) {
	at := 0
	for _, sp := range spans {
		if sp.secret {
			pieces = append(pieces, page[at:sp.start])
			secrets = append(secrets, page[sp.start:sp.end])
			at = sp.end
		}
	}
	return append(pieces, page[at:]), secrets
}

// piecesHash hashes a page's pieces between its secrets, and where they
// end: equal hashes mean the same page but for the secrets. It is the
// same on every server, so replicas give the same entity tag.
func piecesHash(pieces [][]byte) uint64 {
	h := xxhash.New()
	for _, p := range pieces {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		_, _ = h.Write(n[:])
		_, _ = h.Write(p)
	}
	return h.Sum64()
}

// writeGzipPage writes page as a gzip member to out: its pieces (between
// the secrets, hashing to key) are compressed once per distinct content
// and kept (gzipPages); the secrets are stored blocks, so the answer's
// length never depends on them.
func (s *Server) writeGzipPage(out *bytes.Buffer, page []byte, pieces, secrets [][]byte, key uint64) error {
	s.gzipped.mu.Lock()
	gp := s.gzipped.pages[key]
	s.gzipped.mu.Unlock()
	if gp == nil || !samePieces(gp.plain, pieces) {
		gp = &gzipPage{}
		var all bytes.Buffer
		fw := s.zip.getFlate(&all)
		for _, p := range pieces {
			start := all.Len()
			fw.Reset(&all)
			if _, err := fw.Write(p); err != nil {
				return fmt.Errorf("web: gzip page: %w", err)
			}
			if err := fw.Flush(); err != nil {
				return fmt.Errorf("web: gzip page: %w", err)
			}
			gp.plain = append(gp.plain, bytes.Clone(p))
			gp.deflated = append(gp.deflated, all.Bytes()[start:all.Len():all.Len()])
		}
		s.zip.flate.Put(fw)
		s.gzipped.mu.Lock()
		if s.gzipped.pages == nil || len(s.gzipped.pages) >= maxGzipPages {
			s.gzipped.pages = map[uint64]*gzipPage{}
		}
		s.gzipped.pages[key] = gp
		s.gzipped.mu.Unlock()
	}
	out.WriteString(gzipHeader)
	for i, d := range gp.deflated {
		out.Write(d)
		if i < len(secrets) {
			storedBlocks(out, secrets[i])
		}
	}
	out.WriteString(finalEmptyBlock)
	var trailer [8]byte
	binary.LittleEndian.PutUint32(trailer[:4], crc32.ChecksumIEEE(page))
	binary.LittleEndian.PutUint32(trailer[4:], uint32(len(page)))
	out.Write(trailer[:])
	return nil
}

// samePieces reports whether two pages' pieces are equal.
func samePieces(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
