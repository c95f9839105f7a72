package lessons

import (
	"embed"
	"io/fs"
)

// guideFiles is the authoring guide's examples: a course.yaml and one tiny
// lesson per widget and exercise kind. The guide page (/guide) shows each
// file beside the same file rendered, and the tests load and check these
// very files, so the guide cannot drift from the code.
//
//go:embed guide/*.md guide/course.yaml
var guideFiles embed.FS

// GuideFiles returns the guide's example course folder.
func GuideFiles() fs.FS {
	sub, err := fs.Sub(guideFiles, "guide")
	if err != nil {
		// fs.Sub fails only on an invalid path, and "guide" is a constant.
		panic(err)
	}
	return sub
}

// Guide loads the guide's examples as a course.
func Guide() (*Course, error) { return Load(GuideFiles()) }
