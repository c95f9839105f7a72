package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"learn/sandbox/mcpschema"
)

// MCP mode runs a learner's MCP server, written with the course's teaching
// copy of the Python SDK (harness/mcp.py), and lets the host play the
// client.
//
// The learner's file first runs as written, once, with its own Client calls
// (their transcript comes back for display: the guest wrote it, so nothing
// is judged on it). Then the host sends its own requests, one at a time, to
// the server the file made, and judges each response in Go: its JSON is
// parsed, checked against the MCP 2026-07-28 schema (package mcpschema) and
// compared with what the call expects. The requests travel in the
// submission; the responses come back in frames marked with the run's nonce
// and are accepted only in their turn, so printing "passed", forging a
// transcript or writing frames early decides nothing.

// MCP protocol constants the host uses.
const (
	// MCPProtocolVersion is the protocol version the host speaks.
	MCPProtocolVersion = "2026-07-28"
	// DefaultMCPVersion is the SDK release whose behaviour the teaching
	// module reproduces unless told otherwise.
	DefaultMCPVersion = "2.3.0"
)

// MCPVersions are the SDK releases the teaching module can reproduce.
var MCPVersions = []string{"2.0.0", "2.3.0"}

// What a host call expects back.
const (
	// ExpectResult: a result with isError false (or absent).
	ExpectResult = "result"
	// ExpectToolError: a result with isError true.
	ExpectToolError = "tool error"
	// ExpectProtocolError: a JSON-RPC error object instead of a result.
	ExpectProtocolError = "protocol error"
)

// MCP methods the host can send.
const (
	MethodToolsList = "tools/list"
	MethodToolsCall = "tools/call"
)

// MCPCall is one request the host sends to the learner's server, and what
// it expects back. It holds only plain fields, so that a type of the same
// shape elsewhere (lessons.MCPCall) converts to it directly.
type MCPCall struct {
	// Name names the case in results, such as "Unknown id Z9".
	Name   string
	Hidden bool
	// Method is MethodToolsCall (the default) or MethodToolsList.
	Method    string
	Tool      string
	Arguments map[string]any
	// Expect is ExpectResult, ExpectToolError or ExpectProtocolError; ""
	// checks only the hints (for tools/list).
	Expect string
	// Code is the protocol error's code the call expects (0: any code).
	Code int
	// TextContains are strings the text content must contain.
	TextContains []string
	// TextChecks, when not nil, are checks the text the tool itself said
	// (without the SDK's "Error executing tool NAME: ") must pass, for
	// messages a learner words freely: see Checks.
	TextChecks *Checks
	// SameAs names, per member of structuredContent, an earlier call whose
	// structuredContent had the same value for it: a replay must return
	// the first charge's whole charge_id, not one of the same shape.
	SameAs map[string]string
	// OutputSchema names, per tool, the properties the outputSchema that
	// tools/list gives it must declare (the tool must have one).
	OutputSchema map[string][]string
	// StructuredKeys are members structuredContent must have.
	StructuredKeys []string
	// Hints are, per tool name, the annotation hints tools/list must give
	// it, with unset hints taking their defaults (readOnlyHint false,
	// destructiveHint true, idempotentHint false, openWorldHint true).
	Hints map[string]map[string]bool
	// Advice is added to the message of a failing case: what to change.
	Advice string
}

// MCPOptions configure an MCP run.
type MCPOptions struct {
	// Version is the SDK release to reproduce (DefaultMCPVersion if "").
	Version string
}

// MCPMessage is one JSON-RPC message of a transcript, ready to show.
type MCPMessage struct {
	// Call is the name of the host's case the message belongs to.
	Call string `json:"call,omitempty"`
	// Direction is "request" (client to server) or "response".
	Direction string `json:"direction"`
	// JSON is the message, indented.
	JSON string `json:"json"`
	// Kind is "request", "result", "tool error", "protocol error" or
	// "invalid" (not a JSON-RPC response the schema accepts).
	Kind string `json:"kind"`
	// Reading is one line saying what the message means for the model.
	Reading string `json:"reading"`
	// Schema is where the message breaks the MCP schema, if it does.
	Schema string `json:"schema,omitempty"`
}

