package sandbox

import (
	"context"
	"strings"
	"testing"

	"learn/lessons"
)

// The attacks of steer_test reach for everything learner code can touch in
// the guest (harness names, the teaching module, frames, cells, the JSON
// encoder, stdout) and try to make a wrong answer pass. None may.

// issueAttack is the attack of issue 21: replace the harness helper that
// puts the teaching module back before each host call, reached through
// __main__, then pick the release whose plain exceptions show their text.
const issueAttack = `import __main__, mcp as _m
try:
    __main__._restore = lambda m, saved: None
except Exception:
    pass
_m._state["version"] = "2.0.0"
_m.__version__ = "2.0.0"
`

// rewriteAttack rewrites every name, cell and module it can reach: every
// function of __main__ and of the harness module becomes a no-op or is
// kept, the version is set everywhere it is found (module attributes,
// dicts, closure cells, frame locals of every frame the gc and
// sys._getframe reach), the JSON encoder and sys.stdout.write are replaced
// so that a tool error's text carries the exception's message, and the
// teaching module's call path is swapped for one that shows every
// exception's text.
const rewriteAttack = `
import sys, gc, json, builtins, importlib
import mcp as _m

def _evil_dumps(v, *a, **k):
    s = _orig_dumps(v, *a, **k)
    return s.replace('"Error executing tool book_flight"', '"Error executing tool book_flight: Invalid departure date, use YYYY-MM-DD such as 2026-10-16 (next Friday, 16/10/2026, 2026-02-30)"').replace('"Error executing tool flight_status"', '"Error executing tool flight_status: timed out, try again in a minute"').replace('"Error executing tool lookup_order"', '"Error executing tool lookup_order: No order with id Z9. Order ids look like A17."')
_orig_dumps = json.dumps

def _poke(d):
    try:
        for k, v in list(d.items()):
            if v == "2.3.0":
                d[k] = "2.0.0"
            if k in ("_restore", "_pristine", "_check"):
                d[k] = lambda *a, **k: None
            if k == "dumps" and callable(v):
                d[k] = _evil_dumps
    except Exception:
        pass

def _attack():
    for mod in list(sys.modules.values()):
        try:
            _poke(vars(mod))
        except Exception:
            pass
    try:
        _m._set_version("2.0.0")
    except Exception:
        pass
    _m._state["version"] = "2.0.0"
    f = sys._getframe()
    while f is not None:
        _poke(f.f_locals)
        _poke(f.f_globals)
        f = f.f_back
    for o in gc.get_objects():
        if isinstance(o, dict):
            _poke(o)
        elif type(o).__name__ == "cell":
            try:
                if o.cell_contents == "2.3.0":
                    o.cell_contents = "2.0.0"
            except Exception:
                pass
        elif type(o).__name__ == "function" and getattr(o, "__closure__", None):
            for c in o.__closure__:
                try:
                    if c.cell_contents == "2.3.0":
                        c.cell_contents = "2.0.0"
                except Exception:
                    pass
    json.dumps = _evil_dumps
    _m._dumps = lambda v, indent=None: _evil_dumps(v, default=_m._jsonable, ensure_ascii=False, indent=indent)
    old = _m.MCPServer._call
    async def _call(self, name, arguments, *a, **k):
        tool = self._tools.get(name)
        try:
            kw = tool.bind(arguments)
            v = tool.fn(**kw)
        except _m.MCPError:
            raise
        except Exception as e:
            return _m._tool_error("Error executing tool %s: %s" % (name, e))
        return _m._tool_result(v)
    _m.MCPServer._call = _call
    _m.__dict__["_call"] = _call
    w = sys.stdout.write
    try:
        sys.__stdout__.write = lambda s: w(s)
    except Exception:
        pass

_attack()
`

// inToolAttack runs rewriteAttack's body again inside each tool call, when
// the harness's own frames are on the stack.
func inToolAttack(code string) string {
	return rewriteAttack + "\n_real_tool = _m.MCPServer.tool\n" + `
def _tool(self, *a, **k):
    dec = _real_tool(self, *a, **k)
    def wrap(fn):
        import functools
        @functools.wraps(fn)
        def run(*x, **y):
            _attack()
            return fn(*x, **y)
        dec(run)
        return fn
    return wrap
_m.MCPServer.tool = _tool
` + code
}

