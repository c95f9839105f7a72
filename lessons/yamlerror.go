package lessons

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"
)

// YAML errors are told to authors in plain words with one line number, the
// file's. The parser names the line where the block around a mistake
// starts, and in its own words ("did not find expected '-' indicator"), so
// a syntax error is placed again by parsing ever shorter starts of the
// text: the mistake is on the line after the longest start that parses.

// yamlSyntax explains the syntax error err that parsing src gave. It
// returns the 1-based line of src the mistake is on and what to do, in
// plain words.
func yamlSyntax(src []byte, err error) (line int, msg string) {
	return mistakeLine(src, err), plainYAML(err)
}

// mistakeLine returns the 1-based line of src after the longest start of
// whole lines that parses as YAML (a quote never closed is so found on
// the line that opens it).
func mistakeLine(src []byte, err error) int {
	lines := bytes.SplitAfter(src, []byte("\n"))
	end := len(src)
	for n := len(lines) - 1; n >= 0; n-- {
		end -= len(lines[n])
		var node yaml.Node
		if yaml.Unmarshal(src[:end], &node) == nil {
			return n + 1
		}
	}
	return yamlErrorLine(err, 0)
}

// yamlAdvice maps the parser's words to what they mean for an author.
var yamlAdvice = []struct{ parser, plain string }{
	{"did not find expected '-' indicator", `this line is not lined up with the list it belongs to: start every item of a list with "- " at the same indentation, and indent an item's other keys like its first one`},
	{"did not find expected key", "this line is indented differently from the keys around it: give the keys of one mapping the same indentation, with spaces"},
	{"mapping values are not allowed in this context", `this line holds a second ": ", or its key is indented too far: put a value that contains ": " in quotes, such as "text: \"Note: it failed\""`},
	{"found a tab character", "this line is indented with a tab: YAML indents with spaces only"},
	{"found character that cannot start any token", "this line holds a character no YAML value can start with (a tab, @ or `): indent with spaces and put a value that starts with @ or ` in quotes"},
	{"could not find expected ':'", `this line has a key without a colon: write "key: value"`},
	{"block sequence entries are not allowed in this context", `a list item "- " stands where a value was expected: put the list on the lines below its key, indented`},
	{"did not find expected alphabetic or numeric character", "this value starts with * or &, which YAML reads as an alias or an anchor: put it in quotes"},
	{"found unexpected end of stream", "a quoted value is not closed: add the closing quote"},
	{"found unknown escape character", `a double-quoted value holds a backslash YAML does not know: write \\ for one backslash, or use single quotes`},
	{"did not find expected ',' or ']'", "a list in [brackets] is not closed: add the ] or write the list one \"- \" item a line"},
	{"did not find expected ',' or '}'", "a mapping in {braces} is not closed: add the } or write it one key a line"},
	{"did not find expected node content", "a value is missing or starts with a character YAML reserves (such as %, @ or a lone -): write the value, in quotes if it starts with one of those"},
	{"did not find expected comment or line break", "this line goes on after a value that should end it (such as after a closing quote): put the whole value in quotes"},
}

// plainYAML says in plain words what a YAML syntax error means and how to
// fix it; an error it does not know keeps the parser's words, without the
// line the problem already gives.
func plainYAML(err error) string {
	text := err.Error()
	for _, a := range yamlAdvice {
		if strings.Contains(text, a.parser) {
			return a.plain
		}
	}
	return "not valid YAML (" + yamlLinePrefix.ReplaceAllString(strings.ReplaceAll(text, "yaml: ", ""), "") + "): check the indentation (spaces only) and put values with : # or quotes inside quotes"
}

// yamlLinePrefix matches the "line N: " the parser puts before a message.
var yamlLinePrefix = regexp.MustCompile(`line \d+: `)

// yamlLineRef matches "line N" anywhere in a parser message.
var yamlLineRef = regexp.MustCompile(`line (\d+)`)

// yamlErrorText returns the messages of a YAML decoding error (wrong types,
// unknown fields) joined by "; " without the library's prefixes. The first
// message's line is dropped, since the problem's line is that one; a later
// message's line becomes the file's by adding offset.
func yamlErrorText(err error, offset int) string {
	s := strings.ReplaceAll(err.Error(), "yaml: ", "")
	s = strings.ReplaceAll(s, "unmarshal errors:\n  ", "")
	parts := strings.Split(s, "\n  ")
	for i, p := range parts {
		if i == 0 {
			parts[i] = strings.TrimPrefix(p, yamlLinePrefix.FindString(p))
			continue
		}
		parts[i] = yamlLineRef.ReplaceAllStringFunc(p, func(m string) string {
			var n int
			fmt.Sscanf(m, "line %d", &n)
			return fmt.Sprintf("line %d", n+offset)
		})
	}
	return strings.Join(parts, "; ")
}
