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

import ast
import os
import subprocess
import sys
from pathlib import Path

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
    env = {**os.environ, "PYTHONPATH": str(SRC.parent)}
    failures = []
    for _ in range(12):
        p = subprocess.run([sys.executable, "-c", RACE], capture_output=True, text=True,
                           env=env, timeout=300, check=False)
        if p.returncode != 0 or p.stdout.strip() != "ok":
            failures.append(p.stdout.strip() or p.stderr.strip()[-500:])
    assert not failures, failures


def _imports_sympy(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name == "sympy" or a.name.startswith("sympy.") for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return node.level == 0 and (node.module or "").split(".")[0] == "sympy"
    return False


def _imports_owner(node: ast.AST) -> bool:
    return (isinstance(node, ast.ImportFrom) and (node.module or "").endswith("sympy_import")
            or isinstance(node, ast.ImportFrom) and any(a.name == "sympy_import" for a in node.names))


def test_every_sympy_import_goes_through_the_owner():
    """In src/, a statement importing SymPy (module level or in a function) comes after an
    import of the owner in the same scope (module body or function body), so that SymPy's
    first import always happens inside the owner's import lock."""
    bad = []
    for f in sorted(SRC.rglob("*.py")):
        if f == OWNER:
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        scopes = [tree, *[n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]]
        for scope in scopes:
            seen_owner = False
            for stmt in _statements(scope):
                if _imports_owner(stmt):
                    seen_owner = True
                elif _imports_sympy(stmt) and not seen_owner and not _module_has_owner(tree, scope):
                    bad.append(f"{f.relative_to(SRC)}:{stmt.lineno}")
    assert not bad, "SymPy imported without boundcalc.backends.sympy_import first: " + ", ".join(bad)


def _statements(scope: ast.AST):
    """The statements of a scope in order, descending into if/try/with/for bodies but not
    into nested functions or classes (their own scopes)."""
    for stmt in getattr(scope, "body", []):
        yield stmt
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody", "handlers"):
            for sub in getattr(stmt, field, []) or []:
                yield from _statements(_Wrap(sub)) if not hasattr(sub, "body") else _one(sub)


def _one(stmt):
    yield stmt
    yield from _statements(stmt)


class _Wrap:
    def __init__(self, stmt):
        self.body = [stmt]


def _module_has_owner(tree: ast.Module, scope: ast.AST) -> bool:
    """A function may rely on its module having imported the owner at module level."""
    if scope is tree:
        return False
    return any(_imports_owner(s) for s in tree.body)
