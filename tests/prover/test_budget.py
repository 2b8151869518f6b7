"""The decision procedure's budgets (prover/budget.py): the CPU-time limit around SymPy —
counted in CPU time, kept through finalizers, nestable — and the size guard."""
import time as _t

import pytest

from boundcalc.expr.parser import parse
from boundcalc.prover.budget import Timeout, sympy_safe, time_limit


def _spin(cpu_seconds: float) -> None:
    c0 = _t.process_time()
    while _t.process_time() - c0 < cpu_seconds:
        pass


def test_time_limit_is_not_lost_in_a_finalizer():
    """The limit (CPU seconds) firing inside a __del__ (z3's Context.__del__ under the garbage collector)
    would be printed and swallowed; the limit re-arms and interrupts the work after it."""

    def busy():                         # a call inside the finalizer, like z3's Z3_del_context
        t = _t.perf_counter()
        while _t.perf_counter() - t < 0.3:
            pass

    class Slow:
        def __del__(self):
            busy()
    interrupted = False
    t0 = _t.perf_counter()
    try:
        with time_limit(0.05):
            x = Slow()
            del x                       # the finalizer runs now (reference count 0), past the limit
            while _t.perf_counter() - t0 < 30:
                pass
    except Timeout:
        interrupted = True
    assert interrupted and _t.perf_counter() - t0 < 15


def test_time_limit_counts_cpu_time_not_wall_time():
    """A machine under load gives the same work the same budget: waiting (no CPU) does not
    use the SymPy layer's limit, computing does."""
    with time_limit(0.2):
        _t.sleep(0.5)                    # wall time passes, no CPU: not interrupted
    c0 = _t.process_time()
    try:
        with time_limit(0.2):
            while _t.process_time() - c0 < 10:
                pass
        raise AssertionError("not interrupted")
    except Timeout:
        assert 0.15 < _t.process_time() - c0 < 2


def test_an_inner_limit_ends_at_the_outer_one():
    """Inside a 0.3 s limit, a 5 s limit still stops at the outer 0.3 s: the inner block
    sees the timeout, and the outer one fires right after the inner block is left."""
    inner_hit = outer_hit = False
    c0 = _t.process_time()
    try:
        with time_limit(0.3):
            try:
                with time_limit(5):
                    _spin(3)
            except Timeout:
                inner_hit = True
            _spin(3)
    except Timeout:
        outer_hit = True
    assert inner_hit and outer_hit
    assert _t.process_time() - c0 < 1.5


def test_a_shorter_inner_limit_leaves_the_outer_one_running():
    """A 0.1 s limit inside a 3 s one stops its own block; the outer block then goes on and
    is stopped at its own limit, counted from its start."""
    c0 = _t.process_time()
    inner_at = None
    with pytest.raises(Timeout), time_limit(1.0):
        try:
            with time_limit(0.1):
                _spin(3)
        except Timeout:
            inner_at = _t.process_time() - c0
        _spin(0.3)                  # the outer limit has not run out: no timeout here
        after = _t.process_time() - c0
        _spin(3)
    assert inner_at is not None and inner_at < 0.6
    assert after < 1.0 <= _t.process_time() - c0 + 0.05 < 2.5


def test_the_size_guard_names_what_it_refuses():
    assert sympy_safe(parse("x**2 + exp(x)")) is None
    assert sympy_safe(parse("x**100000")) is not None


def test_time_limit_is_not_lost_in_a_gc_callback():
    """The limit firing inside a garbage-collector callback (hypothesis times every
    collection with one) would be printed and swallowed; it re-arms and interrupts the work
    after the callback."""
    import gc

    def slow_callback(phase, info):
        if phase == "start":
            _spin(0.3)
    gc.callbacks.append(slow_callback)
    c0 = _t.process_time()
    interrupted = False
    try:
        with time_limit(0.05):
            gc.collect()                # the callback runs past the limit
            _spin(10)
    except Timeout:
        interrupted = True
    finally:
        gc.callbacks.remove(slow_callback)
    assert interrupted and _t.process_time() - c0 < 5
