"""How many worker processes a ``--jobs`` value means, in one place (``check``, ``compare``,
``reproduce`` and the sweeps all call :func:`worker_count`).

``-1`` is one worker per core; a positive value is taken as given up to the number of cores
this process may run on, and a larger one is reduced to it with a note on stderr (more
processes than cores only add start-up time and memory: ``check --jobs 1000`` started ~245
processes and gave no report). ``0`` and other negative values are refused in one line.
:func:`closing_pools` closes the worker processes a block started, on every way out of it.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager

from .errors import BoundcalcError

__all__ = ["closing_pools", "cores", "worker_count"]


def cores() -> int:
    """The number of cores this process may run on (its CPU affinity where the platform
    tells it, else ``os.cpu_count()``), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def worker_count(jobs, what: str = "--jobs", *, quiet: bool = False) -> int:
    """The number of worker processes for ``jobs``: ``-1`` -> :func:`cores`; ``1..cores()``
    as given; more than :func:`cores` -> :func:`cores` with a note on stderr (unless
    ``quiet``); anything else (0, another negative, not an integer) -> one line naming
    ``what`` (:class:`BoundcalcError`)."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs == 0 or jobs < -1:
        raise BoundcalcError(f"{what} must be a positive integer or -1 (one per core), got {jobs!r}")
    n = cores()
    if jobs == -1:
        return n
    if jobs > n:
        if not quiet:
            print(f"note: {what} {jobs} reduced to {n}, the number of cores", file=sys.stderr)
        return n
    return jobs


def _shutdown_loky(kill: bool) -> None:
    """Shut joblib's reusable loky executor down if this process started one (waiting for
    its workers; ``kill``: terminate them first, as after an error or Ctrl-C)."""
    mod = sys.modules.get("joblib.externals.loky.reusable_executor")
    ex = getattr(mod, "_executor", None) if mod is not None else None
    if ex is not None:
        ex.shutdown(wait=True, kill_workers=kill)


@contextmanager
def closing_pools():
    """Run a block that may start joblib worker processes and close them when it is left:
    normally (workers finish and exit), or by an exception or Ctrl-C (workers killed), so
    that no process or semaphore outlives the command ("leaked semlock objects")."""
    try:
        yield
    except BaseException:
        _shutdown_loky(kill=True)
        raise
    _shutdown_loky(kill=False)
