"""A small JSON Schema (2020-12) checker for the keywords the tool schemas use.

The server checks every tool's arguments against its input schema and every result against its
output schema before sending it. ``jsonschema`` would do, but it is a test dependency only and
costs more import time than the whole server start; the tests check the same schemas with it.

Keywords understood: type, enum, const, properties, required, additionalProperties, items,
minLength, maxLength, pattern, minimum, maximum, minItems, maxItems, anyOf. Anything else
in a schema is ignored, so schemas must stay within this list (a test asserts it).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

KEYWORDS = frozenset({
    "type", "enum", "const", "properties", "required", "additionalProperties", "items",
    "minLength", "maxLength", "pattern", "minimum", "maximum", "minItems", "maxItems", "anyOf",
    # annotations only
    "description", "title", "default", "examples", "$schema",
})


def _is_type(value: Any, name: str) -> bool:
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if isinstance(value, bool):
        return False
    if name == "integer":
        return isinstance(value, int) or (isinstance(value, float) and value.is_integer())
    if name == "number":
        return isinstance(value, int | float)
    raise ValueError(f"unknown JSON Schema type {name!r}")


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def _where(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "$"


def errors(value: Any, schema: dict[str, Any], path: tuple = ()) -> list[tuple[tuple, str]]:
    """Every violation as (path, message); empty when ``value`` conforms."""
    out: list[tuple[tuple, str]] = []
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else types
        if not any(_is_type(value, n) for n in names):
            return [(path, f"{_where(path)} must be of type {' or '.join(names)}")]
    if "const" in schema and value != schema["const"]:
        out.append((path, f"{_where(path)} must be {schema['const']!r}"))
    if "enum" in schema and value not in schema["enum"]:
        shown = ", ".join(map(str, schema["enum"][:12]))
        out.append((path, f"{_where(path)} must be one of: {shown}"))
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            out.append((path, f"{_where(path)} must have at least {schema['minLength']} "
                              "character(s)"))
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            out.append((path, f"{_where(path)} must have at most {schema['maxLength']} "
                              "characters"))
        if "pattern" in schema and not _regex(schema["pattern"]).search(value):
            out.append((path, f"{_where(path)} does not match {schema['pattern']}"))
    if isinstance(value, int | float) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            out.append((path, f"{_where(path)} must be >= {schema['minimum']}"))
        if "maximum" in schema and value > schema["maximum"]:
            out.append((path, f"{_where(path)} must be <= {schema['maximum']}"))
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            out.append((path, f"{_where(path)} must have at least {schema['minItems']} items"))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            out.append((path, f"{_where(path)} must have at most {schema['maxItems']} items"))
        items = schema.get("items")
        if isinstance(items, dict):
            for i, item in enumerate(value):
                out += errors(item, items, path + (i,))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for key in schema.get("required", ()):
            if key not in value:
                out.append((path + (key,), f"{_where(path + (key,))} is required"))
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in props:
                out += errors(item, props[key], path + (key,))
            elif extra is False:
                out.append((path + (key,), f"{_where(path + (key,))} is not an accepted "
                                           f"property; accepted: {', '.join(props)}"))
            elif isinstance(extra, dict):
                out += errors(item, extra, path + (key,))
    if "anyOf" in schema:
        if all(errors(value, s, path) for s in schema["anyOf"]):
            out.append((path, f"{_where(path)} matches none of the accepted shapes"))
    return out


def unknown_keywords(schema: Any) -> set[str]:
    """Keywords this checker would silently ignore (property names are not keywords)."""
    found: set[str] = set()
    if not isinstance(schema, dict):
        return found
    for key, sub in schema.items():
        if key not in KEYWORDS:
            found.add(key)
        if key == "properties":
            for s in sub.values():
                found |= unknown_keywords(s)
        elif key in ("items", "additionalProperties"):
            found |= unknown_keywords(sub)
        elif key == "anyOf":
            for s in sub:
                found |= unknown_keywords(s)
    return found
