package lessons

import (
	"fmt"
	"regexp"
	"strings"
)

// MCPExercise makes an exercise an MCP exercise: the learner writes an MCP
// server with the course's teaching copy of the Python SDK, and the host
// plays the client. It is the "mcp" field of an exercise block:
//
//	```exercise
//	id: lookup-order
//	title: Make lookup_order fail well
//	prompt: |
//	  …
//	starter: |
//	  from mcp.server import MCPServer
//	  …
//	solution: |
//	  …
//	mcp:
//	  version: 2.3.0          # the SDK release to reproduce; default 2.3.0
//	  calls:
//	    - name: Unknown id Z9
//	      tool: lookup_order
//	      arguments: {order_id: Z9}
//	      expect: tool error    # result, tool error or protocol error
//	      text_contains: [Z9]
//	    - name: Known id A17
//	      tool: lookup_order
//	      arguments: {order_id: A17}
//	      expect: result
//	      structured_keys: [item]
//	      hidden: true
//	    - name: Search runs without asking
//	      method: tools/list
//	      hints: {search_docs: {readOnlyHint: true}}
//	      advice: A host auto-approves only tools marked read-only.
//	```
//
// An MCP exercise has no samples or hidden cases: its cases are the calls.
// "Run" runs the learner's file as written (its own Client calls, shown as
// a transcript) and the calls that are not hidden; "Submit" runs every call.
// Each call's response is judged on the host: its kind (expect, and code for
// a protocol error), text the model reads (text_contains, case-sensitive,
// or text_checks, the checks of an exercise case with their options, for
// words a learner chooses), members of structuredContent (structured_keys)
// and, for tools/list, the annotation hints of named tools with unset hints
// at their defaults (hints) and the properties their outputSchema declares
// (output_schema); same_as names, per member of structuredContent, an
// earlier call that must have returned the same value for it (a replay's
// whole charge_id). A call's rule quotes the words of the prompt it checks.
//
//   - name: Timeout says to retry
//     rule: the model can wait and try again, so tell it that
//     tool: flight_status
//     arguments: {flight: LX318}
//     expect: tool error
//     text_checks:
//     mentions_one_of: [[try again, retry]]
//     ignore_case: true
//   - name: The forecast is described
//     method: tools/list
//     output_schema: {get_weather: [city, temperature_c, conditions]}
type MCPExercise struct {
	Version string    `yaml:"version"`
	Calls   []MCPCall `yaml:"calls"`
}

// MCPCall is one request the host sends and what it expects back; package
// grading turns it into a sandbox.MCPCall.
type MCPCall struct {
	Name           string                     `yaml:"name"`
	Rule           string                     `yaml:"rule"`
	Hidden         bool                       `yaml:"hidden"`
	Method         string                     `yaml:"method"`
	Tool           string                     `yaml:"tool"`
	Arguments      map[string]any             `yaml:"arguments"`
	Expect         string                     `yaml:"expect"`
	Code           int                        `yaml:"code"`
	TextContains   []string                   `yaml:"text_contains"`
	StructuredKeys []string                   `yaml:"structured_keys"`
	Hints          map[string]map[string]bool `yaml:"hints"`
	TextChecks     *Checks                    `yaml:"text_checks"`
	SameAs         map[string]string          `yaml:"same_as"`
	OutputSchema   map[string][]string        `yaml:"output_schema"`
	Advice         string                     `yaml:"advice"`
}

// MCP expectations and methods an exercise may name.
const (
	MCPExpectResult        = "result"
	MCPExpectToolError     = "tool error"
	MCPExpectProtocolError = "protocol error"
	MCPMethodToolsCall     = "tools/call"
	MCPMethodToolsList     = "tools/list"
)

var (
	mcpToolName = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
	mcpHints    = map[string]bool{"readOnlyHint": true, "destructiveHint": true, "idempotentHint": true, "openWorldHint": true}
)

