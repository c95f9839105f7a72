package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"sync"

	"learn/lessons"
	"learn/progress"
	"learn/quiz"
)

// A lesson page is the same for every learner but for a few holes: the
// header's figures, the quiz (its question order is the learner's), the
// code in each editor, and the style nonce. The page is drawn once per
// lesson with markers in those holes and split there into a skeleton; each
// request writes the static parts and fills the holes. Drawing the whole
// page per request cost four times as much.

// Hole names.
const (
	holeStats   = "stats"
	holeReviews = "reviews"
	holeNonce   = "nonce"
	holeQuiz    = "quiz:" // + widget id
	holeCode    = "code:" // + exercise id
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
}

// splitSkeleton splits a drawn page at its hole markers.
func splitSkeleton(page []byte) (*skeleton, error) {
	sk := &skeleton{}
	rest := page
	for {
		i := bytes.Index(rest, []byte(holeOpen))
		if i < 0 {
			sk.static = append(sk.static, rest)
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

// write writes the page to buf, calling fill for each hole.
func (sk *skeleton) write(buf *bytes.Buffer, fill func(hole string, buf *bytes.Buffer) error) error {
	for i, part := range sk.static {
		buf.Write(part)
		if i < len(sk.holes) {
			if err := fill(sk.holes[i], buf); err != nil {
				return err
			}
		}
	}
	return nil
}

// pageCache holds lesson skeletons and drawn quizzes. A reloaded course
// has new lesson values, so its pages are drawn afresh.
type pageCache struct {
	mu        sync.Mutex
	skeletons map[*lessons.Lesson]*skeleton
	quizzes   map[quizKey][]byte
}

// quizKey names one drawing of a quiz: what it draws and its attempt
// number.
type quizKey struct {
	lesson  *lessons.Lesson
	id      string
	draw    string
	attempt int
}

// maxCachedQuizzes bounds the drawn quizzes kept; past it the cache starts
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

// drawnQuiz returns the quiz drawn in the order the learner sees it.
func (s *Server) drawnQuiz(r *http.Request, lesson *lessons.Lesson, w *lessons.Widget, attempt int) ([]byte, error) {
	q := w.Value.(*quiz.Quiz)
	// A first visit shows the draw every visitor sees; the form posts the
	// attempt number, from which the post recomputes the draw.
	draw := progress.QuizDraw(progress.ActorFrom(r.Context()), q, attempt)
	key := quizKey{lesson: lesson, id: w.ID, draw: fmt.Sprint(draw), attempt: attempt}
	s.pages.mu.Lock()
	b, ok := s.pages.quizzes[key]
	s.pages.mu.Unlock()
	if ok {
		return b, nil
	}
	v := widgetView(lesson, w, draw, attempt, "")
	var buf bytes.Buffer
	if err := widget(v).Render(r.Context(), &buf); err != nil {
		return nil, fmt.Errorf("web: draw quiz of %s: %w", lesson.Slug, err)
	}
	s.pages.mu.Lock()
	if s.pages.quizzes == nil || len(s.pages.quizzes) >= maxCachedQuizzes {
		s.pages.quizzes = map[quizKey][]byte{}
	}
	s.pages.quizzes[key] = buf.Bytes()
	s.pages.mu.Unlock()
	return buf.Bytes(), nil
}

// serveLesson writes a lesson page from its skeleton.
func (s *Server) serveLesson(w http.ResponseWriter, r *http.Request, lesson *lessons.Lesson) error {
	sk, err := s.lessonSkeleton(r, lesson)
	if err != nil {
		return err
	}
	a, sum := progress.ActorFrom(r.Context()), summaryFrom(r.Context())
	attempt := quizAttempt(a, sum, lesson)
	figures := badge(sum)
	var nonce string
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(buf)
	err = sk.write(buf, func(h string, buf *bytes.Buffer) error {
		switch {
		case h == holeStats:
			return learnerStats(figures).Render(r.Context(), buf)
		case h == holeReviews:
			return reviewCount(figures).Render(r.Context(), buf)
		case h == holeNonce:
			if nonce == "" {
				var err error
				if nonce, err = newNonce(); err != nil {
					return err
				}
			}
			buf.WriteString(nonce)
		case strings.HasPrefix(h, holeQuiz):
			wd, ok := lesson.Widget(strings.TrimPrefix(h, holeQuiz))
			if !ok {
				return fmt.Errorf("web: skeleton of %s names a missing quiz %q", lesson.Slug, h)
			}
			b, err := s.drawnQuiz(r, lesson, wd, attempt)
			if err != nil {
				return err
			}
			buf.Write(b)
		case strings.HasPrefix(h, holeCode):
			ex, _, ok := s.course().Exercise(strings.TrimPrefix(h, holeCode))
			if !ok {
				return fmt.Errorf("web: skeleton of %s names a missing exercise %q", lesson.Slug, h)
			}
			buf.WriteString(template.HTMLEscapeString(learnerCode(sum, ex)))
		default:
			return fmt.Errorf("web: skeleton of %s has an unknown hole %q", lesson.Slug, h)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if nonce != "" {
		w.Header().Set("Content-Security-Policy", policyWithStyleNonce(nonce))
	}
	return writePage(w, http.StatusOK, buf)
}
