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
    with ThreadPoolExecutor(max_workers=6) as ex:
        got = list(ex.map(lambda c: verify(c[0], c[1], c[2], []).verdict, CASES * 2))
    assert got == [c[3] for c in CASES] * 2