// MCPScript is what the learner's file did when it ran as written.
type MCPScript struct {
	Stdout string `json:"stdout,omitempty"`
	// Stderr holds what the file wrote to stderr, the server log (the
	// traceback of a tool's unexpected exception), then its own traceback.
	Stderr string `json:"stderr,omitempty"`
	// Message is a plain sentence when the file failed.
	Message string `json:"message,omitempty"`
	// Transcript is every message its own Client calls carried.
	Transcript []MCPMessage `json:"transcript"`
}

// MCPReport is the outcome of an MCP run: one case per host call, the
// host's transcript, and what the learner's file did on its own.
type MCPReport struct {
	Report
	Script MCPScript `json:"script"`
	// Host is the transcript of the host's calls.
	Host []MCPMessage `json:"host"`
}

// Redacted returns a copy fit to send to a learner: hidden calls keep their
// name and verdict, and their messages leave the host's transcript.
func (r MCPReport) Redacted() MCPReport {
	out := r
	out.Report = r.Report.Redacted()
	hidden := map[string]bool{}
	for _, c := range r.Cases {
		if c.Hidden {
			hidden[c.Name] = true
		}
	}
	out.Host = nil
	for _, m := range r.Host {
		if !hidden[m.Call] {
			out.Host = append(out.Host, m)
		}
	}
	return out
}

// hostRequest is the JSON-RPC request the host sends for call c, with id.
func hostRequest(id string, c MCPCall) []byte {
	params := map[string]any{
		"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion":    MCPProtocolVersion,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{},
			"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "learn-grader", "version": "1.0"},
		},
	}
	method := c.method()
	if method == MethodToolsCall {
		params["name"] = c.Tool
		args := c.Arguments
		if args == nil {
			args = map[string]any{}
		}
		params["arguments"] = args
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return b
}

func (c MCPCall) method() string {
	if c.Method == "" {
		return MethodToolsCall
	}
	return c.Method
}

// buildMCPStdin encodes an MCP submission for the harness: the header and
// the code, written at once, and the host's requests, each written once the
// case before it has ended.
func buildMCPStdin(nonce string, limit int, version, code string, reqs [][]byte) (first []byte, later [][]byte) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "LEARNMCP2 %s %d %s %d %d\n", nonce, limit, version, len(code), len(reqs))
	b.WriteString(code)
	for _, r := range reqs {
		later = append(later, inputChunk(r))
	}
	return b.Bytes(), later
}

// GradeMCP runs the learner's MCP server file in a fresh interpreter with
// the teaching module loaded: first as written, then answering each of the
// host's calls in turn; each response is judged in Go. Errors are those of
// Grade, and an unknown opt.Version.
func (s *Sandbox) GradeMCP(ctx context.Context, code string, calls []MCPCall, opt MCPOptions) (MCPReport, error) {
	version := opt.Version
	if version == "" {
		version = DefaultMCPVersion
	}
	if !slices.Contains(MCPVersions, version) {
		return MCPReport{}, fmt.Errorf("sandbox: unknown MCP SDK version %q (known: %s)", version, strings.Join(MCPVersions, ", "))
	}
	if len(code) > s.cfg.MaxCodeBytes {
		return MCPReport{}, fmt.Errorf("%w: %d bytes, the limit is %s", ErrCodeTooLarge, len(code), formatBytes(uint64(s.cfg.MaxCodeBytes)))
	}
	// Calls the learner sees run before hidden ones, and each request
	// enters the interpreter only when its turn comes (see Grade).
	order := visibleFirst(len(calls), func(i int) bool { return calls[i].Hidden })
	ordered := make([]MCPCall, len(calls))
	for i, j := range order {
		ordered[i] = calls[j]
	}
	// Request ids are drawn afresh for every run, so a response written
	// ahead of its request cannot name it.
	reqs := make([][]byte, len(ordered))
	ids := make([]string, len(ordered))
	for i, c := range ordered {
		ids[i] = fmt.Sprintf("%d-%s", i+1, newNonce()[:8])
		reqs[i] = hostRequest(ids[i], c)
	}
	nonce := newNonce()
	first, later := buildMCPStdin(nonce, s.cfg.MaxOutputBytes, version, code, reqs)
	tr, end, err := s.submitRaw(ctx, submission{kind: kindMCP, nonce: nonce, first: first, later: later, ncases: len(calls) + 1})
	if err != nil {
		return MCPReport{}, err
	}
	rep := judgeMCP(ordered, ids, reqs, tr, end, s.cfg.limits())
	rep.Cases = unorder(rep.Cases, order)
	return rep, nil
}

