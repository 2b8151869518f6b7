"""Budgets of the decision procedure: the bottom layer that every other layer imports.

The orchestrator (:mod:`.decide`) and its layers (:mod:`.search`, :mod:`.smt`,
:mod:`.exact_layer`, :mod:`.interval`) share these limits. This module imports nothing
from them, so a layer never has to import the orchestrator back.

Determinism: budgets are work (z3 rlimit, interval boxes, candidate counts) and CPU
time, never wall time, which depends on the machine's load. The decision's deadline
(``CPU_SAFETY`` x its seconds) and every layer's share count the calling thread's CPU
time (``time.thread_time``: z3 and arb run on that thread, and decisions that ``check
--jobs`` runs side by side in threads do not eat each other's budget); the SymPy layer's
limit (:func:`time_limit`) counts the process's CPU time (a profiling timer, main thread
only). z3's wall-clock timeout is only a safety net at ``WALL_SAFETY`` x its budget.

Soundness contract: none to give — this module decides nothing. It only bounds the work
of the layers above it; a layer that runs out of a budget here must answer "unknown",
never a verdict.

Layer order (bottom to top; each imports only layers below it, tested in
tests/test_import_graph.py): budget < facts, prepass, sampling, symbolic < exact_layer, smt <
interval, search < convexity, ends, identity, integers, rewrite < decide.
"""
from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from ..expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym
from ..expr.visitor import Visitor, handles, top_down

__all__ = [
    "CPU_SAFETY", "INTERVAL_BOXES_PER_SECOND", "MAX_NODES", "SAMPLES", "SECONDS",
    "SYMPY_MAX_POWER", "WALL_SAFETY", "Timeout", "can_interrupt", "sympy_safe", "time_limit",
]

SAMPLES = 3000
SECONDS = 8.0                 # total budget of one decision (the CLI promises 10 s)
MAX_NODES = 4000              # larger problems skip the symbolic layers (size budget)
SYMPY_MAX_POWER = 64          # x**k with |k| above this: no SymPy (expansion explodes)
CPU_SAFETY = 1
WALL_SAFETY = 10
INTERVAL_BOXES_PER_SECOND = 2000


class Timeout(BaseException):
    """Raised by the alarm inside a SymPy computation that ran out of time."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Interrupt pure-Python work (SymPy) after ``seconds`` of this process's CPU time
    (ITIMER_PROF / SIGPROF: the same work gets the same budget however loaded the machine
    is, which a wall-clock alarm would not give), when that is possible (main thread);
    otherwise the static size guards are the only budget.

    Limits nest: inside another limit, this one ends at the earlier of the two; on leaving
    it, the outer limit is re-armed with what is left of it (at least a millisecond), so an
    outer limit that ran out inside an inner one fires just after the inner one is left."""
    if not can_interrupt():
        yield
        return
    outer_left = signal.getitimer(signal.ITIMER_PROF)[0]
    started = time.process_time()

    def _raise(signum: int, frame: FrameType | None) -> None:
        if _in_finalizer(frame):
            # an exception raised in a finalizer (z3's Context.__del__ run by the garbage
            # collector) is printed and swallowed, the limit would be lost, and z3's
            # half-run clean-up corrupts its heap: let the finalizer finish, try again
            signal.setitimer(signal.ITIMER_PROF, 0.01)
            return
        raise Timeout()
    old = signal.signal(signal.SIGPROF, _raise)
    mine = max(seconds, 0.01)
    signal.setitimer(signal.ITIMER_PROF, min(mine, outer_left) if outer_left > 0 else mine)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        if outer_left > 0:
            left = outer_left - (time.process_time() - started)
            signal.setitimer(signal.ITIMER_PROF, max(left, 0.001))


def can_interrupt() -> bool:
    """Whether :func:`time_limit` can interrupt SymPy here (the main thread). Where it
    cannot, a step whose SymPy call has no size bound (a limit) must not run."""
    return (threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
            and hasattr(signal, "SIGPROF"))


def _in_finalizer(frame: FrameType | None, depth: int = 12) -> bool:
    """Whether ``frame`` runs inside a ``__del__`` or a garbage-collector callback (within
    ``depth`` calls): an exception raised there is printed and swallowed, and the limit
    would be lost (hypothesis registers a gc callback that times every collection)."""
    import gc
    callbacks = {getattr(cb, "__code__", None) for cb in gc.callbacks}
    while frame is not None and depth > 0:
        if frame.f_code.co_name == "__del__" or frame.f_code in callbacks:
            return True
        frame, depth = frame.f_back, depth - 1
    return False


class _SympyUnsafe(Visitor["str | None"]):
    """Why a node itself (not its children) must not reach SymPy, or None; top-down
    handlers that visit no child (:func:`sympy_safe` asks for each distinct node)."""

    @top_down
    def visit_Pow(self, n: Pow) -> str | None:
        if isinstance(n.exp, Num):
            if abs(n.exp.value) > SYMPY_MAX_POWER or n.exp.value.denominator > SYMPY_MAX_POWER:
                return f"the power {n.exp.value} is beyond the symbolic budget"
        elif not n.exp.symbols() and not n.base.symbols():
            return "a constant power too large to build exactly"
        return None

    @top_down
    def visit_Num(self, n: Num) -> str | None:
        if max(abs(n.value.numerator), n.value.denominator).bit_length() > 20000:
            return "a number too large for the symbolic layer"
        return None

    @handles(Sym, Const, Ref, Add, Mul, Func, Rel, Indexed, BigOp)
    @top_down
    def _fine(self, n: Node) -> None:
        return None


def sympy_safe(node: Node) -> str | None:
    """Why SymPy must not see ``node`` (a size budget), or None."""
    own = _SympyUnsafe()
    for count, n in enumerate(node.unique_nodes(), start=1):
        if count > MAX_NODES:
            return f"more than {MAX_NODES} nodes"
        why = own.walk(n)
        if why is not None:
            return why
    return None
