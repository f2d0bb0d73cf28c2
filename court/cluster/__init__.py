"""Running the court on Dask distributed: fuzz chunks and corpus batches on many processes.

Dask is an optional extra (``pip install 'lispex-court[cluster]'``). Nothing here imports it at
module import time: :func:`require_dask` does, and turns its absence into a :class:`ClusterError`
the command line reports as a usage error.

What crosses the network is data only: program source, input text, limits and the court's
resolution go to the workers; observations, verdicts and counts come back. Files are read and
written by the client alone, so workers need the court installed, never a shared disk.

Modules: ``connect`` (a client on a LocalCluster or a running scheduler), ``tasks`` (submission
with resubmission when a worker is lost), ``hosted`` (the warm court sessions each Dask worker
keeps), ``fuzz_chunks`` (campaign chunks), ``corpus_batches`` (corpus batches).
"""

from __future__ import annotations

INSTALL_HINT = "pip install 'lispex-court[cluster]'"


class ClusterError(Exception):
    """Dask is missing, a cluster spec is malformed, or the scheduler cannot be reached."""


def require_dask() -> None:
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(f"running on a cluster needs Dask distributed: {INSTALL_HINT}") \
            from None
