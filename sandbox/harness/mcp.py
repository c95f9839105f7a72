# The course's teaching copy of the MCP Python SDK's server and client API.
#
# Written for this course from the documented behaviour of the SDK (see the
# table in the lesson on Python SDK exceptions); it shares no code with the
# SDK. It runs inside the sandbox, where the real package cannot (its
# dependencies are native). The harness loads this file once per warm
# interpreter, before any submission arrives, and registers it as the
# modules learners import:
#
#   from mcp import MCPError, Client
#   from mcp.server import MCPServer
#   from mcp.server.mcpserver.exceptions import ToolError
#   from mcp.types import INTERNAL_ERROR, INVALID_PARAMS, ...
#
# What a client receives follows one behaviour table, switched by
# set_version(): "2.3.0" (the default) or "2.0.0", which differ only for an
# unexpected exception in a tool. Messages go over an in-memory JSON-RPC
# channel as JSON text, and every message is recorded in a transcript.
import asyncio
import asyncio.base_events
import dataclasses
import inspect
import json
import sys
import typing

PROTOCOL_VERSION = "2026-07-28"

# JSON-RPC error codes.
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# Codes SDKs use in the implementation-defined range.
CONNECTION_CLOSED = -32000
REQUEST_TIMEOUT = -32001

VERSIONS = ("2.0.0", "2.3.0")
_state = {"version": "2.3.0"}
__version__ = "2.3.0"


def _set_version(v):
    """Chooses which SDK release's behaviour to reproduce. Only the harness
    calls it, before the learner's code runs."""
    global __version__
    if v not in VERSIONS:
        raise ValueError("unknown mcp version %r: use one of %s" % (v, ", ".join(VERSIONS)))
    _state["version"] = v
    __version__ = v


def set_version(v):
    """The SDK release is the host's choice, fixed before this code runs."""
    raise RuntimeError("mcp.set_version is not available: the course chose mcp %s for this exercise "
                       "before your code ran, and your server is graded against that release." % _state["version"])


def get_version():
    return _state["version"]


# Every JSON-RPC message carried by a Client, in order: dicts with
# "direction" ("client->server" or "server->client") and "message" (the
# JSON text as sent).
transcript = []

# The server log: what a server writes about failures the client is not
# told of. The harness may replace _format_exception to show only the
# learner's frames.
server_log = []


def _format_exception(e):
    return type(e).__name__ + ": " + str(e) + "\n"


def _log(text):
    server_log.append(text)
    try:
        sys.stderr.write(text)
    except Exception:
        pass


# ---------------------------------------------------------------- errors


class ErrorData:
    """The error object of a JSON-RPC error response."""

    def __init__(self, code, message, data=None):
        self.code = code
        self.message = message
        self.data = data

    def __repr__(self):
        return "ErrorData(code=%r, message=%r, data=%r)" % (self.code, self.message, self.data)


class MCPError(Exception):
    """Fails the whole request with a JSON-RPC error (a protocol error).

    Raised in a tool, the client gets an error object with this code,
    message and data instead of a result; the client's call_tool raises
    MCPError with the same fields."""

    def __init__(self, code=INTERNAL_ERROR, message="", data=None):
        if isinstance(code, ErrorData):
            code, message, data = code.code, code.message, code.data
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data
        self.error = ErrorData(code, message, data)

    def __str__(self):
        return str(self.message)


McpError = MCPError


class MCPServerError(Exception):
    """Base class of the server's own exceptions."""


class ToolError(MCPServerError):
    """A failure the tool reports to the model: the client gets a result
    with isError true and this message after "Error executing tool NAME: "."""


class ValidationError(MCPServerError):
    """Arguments that do not fit a tool's input schema."""


# ---------------------------------------------------------------- types


class _Model:
    _fields = ()

    def __init__(self, **kw):
        for f in self._fields:
            setattr(self, f, kw.pop(f, None))
        if kw:
            raise TypeError("%s got unexpected fields: %s" % (type(self).__name__, ", ".join(sorted(kw))))

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join("%s=%r" % (f, getattr(self, f)) for f in self._fields))

    def __eq__(self, other):
        return type(self) is type(other) and all(getattr(self, f) == getattr(other, f) for f in self._fields)


class TextContent(_Model):
    _fields = ("type", "text")

    def __init__(self, type="text", text=""):
        super().__init__(type=type, text=text)


