"""`court eval`: one program, one implementation, in process, like `lispex run`."""

from __future__ import annotations

import argparse
import json
import sys

from . import checks
from .checks import read_input, read_program
from .usage import UsageError


def run_eval(args: argparse.Namespace) -> int:
    # Here, not at the top: the evaluator is loaded only by the command that runs it in process.
    from implementations import registry
    from implementations.kernels import evaluate, input_errors
    from implementations.lispex.run import resolve_limits

    checks.nonempty(args, "impl")
    checks.check_profile(args.profile)
    limits = checks.meter_limits(args.limit)
    try:
        resolve_limits(args.profile, limits)
    except KeyError as e:
        raise UsageError(f"court: {e.args[0]}") from None
    source = read_program(args.program)
    input_text = read_input(args)
    try:
        backend = registry.load(args.impl)
    except registry.UnknownImplementation as e:
        raise UsageError(f"court: {e.args[0]}") from None
    try:
        obs = evaluate(source, backend, filename=args.program, input_text=input_text,
                       profile_id=args.profile, limits=limits)
    except input_errors() as e:
        raise UsageError(f"court: invalid input datum: {e.diagnostic.render()}") from None
    # Lispex text is UTF-8 whatever the terminal's locale says: write bytes.
    out, err = sys.stdout.buffer, sys.stderr.buffer
    if args.json:
        out.write((json.dumps(obs.to_json(), ensure_ascii=False) + "\n").encode("utf-8"))
        out.flush()
        return 3 if obs.exit_status is None else obs.exit_status
    for f in obs.faults:  # the implementation could not run the program at all
        err.write(f"court: {args.impl}: {f['kind']} fault: {f['message']}\n".encode("utf-8"))
    if obs.exit_status is None:
        err.flush()
        return 3
    out.write(obs.stdout.encode("utf-8"))
    for v in obs.values:
        out.write((v + "\n").encode("utf-8"))
    out.flush()
    for w in obs.warnings:
        err.write((w.render() + "\n").encode("utf-8"))
    for d in obs.diagnostics:
        err.write((d.render(args.program) + "\n").encode("utf-8"))
    err.flush()
    return obs.exit_status


def run_disasm(args: argparse.Namespace) -> int:
    """`court disasm`: the compiled form of a program, for back ends that compile."""
    from implementations import registry
    from implementations.lispex.errors import LispexError, ResourceExhausted
    from implementations.lispex.normalizer import normalize
    from implementations.lispex.reader import read_source
    from implementations.lispex.run import diagnostic_of

    source = read_program(args.program)
    try:
        backend = registry.load(args.impl)
    except registry.UnknownImplementation as e:
        raise UsageError(f"court: {e.args[0]}") from None
    if not hasattr(backend, "disassemble"):
        raise UsageError(f"court: implementation {args.impl} has no bytecode to show")
    try:
        read = read_source(source, args.program)
        program = normalize(read.datums, args.program, None, read.pragmas)
    except LispexError as e:
        sys.stderr.write(diagnostic_of(e, "reader").render(args.program) + "\n")
        return 1
    except ResourceExhausted as e:
        sys.stderr.write(f"{e.code} {args.program}:0:0 {e.message}\n")
        return 2
    prepared = backend.prepare(program)
    sys.stdout.write(f";; {args.program}: core_ir_id {program.core_ir_id()}\n")
    for key, value in prepared.identities.items():
        sys.stdout.write(f";; {key} {value}\n")
    sys.stdout.write(backend.disassemble(prepared))
    return 0
