package sandbox

// The course's first exercise, report-a-failure, is the fixture: read one
// line KIND|MESSAGE and print how an MCP server reports that failure.

const reportAFailureSolution = `line = input()
kind, message = line.split("|", 1)
if kind == "unknown_tool":
    print("error -32602 " + message)
elif kind == "malformed":
    print("error -32600 " + message)
else:
    print("result isError=true " + message)
`

// reportAFailureStarter treats every failure as a protocol error.
const reportAFailureStarter = `line = input()
kind, message = line.split("|", 1)
print("error -32603 " + message)
`

// reportAFailureNaive splits on every "|", so a message with one loses text.
const reportAFailureNaive = `kind, message = input().split("|")[:2]
if kind == "unknown_tool":
    print("error -32602 " + message)
elif kind == "malformed":
    print("error -32600 " + message)
else:
    print("result isError=true " + message)
`

var reportAFailureCases = []Case{
	{Name: "Unknown tool", Stdin: "unknown_tool|Unknown tool: get_weathr\n", Expected: "error -32602 Unknown tool: get_weathr\n"},
	{Name: "Bad date", Stdin: "invalid_input|Date must be YYYY-MM-DD, got 2024-13-45\n", Expected: "result isError=true Date must be YYYY-MM-DD, got 2024-13-45\n"},
	{Name: "Malformed", Stdin: "malformed|Missing jsonrpc field\n", Expected: "error -32600 Missing jsonrpc field\n"},
	{Name: "Upstream down", Stdin: "api_failure|Weather service timed out after 10 s; try again in a minute\n", Expected: "result isError=true Weather service timed out after 10 s; try again in a minute\n", Hidden: true},
	{Name: "Refund too late", Stdin: "business_rule|Orders can be refunded within 30 days; order A17 is 45 days old\n", Expected: "result isError=true Orders can be refunded within 30 days; order A17 is 45 days old\n", Hidden: true},
	{Name: "Pipe in message", Stdin: "invalid_input|Use a|b format, got a-b\n", Expected: "result isError=true Use a|b format, got a-b\n", Hidden: true},
	{Name: "Unknown tool, no newline", Stdin: "unknown_tool|Unknown tool: x", Expected: "error -32602 Unknown tool: x\n", Hidden: true},
	{Name: "Empty message", Stdin: "malformed|\n", Expected: "error -32600 \n", Hidden: true},
	{Name: "Unicode", Stdin: "api_failure|Service indisponible — réessayez\n", Expected: "result isError=true Service indisponible — réessayez\n", Hidden: true},
}
