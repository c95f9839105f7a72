package main

import (
	"context"
	"errors"

	"learn/lessons"
	"learn/sandbox"
)

// mcpCalls converts an MCP exercise's calls for the sandbox; with all
// false, only the calls that are not hidden.
func mcpCalls(m *lessons.MCPExercise, all bool) []sandbox.MCPCall {
	src := m.SampleCalls()
	if all {
		src = m.Calls
	}
	out := make([]sandbox.MCPCall, len(src))
	for i, c := range src {
		out[i] = sandbox.MCPCall(c)
	}
	return out
}

// gradeMCP grades code against every call of an MCP exercise, waiting while
// the sandbox is busy.
func gradeMCP(ctx context.Context, box *sandbox.Sandbox, ex *lessons.Exercise, code string) (sandbox.Report, error) {
	var busy *sandbox.BusyError
	for {
		rep, err := box.GradeMCP(ctx, code, mcpCalls(ex.MCP, true), sandbox.MCPOptions{Version: ex.MCP.Version})
		if !errors.As(err, &busy) {
			return rep.Report, err
		}
	}
}
