"""The court behind the tools: which products and courts are offered, warm workers, aborts.

Workers are shared between sessions by product id (``tree`` serves both ``lispex_eval`` and the
``tree-rust`` court), which is safe because calls run one at a time. A cancelled or timed-out
call is stopped by killing the process groups of its members' workers (they respawn on the next
call) and by making every member not yet started answer at once.
"""

from __future__ import annotations

import os
import signal
import threading
import tomllib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from court.catalog import (
    Config,
    ConfigError,
    Product,
    Resolution,
    load_config,
    load_manifest,
    resolve,
)

if TYPE_CHECKING:
    from court.session import CaseResult
    from court.workers.faults import Fault
    from court.workers.supervisor import WorkerProcess

# Products of these families are offered only when named with --product at start.
OPT_IN_FAMILIES = ("topaz",)
WORKER_MEMORY_BYTES = 2048 << 20
REAP_INTERVAL = 0.05


def _opt_in(p: Product) -> bool:
    return p.family.startswith(OPT_IN_FAMILIES) or p.id.startswith(OPT_IN_FAMILIES)


def offered_config(product_args: list[str]) -> Config:
    """Built-in products (less the opt-in ones) and fixed courts, plus what ``--product`` named:
    a built-in id, a product manifest, or a court.toml (its products and courts). Raises
    ConfigError for anything it cannot use."""
    base = load_config(None, search_cwd=False)
    products = {pid: p for pid, p in base.products.items() if not _opt_in(p)}
    courts = dict(base.courts)
    for arg in product_args:
        path = Path(arg)
        if arg in base.products and not path.is_file():
            products[arg] = base.products[arg]
            continue
        if not (path.is_file() or arg.endswith(".toml")):
            raise ConfigError(f"--product {arg}: not a built-in product id (known: "
                              f"{', '.join(base.products)}) and not a manifest file")
        try:
            data = tomllib.loads(path.read_text("utf-8"))
        except OSError as e:
            raise ConfigError(f"--product {arg}: cannot read it: {e.strerror}") from None
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
            raise ConfigError(f"--product {arg}: {e}") from None
        if "id" not in data and ("products" in data or "courts" in data):
            extra = load_config(path, search_cwd=False)
            products.update({pid: p for pid, p in extra.products.items()
                             if not p.origin.startswith("builtin")})
            courts.update(extra.courts)
            continue
        product = load_manifest(path)
        # A manifest may stand for an opt-in product (say, topaz-vm built elsewhere); it must
        # not shadow a product the server offers anyway, nor a court.
        if product.id in products or product.id in courts:
            raise ConfigError(f"--product {arg}: id {product.id!r} is taken by a built-in "
                              "product or court")
        products[product.id] = product
    return Config(products, courts, None)


class CallControl:
    """What the server knows about the running call: whether it was aborted (cancelled or
    timed out), which members it runs, and where finished members are reported."""

    def __init__(self) -> None:
        self.aborted = threading.Event()
        self.done = threading.Event()
        self.timed_out = False
        self.members: set[str] = set()
        self.on_member: Callable[[str, dict[str, Any]], None] | None = None


@cache
def _session_class() -> type:
    # Defined on first use: the court's session machinery (psutil, subprocess, the verdict
    # code) is not needed to start the server or answer tools/list.
    from court.session import CourtSession, fault_observation

    class _Session(CourtSession):
        """A CourtSession that stops starting members once its call is aborted and reports
        each finished member (for progress notifications)."""

        control: CallControl | None = None

        def run_member(self, member: str, source: bytes, input_text: str | None,
                       filename: str) -> dict[str, Any]:
            control = self.control
            if control is not None and control.aborted.is_set():
                return fault_observation(member, _abort_fault(control), 0.0)
            obs = super().run_member(member, source, input_text, filename)
            if control is not None:
                if control.aborted.is_set() and \
                        obs["semantic"]["status"] == "infrastructure-error":
                    # A killed worker reads as a crash; name the real cause.
                    wall = obs.get("resources", {}).get("court_wall_seconds", 0.0)
                    obs = fault_observation(member, _abort_fault(control), wall)
                elif control.on_member is not None:
                    control.on_member(member, obs)
            return obs

    return _Session


def _abort_fault(control: CallControl) -> Fault:
    from court.workers.faults import Fault

    if control.timed_out:
        return Fault("timeout", "the call passed the server's --timeout; the member was stopped")
    return Fault("cancelled", "the call was cancelled by the client; the member was stopped")


