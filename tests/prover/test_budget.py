"""The decision procedure's budgets (prover/budget.py): work, not time. SymPy's budget is a
count of its calls (stopped by a timer that never cuts an import, a finalizer or a gc
callback), the work clock advances with the work and not with the machine's speed, the
safety nets are clocks that are counted when they fire; and the size guard."""
import subprocess
import sys
import textwrap
import time as _t

import pytest

from boundcalc.expr.parser import parse
from boundcalc.prover import budget
from boundcalc.prover.budget import Timeout, sympy_calls, sympy_safe, time_limit


def _spin(cpu_seconds: float) -> None:
    c0 = _t.thread_time()
    while _t.thread_time() - c0 < cpu_seconds:
        pass


def _sympy_work(rounds: int) -> None:
    """SymPy calls in a known, repeatable amount (an expansion per round)."""
    import sympy as sp
    x, y = sp.symbols("x y")
    for i in range(rounds):
        sp.expand((x + y + i) ** 4)


def _count(rounds: int) -> int:
    """The SymPy calls of ``_sympy_work(rounds)`` from an empty cache."""
    budget.fresh_state()
    c0 = sympy_calls()
    _sympy_work(rounds)
    return sympy_calls() - c0


def test_the_same_work_counts_about_the_same_calls_and_a_limit_depends_on_the_count_alone():
    """From an empty cache the same computation makes the same number of SymPy calls to
    within a few per cent (SymPy iterates over some sets in memory order), and a limit at
    half that count stops it while one at twice lets it finish — on any machine, since no
    clock enters (the count measured by two runs without a limit)."""
    n = _count(30)
    assert n > 1000 and abs(_count(30) - n) < 0.05 * n
    budget.fresh_state()
    with time_limit(2 * n / budget.SYMPY_CALLS_PER_SECOND):
        _sympy_work(30)
    budget.fresh_state()
    with pytest.raises(Timeout), time_limit(n / 2 / budget.SYMPY_CALLS_PER_SECOND):
        _sympy_work(30)


def test_cpu_time_without_sympy_calls_is_not_work_and_the_clock_charges_the_calls():
    """Computing without SymPy (or waiting) spends none of SymPy's budget; the work clock
    advances by the calls made, at the fixed rate, whatever they cost in seconds."""
    import sympy  # noqa: F401
    w0 = budget.clock()
    with time_limit(0.001):                 # 100 calls
        _spin(0.3)
        _t.sleep(0.2)
    assert budget.clock() == w0
    n = _count(20)
    budget.fresh_state()
    w0 = budget.clock()
    with time_limit(10):
        _sympy_work(20)
    assert budget.clock() - w0 == pytest.approx(n / budget.SYMPY_CALLS_PER_SECOND, rel=0.05)


def test_a_computation_past_its_count_is_interrupted():
    """An endless SymPy loop stops soon after its count is spent (the timer looks every
    TICK of CPU time), and only the limit's worth is charged."""
    w0, c0 = budget.clock(), _t.thread_time()
    with pytest.raises(Timeout), time_limit(0.05):
        _sympy_work(10 ** 9)
    assert _t.thread_time() - c0 < 20
    assert budget.clock() - w0 == pytest.approx(0.05, abs=1e-5)


def test_an_inner_limit_ends_at_the_outer_one():
    """Inside a limit of 0.05 s of work, one of 50 s still stops at the outer count: the
    inner block sees the timeout, and the outer one is stopped right after."""
    inner_hit = outer_hit = False
    try:
        with time_limit(0.05):
            try:
                with time_limit(50):
                    _sympy_work(10 ** 9)
            except Timeout:
                inner_hit = True
            _sympy_work(10 ** 9)
    except Timeout:
        outer_hit = True
    assert inner_hit and outer_hit


