package web

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/a-h/templ"
	"github.com/cespare/xxhash/v2"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// A lesson page is the same for every learner but for a few holes: the
// header's figures, the table of contents (it marks the parts done), each
// interactive part (the quiz's question order is the learner's, and a
// revisited part shows the learner's last answers, result and code), and
// the style nonce. A part the learner never tried is written from a
// drawing cached per lesson, so a first visit draws nothing. The page is drawn once per
// lesson with markers in those holes and split there into a skeleton; each
// request writes the static parts and fills the holes. Drawing the whole
// page per request cost four times as much.

// Hole names.
const (
	holeStats   = "stats"
	holeReviews = "reviews"
	holeNonce   = "nonce"
	holeTOC     = "toc:"  // + top or side
	holePart    = "part:" // + widget or exercise id
	holeQA      = "qa"    // the questions section (qa.templ)
	// holeFinished is the box that ends a completed lesson (lesson.templ).
	holeFinished = "finished"
)

// Hole markers use private-use characters, which no lesson contains and
// HTML escaping leaves alone.
const (
	holeOpen  = "\uE000"
	holeClose = "\uE001"
)

// hole returns the marker for a hole.
func hole(name string) string { return holeOpen + name + holeClose }

// skeleton is a page split at its holes: parts alternate static HTML and
// hole names, starting and ending with static HTML.
type skeleton struct {
	static [][]byte
	holes  []string
	// hash is the drawn page's (xxhash): the course, templates and asset
	// addresses it was drawn from, part of every entity tag (etag.go).
	hash uint64
	// hasNonce is set when the page has a style nonce hole.
	hasNonce bool
}

// splitSkeleton splits a drawn page at its hole markers.
func splitSkeleton(page []byte) (*skeleton, error) {
	sk := &skeleton{hash: xxhash.Sum64(page)}
	rest := page
	for {
		i := bytes.Index(rest, []byte(holeOpen))
		if i < 0 {
			sk.static = append(sk.static, rest)
			sk.hasNonce = slices.Contains(sk.holes, holeNonce)
			return sk, nil
		}
		j := bytes.Index(rest[i:], []byte(holeClose))
		if j < 0 {
			return nil, fmt.Errorf("web: skeleton: unclosed hole at byte %d", len(page)-len(rest)+i)
		}
		sk.static = append(sk.static, rest[:i])
		sk.holes = append(sk.holes, string(rest[i+len(holeOpen):i+j]))
		rest = rest[i+j+len(holeClose):]
	}
}

// write writes the page to buf, calling fill for each hole, and returns
// where each hole's bytes lie in buf (the style nonce marked secret).
func (sk *skeleton) write(buf *bytes.Buffer, fill func(hole string, buf *bytes.Buffer) error) ([]pageSpan, error) {
	spans := make([]pageSpan, 0, len(sk.holes))
	for i, part := range sk.static {
		buf.Write(part)
		if i < len(sk.holes) {
			start := buf.Len()
			if err := fill(sk.holes[i], buf); err != nil {
				return nil, err
			}
			spans = append(spans, pageSpan{start: start, end: buf.Len(), secret: sk.holes[i] == holeNonce})
		}
	}
	return spans, nil
}

// pageCache holds lesson skeletons and drawn quizzes. A reloaded course
// has new lesson values, so its pages are drawn afresh.
type pageCache struct {
	mu        sync.Mutex
	skeletons map[*lessons.Lesson]*skeleton
	quizzes   map[quizKey][]byte
	maps      map[*lessons.Lesson][]TOCEntry
}

// quizKey names one cached drawing: a widget (for a quiz, what it draws
// and its attempt number), an untouched exercise panel or lesson map.
type quizKey struct {
	lesson  *lessons.Lesson
	id      string
	draw    string
	attempt int
}

// maxCachedQuizzes bounds the drawings kept; past it the cache starts
// again empty.
const maxCachedQuizzes = 4096

