"""Budgets of the decision procedure: the bottom layer that every other layer imports.

The orchestrator (:mod:`.decide`) and its layers (:mod:`.search`, :mod:`.smt`,
:mod:`.exact_layer`, :mod:`.interval` ...) share these limits. This module imports nothing
from them, so a layer never has to import the orchestrator back.

Determinism: every budget is counted in *work*, never in seconds of any clock, so that the
same input gets the same verdict on an idle and on a loaded machine, and whatever ran
before it. Work is kept on a per-thread **work clock** (:func:`clock`), in *nominal
seconds* (work units divided by a fixed rate, about what one unloaded core does in a
second), advanced by the layers as they work (:func:`charge`):

* z3: its resource count (``rlimit``, deterministic), :data:`.smt.RLIMIT_PER_MS` per
  millisecond (:mod:`.smt` charges what each call used);
* SymPy: its calls, counted by its own caches (every ``@cacheit`` function's hits and
  misses, :func:`sympy_calls`), :data:`SYMPY_CALLS_PER_SECOND` per second. A SymPy
  computation runs under :func:`time_limit`, which stops it when its count is spent;
* ball arithmetic: the interval layer's boxes (:data:`INTERVAL_BOXES_PER_SECOND`), the
  points certified or evaluated exactly (:data:`BALL_POINTS_PER_SECOND`), and the nodes of
  the trees the interval, Taylor and ends layers evaluate (:func:`charge_nodes`).

A layer's "seconds" (its share, a deadline ``clock() + seconds``) are these nominal seconds,
and :func:`expired` says when its deadline has passed. Work nobody counts (the trees'
own Python, NumPy's sampling) is free on the work clock and bounded by counts.

**Safety nets** (the only clocks): each decision (:func:`safety_net`) and each SymPy
computation stops after :data:`CPU_SAFETY` times its nominal seconds of this thread's CPU
time, and z3 after :data:`Z3_SAFETY` times its budget of the CPU time of the thread it runs
in (at least :data:`MIN_Z3_NET` seconds; its wall clock only where a platform has no
per-thread CPU clock, :func:`.smt._check`). They are far (they
never fire in normal use); one that fires makes the answer depend on the machine, so it is
counted (:func:`safety_net_hits`) and the decision says "unknown (safety net)"; ``check``
grades such a check "undecided (safety net)", and the tests fail on any in the four papers.

The SymPy budget and the import race: :func:`time_limit` imports SymPy completely before it
arms its timer, and its timer never interrupts an import (nor a finalizer or a
garbage-collector callback) but comes back a tick later: an import cut in the middle leaves
a module without its submodules (``module 'sympy' has no attribute 'core'`` in every later
use). Its count is of the whole process, so budgets are exact in one thread at a time
(``check --jobs`` runs worker processes); in a thread other than the main one no timer can
stop SymPy, and the count is only read when the computation ends.

Order: :func:`fresh_state` (called by ``check`` before each check) empties SymPy's caches,
whose hits would make the same computation count fewer calls after other work; a SymPy
computation stopped by its budget empties them too (what it left there depends on where
the timer caught it).

Soundness contract: none to give — this module decides nothing. It only bounds the work
of the layers above it; a layer that runs out of a budget here must answer "unknown",
never a verdict.

Layer order (bottom to top; each imports only layers below it: the prover-layers
contract of pyproject.toml, checked by lint-imports): budget, certificates, fbounds, fold < goal < facts, prepass, sampling,
symbolic, taylor < exact_layer, signs, smt, statement < cases, interval, search < bigops, convexity, ends, identity,
integers, monotone, pisub, rewrite < order, reflect < pipeline < closing < decide.

How a layer uses it::

    deadline = budget.clock() + seconds          # its share, nominal seconds of work
    while ...:
        if budget.expired(deadline):              # work spent, or a safety net fired
            return None                            # "unknown", never a verdict
        budget.charge(1 / SOME_RATE)              # work that no other layer counts
    with budget.time_limit(share):                # SymPy: raises budget.Timeout when spent
        ...
"""
from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import FrameType

from ..expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym
from ..expr.visitor import Visitor, handles, top_down

