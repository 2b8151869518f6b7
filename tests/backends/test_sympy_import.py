"""SymPy's first import from several threads at once (issue 37: ``module 'sympy' has no
attribute 'core'`` and importlib's ``_DeadlockError`` under load).

The mechanism: thread A runs ``import sympy`` (holding the import lock of ``sympy``, then of
``sympy.core``, ...), while thread B runs ``from sympy.core.cache import CACHE`` (taking the
lock of ``sympy.core.cache`` first, then waiting for its parents). A then needs
``sympy.core.cache``: a lock cycle, which importlib breaks by raising ``_DeadlockError`` in
one thread or by handing it the half-initialised module (no ``core`` attribute yet).
The fix (:mod:`boundcalc.backends.sympy_import`): one module imports SymPy and the
submodules boundcalc uses, under its own import lock; every other import of SymPy in
``src/`` goes through it first (checked below, statically).

Each run is a fresh interpreter (the race is on the *first* import), several threads
released together by a barrier, each entering SymPy through a different one of
boundcalc's lazy paths. Before the fix 3 of 10 such runs failed here (idle machine)."""
from __future__ import annotations

from pathlib import Path

from support import imports_outside_owner, race_failures

SRC = Path(__file__).resolve().parents[2] / "src" / "boundcalc"
OWNER = SRC / "backends" / "sympy_import.py"

RACE = r'''
import sys, threading
import boundcalc.prover.budget, boundcalc.expr  # noqa: their imports are not the race (no SymPy)
assert "sympy" not in sys.modules
N = 8
bar = threading.Barrier(N)
errs = []

def path(k):
    if k == 0:
        from boundcalc.prover import budget
        budget.sympy_calls()                       # from sympy.core.cache import CACHE
    elif k == 1:
        from boundcalc.prover import budget
        budget.sympy_calls()
    elif k == 2:
        import boundcalc.backends.sym as s         # module-level import sympy
        s.sp.core.cache.clear_cache
    else:
        from boundcalc.prover import budget
        with budget.time_limit(1.0):               # imports SymPy, seeds sympy.core.random
            pass

def work(i):
    bar.wait()
    try:
        path(i % 4)
    except BaseException as e:
        errs.append(f"{type(e).__name__}: {e}")

ts = [threading.Thread(target=work, args=(i,)) for i in range(N)]
for t in ts: t.start()
for t in ts: t.join()
print("; ".join(errs) if errs else "ok")
'''


def test_first_import_of_sympy_from_many_threads():
    failures = race_failures(RACE, 12, SRC)
    assert not failures, failures


def test_every_sympy_import_goes_through_the_owner():
    """In src/, a statement importing SymPy (module level or in a function) comes after an
    import of the owner in the same scope (or its module's top level), so that SymPy's
    first import always happens inside the owner's import lock."""
    bad = imports_outside_owner((f for f in sorted(SRC.rglob("*.py")) if f != OWNER), "sympy", "sympy_import",
                                root=SRC)
    assert not bad, "SymPy imported without boundcalc.backends.sympy_import first: " + ", ".join(bad)


def test_the_static_check_can_fail(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import sympy\ndef g():\n    from ..backends.sympy_import import sympy\n    import sympy.core\n"
                 "def h():\n    from sympy.core.cache import CACHE\n")
    assert imports_outside_owner([f], "sympy", "sympy_import") == ["m.py:1", "m.py:6"]
