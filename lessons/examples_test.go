package lessons_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"learn/lessons"
	"learn/sandbox/mcpschema"
)

// The examples are validated against the repository's own copy of the MCP
// schema (package mcpschema), which the tests of that package prove
// accepts and rejects the same messages as the official schema; so these
// tests run on any clone.

// TestMCPExamples validates every json block of the built-in course that is
// marked "mcp=Definition" against that definition of the 2026-07-28 schema,
// and checks that every other json block is at least valid JSON.
func TestMCPExamples(t *testing.T) {
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatalf("load the built-in course:\n%v", err)
	}
	validated := 0
	for _, l := range course.Lessons {
		for _, ex := range l.Examples {
			if ex.Language != "json" {
				continue
			}
			name := l.File + ":" + strconv.Itoa(ex.Line)
			t.Run(name, func(t *testing.T) {
				if !json.Valid([]byte(ex.Code)) {
					t.Fatalf("%s: the json block is not valid JSON", name)
				}
				if ex.Schema == "" {
					return
				}
				inst, err := jsonschema.UnmarshalJSON(strings.NewReader(ex.Code))
				if err != nil {
					t.Fatal(err)
				}
				err = mcpschema.Validate(ex.Schema, inst)
				if errors.Is(err, mcpschema.ErrUnknownDefinition) {
					t.Fatalf("%s: mcp=%s is not a definition of the schema", name, ex.Schema)
				}
				if err != nil {
					t.Errorf("%s: the example does not validate as %s: %v", name, ex.Schema, err)
				}
			})
			if ex.Schema != "" {
				validated++
			}
		}
	}
	if validated < len(course.Lessons) {
		t.Errorf("only %d MCP examples are marked for validation across %d lessons; each lesson should show at least one", validated, len(course.Lessons))
	}
	t.Logf("validated %d MCP examples against the MCP %s schema", validated, mcpschema.Version)
}

// TestMCPSchemaRejects proves the validation above can fail: a result
// without resultType is not a 2026-07-28 CallToolResult.
func TestMCPSchemaRejects(t *testing.T) {
	bad, err := jsonschema.UnmarshalJSON(strings.NewReader(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := mcpschema.Validate("CallToolResultResponse", bad); err == nil {
		t.Fatal("a result without resultType validated; the schema check cannot fail")
	}
	if err := mcpschema.Validate("NoSuchDefinition", bad); !errors.Is(err, mcpschema.ErrUnknownDefinition) {
		t.Fatalf("an unknown definition gave %v, want ErrUnknownDefinition", err)
	}
}
