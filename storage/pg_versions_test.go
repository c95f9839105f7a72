package storage

import (
	"context"
	"sync"
	"testing"

	"learn/postgres/pgtest"
)

// testWriteVersions counts writes from two servers at once: each sees the
// other's count, and none is lost.
func testWriteVersions(t *testing.T, c *pgtest.Cluster) {
	ctx := context.Background()
	url := c.NewDatabase(t)
	var servers []*WriteVersions
	for range 2 {
		s, err := OpenPostgres(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		servers = append(servers, s.WriteVersions(nil))
	}
	if v, err := servers[0].Version(ctx, "l1"); err != nil || v != 0 {
		t.Fatalf("Version before any write = %d (%v), want 0", v, err)
	}
	const writes = 20
	var wg sync.WaitGroup
	for i := range writes {
		wg.Go(func() { servers[i%2].Invalidate("l1") })
	}
	wg.Wait()
	for i, s := range servers {
		if v, err := s.Version(ctx, "l1"); err != nil || v != writes {
			t.Errorf("server %d: Version = %d (%v), want %d", i, v, err, writes)
		}
	}
	if v, _ := servers[1].Version(ctx, "l2"); v != 0 {
		t.Errorf("another learner's Version = %d, want 0", v)
	}
}
