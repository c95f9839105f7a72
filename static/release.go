//go:build release

package static

import "embed"

// A release build must carry the browser bundles, or its pages would lose
// their scripts (the code editor among them): this pattern makes the build
// fail when static/dist holds no bundle. `make build` builds them first.
//
//go:embed dist/*.js
var _ embed.FS
