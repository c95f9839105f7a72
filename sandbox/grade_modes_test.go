package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// buildResponseCases are cases of a JSON exercise: the program reads
// ID|KIND|MESSAGE and prints the JSON-RPC response.
var buildResponseCases = []Case{
	{Name: "Unknown tool", Stdin: "7|unknown_tool|Unknown tool: fetch_weathr.", Schema: "JSONRPCResponse",
		Expected: `{"jsonrpc": "2.0", "id": 7, "error": {"code": -32602, "message": "Unknown tool: fetch_weathr."}}`},
	{Name: "Bad date", Stdin: "8|invalid_input|Invalid date 2026-13-01: use YYYY-MM-DD.", Schema: "JSONRPCResponse",
		Expected: `{"jsonrpc": "2.0", "id": 8, "result": {"resultType": "complete", "content": [{"type": "text", "text": "Invalid date 2026-13-01: use YYYY-MM-DD."}], "isError": true}}`},
	{Name: "Unicode", Stdin: "9|business_rule|Le panier est vidé.", Schema: "JSONRPCResponse", Hidden: true,
		Expected: `{"jsonrpc": "2.0", "id": 9, "result": {"resultType": "complete", "content": [{"type": "text", "text": "Le panier est vidé."}], "isError": true}}`},
}

const buildResponseSolution = `import json
request_id, kind, message = input().split("|", 2)
if kind == "unknown_tool":
    response = {"jsonrpc": "2.0", "id": int(request_id), "error": {"code": -32602, "message": message}}
else:
    response = {"jsonrpc": "2.0", "id": int(request_id), "result": {"resultType": "complete", "content": [{"type": "text", "text": message}], "isError": True}}
print(json.dumps(response, indent=2))
`

// rewriteCases are cases graded by checks: the program reads
// FIELD|VALUE|RULE and prints a message.
var rewriteCases = func() []Case {
	rules := func(contains ...string) *Checks {
		return &Checks{Contains: contains, NotContains: []string{"Traceback", `File "`}, MaxLength: 80}
	}
	return []Case{
		{Name: "Bad date", Stdin: "start_date|14/11/2026|a date as YYYY-MM-DD", Checks: rules("start_date", "14/11/2026", "YYYY-MM-DD")},
		{Name: "Long value", Stdin: "note|" + strings.Repeat("x", 300) + "|at most 280 characters", Checks: rules("note", "xxxxxxxxxx", "280"), Hidden: true},
	}
}()

func TestGradeNewModes(t *testing.T) {
	tests := []struct {
		name  string
		code  string
		cases []Case
		cmp   Comparison
		want  []Verdict
	}{
		{"json: reference solution, indented and escaped", buildResponseSolution, buildResponseCases, CompareJSON,
			[]Verdict{VerdictPassed, VerdictPassed, VerdictPassed}},
		{"json: a Python dict is not JSON", strings.Replace(buildResponseSolution, "json.dumps(response, indent=2)", "response", 1), buildResponseCases, CompareJSON,
			[]Verdict{VerdictWrongOutput, VerdictWrongOutput, VerdictWrongOutput}},
		{"json: printing passed does not pass", `print("passed")`, buildResponseCases, CompareJSON,
			[]Verdict{VerdictWrongOutput, VerdictWrongOutput, VerdictWrongOutput}},
		{"checks: a helpful message", "field, value, rule = input().split('|', 2)\nshown = value if len(value) <= 20 else value[:17] + '...'\nprint(f'{field} {shown!r} is not valid: use {rule}.')\n",
			rewriteCases, CompareTrimmedLines, []Verdict{VerdictPassed, VerdictPassed}},
		{"checks: the whole value is too long", "field, value, rule = input().split('|', 2)\nprint(f'{field} {value!r} is not valid: use {rule}.')\n",
			rewriteCases, CompareTrimmedLines, []Verdict{VerdictPassed, VerdictWrongOutput}},
		{"checks: a vague message", "input()\nprint('Invalid input.')\n", rewriteCases, CompareTrimmedLines, []Verdict{VerdictWrongOutput, VerdictWrongOutput}},
	}
	s := sharedSandbox(t, "workers")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := s.Grade(context.Background(), tt.code, tt.cases, tt.cmp)
			if err != nil {
				t.Fatal(err)
			}
			if got := verdicts(rep); fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("verdicts = %v, want %v", got, tt.want)
				for _, c := range rep.Cases {
					t.Log(brief(c))
				}
			}
		})
	}
}
