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

	"learn/lessons"
)

// Compression. HTML pages, error pages and JSON answers are compressed when
// the browser asks (Vary: Accept-Encoding): brotli where it is accepted at
// least as much as gzip, else gzip, by the middleware as the answer is
// written. A lesson page is sent as gzip whenever the browser takes gzip
// (every browser that takes brotli does), from bytes compressed once and
// kept (keptPage): every new visitor gets the same page, and a returning
// learner the same page until they or others write something it shows
// (its entity tag moves, etag.go), so serving it costs no compression.
//
// BREACH: a compressed answer must never hold a secret that stays the same
// across answers beside text the requester controls, or its length would
// tell the secret a byte at a time. There is no CSRF token in any page:
// unsafe requests are checked by net/http.CrossOriginProtection from the
// browser's Sec-Fetch-Site and Origin headers, and cookies are headers,
// which are not compressed. The secrets a body can hold:
//   - secret words, on the join page after joining, a learner's page on
//     the teacher's side (beside the learner's code) and the class's word
//     sheet: those answers are never compressed (plainBody);
//   - a lesson page's style nonce: fresh for every answer (a mask no two
//     answers share, so lengths across requests tell nothing of it), and
//     in the kept gzip page sent in stored DEFLATE blocks of its own, which
//     no match reaches into or out of, so the answer's length never
//     depends on it at all.

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

// keptPage is a lesson page drawn once and kept: its pieces between the
// secret holes (the style nonce, the same in every hole of one answer),
// and, once a browser asked for gzip, each piece as raw DEFLATE ending on
// a sync flush, so that they join with the nonce (stored blocks) into one
// gzip member. Serving it again writes these bytes and a fresh nonce: no
// drawing and no compression.
type keptPage struct {
	pieces [][]byte
	size   int // the pieces' length together
	once   sync.Once
	// deflated and deflateErr are set once, by deflate.
	deflated   [][]byte
	deflateErr error
}

// keptKey names a kept page: the lesson and the page's entity tag hash
// (tagged) or, for a page drawn without a tag, its content's.
type keptKey struct {
	lesson *lessons.Lesson
	key    uint64
	tagged bool
}

// keptPages keeps lesson pages: every new visitor gets the same one, and a
// returning learner the same until they or others write something it
// shows (the entity tag moves, etag.go).
type keptPages struct {
	mu    sync.Mutex
	pages map[keptKey]*keptPage
}

// maxKeptPages bounds the pages kept (each is the page and, once asked
// for, its gzip form: about 70 KB); past it the cache starts again empty.
const maxKeptPages = 256

// get returns the page kept under k, or nil.
func (c *keptPages) get(k keptKey) *keptPage {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pages[k]
}

