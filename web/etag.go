package web

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/cespare/xxhash/v2"

	"learn/lessons"
	"learn/progress"
)

// Revalidation. A lesson page's entity tag is worked out from what the
// page is drawn from, before any of it is drawn, so that a conditional
// request that still matches answers 304 at the cost of reading those
// inputs:
//
//   - the lesson's skeleton (its hash: the course, the templates and the
//     asset addresses of this build; a reloaded course or a new release
//     draws another);
//   - who asks: a first visit (every first visit gets the same page), or
//     the learner id, role and teacher (the quiz's draw, the Q&A
//     section's rights and names follow them; a session that ended makes
//     the browser a first visit, or a learner instead of a teacher);
//   - the learner's summary (progress.Summary.Fingerprint): every figure
//     and part the page shows of the learner's own doing. It is read
//     through the learner's write count on a server sharing the database
//     (progress.Invalidator), so XP earned on one server moves the tag on
//     every other at the next page;
//   - the Q&A section as this viewer sees it (the hash of its drawing),
//     kept drawn while the database's page generation stays the same and
//     no edit window of the viewer's posts has closed; the generation moves
//     with every Q&A post, mark, report and public name, and every change
//     to classes, their members, assignments and extensions, on any server
//     (triggers, see storage migration 0031 and 0016);
//   - the query's "about" (the part a new question is about).
//
// A page whose drawing depends on the clock (a quiz's wait, which counts
// minutes) or shows a result once carries no tag and is always drawn.

// drawnQA is the Q&A section drawn for one viewer of one lesson.
type drawnQA struct {
	generation int64
	// until is when one of the viewer's posts leaves its edit window,
	// which changes the section; zero when none will.
	until time.Time
	html  []byte
	hash  uint64
}

// qaSectionKey names one viewer of one lesson (viewerKey).
type qaSectionKey struct {
	lesson *lessons.Lesson
	viewer string
}

// qaSections keeps drawn Q&A sections.
type qaSections struct {
	mu sync.Mutex
	m  map[qaSectionKey]*drawnQA
}

// maxQASections bounds the sections kept (a few kilobytes each); past it
// the cache starts again empty.
const maxQASections = 2048

// viewerKey names what the page depends on of who asks: "" for a first
// visit, whose fresh id is shown nowhere.
func viewerKey(a progress.Actor) string {
	if !a.Known && !a.IsTeacher() {
		return ""
	}
	return a.ID + "\x00" + string(a.Role) + "\x00" + strconv.FormatInt(a.TeacherID, 10) + "\x00" + a.TeacherName
}

// lessonQA returns the lesson's Q&A section as the request's viewer sees
// it: drawn again only when the page generation moved, an edit window
// closed or the request names a part to ask about.
func (s *Server) lessonQA(r *http.Request, lesson *lessons.Lesson) (*drawnQA, error) {
	gen, err := s.app.PageGeneration(r.Context())
	if err != nil {
		return nil, err
	}
	about := r.URL.Query().Get("about")
	key := qaSectionKey{lesson: lesson, viewer: viewerKey(progress.ActorFrom(r.Context()))}
	now := s.now()
	if about == "" {
		s.qas.mu.Lock()
		e := s.qas.m[key]
		s.qas.mu.Unlock()
		if e != nil && e.generation == gen && (e.until.IsZero() || now.Before(e.until)) {
			return e, nil
		}
	}
	// The generation was read first: a write while this draws moves it,
	// and the next page draws the section again.
	v, err := s.qaView(r, lesson, qaDraft{})
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := qaSection(v).Render(r.Context(), &buf); err != nil {
		return nil, fmt.Errorf("web: draw the questions of %s: %w", lesson.Slug, err)
	}
	e := &drawnQA{generation: gen, until: editWindowEnd(v), html: buf.Bytes(), hash: xxhash.Sum64(buf.Bytes())}
	if about == "" {
		s.qas.mu.Lock()
		if s.qas.m == nil || len(s.qas.m) >= maxQASections {
			s.qas.m = map[qaSectionKey]*drawnQA{}
		}
		s.qas.m[key] = e
		s.qas.mu.Unlock()
	}
	return e, nil
}

// editWindowEnd is when the first of the viewer's editable posts in v
// leaves its edit window (zero for none).
func editWindowEnd(v QAView) time.Time {
	var end time.Time
	note := func(p PostView) {
		if !p.CanEdit {
			return
		}
		if t := p.CreatedAt.Add(progress.EditWindow); end.IsZero() || t.Before(end) {
			end = t
		}
	}
	for _, t := range v.Threads {
		note(t.Question)
		for _, a := range t.Answers {
			note(a)
		}
	}
	return end
}

// pageTag is the entity tag (a hash) of a lesson page drawn from these
// inputs (see above); the same on every server of one build and course.
func pageTag(sk *skeleton, a progress.Actor, sum progress.Summary, qa *drawnQA, about string) uint64 {
	h := xxhash.New()
	var n [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(n[:], v)
		_, _ = h.Write(n[:])
	}
	put(sk.hash)
	put(qa.hash)
	put(sum.Fingerprint)
	viewer := viewerKey(a)
	put(uint64(len(viewer)))
	_, _ = h.WriteString(viewer)
	_, _ = h.WriteString(about)
	return h.Sum64()
}

// lessonQuizWait returns the wait before the learner's next attempt at
// the lesson's quiz, nil when there is none (see withQuizWait).
func (s *Server) lessonQuizWait(r *http.Request, lesson *lessons.Lesson, sum progress.Summary) (*QuizWait, error) {
	q, ok := lesson.Quiz()
	if !ok {
		return nil, nil
	}
	w, ok := lesson.Widget(q.ID)
	if !ok {
		return nil, nil
	}
	var v WidgetView
	if err := s.withQuizWait(r, lesson, w, sum, &v); err != nil {
		return nil, err
	}
	return v.Wait, nil
}
