package lessons

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"learn/internal/reference"
)

// shingleWords is the length of word runs compared between the course and
// the reference: a run this long shared word for word is a copied sentence,
// not a shared term.
const shingleWords = 10

var fencedCode = regexp.MustCompile("(?ms)^```.*?^```")

// webAddress is an http or https address: a lesson's sources cite the
// reference's public addresses as they are, and an address is no sentence.
var webAddress = regexp.MustCompile(`https?://\S+`)

var wordPattern = regexp.MustCompile(`[a-z0-9]+(?:['’][a-z]+)?`)

func words(s string) []string { return wordPattern.FindAllString(strings.ToLower(s), -1) }

// TestCourseIsInOwnWords fails when any run of shingleWords words of the
// reference documents appears in a lesson: the course teaches the facts in
// its own words and copies no sentence.
func TestCourseIsInOwnWords(t *testing.T) {
	refDir := reference.Path(t)
	var refs []string
	for _, glob := range []string{"seeds/*.txt", "*.md"} {
		paths, err := filepath.Glob(filepath.Join(refDir, glob))
		if err != nil {
			t.Fatal(err)
		}
		refs = append(refs, paths...)
	}
	if len(refs) < 3 {
		t.Fatalf("found %d reference documents under %s; the shared reference folder must sit beside the repository", len(refs), refDir)
	}
	shingles := map[string]string{}
	for _, p := range refs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		w := words(string(b))
		for i := 0; i+shingleWords <= len(w); i++ {
			shingles[strings.Join(w[i:i+shingleWords], " ")] = filepath.Base(p)
		}
	}
	names, err := fs.Glob(BuiltIn(), "*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := fs.ReadFile(BuiltIn(), name)
		if err != nil {
			t.Fatal(err)
		}
		// Code is left out, since an import line is the same everywhere,
		// and so are addresses (sources cite them). Only the prose must be
		// the course's own.
		w := words(webAddress.ReplaceAllString(fencedCode.ReplaceAllString(string(b), ""), ""))
		for i := 0; i+shingleWords <= len(w); i++ {
			run := strings.Join(w[i:i+shingleWords], " ")
			if ref, ok := shingles[run]; ok {
				t.Errorf("%s repeats %q word for word from %s: say it in the course's own words", name, run, ref)
				i += shingleWords - 1
			}
		}
	}
}
