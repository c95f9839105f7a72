package web

import (
	"encoding/json"
	"strings"

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
	Host, Script []TranscriptEntry
	// Stdout, Stderr and Message are what the learner's file did.
	Stdout, Stderr, Message string
}

// TranscriptEntry is one JSON-RPC message, highlighted, with a one-line
// reading of what it means for the model.
type TranscriptEntry struct {
	Call, Direction, Kind, Reading, Schema string
	Tokens                                 []JSONToken
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

// JSONToken is a piece of highlighted JSON: Class is "" for punctuation and
// space, else j-key, j-str, j-num or j-lit.
type JSONToken struct {
	Class, Text string
}

// highlightJSON splits indented JSON into tokens. It does not validate:
// anything it does not recognise is plain text.
func highlightJSON(s string) []JSONToken {
	var out []JSONToken
	plain := func(t string) {
		if n := len(out); n > 0 && out[n-1].Class == "" {
			out[n-1].Text += t
			return
		}
		out = append(out, JSONToken{Text: t})
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(s))
			class := "j-str"
			k := j
			for k < len(s) && (s[k] == ' ' || s[k] == '\n') {
				k++
			}
			if k < len(s) && s[k] == ':' {
				class = "j-key"
			}
			out = append(out, JSONToken{Class: class, Text: s[i:j]})
			i = j
		case c == '-' || (c >= '0' && c <= '9'):
			j := i + 1
			for j < len(s) && strings.IndexByte("0123456789.eE+-", s[j]) >= 0 {
				j++
			}
			out = append(out, JSONToken{Class: "j-num", Text: s[i:j]})
			i = j
		case strings.HasPrefix(s[i:], "true") || strings.HasPrefix(s[i:], "null"):
			out = append(out, JSONToken{Class: "j-lit", Text: s[i : i+4]})
			i += 4
		case strings.HasPrefix(s[i:], "false"):
			out = append(out, JSONToken{Class: "j-lit", Text: s[i : i+5]})
			i += 5
		default:
			plain(string(c))
			i++
		}
	}
	return out
}

func transcriptEntries(ms []sandbox.MCPMessage) []TranscriptEntry {
	out := make([]TranscriptEntry, len(ms))
	for i, m := range ms {
		out[i] = TranscriptEntry{Call: m.Call, Direction: m.Direction, Kind: m.Kind, Reading: m.Reading, Schema: m.Schema, Tokens: highlightJSON(m.JSON)}
	}
	return out
}

// mcpPanel builds the transcript view of a redacted MCP report.
func mcpPanel(r sandbox.MCPReport) *MCPPanel {
	return &MCPPanel{
		Host: transcriptEntries(r.Host), Script: transcriptEntries(r.Script.Transcript),
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
