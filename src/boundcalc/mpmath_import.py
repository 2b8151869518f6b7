"""mpmath's one importer (issue 37), as :mod:`.backends.sympy_import` is SymPy's.

Every module of boundcalc that uses mpmath imports it from here (``from ..mpmath_import
import mpmath``, at module level or in the function that uses it; tests/test_mpmath_import.py
checks it statically), so that mpmath's *first* import always runs in this module, once,
inside this module's import lock, with the submodule boundcalc imports by name
(``mpmath.libmp``) imported in the same step.

Why: importing a submodule first (``from mpmath.libmp import from_rational``) takes the
submodule's import lock before its parent's, while a thread running ``import mpmath`` holds
the parent's and later needs the submodule's: a lock cycle, which importlib breaks by raising
``_DeadlockError`` in one thread (seen: ``deadlock detected by
_ModuleLock('mpmath.libmp.backend')``, 1 run in 40 of eight threads released together) or by
handing one thread a half-initialised module. The decision procedure and certified
evaluation run in threads (tests/prover/test_decide_threads.py, ``check --jobs``), each
importing mpmath lazily. Here a thread that gets the module gets all of it: the others wait
on this module's lock, holding no lock of mpmath's.

A core module (no boundcalc import): importing it is what costs mpmath's import, so the
commands that need no mpmath never import this module.
"""
from __future__ import annotations

import mpmath
import mpmath.libmp  # with its parent, in the same import

__all__ = ["mpmath"]
