package quiz

import (
	"fmt"
	"time"
	_ "time/tzdata" // Zone must work on machines without a zoneinfo database
)

// Day is a calendar date in the learner's time zone.
type Day struct {
	Year  int
	Month time.Month
	Day   int
}

// DayOf returns the date of instant t in loc (UTC when loc is nil).
func DayOf(t time.Time, loc *time.Location) Day {
	if loc == nil {
		loc = time.UTC
	}
	y, m, d := t.In(loc).Date()
	return Day{y, m, d}
}

// AddDays returns the date n days later (earlier when n is negative).
// Calendar arithmetic: daylight-saving switches play no part.
func (d Day) AddDays(n int) Day {
	y, m, dd := time.Date(d.Year, d.Month, d.Day+n, 12, 0, 0, 0, time.UTC).Date()
	return Day{y, m, dd}
}

// Weekday returns the day of the week.
func (d Day) Weekday() time.Weekday {
	return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Weekday()
}

// String formats the date as 2026-03-29.
func (d Day) String() string { return fmt.Sprintf("%04d-%02d-%02d", d.Year, d.Month, d.Day) }

// Zone returns the location for an IANA time zone name as a browser reports
// it (Intl.DateTimeFormat().resolvedOptions().timeZone), or UTC and ok false
// when the name is empty or unknown.
func Zone(name string) (loc *time.Location, ok bool) {
	if name == "" {
		return time.UTC, false
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC, false
	}
	return loc, true
}

// StreakStatus is the learner's current streak.
type StreakStatus struct {
	// Days is the number of consecutive days with activity ending today,
	// or ending yesterday when today has none yet; 0 when neither has any.
	Days int
	// ActiveToday reports whether today already has activity. When Days > 0
	// and ActiveToday is false, the streak is alive but ends at midnight
	// unless the learner completes something.
	ActiveToday bool
	// Today is the current date in the learner's zone.
	Today Day
}

// Streak computes the current streak from the instants of completed
// activities (any order, any zone), the current instant and the learner's
// zone (UTC when nil).
//
// Rule for zones: every activity is placed on a day in the zone in force now,
// the one passed in. The store keeps instants only; when a learner moves to
// another zone the whole history is re-read in the new zone, so an activity
// near midnight may move to the neighbouring day. This keeps one consistent
// calendar for the learner and needs no zone per activity; the price is that
// a long trip east or west can join or split a streak at its edges.
//
// Days are calendar dates, so a 23-hour or 25-hour day at a daylight-saving
// switch is one day like any other. Activities dated after today are ignored.
func Streak(activities []time.Time, now time.Time, loc *time.Location) StreakStatus {
	today := DayOf(now, loc)
	days := map[Day]bool{}
	for _, a := range activities {
		days[DayOf(a, loc)] = true
	}
	s := StreakStatus{Today: today, ActiveToday: days[today]}
	d := today
	if !s.ActiveToday {
		d = today.AddDays(-1)
	}
	for days[d] {
		s.Days++
		d = d.AddDays(-1)
	}
	return s
}

// CalendarDay is one cell of the streak calendar.
type CalendarDay struct {
	Day Day
	// Count is the number of activities that day.
	Count int
	// Today marks the current date; Future marks dates after it, which
	// fill out the last week.
	Today, Future bool
}

// Calendar returns the last weeks full weeks of activity, Monday first, oldest
// first: 7*weeks days ending with the Sunday of the current week (days after
// today are marked Future). Activities are placed on days as in Streak.
// weeks below 1 counts as 1.
func Calendar(activities []time.Time, now time.Time, loc *time.Location, weeks int) []CalendarDay {
	if weeks < 1 {
		weeks = 1
	}
	today := DayOf(now, loc)
	counts := map[Day]int{}
	for _, a := range activities {
		counts[DayOf(a, loc)]++
	}
	sinceMonday := (int(today.Weekday()) + 6) % 7
	start := today.AddDays(-sinceMonday - 7*(weeks-1))
	cal := make([]CalendarDay, 0, 7*weeks)
	future := false
	for i := 0; i < 7*weeks; i++ {
		d := start.AddDays(i)
		cd := CalendarDay{Day: d, Count: counts[d], Today: d == today, Future: future}
		if cd.Today {
			future = true
		}
		if cd.Future {
			cd.Count = 0
		}
		cal = append(cal, cd)
	}
	return cal
}
