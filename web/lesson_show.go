package web

import (
	"fmt"
	"net/http"
)

// lessonShow renders one lesson and records that the learner opened it.
func (s *Server) lessonShow(w http.ResponseWriter, r *http.Request) error {
	slug := r.PathValue("slug")
	course := s.course.Load()
	lesson, ok := course.Lesson(slug)
	if !ok {
		return notFoundError(fmt.Sprintf("There is no lesson called %q. The course home lists every lesson.", slug))
	}
	if err := s.recordOpened(r, slug); err != nil {
		return err
	}
	idx := 0
	for i, l := range course.Lessons {
		if l.Slug == slug {
			idx = i
		}
	}
	v := LessonView{
		Page: s.page(r, lesson.Title, "course"), Title: lesson.Title, Slug: lesson.Slug, Number: idx + 1,
		Minutes: lesson.Minutes, XP: lesson.XP, Objectives: lesson.Objectives, Takeaways: lesson.Takeaways,
	}
	v.Description = lesson.Summary
	for _, seg := range lesson.Segments {
		if seg.Widget == nil {
			v.Body = append(v.Body, BodyPart{HTML: seg.HTML})
		}
	}
	prev, next := course.Neighbours(slug)
	if prev != nil {
		v.Prev = &LessonLink{Title: prev.Title, Slug: prev.Slug}
	}
	if next != nil {
		v.Next = &LessonLink{Title: next.Title, Slug: next.Slug}
	}
	return render(w, r, lessonPage(v))
}

// recordOpened marks the lesson opened for a returning learner. It reads
// first, so a lesson already opened costs no write.
func (s *Server) recordOpened(r *http.Request, slug string) error {
	l := learnerFrom(r.Context())
	if !l.Known {
		return nil
	}
	ctx := r.Context()
	seen, err := s.store.LessonOpened(ctx, l.ID, slug)
	if err != nil || seen {
		return err
	}
	now := s.now()
	if _, err := s.store.EnsureLearner(ctx, l.ID, now); err != nil {
		return err
	}
	return s.store.MarkLessonOpened(ctx, l.ID, slug, now)
}
