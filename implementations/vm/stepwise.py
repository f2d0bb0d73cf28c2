"""The instruction that passes the transition limit, run one canonical step at a time.

The machine pays an instruction's whole weight before running it. When that passes the limit,
the tree interpreter would still have done the instruction's first canonical steps, up to the
unit that passes it: read its variables (an unbound one faults first), made its one-value checks
and called its inline primitives (output, a fault a handler catches). This runs the
instruction's ledger (see :mod:`.link`) on a little value stack of its own, paying each step's
units first, so the run stops, or faults, exactly where the tree interpreter's does. It runs once
per run at most, so it favours plainness over speed.
"""

from __future__ import annotations

from typing import Any

from implementations.lispex.errors import LispexError
from implementations.lispex.values import Values

from .objects import Closure
from .treegen import UNBOUND, UNINIT, mv_error


def run_to_limit(m: Any, ins: list, env: Any, budget: int) -> None:
    """Run ``ins`` of machine ``m`` under ``env`` with ``budget`` units left; raises the limit
    at the unit that passes it, or the fault met before it."""
    led = m.ledgers.get(id(ins)) or ()
    stack = m.stack
    nreal = sum(1 for e in led if e[2][0] == "real")
    reals = iter(stack[len(stack) - nreal:] if nreal else ())
    vals: list = []
    for w, _, act in led:
        if w > budget:
            break
        budget -= w
        k = act[0]
        if k == "push":
            vals.append(act[1])
        elif k == "real":
            vals.append(next(reals))
        elif k == "local":
            _, d, i, checked, name, span = act
            e = env
            while d:
                e = e[0]
                d -= 1
            v = e[i + 1]
            if v is UNINIT and checked:
                raise LispexError("E321", f"{name} is read before it is initialised", (), span)
            vals.append(v)
        elif k == "global":
            _, slot, name, span = act
            v = m.gv[slot]
            if v is UNBOUND:
                raise LispexError("E300", f"unbound variable {name}", (), span)
            vals.append(v)
        elif k == "closure":
            vals.append(Closure(m.lams[act[1]], env))
        elif k == "check":
            if type(vals[-1]) is Values:
                raise mv_error(act[1], vals[-1])
        elif k == "check-top":
            if type(stack[-1]) is Values:
                raise mv_error(act[1], stack[-1])
        elif k == "call":
            _, fn, n, span = act
            args = vals[len(vals) - n:]
            del vals[len(vals) - n - 1:]
            m.st.site = span
            if fn.needs_context:
                m.ctx.site = span
                vals.append(fn.fn(m.ctx, *args))
            else:
                vals.append(fn.fn(*args))
        elif k == "pop":
            vals.pop()
        # "own": the instruction's own step, which nothing here does before its unit is paid
    raise m.exhausted()
