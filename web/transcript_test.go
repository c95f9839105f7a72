package web

import (
	"testing"

	"learn/sandbox"
)

func TestSplitReading(t *testing.T) {
	tests := []struct {
		name, reading    string
		head, text, note string
	}{
		{"a result quoting JSON", `A result: the model would see this text: "{ \"id\": \"A17\", \"item\": \"desk lamp\" }"`,
			"A result: the model would see this text:", `{ "id": "A17", "item": "desk lamp" }`, ""},
		{"a tool error with a note", `A tool error (isError: true): the model would see this text and can try again: "Unknown tool: x" (The Python SDK answers an unknown tool this way.)`,
			"A tool error (isError: true): the model would see this text and can try again:", "Unknown tool: x", "(The Python SDK answers an unknown tool this way.)"},
		{"no quote", "A protocol error (-32602 Invalid params): the model may never see this.",
			"A protocol error (-32602 Invalid params): the model may never see this.", "", ""},
		{"a broken quote stays whole", `A result: the model would see this text: "unterminated`,
			`A result: the model would see this text: "unterminated`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head, text, note := splitReading(tt.reading)
			if head != tt.head || text != tt.text || note != tt.note {
				t.Errorf("splitReading = %q, %q, %q; want %q, %q, %q", head, text, note, tt.head, tt.text, tt.note)
			}
		})
	}
}

func TestExchanges(t *testing.T) {
	ms := []sandbox.MCPMessage{
		{Call: "Z9", Direction: "request", Kind: "request", JSON: `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "lookup_order", "arguments": {"id": "Z9"}}}`},
		{Call: "Z9", Direction: "response", Kind: "tool error", JSON: `{}`, Reading: `A tool error (isError: true): the model would see this text and can try again: "No order \"Z9\""`},
		{Call: "list", Direction: "request", Kind: "request", JSON: `{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}`},
	}
	xs := exchanges(ms)
	if len(xs) != 2 {
		t.Fatalf("exchanges = %d, want 2: %+v", len(xs), xs)
	}
	if xs[0].Request != `tools/call lookup_order {"id":"Z9"}` || xs[0].Kind() != "tool error" || xs[0].Got.ModelText != `No order "Z9"` {
		t.Errorf("first exchange = %q %q %q", xs[0].Request, xs[0].Kind(), xs[0].Got.ModelText)
	}
	if xs[1].Request != "tools/list" || xs[1].Got != nil || xs[1].Kind() != "no response" {
		t.Errorf("second exchange = %+v, want tools/list with no response", xs[1])
	}
}
