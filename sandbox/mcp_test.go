package sandbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"learn/sandbox/mcpschema"
)

// The behaviour table: one tool per row of the table the lessons teach.
const mcpTableServer = `import os
from dataclasses import dataclass
from typing import Optional, TypedDict
from mcp import MCPError
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import INTERNAL_ERROR, INVALID_PARAMS

mcp = MCPServer("table")
ran = []

class Window(TypedDict):
    start: str
    days: int

@dataclass
class Filter:
    status: str
    limit: int = 10

@mcp.tool()
def tool_error(order_id: str) -> str:
    raise ToolError(f"No order {order_id}; ids look like A17")

@mcp.tool()
def unexpected(order_id: str) -> str:
    return {}[order_id]

@mcp.tool()
def value_error() -> str:
    raise ValueError("secret path /srv/db")

@mcp.tool()
def mcp_error() -> str:
    raise MCPError(code=INTERNAL_ERROR, message="Search is not configured on this server.", data={"missing": "API_KEY"})

@mcp.tool()
def mcp_error_params() -> str:
    raise MCPError(INVALID_PARAMS, "bad cursor")

@mcp.tool()
def typed(name: str, count: int, ratio: float, flag: bool, note: Optional[str] = None,
          tags: list[str] = [], extra: dict = {}, window: Optional[Window] = None,
          filter: Optional[Filter] = None) -> str:
    ran.append(name)
    return f"{name} {count} {ratio} {flag} {note} {tags} {extra} {window} {filter}"

@mcp.tool()
def order(order_id: str) -> dict:
    return {"id": order_id, "item": "lamp"}

@mcp.tool()
async def slow_ok(n: int) -> str:
    import asyncio
    await asyncio.sleep(0.01)
    return str(n * 2)

@mcp.tool()
def did_it_run() -> str:
    return ",".join(ran) or "nothing ran"
`

func call(name, tool string, args map[string]any) MCPCall {
	return MCPCall{Name: name, Tool: tool, Arguments: args}
}

// hostResponse returns the response message of the named call.
func hostResponse(t *testing.T, rep MCPReport, name string) (MCPMessage, map[string]any) {
	t.Helper()
	for _, m := range rep.Host {
		if m.Call == name && m.Direction == "response" {
			var v map[string]any
			if err := json.Unmarshal([]byte(m.JSON), &v); err != nil {
				t.Fatalf("%s: response is not JSON: %v", name, err)
			}
			return m, v
		}
	}
	t.Fatalf("%s: no response in the host transcript; cases: %+v; script: %+v", name, rep.Cases, rep.Script)
	return MCPMessage{}, nil
}