__all__ = [
    "BALL_POINTS_PER_SECOND",
    "CPU_SAFETY",
    "INTERVAL_BOXES_PER_SECOND",
    "MAX_NODES",
    "MIN_NET",
    "MIN_Z3_NET",
    "NODE_EVALS_PER_SECOND",
    "SAMPLES",
    "SECONDS",
    "SYMPY_CALLS_PER_SECOND",
    "SYMPY_MAX_POWER",
    "SYMPY_SEED",
    "Z3_SAFETY",
    "Timeout",
    "can_interrupt",
    "charge",
    "charge_nodes",
    "clock",
    "expired",
    "fresh_state",
    "left",
    "net_tripped",
    "safety_net",
    "safety_net_hit",
    "safety_net_hits",
    "safety_nets_fired",
    "sympy_calls",
    "sympy_safe",
    "time_limit",
]

SAMPLES = 3000
SECONDS = 8.0                 # total budget of one decision, nominal seconds of work
MAX_NODES = 4000              # larger problems skip the symbolic layers (size budget)
SYMPY_MAX_POWER = 64          # x**k with |k| above this: no SymPy (expansion explodes)
# the rates that turn work into nominal seconds (about one unloaded core of 2024; what
# matters is only that they are fixed): SymPy's cached calls (measured 40 000 - 180 000 a
# second on simplify, factor, limit, diff, series), interval boxes, points certified in ball
# arithmetic or evaluated exactly; z3's rate is smt.RLIMIT_PER_MS
SYMPY_CALLS_PER_SECOND = 100_000
INTERVAL_BOXES_PER_SECOND = 2000
BALL_POINTS_PER_SECOND = 500
NODE_EVALS_PER_SECOND = 100_000   # nodes of a tree evaluated in ball arithmetic or mpmath
# safety nets: CPU time (this thread's) at CPU_SAFETY x a budget's nominal seconds (at
# least MIN_NET seconds), z3's at Z3_SAFETY x its budget (at least MIN_Z3_NET seconds) of
# the CPU time of the thread running it. z3's is wide: its CPU time per resource unit
# varies up to 10x between queries (5x on the four papers; 40 units a millisecond against
# the nominal 400 on one atan query of tests/prover/test_fbounds.py). It was a wall-clock
# timeout until issue 37: a load of 9 on 2 cores multiplied wall time by 4.5-9 and fired it
# on that query (a verdict decided by the load). CPU_SAFETY 20 (was 10): SymPy's uncached multivariate factoring
# (dmp_zz_wang) does work its call counter barely sees (22,077 of 25,000 counted calls in 5 s of
# CPU, tarzanagh2023 thm6_threshold under --strength), and anon2025 lemma4_xi_to_eta fired the
# net of 10x once in CI under a loaded xdist run, where it takes 6.4 s of CPU alone
CPU_SAFETY = 20
MIN_NET = 2.0
Z3_SAFETY = 50
MIN_Z3_NET = 30.0
TICK = 0.02                   # CPU seconds between two looks of time_limit at SymPy's count


class Timeout(BaseException):
    """Raised inside a SymPy computation whose budget (:func:`time_limit`) is spent."""


@dataclass
class _Net:
    cpu_deadline: float       # time.thread_time() at which the net fires
    fired: bool = False


@dataclass
class _Limit:
    start: int                # sympy_calls() when the computation began
    end: int                  # ... when its budget (or an enclosing one) is spent
    net: _Net


class _State(threading.local):
    """One thread's work clock, its decision's safety net and its SymPy limits."""

    def __init__(self) -> None:
        self.work = 0.0
        self.net: _Net | None = None
        self.hits = 0
        self.where: list[str] = []   # which nets fired (the last few), for the message
        self.limits: list[_Limit] = []
        self.handler: object = None    # the SIGPROF handler before the outermost time_limit


_S = _State()
_cleared = 0                  # SymPy calls counted before its caches were last emptied


# ----------------------------------------------------------------------------- the work clock
def clock() -> float:
    """This thread's work so far, in nominal seconds (see the module docstring)."""
    return _S.work


def charge(seconds: float) -> None:
    """Add ``seconds`` (nominal) of work to this thread's work clock."""
    _S.work += seconds


_sizes: dict[int, tuple[Node, int]] = {}


