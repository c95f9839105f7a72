package sandbox

import (
	"strings"
	"testing"
)

func TestSameJSON(t *testing.T) {
	tests := []struct {
		name             string
		expected, actual string
		want             bool
	}{
		{"spacing and key order", `{"a": 1, "b": [true, null]}`, "{\"b\":[true,null],\n\"a\":1}\n", true},
		{"number spellings", `{"id": 7, "x": 0.5}`, `{"id": 7.0, "x": 5e-1}`, true},
		{"escapes", `{"t": "Le panier est vidé <ok>"}`, `{"t": "Le panier est vid\u00e9 \u003cok\u003e"}`, true},
		{"different number", `{"id": 7}`, `{"id": 8}`, false},
		{"string is not a number", `{"id": 7}`, `{"id": "7"}`, false},
		{"array order counts", `[1, 2]`, `[2, 1]`, false},
		{"extra member", `{"a": 1}`, `{"a": 1, "b": 2}`, false},
		{"two values", `{"a": 1}`, `{"a": 1}{"a": 1}`, false},
		{"not JSON", `{"a": 1}`, `{'a': 1}`, false},
		{"huge exponent", `{"a": 1}`, `{"a": 1e999999999}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Same(tt.expected, tt.actual, CompareJSON); got != tt.want {
				t.Errorf("Same(%q, %q, json) = %v", tt.expected, tt.actual, got)
			}
		})
	}
}

func TestCanonicalNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"7", "+7e1"}, {"7.0", "+7e1"}, {"70e-1", "+7e1"}, {"0.007", "+7e-2"}, {"-32602", "-32602e5"},
		{"0", "0"}, {"-0.0", "0"}, {"1E+2", "+1e3"}, {"100", "+1e3"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got, ok := canonicalNumber(tt.in); !ok || got != tt.want {
				t.Errorf("canonicalNumber(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestJudgeJSON(t *testing.T) {
	l := DefaultConfig().limits()
	const errorResponse = `{"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "Unknown tool: fetch_weathr."}}`
	const toolError = `{"jsonrpc": "2.0", "id": 8, "result": {"resultType": "complete", "content": [{"type": "text", "text": "Bad date."}], "isError": true}}`
	tests := []struct {
		name     string
		expected string
		schema   string
		out      string
		verdict  Verdict
		message  []string // parts of Message
		diff     bool
	}{
		{"passes", errorResponse, "JSONRPCResponse", `{"id":7,"error":{"message":"Unknown tool: fetch_weathr.","code":-32602},"jsonrpc":"2.0"}` + "\n", VerdictPassed, []string{"Passed."}, false},
		{"passes indented", toolError, "JSONRPCResponse", "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 8,\n  \"result\": {\"isError\": true, \"content\": [{\"text\": \"Bad date.\", \"type\": \"text\"}], \"resultType\": \"complete\"}\n}\n", VerdictPassed, []string{"Passed."}, false},
		{"printed nothing", errorResponse, "JSONRPCResponse", "", VerdictWrongOutput, []string{"printed nothing", "json.dumps"}, false},
		{"a Python dict", errorResponse, "JSONRPCResponse", "{'jsonrpc': '2.0', 'id': 7}\n", VerdictWrongOutput,
			[]string{"not valid JSON", "line 1, column 2", "{⟨here⟩'jsonrpc'", "double quotes", "json.dumps"}, false},
		{"Python's True", toolError, "JSONRPCResponse", `{"jsonrpc": "2.0", "id": 8, "result": {"isError": True}}`, VerdictWrongOutput,
			[]string{"line 1, column 51", "true, false and null"}, false},
		{"neither result nor error", errorResponse, "JSONRPCResponse", `{"jsonrpc": "2.0", "id": 7}`, VerdictWrongOutput,
			[]string{`at the top level the value needs one of the members "result" or "error"`}, true},
		{"breaks on line 2", errorResponse, "JSONRPCResponse", "{\"jsonrpc\": \"2.0\",\n \"id\": 7,,\n}", VerdictWrongOutput, []string{"line 2, column 10", "7,⟨here⟩,"}, false},
		{"cut short", errorResponse, "JSONRPCResponse", `{"jsonrpc": "2.0", "id": 7`, VerdictWrongOutput, []string{"ends before the JSON value does", "line 1, column 27"}, false},
		{"two values", errorResponse, "JSONRPCResponse", errorResponse + "\n" + errorResponse + "\n", VerdictWrongOutput, []string{"more than one JSON value", "line 2, column 1"}, false},
		{"schema: no resultType", toolError, "JSONRPCResponse", `{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"Bad date."}],"isError":true}}`, VerdictWrongOutput,
			[]string{"not a valid JSONRPCResponse", "at /result", `needs the member "resultType"`}, true},
		{"schema: code as a string", errorResponse, "JSONRPCResponse", `{"jsonrpc":"2.0","id":7,"error":{"code":"-32602","message":"Unknown tool: fetch_weathr."}}`, VerdictWrongOutput,
			[]string{"at /error/code", "must be an integer, not a string"}, true},
		{"no schema: only the structure", errorResponse, "", `{"jsonrpc":"2.0","id":7,"error":{"code":"-32602","message":"Unknown tool: fetch_weathr."}}`, VerdictWrongOutput,
			[]string{"at /error/code", "expected -32602, found \"-32602\""}, true},
		{"wrong code", errorResponse, "JSONRPCResponse", `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Unknown tool: fetch_weathr."}}`, VerdictWrongOutput,
			[]string{"differs from the expected JSON at /error/code: expected -32602, found -32600"}, true},
		{"missing member", toolError, "JSONRPCResponse", `{"jsonrpc":"2.0","id":8,"result":{"resultType":"complete","content":[{"type":"text","text":"Bad date."}]}}`, VerdictWrongOutput,
			[]string{`at /result/isError: the member "isError" is missing`}, true},
		{"extra member", errorResponse, "JSONRPCResponse", `{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"Unknown tool: fetch_weathr.","data":null}}`, VerdictWrongOutput,
			[]string{`at /error/data: the member "data" is not expected`}, true},
		{"unknown definition", errorResponse, "NoSuchDefinition", errorResponse, VerdictError, []string{"NoSuchDefinition", "fault is in the lesson"}, false},
		{"broken expected", `{"a": `, "", `{"a": 1}`, VerdictError, []string{"expected output is not valid JSON", "fault is in the lesson"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, hidden := range []bool{false, true} {
				c := Case{Name: "c", Expected: tt.expected, Schema: tt.schema, Hidden: hidden}
				g := guestCase{Started: true, Ended: true, Status: statusOK, Stdout: []byte(tt.out)}
				rep := judge([]Case{c}, transcript{Done: true, Cases: []guestCase{g}}, execOutcome{}, CompareJSON, l)
				res := rep.Cases[0]
				if res.Verdict != tt.verdict {
					t.Fatalf("verdict %s, want %s (%s)", res.Verdict, tt.verdict, res.Message)
				}
				for _, p := range tt.message {
					if !strings.Contains(res.Message, p) {
						t.Errorf("message %q does not contain %q", res.Message, p)
					}
				}
				if !strings.HasSuffix(res.Message, ".") {
					t.Errorf("message %q is not a sentence", res.Message)
				}
				if (res.Diff != "") != tt.diff {
					t.Errorf("diff = %q, want one: %v", res.Diff, tt.diff)
				}
				if !hidden {
					continue
				}
				red := rep.Redacted().Cases[0]
				if red.Expected != "" || red.Actual != "" || red.Diff != "" {
					t.Errorf("redacted case keeps details: %+v", red)
				}
				for _, secret := range []string{"fetch_weathr", "32602", "Bad date", "/error", "/result", "line "} {
					if strings.Contains(red.Message, secret) {
						t.Errorf("redacted message %q leaks %q", red.Message, secret)
					}
				}
			}
		})
	}
}

func TestJSONDiffIsCanonical(t *testing.T) {
	c := Case{Name: "c", Expected: `{"b": 1, "a": "é"}`}
	g := guestCase{Started: true, Ended: true, Status: statusOK, Stdout: []byte(`{"a":"\u00e9","b":2}`)}
	res := judge([]Case{c}, transcript{Cases: []guestCase{g}}, execOutcome{}, CompareJSON, DefaultConfig().limits()).Cases[0]
	want := "  {\n    \"a\": \"é\",\n-   \"b\": 1\n+   \"b\": 2\n  }\n"
	if res.Diff != want {
		t.Errorf("diff:\n%s\nwant:\n%s", res.Diff, want)
	}
}
