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
