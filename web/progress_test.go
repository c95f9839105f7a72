package web

import (
	"testing"
	"time"
)

func TestAxisLabels(t *testing.T) {
	day := func(d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, time.UTC) }
	tests := []struct {
		name     string
		from, to time.Time
		wantFrom string
		wantTo   string
	}{
		{"one day: hours", day(1, 9, 5), day(1, 11, 40), "09:05", "11:40 on 1 Dec"},
		{"two days: dates", day(1, 9, 5), day(3, 11, 40), "1 Dec", "3 Dec"},
		{"two years: dates with the year", day(1, 9, 5), time.Date(2027, 1, 2, 0, 0, 0, 0, time.UTC), "1 Dec 2026", "2 Jan 2027"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to := axisLabels(tt.from, tt.to)
			if from != tt.wantFrom || to != tt.wantTo {
				t.Errorf("axisLabels = %q, %q; want %q, %q", from, to, tt.wantFrom, tt.wantTo)
			}
		})
	}
}