class ToolAnnotations(_Model):
    """Hints about a tool's behaviour. Unset hints take the cautious
    defaults: not read-only, destructive, not idempotent, open world.

    As in SDK v2, attributes are snake_case (read_only_hint, ...); the
    camelCase names of the JSON are accepted only as constructor
    arguments, and reading one as an attribute is an AttributeError."""

    _fields = ("title", "read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint")
    _camel = {"readOnlyHint": "read_only_hint", "destructiveHint": "destructive_hint",
              "idempotentHint": "idempotent_hint", "openWorldHint": "open_world_hint"}

    def __init__(self, **kw):
        for k in list(kw):
            if k in self._camel:
                kw[self._camel[k]] = kw.pop(k)
        super().__init__(**kw)
        for f in self._fields[1:]:
            v = getattr(self, f)
            if v is not None and not isinstance(v, bool):
                raise TypeError("ToolAnnotations.%s must be True, False or None, not %r" % (f, v))

    def __getattr__(self, name):
        if name in ToolAnnotations._camel:
            raise AttributeError("'ToolAnnotations' object has no attribute %r; SDK v2 attributes are snake_case: "
                                 "use %s" % (name, ToolAnnotations._camel[name]))
        raise AttributeError("'ToolAnnotations' object has no attribute %r" % name)

    def to_json(self):
        names = {v: k for k, v in self._camel.items()}
        return {names.get(f, f): getattr(self, f) for f in self._fields if getattr(self, f) is not None}


class Tool(_Model):
    _fields = ("name", "title", "description", "input_schema", "output_schema", "annotations")

    inputSchema = property(lambda self: self.input_schema)
    outputSchema = property(lambda self: self.output_schema)


class ListToolsResult(_Model):
    _fields = ("tools",)


class CallToolResult(_Model):
    """What call_tool returns. is_error is True for a tool execution error;
    content holds the text the model would read; structured_content the
    JSON value of a structured result."""

    _fields = ("content", "is_error", "structured_content")

    isError = property(lambda self: self.is_error)
    structuredContent = property(lambda self: self.structured_content)


# ---------------------------------------------------------------- JSON


def _jsonable(v):
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return dataclasses.asdict(v)
    if isinstance(v, ToolAnnotations):
        return v.to_json()
    if isinstance(v, _Model):
        return {f: getattr(v, f) for f in v._fields if getattr(v, f) is not None}
    if isinstance(v, (set, frozenset, tuple)):
        return list(v)
    return str(v)


def _dumps(v, indent=None):
    return json.dumps(v, default=_jsonable, ensure_ascii=False, indent=indent)


# ---------------------------------------------------------------- schemas

_NoneType = type(None)


def _is_typeddict(t):
    return isinstance(t, type) and issubclass(t, dict) and hasattr(t, "__required_keys__")


def _schema(t):
    """The JSON Schema of a parameter's type hint."""
    if t is inspect.Parameter.empty or t is typing.Any or t is object:
        return {}
    if t is _NoneType or t is None:
        return {"type": "null"}
    if t is str:
        return {"type": "string"}
    if t is bool:
        return {"type": "boolean"}
    if t is int:
        return {"type": "integer"}
    if t is float:
        return {"type": "number"}
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if origin is typing.Union or type(t).__name__ == "UnionType":
        return {"anyOf": [_schema(a) for a in args]}
    if origin is typing.Literal:
        return {"enum": list(args)}
    if t is list or origin is list or t is tuple or origin is tuple or t is set or origin is set:
        s = {"type": "array"}
        if args and origin is not tuple:
            s["items"] = _schema(args[0])
        return s
    if t is dict or origin is dict:
        s = {"type": "object"}
        if len(args) == 2:
            s["additionalProperties"] = _schema(args[1])
        return s
    if _is_typeddict(t):
        hints = typing.get_type_hints(t)
        return {"type": "object", "properties": {k: _schema(v) for k, v in hints.items()},
                "required": [k for k in hints if k in t.__required_keys__]}
    if dataclasses.is_dataclass(t):
        hints = typing.get_type_hints(t)
        props, req = {}, []
        for f in dataclasses.fields(t):
            props[f.name] = _schema(hints.get(f.name, typing.Any))
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                req.append(f.name)
        return {"type": "object", "properties": props, "required": req}
    return {}


_TYPE_WORDS = {str: "a string", int: "an integer", float: "a number", bool: "true or false",
               _NoneType: "null", list: "an array", dict: "an object"}


