package progress

// The dashboard's charts and the weekly leaderboard.

import (
	"cmp"
	"context"
	"slices"
	"time"

	"learn/lessons"
	"learn/quiz"
)

// completion counts the class's completed lessons by the end of each day
// that had one.
func completion(act ClassActivity, zone *time.Location) []CompletionPoint {
	perDay := map[time.Time]int{}
	for _, ls := range act.Lessons {
		for _, lp := range ls {
			if lp.Completed() {
				t := lp.CompletedAt.In(zone)
				perDay[time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, zone)]++
			}
		}
	}
	days := make([]time.Time, 0, len(perDay))
	for d := range perDay {
		days = append(days, d)
	}
	slices.SortFunc(days, func(a, b time.Time) int { return a.Compare(b) })
	out := make([]CompletionPoint, 0, len(days))
	total := 0
	for _, d := range days {
		total += perDay[d]
		out = append(out, CompletionPoint{Day: d, Total: total})
	}
	return out
}

// spread gathers first-try quiz scores per lesson.
func spread(rows []RosterRow, ls []*lessons.Lesson) []ScoreSpread {
	var out []ScoreSpread
	for i, l := range ls {
		q, ok := l.Quiz()
		if !ok {
			continue
		}
		sp := ScoreSpread{Lesson: l, Total: len(q.Questions), Counts: make([]int, len(q.Questions)+1)}
		for _, r := range rows {
			qs := r.Cells[i].Quiz
			if qs.Attempts > 0 && qs.First >= 0 && qs.First < len(sp.Counts) {
				sp.Counts[qs.First]++
			}
		}
		out = append(out, sp)
	}
	return out
}

// weekStart is Monday 00:00 of now's week in zone.
func weekStart(now time.Time, zone *time.Location) time.Time {
	t := now.In(zone)
	back := (int(t.Weekday()) + 6) % 7
	return time.Date(t.Year(), t.Month(), t.Day()-back, 0, 0, 0, 0, zone)
}

func (s *Service) leaderboard(ctx context.Context, c Class, members []Member, now time.Time) ([]LeaderRow, error) {
	zone, _ := quiz.Zone(c.TimeZone)
	xp, err := s.classes.WeeklyXP(ctx, c.ID, weekStart(now, zone))
	if err != nil {
		return nil, err
	}
	return leaderRows(members, xp), nil
}

// leaderRows ranks members by this week's XP; members with none are left
// out, and ties share a rank.
func leaderRows(members []Member, xp map[string]int) []LeaderRow {
	var rows []LeaderRow
	for _, m := range members {
		if xp[m.LearnerID] > 0 {
			rows = append(rows, LeaderRow{Name: m.Name, XP: xp[m.LearnerID]})
		}
	}
	slices.SortStableFunc(rows, func(a, b LeaderRow) int { return cmp.Or(cmp.Compare(b.XP, a.XP), cmp.Compare(a.Name, b.Name)) })
	for i := range rows {
		rows[i].Rank = i + 1
		if i > 0 && rows[i].XP == rows[i-1].XP {
			rows[i].Rank = rows[i-1].Rank
		}
	}
	return rows
}