// keep keeps the page drawn as page with its hole spans under k and
// returns it; the bytes are copied.
func (c *keptPages) keep(k keptKey, page []byte, spans []pageSpan) *keptPage {
	kp := &keptPage{}
	at := 0
	for _, sp := range spans {
		if sp.secret {
			kp.pieces = append(kp.pieces, bytes.Clone(page[at:sp.start]))
			at = sp.end
		}
	}
	kp.pieces = append(kp.pieces, bytes.Clone(page[at:]))
	for _, p := range kp.pieces {
		kp.size += len(p)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pages == nil || len(c.pages) >= maxKeptPages {
		c.pages = map[keptKey]*keptPage{}
	}
	c.pages[k] = kp
	return kp
}

// same reports whether page, split at its secret spans, is what kp keeps.
func (kp *keptPage) same(page []byte, spans []pageSpan) bool {
	at, i := 0, 0
	for _, sp := range spans {
		if !sp.secret {
			continue
		}
		if i >= len(kp.pieces) || !bytes.Equal(kp.pieces[i], page[at:sp.start]) {
			return false
		}
		at, i = sp.end, i+1
	}
	return i == len(kp.pieces)-1 && bytes.Equal(kp.pieces[i], page[at:])
}

// drop forgets every kept page (a reloaded course).
func (c *keptPages) drop() {
	c.mu.Lock()
	c.pages = nil
	c.mu.Unlock()
}

// contentKey hashes a drawn page's pieces between its secret spans, and
// where they end: equal keys mean the same page but for the secrets.
func contentKey(page []byte, spans []pageSpan) uint64 {
	h := xxhash.New()
	at := 0
	piece := func(p []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		_, _ = h.Write(n[:])
		_, _ = h.Write(p)
	}
	for _, sp := range spans {
		if sp.secret {
			piece(page[at:sp.start])
			at = sp.end
		}
	}
	piece(page[at:])
	return h.Sum64()
}

// deflate compresses the pieces once, as small as DEFLATE makes them.
func (kp *keptPage) deflate(pools *compressors) ([][]byte, error) {
	kp.once.Do(func() {
		var all bytes.Buffer
		fw := pools.getFlate(&all)
		defer pools.flate.Put(fw)
		ends := make([]int, 0, len(kp.pieces))
		for _, p := range kp.pieces {
			// Each piece starts afresh: no match reaches back across a
			// secret, whose bytes the compressor never sees.
			fw.Reset(&all)
			if _, err := fw.Write(p); err != nil {
				kp.deflateErr = fmt.Errorf("web: gzip page: %w", err)
				return
			}
			if err := fw.Flush(); err != nil {
				kp.deflateErr = fmt.Errorf("web: gzip page: %w", err)
				return
			}
			ends = append(ends, all.Len())
		}
		b, at := all.Bytes(), 0
		for _, end := range ends {
			kp.deflated = append(kp.deflated, b[at:end:end])
			at = end
		}
	})
	return kp.deflated, kp.deflateErr
}

// write sends the kept page with nonce in its secret holes, as gzip when
// gzip is set (the pieces compressed once, the nonce in stored blocks, so
// the answer's length never depends on it), else as it is.
func (kp *keptPage) write(w http.ResponseWriter, pools *compressors, nonce string, gzip bool) error {
	h := w.Header()
	h["Content-Type"] = htmlType
	var parts [][]byte
	var total int
	if !gzip {
		parts = make([][]byte, 0, 2*len(kp.pieces))
		for i, p := range kp.pieces {
			if i > 0 {
				parts = append(parts, []byte(nonce))
			}
			parts = append(parts, p)
		}
		total = kp.size + len(nonce)*(len(kp.pieces)-1)
	} else {
		deflated, err := kp.deflate(pools)
		if err != nil {
			return err
		}
		var stored bytes.Buffer
		storedBlocks(&stored, []byte(nonce))
		crc := uint32(0)
		parts = make([][]byte, 0, 2*len(deflated)+2)
		parts = append(parts, []byte(gzipHeader))
		for i, d := range deflated {
			if i > 0 {
				parts = append(parts, stored.Bytes())
				crc = crc32.Update(crc, crc32.IEEETable, []byte(nonce))
			}
			parts = append(parts, d)
			crc = crc32.Update(crc, crc32.IEEETable, kp.pieces[i])
		}
		var trailer [len(finalEmptyBlock) + 8]byte
		copy(trailer[:], finalEmptyBlock)
		binary.LittleEndian.PutUint32(trailer[len(finalEmptyBlock):], crc)
		binary.LittleEndian.PutUint32(trailer[len(finalEmptyBlock)+4:], uint32(kp.size+len(nonce)*(len(kp.pieces)-1)))
		parts = append(parts, trailer[:])
		for _, p := range parts {
			total += len(p)
		}
		h.Set("Content-Encoding", codingGzip)
		h.Add("Vary", "Accept-Encoding")
	}
	h.Set("Content-Length", strconv.Itoa(total))
	w.WriteHeader(http.StatusOK)
	// One write of the whole answer: a write per part costs a system call
	// each once they pass the connection's buffer.
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(buf)
	buf.Grow(total)
	for _, p := range parts {
		buf.Write(p)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("%w: %v", errClientGone, err)
	}
	return nil
}
