package progress

import (
	"strings"
	"time"

	"learn/lessons"
)

// Resume is where a learner picks up the course: the first unfinished
// part of the lesson they last worked in, or, when that lesson is done,
// of the next lesson with one left (in course order, starting after it).
type Resume struct {
	Lesson *lessons.Lesson
	// Part is the unfinished widget, quiz or exercise.
	Part *lessons.Widget
}

// Resume returns where the summary's learner picks up the course. ok is
// false for a learner who has not opened any lesson (a new visitor has
// nowhere to continue), and done is true, with ok, when every part of every
// lesson is finished.
//
// The lesson last worked in is the one with the latest activity: a widget
// or quiz attempt, a run or submission of one of its exercises, or its
// first opening (at equal times, the later lesson of the course).
func (sum Summary) Resume(course *lessons.Course) (r Resume, ok, done bool) {
	last := -1
	var lastAt time.Time
	touch := func(slug string, at time.Time) {
		i := course.Number(slug) - 1
		if i >= 0 && (last < 0 || at.After(lastAt) || (at.Equal(lastAt) && i > last)) {
			last, lastAt = i, at
		}
	}
	for slug, at := range sum.OpenedAt {
		touch(slug, at)
	}
	for key, a := range sum.Widgets {
		slug, _, _ := strings.Cut(key, "/")
		touch(slug, a.At)
	}
	for slug, q := range sum.Quizzes {
		touch(slug, q.LastAt)
	}
	for id, st := range sum.Exercises {
		if _, lesson, found := course.Exercise(id); found {
			touch(lesson.Slug, st.LastAt)
		}
	}
	if last < 0 {
		return Resume{}, false, false
	}
	n := len(course.Lessons)
	for k := range n {
		lesson := course.Lessons[(last+k)%n]
		for _, seg := range lesson.Segments {
			if w := seg.Widget; w != nil && !sum.PartDone(lesson, w) {
				return Resume{Lesson: lesson, Part: w}, true, false
			}
		}
	}
	return Resume{}, true, true
}