// SampleCalls are the calls "Run" sends: those not hidden.
func (m *MCPExercise) SampleCalls() []MCPCall {
	var out []MCPCall
	for _, c := range m.Calls {
		if !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// HiddenCount is the number of hidden calls.
func (m *MCPExercise) HiddenCount() int { return len(m.Calls) - len(m.SampleCalls()) }

// validate returns the problems of an mcp field found at line; nil when m
// is nil.
func (m *MCPExercise) validate(e *Exercise, file string, line int) []Problem {
	if m == nil {
		return nil
	}
	var ps []Problem
	add := func(format string, args ...any) {
		ps = append(ps, Problem{File: file, Line: line, Message: "exercise block: mcp: " + fmt.Sprintf(format, args...)})
	}
	if len(e.Samples) > 0 || len(e.Hidden) > 0 {
		add("an MCP exercise lists its cases as mcp.calls, not as samples or hidden")
	}
	if e.Compare != "" || e.Schema != "" || e.Checks != nil {
		add("compare, schema and checks do not apply to an MCP exercise: each call says what it expects")
	}
	if m.Version != "" && m.Version != "2.0.0" && m.Version != "2.3.0" {
		add("version %q is not known: use 2.3.0 (the default) or 2.0.0", m.Version)
	}
	if len(m.SampleCalls()) == 0 {
		add("no calls that are not hidden: list at least one so Run can show learners what the host checks")
	}
	names := map[string]bool{}
	for i, c := range m.Calls {
		for member, first := range c.SameAs {
			if !names[first] {
				add("call %q: same_as %s names %q, which is not an earlier call", c.Name, member, first)
			}
		}
		where := fmt.Sprintf("call %d", i+1)
		if strings.TrimSpace(c.Name) == "" {
			add("%s has no name: give each call a short name such as \"Unknown id Z9\"", where)
		} else {
			where = fmt.Sprintf("call %q", c.Name)
		}
		if names[c.Name] {
			add("%s: the name is used twice; names identify calls in results", where)
		}
		names[c.Name] = true
		switch c.Method {
		case "", MCPMethodToolsCall:
			if !mcpToolName.MatchString(c.Tool) {
				add("%s: tool %q is not a tool name (1 to 128 letters, digits, _, - or .)", where, c.Tool)
			}
			if len(c.Hints) > 0 || len(c.OutputSchema) > 0 {
				add("%s: hints and output_schema are read from tools/list: give this call method: tools/list", where)
			}
		case MCPMethodToolsList:
			if c.Tool != "" || c.Arguments != nil || len(c.TextContains) > 0 || len(c.StructuredKeys) > 0 || c.TextChecks != nil {
				add("%s: a tools/list call takes no tool, arguments, text_contains, text_checks or structured_keys", where)
			}
			if len(c.Hints) == 0 && len(c.OutputSchema) == 0 {
				add("%s: a tools/list call needs hints or output_schema to check, such as {search_docs: {readOnlyHint: true}}", where)
			}
		default:
			add("%s: method %q is not known: use tools/call (the default) or tools/list", where, c.Method)
		}
		switch c.Expect {
		case "", MCPExpectResult, MCPExpectToolError, MCPExpectProtocolError:
		default:
			add("%s: expect %q is not known: use result, tool error or protocol error", where, c.Expect)
		}
		if c.Expect == "" && c.Method != MCPMethodToolsList {
			add("%s: say what the host expects back: expect: result, tool error or protocol error", where)
		}
		if c.Code != 0 && c.Expect != MCPExpectProtocolError {
			add("%s: code applies only to expect: protocol error", where)
		}
		if c.TextChecks != nil {
			for _, p := range checkProblems(c.TextChecks) {
				add("%s: text_checks: %s", where, p)
			}
		}
		if c.Expect == MCPExpectProtocolError && (len(c.TextContains) > 0 || len(c.StructuredKeys) > 0 || c.TextChecks != nil) {
			add("%s: a protocol error has no text content or structuredContent to check", where)
		}
		for tool, hs := range c.Hints {
			for h := range hs {
				if !mcpHints[h] {
					add("%s: %s: %q is not a hint: use readOnlyHint, destructiveHint, idempotentHint or openWorldHint", where, tool, h)
				}
			}
		}
	}
	return ps
}
