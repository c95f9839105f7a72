package quiz

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Problem is one authoring error in a widget block.
//
// Path is a YAML path into the block such as "questions[2].options" (empty for
// the block as a whole). Line is the 1-based line inside the YAML body where
// the problem sits, or 0 when it is not known (Validate on a value built in Go
// has no lines; Decode fills them in). The lessons package adds the line of
// the opening fence to get a line in the markdown file. Message says what is
// wrong and what a valid value looks like.
type Problem struct {
	Path    string
	Line    int
	Message string
}

// String renders the problem as "line 12: questions[2].options: message",
// leaving out the parts that are unknown.
func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Widget is a decoded interactive block: a *Classify, an *Annotate or a *Quiz.
type Widget interface {
	// Kind is the block's info string: KindClassify, KindAnnotate or KindQuiz.
	Kind() string
	// WidgetID is the author's id, unique within a lesson.
	WidgetID() string
	// Validate reports every authoring error; nil means the widget is valid.
	Validate() []Problem
}

// The info strings of the fenced blocks this package decodes.
const (
	KindClassify = "classify"
	KindAnnotate = "annotate"
	KindQuiz     = "quiz"
)

// IsKind reports whether an info string names a widget this package decodes.
func IsKind(kind string) bool {
	return kind == KindClassify || kind == KindAnnotate || kind == KindQuiz
}

// Decode turns the YAML body of a fenced block into a widget and validates it.
//
// kind is the block's info string. node is the parsed body (a document node or
// its mapping). Decoding is strict: a key the widget does not know, such as a
// misspelt "readonlyHint", is a Problem naming the valid keys. Problems carry
// the line in the body where they were found. The widget is returned even when
// there are problems, so a caller may show what it could read; it is nil only
// when the body could not be read at all. A widget is fit to serve only when
// the problems are empty.
func Decode(kind string, node *yaml.Node) (Widget, []Problem) {
	var w Widget
	switch kind {
	case KindClassify:
		w = &Classify{}
	case KindAnnotate:
		w = &Annotate{}
	case KindQuiz:
		w = &Quiz{}
	default:
		return nil, []Problem{{Message: fmt.Sprintf("unknown widget %q; the widgets are classify, annotate and quiz", kind)}}
	}
	if node == nil {
		return nil, []Problem{{Message: "the block is empty; write the widget as YAML, starting with id:"}}
	}
	root := node
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, []Problem{{Line: root.Line, Message: "the block is empty; write the widget as YAML, starting with id:"}}
		}
		root = root.Content[0]
	}
	problems := checkKeys(root, reflect.TypeOf(w).Elem(), "")
	if len(problems) > 0 {
		return nil, problems
	}
	if err := root.Decode(w); err != nil {
		return nil, yamlProblems(err, root.Line)
	}
	for _, p := range w.Validate() {
		if p.Line == 0 {
			p.Line = lineOf(root, p.Path)
		}
		problems = append(problems, p)
	}
	return w, problems
}

// DecodeString parses src as YAML and decodes it like Decode. It is meant for
// tests and tools; lines count from 1 at the first line of src.
func DecodeString(kind, src string) (Widget, []Problem) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		return nil, yamlProblems(err, 0)
	}
	return Decode(kind, &n)
}

var yamlLineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// yamlProblems turns an error from the yaml package into problems with lines.
func yamlProblems(err error, fallbackLine int) []Problem {
	var msgs []string
	if te, ok := err.(*yaml.TypeError); ok {
		msgs = te.Errors
	} else {
		msgs = []string{err.Error()}
	}
	var ps []Problem
	for _, m := range msgs {
		p := Problem{Line: fallbackLine, Message: strings.TrimPrefix(m, "yaml: ")}
		if sm := yamlLineRE.FindStringSubmatch(m); sm != nil {
			p.Line, _ = strconv.Atoi(sm[1])
			p.Message = sm[2]
		}
		if strings.Contains(p.Message, "mapping values are not allowed") {
			p.Message += " (a plain value may not contain \": \"; put the text in quotes or use a comma)"
		}
		if strings.Contains(p.Message, "cannot unmarshal") {
			p.Message += " (check the value's type: text, a number, true/false, a list or a mapping)"
		}
		ps = append(ps, p)
	}
	return ps
}

