"""A test-only `lispex.court-worker/v1` product: the tree interpreter with one seeded bug.

    python seeded_worker.py --bug quotient|minus-negative|list-three|list-tail|float-exponent|
                                  dynamic-wind|input-strings|hex-char|none  (or several, a,b)

The fuzzer's tests declare it in a temporary court.toml and must find the bug.
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from implementations import worker  # noqa: E402
from implementations.lispex import numbers, printer  # noqa: E402
from implementations.lispex.values import Pair, Primitive  # noqa: E402
from implementations.tree import machine, primitives  # noqa: E402


def replace(name, fn):
    prims = primitives()
    old = prims[name]
    prims[name] = Primitive(name, fn, old.min_args, old.max_args, warning=None, guest=False,
                            backend=False, family=old.family, needs_context=False)


def seed_quotient():
    real = primitives()["quotient"].fn

    def quotient(a, b):
        if type(a) is int and type(b) is int and b != 0:
            return a // b  # the bug: rounds toward negative infinity
        return real(a, b)  # other operands are checked (and refused) as before
    replace("quotient", quotient)


def seed_list_tail():
    real = primitives()["list-tail"].fn

    def list_tail(lst, k):
        result = real(lst, k)
        return result.cdr if type(result) is Pair else result  # the bug: one too far
    replace("list-tail", list_tail)


def seed_float_exponent():
    real = numbers.format_float

    def format_float(x):
        if x != 0 and (abs(x) >= 1e16 or abs(x) < 1e-4):
            return repr(x)  # the bug: exponent notation, e.g. 1e+21
        return real(x)
    printer.format_float = format_float
    numbers.format_float = format_float


def seed_dynamic_wind():
    real_control = machine.Machine.control
    buggy_tag = 99

    def control(self, fr, k, val, handlers, depth):
        if fr[0] == machine.F_DW_BEFORE:
            _, thunk, after, saved, site = fr
            # The bug: the frame that runs `after` is invisible to unwinding, so an escape
            # (call/cc, guard) skips the after thunk; a normal return still runs it.
            k.append((buggy_tag, after, saved, site))
            return machine.APPLY, None, [thunk], False, handlers, depth, None, None
        if fr[0] == buggy_tag:
            return real_control(self, (machine.F_DW, fr[1], fr[2], fr[3]), k, val, handlers,
                                depth)
        return real_control(self, fr, k, val, handlers, depth)
    machine.Machine.control = control


def seed_input_strings():
    from implementations.lispex import run

    real = run.parse_input

    def parse_input(text):
        if text is not None and '"' in text:
            # The bug: the input reader does not know string literals.
            return real("(")
        return real(text)
    run.parse_input = parse_input


def seed_minus_negative():
    real = primitives()["-"].fn

    def minus(*args):
        result = real(*args)
        if len(args) == 2 and all(type(a) is int for a in args) and result < 0:
            return result - 1  # the bug: a negative difference of two integers is one too low
        return result
    replace("-", minus)


def seed_list_three():
    real = primitives()["list"].fn

    def make_list(*args):
        if len(args) == 3:
            args = args[::-1]  # the bug: a list of exactly three is built back to front
        return real(*args)
    replace("list", make_list)


def seed_hex_char():
    from implementations.lispex import reader

    real = reader._char_value

    def char_value(text, file, pos):
        char, end = real(text, file, pos)
        if end - pos > 3 and text[pos + 2] == "x":
            # The bug: a hex character literal, valid syntax, is refused.
            reader._fail("E150", "unknown character literal", text, file, pos, end, ())
        return char, end
    reader._char_value = char_value


BUGS = {"quotient": seed_quotient, "minus-negative": seed_minus_negative,
        "list-three": seed_list_three, "hex-char": seed_hex_char,
        "input-strings": seed_input_strings, "list-tail": seed_list_tail,
        "float-exponent": seed_float_exponent, "dynamic-wind": seed_dynamic_wind,
        "none": lambda: None}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--bug", required=True, help="one of the bugs, or several joined by commas")
    bugs = p.parse_args().bug.split(",")
    unknown = [b for b in bugs if b not in BUGS]
    if unknown:
        p.error(f"unknown bug {unknown[0]!r}; known: {', '.join(sorted(BUGS))}")
    for bug in bugs:
        BUGS[bug]()
    return worker.serve("tree")


if __name__ == "__main__":
    sys.exit(main())
