"""`--cluster` and `--scheduler` for `court fuzz` and `court run`: the engine is court/cluster/."""

from __future__ import annotations

import argparse
from typing import Any

from .usage import UsageError


def cluster_spec(args: argparse.Namespace) -> Any:
    """The ClusterSpec the flags ask for, or None; a usage error when Dask is missing."""
    cluster, scheduler = getattr(args, "cluster", None), getattr(args, "scheduler", None)
    if cluster is None and scheduler is None:
        return None
    from ..cluster import ClusterError, require_dask
    from ..cluster.connect import parse_spec

    try:
        spec = parse_spec(cluster, scheduler)
        require_dask()
    except ClusterError as e:
        raise UsageError(f"court: {e}") from None
    return spec


def corpus_runner(args: argparse.Namespace) -> Any:
    """A run_cases stand-in for `court run` on a cluster, or None for a local run."""
    spec = cluster_spec(args)
    if spec is None:
        return None
    from ..cluster.corpus_batches import ClusterRunner

    return _UsageErrors(ClusterRunner(spec))


class _UsageErrors:
    """The runner, with an unreachable scheduler reported as the user's error (exit 2)."""

    def __init__(self, runner: Any) -> None:
        self.runner = runner

    def describe(self) -> dict[str, Any]:
        return self.runner.describe()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from ..cluster import ClusterError

        try:
            return self.runner(*args, **kwargs)
        except ClusterError as e:
            raise UsageError(f"court: {e}") from None


def connect(spec: Any) -> Any:
    from ..cluster import ClusterError
    from ..cluster.connect import Connection

    try:
        return Connection(spec)
    except ClusterError as e:
        raise UsageError(f"court: {e}") from None
