package mcpschema

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestValidateExplains(t *testing.T) {
	tests := []struct {
		name, def, inst string
		path, want      string
	}{
		{"result without resultType", "JSONRPCResponse", `{"jsonrpc":"2.0","id":8,"result":{"content":[],"isError":true}}`, "/result", `needs the member "resultType"`},
		{"code as a string", "JSONRPCResponse", `{"jsonrpc":"2.0","id":7,"error":{"code":"-32602","message":"m"}}`, "/error/code", "must be an integer, not a string"},
		{"wrong jsonrpc", "JSONRPCResponse", `{"jsonrpc":"1.0","id":7,"error":{"code":-32602,"message":"m"}}`, "/jsonrpc", `must be "2.0"`},
		{"no jsonrpc", "JSONRPCResponse", `{"id":7,"result":{"resultType":"complete"}}`, "", `needs the member "jsonrpc"`},
		{"neither result nor error", "JSONRPCResponse", `{"jsonrpc":"2.0","id":7}`, "", `needs one of the members "result" or "error"`},
		{"not an object", "JSONRPCResponse", `[1]`, "", "must be an object, not an array"},
		{"null id", "JSONRPCResponse", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"m"}}`, "/id", "must be an integer or a string, not null"},
		{"text block without text", "CallToolResult", `{"resultType":"complete","content":[{"type":"text"}]}`, "/content/0", `needs the member "text"`},
		{"text as a number", "CallToolResult", `{"resultType":"complete","content":[{"type":"text","text":5}]}`, "/content/0/text", "must be a string, not a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var inst any
			if err := json.Unmarshal([]byte(tt.inst), &inst); err != nil {
				t.Fatal(err)
			}
			err := Validate(tt.def, inst)
			var m *Mismatch
			if !errors.As(err, &m) {
				t.Fatalf("Validate = %v, want a *Mismatch", err)
			}
			if m.Path != tt.path || m.Want != tt.want {
				t.Errorf("Mismatch = %q %q, want %q %q", m.Path, m.Want, tt.path, tt.want)
			}
			if !strings.Contains(m.Error(), tt.def) {
				t.Errorf("Error() = %q does not name %s", m.Error(), tt.def)
			}
		})
	}
}

func TestValidateUnknownDefinition(t *testing.T) {
	if err := Validate("NoSuchThing", map[string]any{}); !errors.Is(err, ErrUnknownDefinition) {
		t.Errorf("Validate = %v, want ErrUnknownDefinition", err)
	}
	if Has("NoSuchThing") || !Has("JSONRPCResponse") {
		t.Error("Has is wrong")
	}
	if n := len(Definitions()); n < 100 {
		t.Errorf("%d definitions", n)
	}
}