def charge_nodes(node: Node, times: int = 1) -> None:
    """Charge ``times`` evaluations of ``node``'s tree (its distinct nodes, at
    :data:`NODE_EVALS_PER_SECOND`) to the work clock."""
    got = _sizes.get(id(node))
    if got is None or got[0] is not node:
        if len(_sizes) > 4096:
            _sizes.clear()
        got = _sizes[id(node)] = (node, sum(1 for _ in node.unique_nodes()))
    _S.work += times * got[1] / NODE_EVALS_PER_SECOND


def left(deadline: float) -> float:
    """Nominal seconds of work left until ``deadline`` (a :func:`clock` value)."""
    return deadline - _S.work


def expired(deadline: float) -> bool:
    """Whether the work clock has passed ``deadline``, or the decision's safety net fired."""
    return _S.work > deadline or net_tripped()


def net_tripped() -> bool:
    """Whether the safety net of the decision running in this thread has fired (it is
    counted once, :func:`safety_net_hits`)."""
    net = _S.net
    if net is None:
        return False
    if not net.fired and time.thread_time() > net.cpu_deadline:
        net.fired = True
        safety_net_hit("a decision's CPU time")
    return net.fired


def safety_net_hit(where: str) -> None:
    """Count a safety net that fired (``where``: which one, e.g. z3's CPU time)."""
    _S.hits += 1
    _S.where = (_S.where + [where])[-8:]


def safety_nets_fired() -> list[str]:
    """Which safety nets fired last in this thread (at most 8, oldest first)."""
    return list(_S.where)


def safety_net_hits() -> int:
    """How many safety nets have fired in this thread (compare before and after a piece of
    work: any increase means its answer may depend on the machine's load)."""
    return _S.hits


@contextmanager
def safety_net(seconds: float) -> Iterator[None]:
    """The CPU-time safety net of one decision of ``seconds`` (nominal): after
    ``CPU_SAFETY * seconds`` of this thread's CPU time :func:`expired` is true for every
    deadline. A decision inside another one keeps the outer net."""
    if _S.net is not None:
        yield
        return
    _S.net = _Net(time.thread_time() + CPU_SAFETY * max(seconds, MIN_NET))
    try:
        yield
    finally:
        _S.net = None


def fresh_state() -> None:
    """Empty SymPy's caches (importing it) and reseed its random generators
    (:data:`SYMPY_SEED`), so that what follows does the same SymPy work whatever ran before
    it in this process and in whichever process. The first time, SymPy is warmed up first
    (:func:`_warm_up`): its one-time set-up would make the first piece of work count more
    calls than the same work later.

    The seed matters: SymPy's multivariate factoring (Wang's algorithm, ``dmp_zz_wang``)
    draws its evaluation points from ``sympy.core.random``, which each process seeds from
    the operating system; an unlucky draw made one factorisation of anon2025's Lemma 4 take
    70-90 s of CPU instead of 0.05 s, work that SymPy's call counter barely sees, so only
    the safety net stopped it and the verdict depended on the process."""
    global _cleared, _warm
    from ..backends import sympy_import  # noqa: F401  -- SymPy's one importer (issue 37)
    # isort: split
    from sympy.core.cache import clear_cache
    from sympy.core.random import seed
    if not _warm:
        _warm = True
        _warm_up()
    _cleared = sympy_calls()
    clear_cache()
    seed(SYMPY_SEED)


#: the seed of SymPy's random generators after :func:`fresh_state` (any fixed value: what
#: matters is that it is the same in every process)
SYMPY_SEED = 20261202


_warm = False


def _warm_up() -> None:
    """SymPy's usual work once on a small expression (its first use sets up the assumption
    rules and the polynomial domains and imports what it imports lazily)."""
    from ..backends.sympy_import import sympy as sp
    x = sp.Symbol("x", positive=True)
    n = sp.Symbol("n", positive=True, integer=True)
    e = (x + 1) ** 3 / (x - 1) - sp.sqrt(x) * sp.log(x) + sp.exp(-x) * sp.tanh(x)
    sp.simplify(e)
    sp.factor(sp.expand((x + 1) ** 5 - (x - 2) ** 3))
    sp.diff(e, x, 2)
    sp.limit((1 + 1 / n) ** n, n, sp.oo)
    sp.series(sp.log(1 + x), x, 0, 4)
    sp.cancel(sp.together(1 / (x + 1) + 1 / (x - 1)))