// lessonSkeleton returns the lesson's skeleton, drawing it the first time.
func (s *Server) lessonSkeleton(r *http.Request, lesson *lessons.Lesson) (*skeleton, error) {
	s.pages.mu.Lock()
	sk, ok := s.pages.skeletons[lesson]
	s.pages.mu.Unlock()
	if ok {
		return sk, nil
	}
	v, err := s.lessonView(r, lesson, lessonOverrides{}, true)
	if err != nil {
		return nil, err
	}
	var page bytes.Buffer
	if err := lessonPage(v).Render(r.Context(), &page); err != nil {
		return nil, fmt.Errorf("web: draw skeleton of %s: %w", lesson.Slug, err)
	}
	if sk, err = splitSkeleton(page.Bytes()); err != nil {
		return nil, err
	}
	s.pages.mu.Lock()
	if s.pages.skeletons == nil {
		s.pages.skeletons = map[*lessons.Lesson]*skeleton{}
	}
	s.pages.skeletons[lesson] = sk
	s.pages.mu.Unlock()
	return sk, nil
}

// lessonMap returns the lesson's table of contents without the learner's
// state, finding it the first time.
func (s *Server) lessonMap(lesson *lessons.Lesson) []TOCEntry {
	s.pages.mu.Lock()
	defer s.pages.mu.Unlock()
	if m, ok := s.pages.maps[lesson]; ok {
		return m
	}
	if s.pages.maps == nil {
		s.pages.maps = map[*lessons.Lesson][]TOCEntry{}
	}
	m := lessonMap(lesson)
	s.pages.maps[lesson] = m
	return m
}

// drawnWidget returns a widget nobody has answered yet, drawn once: a
// quiz in the order of draw (its attempt's).
func (s *Server) drawnWidget(r *http.Request, lesson *lessons.Lesson, w *lessons.Widget, draw quiz.Draw, attempt int) ([]byte, error) {
	key := quizKey{lesson: lesson, id: w.ID, draw: fmt.Sprint(draw), attempt: attempt}
	return s.cachedDrawing(r, key, templ.ComponentFunc(func(ctx context.Context, out io.Writer) error {
		return widget(widgetView(lesson, w, draw, attempt, "")).Render(ctx, out)
	}))
}

// cachedDrawing returns a drawing that is the same for every learner who
// has not touched it, drawing it with draw the first time under key.
func (s *Server) cachedDrawing(r *http.Request, key quizKey, draw templ.Component) ([]byte, error) {
	s.pages.mu.Lock()
	b, ok := s.pages.quizzes[key]
	s.pages.mu.Unlock()
	if ok {
		return b, nil
	}
	var buf bytes.Buffer
	if err := draw.Render(r.Context(), &buf); err != nil {
		return nil, fmt.Errorf("web: draw %s of %s: %w", key.id, key.lesson.Slug, err)
	}
	s.pages.mu.Lock()
	if s.pages.quizzes == nil || len(s.pages.quizzes) >= maxCachedQuizzes {
		s.pages.quizzes = map[quizKey][]byte{}
	}
	s.pages.quizzes[key] = buf.Bytes()
	s.pages.mu.Unlock()
	return buf.Bytes(), nil
}

// etagMatches reports whether an If-None-Match header names tag, by weak
// comparison (RFC 9110, 13.1.2).
func etagMatches(header, tag string) bool {
	if header == "" {
		return false
	}
	if strings.TrimSpace(header) == "*" {
		return true
	}
	for t := range strings.SplitSeq(header, ",") {
		if strings.TrimPrefix(strings.TrimSpace(t), "W/") == tag {
			return true
		}
	}
	return false
}

// touched reports whether the learner has tried the widget or quiz, which
// then shows their last result.
func touched(sum progress.Summary, lesson *lessons.Lesson, w *lessons.Widget) bool {
	if w.Kind == quiz.KindQuiz {
		return sum.Quizzes[lesson.Slug].Attempts > 0
	}
	_, ok := sum.Widgets[lesson.Slug+"/"+w.ID]
	return ok
}