def test_a_shorter_inner_limit_leaves_the_outer_one_running():
    """A limit of 100 calls inside one of 10 s of work stops its own block; the outer block
    then finishes its own (counted) work."""
    n = _count(10)
    inner = False
    budget.fresh_state()
    with time_limit(10):
        try:
            with time_limit(100 / budget.SYMPY_CALLS_PER_SECOND):
                _sympy_work(10 ** 9)
        except Timeout:
            inner = True
        _sympy_work(10)
    assert inner and n > 100


def test_the_size_guard_names_what_it_refuses():
    assert sympy_safe(parse("x**2 + exp(x)")) is None
    assert sympy_safe(parse("x**100000")) is not None


def test_the_limit_is_not_lost_in_a_finalizer():
    """A finalizer (z3's Context.__del__ under the garbage collector) that runs past the
    count is not interrupted (an exception raised there would be printed and swallowed);
    the limit interrupts the work after it."""

    class Slow:
        def __del__(self):
            _sympy_work(200)
    done = False
    c0 = _t.thread_time()
    with pytest.raises(Timeout), time_limit(0.001):
        x = Slow()
        del x                       # the finalizer runs now, past the limit
        done = True
        _sympy_work(10 ** 9)
    assert done and _t.thread_time() - c0 < 30


def test_the_limit_is_not_lost_in_a_gc_callback():
    """The same for a garbage-collector callback (hypothesis times every collection)."""
    import gc

    def slow_callback(phase, info):
        if phase == "start":
            _sympy_work(200)
    gc.callbacks.append(slow_callback)
    try:
        with pytest.raises(Timeout), time_limit(0.001):
            gc.collect()                # the callback runs past the limit
            _sympy_work(10 ** 9)
    finally:
        gc.callbacks.remove(slow_callback)