func TestMCPBehaviourTable(t *testing.T) {
	// Fifteen calls in one session: under a 2 s limit the last ones ran
	// out of time on a machine at load 7 (verdict timeout, no response),
	// and time is not what this table checks.
	sb := sharedSandbox(t, "workers-long")
	type row struct {
		name    string
		call    MCPCall
		kind    string            // result, tool error, protocol error
		text    map[string]string // version -> exact text content (result rows)
		code    int
		message string
		data    string
	}
	both := func(s string) map[string]string { return map[string]string{"2.0.0": s, "2.3.0": s} }
	rows := []row{
		{name: "ToolError", call: call("", "tool_error", map[string]any{"order_id": "Z9"}), kind: "tool error",
			text: both("Error executing tool tool_error: No order Z9; ids look like A17")},
		{name: "KeyError", call: call("", "unexpected", map[string]any{"order_id": "Z9"}), kind: "tool error",
			text: map[string]string{"2.0.0": "Error executing tool unexpected: 'Z9'", "2.3.0": "Error executing tool unexpected"}},
		{name: "ValueError", call: call("", "value_error", nil), kind: "tool error",
			text: map[string]string{"2.0.0": "Error executing tool value_error: secret path /srv/db", "2.3.0": "Error executing tool value_error"}},
		{name: "MCPError INTERNAL_ERROR with data", call: call("", "mcp_error", nil), kind: "protocol error",
			code: -32603, message: "Search is not configured on this server.", data: `{"missing":"API_KEY"}`},
		{name: "MCPError INVALID_PARAMS", call: call("", "mcp_error_params", nil), kind: "protocol error", code: -32602, message: "bad cursor"},
		{name: "Missing argument", call: call("", "tool_error", map[string]any{}), kind: "tool error",
			text: both("Error executing tool tool_error: invalid arguments: order_id: required argument is missing")},
		{name: "Wrong type", call: call("", "typed", map[string]any{"name": "a", "count": "three", "ratio": 1, "flag": true}), kind: "tool error",
			text: both(`Error executing tool typed: invalid arguments: count: expected an integer, got "three" (a string)`)},
		{name: "Wrong nested type", call: call("", "typed", map[string]any{"name": "a", "count": 1, "ratio": 1, "flag": true, "tags": []any{"x", 2}}), kind: "tool error",
			text: both(`Error executing tool typed: invalid arguments: tags[1]: expected a string, got 2 (an integer)`)},
		{name: "TypedDict field missing", call: call("", "typed", map[string]any{"name": "a", "count": 1, "ratio": 1, "flag": true, "window": map[string]any{"start": "x"}}), kind: "tool error",
			text: both(`Error executing tool typed: invalid arguments: window.days: required field is missing`)},
		{name: "Schema failure never runs the function", call: call("", "did_it_run", nil), kind: "result", text: both("nothing ran")},
		{name: "Unknown tool", call: call("", "get_weathr", nil), kind: "tool error", text: both("Unknown tool: get_weathr")},
		{name: "Valid arguments", call: call("", "typed", map[string]any{"name": "a", "count": 2, "ratio": 0.5, "flag": false, "tags": []any{"x"},
			"window": map[string]any{"start": "s", "days": 3}, "filter": map[string]any{"status": "open"}}), kind: "result",
			text: both(`a 2 0.5 False None ['x'] {} {'days': 3, 'start': 's'} Filter(status='open', limit=10)`)},
		{name: "Dict result", call: call("", "order", map[string]any{"order_id": "A17"}), kind: "result",
			text: both("{\n  \"id\": \"A17\",\n  \"item\": \"lamp\"\n}")},
		{name: "Async tool", call: call("", "slow_ok", map[string]any{"n": 21}), kind: "result", text: both("42")},
	}
	for _, version := range MCPVersions {
		t.Run(version, func(t *testing.T) {
			var calls []MCPCall
			for _, r := range rows {
				c := r.call
				c.Name = r.name
				calls = append(calls, c)
			}
			rep, err := sb.GradeMCP(context.Background(), mcpTableServer, calls, MCPOptions{Version: version})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				t.Run(r.name, func(t *testing.T) {
					msg, v := hostResponse(t, rep, r.name)
					if msg.Schema != "" {
						t.Errorf("response breaks the schema: %s\n%s", msg.Schema, msg.JSON)
					}
					if msg.Kind != r.kind {
						t.Fatalf("kind %q, want %q\n%s", msg.Kind, r.kind, msg.JSON)
					}
					if r.kind == "protocol error" {
						e := v["error"].(map[string]any)
						if int(e["code"].(float64)) != r.code || e["message"] != r.message {
							t.Errorf("error %v, want code %d message %q", e, r.code, r.message)
						}
						if r.data != "" {
							d, _ := json.Marshal(e["data"])
							if string(d) != r.data {
								t.Errorf("data %s, want %s", d, r.data)
							}
						}
						if _, ok := v["result"]; ok {
							t.Errorf("a protocol error with a result too")
						}
						return
					}
					res := v["result"].(map[string]any)
					if res["resultType"] != "complete" {
						t.Errorf("resultType %v, want complete", res["resultType"])
					}
					content := res["content"].([]any)
					text := content[0].(map[string]any)["text"]
					if text != r.text[version] {
						t.Errorf("text %q, want %q", text, r.text[version])
					}
					if isErr, _ := res["isError"].(bool); isErr != (r.kind == "tool error") {
						t.Errorf("isError %v for a %s", isErr, r.kind)
					}
					if r.name == "Dict result" {
						sc, _ := json.Marshal(res["structuredContent"])
						if string(sc) != `{"id":"A17","item":"lamp"}` {
							t.Errorf("structuredContent %s", sc)
						}
					}
				})
			}
		})
	}
}

