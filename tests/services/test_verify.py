"""services/verify.py: verdicts of verify."""
import mpmath
import pytest

from boundcalc.errors import BoundcalcError
from boundcalc.services.verify import verify


def test_verify_verdicts():
    assert verify("deora2023.beta2", ">=", "deora2023.beta1**2/4", []).verdict == "proved"
    assert verify("x**2", ">=", "x", ["x>=1"]).verdict == "proved"
    r = verify("x**2", ">=", "x", [])
    assert r.verdict == "disproved"
    x = mpmath.mpf(eval_fraction(r.counterexample["x"]))
    assert x ** 2 < x
    assert verify("(a+b)**2", "==", "a**2 + 2*a*b + b**2", []).verdict == "proved"
    assert verify("a + b", "==", "a*b", []).verdict == "disproved"
    with pytest.raises(BoundcalcError, match="REL must be"):
        verify("a", "=<", "b", [])


def eval_fraction(s):
    from fractions import Fraction
    f = Fraction(s)
    return mpmath.mpf(f.numerator) / f.denominator


# --- issue 30: integer powers of negative bases, n an integer (my_paper's n: integer >= 1) -----

from fractions import Fraction as _F
from pathlib import Path as _Path

_MY_PAPER = [str(_Path(__file__).resolve().parents[2] / "examples" / "my_paper.toml")]
_OPS = {"<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b,
        ">": lambda a, b: a > b, "==": lambda a, b: a == b}

# (lhs, rel, rhs, by hand at integer n >= 1); the truth of each is checked below on n = 1..60
_NEG_BASE = [
    ("(-1)**n", "<=", "1", lambda n: (_F(-1) ** n, _F(1))),
    ("(-1)**n", ">=", "-1", lambda n: (_F(-1) ** n, _F(-1))),
    ("(-1)**n", ">=", "0", lambda n: (_F(-1) ** n, _F(0))),
    ("(-1)**n", ">", "-1", lambda n: (_F(-1) ** n, _F(-1))),
    ("(-1)**n", "<", "1", lambda n: (_F(-1) ** n, _F(1))),
    ("(-1)**n*(-1)**n", "==", "1", lambda n: (_F(-1) ** (2 * n), _F(1))),
    ("(-1)**(2*n)", ">", "0", lambda n: (_F(-1) ** (2 * n), _F(0))),
    ("(-1)**(2*n + 1)", ">", "0", lambda n: (_F(-1) ** (2 * n + 1), _F(0))),
    ("(-2)**n", "<=", "2**n", lambda n: (_F(-2) ** n, _F(2) ** n)),
    ("(-2)**n", ">=", "2**n", lambda n: (_F(-2) ** n, _F(2) ** n)),
    ("(-2)**n", "<=", "n", lambda n: (_F(-2) ** n, _F(n))),
    ("(-1)**n", "<=", "n", lambda n: (_F(-1) ** n, _F(n))),
    ("n*(-1)**n", ">=", "1", lambda n: (n * _F(-1) ** n, _F(1))),
    ("sum((-1)**i, i, 1, n)", "<=", "0", lambda n: (sum(_F(-1) ** i for i in range(1, n + 1)), _F(0))),
    ("sum((-1)**i, i, 1, n)", ">=", "0", lambda n: (sum(_F(-1) ** i for i in range(1, n + 1)), _F(0))),
    ("sum((-1)**i, i, 1, n)", ">=", "-1", lambda n: (sum(_F(-1) ** i for i in range(1, n + 1)), _F(-1))),
]


@pytest.mark.parametrize("lhs, rel, rhs, by_hand", _NEG_BASE, ids=[f"{a} {r} {b}" for a, r, b, _ in _NEG_BASE])
def test_negative_bases_to_integer_powers_are_decided_soundly(lhs, rel, rhs, by_hand):
    """Defined (not "undefined everywhere"); a true relation is never disproved, a false one
    never proved, and a counterexample is one by hand (exact rationals)."""
    holds = all(_OPS[rel](*by_hand(n)) for n in range(1, 61))
    r = verify(lhs, rel, rhs, [], formulas_path=_MY_PAPER, seconds=8)
    assert r.verdict != ("disproved" if holds else "proved"), (r.verdict, r.text)
    if r.verdict == "disproved":
        n = _F(r.counterexample["n"])
        assert n.denominator == 1 and n >= 1 and not _OPS[rel](*by_hand(int(n))), r.counterexample
    if lhs == "(-1)**n" and rel == "<=":
        assert r.verdict == "proved"                   # the case of the issue


def test_a_negative_base_to_a_real_power_stays_undefined():
    with pytest.raises(BoundcalcError, match="undefined everywhere: a negative number to a non-integer power"):
        verify("(-1)**x", "<=", "1", [])


# --- issue 30: contradictory bounds on one symbol are vacuous (exit 5), not a refusal ----------

@pytest.mark.parametrize("assume", [["x >= 2", "x <= 1"], ["x > 1", "x < 1"], ["2 <= x", "1 >= x"],
                                    ["x == -1"], ["x >= 2", "x <= 1", "x <= y"]])
def test_contradictory_one_symbol_bounds_are_vacuous(assume):
    r = verify("x**2", ">=", "x + y" if any("y" in a for a in assume) else "x", assume)
    assert r.verdict == "vacuous" and "the domain of x is empty" in r.method, r.method


def test_bounds_leaving_no_integer_are_vacuous_and_a_reversed_box_refused():
    r = verify("n", ">=", "2", ["n <= 2/3"], formulas_path=_MY_PAPER)    # no integer >= 1 below 2/3
    assert r.verdict == "vacuous" and "the domain of n is empty" in r.method
    with pytest.raises(BoundcalcError, match="reversed range"):
        verify("x", ">=", "1", [], box={"x": ("2", "1")})


def test_bounds_meeting_at_a_point_are_no_contradiction():
    assert verify("x**2", ">=", "x", ["x >= 1", "x <= 1"]).verdict == "proved"
    assert verify("x", ">", "1", ["x >= 1", "x <= 1"]).verdict == "disproved"


# --- a user's paper declaring a name a packaged paper declares too (arda2026's u is any real) --

_CLASH = '''[paper]
key = "clash"
title = "t"
results = ["Thm. 1"]

[symbols.d]
description = "depth"
domain = "integer >= 1"

[symbols.u]
description = "a layer's nonnegative weight"
domain = "nonnegative"
index = "i"
range = [1, "d"]

[symbols.W]
description = "a width"
domain = "integer >= 2"

[formulas.su]
name = "the sum of the weights"
kind = "definition"
expr = "sum(u[i], i, 1, d)"
source = "Thm. 1"

[formulas.lw]
name = "log of the width"
kind = "definition"
expr = "log(W)"
source = "Thm. 1"
'''


@pytest.mark.parametrize("lhs, rel", [("clash.su", ">="), ("clash.lw", ">")])
def test_a_named_formula_keeps_its_papers_domains_on_a_name_clash(tmp_path, lhs, rel):
    # a sum of nonnegative u_i is >= 0, log W > 0 for W >= 2 (log 2 = 0.69): both true; with
    # arda2026's u (any real) or a W of another paper they were "disproved" at u_1 = -1, W = 23/25
    p = tmp_path / "clash.toml"
    p.write_text(_CLASH, encoding="utf-8")
    r = verify(lhs, rel, "0", [], formulas_path=[str(p)])
    assert r.verdict == "proved", (r.method, r.counterexample, r.domains)
