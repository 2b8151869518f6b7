"""SymPy's one importer (issue 37).

Every module of boundcalc that uses SymPy imports this module first (at module level, or in
the function, before its own ``import sympy``; tests/backends/test_sympy_import.py checks it
statically), so that SymPy's *first* import always runs here, once, inside this module's
import lock.

Why: importing a package and one of its submodules from two threads at once is a lock
cycle in importlib (thread A, ``import sympy``, holds ``sympy`` and later needs
``sympy.core.cache``; thread B, ``from sympy.core.cache import CACHE``, holds
``sympy.core.cache`` and waits for ``sympy``). importlib breaks it by raising
``_DeadlockError`` in one thread or by handing one thread the half-initialised package
(``module 'sympy' has no attribute 'core'``). The decision procedure runs in threads
(tests/prover/test_decide_threads.py, and any user's thread pool), each lazily importing
SymPy; under load the threads overlap in the import and the race shows.

Here the package and every submodule boundcalc imports by name are imported together, in
one thread, mpmath (which SymPy imports) first: afterwards every ``import sympy...`` of
boundcalc is a look-up in ``sys.modules`` of a fully initialised module. Importing this
module is what costs SymPy's import: the numeric commands never do (tests/cli/test_app.py
checks that ``require-heads`` does not import SymPy).
"""
from __future__ import annotations

from ..mpmath_import import mpmath  # noqa: F401  -- mpmath (which SymPy imports) first, through its owner

# isort: split
import sympy
import sympy.core.cache
import sympy.core.random
import sympy.core.relational
import sympy.printing.str

__all__ = ["sympy"]
