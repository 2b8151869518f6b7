"""Helpers shared by several test modules (importable: conftest puts tests/ on sys.path)."""
from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import mpmath

import boundcalc

ROOT = Path(__file__).resolve().parents[1]


def q(x) -> mpmath.mpf:
    """Exact input (int, decimal string, Fraction) as an mpf at the current precision."""
    if isinstance(x, mpmath.mpf):
        return +x
    f = Fraction(x)
    return mpmath.mpf(f.numerator) / f.denominator


def evaluator(paper: str):
    """``ev(name, **values)``: evaluate ``paper.name`` to 30 digits, passing only its symbols."""
    def ev(name: str, **values):
        f = boundcalc.formula(f"{paper}.{name}")
        return f.evaluate(digits=30, **{k: v for k, v in values.items() if k in f.symbols})
    return ev


_REL = mpmath.mpf(10) ** -25


def assert_close(value, expected, rel=_REL):
    got = value.mpf
    assert abs(got - expected) <= rel * abs(expected), (str(value), mpmath.nstr(expected, 35))


def load_bench(name: str):
    """Import ``bench/<name>.py`` (the benchmarks are not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "bench" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def row(table, start: str):
    """The one row of a comparison table whose quantity starts with ``start``."""
    rows = [r for r in table.rows if r.quantity.startswith(start)]
    assert len(rows) == 1, start
    return rows[0]


def cli(args, *, env: dict | None = None, cwd=None, input: str | None = None):
    """``boundcalc ARGS`` run in this process through the real entry point
    (:func:`boundcalc.cli.main`: its option hoisting, its one-line errors and exit statuses),
    as a :class:`subprocess.CompletedProcess` (``returncode``, ``stdout``, ``stderr``, text).

    What a subprocess would see is given to it: ``env`` replaces the environment for the
    call (as ``subprocess.run(env=...)`` does), ``cwd`` the working folder, ``input`` the
    standard input; standard output and error are fresh streams in ``$PYTHONIOENCODING``
    (UTF-8 if unset), not terminals (so rich prints at its fixed width or ``$COLUMNS``). The
    registry's in-memory cache is cleared when the call names user formula files (a test may
    rewrite a file at the same path). About 50x cheaper than a subprocess (no interpreter
    start, no re-import); keep real subprocesses for what only a process shows: imports
    (no SymPy on the fast paths), signals, pipes, memory limits, ``python -m boundcalc``."""
    import contextlib
    import io
    import os
    import subprocess
    import sys

    from boundcalc.cli import main
    from boundcalc.registry import registry as _registry
    argv = [str(a) for a in args]
    saved_env, saved_argv, saved_stdin, saved_cwd = dict(os.environ), sys.argv, sys.stdin, os.getcwd()
    if env is not None:
        os.environ.clear()
        os.environ.update(env)
    enc = os.environ.get("PYTHONIOENCODING", "utf-8").split(":")[0] or "utf-8"
    out = io.TextIOWrapper(io.BytesIO(), encoding=enc, errors="strict", newline="\n", write_through=True)
    err = io.TextIOWrapper(io.BytesIO(), encoding=enc, errors="backslashreplace", newline="\n", write_through=True)
    if "--formulas" in argv or any(a.startswith("--formulas=") for a in argv) or os.environ.get("BOUNDCALC_FORMULAS"):
        _registry._cached.cache_clear()
    code = 0
    try:
        sys.argv = ["boundcalc", *argv]
        sys.stdin = io.StringIO(input or "")
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            finally:
                out.flush()
                err.flush()
    finally:
        os.chdir(saved_cwd)
        sys.argv, sys.stdin = saved_argv, saved_stdin
        os.environ.clear()
        os.environ.update(saved_env)
    text = [s.buffer.getvalue().decode(enc, errors="replace") for s in (out, err)]
    return subprocess.CompletedProcess(["boundcalc", *argv], code, text[0], text[1])


# ----------------------------------------------------------------------------- one importer
def imports_outside_owner(files, package: str, owner: str, root: Path | None = None) -> list[str]:
    """``file:line`` of every statement importing ``package`` (``import p``, ``import p.x``,
    ``from p.x import y``) that no import of the module ``owner`` (its last dotted name,
    e.g. ``sympy_import``) precedes in its scope, or at its module's top level: the check
    that a lazily imported package's first import always happens inside its owner
    (tests/backends/test_sympy_import.py, tests/test_mpmath_import.py). Names are relative
    to ``root`` when given, else the file's name."""
    import ast

    def imports_package(node) -> bool:
        if isinstance(node, ast.Import):
            return any(a.name == package or a.name.startswith(package + ".") for a in node.names)
        return (isinstance(node, ast.ImportFrom) and node.level == 0
                and (node.module or "").split(".")[0] == package)

    def imports_owner(node) -> bool:
        return isinstance(node, ast.ImportFrom) and (
            (node.module or "").endswith(owner) or any(a.name == owner for a in node.names))

    def statements(body):
        """A scope's statements in order, into if/try/with/for bodies, not into nested
        functions or classes (their own scopes)."""
        for stmt in body:
            yield stmt
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            for field in ("body", "orelse", "finalbody", "handlers"):
                yield from statements(getattr(stmt, field, []) or [])

    bad = []
    for f in files:
        tree = ast.parse(Path(f).read_text(encoding="utf-8"))
        module_owner = any(imports_owner(s) for s in tree.body)
        scopes = [tree, *[n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]]
        for scope in scopes:
            seen = scope is not tree and module_owner
            for stmt in statements(scope.body):
                if imports_owner(stmt):
                    seen = True
                elif imports_package(stmt) and not seen:
                    bad.append(f"{Path(f).relative_to(root) if root else Path(f).name}:{stmt.lineno}")
    return bad


def race_failures(script: str, rounds: int, src: Path) -> list[str]:
    """Run ``script`` (which prints "ok" when none of its threads failed) in ``rounds`` fresh
    interpreters with ``src``'s package importable; the outputs of the runs that failed."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "PYTHONPATH": str(src.parent)}
    failures = []
    for _ in range(rounds):
        p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=env, timeout=300, check=False)
        if p.returncode != 0 or p.stdout.strip() != "ok":
            failures.append(p.stdout.strip() or p.stderr.strip()[-500:])
    return failures
