"""Where the tasks run: a Dask LocalCluster on this machine, or a running scheduler.

``--cluster local[:N]`` starts N worker processes here (one thread each: every task drives its
own implementation workers, so a Dask worker is busy on one task at a time; default N = the cores
this process may use). ``--scheduler tcp://HOST:PORT`` connects to a ``dask scheduler`` whose
workers run elsewhere and have the court installed.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from typing import Any

from . import ClusterError, require_dask

CONNECT_TIMEOUT = 20.0  # a mistyped address fails in seconds, a busy scheduler still answers
_ADDRESS = re.compile(r"^(?:(tcp|tls|ws|wss)://)?([^\s/:]+|\[[0-9a-fA-F:]+\]):(\d{1,5})$")


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class ClusterSpec:
    local_workers: int | None = None  # a LocalCluster of this many processes
    address: str | None = None  # or a running scheduler

    def label(self) -> str:
        return f"local:{self.local_workers}" if self.local_workers else str(self.address)


def parse_spec(cluster: str | None, scheduler: str | None) -> ClusterSpec | None:
    """The spec of ``--cluster`` / ``--scheduler``; None when neither is given."""
    if cluster is not None and scheduler is not None:
        raise ClusterError("--cluster and --scheduler exclude each other")
    if cluster is not None:
        name, sep, n = cluster.partition(":")
        if name != "local" or (sep and not (n.isascii() and n.isdigit())) or (sep and int(n) < 1):
            raise ClusterError(f"--cluster must be local or local:N with N >= 1, got {cluster!r}")
        return ClusterSpec(local_workers=int(n) if sep else cores())
    if scheduler is not None:
        m = _ADDRESS.match(scheduler)
        if not m or not 0 < int(m.group(3)) < 65536:
            raise ClusterError(f"--scheduler must be tcp://HOST:PORT, got {scheduler!r}")
        return ClusterSpec(address=scheduler if m.group(1) else f"tcp://{scheduler}")
    return None


class Connection:
    """A Dask client for one court run; closing it closes the court sessions on every worker
    (collecting their cleanup faults) and, for a LocalCluster, the cluster itself."""

    def __init__(self, spec: ClusterSpec, timeout: float | None = None) -> None:
        require_dask()
        timeout = timeout or CONNECT_TIMEOUT
        from distributed import Client, LocalCluster

        from .hosted import SessionPlugin

        self.spec = spec
        self.cluster: Any = None
        self.cleanup_faults: list[dict[str, Any]] = []
        try:
            if spec.local_workers:
                self.cluster = LocalCluster(
                    n_workers=spec.local_workers, threads_per_worker=1, processes=True,
                    host="127.0.0.1", scheduler_port=0, dashboard_address=None,
                    memory_limit=0, silence_logs=logging.ERROR)
                self.client = Client(self.cluster, timeout=timeout)
            else:
                self.client = Client(spec.address, timeout=timeout)
        except (OSError, TimeoutError) as e:
            self._close_cluster()
            raise ClusterError(f"cannot reach the Dask scheduler at {spec.label()}: {e}") \
                from None
        self.client.register_plugin(SessionPlugin())

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def workers(self) -> int:
        return len(self.client.scheduler_info(n_workers=-1)["workers"])

    def threads(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def close(self) -> None:
        from .hosted import close_sessions

        try:
            for faults in self.client.run(close_sessions).values():
                self.cleanup_faults.extend(faults)
        except Exception as e:  # noqa: BLE001 - a lost worker must not hide the run's results
            self.cleanup_faults.append({"member": "cluster", "kind": "cleanup",
                                        "message": f"closing worker sessions: {e}"})
        try:
            self.client.close()
        finally:
            self._close_cluster()

    def _close_cluster(self) -> None:
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None
