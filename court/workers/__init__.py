"""Worker processes: how the court starts, talks to, limits and cleans up after its members.

Modules: ``supervisor`` (one long-lived worker per product: requests with a deadline, crash and
hang detection, recycling), ``forkserver`` (the court's side of the warm worker template),
``reaper`` (marking, sweeping and killing every process a member starts), ``protocol`` (the
checks of `lispex.court-worker/v1` replies) and ``adapters`` (foreign products run one process
per case).
"""
