"""The tools' input and output JSON Schemas (2020-12, object-rooted so that one definition is
valid in both protocol revisions). Enumerations that depend on the start options (products,
courts, profiles) are filled in by :func:`input_schemas`.
"""

from __future__ import annotations

from typing import Any

MAX_SOURCE = 8 << 20  # characters here (JSON Schema counts characters); the handler bounds bytes
MAX_INPUT = 1 << 20
MAX_FILENAME = 4096

STR: dict[str, Any] = {"type": "string"}
STR_OR_NULL: dict[str, Any] = {"type": ["string", "null"]}
STRINGS: dict[str, Any] = {"type": "array", "items": STR}
OBJECT: dict[str, Any] = {"type": "object"}
REMEDY: dict[str, Any] = {"type": "string", "description": "for status unavailable: how to make "
                          "the missing members available (the server flag, or what to install)"}

SOURCE = {"type": "string", "maxLength": MAX_SOURCE,
          "description": "the whole Lispex program text (top-level forms run in order); at "
                         "most 8 MiB (8,388,608 bytes) as UTF-8: a longer source is refused "
                         "with invalid params, whatever its length in characters"}
INPUT = {"type": "string", "minLength": 1, "maxLength": MAX_INPUT,
         "description": "one Lispex datum as text, e.g. \"(age 17)\"; bound, unevaluated, to "
                        "the global `input` (omit it and `input` is unbound)"}
FILENAME = {"type": "string", "minLength": 1, "maxLength": MAX_FILENAME,
            "pattern": "^[^\\u0000-\\u001f\\u007f]+$",
            "description": "a label for spans in diagnostics (default program.lspx); "
                           "never read from disk"}


def input_schemas(products: list[str], courts: list[str], profiles: list[str],
                  default_profile: str, default_court: str) -> dict[str, dict[str, Any]]:
    schemas = _input_schemas(products, courts, profiles, default_profile, default_court)
    return {name: {"$schema": DIALECT, **schema} for name, schema in schemas.items()}


def _input_schemas(products: list[str], courts: list[str], profiles: list[str],
                   default_profile: str, default_court: str) -> dict[str, dict[str, Any]]:
    profile = {"type": "string", "enum": profiles, "default": default_profile,
               "description": "resource profile (meter limits) of the run"}
    return {
        "lispex_eval": {
            "type": "object", "additionalProperties": False, "required": ["source"],
            "properties": {
                "source": SOURCE, "input": INPUT, "filename": FILENAME,
                "implementation": {"type": "string", "enum": products, "default": "tree",
                                   "description": "the product to run the program on"},
                "profile": profile,
            },
        },
        "lispex_compare": {
            "type": "object", "additionalProperties": False, "required": ["source"],
            "properties": {
                "source": SOURCE, "input": INPUT, "filename": FILENAME,
                "court": {"type": "string", "enum": courts, "default": default_court,
                          "description": "the panel of implementations to compare"},
                "profile": profile,
                "receipt": {"type": "boolean", "default": False,
                            "description": "also return a signed receipt (a DSSE envelope, "
                                           "docs/vouchers.md); needs a server started with "
                                           "--signing-key"},
            },
        },
        "lispex_check": {
            "type": "object", "additionalProperties": False, "required": ["source"],
            "properties": {"source": SOURCE, "filename": FILENAME},
        },
        "lispex_diagnostic": {
            "type": "object", "additionalProperties": False, "required": ["code"],
            "properties": {"code": {"type": "string", "minLength": 1, "maxLength": 64,
                                    "description": "a diagnostic code, e.g. E302, W330, "
                                                   "token-limit"}},
        },
        "lispex_reference": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "topic": {"type": "string",
                          "enum": ["procedures", "forms", "reserved", "diagnostics",
                                   "profiles", "courts"],
                          "description": "omit to list the topics"},
                "name": {"type": "string", "minLength": 1, "maxLength": 256,
                         "description": "one entry of the topic (or of any topic when the "
                                        "topic is omitted)"},
            },
        },
    }


SPAN = {"type": ["object", "null"],
        "properties": {"file": STR_OR_NULL, "line": {"type": ["integer", "null"]},
                       "column": {"type": ["integer", "null"]}}}
DIAGNOSTIC = {"type": "object", "required": ["code", "severity", "message"],
              "properties": {"code": STR, "severity": STR, "phase": STR_OR_NULL,
                             "message": STR, "irritants": STRINGS, "span": SPAN}}
DIAGNOSTICS = {"type": "array", "items": DIAGNOSTIC}
OUTCOME = {"type": "object", "required": ["status"], "properties": {"status": STR}}
FAULTS = {"type": "array", "items": {"type": "object", "required": ["kind", "message"],
                                     "properties": {"kind": STR, "message": STR}}}
PRODUCTS = {"type": "object",
            "properties": {"product_id": STR_OR_NULL, "core_ir_id": STR_OR_NULL,
                           "bytecode_id": STR_OR_NULL}}

EVAL_STATUSES = ["ok", "source-error", "runtime-error", "resource", "infrastructure-error",
                 "timeout", "unavailable"]
EVAL_RESULT = {
    "type": "object",
    "required": ["status", "implementation", "values", "stdout", "exit_status", "diagnostics",
                 "warnings", "resource_outcome", "products", "profile"],
    "properties": {
        "status": {"type": "string", "enum": EVAL_STATUSES},
        "implementation": STR,
        "values": {"type": ["array", "null"], "items": STR},
        "stdout": STR_OR_NULL,
        "exit_status": {"type": ["integer", "null"]},
        "diagnostics": DIAGNOSTICS,
        "warnings": DIAGNOSTICS,
        "resource_outcome": OUTCOME,
        "products": {**PRODUCTS, "required": ["product_id", "core_ir_id"]},
        "profile": STR,
        "resources": OBJECT,
        "faults": FAULTS,
        "missing_prerequisites": STRINGS,
        "attempted_routes": STRINGS,
        "remedy": REMEDY,
        "timeout_seconds": {"type": "number"},
    },
}

