package mcpschema

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"learn/internal/reference"
)

var update = flag.Bool("update", false, "rewrite "+File+" from the reference schema")

// readReference reads the official 2026-07-28 schema from the shared
// reference folder beside the repository (LEARN_MCP_SCHEMA overrides its
// path); without it the test skips, or fails under CI=true.
func readReference(t *testing.T) []byte {
	t.Helper()
	path := os.Getenv("LEARN_MCP_SCHEMA")
	if path == "" {
		path = reference.Path(t, "mcp-schema", "schema-2026-07-28.json")
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read the reference MCP schema: %v", err)
	}
	return b
}

// proseKeywords are the annotation keywords whose values are prose.
var proseKeywords = map[string]bool{"description": true, "title": true, "$comment": true, "examples": true}

// schemaMaps are keywords whose value maps names to subschemas; the names
// are data (a property may be called "description"), the values schemas.
var schemaMaps = map[string]bool{"$defs": true, "definitions": true, "properties": true, "patternProperties": true, "dependentSchemas": true}

// schemaLists are keywords whose value is a list of subschemas.
var schemaLists = map[string]bool{"anyOf": true, "allOf": true, "oneOf": true, "prefixItems": true}

// schemaValues are keywords whose value is one subschema.
var schemaValues = map[string]bool{"items": true, "additionalProperties": true, "additionalItems": true, "not": true, "if": true, "then": true, "else": true,
	"contains": true, "propertyNames": true, "unevaluatedProperties": true, "unevaluatedItems": true, "contentSchema": true}

// strip returns a copy of the schema s without prose keywords, walking only
// schema positions so that data (const, enum, required, property names) is
// kept as it is.
func strip(s any) any {
	obj, ok := s.(map[string]any)
	if !ok {
		return s // true, false
	}
	out := map[string]any{}
	for k, v := range obj {
		switch {
		case proseKeywords[k]:
		case schemaMaps[k]:
			m := map[string]any{}
			for name, sub := range v.(map[string]any) {
				m[name] = strip(sub)
			}
			out[k] = m
		case schemaLists[k]:
			var l []any
			for _, sub := range v.([]any) {
				l = append(l, strip(sub))
			}
			out[k] = l
		case schemaValues[k]:
			out[k] = strip(v)
		default:
			out[k] = v
		}
	}
	return out
}