def remedy(missing: list[str], offered: Config) -> str:
    """How to make a court's missing members available, for the result of an unavailable call:
    the start flag for a built-in product this server does not offer unless asked, and for the
    rest the routes the court tried (``attempted_routes``)."""
    builtin = load_config(None, search_cwd=False).products
    opt_in = [m for m in missing if m in builtin and m not in offered.products]
    rest = [m for m in missing if m not in opt_in]
    parts = []
    if opt_in:
        flags = " ".join(f"--product {m}" for m in opt_in)
        parts.append(f"{', '.join(opt_in)} {'is' if len(opt_in) == 1 else 'are'} built in but "
                     f"offered only when the server is started with {flags} "
                     f"(court mcp serve {flags})")
    if rest:
        parts.append(f"{', '.join(rest)} cannot run on this machine: install "
                     f"{'it' if len(rest) == 1 else 'them'} where attempted_routes looked, or "
                     "start the server with --product naming a manifest that can")
    return "; ".join(parts)


class Engine:
    def __init__(self, config: Config, timeout: float) -> None:
        self.config = config
        from court.workers.limits import Limits

        # One Limits object for every worker and session; the profile is set per call.
        self.limits = Limits(timeout=timeout, memory_bytes=WORKER_MEMORY_BYTES, profile=None,
                             meter_limits={})
        self.workers: dict[str, WorkerProcess] = {}
        self.sessions: dict[str, Any] = {}
        self.lock = threading.Lock()  # sessions are made by the call thread and the warm-up

    def warm(self, court: str) -> None:
        """Start the workers of ``court`` (in the background, at server start), so that the
        first call finds them running. A member that cannot start is reported by that call."""
        res = self.resolve(court=court)
        if res.available:
            self._session(res).warm()

    def resolve(self, court: str | None = None, impl: str | None = None) -> Resolution:
        return resolve(self.config, court, [impl] if impl else None, name_unknown_routes=False)

    def _session(self, res: Resolution) -> Any:
        with self.lock:
            return self._session_locked(res)

    def _session_locked(self, res: Resolution) -> Any:
        key = res.court + "|" + ",".join(res.members)
        session = self.sessions.get(key)
        if session is None:
            session = _session_class()(res, self.limits, jobs=min(2, len(res.members)))
            for member in list(session.workers):
                product = res.products[member]
                if product.id not in self.workers:
                    self.workers[product.id] = session.workers[member]
                session.workers[member] = self.workers[product.id]
            self.sessions[key] = session
        return session

    def run(self, res: Resolution, control: CallControl, source: bytes, input_text: str | None,
            filename: str, profile: str) -> CaseResult:
        session = self._session(res)
        control.members = set(res.members)
        self.limits.profile = profile
        session.control = control
        try:
            return session.run_case(source, input_text, filename)
        finally:
            session.control = None

    def abort(self, control: CallControl) -> None:
        """Stop the running call: no new member starts, and the process groups of the call's
        workers and one-shot processes are killed until the call has returned (a member that
        was starting just then would otherwise survive the first sweep)."""
        control.aborted.set()
        threading.Thread(target=self._reap, args=(control,), daemon=True,
                         name="mcp-abort").start()

    def _reap(self, control: CallControl) -> None:
        import psutil

        from court.workers import forkserver

        me = psutil.Process()
        while True:
            workers = list(self.workers.items())
            spare = {w.proc.pid for pid, w in workers
                     if pid not in control.members and w.proc is not None}
            template = forkserver.template_pid()
            if template is not None:
                spare.add(template)  # it forks the workers; killing it would kill them all
            # The call's own workers forked by the template are its children, not ours.
            for pid, w in workers:
                proc = w.proc
                if pid in control.members and proc is not None and proc.pid not in spare:
                    try:
                        os.killpg(proc.pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
            try:
                children = me.children()
            except psutil.Error:
                children = []
            for child in children:
                if child.pid in spare:
                    continue
                try:
                    if os.getpgid(child.pid) == child.pid:
                        os.killpg(child.pid, signal.SIGKILL)
                    else:
                        child.kill()
                except (ProcessLookupError, PermissionError, psutil.Error):
                    pass
            if control.done.wait(REAP_INTERVAL):
                return

    def close(self) -> list[str]:
        """Stop every worker (politely, then by group kill). Returns cleanup problems."""
        problems: list[str] = []
        for session in list(self.sessions.values()):
            session.close()
            problems += [f"{f['member']}: {f['message']}" for f in session.cleanup_faults]
        for pid, worker in list(self.workers.items()):
            problems += [f"{pid}: {p}" for p in worker.stop()]
        return problems