// judgeMCP decides every host call's verdict from the guest's frames.
func judgeMCP(calls []MCPCall, ids []string, reqs [][]byte, tr transcript, end execOutcome, l limits) MCPReport {
	var rep MCPReport
	rep.Report = Report{Passed: len(calls) > 0, Cold: end.Cold, Ran: end.Ran}
	script := guestCase{}
	if len(tr.Cases) > 0 {
		script = tr.Cases[0]
	}
	rep.Script = scriptResult(tr, script, end, l)
	// structured holds each answered call's structuredContent members, for
	// calls that compare with an earlier one (SameAs).
	structured := map[string]map[string]json.RawMessage{}
	for i, c := range calls {
		var g guestCase
		if i+1 < len(tr.Cases) {
			g = tr.Cases[i+1]
		}
		res := CaseResult{Name: c.Name, Hidden: c.Hidden, Expected: c.expectation()}
		rep.Host = append(rep.Host, requestMessage(c, reqs[i]))
		switch {
		case tr.OutOfTurn > 0:
			res.Verdict = VerdictError
			res.Message = "Your code wrote to the host's channel out of turn, so none of its answers count: return values and raise exceptions from your tools, and let the server answer."
		case tr.Syntax != "":
			res.Verdict = VerdictError
			res.Error = tr.Syntax
			res.Message = syntaxMessage(tr.Syntax)
		case g.Ended && g.Status == "noserver":
			res.Verdict = VerdictError
			res.Message = `Your code made no MCPServer for the host to call: create one with mcp = MCPServer("name") and register tools with @mcp.tool().`
			if script.Traceback != "" {
				res.Error = script.Traceback
				res.Message = "Your code raised an error before it made its MCPServer: " + errorMessage(script.Traceback)
			}
		case g.Ended && g.Status == statusMemory:
			res.Verdict = VerdictMemoryLimit
			res.Message = fmt.Sprintf("Your code used more than %s of memory (MemoryError): look for a list or string that grows without bound.", l.Memory)
		case g.Ended && g.Status == statusError:
			res.Verdict = VerdictError
			res.Error = g.Traceback
			res.Message = "The server stopped instead of answering: " + errorMessage(g.Traceback)
		case g.Ended && !g.HasResponse:
			res.Verdict = VerdictError
			res.Message = "The server sent no response to this request."
		case g.Ended:
			msg, verdict, text := judgeResponse(c, ids[i], g.Response)
			members := structuredMembers(g.Response)
			structured[c.Name] = members
			if verdict == VerdictPassed {
				verdict, text = judgeSameAs(c, members, structured)
			}
			msg.Call = c.Name
			rep.Host = append(rep.Host, msg)
			res.Actual = msg.JSON
			res.Verdict = verdict
			res.Message = text
			res.Stderr, _ = capText(string(g.Stderr), l.OutputCap)
		case g.Started && end.TimedOut:
			res.Verdict = VerdictTimeout
			res.Message = fmt.Sprintf("The tool ran past the %s time limit and was stopped: look for a loop that never ends.", l.Timeout)
		case end.TimedOut:
			res.Verdict = VerdictTimeout
			res.Message = fmt.Sprintf("Not run: your code used up the %s time limit before this call. Look for a loop that never ends.", l.Timeout)
		case g.Started && end.Flood:
			res.Verdict = VerdictOutputLimit
			res.Message = fmt.Sprintf("Your code printed more than %s and was stopped: look for a print inside a loop that never ends.", l.Output)
		case end.Flood:
			res.Verdict = VerdictOutputLimit
			res.Message = fmt.Sprintf("Not run: your code printed more than %s before this call and was stopped.", l.Output)
		case memoryExhausted(end):
			res.Verdict = VerdictMemoryLimit
			res.Message = fmt.Sprintf("Your code used more than %s of memory and was stopped: look for a list or string that grows without bound.", l.Memory)
		default:
			res.Verdict = VerdictError
			res.Message = "Not run: the interpreter stopped before this call. Do not call os._exit or write to file descriptor 1 directly."
		}
		if res.Verdict != VerdictPassed {
			rep.Passed = false
			if c.Advice != "" && res.Verdict == VerdictWrongOutput {
				res.Message += " " + c.Advice
			}
		}
		rep.Cases = append(rep.Cases, res)
	}
	return rep
}

