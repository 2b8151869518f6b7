"""The Python API (src/boundcalc/api.py): domains in grid, argument checks, symbol names."""
import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boundcalc
from boundcalc.errors import BoundcalcError, DomainError, FormulaFileError
from boundcalc.expr.domains import parse_domain

beta2 = boundcalc.formula("deora2023.beta2")
INSIDE = {"T": 8, "R": 1, "H": 4, "d": 8, "theta_2inf": 1}




# ---------------------------------------------------------------- 1. grid enforces domains
@pytest.mark.parametrize("kw, bad, message", [
    ({"T": [-4, 0, 8]}, -4, "T = -4 (entry [0]) is outside its domain: T must be an integer >= 1"),
    ({"R": [0.5, -1.0]}, 0.5, "R = 1/2 (entry [0]) is outside its domain: R must be real >= 1"),
    ({"H": [0, -1]}, 0, "H = 0 (entry [0]) is outside its domain: H must be an integer >= 1"),
    ({"T": [8.5]}, 8.5, "T = 17/2 (entry [0]) is outside its domain: T must be an integer >= 1"),
    ({"T": [8, float("nan")]}, math.nan, "T = nan (entry [1]) is not a finite number: T must be an integer >= 1"),
    ({"R": np.array([[1.0, 2.0], [3.0, -np.inf]])}, -math.inf,
     "R = -inf (entry [1, 1]) is not a finite number: R must be real >= 1"),
    ({"theta_2inf": [1, float(np.nextafter(0, -1))]}, -5e-324,
     "theta_2inf = ~-5.0e-324 (entry [1]) is outside its domain: theta_2inf must be real >= 0"),
    ({"R": [2.0, float(np.nextafter(1, 0))]}, 0.9999999999999999,
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
    for kw, part in [({"T": [True]}, "value of T: expected real numbers, got bool"),
                     ({"T": ["a"]}, "value of T: expected real numbers"),
                     ({"R": 10 ** 400}, "value of R: expected real numbers within the double range"),
                     ({"T": [1, 2, 3], "R": [1, 2]}, "do not broadcast together"),
                     ({"Q": [1]}, "unknown symbol 'Q'")]:
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


# ---------------------------------------------------------------- 4. argument checks
HEADS = {"d": 1, "T": 1, "R": 1, "theta_2inf": 1, "dist0": 1}


@pytest.mark.parametrize("call, message", [
    (lambda: boundcalc.formula(None), "formula id must be a non-empty string, not None"),
    (lambda: boundcalc.formula(3), "formula id must be a non-empty string, not 3"),
    (lambda: boundcalc.formulas(paper=123), "paper must be a non-empty string or None, not 123"),
    (lambda: boundcalc.formulas(formulas_path=5), "formulas_path must be a path or a list of paths, not 5"),
    (lambda: boundcalc.papers(formulas_path=[1]), "formulas_path must be a path or a list of paths, not [1]"),
    (lambda: boundcalc.api.paper(None), "paper key must be a non-empty string, not None"),
    (lambda: beta2.evaluate(**{**INSIDE, "T": np.array([8, 9])}),
     "value of T: expected a single number, got an array of shape (2,) (grid() evaluates on arrays)"),
    (lambda: beta2.evaluate(digits=None, **INSIDE), "digits must be an integer between 1 and 10000, not None"),
    (lambda: beta2.evaluate(digits=2.5, **INSIDE), "digits must be an integer between 1 and 10000, not 2.5"),
    (lambda: beta2.evaluate(digits=True, **INSIDE), "digits must be an integer between 1 and 10000, not True"),
    (lambda: beta2.evaluate(digits=10001, **INSIDE), "digits must be an integer between 1 and 10000, not 10001"),
    (lambda: beta2.evaluate([1], **INSIDE),
     "deora2023.beta2: values must be a mapping symbol -> value (or keywords), not a list"),
    (lambda: beta2.evaluate({"T": 8}, **INSIDE),
     "deora2023.beta2: symbol 'T' is given twice (in the mapping and as a keyword)"),
    (lambda: beta2.evaluate(**{**INSIDE, "T": None}), "value of T: expected a number, got a NoneType"),
    (lambda: beta2.grid(**{**INSIDE, "T": [1, None]}), "value of T: expected real numbers, got None (a NoneType)"),
    (lambda: beta2.grid(**{**INSIDE, "T": [float("nan")]}),
     "T = nan (entry [0]) is not a finite number: T must be an integer >= 1"),
    (lambda: beta2.grid([1], **INSIDE),
     "deora2023.beta2: arrays must be a mapping symbol -> value (or keywords), not a list"),
    (lambda: beta2.evaluate(20, **INSIDE), ("deora2023.beta2: values must be a mapping symbol -> value (or "
                                           "keywords), not a int (digits is a keyword: digits=...)")),
    (lambda: beta2.bind(5), "values for deora2023.beta2: expected a mapping symbol -> value, got a int"),
    (lambda: beta2.bind(INSIDE, allow_extra="yes"), "allow_extra must be True or False, not 'yes'"),
    (lambda: beta2.holds(**INSIDE), "deora2023.beta2 is a definition, not a relation"),
    (lambda: boundcalc.formula("deora2023.heads_thm1").solve(None, **HEADS),
     "deora2023.heads_thm1: var must be a symbol name (a string), not a NoneType"),
    (lambda: boundcalc.formula("deora2023.heads_thm1").sides(digits="a", H=1, **HEADS),
     "digits must be an integer between 1 and 10000, not 'a'"),
    (lambda: beta2.monotone("T", foo=1),
     "deora2023.beta2: monotone: unknown option 'foo'; options: box, fixed, samples, seed"),
    (lambda: beta2.monotone("T", box=[1]), "deora2023.beta2: monotone: option box must be a mapping, not [1]"),
    (lambda: beta2.monotone("T", samples=2.5),
     "deora2023.beta2: monotone: option samples must be an integer, not 2.5"),
    (lambda: beta2.asymptotic("T", fixed="x"),
     "deora2023.beta2: asymptotic: option fixed must be a mapping, not 'x'"),
    (lambda: beta2.asymptotic(1), "deora2023.beta2: var must be a symbol name (a string), not a int"),
])
def test_api_misuse_is_a_boundcalc_error_naming_the_argument(call, message):
    with pytest.raises(BoundcalcError) as e:
        call()
    assert str(e.value) == message


def test_values_as_a_mapping_or_keywords_agree():
    a = beta2.evaluate(INSIDE, digits=30)
    b = beta2.evaluate(digits=30, **INSIDE)
    c = beta2.evaluate({"T": 8, "R": 1}, digits=30, H=4, d=8, theta_2inf=1)
    assert a.mpf == b.mpf == c.mpf and a.digits == 30
    assert beta2.evaluate(digits=np.int64(7), **INSIDE).digits == 7
    assert beta2.evaluate(**{**INSIDE, "T": np.array(8)}, digits=30).mpf == a.mpf         # a 0-d array is a number
    np.testing.assert_array_equal(beta2.grid(INSIDE), beta2.grid(**INSIDE))


# ---------------------------------------------------------------- 5. symbol names
OPTION_NAMES = '''
[symbols.digits]
description = "d"
domain = "positive"
[symbols.json]
description = "j"
domain = "positive"
[symbols.help]
description = "h"
domain = "positive"
[symbols.self]
description = "s"
domain = "positive"
[symbols.var]
description = "v"
domain = "positive"
[symbols.values]
description = "v"
domain = "positive"

[formulas.f]
name = "f"
kind = "definition"
expr = "digits + 10*json + 100*help + 1000*self + 10000*var + 100000*values"
source = "x"

[formulas.r]
name = "r"
kind = "requirement"
expr = "var >= digits + 10*json"
source = "x"
'''
NAMED = {"digits": 1, "json": 2, "help": 3, "self": 4, "var": 5, "values": 6}


def test_symbols_named_like_options_or_parameters_work(write_formula_file):
    p = [str(write_formula_file("opt", OPTION_NAMES))]
    f = boundcalc.formula("opt.f", formulas_path=p)
    v = f.evaluate(NAMED, digits=8)                  # the symbol 'digits' in the mapping, the option as keyword
    assert str(v) == "654321.00" and v.digits == 8
    kw = {k: x for k, x in NAMED.items() if k != "digits"}
    assert f.evaluate({"digits": 1}, **kw).mpf == 654321        # 'self', 'var', 'values' as keywords
    assert float(f.grid({"digits": [1, 2]}, **kw)[1]) == 654322.0
    r = boundcalc.formula("opt.r", formulas_path=p)
    assert r.holds({"digits": 1}, json=2, var=21) and not r.holds({"digits": 1}, json=2, var=20.5)
    assert r.solve("var", {"digits": 1}, json=2).value == 21


@pytest.mark.parametrize("section, name, why", [
    ("symbols", "pi", "it is the constant pi of the expression language"),
    ("symbols", "E", "it is the constant E of the expression language"),
    ("symbols", "exp", "it is the function exp() of the expression language"),
    ("symbols", "lambda", "it is a Python keyword, which an expression cannot use as a name"),
    ("formulas", "max", "it is the function max() of the expression language"),
    ("formulas", "pi", "it is the constant pi of the expression language"),
])
def test_reserved_names_are_refused_at_load(write_formula_file, section, name, why):
    body = (f'[symbols.{name}]\ndescription = "d"\ndomain = "positive"\n' if section == "symbols" else
            f'[symbols.x]\ndescription = "d"\ndomain = "positive"\n[formulas.{name}]\nname = "f"\n'
            f'kind = "definition"\nexpr = "x"\nsource = "s"\n')
    p = write_formula_file("resv", body)
    with pytest.raises(FormulaFileError) as e:
        boundcalc.formulas("resv", formulas_path=[str(p)])
    assert str(e.value) == (f"resv.toml: [{section}.{name}]: {section[:-1]} name {name!r} is reserved: {why}; "
                            "choose another name")


def test_the_api_module_is_an_attribute_before_it_is_imported():
    """``boundcalc.api`` in a fresh interpreter (test_sheet.py used it, and passed only when
    another test had imported the module first)."""
    import subprocess
    import sys
    code = ("import boundcalc, sys; assert 'boundcalc.api' not in sys.modules; "
            "print(boundcalc.api.paper('deora2023').key)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and r.stdout.strip() == "deora2023", r.stderr