// writeTOC writes the lesson map; a map with nothing done yet is drawn
// once per lesson.
func (s *Server) writeTOC(r *http.Request, buf *bytes.Buffer, lesson *lessons.Lesson, sum progress.Summary, where string) error {
	if st := sum.LessonStatus(lesson); st.Done > 0 {
		return lessonTOC(learnerMap(s.lessonMap(lesson), lesson, sum), progress.CompletedMeans, where).Render(r.Context(), buf)
	}
	b, err := s.cachedDrawing(r, quizKey{lesson: lesson, id: holeTOC + where}, lessonTOC(s.lessonMap(lesson), progress.CompletedMeans, where))
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// writePart writes one interactive part as the learner finds it; wait is
// the wait before the lesson quiz's next attempt (lessonQuizWait).
func (s *Server) writePart(r *http.Request, buf *bytes.Buffer, lesson *lessons.Lesson, w *lessons.Widget, sum progress.Summary, attempt int, wait *QuizWait) error {
	if ex := w.Exercise; ex != nil {
		if _, ran := sum.Exercises[ex.ID]; ran || learnerCode(sum, ex) != ex.Starter {
			return exercisePanel(s.learnerExerciseView(lesson, ex, sum)).Render(r.Context(), buf)
		}
		// Never run and no code saved: the panel every newcomer sees.
		b, err := s.cachedDrawing(r, quizKey{lesson: lesson, id: holePart + ex.ID}, templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
			return exercisePanel(s.learnerExerciseView(lesson, ex, sum)).Render(ctx, w)
		}))
		if err != nil {
			return err
		}
		buf.Write(b)
		return nil
	}
	var draw quiz.Draw
	if q, ok := w.Value.(*quiz.Quiz); ok {
		// A first visit shows the draw every visitor sees; the form posts
		// the attempt number, from which the post recomputes the draw.
		draw = progress.QuizDraw(progress.ActorFrom(r.Context()), q, attempt)
	}
	if touched(sum, lesson, w) {
		wv := learnerWidgetView(lesson, w, sum, draw, attempt)
		if w.Kind == quiz.KindQuiz {
			wv.Wait = wait
		}
		return widget(wv).Render(r.Context(), buf)
	}
	b, err := s.drawnWidget(r, lesson, w, draw, attempt)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// serveLesson writes a lesson page from its skeleton. shown, when set, is
