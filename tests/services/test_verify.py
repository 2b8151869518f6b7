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