def _describe(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return json.dumps(v) + " (a string)"
    if isinstance(v, int):
        return "%d (an integer)" % v
    if isinstance(v, float):
        return "%r (a number)" % v
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return type(v).__name__


def _convert(t, v, path):
    """Checks v against the hint t and returns the value the function gets;
    raises ValidationError naming path."""
    def fail(want):
        raise ValidationError("%s: expected %s, got %s" % (path, want, _describe(v)))

    if t is inspect.Parameter.empty or t is typing.Any or t is object:
        return v
    if t is _NoneType or t is None:
        if v is not None:
            fail("null")
        return None
    if t is str:
        if not isinstance(v, str):
            fail("a string")
        return v
    if t is bool:
        if not isinstance(v, bool):
            fail("true or false")
        return v
    if t is int:
        if isinstance(v, bool) or not isinstance(v, int):
            if isinstance(v, float) and v.is_integer():
                return int(v)
            fail("an integer")
        return v
    if t is float:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            fail("a number")
        return float(v)
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if origin is typing.Union or type(t).__name__ == "UnionType":
        others = [a for a in args if a is not _NoneType]
        if v is None and len(others) < len(args):
            return None
        if len(others) == 1:
            return _convert(others[0], v, path)
        problems = []
        for a in others:
            try:
                return _convert(a, v, path)
            except ValidationError as e:
                problems.append(str(e))
        raise ValidationError("%s: expected %s, got %s" % (
            path, " or ".join(_TYPE_WORDS.get(a, getattr(a, "__name__", str(a))) for a in args), _describe(v)))
    if origin is typing.Literal:
        if v not in args:
            fail("one of " + ", ".join(json.dumps(a) for a in args))
        return v
    if t in (list, tuple, set) or origin in (list, tuple, set):
        if not isinstance(v, list):
            fail("an array")
        if args and origin is not tuple:
            v = [_convert(args[0], x, "%s[%d]" % (path, i)) for i, x in enumerate(v)]
        if t is tuple or origin is tuple:
            return tuple(v)
        if t is set or origin is set:
            return set(v)
        return v
    if t is dict or origin is dict:
        if not isinstance(v, dict):
            fail("an object")
        if len(args) == 2:
            v = {k: _convert(args[1], x, "%s.%s" % (path, k)) for k, x in v.items()}
        return v
    if _is_typeddict(t):
        if not isinstance(v, dict):
            fail("an object")
        hints = typing.get_type_hints(t)
        out = {}
        for k in t.__required_keys__:
            if k not in v:
                raise ValidationError("%s.%s: required field is missing" % (path, k))
        for k, x in v.items():
            out[k] = _convert(hints[k], x, "%s.%s" % (path, k)) if k in hints else x
        return out
    if dataclasses.is_dataclass(t):
        if not isinstance(v, dict):
            fail("an object")
        hints = typing.get_type_hints(t)
        kw = {}
        for f in dataclasses.fields(t):
            if f.name in v:
                kw[f.name] = _convert(hints.get(f.name, typing.Any), v[f.name], "%s.%s" % (path, f.name))
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValidationError("%s.%s: required field is missing" % (path, f.name))
        return t(**kw)
    return v


# ---------------------------------------------------------------- server


class _RegisteredTool:
    def __init__(self, fn, name, title, description, annotations, structured_output):
        self.fn = fn
        self.name = name
        self.title = title
        self.description = description
        self.annotations = annotations
        sig = inspect.signature(fn)
        try:
            hints = typing.get_type_hints(fn)
        except Exception:
            hints = dict(getattr(fn, "__annotations__", {}))
        self.params = []  # (name, hint, required, default)
        props, required = {}, []
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            hint = hints.get(p.name, inspect.Parameter.empty)
            s = _schema(hint)
            if p.default is not p.empty:
                s = dict(s)
                try:
                    json.dumps(p.default)
                    s["default"] = p.default
                except (TypeError, ValueError):
                    pass
            else:
                required.append(p.name)
            props[p.name] = s
            self.params.append((p.name, hint, p.default is p.empty))
        self.input_schema = {"type": "object", "properties": props}
        if required:
            self.input_schema["required"] = required
        ret = hints.get("return", inspect.Parameter.empty)
        self.output_schema = None
        if structured_output is not False and (dataclasses.is_dataclass(ret) or _is_typeddict(ret)):
            self.output_schema = _schema(ret)

    def to_json(self):
        d = {"name": self.name}
        if self.title:
            d["title"] = self.title
        if self.description:
            d["description"] = self.description
        d["inputSchema"] = self.input_schema
        if self.output_schema is not None:
            d["outputSchema"] = self.output_schema
        if self.annotations is not None:
            d["annotations"] = self.annotations.to_json()
        return d

    def bind(self, arguments):
        if not isinstance(arguments, dict):
            raise ValidationError("arguments: expected an object, got " + _describe(arguments))
        kw = {}
        for name, hint, required in self.params:
            if name in arguments:
                kw[name] = _convert(hint, arguments[name], name)
            elif required:
                raise ValidationError("%s: required argument is missing" % name)
        return kw


_servers = []


class MCPServer:
    """An MCP server whose tools are Python functions.

    mcp = MCPServer("shop")

    @mcp.tool()
    def lookup_order(order_id: str) -> dict: ...
    """

    def __init__(self, name="mcp-server", instructions=None, **settings):
        self.name = name
        self.instructions = instructions
        self._tools = {}
        _servers.append(self)

    def tool(self, name=None, title=None, description=None, annotations=None, structured_output=None):
        """Registers a function as a tool: @mcp.tool() (with the brackets)."""
        if callable(name):
            raise TypeError("The @tool decorator was used incorrectly. Use @tool() with brackets.")
        if isinstance(annotations, dict):
            annotations = ToolAnnotations(**annotations)
        elif annotations is not None and not isinstance(annotations, ToolAnnotations):
            raise TypeError("annotations must be a ToolAnnotations or a dict, not " + type(annotations).__name__)

        def decorator(fn):
            tname = name or fn.__name__
            desc = description if description is not None else inspect.cleandoc(fn.__doc__ or "")
            self._tools[tname] = _RegisteredTool(fn, tname, title, desc, annotations, structured_output)
            return fn

        return decorator

    def add_tool(self, fn, name=None, title=None, description=None, annotations=None, structured_output=None):
        self.tool(name=name, title=title, description=description, annotations=annotations,
                  structured_output=structured_output)(fn)

    def run(self, *args, **kwargs):
        raise RuntimeError("This sandbox has no transport to serve over: talk to the server with Client(mcp).")

    # The JSON-RPC side.

    async def handle_json(self, text, version=None, guard=None):
        """Answers one JSON-RPC message given as JSON text; returns the
        response as JSON text, or None for a notification.

        The harness answers the host's requests with version (the release
        the host chose) and guard (the immutable record of every module,
        class and function as they were before learner code ran; see
        _reassert in the harness). Both arrive as arguments, never from
        state learner code can reach, and the methods are called through
        the class, so a server's own attributes cannot stand in for them."""
        try:
            msg = json.loads(text)
        except ValueError as e:
            # No id can be read from text that is not JSON, so the response
            # leaves id out, as JSONRPCErrorResponse allows (not "id": null,
            # which no RequestId is).
            return _dumps({"jsonrpc": "2.0", "error": {"code": PARSE_ERROR, "message": "Parse error: " + str(e)}})
        resp = await MCPServer.handle(self, msg, version, guard)
        return None if resp is None else _dumps(resp)

    async def handle(self, msg, version=None, guard=None):
        if version is None:
            version = _state["version"]
        if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or not isinstance(msg.get("method"), str):
            rid = msg.get("id") if isinstance(msg, dict) else None
            return _error(rid, INVALID_REQUEST, "Invalid request: expected a JSON-RPC 2.0 request object.")
        if "id" not in msg:
            return None  # a notification: no answer
        rid = msg["id"]
        params = msg.get("params")
        if params is None:
            params = {}
        if not isinstance(params, dict):
            return _error(rid, INVALID_REQUEST, "Invalid request: params must be an object.")
        method = msg["method"]
        try:
            if method == "tools/list":
                result = {"tools": [t.to_json() for t in self._tools.values()]}
                result["cacheScope"] = "public"
                result["ttlMs"] = 0
            elif method == "tools/call":
                name = params.get("name")
                if not isinstance(name, str):
                    return _error(rid, INVALID_PARAMS, "Invalid params: tools/call needs a tool name.")
                arguments = params.get("arguments")
                if arguments is None:
                    arguments = {}
                if not isinstance(arguments, dict):
                    # The params do not fit CallToolRequestParams, whose
                    # arguments are an object: the SDK's validation of the
                    # request answers with INVALID_PARAMS before any tool runs.
                    return _error(rid, INVALID_PARAMS, "Invalid params: tools/call arguments must be an object, got " + _describe(arguments) + ".")
                result = await MCPServer._call(self, name, arguments, version, guard)
            elif method == "server/discover":
                result = {"supportedVersions": [PROTOCOL_VERSION], "capabilities": {"tools": {}},
                          "serverInfo": {"name": str(self.name), "version": version}}
                if self.instructions:
                    result["instructions"] = self.instructions
            elif method == "ping":
                result = {}
            else:
                return _error(rid, METHOD_NOT_FOUND, "Method not found: " + method)
        except MCPError as e:
            err = {"code": e.code, "message": str(e.message)}
            if e.data is not None:
                err["data"] = e.data
            return {"jsonrpc": "2.0", "id": rid, "error": err}
        result["resultType"] = "complete"
        return {"jsonrpc": "2.0", "id": rid, "result": result}

    async def _call(self, name, arguments, version=None, guard=None):
        if version is None:
            version = _state["version"]
        if guard is not None:
            return await _guarded_call(self, name, arguments, version, guard)
        tool = self._tools.get(name)
        if tool is None:
            return _tool_error("Unknown tool: " + name)
        try:
            kw = tool.bind(arguments)
        except ValidationError as e:
            return _tool_error("Error executing tool %s: invalid arguments: %s" % (name, e))
        try:
            value = tool.fn(**kw)
            if inspect.isawaitable(value):
                value = await value
        except MCPError:
            raise
        except ToolError as e:
            return _tool_error("Error executing tool %s: %s" % (name, e))
        except Exception as e:
            _log("Error executing tool %s\n%s" % (name, _format_exception(e)))
            if version == "2.0.0":
                return _tool_error("Error executing tool %s: %s" % (name, e))
            return _tool_error("Error executing tool " + name)
        return _tool_result(value)


def _reassert(guard):
    """Puts every guarded module, class, function and cell back as it was
    before learner code ran. guard holds only tuples, which no code can
    change; the function itself is among those guarded, and callers that
    must not trust it (the harness's loop) repeat its body inline."""
    for kind, target, items in guard:
        if kind == 0:  # a module's dict: put back what changed, drop what was added
            for k, v in items:
                if target.get(k, target) is not v:
                    target[k] = v
            if len(target) != len(items):
                keys = frozenset(k for k, v in items)
                for k in [k for k in target if k not in keys]:
                    del target[k]
        elif kind == 1:  # a class's attributes
            have = target.__dict__
            for k in [k for k in have if k not in items[1]]:
                try:
                    delattr(target, k)
                except (AttributeError, TypeError):
                    pass
            for k, v in items[0]:
                if have.get(k) is not v:
                    try:
                        setattr(target, k, v)
                    except (AttributeError, TypeError):
                        pass
        elif kind == 2:  # a function's code, defaults and closure cells
            if target.__code__ is not items[0]:
                target.__code__ = items[0]
            if target.__defaults__ is not items[1]:
                target.__defaults__ = items[1]
            if target.__kwdefaults__ is not items[2]:
                target.__kwdefaults__ = items[2]
            for cell, v in items[3]:
                cell.cell_contents = v


async def _guarded_call(server, name, arguments, version, guard):
    """_call for the host's requests: the tool's outcome is read only after
    everything the tool could have rewritten is put back, and by type, so
    an exception that only claims to be a ToolError is not one."""
    tool = server._tools.get(name)
    if tool is None:
        _reassert(guard)
        return _tool_error("Unknown tool: " + name)
    outcome = None
    try:
        kw = _RegisteredTool.bind(tool, arguments)
    except BaseException as e:
        outcome = e
    else:
        try:
            value = tool.fn(**kw)
            if inspect.isawaitable(value):
                value = await value
        except BaseException as e:
            outcome = e
    _reassert(guard)
    if outcome is None:
        result = _tool_result(value)
        _reassert(guard)
        return result
    kind = type(outcome)
    if issubclass(kind, (KeyboardInterrupt, SystemExit, GeneratorExit)) or not issubclass(kind, Exception):
        raise outcome
    if issubclass(kind, MCPError):
        code, message, data = outcome.code, "".join((str(outcome.message),)), outcome.data
        _reassert(guard)
        raise MCPError(code, message, data)
    if issubclass(kind, ValidationError):
        said = "".join((str(outcome),))
        _reassert(guard)
        return _tool_error("Error executing tool %s: invalid arguments: %s" % (name, said))
    if issubclass(kind, ToolError):
        said = "".join((str(outcome),))
        _reassert(guard)
        return _tool_error("Error executing tool %s: %s" % (name, said))
    log = "Error executing tool %s\n%s" % (name, "".join((_format_exception(outcome),)))
    said = "".join((str(outcome),)) if version == "2.0.0" else ""
    _reassert(guard)
    _log(log)
    if version == "2.0.0":
        return _tool_error("Error executing tool %s: %s" % (name, said))
    return _tool_error("Error executing tool " + name)


def _error(rid, code, message):
    # A response to a message whose id could not be read leaves id out.
    if rid is None:
        return {"jsonrpc": "2.0", "error": {"code": code, "message": message}}
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}}