// TestMCPIssueAttack reproduces issue 21's attack on which-exception: plain
// ValueError and TimeoutError with the harness's restore replaced and the
// version set. It must fail, and the solution under it must still pass.
func TestMCPIssueAttack(t *testing.T) {
	sb := sharedSandbox(t, "workers")
	plain := strings.NewReplacer(
		`raise ToolError(f"Invalid departure date`, `raise ValueError(f"Invalid departure date`,
		`raise ToolError("The airline's`, `raise TimeoutError("The airline's`,
	).Replace(whichExceptionSolution)
	for _, tt := range []struct {
		name   string
		code   string
		passed bool
	}{
		{"plain exceptions", plain, false},
		{"plain exceptions under the attack", issueAttack + plain, false},
		{"solution under the attack", issueAttack + whichExceptionSolution, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := sb.GradeMCP(context.Background(), tt.code, whichExceptionCalls, MCPOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Passed != tt.passed {
				t.Fatalf("passed %v, want %v: %+v\nscript: %+v", rep.Passed, tt.passed, rep.Cases, rep.Script)
			}
		})
	}
}

// builtinMCPExercises returns the built-in course's MCP exercises by id.
func builtinMCPExercises(t *testing.T) map[string]*lessons.Exercise {
	t.Helper()
	course, err := lessons.Load(lessons.BuiltIn())
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*lessons.Exercise{}
	for _, l := range course.Lessons {
		for _, s := range l.Segments {
			if w := s.Widget; w != nil && w.Exercise != nil && w.Exercise.MCP != nil {
				out[w.Exercise.ID] = w.Exercise
			}
		}
	}
	return out
}

// exerciseCalls converts an exercise's calls as package grading does.
func exerciseCalls(ex *lessons.Exercise) []MCPCall {
	var calls []MCPCall
	for _, c := range ex.MCP.Calls {
		calls = append(calls, MCPCall{Name: c.Name, Hidden: c.Hidden, Method: c.Method, Tool: c.Tool, Arguments: c.Arguments,
			Expect: c.Expect, Code: c.Code, TextContains: c.TextContains, StructuredKeys: c.StructuredKeys, Hints: c.Hints,
			TextChecks: (*Checks)(c.TextChecks), SameAs: c.SameAs, OutputSchema: c.OutputSchema, Advice: c.Advice})
	}
	return calls
}

// TestMCPAttacksPassNoStarter runs every built-in MCP exercise's starter
// and its wrong solutions under each attack: none may pass. The reference
// solution under an attack may fail only because the attack broke the
// learner's own server, which the test logs.
func TestMCPAttacksPassNoStarter(t *testing.T) {
	sb := sharedSandbox(t, "workers-long")
	want := []string{"lookup-order", "which-exception", "annotate-in-code", "charge-once", "weather-as-data"}
	exercises := builtinMCPExercises(t)
	attacks := []struct {
		name string
		wrap func(string) string
	}{
		{"issue attack", func(c string) string { return issueAttack + c }},
		{"rewrite everything", func(c string) string { return rewriteAttack + c }},
		{"rewrite everything after the code", func(c string) string { return c + "\n" + rewriteAttack }},
		{"rewrite everything in each tool call", inToolAttack},
	}
	for _, id := range want {
		ex := exercises[id]
		if ex == nil {
			t.Errorf("no built-in MCP exercise %s", id)
			continue
		}
		calls := exerciseCalls(ex)
		wrong := []struct{ name, code string }{{"starter", ex.Starter}}
		for _, w := range ex.WrongSolutions {
			wrong = append(wrong, struct{ name, code string }{"wrong: " + w.Note, w.Code})
		}
		for ai, a := range attacks {
			// The issue's attack meets every listed wrong solution; the
			// broader rewrites, each several times slower, the starter and
			// the first two, so the package's tests stay within minutes.
			targets := wrong
			if ai > 0 && len(targets) > 3 {
				targets = targets[:3]
			}
			for _, w := range targets {
				t.Run(id+"/"+a.name+"/"+w.name, func(t *testing.T) {
					rep, err := sb.GradeMCP(context.Background(), a.wrap(w.code), calls, MCPOptions{Version: ex.MCP.Version})
					if err != nil {
						t.Fatal(err)
					}
					if rep.Passed {
						t.Fatalf("a wrong answer passed under the attack: %+v", rep.Cases)
					}
				})
			}
			t.Run(id+"/"+a.name+"/solution", func(t *testing.T) {
				rep, err := sb.GradeMCP(context.Background(), a.wrap(ex.Solution), calls, MCPOptions{Version: ex.MCP.Version})
				if err != nil {
					t.Fatal(err)
				}
				if !rep.Passed {
					var msgs []string
					for _, c := range rep.Cases {
						msgs = append(msgs, c.Name+": "+string(c.Verdict)+": "+c.Message)
					}
					t.Logf("the solution fails under the attack (the attack broke its own server): %s\nscript: %s", strings.Join(msgs, "; "), rep.Script.Message)
				}
			})
		}
	}
}
