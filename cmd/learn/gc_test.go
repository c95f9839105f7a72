package main

import "testing"

func TestGCSettings(t *testing.T) {
	for _, tt := range []struct {
		name    string
		env     map[string]string
		percent int
		limit   int64
	}{
		{"neither set", nil, serverGCPercent, serverMemoryLimit},
		{"GOGC set", map[string]string{"GOGC": "100"}, 0, serverMemoryLimit},
		{"GOGC off", map[string]string{"GOGC": "off"}, 0, serverMemoryLimit},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, serverGCPercent, 0},
		{"both set", map[string]string{"GOGC": "50", "GOMEMLIMIT": "1GiB"}, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			percent, limit := gcSettings(func(k string) string { return tt.env[k] })
			if percent != tt.percent || limit != tt.limit {
				t.Errorf("gcSettings = %d, %d; want %d, %d", percent, limit, tt.percent, tt.limit)
			}
		})
	}
}