# ----------------------------------------------------------------------------- SymPy
def sympy_calls() -> int:
    """SymPy's calls so far in this process: the hits and misses of every cached function
    (``sympy.core.cache.CACHE``), a count of its work that does not depend on the
    machine's speed. SymPy must be imported."""
    from ..backends import sympy_import  # noqa: F401  -- SymPy's one importer (issue 37)
    # isort: split
    from sympy.core.cache import CACHE
    total = _cleared
    for f in CACHE:
        i = f.cache_info()
        total += i.hits + i.misses
    return total


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """SymPy's budget: the computation inside may make ``seconds`` x
    :data:`SYMPY_CALLS_PER_SECOND` SymPy calls (:func:`sympy_calls`), and raises
    :class:`Timeout` when it makes more — interrupted by a timer in the main thread, or when
    it ends elsewhere — so whether it runs out depends only on the work, never on the
    machine. Its calls are charged to the work clock. A safety net stops it after
    ``CPU_SAFETY x seconds`` of CPU time (counted, :func:`safety_net_hits`).

    SymPy is imported completely before the timer is armed, and the timer never interrupts
    an import, a finalizer or a garbage-collector callback (see the module docstring).

    Limits nest: inside another limit, this one ends at the earlier of the two (counts and
    nets); only the outermost charges the work clock. A computation stopped by a budget
    empties SymPy's caches (:func:`fresh_state`)."""
    from ..backends.sympy_import import sympy  # noqa: F401  -- completely, before any timer: an import is never cut
    st = _S
    start = sympy_calls()
    end = start + max(1, int(seconds * SYMPY_CALLS_PER_SECOND))
    net = _Net(time.thread_time() + CPU_SAFETY * max(seconds, MIN_NET / 4))
    outer = st.limits[-1] if st.limits else None
    if outer is not None:
        end = min(end, outer.end)
        if outer.net.cpu_deadline < net.cpu_deadline:
            net = outer.net
    lim = _Limit(start, end, net)
    if outer is None:
        # SymPy's random draws (Wang's factoring) the same in every process and whatever ran
        # before: every budgeted SymPy computation starts from SYMPY_SEED (see fresh_state)
        from sympy.core.random import seed
        seed(SYMPY_SEED)
    armed = can_interrupt()
    if armed and outer is None:
        st.handler = signal.signal(signal.SIGPROF, _tick)
        signal.setitimer(signal.ITIMER_PROF, TICK, TICK)
    st.limits.append(lim)
    over = False
    try:
        yield
        over = sympy_calls() > lim.end
    except Timeout:
        fresh_state()
        raise
    finally:
        st.limits.pop()
        if armed and outer is None:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, st.handler)  # type: ignore[arg-type]
            st.handler = None
        if outer is None:
            st.work += (min(sympy_calls(), lim.end) - lim.start) / SYMPY_CALLS_PER_SECOND
    if over:
        fresh_state()
        raise Timeout()


def _tick(signum: int, frame: FrameType | None) -> None:
    """The timer of :func:`time_limit` (main thread): raise :class:`Timeout` when the
    innermost limit's count is spent or its safety net fired; never inside an import, a
    finalizer or a garbage-collector callback (it looks again at the next tick)."""
    if not _S.limits:
        return
    lim = _S.limits[-1]
    over = sympy_calls() > lim.end
    fired = lim.net.fired or time.thread_time() > lim.net.cpu_deadline
    if not (over or fired) or _unsafe_to_interrupt(frame):
        return
    if fired and not over and not lim.net.fired:
        lim.net.fired = True
        safety_net_hit("a SymPy computation's CPU time")
    raise Timeout()


def can_interrupt() -> bool:
    """Whether :func:`time_limit` can interrupt SymPy here (the main thread). Where it
    cannot, a step whose SymPy call has no size bound (a limit) must not run."""
    return (threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
            and hasattr(signal, "SIGPROF"))


def _unsafe_to_interrupt(frame: FrameType | None) -> bool:
    """Whether ``frame`` runs inside an import (importlib's frames: a module cut in the
    middle of its import stays half-initialised for every later use), or inside a
    ``__del__`` or a garbage-collector callback (an exception raised there
    is printed and swallowed, and the limit would be lost; hypothesis registers a gc callback
    that times every collection)."""
    import gc
    callbacks = {getattr(cb, "__code__", None) for cb in gc.callbacks}
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith("<frozen importlib"):
            return True
        if code.co_name == "__del__" or code in callbacks:
            return True
        frame = frame.f_back
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