// structuredMembers returns the members of a response's structuredContent
// object; nil when it has none.
func structuredMembers(raw []byte) map[string]json.RawMessage {
	var resp struct {
		Result struct {
			StructuredContent map[string]json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &resp) != nil {
		return nil
	}
	return resp.Result.StructuredContent
}

// judgeSameAs compares the members a call names with those of the earlier
// calls it names.
func judgeSameAs(c MCPCall, members map[string]json.RawMessage, earlier map[string]map[string]json.RawMessage) (Verdict, string) {
	for _, member := range mcpSortedKeys(c.SameAs) {
		first := c.SameAs[member]
		want, ok := earlier[first][member]
		if !ok {
			return VerdictWrongOutput, fmt.Sprintf("The earlier call %q gave no %s in structuredContent to compare with.", first, member)
		}
		got, ok := members[member]
		if !ok {
			return VerdictWrongOutput, fmt.Sprintf("structuredContent has no member %q.", member)
		}
		if !rawJSONEqual(want, got) {
			return VerdictWrongOutput, fmt.Sprintf("%s is %s, but the call %q returned %s: a repeat must return the same one.", member, got, first, want)
		}
	}
	return VerdictPassed, "Passed."
}

// rawJSONEqual reports whether two JSON texts hold equal values.
func rawJSONEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return jsonEqual(x, y)
}

// scriptResult describes the learner's own run of their file.
func scriptResult(tr transcript, g guestCase, end execOutcome, l limits) MCPScript {
	var sc MCPScript
	if tr.Syntax != "" {
		sc.Stderr = tr.Syntax
		sc.Message = syntaxMessage(tr.Syntax)
		return sc
	}
	sc.Stdout, _ = actualOutput(g, l)
	errText, _ := capText(string(g.Stderr), l.OutputCap)
	sc.Stderr = errText + g.Traceback
	switch {
	case g.Ended && g.Status == statusError:
		sc.Message = errorMessage(g.Traceback)
	case g.Ended && g.Status == statusMemory:
		sc.Message = fmt.Sprintf("Your code used more than %s of memory: look for a list or string that grows without bound.", l.Memory)
	case !g.Ended && end.TimedOut:
		sc.Message = fmt.Sprintf("Your code ran for more than %s and was stopped: look for a loop that never ends.", l.Timeout)
	case !g.Ended && end.Flood:
		sc.Message = fmt.Sprintf("Your code printed more than %s and was stopped.", l.Output)
	case !g.Ended:
		sc.Message = "The interpreter stopped before your code finished."
	}
	sc.Transcript = scriptTranscript(g.Transcript)
	return sc
}