// lookupOrderSolution is the lesson's shop server with an actionable
// ToolError, and a script that calls it the way the tutorial does.
const lookupOrderSolution = `import asyncio
from dataclasses import dataclass

from mcp import Client
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

ORDERS = {"A17": {"item": "desk lamp", "status": "shipped"}}

@dataclass
class Order:
    id: str
    item: str
    status: str

mcp = MCPServer("shop")

@mcp.tool()
def lookup_order(order_id: str) -> Order:
    """Look up an order by its id."""
    if order_id not in ORDERS:
        raise ToolError(f"No order with id {order_id!r}. Order ids look like A17.")
    return Order(id=order_id, **ORDERS[order_id])

async def main():
    async with Client(mcp) as client:
        for order_id in ("Z9", "A17"):
            result = await client.call_tool("lookup_order", {"order_id": order_id})
            if result.is_error:
                print("error:", result.content[0].text)
            else:
                print("found:", result.structured_content["item"])

asyncio.run(main())
`

var lookupOrderCalls = []MCPCall{
	{Name: "Unknown id Z9", Tool: "lookup_order", Arguments: map[string]any{"order_id": "Z9"}, Expect: ExpectToolError, TextContains: []string{"Z9"}},
	{Name: "Known id A17", Tool: "lookup_order", Arguments: map[string]any{"order_id": "A17"}, Expect: ExpectResult, StructuredKeys: []string{"item"}},
}

func TestMCPScriptRunsAsWritten(t *testing.T) {
	sb := sharedSandbox(t, "workers")
	rep, err := sb.GradeMCP(context.Background(), lookupOrderSolution, nil, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := "error: Error executing tool lookup_order: No order with id 'Z9'. Order ids look like A17.\nfound: desk lamp\n"
	if rep.Script.Stdout != want || rep.Script.Message != "" {
		t.Fatalf("stdout %q, message %q, stderr %q; want stdout %q", rep.Script.Stdout, rep.Script.Message, rep.Script.Stderr, want)
	}
	var kinds []string
	for _, m := range rep.Script.Transcript {
		kinds = append(kinds, m.Kind)
		if m.Schema != "" {
			t.Errorf("%s breaks the schema: %s\n%s", m.Kind, m.Schema, m.JSON)
		}
	}
	if got := strings.Join(kinds, ","); got != "request,tool error,request,result" {
		t.Errorf("transcript kinds %s", got)
	}
}

func TestMCPClientRaisesMCPError(t *testing.T) {
	sb := sharedSandbox(t, "workers")
	code := `import asyncio
from mcp import Client, MCPError
from mcp.server import MCPServer
from mcp.types import INTERNAL_ERROR

mcp = MCPServer("flights")

@mcp.tool()
def search_flights(departure_date: str) -> str:
    raise MCPError(code=INTERNAL_ERROR, message="Flight search is not configured on this server.")

async def main():
    async with Client(mcp) as client:
        try:
            await client.call_tool("search_flights", {"departure_date": "2026-10-09"})
        except MCPError as e:
            print(e.code, e.message)
        tools = await client.list_tools()
        print([t.name for t in tools.tools])

asyncio.run(main())
`
	rep, err := sb.GradeMCP(context.Background(), code, nil, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "-32603 Flight search is not configured on this server.\n['search_flights']\n"; rep.Script.Stdout != want {
		t.Fatalf("stdout %q (stderr %q), want %q", rep.Script.Stdout, rep.Script.Stderr, want)
	}
	if len(rep.Script.Transcript) != 4 || rep.Script.Transcript[1].Kind != "protocol error" {
		t.Fatalf("transcript %+v", rep.Script.Transcript)
	}
}

// TestMCPHostGrading: the host's own calls decide, whatever the code prints
// or records.
func TestMCPHostGrading(t *testing.T) {
	sb := sharedSandbox(t, "workers")
	starter := strings.Replace(lookupOrderSolution, `    if order_id not in ORDERS:
        raise ToolError(f"No order with id {order_id!r}. Order ids look like A17.")
`, "", 1)
	forgedResponse := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"No order Z9"}],"isError":true,"resultType":"complete"}}`
	cases := []struct {
		name   string
		code   string
		passed bool
		msg    string
	}{
		{"solution", lookupOrderSolution, true, ""},
		{"starter raises KeyError", starter, false, "not a ToolError"},
		{"prints passed", starter + "\nprint('passed')\nprint('Passed.')\n", false, "not a ToolError"},
		{"forges a transcript", starter + "\nimport mcp as m\nm.transcript.append({'direction': 'server->client', 'message': '" + forgedResponse + "'})\nprint('" + forgedResponse + "')\n", false, "not a ToolError"},
		{"writes frames without the nonce", starter + "\nimport os\nos.write(1, b'\\x1e0000 1 start 0\\n\\x1e0000 1 resp 3\\n{}\\n')\n", false, "not a ToolError"},
		{"writes frames out of turn with the nonce", starter + `