// a result kept by a plain form post, drawn in place of its part. The
// entity tag comes from the page's inputs (etag.go), so a request whose
// If-None-Match still names it is answered 304 before anything is drawn,
// and a page drawn for a tag is kept (keptPages): the next request with
// the same tag, from any new visitor or the same learner, writes the kept
// bytes with a fresh nonce.
func (s *Server) serveLesson(w http.ResponseWriter, r *http.Request, lesson *lessons.Lesson, shown *progress.ResultToShow) error {
	sk, err := s.lessonSkeleton(r, lesson)
	if err != nil {
		return err
	}
	a, sum := progress.ActorFrom(r.Context()), summaryFrom(r.Context())
	qa, err := s.lessonQA(r, lesson)
	if err != nil {
		return err
	}
	wait, err := s.lessonQuizWait(r, lesson, sum)
	if err != nil {
		return err
	}
	// A lesson page goes as gzip from its kept compressed pieces when the
	// browser takes gzip (every browser that takes brotli does); else the
	// middleware compresses it as it goes (brotli), or not at all.
	gzip := r.Method != http.MethodHead && acceptsGzip(r)
	coding := codingIdentity
	switch {
	case gzip:
		coding = codingGzip
	case r.Method != http.MethodHead:
		coding = chooseCoding(r)
	}
	h := w.Header()
	var tag string
	var tagKey uint64
	if shown == nil {
		// Kept without a check only by this browser (a shown result is
		// no-store, set by lessonShow).
		h["Cache-Control"] = privateNoCache
		if wait == nil {
			// A quiz's wait counts minutes: that page is always drawn.
			tagKey = pageTag(sk, a, sum, qa, r.URL.Query().Get("about"))
			tag = fmt.Sprintf(`"%016x"`, tagKey)
		}
	}
	if tag != "" {
		if etagMatches(r.Header.Get("If-None-Match"), codedETag(tag, coding)) {
			// No CSP here: a 304's headers replace the cached ones, and
			// the cached page carries its own style nonce.
			h.Del("Content-Security-Policy")
			h.Set("ETag", codedETag(tag, coding))
			h.Add("Vary", "Accept-Encoding")
			w.WriteHeader(http.StatusNotModified)
			return nil
		}
		// The middleware adds its coding, if any, to the tag.
		h.Set("ETag", tag)
		if gzip {
			h.Set("ETag", codedETag(tag, coding))
		}
	}
	nonce := ""
	if sk.hasNonce {
		if nonce, err = newNonce(); err != nil {
			return err
		}
		h.Set("Content-Security-Policy", stylePolicy(r.Context(), nonce))
	}
	key := keptKey{lesson: lesson, key: tagKey, tagged: true}
	kp := (*keptPage)(nil)
	if tag != "" {
		kp = s.kept.get(key)
	}
	if kp == nil {
		buf := pageBuffers.Get().(*bytes.Buffer)
		defer putPageBuffer(buf)
		spans, err := s.drawLesson(r, buf, sk, lesson, sum, qa, wait, shown, nonce)
		if err != nil {
			return err
		}
		if tag == "" {
			key = keptKey{lesson: lesson, key: contentKey(buf.Bytes(), spans)}
			if !gzip {
				return writePage(w, http.StatusOK, buf)
			}
			if kp = s.kept.get(key); kp == nil || !kp.same(buf.Bytes(), spans) {
				kp = s.kept.keep(key, buf.Bytes(), spans)
			}
		} else {
			kp = s.kept.keep(key, buf.Bytes(), spans)
		}
	}
	return kp.write(w, &s.zip, nonce, gzip)
}

// drawLesson draws the lesson page from its skeleton into buf, nonce in
// its nonce holes, and returns where each hole's bytes lie.
func (s *Server) drawLesson(r *http.Request, buf *bytes.Buffer, sk *skeleton, lesson *lessons.Lesson, sum progress.Summary,
	qa *drawnQA, wait *QuizWait, shown *progress.ResultToShow, nonce string) ([]pageSpan, error) {
	attempt := quizAttempt(progress.ActorFrom(r.Context()), sum, lesson)
	figures := s.badge(sum)
	return sk.write(buf, func(h string, buf *bytes.Buffer) error {
		switch {
		case h == holeStats:
			return learnerStats(figures).Render(r.Context(), buf)
		case h == holeReviews:
			return reviewCount(figures).Render(r.Context(), buf)
		case h == holeNonce:
			buf.WriteString(nonce)
		case h == holeFinished:
			if f := s.finished(lesson, sum); f != nil {
				return finishedBox(f).Render(r.Context(), buf)
			}
		case h == holeQA:
			buf.Write(qa.html)
		case strings.HasPrefix(h, holeTOC):
			return s.writeTOC(r, buf, lesson, sum, strings.TrimPrefix(h, holeTOC))
		case strings.HasPrefix(h, holePart):
			id := strings.TrimPrefix(h, holePart)
			if shown != nil && shown.PartID == id {
				buf.WriteString(shown.Body)
				return nil
			}
			wd, ok := lesson.Widget(id)
			if !ok {
				return fmt.Errorf("web: skeleton of %s names a missing part %q", lesson.Slug, h)
			}
			return s.writePart(r, buf, lesson, wd, sum, attempt, wait)
		default:
			return fmt.Errorf("web: skeleton of %s has an unknown hole %q", lesson.Slug, h)
		}
		return nil
	})
}
