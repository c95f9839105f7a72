package lessons

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// mcpSchemaPath is the official MCP schema the course teaches, kept in the
// shared reference folder beside the repository. LEARN_MCP_SCHEMA overrides it.
func mcpSchemaPath() string {
	if p := os.Getenv("LEARN_MCP_SCHEMA"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "shared", "reference", "mcp-schema", "schema-2026-07-28.json")
}

// TestMCPExamples validates every json block of the built-in course that is
// marked "mcp=Definition" against that definition of the 2026-07-28 schema,
// and checks that every other json block is at least valid JSON.
func TestMCPExamples(t *testing.T) {
	path := mcpSchemaPath()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("open the MCP schema (set LEARN_MCP_SCHEMA to its path): %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(f)
	f.Close()
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	const base = "mcp-schema-2026-07-28.json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(base, doc); err != nil {
		t.Fatal(err)
	}
	course, err := Load(BuiltIn())
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
				sch, err := c.Compile(base + "#/$defs/" + ex.Schema)
				if err != nil {
					t.Fatalf("%s: mcp=%s is not a definition of the schema: %v", name, ex.Schema, err)
				}
				inst, err := jsonschema.UnmarshalJSON(strings.NewReader(ex.Code))
				if err != nil {
					t.Fatal(err)
				}
				if err := sch.Validate(inst); err != nil {
					t.Errorf("%s: the example does not validate as %s:\n%v", name, ex.Schema, err)
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
	t.Logf("validated %d MCP examples against %s", validated, path)
}

// TestMCPSchemaRejects proves the validation above can fail: a result
// without resultType is not a 2026-07-28 CallToolResult.
func TestMCPSchemaRejects(t *testing.T) {
	f, err := os.Open(mcpSchemaPath())
	if err != nil {
		t.Fatalf("open the MCP schema: %v", err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("s.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("s.json#/$defs/CallToolResultResponse")
	if err != nil {
		t.Fatal(err)
	}
	bad, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"x"}]}}`))
	if err := sch.Validate(bad); err == nil {
		t.Fatal("a result without resultType validated; the schema check cannot fail")
	}
}