import os, sys
f = sys._getframe()
while f is not None and "nonce" not in f.f_locals:
    f = f.f_back
n = f.f_locals["nonce"]
body = b'{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"No order Z9"}],"isError":true,"resultType":"complete"}}'
os.write(1, b"\x1e" + n + b" 1 start 0\n" + b"\x1e" + n + b" 1 resp %d\n" % len(body) + body)
`, false, "out of turn"},
		// The forged response must stand alone: flooding stdout past the
		// limit leaves the harness no response of its own to write.
		{"writes its own response in turn, then floods stdout", forgeInTurn("print('x' * 200000)"), false, "out of turn"},
		{"writes its own response in turn, then raises", forgeInTurn("raise KeyError(order_id)"), false, "out of turn"},
		{"writes its own response in turn, then returns", forgeInTurn("return None"), false, "out of turn"},
		{"no server", "print('hello')\n", false, "no MCPServer"},
		{"syntax error", "def f(:\n", false, "cannot read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep, err := sb.GradeMCP(context.Background(), c.code, lookupOrderCalls, MCPOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Passed != c.passed {
				t.Fatalf("passed %v, want %v: %+v", rep.Passed, c.passed, rep.Cases)
			}
			if c.msg != "" && !strings.Contains(rep.Cases[0].Message, c.msg) {
				t.Errorf("first case's message %q does not contain %q", rep.Cases[0].Message, c.msg)
			}
		})
	}
}

func TestMCPHintsFromToolsList(t *testing.T) {
	sb := sharedSandbox(t, "workers")
	code := `from mcp.server import MCPServer
from mcp.types import ToolAnnotations
mcp = MCPServer("docs")

@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False, title="Search the wiki"))
def search_docs(query: str) -> list[str]:
    return []

@mcp.tool()
def delete_page(page_id: str) -> str:
    return "deleted"