// stripped renders the reference schema without prose, as committed.
func stripped(t *testing.T, ref []byte) []byte {
	t.Helper()
	var doc any
	if err := json.Unmarshal(ref, &doc); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(strip(doc)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestStrippedCopy checks that the embedded schema is the reference schema
// with its prose removed, nothing more and nothing less. Run with -update to
// rewrite it after the reference changes.
func TestStrippedCopy(t *testing.T) {
	want := stripped(t, readReference(t))
	if *update {
		if err := os.WriteFile(File, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(File)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not the stripped reference schema: run go test ./sandbox/mcpschema -run TestStrippedCopy -update", File)
	}
	if !bytes.Equal(got, schemaJSON) {
		t.Fatalf("the embedded schema differs from %s on disk: rebuild", File)
	}
}

// TestNoProse checks that no prose keyword is left in the embedded copy
// and that no string in it reads like a sentence.
func TestNoProse(t *testing.T) {
	var doc any
	if err := json.Unmarshal(schemaJSON, &doc); err != nil {
		t.Fatal(err)
	}
	var data func(v any)
	data = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, sub := range v {
				data(sub)
			}
		case []any:
			for _, sub := range v {
				data(sub)
			}
		case string:
			if strings.Count(v, " ") >= 2 {
				t.Errorf("a string that reads like prose is left in the copy: %q", v)
			}
		}
	}
	var schema func(v any)
	schema = func(v any) {
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		for k, sub := range obj {
			switch {
			case proseKeywords[k]:
				t.Errorf("prose keyword %q is left in the copy", k)
			case schemaMaps[k]:
				for _, s := range sub.(map[string]any) {
					schema(s)
				}
			case schemaLists[k]:
				for _, s := range sub.([]any) {
					schema(s)
				}
			case schemaValues[k]:
				schema(sub)
			default:
				data(sub)
			}
		}
	}
	schema(doc)
}

// messages are instances of the definitions the exercises use, valid and
// invalid, on which the stripped copy and the reference must agree.
var messages = []struct {
	name, def, inst string
	valid           bool
}{
	{"error response", "JSONRPCResponse", `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool: x."}}`, true},
	{"error response with data", "JSONRPCResponse", `{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"m","data":{"uri":"file:///x"}}}`, true},
	{"error response without id", "JSONRPCErrorResponse", `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error."}}`, true},
	{"tool error result", "JSONRPCResponse", `{"jsonrpc":"2.0","id":8,"result":{"resultType":"complete","content":[{"type":"text","text":"Bad date."}],"isError":true}}`, true},
	{"tool error result, typed", "CallToolResultResponse", `{"jsonrpc":"2.0","id":8,"result":{"resultType":"complete","content":[{"type":"text","text":"Bad date."}],"isError":true}}`, true},
	{"call tool result", "CallToolResult", `{"resultType":"complete","content":[{"type":"text","text":"ok"}],"structuredContent":{"t":21}}`, true},
	{"version error", "UnsupportedProtocolVersionError", `{"jsonrpc":"2.0","id":52,"error":{"code":-32022,"message":"m","data":{"supported":["2026-07-28"],"requested":"2024-01-01"}}}`, true},
	{"capability error", "MissingRequiredClientCapabilityError", `{"jsonrpc":"2.0","id":51,"error":{"code":-32021,"message":"m","data":{"requiredCapabilities":{"sampling":{}}}}}`, true},
	{"tool with description property", "Tool", `{"name":"get_weather","description":"d","inputSchema":{"type":"object"}}`, true},
	{"result without resultType", "JSONRPCResponse", `{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"x"}],"isError":true}}`, false},
	{"code as a string", "JSONRPCResponse", `{"jsonrpc":"2.0","id":7,"error":{"code":"-32602","message":"m"}}`, false},
	{"no message", "JSONRPCResponse", `{"jsonrpc":"2.0","id":7,"error":{"code":-32602}}`, false},
	{"wrong jsonrpc", "JSONRPCResponse", `{"jsonrpc":"1.0","id":7,"error":{"code":-32602,"message":"m"}}`, false},
	{"null id", "JSONRPCResponse", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}`, false},
	{"neither result nor error", "JSONRPCResponse", `{"jsonrpc":"2.0","id":7}`, false},
	{"not an object", "JSONRPCResponse", `[1,2]`, false},
	{"text block without text", "CallToolResult", `{"resultType":"complete","content":[{"type":"text"}],"isError":true}`, false},
	{"isError as a string", "CallToolResult", `{"resultType":"complete","content":[],"isError":"true"}`, false},
	{"version error without data", "UnsupportedProtocolVersionError", `{"jsonrpc":"2.0","id":52,"error":{"code":-32022,"message":"m"}}`, false},
	{"tool without name", "Tool", `{"description":"d","inputSchema":{"type":"object"}}`, false},
}

// TestSameVerdicts proves the stripped copy accepts and rejects the same
// instances as the reference schema.
func TestSameVerdicts(t *testing.T) {
	refDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(readReference(t)))
	if err != nil {
		t.Fatal(err)
	}
	rc := jsonschema.NewCompiler()
	if err := rc.AddResource("reference.json", refDoc); err != nil {
		t.Fatal(err)
	}
	for _, tt := range messages {
		t.Run(tt.name, func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tt.inst))
			if err != nil {
				t.Fatal(err)
			}
			ref, err := rc.Compile("reference.json#/$defs/" + tt.def)
			if err != nil {
				t.Fatal(err)
			}
			refErr := ref.Validate(inst)
			ourErr := Validate(tt.def, inst)
			if (refErr == nil) != tt.valid {
				t.Errorf("the reference says valid=%v, the table says %v: %v", refErr == nil, tt.valid, refErr)
			}
			if (ourErr == nil) != (refErr == nil) {
				t.Errorf("the stripped copy says %v, the reference %v", ourErr, refErr)
			}
		})
	}
}
