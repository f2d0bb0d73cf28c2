"""Wire facts of the two MCP revisions the server speaks, and the JSON-RPC error codes.

Era routing is per request (the spec lets a dual-era server serve both eras in one process):
a request whose ``params._meta`` carries ``io.modelcontextprotocol/protocolVersion`` is served
statelessly under 2026-07-28; ``initialize`` starts the handshake era for the process; after it,
plain requests are served under 2025-11-25; before it, only ``ping`` is.
"""

from __future__ import annotations

from typing import Any

LEGACY_VERSION = "2025-11-25"
MODERN_VERSION = "2026-07-28"
# Both revisions are listed in server/discover and in every -32022: a client that sees the
# handshake version there knows it may fall back to initialize.
SUPPORTED_VERSIONS = [MODERN_VERSION, LEGACY_VERSION]

PROTOCOL_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNSUPPORTED_PROTOCOL_VERSION = -32022
# Application-defined, so outside -32768..-32000 as the 2026-07-28 code policy asks.
SERVER_BUSY = -31000

MAX_LINE_BYTES = 16 << 20  # one JSON-RPC message; a longer line is answered and skipped
MAX_QUEUED_CALLS = 8  # tools/call requests waiting behind the running one

# Tool lists and discover results depend only on the command line the server was started with.
CACHE_TTL_MS = 300_000
CACHE_SCOPE = "public"

SERVER_NAME = "lispex-court"
SERVER_TITLE = "Lispex Court"

INSTRUCTIONS = (
    "Lispex Court runs Lispex programs (a small R7RS-shaped Lisp for decision rules) and compares "
    "implementations. lispex_eval runs source on one implementation; lispex_compare runs it on "
    "every member of a court and says whether they agree (a disagreement is a successful call); "
    "lispex_check only reads and normalises; lispex_diagnostic explains a diagnostic code; "
    "lispex_reference lists procedures, forms, reserved words, diagnostics, profiles and courts. "
    "The server evaluates and compares source held in memory only: it never reads files (filename "
    "is a label), edits nothing, and keeps no data between calls. Every evaluation runs in a "
    "worker process under a resource profile and a wall-clock timeout."
)


def server_info(version: str) -> dict[str, str]:
    return {"name": SERVER_NAME, "title": SERVER_TITLE, "version": version}


def capabilities() -> dict[str, Any]:
    return {"tools": {"listChanged": False}}


def error(rid: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
    """A JSON-RPC error response; ``rid`` is MISSING when the id could not be read (a parse
    error, a batch, an id of the wrong type), and then the id is null, as JSON-RPC 2.0 requires
    and the MCP SDK's own error model encodes it."""
    body: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": None if rid is MISSING else rid, "error": body}


def result(rid: Any, body: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": body}


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


def valid_id(rid: Any) -> bool:
    """Request ids are strings or integers (never null, never a bool, never a float)."""
    return isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool))


def id_key(rid: Any) -> tuple[str, Any]:
    """Ids compare with their JSON type kept: 1 and "1" are different requests."""
    return (type(rid).__name__, rid)


def envelope_problem(params: dict[str, Any]) -> tuple[int, str, Any] | None:
    """Check the 2026-07-28 per-request envelope, in the order the reference SDK does:
    both required keys (-32602), version a string (-32602), version supported (-32022)."""
    meta = params.get("_meta")
    if not isinstance(meta, dict):
        return (INVALID_PARAMS, f"params._meta must be an object carrying {PROTOCOL_KEY} and "
                                f"{CAPABILITIES_KEY}", None)
    missing = [k for k in (PROTOCOL_KEY, CAPABILITIES_KEY) if k not in meta]
    if missing:
        return (INVALID_PARAMS, "params._meta is missing the required envelope key(s): "
                + ", ".join(missing), {"missing": missing})
    if not isinstance(meta[CAPABILITIES_KEY], dict):
        return (INVALID_PARAMS, f"params._meta.{CAPABILITIES_KEY} must be an object", None)
    version = meta[PROTOCOL_KEY]
    if not isinstance(version, str):
        return (INVALID_PARAMS, f"params._meta.{PROTOCOL_KEY} must be a string", None)
    if version != MODERN_VERSION:
        message = "Unsupported protocol version"
        if version == LEGACY_VERSION:
            message += f"; {LEGACY_VERSION} is served through the initialize handshake"
        return (UNSUPPORTED_PROTOCOL_VERSION, message,
                {"supported": list(SUPPORTED_VERSIONS), "requested": version})
    return None


def progress_token(params: dict[str, Any]) -> Any:
    meta = params.get("_meta")
    if isinstance(meta, dict):
        token = meta.get("progressToken")
        if valid_id(token):
            return token
    return None