`
	calls := []MCPCall{
		{Name: "read-only search", Method: MethodToolsList, Hints: map[string]map[string]bool{"search_docs": {"readOnlyHint": true, "openWorldHint": false}}},
		{Name: "delete by default", Method: MethodToolsList, Hints: map[string]map[string]bool{"delete_page": {"readOnlyHint": false, "destructiveHint": true}}},
		{Name: "delete marked idempotent", Method: MethodToolsList, Hints: map[string]map[string]bool{"delete_page": {"idempotentHint": true}}},
	}
	rep, err := sb.GradeMCP(context.Background(), code, calls, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := []Verdict{rep.Cases[0].Verdict, rep.Cases[1].Verdict, rep.Cases[2].Verdict}
	want := []Verdict{VerdictPassed, VerdictPassed, VerdictWrongOutput}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("case %d: %s (%s), want %s", i, got[i], rep.Cases[i].Message, want[i])
		}
	}
	if !strings.Contains(rep.Cases[2].Message, "idempotentHint is false (unset, so the default)") {
		t.Errorf("message %q", rep.Cases[2].Message)
	}
	for _, m := range rep.Host {
		if m.Schema != "" {
			t.Errorf("%s breaks the schema: %s", m.Kind, m.Schema)
		}
	}
}

// TestMCPWarmPool checks that MCP gradings are served by interpreters
// that already have the teaching module loaded. Its speed is measured by
// BenchmarkMCPGrading, not asserted here.
func TestMCPWarmPool(t *testing.T) {
	sb := sharedSandbox(t, "workers")
	warm := 0
	for range 5 {
		time.Sleep(700 * time.Millisecond) // let the pool refill
		rep, err := sb.GradeMCP(context.Background(), lookupOrderSolution, lookupOrderCalls, MCPOptions{})
		if err != nil || !rep.Passed {
			t.Fatalf("%v %+v", err, rep.Cases)
		}
		if !rep.Cold {
			warm++
		}
	}
	if warm == 0 {
		t.Error("no MCP grading of 5, each after a pause to refill the pool, found a warm interpreter")
	}
}

// BenchmarkMCPGrading measures one MCP grading of lookup-order's reference
// solution with a pause between gradings, so each finds the pool full.
func BenchmarkMCPGrading(b *testing.B) {
	sb := sharedSandbox(b, "workers")
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		time.Sleep(300 * time.Millisecond)
		b.StartTimer()
		rep, err := sb.GradeMCP(context.Background(), lookupOrderSolution, lookupOrderCalls, MCPOptions{})
		if err != nil || !rep.Passed {
			b.Fatalf("%v %+v", err, rep.Cases)
		}
	}
}

// TestReadResponse pins the one-line readings the transcript shows.
func TestReadResponse(t *testing.T) {
	tests := []struct {
		name, method, raw string
		kind              string
		reading           []string
	}{
		{"protocol error", MethodToolsCall, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"No API key."}}`,
			"protocol error", []string{"-32603", "may never see this"}},
		{"tool error", MethodToolsCall, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","isError":true,"content":[{"type":"text","text":"Order Z9 not found."}]}}`,
			"tool error", []string{"would see this text", "Order Z9 not found."}},
		{"unknown tool as the SDK sends it", MethodToolsCall, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","isError":true,"content":[{"type":"text","text":"Unknown tool: get_weathr"}]}}`,
			"tool error", []string{"specification asks for a protocol error, -32602"}},
		{"not json", MethodToolsCall, `{"jsonrpc":`, "invalid", []string{"Not JSON"}},
		{"no resultType", MethodToolsCall, `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`, "result", []string{"breaks the MCP schema"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, _ := readResponse(tt.method, []byte(tt.raw))
			if msg.Kind != tt.kind {
				t.Errorf("kind = %q, want %q", msg.Kind, tt.kind)
			}
			for _, w := range tt.reading {
				if !strings.Contains(msg.Reading, w) {
					t.Errorf("reading %q lacks %q", msg.Reading, w)
				}
			}
		})
	}
}

