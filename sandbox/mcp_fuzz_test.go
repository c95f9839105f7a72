package sandbox

import (
	"encoding/json"
	"testing"
)

// FuzzJudgeResponse feeds the MCP response judge arbitrary bytes as the
// learner server's answer to each kind of host call: it may not panic,
// every verdict is passed or wrong output with a message, and only a
// well-formed JSON-RPC response with the request's id can pass.
func FuzzJudgeResponse(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":"1","result":{"content":[{"type":"text","text":"Order A1 ships today"}]}}`,
		`{"jsonrpc":"2.0","id":"1","result":{"content":[{"type":"text","text":"No order Z9; ids look like A1"}],"isError":true}}`,
		`{"jsonrpc":"2.0","id":"1","error":{"code":-32602,"message":"Unknown tool: fly"}}`,
		`{"jsonrpc":"2.0","id":"1","result":{"tools":[{"name":"lookup","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","id":"1","result":{"content":"x","structuredContent":[1]}}`,
		`not json`, ``, `null`, `[]`,
	} {
		f.Add([]byte(seed))
	}
	calls := []MCPCall{
		{Name: "result", Tool: "lookup", Expect: ExpectResult, TextContains: []string{"A1"}, StructuredKeys: []string{"status"}},
		{Name: "tool error", Tool: "lookup", Expect: ExpectToolError, TextContains: []string{"Z9"}},
		{Name: "protocol error", Tool: "fly", Expect: ExpectProtocolError, Code: -32602},
		{Name: "list", Method: MethodToolsList, Hints: map[string]map[string]bool{"lookup": {"readOnlyHint": true}}},
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, c := range calls {
			msg, verdict, text := judgeResponse(c, "1", raw)
			switch verdict {
			case VerdictPassed:
				if !jsonObjectWithID(raw, `"1"`) {
					t.Errorf("%s: passed a response that is not a JSON-RPC answer to id \"1\": %q", c.Name, raw)
				}
			case VerdictWrongOutput:
				if text == "" {
					t.Errorf("%s: a wrong answer without a message", c.Name)
				}
			default:
				t.Errorf("%s: verdict %q", c.Name, verdict)
			}
			if verdict == VerdictPassed && (msg.JSON == "" || msg.Kind == "invalid") {
				t.Errorf("%s: a passing answer shown as %q: %q", c.Name, msg.Kind, msg.JSON)
			}
		}
	})
}

// jsonObjectWithID reports whether raw is a JSON object whose id member is
// exactly id (as JSON).
func jsonObjectWithID(raw []byte, id string) bool {
	var v struct {
		ID json.RawMessage `json:"id"`
	}
	return json.Unmarshal(raw, &v) == nil && string(v.ID) == id
}
