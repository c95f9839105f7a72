package web

import (
	"encoding/json"
	"html/template"
	"strconv"
	"strings"

	"learn/lessons"
	"learn/sandbox"
)

// MCPCallView is one of the host's calls as the panel lists it before a run.
type MCPCallView struct {
	Name, Request, Expect string
}

// MCPPanel is the "what the client sees" part of an MCP exercise's results.
type MCPPanel struct {
	// Host is the transcript of the grader's own calls (hidden ones left
	// out); Script that of the learner's own Client calls.
	Host, Script []Exchange
	// Stdout, Stderr and Message are what the learner's file did.
	Stdout, Stderr, Message string
}

// TranscriptEntry is one JSON-RPC message, highlighted, with a one-line
// reading of what it means for the model.
type TranscriptEntry struct {
	Call, Direction, Kind, Reading, Schema string
	// ModelText is, for a result or tool error, the text the model would
	// read, unescaped; Reading then says only what kind of answer it is
	// (and any note after the text, in ReadingNote).
	ModelText, ReadingNote string
	// JSON is the message, highlighted (lessons.HighlightJSONSpans).
	JSON template.HTML
}

// Exchange is one request and its response, drawn as one row that
// unfolds to both messages.
type Exchange struct {
	Call string
	// Request sums the request up in one line: "tools/call lookup_order
	// {"id":"Z9"}".
	Request string
	// Sent is the request; Got the response (nil when none came).
	Sent, Got *TranscriptEntry
}

// Kind is the response's kind, or "no response".
func (x Exchange) Kind() string {
	if x.Got == nil {
		return "no response"
	}
	return x.Got.Kind
}

// Class is the row's CSS class, by the response's kind.
func (x Exchange) Class() string {
	return "msg msg-" + strings.ReplaceAll(x.Kind(), " ", "-")
}

// Class is the entry's CSS class, which sets protocol errors and tool
// errors apart.
func (e TranscriptEntry) Class() string {
	return "msg msg-" + strings.ReplaceAll(e.Kind, " ", "-")
}

// Arrow says which way the message went.
func (e TranscriptEntry) Arrow() string {
	if e.Direction == "request" {
		return "client → server"
	}
	return "server → client"
}

// modelTextMark is where a reading quotes the text the model would see.
const modelTextMark = "this text"

// splitReading takes the quoted model text out of a reading: "A result:
// the model would see this text: \"{ \\\"id\\\" …}\"" becomes the head
// "A result: the model would see this text:", the text unescaped, and any
// note after it. A reading without a quote comes back whole.
func splitReading(reading string) (head, text, note string) {
	i := strings.Index(reading, modelTextMark)
	if i < 0 {
		return reading, "", ""
	}
	j := strings.Index(reading[i:], `: "`)
	if j < 0 {
		return reading, "", ""
	}
	rest := reading[i+j+2:]
	quoted, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return reading, "", ""
	}
	text, err = strconv.Unquote(quoted)
	if err != nil {
		return reading, "", ""
	}
	return reading[:i+j+1], text, strings.TrimSpace(rest[len(quoted):])
}

// jsonHTML highlights a message's JSON; if the highlighter fails, the
// message is shown as escaped plain text.
func jsonHTML(s string) template.HTML {
	h, err := lessons.HighlightJSONSpans(s)
	if err != nil {
		return template.HTML(template.HTMLEscapeString(s))
	}
	return h
}

func transcriptEntries(ms []sandbox.MCPMessage) []TranscriptEntry {
	out := make([]TranscriptEntry, len(ms))
	for i, m := range ms {
		e := TranscriptEntry{Call: m.Call, Direction: m.Direction, Kind: m.Kind, Reading: m.Reading, Schema: m.Schema, JSON: jsonHTML(m.JSON)}
		if head, text, note := splitReading(m.Reading); text != "" {
			e.Reading, e.ModelText, e.ReadingNote = head, text, note
		}
		out[i] = e
	}
	return out
}

// exchanges pairs each request with the response after it.
func exchanges(ms []sandbox.MCPMessage) []Exchange {
	entries := transcriptEntries(ms)
	var out []Exchange
	for i := 0; i < len(entries); i++ {
		e := &entries[i]
		if e.Direction != "request" {
			// A response with no request before it stands alone.
			out = append(out, Exchange{Call: e.Call, Request: "(no request)", Got: e})
			continue
		}
		x := Exchange{Call: e.Call, Request: requestLine(ms[i].JSON), Sent: e}
		if i+1 < len(entries) && entries[i+1].Direction != "request" {
			x.Got = &entries[i+1]
			i++
		}
		out = append(out, x)
	}
	return out
}

// requestLine sums a JSON-RPC request up in one line: its method, and for
// a tool call the tool and its arguments.
func requestLine(raw string) string {
	var req struct {
		Method string `json:"method"`
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if json.Unmarshal([]byte(raw), &req) != nil || req.Method == "" {
		return "a request"
	}
	line := req.Method
	if req.Params.Name != "" {
		line += " " + req.Params.Name
	}
	if len(req.Params.Arguments) > 0 {
		var args any
		if json.Unmarshal(req.Params.Arguments, &args) == nil {
			line += " " + compactJSON(args)
		}
	}
	return line
}

// mcpPanel builds the transcript view of a redacted MCP report.
func mcpPanel(r sandbox.MCPReport) *MCPPanel {
	return &MCPPanel{
		Host: exchanges(r.Host), Script: exchanges(r.Script.Transcript),
		Stdout: r.Script.Stdout, Stderr: r.Script.Stderr, Message: r.Script.Message,
	}
}

// mcpCallViews lists the calls "Run" sends, for the panel.
func mcpCallViews(calls []sandbox.MCPCall) []MCPCallView {
	var out []MCPCallView
	for _, c := range calls {
		req := c.Method
		if req == "" || req == sandbox.MethodToolsCall {
			req = "tools/call " + c.Tool
			if len(c.Arguments) > 0 {
				req += " " + compactJSON(c.Arguments)
			}
		}
		out = append(out, MCPCallView{Name: c.Name, Request: req, Expect: expectText(c)})
	}
	return out
}

func expectText(c sandbox.MCPCall) string {
	var parts []string
	switch c.Expect {
	case sandbox.ExpectToolError:
		parts = append(parts, "a tool error (isError: true)")
	case sandbox.ExpectProtocolError:
		parts = append(parts, "a protocol error")
	case sandbox.ExpectResult:
		parts = append(parts, "a result")
	}
	if len(c.Hints) > 0 {
		parts = append(parts, "hints that fit what the tool does")
	}
	return strings.Join(parts, "; ")
}

// compactJSON returns v as one line of JSON ("null" if it cannot be encoded).
func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}
