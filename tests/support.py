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