def test_an_import_is_never_cut(tmp_path, monkeypatch):
    """Issue 37's race: a limit that fired in the middle of an import left the module without
    its submodules (``module 'sympy' has no attribute 'core'`` in every later use). A
    package whose import spends more than the limit is imported whole; the limit fires after."""
    pkg = tmp_path / "slowpkg_budget"
    pkg.mkdir()
    (pkg / "sub.py").write_text("VALUE = 1\n")
    (pkg / "__init__.py").write_text(textwrap.dedent("""
        from . import sub
        import sympy as sp
        x, y = sp.symbols("x y")
        for i in range(300):
            sp.expand((x + y + i) ** 4)
        from . import sub as again
        DONE = True
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(Timeout), time_limit(0.001):
        import slowpkg_budget
    assert slowpkg_budget.DONE and slowpkg_budget.sub.VALUE == 1
    assert "slowpkg_budget" in sys.modules
    del sys.modules["slowpkg_budget"], sys.modules["slowpkg_budget.sub"]


def test_sympy_imported_under_a_limit_is_whole():
    """A fresh process whose first SymPy import happens inside a tiny limit (as a layer's
    lazy import does): before the fix the timer cut ``import sympy`` and ``sympy.core`` was
    missing; now the import completes before the timer is armed."""
    code = textwrap.dedent("""
        from boundcalc.prover.budget import Timeout, time_limit
        try:
            with time_limit(0.0001):
                import sympy
                sympy.expand((sympy.Symbol("x") + 1) ** 30)
        except Timeout:
            pass
        import sympy
        print(sympy.core.cache.__name__, sympy.simplify(sympy.sqrt(4)))
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0 and p.stdout.split() == ["sympy.core.cache", "2"], p.stderr


def test_threads_importing_sympy_at_once_see_it_whole():
    """Eight threads of a fresh process import the SymPy back end at once (as decisions in
    threads do) and use it: every one sees a whole module."""
    code = textwrap.dedent("""
        import threading
        errors, barrier = [], threading.Barrier(8)
        def work():
            barrier.wait()
            try:
                from boundcalc.backends.sym import to_sympy
                from boundcalc.expr.parser import parse
                from boundcalc.prover.budget import time_limit
                with time_limit(1):
                    import sympy
                    sympy.core.cache.CACHE
                    to_sympy(parse("x + 1"))
            except BaseException as e:
                errors.append(repr(e))
        ts = [threading.Thread(target=work) for _ in range(8)]
        [t.start() for t in ts]
        [t.join() for t in ts]
        print(errors)
    """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False)
    assert p.returncode == 0 and p.stdout.strip() == "[]", (p.stdout, p.stderr)


def test_a_sympy_safety_net_fires_on_cpu_time_and_is_counted(monkeypatch):
    """CPU time that no count sees (here a spin) is stopped by the SymPy limit's safety net,
    at CPU_SAFETY x its seconds (at least MIN_NET / 4), and the firing is counted."""
    monkeypatch.setattr(budget, "MIN_NET", 0.4)
    monkeypatch.setattr(budget, "CPU_SAFETY", 2)
    hits, c0 = budget.safety_net_hits(), _t.thread_time()
    with pytest.raises(Timeout), time_limit(0.01):        # net: 2 x 0.1 s of CPU
        _spin(20)
    assert 0.15 < _t.thread_time() - c0 < 10
    assert budget.safety_net_hits() == hits + 1 and "SymPy" in budget.safety_nets_fired()[-1]


def test_a_decisions_safety_net_expires_every_deadline_and_is_counted(monkeypatch):
    monkeypatch.setattr(budget, "MIN_NET", 0.1)
    monkeypatch.setattr(budget, "CPU_SAFETY", 1)
    hits = budget.safety_net_hits()
    far = budget.clock() + 10 ** 6
    with budget.safety_net(0.1):
        assert not budget.expired(far)
        _spin(0.3)
        assert budget.expired(far) and budget.expired(far)
    assert not budget.expired(far)                            # outside the decision: no net
    assert budget.safety_net_hits() == hits + 1


def test_a_decision_whose_net_fires_says_so(monkeypatch):
    """A decision during which a net fired is 'unknown (safety net)' — never what a layer
    found on a machine-dependent path (x*(1 - x) <= 1/4 is true: AM-GM)."""
    from boundcalc.prover.decide import decide_relation
    from boundcalc.verdicts import Layer, Verdict
    monkeypatch.setattr(budget, "MIN_NET", 0.0)
    monkeypatch.setattr(budget, "CPU_SAFETY", 0.0)
    d = decide_relation(parse("x*(1 - x)"), "<=", parse("1/4"), {})
    assert (d.verdict, d.layer) == (Verdict.UNKNOWN, Layer.SAFETY_NET) and d.text == "unknown (safety net)"
    monkeypatch.undo()
    assert decide_relation(parse("x*(1 - x)"), "<=", parse("1/4"), {}).verdict is Verdict.PROVED


def test_z3_is_budgeted_in_its_resource_count():
    """An SMT call charges the work clock with z3's resource count (deterministic): the
    same query charges the same work twice."""
    from fractions import Fraction

    from boundcalc.expr.domains import Domain
    from boundcalc.prover.smt import decide_smt
    dom = {"x": Domain(lo=Fraction(0)), "y": Domain(lo=Fraction(0))}
    used = []
    for _ in range(2):
        w0 = budget.clock()
        decide_smt(parse("x**3 + y**3 - x**2*y - x*y**2"), ">=", dom)
        used.append(budget.clock() - w0)
    assert used[0] > 0 and used[0] == used[1]


def _pigeonhole(z3, ctx, n: int):
    """n pigeons in n - 1 holes: unsatisfiable, and exponentially hard for CDCL (n = 11 takes
    z3 far more than a second)."""
    s = z3.Solver(ctx=ctx)
    p = [[z3.Bool(f"p{i}_{j}", ctx) for j in range(n - 1)] for i in range(n)]
    for row in p:
        s.add(z3.Or(*row))
    for j in range(n - 1):
        for i in range(n):
            for k in range(i + 1, n):
                s.add(z3.Or(z3.Not(p[i][j]), z3.Not(p[k][j])))
    return s


def test_z3s_safety_net_counts_the_cpu_time_of_its_thread():
    """z3's net (smt._check) fires on the CPU time of the thread running z3, not on the wall
    clock (issue 37): when it fires, that thread has used at least the net's CPU seconds,
    however long the wall clock ran (on a loaded machine, several times longer), and z3
    says 'unknown'."""
    import z3

    from boundcalc.prover import smt
    assert smt._NET_CLOCK == "CPU time"               # Linux: per-thread CPU clocks
    ctx = z3.Context()
    s, fired = _pigeonhole(z3, ctx, 11), [False]
    c0 = _t.thread_time()
    res = smt._check(s, ctx, [], 0.3, fired)
    used = _t.thread_time() - c0
    assert res == z3.unknown and fired == [True], (res, s.reason_unknown())
    assert 0.3 <= used < 10, used


def test_z3s_net_firing_is_counted_and_is_unknown(monkeypatch):
    """A z3 call stopped by its net is 'unknown' with the reason 'safety net', and the firing
    is counted (what turns the decision into 'unknown (safety net)')."""
    from fractions import Fraction

    from boundcalc.expr.domains import Domain
    from boundcalc.prover import smt
    from boundcalc.verdicts import SmtStatus

    def stopped(s, ctx, assumptions, net, fired):      # z3 stopped by its net at once
        import z3
        fired[0] = True
        return z3.unknown
    monkeypatch.setattr(smt, "_check", stopped)
    hits = budget.safety_net_hits()
    r = smt.decide_smt(parse("x**3 + y**3 - x**2*y - x*y**2"), ">=",
                       {"x": Domain(lo=Fraction(0)), "y": Domain(lo=Fraction(0))})
    assert r.status is SmtStatus.UNKNOWN and r.reason.startswith("safety net"), r
    assert budget.safety_net_hits() == hits + 1 and "z3's CPU time" in budget.safety_nets_fired()[-1]


def test_fresh_state_reseeds_sympys_random_generators_whatever_ran_before():
    """SymPy's factoring draws evaluation points from ``sympy.core.random``; after
    :func:`budget.fresh_state` the draws are the same whatever was drawn before, so the same
    check does the same work (an unlucky draw made one factorisation 1000x slower)."""
    from sympy.core.random import _randint
    budget.fresh_state()
    first = [_randint()(-10**9, 10**9) for _ in range(8)]
    [_randint()(0, 5) for _ in range(101)]          # other work draws in between
    budget.fresh_state()
    again = [_randint()(-10**9, 10**9) for _ in range(8)]
    assert first == again and len(set(first)) > 1


def test_fresh_state_gives_every_process_the_same_draws():
    """Two interpreters with different hash seeds draw the same points after
    :func:`budget.fresh_state` (each process seeds SymPy from the operating system)."""
    code = textwrap.dedent("""
        from boundcalc.prover import budget
        from sympy.core.random import _randint
        budget.fresh_state()
        print([_randint()(-10**9, 10**9) for _ in range(4)])
    """)
    outs = set()
    for hash_seed in ("1", "2"):
        env = {**__import__("os").environ, "PYTHONHASHSEED": hash_seed}
        outs.add(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                env=env, check=True).stdout)
    assert len(outs) == 1


def test_every_outermost_sympy_limit_starts_from_the_same_draws():
    """``verify`` and the relation suites do not call :func:`budget.fresh_state`: each outermost
    :func:`time_limit` reseeds SymPy, so a decision's draws do not depend on what ran before it."""
    from sympy.core.random import _randint
    with time_limit(5):
        first = [_randint()(-10**9, 10**9) for _ in range(8)]
    [_randint()(0, 5) for _ in range(57)]
    with time_limit(5):
        again = [_randint()(-10**9, 10**9) for _ in range(8)]
    assert first == again and len(set(first)) > 1
