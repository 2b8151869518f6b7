"""Property (issue 21): a 'proved' or 'certified' monotonicity is never refuted by certified
ball arithmetic, on random expressions with poles and breakpoints inside the domain
(tan, 1/(x - a), floor, abs, log).

Each generated f is decided by :func:`boundcalc.services.monotone.monotone`; when it answers
increasing/decreasing with evidence proved/certified, f is evaluated in ball arithmetic
(:mod:`boundcalc.backends.mp`) at random pairs of points of the region the verdict covers —
the whole domain for 'proved', the box otherwise — and at pairs straddling each pole and
breakpoint the generator placed; the sign of f(x_1) - f(x_2) is certified, so a single
pair moving the wrong way fails the test. A 'neither' with a counterexample has its pairs
re-checked the same way. Examples per run: BOUNDCALC_MONO_EXAMPLES (default 24)."""
from __future__ import annotations

import itertools
import os
import random
from fractions import Fraction
from types import SimpleNamespace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boundcalc.backends import mp as mpb
from boundcalc.errors import BoundcalcError
from boundcalc.expr.domains import Domain
from boundcalc.expr.nodes import Num, sub, substitute
from boundcalc.expr.parser import parse
from boundcalc.services.monotone import monotone

EXAMPLES = int(os.environ.get("BOUNDCALC_MONO_EXAMPLES", "24"))
POINTS = [Fraction(k, 2) for k in range(-6, 7)] + [Fraction(1, 3), Fraction(7, 4)]
COEF = [Fraction(1), Fraction(2), Fraction(1, 2), Fraction(-1)]


def _q(v: Fraction) -> str:
    return f"({v.numerator}/{v.denominator})"


def _atom():
    """(text, points where it breaks) for one building block."""
    return st.one_of(
        st.builds(lambda c, a: (f"tan({_q(c)}*x + {_q(a)})", []), st.sampled_from(COEF), st.sampled_from(POINTS)),
        st.builds(lambda a: (f"1/(x - {_q(a)})", [a]), st.sampled_from(POINTS)),
        st.builds(lambda c: (f"floor({_q(c)}*x)", [Fraction(k) / c for k in range(-3, 4)]), st.sampled_from(COEF)),
        st.builds(lambda a: (f"abs(x - {_q(a)})", [a]), st.sampled_from(POINTS)),
        st.builds(lambda a: (f"log(x - {_q(a)})", [a]), st.sampled_from(POINTS)),
        st.builds(lambda a: (f"log(abs(x - {_q(a)}) + 1)", [a]), st.sampled_from(POINTS)),
        st.just(("x", [])), st.just(("exp(x/4)", [])),
    )


@st.composite
def functions(draw):
    terms = draw(st.lists(st.tuples(st.sampled_from(["1", "-1", "2", "1/3"]), _atom()), min_size=1, max_size=3))
    text = " + ".join(f"({c})*({t})" for c, (t, _) in terms)
    breaks = sorted({b for _, (_, bs) in terms for b in bs})
    domain = draw(st.sampled_from([Domain(), Domain(lo=Fraction(0))]))
    box = draw(st.sampled_from([None, (Fraction(-3), Fraction(3)), (Fraction(1, 4), Fraction(5, 2))]))
    if box is not None and domain.lo is not None and box[0] <= domain.lo:
        box = (Fraction(1, 4), box[1])
    return text, breaks, domain, box


def _f(node, x: Fraction):
    try:
        return mpb.evaluate(node, {"x": x}, digits=20)
    except BoundcalcError:
        return None                      # undefined (or not certifiable) here: not compared


def _pairs(breaks, lo, hi, rng) -> list[tuple[Fraction, Fraction]]:
    out = []
    for b in breaks:                     # both sides of each pole / breakpoint
        for d in (Fraction(1, 100), Fraction(1, 3)):
            if lo <= b - d and b + d <= hi:
                out.append((b - d, b + d))
    xs = sorted(Fraction(rng.randint(-1000, 1000), 97) for _ in range(24))
    xs = [x for x in xs if lo <= x <= hi]
    out += list(itertools.pairwise(xs)) + [(xs[0], xs[-1])] if len(xs) > 1 else []
    return out


def _moves(node, x1, x2) -> int | None:
    """Certified sign of f(x_2) - f(x_1) (None: a side undefined or not separated)."""
    if _f(node, x1) is None or _f(node, x2) is None:
        return None
    d = sub(substitute(node, {"x": Num(x2)}), substitute(node, {"x": Num(x1)}))
    return mpb.decide_sign(d, {})


@settings(max_examples=EXAMPLES, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(functions(), st.integers(0, 10 ** 6))
def test_proved_monotonicity_survives_certified_pairs(case, seed):
    text, breaks, domain, box = case
    node = parse(text, allow_relation=False)
    f = SimpleNamespace(id="fuzz.f", expr=node,
                        symbol_table={"x": SimpleNamespace(domain=domain, default=None)})
    try:
        r = monotone(f, "x", box={"x": (str(box[0]), str(box[1]))} if box else None)
    except BoundcalcError:
        return                           # undefined everywhere etc.: an honest refusal
    rng = random.Random(seed)
    if r.direction in ("increasing", "decreasing") and r.evidence in ("proved", "certified"):
        if r.scope == "domain" and r.evidence == "proved":
            lo = domain.lo if domain.lo is not None else Fraction(-12)
            lo = lo + Fraction(1, 1000) if domain.lo is not None else lo
            hi = Fraction(12)
        else:
            lo, hi = (Fraction(v) for v in r.box["x"]) if r.box else box
        want = 1 if r.direction == "increasing" else -1
        for x1, x2 in _pairs(breaks, lo, hi, rng):
            if not (domain.contains(x1) and domain.contains(x2)):
                continue
            s = _moves(node, x1, x2)
            assert s is None or s * want >= 0, (
                f"{text}: {r.verdict} ({r.evidence}) but f(x) moves the other way from x = {x1} to {x2}")
    if r.direction == "neither" and r.evidence == "counterexample":
        for key, want in (("increasing_pair", 1), ("decreasing_pair", -1)):
            p = r.counterexample[key]
            s = _moves(node, Fraction(p["x_1"]), Fraction(p["x_2"]))
            assert s == want, (text, key, p)
