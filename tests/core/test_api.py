"""The Python API (src/boundcalc/api.py): domains in grid, argument checks, symbol names."""
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boundcalc
from boundcalc.errors import BoundcalcError, DomainError
from boundcalc.expr.domains import parse_domain

beta2 = boundcalc.formula("deora2023.beta2")
INSIDE = dict(T=8, R=1, H=4, d=8, theta_2inf=1)




# ---------------------------------------------------------------- 1. grid enforces domains
@pytest.mark.parametrize("kw, bad, message", [
    (dict(T=[-4, 0, 8]), -4, "T = -4 (entry [0]) is outside its domain: T must be an integer >= 1"),
    (dict(R=[0.5, -1.0]), 0.5, "R = 1/2 (entry [0]) is outside its domain: R must be real >= 1"),
    (dict(H=[0, -1]), 0, "H = 0 (entry [0]) is outside its domain: H must be an integer >= 1"),
    (dict(T=[8.5]), 8.5, "T = 17/2 (entry [0]) is outside its domain: T must be an integer >= 1"),
    (dict(T=[8, float("nan")]), math.nan, "T = nan (entry [1]) is not a finite number: T must be an integer >= 1"),
    (dict(R=np.array([[1.0, 2.0], [3.0, -np.inf]])), -math.inf,
     "R = -inf (entry [1, 1]) is not a finite number: R must be real >= 1"),
    (dict(theta_2inf=[1, float(np.nextafter(0, -1))]), -5e-324,
     "theta_2inf = ~-5.0e-324 (entry [1]) is outside its domain: theta_2inf must be real >= 0"),
    (dict(R=[2.0, float(np.nextafter(1, 0))]), 0.9999999999999999,
     "R = 9999999999999999/10000000000000000 (entry [1]) is outside its domain: R must be real >= 1"),
])
def test_grid_refuses_values_outside_the_domain_like_evaluate(kw, bad, message):
    with pytest.raises(DomainError) as e:
        beta2.grid(**{**INSIDE, **kw})
    assert str(e.value) == message
    # evaluate refuses the same value, in the same words without the entry
    sym = next(iter(kw))
    with pytest.raises(BoundcalcError) as e:
        beta2.evaluate(**{**INSIDE, sym: bad})
    if math.isfinite(bad):
        assert str(e.value) == message[:message.index(" (entry")] + message[message.index("]) ") + 2:]
    else:
        assert str(e.value) == f"value of {sym}: expected a finite number, got {bad!r}"


def test_grid_refuses_non_numbers_and_shapes_naming_the_symbol():
    for kw, part in [(dict(T=[True]), "value of T: expected real numbers, got bool"),
                     (dict(T=["a"]), "value of T: expected real numbers"),
                     (dict(R=10 ** 400), "value of R: expected real numbers within the double range"),
                     (dict(T=[1, 2, 3], R=[1, 2]), "do not broadcast together"),
                     (dict(Q=[1]), "unknown symbol 'Q'")]:
        with pytest.raises(BoundcalcError) as e:
            beta2.grid(**{**INSIDE, **kw})
        assert part in str(e.value), (kw, str(e.value))


@settings(max_examples=40, deadline=None)
@given(T=st.lists(st.integers(1, 10 ** 5), min_size=1, max_size=4),
       R=st.floats(1, 1e6), th=st.floats(0, 1e6), H=st.integers(1, 10 ** 6), d=st.integers(1, 10 ** 4))
def test_grid_inside_the_domain_agrees_with_evaluate_at_high_precision(T, R, th, H, d):
    out = beta2.grid(T=np.array(T), R=R, theta_2inf=th, H=H, d=d)
    for t, got in zip(T, out):
        ref = beta2.evaluate(T=t, R=R, theta_2inf=th, H=H, d=d, digits=40).mpf
        assert abs(mpmath.mpf(float(got)) - ref) <= 1e-12 * abs(ref) + 1e-300


_DOMAINS = ["positive", "real >= 1", "integer >= 1", "(0, 1)", "[0.1, 0.3]", "real < -2.5",
            "integer in [-3, 7]", "nonnegative", "real", "(1e-300, 1e300]"]


@settings(max_examples=300, deadline=None)
@given(dom=st.sampled_from(_DOMAINS), x=st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.0, -0.0, 1.0, 0.1, 0.3, -2.5, 7.0, -3.0, 1e-300, 1e300, 5e-324]),
    st.integers(-10, 10).map(float)), ulps=st.integers(-2, 2))
def test_check_array_agrees_with_the_scalar_check_entry_by_entry(dom, x, ulps):
    """Near every bound (within a few ulps) the vectorised check decides as the exact scalar
    check on the float's shortest decimal does."""
    d = parse_domain(dom)
    for _ in range(abs(ulps)):
        with np.errstate(over="ignore"):
            x = float(np.nextafter(x, math.copysign(math.inf, ulps)))
    if not math.isfinite(x):
        return
    inside = d.contains(Fraction(repr(x)))
    try:
        d.check_array("v", np.array([1.0, x])[1:])
        vec = True
    except DomainError:
        vec = False
    assert vec == inside, (dom, x)
