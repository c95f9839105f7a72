package quiz

import (
	"testing"
	"time"
)

func zone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, ok := Zone(name)
	if !ok {
		t.Fatalf("zone %q not found", name)
	}
	return loc
}

// at is a wall-clock time in loc, as an instant.
func at(loc *time.Location, y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, loc)
}

func TestStreak(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	ny := zone(t, "America/New_York")
	b := func(m time.Month, d, hh, mm int) time.Time { return at(berlin, 2026, m, d, hh, mm) }
	n := func(m time.Month, d, hh, mm int) time.Time { return at(ny, 2026, m, d, hh, mm) }
	tests := []struct {
		name       string
		activities []time.Time
		now        time.Time
		loc        *time.Location
		wantDays   int
		wantToday  bool
	}{
		{"no activity", nil, b(1, 10, 12, 0), berlin, 0, false},
		{"today only", []time.Time{b(1, 10, 9, 0)}, b(1, 10, 12, 0), berlin, 1, true},
		{"yesterday only: alive until midnight", []time.Time{b(1, 9, 9, 0)}, b(1, 10, 23, 59), berlin, 1, false},
		{"yesterday only, just after midnight: still alive", []time.Time{b(1, 9, 23, 59)}, b(1, 10, 0, 0), berlin, 1, false},
		{"two days ago: broken", []time.Time{b(1, 8, 23, 59)}, b(1, 10, 0, 1), berlin, 0, false},
		{"three days in a row", []time.Time{b(1, 8, 20, 0), b(1, 9, 7, 0), b(1, 10, 8, 0)}, b(1, 10, 12, 0), berlin, 3, true},
		{"several a day count once", []time.Time{b(1, 9, 7, 0), b(1, 9, 8, 0), b(1, 10, 8, 0), b(1, 10, 9, 0)}, b(1, 10, 12, 0), berlin, 2, true},
		{"a missed day breaks the streak", []time.Time{b(1, 6, 9, 0), b(1, 7, 9, 0), b(1, 9, 9, 0), b(1, 10, 9, 0)}, b(1, 10, 12, 0), berlin, 2, true},
		{"either side of midnight: two days", []time.Time{b(1, 9, 23, 59), b(1, 10, 0, 0)}, b(1, 10, 0, 5), berlin, 2, true},
		{"order of activities does not matter", []time.Time{b(1, 10, 8, 0), b(1, 8, 8, 0), b(1, 9, 8, 0)}, b(1, 10, 9, 0), berlin, 3, true},
		{"activity after now is ignored", []time.Time{b(1, 11, 9, 0)}, b(1, 10, 9, 0), berlin, 0, false},
		// 23:30 UTC is 00:30 the next day in Berlin (UTC+1 in winter).
		{"placed on the local day, not the UTC day", []time.Time{time.Date(2026, 1, 9, 23, 30, 0, 0, time.UTC)}, b(1, 10, 12, 0), berlin, 1, true},
		{"the same instant in UTC is yesterday", []time.Time{time.Date(2026, 1, 9, 23, 30, 0, 0, time.UTC)}, b(1, 10, 12, 0), time.UTC, 1, false},
		{"nil zone is UTC", []time.Time{time.Date(2026, 1, 10, 1, 0, 0, 0, time.UTC)}, time.Date(2026, 1, 10, 2, 0, 0, 0, time.UTC), nil, 1, true},
		// Berlin springs forward on Sunday 29 March 2026 (02:00 CET -> 03:00 CEST): a 23-hour day.
		{"spring forward: the short day counts", []time.Time{b(3, 28, 23, 30), b(3, 29, 12, 0), b(3, 30, 0, 30)}, b(3, 30, 8, 0), berlin, 3, true},
		{"spring forward: either side of the switch is one day", []time.Time{b(3, 28, 12, 0), b(3, 29, 1, 59), b(3, 29, 3, 0)}, b(3, 29, 23, 59), berlin, 2, true},
		{"spring forward: alive the morning after the short day", []time.Time{b(3, 28, 12, 0), b(3, 29, 23, 30)}, b(3, 30, 0, 15), berlin, 2, false},
		// Berlin falls back on Sunday 25 October 2026 (03:00 CEST -> 02:00 CET): a 25-hour day.
		{"fall back: the long day counts once", []time.Time{b(10, 24, 22, 0), b(10, 25, 0, 30), b(10, 25, 23, 30), b(10, 26, 0, 10)}, b(10, 26, 0, 20), berlin, 3, true},
		{"fall back: 24 hours after 00:30 is still the same day", []time.Time{b(10, 24, 12, 0), b(10, 25, 0, 30)}, b(10, 25, 0, 30).Add(23*time.Hour + 59*time.Minute), berlin, 2, true},
		// New York springs forward on Sunday 8 March 2026 and falls back on Sunday 1 November.
		{"New York spring forward", []time.Time{n(3, 7, 23, 0), n(3, 8, 23, 0)}, n(3, 9, 7, 0), ny, 2, false},
		{"New York fall back", []time.Time{n(10, 31, 23, 30), n(11, 1, 23, 30), n(11, 2, 0, 30)}, n(11, 2, 9, 0), ny, 3, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var utc []time.Time
			for _, a := range tt.activities {
				utc = append(utc, a.UTC())
			}
			got := Streak(utc, tt.now.UTC(), tt.loc)
			if got.Days != tt.wantDays || got.ActiveToday != tt.wantToday {
				t.Errorf("Streak = %d days, active today %v; want %d, %v", got.Days, got.ActiveToday, tt.wantDays, tt.wantToday)
			}
		})
	}
}

