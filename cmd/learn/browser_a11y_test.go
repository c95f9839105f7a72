package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeViolation is one accessibility rule a page breaks, as axe-core reports
// it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target []string `json:"target"`
	} `json:"nodes"`
}

// TestBrowserAccessibility runs axe-core (installed by npm ci, injected
// from node_modules: no network) on every kind of page, in light and dark
// themes, and fails on any serious or critical violation.
func TestBrowserAccessibility(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is missing (run \"npm ci\"): %v", err)
	}
	base, _ := startServer(t, filepath.Join(t.TempDir(), "learn.db"))
	b := newBrowser(t)
	pages := []string{"/", "/lessons/two-ways-to-fail", "/lessons/python-sdk-exceptions", "/lessons/tool-annotations", "/review", "/progress", "/guide", "/no-such-page"}
	for _, theme := range []string{"light", "dark"} {
		b.do(t, chromedp.Action[chromedp.Void](func(ctx context.Context, _ *chromedp.Target) (chromedp.Void, error) {
			_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: theme}},
			})
			return chromedp.Void{}, err
		}))
		for _, path := range pages {
			t.Run(theme+path, func(t *testing.T) {
				b.do(t, chromedp.Navigate(base+path), chromedp.WaitVisible(chromedp.CSS("main")),
					chromedp.Evaluate[chromedp.Void](string(script)))
				violations, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]axeViolation](
					`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations)`, chromedp.EvalAwaitPromise))
				if err != nil {
					t.Fatalf("axe: %v", err)
				}
				var bad []string
				for _, v := range violations {
					if v.Impact == "serious" || v.Impact == "critical" {
						var where []string
						for i, n := range v.Nodes {
							if i == 3 {
								where = append(where, fmt.Sprintf("and %d more", len(v.Nodes)-3))
								break
							}
							where = append(where, strings.Join(n.Target, " "))
						}
						bad = append(bad, fmt.Sprintf("%s (%s): %s — %s", v.ID, v.Impact, v.Help, strings.Join(where, "; ")))
					}
				}
				if len(bad) > 0 {
					t.Errorf("%s in the %s theme breaks accessibility rules:\n%s", path, theme, strings.Join(bad, "\n"))
				}
			})
		}
	}
}