// scriptTranscript reads the transcript the learner's Client recorded. It
// comes from the guest, so it is only shown, never judged.
func scriptTranscript(raw []byte) []MCPMessage {
	var entries []struct {
		Direction string  `json:"direction"`
		Message   *string `json:"message"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &entries) != nil {
		return nil
	}
	out := []MCPMessage{}
	method := map[string]string{}
	for _, e := range entries {
		if e.Message == nil {
			continue
		}
		if e.Direction == "client->server" {
			var req struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
				Params struct {
					Name      string         `json:"name"`
					Arguments map[string]any `json:"arguments"`
				} `json:"params"`
			}
			_ = json.Unmarshal([]byte(*e.Message), &req)
			method[string(req.ID)] = req.Method
			c := MCPCall{Method: req.Method, Tool: req.Params.Name, Arguments: req.Params.Arguments}
			out = append(out, MCPMessage{Direction: "request", Kind: "request", JSON: mcpIndent([]byte(*e.Message)), Reading: requestReading(c, "Your client")})
			continue
		}
		var resp struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal([]byte(*e.Message), &resp)
		m := method[string(resp.ID)]
		if m == "" {
			m = MethodToolsCall
		}
		msg, _ := readResponse(m, []byte(*e.Message))
		out = append(out, msg)
	}
	return out
}

func requestMessage(c MCPCall, raw []byte) MCPMessage {
	return MCPMessage{Call: c.Name, Direction: "request", Kind: "request", JSON: mcpIndent(raw), Reading: requestReading(c, "The host")}
}

func requestReading(c MCPCall, who string) string {
	if c.method() == MethodToolsList {
		return who + " asks which tools the server has: names, input schemas and annotations."
	}
	if c.method() != MethodToolsCall {
		return who + " sends " + c.method() + "."
	}
	args, _ := json.Marshal(c.Arguments)
	if c.Arguments == nil {
		args = []byte("{}")
	}
	return fmt.Sprintf("%s calls the tool %s with %s, as a model asked it to.", who, c.Tool, args)
}

func mcpIndent(raw []byte) string {
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

// mcpResponse is the part of a JSON-RPC response the judge reads.
type mcpResponse struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError           *bool                      `json:"isError"`
		StructuredContent json.RawMessage            `json:"structuredContent"`
		Tools             []mcpTool                  `json:"tools"`
		Extra             map[string]json.RawMessage `json:"-"`
	} `json:"result"`
	Error *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

type mcpTool struct {
	Name         string          `json:"name"`
	Annotations  map[string]any  `json:"annotations"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema"`
}

// hintDefaults are the values of unset annotation hints. The sandbox may
// import no project package, so quiz.Hint.Default cannot serve here; a
// test in package grading holds the two equal.
var hintDefaults = map[string]bool{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}

// HintDefault returns the value a client assumes for the annotation hint
// named name when a tool leaves it out, and whether name is a hint at all.
func HintDefault(name string) (value, known bool) {
	value, known = hintDefaults[name]
	return value, known
}

// readResponse parses a response to method, checks it against the schema
// and says what it means for the model.
func readResponse(method string, raw []byte) (MCPMessage, *mcpResponse) {
	msg := MCPMessage{Direction: "response", JSON: mcpIndent(raw)}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		msg.Kind = "invalid"
		msg.Reading = "Not JSON: the client cannot read it, and the model never sees it."
		msg.Schema = "not valid JSON: " + err.Error()
		return msg, nil
	}
	var resp mcpResponse
	_ = json.Unmarshal(raw, &resp)
	def := "CallToolResultResponse"
	if method == MethodToolsList {
		def = "ListToolsResultResponse"
	}
	if resp.Error != nil {
		def = "JSONRPCErrorResponse"
	}
	if err := mcpschema.Validate(def, v); err != nil {
		msg.Schema = err.Error()
	}
	switch {
	case resp.Error != nil:
		msg.Kind = "protocol error"
		msg.Reading = fmt.Sprintf("A protocol error (%d %s): the model may never see this; the client's call raises instead.", resp.Error.Code, mcpCodeName(resp.Error.Code))
	case resp.Result == nil:
		msg.Kind = "invalid"
		msg.Reading = "Neither a result nor an error: the client cannot use it."
	case method == MethodToolsList:
		msg.Kind = "result"
		msg.Reading = fmt.Sprintf("The tool list (%d tools): the host decides from it which calls need the user's approval.", len(resp.Result.Tools))
	case resp.Result.IsError != nil && *resp.Result.IsError:
		msg.Kind = "tool error"
		text := mcpResultText(&resp)
		msg.Reading = "A tool error (isError: true): the model would see this text and can try again: " + mcpQuote(text)
		if strings.HasPrefix(text, "Unknown tool: ") {
			msg.Reading += " (The Python SDK answers an unknown tool this way; the specification asks for a protocol error, -32602 Invalid params.)"
		}
	default:
		msg.Kind = "result"
		msg.Reading = "A result: the model would see this text: " + mcpQuote(mcpResultText(&resp))
	}
	if msg.Schema != "" && msg.Kind != "invalid" {
		msg.Reading += " (It breaks the MCP schema, so a strict client would reject it.)"
	}
	return msg, &resp
}

func mcpQuote(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:157] + "…"
	}
	return strconv.Quote(s)
}