// TestMCPMalformedRequests sends the teaching module messages the host
// never sends (text that is not JSON, a request that is no request,
// arguments that are not an object) through the server's own handle_json,
// and checks each answer against the schema.
func TestMCPMalformedRequests(t *testing.T) {
	sb := sharedSandbox(t, "workers")
	script := `import asyncio
from mcp.server import MCPServer

mcp = MCPServer("echo")

@mcp.tool()
def echo(text: str = "") -> str:
    return "echo " + text

async def main():
    for req in [
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call"',
        '[1, 2]',
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": "hi"}}',
        '{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": []}}',
        '{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "echo", "arguments": 0}}',
        '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "echo", "arguments": null}}',
        '{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "x"}}}',
    ]:
        print(await mcp.handle_json(req))

asyncio.run(main())
`
	rep, err := sb.GradeMCP(context.Background(), script, nil, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(rep.Script.Stdout), "\n")
	tests := []struct {
		name   string
		id     any // nil: no id member at all
		code   int // 0: a result
		schema string
	}{
		{"parse error leaves id out", nil, -32700, "JSONRPCErrorResponse"},
		{"a request that is no object leaves id out", nil, -32600, "JSONRPCErrorResponse"},
		{"string arguments are invalid params", 2.0, -32602, "JSONRPCErrorResponse"},
		{"array arguments are invalid params", 3.0, -32602, "JSONRPCErrorResponse"},
		{"number arguments are invalid params", 4.0, -32602, "JSONRPCErrorResponse"},
		{"null arguments are no arguments", 5.0, 0, "JSONRPCResultResponse"},
		{"object arguments run the tool", 6.0, 0, "JSONRPCResultResponse"},
	}
	if len(lines) != len(tests) {
		t.Fatalf("got %d lines, want %d: stdout %q, stderr %q", len(lines), len(tests), rep.Script.Stdout, rep.Script.Stderr)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v map[string]any
			if err := json.Unmarshal([]byte(lines[i]), &v); err != nil {
				t.Fatalf("not JSON: %v: %s", err, lines[i])
			}
			if err := mcpschema.Validate(tt.schema, v); err != nil {
				t.Errorf("breaks %s: %v: %s", tt.schema, err, lines[i])
			}
			id, has := v["id"]
			if (tt.id == nil && has) || (tt.id != nil && id != tt.id) {
				t.Errorf("id %v (present %v), want %v: %s", id, has, tt.id, lines[i])
			}
			e, isErr := v["error"].(map[string]any)
			switch {
			case tt.code == 0 && isErr:
				t.Errorf("an error, want a result: %s", lines[i])
			case tt.code != 0 && (!isErr || int(e["code"].(float64)) != tt.code):
				t.Errorf("want error code %d: %s", tt.code, lines[i])
			}
			if res, ok := v["result"].(map[string]any); ok && res["isError"] == true {
				t.Errorf("a tool error, want a plain result: %s", lines[i])
			}
		})
	}
}