SEMANTIC = {"type": "object", "required": ["status", "exit_status", "diagnostics", "warnings"],
            "properties": {"status": {"type": "string", "enum": EVAL_STATUSES[:5]},
                           "values": {"type": ["array", "null"], "items": STR},
                           "stdout": STR_OR_NULL, "exit_status": {"type": ["integer", "null"]},
                           "diagnostics": DIAGNOSTICS, "warnings": DIAGNOSTICS,
                           "resource_outcome": OUTCOME}}
COMPARE_RESULT = {
    "type": "object",
    "required": ["schema", "court", "status", "verdict", "observations", "factions",
                 "divergence", "missing_prerequisites", "attempted_routes", "faults",
                 "core_ir_id", "bytecode_id", "profile"],
    "properties": {
        "schema": {"const": "lispex.court-result/v1"},
        "court": STR,
        "status": {"type": "string", "enum": ["completed", "unavailable", "timeout"]},
        "verdict": {"type": ["string", "null"],
                    "enum": ["agree", "disagree", "one-sided-limit", "member-fault",
                             "not-comparable", None]},
        "observations": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["semantic", "resources", "products"],
            "properties": {"semantic": SEMANTIC, "resources": OBJECT, "products": PRODUCTS,
                           "faults": FAULTS, "uncomparable_axes": STRINGS}}},
        "factions": {"type": "array", "items": STRINGS},
        "divergence": {"type": ["object", "null"]},
        "missing_prerequisites": STRINGS,
        "attempted_routes": STRINGS,
        "remedy": REMEDY,
        "faults": {"type": "array", "items": OBJECT},
        "core_ir_id": STR_OR_NULL,
        "core_ir_ids": {"type": "object", "additionalProperties": STR},
        "bytecode_id": STR_OR_NULL,
        "bytecode_ids": {"type": "object", "additionalProperties": STR},
        "model_splits": {"type": "array", "items": OBJECT},
        "lineages": {"type": "object", "additionalProperties": STR},
        "profile": STR,
        "details": OBJECT,
        "wall_seconds": {"type": "number"},
        "reasons": STRINGS,
        "suspect": {"type": ["object", "null"]},
        "evidence": OBJECT,
        "timeout_seconds": {"type": "number"},
        "receipt": {"type": "object", "required": ["payload", "payloadType", "signatures"]},
    },
}

CHECK_RESULT = {
    "type": "object",
    "required": ["status", "core_ir_id", "diagnostics", "profile"],
    "properties": {
        "status": {"type": "string", "enum": ["ok", "source-error", "resource"]},
        "core_ir_id": STR_OR_NULL,
        "diagnostics": DIAGNOSTICS,
        "forms": {"type": "integer", "minimum": 0},
        "resource_outcome": OUTCOME,
        "usage": OBJECT,
        "profile": STR,
    },
}

DIAGNOSTIC_RESULT = {
    "type": "object",
    "required": ["known", "code", "profile"],
    "properties": {
        "known": {"type": "boolean"},
        "code": STR,
        "severity": STR,
        "phase": STR,
        "family": STR,
        "exit_status": {"type": "integer"},
        "raising_condition": STR,
        "suggestions": STRINGS,
        "profile": STR,
    },
}

REFERENCE_RESULT = {
    "type": "object",
    "required": ["profile"],
    "properties": {
        "topics": {"type": "array", "items": {
            "type": "object", "required": ["topic", "description", "count"],
            "properties": {"topic": STR, "description": STR, "count": {"type": "integer"}}}},
        "topic": STR_OR_NULL,
        "entries": {"type": "array", "items": {
            "type": "object", "required": ["name", "disposition"],
            "properties": {"name": STR, "disposition": STR}}},
        "known": {"type": "boolean"},
        "name": STR,
        "disposition": STR,
        "suggestions": STRINGS,
        "profile": STR,
    },
}

OUTPUT_RESULTS = {
    "lispex_eval": EVAL_RESULT,
    "lispex_compare": COMPARE_RESULT,
    "lispex_check": CHECK_RESULT,
    "lispex_diagnostic": DIAGNOSTIC_RESULT,
    "lispex_reference": REFERENCE_RESULT,
}


# Every tool schema names its dialect, so clients (the MCP Inspector among them) need not guess.
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def portable(schema: Any) -> Any:
    """``schema`` with every ``"type": [T, "null"]`` written as ``anyOf`` of the two, which
    every client's validator reads the same way (a type list is valid JSON Schema, but some
    MCP clients and code generators warn on it or read only its first type)."""
    if isinstance(schema, list):
        return [portable(x) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: portable(v) for k, v in schema.items()}
    kind = out.get("type")
    if isinstance(kind, list) and "null" in kind:
        rest = [t for t in kind if t != "null"]
        inner = {k: v for k, v in out.items() if k != "type"}
        if "enum" in inner:
            inner["enum"] = [e for e in inner["enum"] if e is not None]
        inner["type"] = rest[0] if len(rest) == 1 else rest
        return {"anyOf": [inner, {"type": "null"}]}
    return out


def output_schema(tool: str) -> dict[str, Any]:
    """Results travel as ``structuredContent.result``."""
    return {"$schema": DIALECT, "type": "object", "required": ["result"],
            "additionalProperties": False,
            "properties": {"result": portable(OUTPUT_RESULTS[tool])}}
