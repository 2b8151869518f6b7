"""mpmath's first import goes through one module (boundcalc.mpmath_import, issue 37), as
SymPy's goes through backends/sympy_import (tests/backends/test_sympy_import.py).

The race it closes: a thread importing a submodule first (``from mpmath.libmp import x``)
holds the submodule's import lock and waits for the parent's, while a thread in ``import
mpmath`` holds the parent's and needs the submodule's; importlib breaks the cycle with
``_DeadlockError`` (seen once in 40 fresh interpreters of eight threads released together,
``_ModuleLock('mpmath.libmp.backend')``) or hands a thread a half-initialised module.
Checked statically (every import of mpmath in src/ after an import of the owner in its
scope, so that no submodule-first import can be the first one) and by threads entering
mpmath through boundcalc's lazy paths at once, in fresh interpreters."""
from __future__ import annotations

from pathlib import Path

from support import imports_outside_owner, race_failures

SRC = Path(__file__).resolve().parents[1] / "src" / "boundcalc"
OWNER = SRC / "mpmath_import.py"

RACE = r'''
import sys, threading
from fractions import Fraction
import boundcalc.expr, boundcalc.backends.mp, boundcalc.mpctx, boundcalc.expr.numbers  # noqa: no mpmath yet
assert "mpmath" not in sys.modules, sorted(m for m in sys.modules if m.startswith("mpmath"))
N = 8
bar = threading.Barrier(N)
errs = []

def path(k):
    if k == 0:
        from boundcalc.backends import mp
        mp._fraction_mpf(Fraction(1, 3), 53).__float__()      # mpmath, then mpmath.libmp
    elif k == 1:
        from boundcalc import mpctx
        mpctx.context(dps=20).mpf(1)
    elif k == 2:
        from boundcalc.expr.domains import Domain
        Domain(lo=Fraction(0)).contains(0.5)                    # a float: through mpmath
    else:
        from boundcalc.expr.numbers import ExactValue
        ExactValue(1, 3)._mpmath_(53, "n")

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


def test_first_import_of_mpmath_from_many_threads():
    failures = race_failures(RACE, 6, SRC)
    assert not failures, failures


def mpmath_imports_outside_the_owner(files) -> list[str]:
    return imports_outside_owner(files, "mpmath", "mpmath_import")


def test_every_mpmath_import_goes_through_the_owner():
    """In src/, a statement importing mpmath (module level or in a function) comes after an
    import of the owner in its scope (or its module's), so that mpmath's first import always
    happens inside the owner's import lock."""
    bad = mpmath_imports_outside_the_owner(f for f in sorted(SRC.rglob("*.py")) if f != OWNER)
    assert not bad, "mpmath imported without boundcalc.mpmath_import first: " + ", ".join(bad)


def test_the_static_check_can_fail(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def g():\n    from mpmath.libmp import from_rational\n"
                 "def h():\n    from ..mpmath_import import mpmath\n    from mpmath.libmp import from_rational\n")
    assert mpmath_imports_outside_the_owner([f]) == ["m.py:2"]


def test_the_owner_imports_mpmath_whole():
    from boundcalc.mpmath_import import mpmath
    assert mpmath.libmp.from_rational and mpmath.mp.prec > 0