def _tool_error(text):
    return {"content": [{"type": "text", "text": text}], "isError": True}


def _tool_result(value):
    structured = None
    if isinstance(value, _Model) and isinstance(value, TextContent):
        content = [_jsonable(value)]
    elif isinstance(value, list) and value and all(isinstance(v, TextContent) for v in value):
        content = [_jsonable(v) for v in value]
    elif value is None:
        content = []
    elif isinstance(value, str):
        content = [{"type": "text", "text": value}]
    else:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            value = dataclasses.asdict(value)
        text = _dumps(value, indent=2)
        content = [{"type": "text", "text": text}]
        if isinstance(value, dict):
            structured = json.loads(_dumps(value))
    result = {"content": content, "isError": False}
    if structured is not None:
        result["structuredContent"] = structured
    return result


# ---------------------------------------------------------------- client


class Client:
    """A client connected to a server in the same process.

        async with Client(mcp) as client:
            result = await client.call_tool("lookup_order", {"order_id": "A17"})

    Requests and responses travel as JSON text and are recorded in
    mcp.transcript. A protocol error makes the call raise MCPError."""

    def __init__(self, server, **kwargs):
        if not isinstance(server, MCPServer):
            raise TypeError("Client(server) needs an MCPServer, not " + type(server).__name__)
        self._server = server
        self._next_id = 1

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc):
        return False

    async def _request(self, method, params):
        params = dict(params)
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": PROTOCOL_VERSION,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": {"name": "learn-client", "version": "1.0"},
        }
        rid = self._next_id
        self._next_id += 1
        text = _dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        transcript.append({"direction": "client->server", "message": text})
        answer = await self._server.handle_json(text)
        transcript.append({"direction": "server->client", "message": answer})
        resp = json.loads(answer)
        if "error" in resp:
            e = resp["error"]
            raise MCPError(e.get("code"), e.get("message"), e.get("data"))
        return resp["result"]

    async def list_tools(self, cursor=None):
        r = await self._request("tools/list", {} if cursor is None else {"cursor": cursor})
        tools = []
        for t in r.get("tools", []):
            ann = t.get("annotations")
            tools.append(Tool(name=t.get("name"), title=t.get("title"), description=t.get("description"),
                              input_schema=t.get("inputSchema"), output_schema=t.get("outputSchema"),
                              annotations=ToolAnnotations(**ann) if ann is not None else None))
        return ListToolsResult(tools=tools)

    async def call_tool(self, name, arguments=None, **kwargs):
        params = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        r = await self._request("tools/call", params)
        content = []
        for c in r.get("content", []):
            if c.get("type") == "text":
                content.append(TextContent(text=c.get("text", "")))
            else:
                content.append(c)
        return CallToolResult(content=content, is_error=bool(r.get("isError", False)),
                              structured_content=r.get("structuredContent"))

    async def ping(self):
        await self._request("ping", {})


# ---------------------------------------------------------------- asyncio


class _NoSelector:
    """Stands in for a selector: this build has no sockets or pipes to
    wait on, so waiting only ever means sleeping until the next timer."""

    def select(self, timeout=None):
        if timeout is None:
            raise RuntimeError("the event loop has nothing left to run: something awaits a result that can never come")
        if timeout > 0:
            import time
            time.sleep(timeout)
        return []

    def close(self):
        pass


class SandboxEventLoop(asyncio.base_events.BaseEventLoop):
    """An event loop that needs no self-pipe (the default loop's
    socketpair fails in WASI): callbacks and timers only."""

    def __init__(self):
        super().__init__()
        self._selector = _NoSelector()

    def _process_events(self, event_list):
        pass

    def _write_to_self(self):
        pass


class _Policy(asyncio.DefaultEventLoopPolicy):
    _loop_factory = SandboxEventLoop


def install_event_loop():
    """Makes asyncio.run and friends use SandboxEventLoop."""
    asyncio.set_event_loop_policy(_Policy())
