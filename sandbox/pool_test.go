package sandbox

import (
	"context"
	"testing"
	"time"
)

// TestPoolFollowsDemand starts one pool of two plain interpreters and one
// with the MCP module, then asks for MCP interpreters only: the places of
// the plain ones move to the MCP kind, and the pool refills with that kind.
func TestPoolFollowsDemand(t *testing.T) {
	cfg := testConfig(t)
	e, err := openEngine(context.Background(), engineConfig{
		WasmPath: cfg.WasmPath, CacheDir: cfg.CacheDir,
		MemoryLimitPages: uint32(cfg.MemoryLimitBytes / wasmPageSize),
		PoolSize:         2, MCPPoolSize: 1, RefillParallel: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer e.close(context.Background())
	e.fill(nil, nil)
	counts := func() (plain, mcp int, target [numKinds]int) {
		e.mu.Lock()
		defer e.mu.Unlock()
		return len(e.parked[kindPlain]), len(e.parked[kindMCP]), e.target
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(2 * time.Minute); !ok(); {
			if time.Now().After(deadline) {
				p, m, tg := counts()
				t.Fatalf("%s: never happened (parked plain %d, mcp %d, target %v)", what, p, m, tg)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitFor("first fill", func() bool { p, m, _ := counts(); return p == 2 && m == 1 })
	for range 30 {
		if _, _, tg := counts(); tg[kindMCP] == 3 {
			break
		}
		inst, err := e.take(kindMCP)
		if err != nil {
			t.Fatal(err)
		}
		inst.discard()
		<-inst.done
	}
	if _, _, tg := counts(); tg != [numKinds]int{kindPlain: 0, kindMCP: 3} {
		t.Fatalf("target %v after MCP demand only, want every place for MCP", tg)
	}
	waitFor("refill with the kind in demand", func() bool { p, m, _ := counts(); return p == 0 && m == 3 })
	// A plain submission now misses, and takes one place back.
	inst, err := e.take(kindPlain)
	if err != nil {
		t.Fatal(err)
	}
	if !inst.cold {
		t.Error("a plain instance was parked, want a miss")
	}
	inst.discard()
	<-inst.done
	if _, _, tg := counts(); tg != [numKinds]int{kindPlain: 1, kindMCP: 2} {
		t.Errorf("target %v after one plain miss, want one place back for plain", tg)
	}
}
