"""`court core-ir`: one program normalized by each named implementation's own kernel, in
process; their Core IR ids, and where two differ, the first node at which the trees part."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..report.difference import windows
from .checks import read_program
from .usage import UsageError

# What a node holds besides its children, as its canonical text shows it (a global's slot and a
# local's name are left out of that text, so they are left out here). The node classes of both
# kernels have these names and fields.
_HEADS: dict[str, Callable[[Any], tuple]] = {
    "Const": lambda n: (),  # a leaf: its text is all of it
    "Local": lambda n: (n.depth, n.index),
    "Global": lambda n: (n.name,),
    "Intrinsic": lambda n: (n.name,),
    "Lambda": lambda n: (n.name or "-", n.nparams, bool(n.rest)),
    "SetLocal": lambda n: (n.depth, n.index),
    "SetGlobal": lambda n: (n.name,),
    "DefineGlobal": lambda n: (n.name,),
    "App": lambda n: (bool(n.tail),),
}


def children(node: Any) -> list[Any]:
    """A node's children in the order of its canonical text; an absent guard body is None."""
    kind = type(node).__name__
    if kind == "App":
        return [node.op, *node.args]
    if kind == "If":
        return [node.test, node.then, node.else_]
    if kind == "Lambda":
        return [node.body]
    if kind == "Seq":
        return list(node.exprs)
    if kind in ("Let", "Letrec"):
        return [*node.inits, node.body]
    if kind == "ValuesNode":
        return list(node.args)
    if kind in ("SetLocal", "SetGlobal", "DefineGlobal"):
        return [node.value]
    if kind == "Guard":
        out = [node.body]
        for test, body in node.clauses:
            out += [test, body]
        return out + [node.else_body]
    return []


def _head(node: Any) -> tuple:
    if node is None:
        return ("-",)
    kind = type(node).__name__
    return (kind, *_HEADS.get(kind, lambda n: ())(node))


@dataclass
class Reading:
    """One implementation's Core IR of the program, or the diagnostic of why it has none."""
    impl: str
    program: Any = None
    text: Callable[[Any], str] | None = None
    diagnostic: str | None = None

    def node_text(self, node: Any) -> str:
        assert self.text is not None
        return "-" if node is None else self.text(node)


@dataclass
class FirstDifference:
    form: int
    path: list[int]  # child indices from the form down
    span: str | None
    left: str
    right: str


def _span(node: Any, label: str) -> str | None:
    span = getattr(node, "span", None)
    if span is None:
        return None
    return f"{label}:{span.line}:{span.column}"


def first_difference(a: Reading, b: Reading, label: str) -> FirstDifference | None:
    """The first node, in the order of the canonical text, where the two trees differ: the
    outermost node whose own fields or number of children differ, or, when those agree, the
    first child that differs, followed down. None when the trees read the same."""
    fa, fb = a.program.forms, b.program.forms
    for i in range(max(len(fa), len(fb))):
        x = fa[i] if i < len(fa) else None
        y = fb[i] if i < len(fb) else None
        tx = a.node_text(x) if i < len(fa) else "(no form)"
        ty = b.node_text(y) if i < len(fb) else "(no form)"
        if tx == ty:
            continue
        path: list[int] = []
        # Walk down by a loop, not recursion: Core IR may nest deeper than Python recurses.
        while x is not None and y is not None and _head(x) == _head(y):
            cx, cy = children(x), children(y)
            if len(cx) != len(cy):
                break
            step = next((j for j, (p, q) in enumerate(zip(cx, cy, strict=True))
                         if a.node_text(p) != b.node_text(q)), None)
            if step is None:
                break
            path.append(step)
            x, y = cx[step], cy[step]
            tx, ty = a.node_text(x), b.node_text(y)
        return FirstDifference(i, path, _span(x, label) or _span(y, label), tx, ty)
    return None


