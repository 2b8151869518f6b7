"""--jobs: capped at the cores, 0 and negatives refused, worker pools closed on every way out
(issue 30: `check --jobs 1000` started ~245 processes and left 1006 leaked semaphores)."""
from __future__ import annotations

import contextlib
import os
import sys

import pytest

from boundcalc import parallel
from boundcalc.errors import BoundcalcError


def test_cores_is_what_this_process_may_run_on():
    want = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert parallel.cores() == want >= 1


@pytest.mark.parametrize("jobs", [0, -2, -1000, 2.0, "2", True, None])
def test_zero_negatives_and_non_integers_are_refused(jobs):
    with pytest.raises(BoundcalcError, match=r"--jobs must be a positive integer or -1"):
        parallel.worker_count(jobs)


def test_a_value_beyond_the_cores_is_reduced_and_says_so(monkeypatch, capsys):
    monkeypatch.setattr(parallel, "cores", lambda: 3)
    assert parallel.worker_count(1000) == 3
    assert capsys.readouterr().err == "note: --jobs 1000 reduced to 3, the number of cores\n"
    assert [parallel.worker_count(j) for j in (1, 2, 3, -1)] == [1, 2, 3, 3]
    assert capsys.readouterr().err == ""                    # nothing said when nothing changed
    assert parallel.worker_count(4, quiet=True) == 3 and capsys.readouterr().err == ""


def _boom(i):
    if i == 3:
        raise ValueError("boom")
    return i


def _executor():
    mod = sys.modules.get("joblib.externals.loky.reusable_executor")
    return getattr(mod, "_executor", None)


def _alive(ex) -> list:
    procs = getattr(ex, "_processes", None) or {}
    return [p for p in procs.values() if p.is_alive()]


@pytest.mark.parametrize("fail", [False, True])
def test_worker_pools_are_closed_on_every_way_out(fail):
    from joblib import Parallel, delayed
    work = [0, 1, 2, 3] if fail else [0, 1, 2]
    seen = []
    with pytest.raises(ValueError) if fail else contextlib.nullcontext(), parallel.closing_pools():
        Parallel(n_jobs=2, backend="loky")(delayed(_boom)(i) for i in work)
        seen.append(_executor())
        assert seen[0] is not None and _alive(seen[0])      # the pool was up inside the block
    ex = _executor()
    assert ex is not None and not _alive(ex)                 # and no worker outlives it

