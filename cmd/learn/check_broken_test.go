package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckBrokenCourses runs learn check on the fixture courses of
// testdata/broken, each with one mistake an author makes, and checks that
// each is reported on its line in the text and the JSON output. The
// exercise of a lesson with an error of its own does not run; in the
// others it does, so a failing solution shows its diff.
func TestCheckBrokenCourses(t *testing.T) {
	wasm := filepath.Join("..", "..", "node_modules", "@antonz", "python-wasi", "dist", "python.wasm")
	tests := []struct {
		course string
		want   []string // lines (or starts of lines) of the text output, in order
		json   problemJSON
	}{
		{"misspelt-block", []string{
			`01-sums.md:12: unknown block "clasify": did you mean "classify"? As written it shows as plain code and learners get no classify`,
		}, problemJSON{Line: 12, Message: `unknown block "clasify": did you mean "classify"? As written it shows as plain code and learners get no classify`}},
		{"yaml-mistake", []string{
			`01-sums.md:22: the classify block is not valid YAML: this line is not lined up with the list it belongs to: start every item of a list with "- " at the same indentation, and indent an item's other keys like its first one`,
		}, problemJSON{Line: 22, Message: `the classify block is not valid YAML: this line is not lined up with the list it belongs to: start every item of a list with "- " at the same indentation, and indent an item's other keys like its first one`}},
		{"missing-asset", []string{
			"01-sums.md:12: the image images/sum.svg is not in the course folder: add the file, or correct its name (names are case-sensitive)",
		}, problemJSON{Line: 12, Message: "the image images/sum.svg is not in the course folder: add the file, or correct its name (names are case-sensitive)"}},
		{"outside-asset", []string{
			"01-sums.md:12: the image ../sum.svg is outside the course folder: put the file in the folder, or a folder inside it, and give its path from there, such as images/diagram.svg or files/notes.pdf",
			"01-sums.md:14: the download ../../sums.pdf is outside the course folder: ",
		}, problemJSON{Line: 12, Message: "the image ../sum.svg is outside the course folder: put the file in the folder, or a folder inside it, and give its path from there, such as images/diagram.svg or files/notes.pdf"}},
		{"failing-solution", []string{
			`01-sums.md:12: exercise sum: the reference solution fails case "Small numbers" (wrong output): `,
			"    - expected", "    + actual", "    - 3", "    + 2",
			`01-sums.md:12: exercise sum: the reference solution fails case "Negative numbers" (wrong output): `,
			"    - expected", "    + actual", "    - -5", "    + 6",
		}, problemJSON{Line: 12, Message: `exercise sum: the reference solution fails case "Small numbers" (wrong output): Line 1 of your output differs from the expected output: compare them in the diff and fix your code.`,
			Detail: "- expected\n+ actual\n- 3\n+ 2\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.course, func(t *testing.T) {
			dir := filepath.Join("testdata", "broken", tt.course)
			var out, errOut bytes.Buffer
			if code := run(context.Background(), []string{"check", "--python-wasm", wasm, dir}, &out, &errOut); code != 1 {
				t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errOut.String())
			}
			lines := strings.Split(out.String(), "\n")
			if len(lines) < len(tt.want)+1 {
				t.Fatalf("output has %d lines, want %d and a summary:\n%s", len(lines), len(tt.want), out.String())
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(lines[i], w) {
					t.Errorf("line %d = %q, want it to start %q", i+1, lines[i], w)
				}
			}
			out.Reset()
			run(context.Background(), []string{"check", "--json", "--python-wasm", wasm, dir}, &out, &errOut)
			var first problemJSON
			if err := json.Unmarshal([]byte(strings.SplitN(out.String(), "\n", 2)[0]), &first); err != nil {
				t.Fatalf("first JSON line: %v\n%s", err, out.String())
			}
			tt.json.File, tt.json.Severity = filepath.Join(dir, "01-sums.md"), "error"
			if first != tt.json {
				t.Errorf("JSON problem = %+v\nwant %+v", first, tt.json)
			}
		})
	}
}