def read_all(source: bytes, impls: list[str], label: str) -> list[Reading]:
    # Here, not at the top: the kernels are loaded only by the command that uses them.
    from implementations import registry
    from implementations.kernels import FrontEndFailed, core_ir

    backends = []
    for impl in impls:
        try:
            backends.append((impl, registry.load(impl)))
        except registry.UnknownImplementation as e:
            raise UsageError(f"court: {e.args[0]}") from None
    out = []
    for impl, backend in backends:
        try:
            program, text = core_ir(source, backend, label)
            out.append(Reading(impl, program, text))
        except FrontEndFailed as e:
            out.append(Reading(impl, diagnostic=e.diagnostic))
    return out


def _impls(arg: str) -> list[str]:
    impls = [s.strip() for s in arg.split(",")]
    if any(not s for s in impls) or len(impls) < 2:
        raise UsageError("court core-ir: --impl takes two or more comma-separated "
                         "implementation ids, e.g. tree,topaz-tree")
    if len(set(impls)) != len(impls):
        raise UsageError("court core-ir: --impl names an implementation twice")
    return impls


def compare_readings(readings: list[Reading], label: str) -> dict[str, Any]:
    """The command's answer as one JSON-ready object; each differing reading is compared with
    the first."""
    first = readings[0]
    out: dict[str, Any] = {
        "program": label,
        "implementations": [{"impl": r.impl,
                             "core_ir_id": r.program.core_ir_id() if r.program else None,
                             "diagnostic": r.diagnostic} for r in readings],
        "differences": []}
    ids = [m["core_ir_id"] for m in out["implementations"]]
    out["agree"] = None not in ids and len(set(ids)) == 1
    if first.program is None:
        return out
    for r, rid in zip(readings[1:], ids[1:], strict=True):
        if rid is None or rid == ids[0]:
            continue
        d = first_difference(first, r, label)
        entry: dict[str, Any] = {"left": first.impl, "right": r.impl}
        if d is not None:
            entry.update({"form": d.form, "path": d.path, "span": d.span,
                          "texts": {first.impl: d.left, r.impl: d.right}})
        out["differences"].append(entry)
    return out


def render(result: dict[str, Any], width: int) -> list[str]:
    name_w = max(len(m["impl"]) for m in result["implementations"])
    lines = []
    for m in result["implementations"]:
        what = f"core_ir_id {m['core_ir_id']}" if m["core_ir_id"] else \
            f"no Core IR: {m['diagnostic']}"
        lines.append(f"{m['impl']:<{name_w}}  {what}")
    if result["agree"]:
        lines.append("the Core IR ids agree")
    for d in result["differences"]:
        left, right = d["left"], d["right"]
        if "form" not in d:
            lines.append(f"{left} and {right}: the ids differ, the trees read the same")
            continue
        where = f"form {d['form']}" + (f", child {'.'.join(map(str, d['path']))}"
                                       if d["path"] else "")
        if d["span"]:
            where += f" ({d['span']})"
        lines.append(f"first differing node of {left} and {right}: {where}")
        shown = windows(d["texts"], max(width - name_w - 4, 24))
        for impl in (left, right):
            w = shown[impl]
            lines.append(f"  {impl:<{name_w}}  {w.shown}")
            lines.append(f"  {'':<{name_w}}  {w.carets()}")
    return lines


def run_core_ir(args: argparse.Namespace) -> int:
    impls = _impls(args.impl)
    source = read_program(args.program)
    readings = read_all(source, impls, args.program)
    result = compare_readings(readings, args.program)
    if args.json:
        sys.stdout.buffer.write((json.dumps(result, ensure_ascii=False) + "\n").encode("utf-8"))
    else:
        # Not a terminal: a fixed width, so that logs and scripts see the same lines anywhere.
        width = shutil.get_terminal_size().columns if sys.stdout.isatty() else 100
        text = "".join(line + "\n" for line in render(result, width))
        sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    return 0 if result["agree"] else 1