// TestStreakZoneChange pins the documented rule: activities are placed on
// days in the zone passed now, so moving zone re-reads the whole history.
func TestStreakZoneChange(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	ny := zone(t, "America/New_York")
	tests := []struct {
		name       string
		activities []time.Time
		now        time.Time
		loc        *time.Location
		wantDays   int
		wantToday  bool
	}{
		// Evenings in New York (21:00 EDT) are the small hours of the next
		// day in Berlin.
		{"New York evenings read in New York", []time.Time{at(ny, 2026, 5, 9, 21, 0), at(ny, 2026, 5, 10, 21, 0)}, at(berlin, 2026, 5, 11, 10, 0), ny, 2, false},
		{"the same evenings read after flying to Berlin", []time.Time{at(ny, 2026, 5, 9, 21, 0), at(ny, 2026, 5, 10, 21, 0)}, at(berlin, 2026, 5, 11, 10, 0), berlin, 2, true},
		// 23:30 and, 25 hours later, 00:30 in Berlin skip a Berlin day but
		// fall on consecutive New York days.
		{"a gap in Berlin", []time.Time{at(berlin, 2026, 5, 10, 23, 30), at(berlin, 2026, 5, 12, 0, 30)}, at(berlin, 2026, 5, 12, 1, 0), berlin, 1, true},
		{"no gap once read in New York", []time.Time{at(berlin, 2026, 5, 10, 23, 30), at(berlin, 2026, 5, 12, 0, 30)}, at(berlin, 2026, 5, 12, 1, 0), ny, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Streak(tt.activities, tt.now, tt.loc)
			if got.Days != tt.wantDays || got.ActiveToday != tt.wantToday {
				t.Errorf("Streak = %d days, active today %v; want %d, %v", got.Days, got.ActiveToday, tt.wantDays, tt.wantToday)
			}
		})
	}
}

func TestZone(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string
		wantOK bool
	}{
		{"IANA name", "Europe/Berlin", "Europe/Berlin", true},
		{"empty is UTC", "", "UTC", false},
		{"unknown is UTC", "Mars/Olympus_Mons", "UTC", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, ok := Zone(tt.in)
			if loc.String() != tt.want || ok != tt.wantOK {
				t.Errorf("Zone(%q) = %s, %v", tt.in, loc, ok)
			}
		})
	}
}

func TestCalendar(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	// Wednesday 4 March 2026; two weeks run from Monday 23 February to
	// Sunday 8 March.
	now := at(berlin, 2026, 3, 4, 12, 0)
	acts := []time.Time{
		at(berlin, 2026, 2, 22, 12, 0), // before the calendar
		at(berlin, 2026, 2, 23, 0, 10),
		at(berlin, 2026, 2, 27, 9, 0),
		at(berlin, 2026, 2, 27, 21, 0),
		at(berlin, 2026, 3, 4, 8, 0),
		at(berlin, 2026, 3, 5, 8, 0), // after now: not counted
	}
	cal := Calendar(acts, now, berlin, 2)
	if len(cal) != 14 {
		t.Fatalf("%d days, want 14", len(cal))
	}
	tests := []struct {
		name         string
		i            int
		day          string
		count        int
		today, futur bool
	}{
		{"first day is a Monday", 0, "2026-02-23", 1, false, false},
		{"two on one day", 4, "2026-02-27", 2, false, false},
		{"an empty day", 5, "2026-02-28", 0, false, false},
		{"today", 9, "2026-03-04", 1, true, false},
		{"tomorrow is future and empty", 10, "2026-03-05", 0, false, true},
		{"last day is a Sunday", 13, "2026-03-08", 0, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cal[tt.i]
			if c.Day.String() != tt.day || c.Count != tt.count || c.Today != tt.today || c.Future != tt.futur {
				t.Errorf("cal[%d] = %+v (%s), want %s count %d today %v future %v", tt.i, c, c.Day, tt.day, tt.count, tt.today, tt.futur)
			}
		})
	}
	if cal[0].Day.Weekday() != time.Monday || cal[13].Day.Weekday() != time.Sunday {
		t.Errorf("weeks run %s to %s", cal[0].Day.Weekday(), cal[13].Day.Weekday())
	}
	if got := Calendar(nil, now, berlin, 0); len(got) != 7 {
		t.Errorf("weeks 0 gave %d days, want 7", len(got))
	}
}
