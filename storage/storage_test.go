package storage

import (
	"testing"
	"time"
)

func TestNumberPlaceholders(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"WHERE a = ? AND b = ?", "WHERE a = $1 AND b = $2"},
		{"VALUES (?1, ?2 + ?3) WHERE x <= ?2 + ?4", "VALUES ($1, $2 + $3) WHERE x <= $2 + $4"},
		{"WHERE a = '?' AND b = ?", "WHERE a = '?' AND b = $1"},
		{"SET c = 'it''s ?' WHERE d IN (?, ?)", "SET c = 'it''s ?' WHERE d IN ($1, $2)"},
	} {
		if got := numberPlaceholders(tc.in); got != tc.want {
			t.Errorf("numberPlaceholders(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestInstantScan(t *testing.T) {
	want := time.Date(2026, 11, 29, 10, 0, 0, 123456789, time.UTC)
	for _, tc := range []struct {
		name string
		src  any
		want time.Time
		err  bool
	}{
		{"NULL", nil, time.Time{}, false},
		{"nanoseconds", want.UnixNano(), want, false},
		{"fixed-width text", "2026-11-29T10:00:00.123456789Z", want, false},
		{"trimmed text", []byte("2026-11-29T11:00:00.123456789+01:00"), want, false},
		{"not a time", "yesterday", time.Time{}, true},
		{"a float", 1.5, time.Time{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := time.Now()
			err := at(&got).Scan(tc.src)
			if (err != nil) != tc.err || (!tc.err && (!got.Equal(tc.want) || got.Location() != time.UTC)) {
				t.Errorf("Scan(%v) = %v, %v; want %v in UTC, error %v", tc.src, got, err, tc.want, tc.err)
			}
		})
	}
}
