// Package mcpschema checks JSON values against the MCP 2026-07-28 schema.
//
// The schema is embedded as schema-2026-07-28.json: the official schema
// with every description and other prose keyword removed, so it holds
// structure only (types, required members, constants, references). The
// tests prove it accepts and rejects the same messages as the official
// file and regenerate it from that file with -update.
//
// The schema is compiled once, on first use, for every definition at once;
// afterwards it is only read, so Validate is safe for concurrent use.
package mcpschema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Version is the MCP version of the embedded schema.
const Version = "2026-07-28"

// File is the name of the embedded schema file.
const File = "schema-2026-07-28.json"

//go:embed schema-2026-07-28.json
var schemaJSON []byte

// ErrUnknownDefinition means the name given is no definition ($defs entry)
// of the schema. Test with errors.Is.
var ErrUnknownDefinition = errors.New("mcpschema: unknown definition")

// compiled holds every definition compiled; it never changes once built.
type compiled struct {
	defs map[string]*jsonschema.Schema
	err  error
}

var load = sync.OnceValue(func() compiled {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return compiled{err: fmt.Errorf("mcpschema: parse the embedded schema: %w", err)}
	}
	c := jsonschema.NewCompiler()
	const base = "mcp-" + Version + ".json"
	if err := c.AddResource(base, doc); err != nil {
		return compiled{err: fmt.Errorf("mcpschema: add the embedded schema: %w", err)}
	}
	defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
	out := compiled{defs: make(map[string]*jsonschema.Schema, len(defs))}
	for name := range defs {
		sch, err := c.Compile(base + "#/$defs/" + name)
		if err != nil {
			return compiled{err: fmt.Errorf("mcpschema: compile %s: %w", name, err)}
		}
		out.defs[name] = sch
	}
	return out
})

// Has reports whether def is a definition of the schema, such as
// "JSONRPCResponse" or "CallToolResult".
func Has(def string) bool {
	c := load()
	return c.err == nil && c.defs[def] != nil
}

// Definitions returns the names of every definition, sorted.
func Definitions() []string {
	c := load()
	names := make([]string, 0, len(c.defs))
	for n := range c.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Validate checks inst against the definition def. inst is a value as
// decoded by encoding/json (with or without UseNumber) or by
// jsonschema.UnmarshalJSON. It returns nil when inst fits, a *Mismatch
// when it does not, and an error matching ErrUnknownDefinition when def is
// not a definition.
func Validate(def string, inst any) error {
	c := load()
	if c.err != nil {
		return c.err
	}
	sch := c.defs[def]
	if sch == nil {
		return fmt.Errorf("%w %q", ErrUnknownDefinition, def)
	}
	err := sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	leaves := explain(ve)
	if len(leaves) == 0 {
		return &Mismatch{Definition: def, Want: "fit the definition"}
	}
	first := leaves[0]
	return &Mismatch{Definition: def, Path: pointer(first.InstanceLocation), Want: want(first.ErrorKind), More: len(leaves) - 1}
}

// Mismatch says where a value breaks a definition and what the schema wants
// there: the one failure that best explains it. For a value that fits none
// of several alternatives (a response that is neither a result nor an
// error), it follows the alternative the value came closest to.
type Mismatch struct {
	Definition string
	// Path is a JSON pointer to the offending value: "" for the whole
	// value, "/result/content/0/text" for a member deep inside.
	Path string
	// Want says in a plain phrase what the schema wants at Path, such as
	// `needs the member "resultType"` or "must be an integer, not a string".
	Want string
	// More counts further failures on the same alternative.
	More int
}

// Where names Path for a sentence: "at the top level" or "at /error/code".
func (m *Mismatch) Where() string {
	if m.Path == "" {
		return "at the top level"
	}
	return "at " + m.Path
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("mcpschema: not a valid %s: %s the value %s", m.Definition, m.Where(), m.Want)
}

// explain picks the leaf errors that best explain e: all causes of an
// "all of these" node, and of an "any of these" node only the alternative
// with the fewest failures, the deepest on a tie, the first after that.
func explain(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	switch e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.OneOf:
		var best [][]*jsonschema.ValidationError
		bestWeight, bestDepth := -1, -1
		for _, c := range e.Causes {
			leaves := explain(c)
			w, d := weight(leaves), depth(leaves)
			switch {
			case bestWeight < 0 || w < bestWeight || w == bestWeight && d > bestDepth:
				best, bestWeight, bestDepth = [][]*jsonschema.ValidationError{leaves}, w, d
			case w == bestWeight && d == bestDepth:
				best = append(best, leaves)
			}
		}
		if alt := eitherMember(best); alt != nil {
			return []*jsonschema.ValidationError{alt}
		}
		return best[0]
	}
	var all []*jsonschema.ValidationError
	for _, c := range e.Causes {
		all = append(all, explain(c)...)
	}
	return all
}

