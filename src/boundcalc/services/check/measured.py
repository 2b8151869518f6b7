"""``measured`` checks: a closed form the paper states (a coefficient, a norm, a margin
after a phase, a Jacobian entry) against what the NumPy engine measures on the paper's
data model, within a stated tolerance, at stated sizes and seed.

The check names a measurement of :mod:`boundcalc.engine.measurements`; ``expected`` is
an expression over the sizes (and formulas listed in ``uses``); it passes when
``|measured - expected| <= atol + tol |expected|`` (elementwise for an array). A
mismatch is an error: the closed form is false on the paper's own model, and the finding
carries the measurement as evidence with the Python call that reproduces it.
"""
from __future__ import annotations

from fractions import Fraction

from ...errors import BoundcalcError
from ...expr.parser import parse_number
from ...registry.checks import Measured
from ...verdicts import Grade
from .common import Finding, claim, expr


def sizes_of(t: Measured) -> dict:
    out = {}
    for k, v in t.at.items():
        q = Fraction(parse_number(str(v), where=f"measured check size {k}"))
        out[k] = int(q) if q.denominator == 1 else float(q)
    return out


def api_call(t: Measured) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in sizes_of(t).items())
    return (f"from boundcalc.engine.measurements import measure; "
            f"print(measure({t.measurement!r}, {args}, seed={int(t.seed)}))")


def run(reg, paper, t: Measured, f: Finding):
    import numpy as np

    from ...backends import mp as mpb
    from ...engine.measurements import MEASUREMENTS, measure
    name = t.measurement
    if name not in MEASUREMENTS:
        raise BoundcalcError(f"unknown measurement {name!r}")
    sizes = sizes_of(t)
    seed = int(t.seed)
    uses = t.uses
    node = claim("expected", expr(reg, paper, t.expected, uses))
    missing = node.symbols() - set(sizes)
    if missing:
        raise BoundcalcError(f"expected {t.expected!r} needs sizes {', '.join(sorted(missing))} in 'at'")
    env = {k: Fraction(parse_number(str(v))) for k, v in t.at.items()}
    expected = float(mpb.evaluate(node, {k: env[k] for k in node.symbols()}, digits=20))
    measured = np.asarray(measure(name, seed=seed, **sizes), dtype=float)
    tol = float(parse_number(str(t.tol)))
    atol = float(parse_number(str(t.atol)))
    err = np.abs(measured - expected)
    ok = bool(np.all(err <= atol + tol * abs(expected)))
    shown = (f"{float(measured):.6g}" if measured.ndim == 0 else np.array2string(measured, precision=6))
    rel = float(np.max(err)) / abs(expected) if expected else None
    f.evidence = {"measurement": name, "what": MEASUREMENTS[name].description, "at": sizes, "seed": seed,
                  "measured": shown, "expected": f"{expected:.6g}", "expected_expr": t.expected,
                  "abs_error": f"{float(np.max(err)):.3g}", "tol": t.tol,
                  "atol": t.atol}
    if expected and measured.ndim == 0:
        f.evidence["measured/expected"] = f"{float(measured) / expected:.6g}"
    if ok:
        f.message = (f"the engine measures {shown}, the stated {t.expected} = {expected:.6g} "
                     f"(within tol {f.evidence['tol']}, atol {f.evidence['atol']})")
    else:
        f.grade(Grade.ERROR, "false as printed",
                f"the engine measures {shown} on the paper's data model where the paper's statement gives "
                + (f"{t.expected} = {expected:.6g}" if node.symbols() else f"{expected:.6g}")
                + f": off by {float(np.max(err)):.3g}"
                + (f" (rel. {rel:.3g})" if rel is not None else "")
                + f", beyond tol {f.evidence['tol']}, atol {f.evidence['atol']}")