// checkKeys walks node alongside the Go type t and reports every mapping key
// that has no field, every mapping where a list is wanted and the reverse.
// yaml.Node.Decode cannot be made strict, so this is the strict part.
func checkKeys(node *yaml.Node, t reflect.Type, path string) []Problem {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if node.Kind == yaml.AliasNode && node.Alias != nil {
		node = node.Alias
	}
	var ps []Problem
	switch t.Kind() {
	case reflect.Struct:
		if node.Kind != yaml.MappingNode {
			if node.Tag == "!!null" {
				return nil
			}
			return []Problem{{Path: path, Line: node.Line, Message: fmt.Sprintf("expected a mapping of keys (%s), found %s", strings.Join(yamlKeys(t), ", "), describeNode(node))}}
		}
		fields := map[string]reflect.Type{}
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name := strings.Split(f.Tag.Get("yaml"), ",")[0]
			if name != "" && name != "-" {
				fields[name] = f.Type
			}
		}
		seen := map[string]bool{}
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			kp := joinPath(path, k.Value)
			if seen[k.Value] {
				ps = append(ps, Problem{Path: kp, Line: k.Line, Message: fmt.Sprintf("key %q appears twice; keep one", k.Value)})
				continue
			}
			seen[k.Value] = true
			ft, ok := fields[k.Value]
			if !ok {
				ps = append(ps, Problem{Path: kp, Line: k.Line, Message: unknownKeyMessage(k.Value, yamlKeys(t))})
				continue
			}
			ps = append(ps, checkKeys(v, ft, kp)...)
		}
	case reflect.Slice:
		if node.Kind != yaml.SequenceNode {
			if node.Tag == "!!null" {
				return nil
			}
			return []Problem{{Path: path, Line: node.Line, Message: fmt.Sprintf("expected a list (items starting with \"- \"), found %s", describeNode(node))}}
		}
		for i, item := range node.Content {
			ps = append(ps, checkKeys(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
	}
	return ps
}

func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	default:
		return fmt.Sprintf("%q", n.Value)
	}
}

func unknownKeyMessage(key string, valid []string) string {
	msg := fmt.Sprintf("unknown key %q", key)
	for _, v := range valid {
		if strings.EqualFold(v, key) {
			msg += fmt.Sprintf("; did you mean %q? (keys are case-sensitive)", v)
			return msg + "; valid keys here: " + strings.Join(valid, ", ")
		}
	}
	return msg + "; valid keys here: " + strings.Join(valid, ", ")
}

func yamlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		name := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func indexPath(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }

// lineOf resolves a path such as "questions[2].options" in node and returns
// the line of the deepest part that exists (a key's line for a key).
func lineOf(node *yaml.Node, path string) int {
	line := node.Line
	if path == "" {
		return line
	}
	cur := node
	for _, seg := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(seg, "[")
		if name != "" {
			if cur.Kind != yaml.MappingNode {
				return line
			}
			found := false
			for i := 0; i+1 < len(cur.Content); i += 2 {
				if cur.Content[i].Value == name {
					line = cur.Content[i].Line
					cur = cur.Content[i+1]
					found = true
					break
				}
			}
			if !found {
				return line
			}
		}
		for rest != "" {
			idx, after, _ := strings.Cut(rest, "]")
			rest = strings.TrimPrefix(after, "[")
			i, err := strconv.Atoi(idx)
			if err != nil || cur.Kind != yaml.SequenceNode || i < 0 || i >= len(cur.Content) {
				return line
			}
			cur = cur.Content[i]
			line = cur.Line
		}
	}
	return line
}

var idRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// checkID reports a missing or malformed id. Ids appear in form fields and
// XP award keys, so they are limited to letters, digits, '-', '_' and '.'.
func checkID(path, id, example string) []Problem {
	if id == "" {
		return []Problem{{Path: path, Message: fmt.Sprintf("missing; give an id such as %q", example)}}
	}
	if !idRE.MatchString(id) {
		return []Problem{{Path: path, Message: fmt.Sprintf("%q is not a valid id; use 1 to 64 letters, digits, '-', '_' or '.', starting with a letter or digit, such as %q", id, example)}}
	}
	return nil
}

func checkText(path, text, what string) []Problem {
	if strings.TrimSpace(text) == "" {
		return []Problem{{Path: path, Message: "missing or empty; write " + what}}
	}
	return nil
}

// dupIDs reports ids that occur more than once in a list.
func dupIDs(path, key string, ids []string) []Problem {
	first := map[string]int{}
	var ps []Problem
	for i, id := range ids {
		if id == "" {
			continue
		}
		if j, ok := first[id]; ok {
			ps = append(ps, Problem{Path: joinPath(indexPath(path, i), key), Message: fmt.Sprintf("%q is already used by %s; every %s must be unique", id, indexPath(path, j), key)})
			continue
		}
		first[id] = i
	}
	return ps
}
