"""The five Lispex tools: their definitions (as sent in ``tools/list``) and their handlers.

A handler returns the tool's result JSON; :meth:`Tools.call` wraps it as a ``CallToolResult``
body (``structuredContent.result`` plus the same JSON as text), checks it against the output
schema, and turns bad arguments into an ``isError`` result naming the argument. A disagreement
between implementations is a successful call; ``isError`` is only for a call the harness could
not carry out (bad arguments, an implementation that broke down, a fault of the server).
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import receipts, schema_check
from .engine import CallControl
from .reference import TOPICS, Reference, diagnostic_entry
from .schemas import MAX_SOURCE, input_schemas, output_schema

if TYPE_CHECKING:
    from .engine import Engine

DEFAULT_FILENAME = "program.lspx"

DESCRIPTIONS = {
    "lispex_eval": (
        "Run a Lispex program on one implementation (default tree) in a worker process and "
        "return what it did: status (ok, source-error, runtime-error, resource, "
        "infrastructure-error, timeout, unavailable), values (the `write` text of the last "
        "top-level form's values), stdout, exit_status, diagnostics (code, phase, message, "
        "span), warnings, resource_outcome, products (product_id, core_ir_id, bytecode_id) and "
        "the resource profile. Example: {\"source\": \"(car)\"} gives runtime-error E302."),
    "lispex_compare": (
        "Run a Lispex program on every member of a court (tree-rust = tree + vm, default; "
        "rust-topaz; all-four) under the same limits and compare them: verdict agree, "
        "disagree (with the first differing axis and the factions), one-sided-limit or "
        "member-fault (with evidence: which member, which limit or fault, a re-run) or "
        "not-comparable, with each "
        "member's semantic result, resources and products. A disagreement is a successful "
        "call. A court with a member that cannot run answers status unavailable with "
        "missing_prerequisites and attempted_routes. Sends one progress notification per "
        "member finished when the request has a progress token."),
    "lispex_check": (
        "Read and normalise a Lispex program without running it: status (ok, source-error, "
        "resource), the Core IR id and the first reader or normalizer diagnostic."),
    "lispex_diagnostic": (
        "Explain a Lispex diagnostic code (E100..E340, W330, W331, the meter codes such as "
        "token-limit): severity, phase, family, exit status and the condition that raises it. "
        "An unknown code gives known: false."),
    "lispex_reference": (
        "Look up the Lispex language tables. No arguments: the topics (procedures, forms, "
        "reserved, diagnostics, profiles, courts). A topic: its entries. A name: that entry "
        "with its disposition (present, alias, deprecated, absent, reserved, forbidden, "
        "unavailable); an unknown name gives known: false. Example: {\"topic\": "
        "\"procedures\", \"name\": \"eval\"} gives disposition absent."),
}
TITLES = {"lispex_eval": "Evaluate Lispex", "lispex_compare": "Compare Lispex implementations",
          "lispex_check": "Check Lispex source", "lispex_diagnostic": "Explain a diagnostic",
          "lispex_reference": "Lispex reference"}
NAMES = tuple(DESCRIPTIONS)


class ArgumentError(Exception):
    def __init__(self, argument: str, message: str) -> None:
        super().__init__(message)
        self.argument = argument
        self.message = message


class Tools:
    def __init__(self, config: Any, timeout: float, default_profile: str) -> None:
        from court.catalog import DEFAULT_COURT
        from implementations.lispex.meters import profiles

        self.config = config
        self.timeout = timeout
        self.default_profile = default_profile
        self.default_court = DEFAULT_COURT
        public = [p.id for p in profiles().values() if p.public_selectable]
        if default_profile not in public:
            public.append(default_profile)
        self.inputs = input_schemas(list(config.products), list(config.courts), public,
                                    default_profile, DEFAULT_COURT)
        self.reference = Reference(config, default_profile)
        self._engine: Engine | None = None
        self._engine_lock = threading.Lock()
        self._definitions: list[dict[str, Any]] | None = None
        self.signing_key: Any = None  # --signing-key: lispex_compare may sign receipts

    def definitions(self) -> list[dict[str, Any]]:
        if self._definitions is None:
            hints = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
                     "openWorldHint": False}
            self._definitions = [
                {"name": n, "title": TITLES[n], "description": DESCRIPTIONS[n],
                 "inputSchema": self.inputs[n], "outputSchema": output_schema(n),
                 "annotations": {"title": TITLES[n], **hints}}
                for n in NAMES]
        return self._definitions

    def engine(self) -> Engine:
        with self._engine_lock:
            if self._engine is None:
                from .engine import Engine

                self._engine = Engine(self.config, self.timeout)
            return self._engine

    def warm(self) -> None:
        """Start the default court's workers (tree serves lispex_eval too); run in the
        background at server start."""
        self.engine().warm(self.default_court)

    def close(self) -> list[str]:
        return self._engine.close() if self._engine else []

    def abort(self, control: CallControl) -> None:
        if self._engine is not None:
            self._engine.abort(control)
        else:
            control.aborted.set()

    # -- calling -------------------------------------------------------------------------

    def call(self, name: str, args: dict[str, Any], control: CallControl,
             progress: Callable[[str], None] | None = None) -> dict[str, Any]:
        problems = schema_check.errors(args, self.inputs[name])
        try:
            if problems:
                path, message = problems[0]
                raise ArgumentError(str(path[0]) if path else "arguments", message)
            handler = getattr(self, name)
            result, failed = handler(args, control, progress)
        except ArgumentError as e:
            return error_result({"code": "invalid-argument", "argument": e.argument,
                                 "message": e.message})
        result.setdefault("profile", args.get("profile", self.default_profile))
        structured = {"result": result}
        bad = schema_check.errors(structured, output_schema(name))
        if bad:
            # A bug here, not the caller's fault: say so rather than send a wrong shape.
            sys.stderr.write(f"lispex-court mcp: {name} result breaks its output schema: "
                             f"{bad[:3]}\n")
            return error_result({"code": "internal-error",
                                 "message": f"the {name} result did not match its output "
                                            f"schema: {bad[0][1]}"})
        return {"content": [{"type": "text", "text": _dumps(result)}],
                "structuredContent": structured, "isError": failed}

    def _source(self, args: dict[str, Any]) -> bytes:
        # surrogatepass: a lone surrogate reaches the reader, which reports it as E100 like any
        # other source that is not UTF-8.
        data = args["source"].encode("utf-8", "surrogatepass")
        if len(data) > MAX_SOURCE:
            raise ArgumentError("source", f"source must be at most {MAX_SOURCE} bytes of UTF-8 "
                                          f"(got {len(data)})")
        return data

    def _input(self, args: dict[str, Any]) -> str | None:
        text = args.get("input")
        if text is None:
            return None
        from implementations.lispex.errors import LispexError
        from implementations.lispex.reader import read_datum_text

        try:
            read_datum_text(text, "<input>")
        except LispexError as e:
            raise ArgumentError("input", f"input is not one Lispex datum: {e.code} "
                                         f"{e.message}") from None
        return text

    def _run(self, res: Any, args: dict[str, Any], control: CallControl) -> Any:
        from court.session import InputRejected

        source = self._source(args)
        input_text = self._input(args)
        try:
            return self.engine().run(res, control, source, input_text,
                                     args.get("filename", DEFAULT_FILENAME),
                                     args.get("profile", self.default_profile))
        except InputRejected as e:
            raise ArgumentError("input", f"input is not one Lispex datum: {e}") from None

    def remedy(self, missing: list[str]) -> str:
        from .engine import remedy

        return remedy(missing, self.engine().config)

    def lispex_eval(self, args: dict[str, Any], control: CallControl,
                    progress: Callable[[str], None] | None) -> tuple[dict[str, Any], bool]:
        impl = args.get("implementation", "tree")
        res = self.engine().resolve(impl=impl)
        if not res.available:
            return {**_empty_eval(impl, "unavailable"),
                    "missing_prerequisites": res.missing,
                    "attempted_routes": res.attempted_routes,
                    "remedy": self.remedy(res.missing)}, False
        if progress:
            control.on_member = lambda m, o: progress(f"{m}: {o['semantic']['status']}")
        case = self._run(res, args, control)
        obs = case.observations[impl]
        faults = obs.get("faults") or []
        if control.timed_out or any(f.get("kind") == "timeout" for f in faults):
            return {**_empty_eval(impl, "timeout"), "faults": faults,
                    "timeout_seconds": self.timeout}, False
        sem = obs["semantic"]
        products = dict(obs.get("products") or {})
        products.setdefault("product_id", None)
        products.setdefault("core_ir_id", None)
        resources = dict(obs.get("resources") or {})
        result = {"status": sem["status"], "implementation": impl, "values": sem.get("values"),
                  "stdout": sem.get("stdout"), "exit_status": sem.get("exit_status"),
                  "diagnostics": sem.get("diagnostics") or [],
                  "warnings": sem.get("warnings") or [],
                  "resource_outcome": sem.get("resource_outcome") or {"status": "unknown"},
                  "products": products,
                  "profile": resources.get("profile") or args.get("profile",
                                                                  self.default_profile),
                  "resources": resources}
        if faults:
            result["faults"] = faults
        return result, sem["status"] == "infrastructure-error"

    def lispex_compare(self, args: dict[str, Any], control: CallControl,
                       progress: Callable[[str], None] | None) -> tuple[dict[str, Any], bool]:
        from court.catalog import ConfigError
        from court.record import result_json, unavailable_result

        court = args.get("court", self.default_court)
        if args.get("receipt"):
            receipts.check_can_sign(self.signing_key, ArgumentError)
        try:
            res = self.engine().resolve(court=court)
        except ConfigError as e:  # a court from a court.toml given at start can be malformed
            raise ArgumentError("court", str(e)) from None
        if not res.available:
            return {**unavailable_result(res), "remedy": self.remedy(res.missing)}, False
        if progress:
            control.on_member = lambda m, o: progress(f"{m}: {o['semantic']['status']}")
        case = self._run(res, args, control)
        result = result_json(res.court, case, [], res.lineages())
        timed_out = control.timed_out or any(
            f.get("kind") == "timeout" for o in case.observations.values()
            for f in o.get("faults") or [])
        if timed_out:
            result["status"] = "timeout"
            result["timeout_seconds"] = self.timeout
        elif args.get("receipt"):
            result["receipt"] = receipts.sign(self.signing_key, res, self.engine().limits,
                                              self._source(args), self._input(args),
                                              args.get("filename", DEFAULT_FILENAME), case,
                                              ArgumentError)
        return result, False

    def lispex_check(self, args: dict[str, Any], control: CallControl,
                     progress: Callable[[str], None] | None) -> tuple[dict[str, Any], bool]:
        from implementations.lispex.errors import LispexError, ResourceExhausted, make_diagnostic
        from implementations.lispex.meters import Meter, axes, profiles
        from implementations.lispex.normalizer import normalize
        from implementations.lispex.printer import write_string
        from implementations.lispex.reader import read_source

        source = self._source(args)
        filename = args.get("filename", DEFAULT_FILENAME)
        meter = Meter(profiles()[self.default_profile].limit_map())
        out: dict[str, Any] = {"status": "ok", "core_ir_id": None, "diagnostics": [],
                               "resource_outcome": {"status": "within-limits"}}
        stage = "reader"
        try:
            read = read_source(source, filename, meter)
            stage = "normalizer"
            program = normalize(read.datums, filename, meter, read.pragmas)
            out["core_ir_id"] = program.core_ir_id()
            out["forms"] = len(program.forms)
        except LispexError as e:
            phase = e.phase
            if phase is None:
                from implementations.lispex.errors import catalog

                entry_phase = catalog()[e.code].phase
                phase = entry_phase if entry_phase in ("reader", "normalizer") else stage
            diag = make_diagnostic(e.code, e.message, [write_string(x) for x in e.irritants],
                                   e.span, phase)
            out["status"], out["diagnostics"] = "source-error", [diag.to_json()]
        except ResourceExhausted as x:
            axis = next((a.id for a in axes() if a.exhaustion_code == x.code), x.code)
            out["status"] = "resource"
            out["diagnostics"] = [make_diagnostic(x.code, x.message, [], None).to_json()]
            out["resource_outcome"] = {"status": "limit-exceeded", "limit": axis,
                                       "code": x.code}
        out["usage"] = meter.usage()
        out["profile"] = self.default_profile
        return out, False

    def lispex_diagnostic(self, args: dict[str, Any], control: CallControl,
                          progress: Callable[[str], None] | None) -> tuple[dict[str, Any], bool]:
        from implementations.lispex.errors import catalog

        code = args["code"].strip()
        table = catalog()
        entry = table.get(code) or table.get(code.upper()) or table.get(code.lower())
        if entry is None:
            import difflib

            return {"known": False, "code": code,
                    "suggestions": difflib.get_close_matches(code, list(table), n=5,
                                                             cutoff=0.5)}, False
        found = diagnostic_entry(entry)
        del found["name"], found["disposition"]
        return {"known": True, **found}, False

    def lispex_reference(self, args: dict[str, Any], control: CallControl,
                         progress: Callable[[str], None] | None) -> tuple[dict[str, Any], bool]:
        topic = args.get("topic")
        assert topic is None or topic in TOPICS  # the input schema's enum
        return self.reference.lookup(topic, args.get("name")), False


def _empty_eval(impl: str, status: str) -> dict[str, Any]:
    return {"status": status, "implementation": impl, "values": [], "stdout": "",
            "exit_status": None, "diagnostics": [], "warnings": [],
            "resource_outcome": {"status": "unknown"},
            "products": {"product_id": None, "core_ir_id": None}}


def error_result(error: dict[str, Any]) -> dict[str, Any]:
    """An ``isError`` result: no structuredContent (clients do not check it against the
    output schema then), the error as JSON text."""
    return {"content": [{"type": "text", "text": _dumps({"error": error})}], "isError": True}


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