// TestMCPCallChecks grades one server against calls that use the checks of
// free wording (TextChecks), compare with an earlier call (SameAs) and read
// a tool's outputSchema (OutputSchema).
func TestMCPCallChecks(t *testing.T) {
	sb := sharedSandbox(t, "workers")
	server := `from typing import TypedDict
from mcp.server import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

mcp = MCPServer("checks")
COUNT = [0]

class Reading(TypedDict):
    city: str
    temperature_c: float

@mcp.tool()
def status() -> str:
    raise ToolError("The service is busy. Try Again   in a minute.")

@mcp.tool()
def charge(key: str) -> dict:
    COUNT[0] += 1
    return {"charge_id": "ch-%d" % (COUNT[0] if key == "new" else 1)}

@mcp.tool()
def reading(city: str) -> Reading:
    return Reading(city=city, temperature_c=1.5)

@mcp.tool()
def loose(city: str) -> dict:
    return {"city": city}
`
	retry := &Checks{MentionsOneOf: [][]string{{"try again", "retry"}}, IgnoreCase: true, NormalizeSpace: true}
	tests := []struct {
		name string
		call MCPCall
		want string // "" passes; else a part of the message
	}{
		{"text checks pass other case and spacing", MCPCall{Tool: "status", Expect: ExpectToolError, TextChecks: retry}, ""},
		{"text checks fail without the option", MCPCall{Tool: "status", Expect: ExpectToolError, TextChecks: &Checks{Contains: []string{"try again"}}},
			"fails a check (it does not contain “try again”)"},
		{"text checks read the tool's words, not the SDK's prefix", MCPCall{Tool: "status", Expect: ExpectToolError, TextChecks: &Checks{NotContains: []string{"Error executing"}}}, ""},
		{"same as an earlier call", MCPCall{Tool: "charge", Arguments: map[string]any{"key": "k"}, Expect: ExpectResult, SameAs: map[string]string{"charge_id": "first"}}, ""},
		{"a new id of the same shape is not the same", MCPCall{Tool: "charge", Arguments: map[string]any{"key": "new"}, Expect: ExpectResult, SameAs: map[string]string{"charge_id": "first"}},
			`charge_id is "ch-3", but the call "first" returned "ch-1"`},
		{"output schema declares the fields", MCPCall{Method: MethodToolsList, OutputSchema: map[string][]string{"reading": {"city", "temperature_c"}}}, ""},
		{"output schema lacks a field", MCPCall{Method: MethodToolsList, OutputSchema: map[string][]string{"loose": {"city"}}}, `loose`},
		{"output schema of a missing tool", MCPCall{Method: MethodToolsList, OutputSchema: map[string][]string{"nope": {"city"}}}, `no tool named "nope"`},
	}
	calls := []MCPCall{{Name: "first", Tool: "charge", Arguments: map[string]any{"key": "k"}, Expect: ExpectResult}}
	for _, tt := range tests {
		c := tt.call
		c.Name = tt.name
		calls = append(calls, c)
	}
	rep, err := sb.GradeMCP(context.Background(), server, calls, MCPOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Cases) != len(calls) {
		t.Fatalf("%d cases for %d calls: %+v %+v", len(rep.Cases), len(calls), rep.Cases, rep.Script)
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rep.Cases[i+1]
			switch {
			case tt.want == "" && got.Verdict != VerdictPassed:
				t.Errorf("%s: %s, want passed", got.Verdict, got.Message)
			case tt.want != "" && (got.Verdict != VerdictWrongOutput || !strings.Contains(got.Message, tt.want)):
				t.Errorf("%s: %q, want wrong output with %q", got.Verdict, got.Message, tt.want)
			}
		})
	}
}

// forgeInTurn is a server without the unknown-id rule whose tool, for an
// unknown id, digs the nonce, the case number and the request out of the
// harness's frame, writes the response the host wants in the case's turn,
// then runs then.
func forgeInTurn(then string) string {
	return `import json, os, sys
from mcp.server import MCPServer

ORDERS = {"A17": {"item": "desk lamp", "status": "shipped"}}
mcp = MCPServer("shop")

def _forge():
    f = sys._getframe()
    while f is not None and "nonce" not in f.f_locals:
        f = f.f_back
    n, i, req = f.f_locals["nonce"], f.f_locals["i"], f.f_locals["req"]
    body = json.dumps({"jsonrpc": "2.0", "id": json.loads(req)["id"], "result": {"content": [{"type": "text", "text": "No order with id Z9. Order ids look like A17."}], "isError": True, "resultType": "complete"}}).encode()
    os.write(1, b"\x1e" + n + b" %d resp %d\n" % (i + 1, len(body)) + body)

@mcp.tool()
def lookup_order(order_id: str) -> dict:
    """Look up an order by its id."""
    if order_id not in ORDERS:
        _forge()
        ` + then + `
    return ORDERS[order_id]
`
}
