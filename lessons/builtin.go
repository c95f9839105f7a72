package lessons

import (
	"embed"
	"io/fs"
)

//go:embed course/*.md course/course.yaml course/images/*.svg
var builtinFiles embed.FS

// BuiltIn returns the course that ships inside the binary.
func BuiltIn() fs.FS {
	sub, err := fs.Sub(builtinFiles, "course")
	if err != nil {
		// fs.Sub fails only on an invalid path, and "course" is a constant.
		panic(err)
	}
	return sub
}