func mcpResultText(r *mcpResponse) string {
	var parts []string
	for _, c := range r.Result.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func mcpCodeName(code int) string {
	switch code {
	case -32700:
		return "Parse error"
	case -32600:
		return "Invalid request"
	case -32601:
		return "Method not found"
	case -32602:
		return "Invalid params"
	case -32603:
		return "Internal error"
	}
	return "server-defined"
}

// expectation says in words what a call wants, for the results.
func (c MCPCall) expectation() string {
	var parts []string
	switch c.Expect {
	case ExpectResult:
		parts = append(parts, "a result with isError false")
	case ExpectToolError:
		parts = append(parts, "a result with isError true (a tool error)")
	case ExpectProtocolError:
		if c.Code != 0 {
			parts = append(parts, fmt.Sprintf("a JSON-RPC error with code %d", c.Code))
		} else {
			parts = append(parts, "a JSON-RPC error")
		}
	}
	for _, t := range c.TextContains {
		parts = append(parts, fmt.Sprintf("text that mentions %q", t))
	}
	if c.TextChecks != nil {
		parts = append(parts, "text that passes the call's checks")
	}
	for _, member := range mcpSortedKeys(c.SameAs) {
		parts = append(parts, fmt.Sprintf("the same %s as %q", member, c.SameAs[member]))
	}
	for _, tool := range mcpSortedKeys(c.OutputSchema) {
		parts = append(parts, fmt.Sprintf("%s: an outputSchema with %s", tool, strings.Join(c.OutputSchema[tool], ", ")))
	}
	if len(c.StructuredKeys) > 0 {
		parts = append(parts, "structuredContent with "+strings.Join(c.StructuredKeys, ", "))
	}
	for _, tool := range mcpSortedKeys(c.Hints) {
		var hs []string
		for _, h := range mcpSortedKeys(c.Hints[tool]) {
			hs = append(hs, fmt.Sprintf("%s %v", h, c.Hints[tool][h]))
		}
		parts = append(parts, tool+": "+strings.Join(hs, ", "))
	}
	return strings.Join(parts, "; ")
}

func mcpSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// toolErrorPrefix is how the SDK starts the text of a failed call of tool;
// in 2.3.0 an exception that is not a ToolError gets this text alone.
func toolErrorPrefix(tool string) string { return "Error executing tool " + tool }

// explains reports whether a tool's message holds at least two words
// besides the values it must mention: "No order Z9" does, and a raw
// KeyError's text ('Z9', or KeyError: 'Z9') does not.
func explains(msg string, values []string) bool {
	for _, v := range values {
		msg = strings.ReplaceAll(msg, v, " ")
	}
	words := 0
	for _, w := range strings.FieldsFunc(msg, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len([]rune(w)) >= 2 && !strings.HasSuffix(w, "Error") && !strings.HasSuffix(w, "Exception") {
			words++
		}
	}
	return words >= 2
}

// judgeResponse decides one host call from the server's response.
func judgeResponse(c MCPCall, id string, raw []byte) (MCPMessage, Verdict, string) {
	msg, resp := readResponse(c.method(), raw)
	wrong := func(text string) (MCPMessage, Verdict, string) { return msg, VerdictWrongOutput, text }
	if resp == nil {
		return wrong("The server's answer is not JSON, so no client could read it.")
	}
	if want, _ := json.Marshal(id); string(resp.ID) != string(want) {
		return wrong(fmt.Sprintf("The response carries id %s, but the request's id was %s: a client matches answers to requests by id.", resp.ID, want))
	}
	if msg.Schema != "" {
		return wrong("The response breaks the MCP 2026-07-28 schema (" + strings.TrimPrefix(msg.Schema, "mcpschema: ") + "): a strict client would reject it.")
	}
	got := "a result"
	switch {
	case resp.Error != nil:
		got = fmt.Sprintf("a protocol error (code %d: %q)", resp.Error.Code, resp.Error.Message)
	case resp.Result.IsError != nil && *resp.Result.IsError:
		got = fmt.Sprintf("a tool error (isError true: %s)", mcpQuote(mcpResultText(resp)))
	}
	switch c.Expect {
	case ExpectResult:
		if resp.Error != nil || (resp.Result.IsError != nil && *resp.Result.IsError) {
			return wrong("The host wanted a successful result, but got " + got + ".")
		}
	case ExpectToolError:
		if resp.Error != nil || resp.Result.IsError == nil || !*resp.Result.IsError {
			return wrong("The host wanted a tool error (a result with isError true, which the model reads), but got " + got + ".")
		}
		if c.method() == MethodToolsCall {
			if text := mcpResultText(resp); text == toolErrorPrefix(c.Tool) {
				return wrong(fmt.Sprintf("The tool raised an exception that is not a ToolError, so the SDK told the model only %q and kept the rest for the server log: raise ToolError with a message the model can act on.", text))
			}
		}
	case ExpectProtocolError:
		if resp.Error == nil {
			return wrong("The host wanted a protocol error (a JSON-RPC error, raised with MCPError), but got " + got + ".")
		}
		if c.Code != 0 && resp.Error.Code != c.Code {
			return wrong(fmt.Sprintf("The host wanted a protocol error with code %d (%s), but got code %d.", c.Code, mcpCodeName(c.Code), resp.Error.Code))
		}
	}
	if resp.Result != nil {
		text := mcpResultText(resp)
		// What the tool itself said: the SDK's prefix counts for nothing.
		said := strings.TrimPrefix(text, toolErrorPrefix(c.Tool)+": ")
		for _, want := range c.TextContains {
			if !strings.Contains(said, want) {
				return wrong(fmt.Sprintf("The text the model reads does not mention %q: it says %s.", want, mcpQuote(text)))
			}
		}
		if c.TextChecks != nil {
			fails, err := c.TextChecks.Check(said)
			if err != nil {
				return msg, VerdictError, "This call's checks are broken (" + err.Error() + "): the fault is in the lesson, not in your code."
			}
			if len(fails) > 0 {
				return wrong(fmt.Sprintf("The text the model reads fails a check (%s): it says %s.", strings.Join(fails, "; "), mcpQuote(text)))
			}
		}
		if c.Expect == ExpectToolError && len(c.TextContains) > 0 && !explains(said, c.TextContains) {
			return wrong(fmt.Sprintf("The message only repeats the value, as a raw exception's text does (%s): say what went wrong and what would work instead.", mcpQuote(said)))
		}
		if len(c.StructuredKeys) > 0 {
			var sc map[string]any
			if json.Unmarshal(resp.Result.StructuredContent, &sc) != nil || sc == nil {
				return wrong("The result has no structuredContent object: return a dict or a dataclass so the client gets the order as data.")
			}
			for _, k := range c.StructuredKeys {
				if _, ok := sc[k]; !ok {
					return wrong(fmt.Sprintf("structuredContent has no member %q.", k))
				}
			}
		}
		for _, name := range mcpSortedKeys(c.OutputSchema) {
			i := slices.IndexFunc(resp.Result.Tools, func(t mcpTool) bool { return t.Name == name })
			if i < 0 {
				return wrong(fmt.Sprintf("tools/list has no tool named %q: keep every tool of the starter.", name))
			}
			var schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			}
			raw := resp.Result.Tools[i].OutputSchema
			if len(raw) == 0 || string(raw) == "null" || json.Unmarshal(raw, &schema) != nil {
				return wrong(fmt.Sprintf("%s has no outputSchema in tools/list: declare the function's return type, so the SDK can describe the data it returns.", name))
			}
			for _, p := range c.OutputSchema[name] {
				if _, ok := schema.Properties[p]; !ok {
					return wrong(fmt.Sprintf("%s's outputSchema declares no property %q: return the type that has it.", name, p))
				}
			}
		}
		for _, name := range mcpSortedKeys(c.Hints) {
			i := slices.IndexFunc(resp.Result.Tools, func(t mcpTool) bool { return t.Name == name })
			if i < 0 {
				return wrong(fmt.Sprintf("tools/list has no tool named %q: keep every tool of the starter.", name))
			}
			tool := resp.Result.Tools[i]
			for _, h := range mcpSortedKeys(c.Hints[name]) {
				want := c.Hints[name][h]
				have, set := tool.Annotations[h].(bool)
				note := ""
				if !set {
					have = hintDefaults[h]
					note = " (unset, so the default)"
				}
				if have != want {
					return wrong(fmt.Sprintf("%s: %s is %v%s, but it should be %v.", name, h, have, note, want))
				}
			}
		}
	}
	return msg, VerdictPassed, "Passed."
}