// eitherMember joins alternatives that each lack one member of the same
// object (a response with neither "result" nor "error") into one failure
// that names them all; nil if the alternatives are not all like that.
func eitherMember(alts [][]*jsonschema.ValidationError) *jsonschema.ValidationError {
	if len(alts) < 2 {
		return nil
	}
	var names []string
	for _, leaves := range alts {
		if len(leaves) != 1 {
			return nil
		}
		r, ok := leaves[0].ErrorKind.(*kind.Required)
		if !ok || len(r.Missing) != 1 || pointer(leaves[0].InstanceLocation) != pointer(alts[0][0].InstanceLocation) {
			return nil
		}
		if !slices.Contains(names, r.Missing[0]) {
			names = append(names, r.Missing[0])
		}
	}
	first := alts[0][0]
	return &jsonschema.ValidationError{SchemaURL: first.SchemaURL, InstanceLocation: first.InstanceLocation, ErrorKind: &missingOneOf{names}}
}

// missingOneOf is an object that lacks a member each alternative needs.
// It is a jsonschema.ErrorKind, whose interface asks for KeywordPath.
type missingOneOf struct{ names []string }

var _ jsonschema.ErrorKind = (*missingOneOf)(nil)

func (*missingOneOf) KeywordPath() []string { return []string{"anyOf"} }

func (k *missingOneOf) LocalizedString(*message.Printer) string {
	return "needs one of the members " + quoteList(k.names, "or")
}

// weight counts failures, each missing member as one.
func weight(leaves []*jsonschema.ValidationError) int {
	n := 0
	for _, l := range leaves {
		if r, ok := l.ErrorKind.(*kind.Required); ok {
			n += len(r.Missing)
			continue
		}
		n++
	}
	return n
}

func depth(leaves []*jsonschema.ValidationError) int {
	d := 0
	for _, l := range leaves {
		d = max(d, len(l.InstanceLocation))
	}
	return d
}

// pointer renders an instance location as a JSON pointer.
func pointer(loc []string) string {
	var b strings.Builder
	for _, tok := range loc {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(tok))
	}
	return b.String()
}

var printer = message.NewPrinter(language.English)

// want says what the schema wants, in a phrase that follows "the value".
func want(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Required:
		if len(k.Missing) == 1 {
			return fmt.Sprintf("needs the member %q", k.Missing[0])
		}
		return "needs the members " + quoteList(k.Missing, "and")
	case *kind.Type:
		var ws []string
		for _, w := range k.Want {
			ws = append(ws, article(w))
		}
		return fmt.Sprintf("must be %s, not %s", strings.Join(ws, " or "), article(k.Got))
	case *kind.Const:
		return "must be " + display(k.Want)
	case *kind.Enum:
		var ws []string
		for _, w := range k.Want {
			ws = append(ws, display(w))
		}
		return "must be one of " + strings.Join(ws, ", ")
	case *kind.AdditionalProperties:
		return "has members the schema does not allow: " + quoteList(k.Properties, "and")
	case *kind.FalseSchema:
		return "is not allowed here"
	case *missingOneOf:
		return k.LocalizedString(printer)
	}
	return "fails the schema: " + k.LocalizedString(printer)
}

func article(typ string) string {
	switch typ {
	case "null":
		return "null"
	case "integer", "object", "array":
		return "an " + typ
	}
	return "a " + typ
}

func display(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func quoteList(names []string, conj string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) <= 1 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " " + conj + " " + q[len(q)-1]
}
