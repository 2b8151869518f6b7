"""The decision procedure is safe to run in threads (each z3 call has its own context; the
SymPy time limit only arms in the main thread)."""
from concurrent.futures import ThreadPoolExecutor

from boundcalc.services.verify import verify

CASES = [("sqrt(x*y)", "<=", "(x+y)/2", "proved"), ("exp(x)", ">=", "1 + x", "proved"),
         ("x**2", ">=", "x", "disproved"), ("log(x)", "<=", "x - 1", "proved"),
         ("abs(tanh(u))", "<=", "1", "proved"), ("x*(1 - x)", "<", "1/4", "disproved")]


def test_verdicts_in_threads_match():
    # the registry loads papers lazily and that loading is not thread-safe (reported);
    # load it here so that this test is about the decision procedure only
    from boundcalc.registry import get_registry
    get_registry().papers
    with ThreadPoolExecutor(max_workers=4) as ex:
        got = list(ex.map(lambda c: verify(c[0], c[1], c[2], []).verdict, CASES * 2))
    want = [c[3] for c in CASES] * 2
    # budgets are wall-clock: threads sharing the GIL on a loaded machine may run out of
    # time (an honest "unknown"), but no verdict may differ from the known answer
    assert all(g in (w, "unknown") for g, w in zip(got, want)), got
    assert sum(g == w for g, w in zip(got, want)) >= len(want) - 2, got


def test_time_limit_is_not_lost_in_a_finalizer():
    """The limit (CPU seconds) firing inside a __del__ (z3's Context.__del__ under the garbage collector)
    would be printed and swallowed; the limit re-arms and interrupts the work after it."""
    import time as _t
    from boundcalc.prover.decide import _Timeout, time_limit

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
    except _Timeout:
        interrupted = True
    assert interrupted and _t.perf_counter() - t0 < 15


def test_time_limit_counts_cpu_time_not_wall_time():
    """A machine under load gives the same work the same budget: waiting (no CPU) does not
    use the SymPy layer's limit, computing does."""
    import time as _t
    from boundcalc.prover.decide import _Timeout, time_limit
    with time_limit(0.2):
        _t.sleep(0.5)                    # wall time passes, no CPU: not interrupted
    c0 = _t.process_time()
    try:
        with time_limit(0.2):
            while _t.process_time() - c0 < 10:
                pass
        raise AssertionError("not interrupted")
    except _Timeout:
        assert 0.15 < _t.process_time() - c0 < 2
