"""``identity`` checks: a printed derivative against high-precision central differences."""
from __future__ import annotations

from fractions import Fraction

from ...errors import BoundcalcError
from ...registry.checks import Identity
from ...verdicts import Grade
from .common import Finding, claim, expr, values


def run(reg, paper, t: Identity, f: Finding):
    from ...backends import mp as mpb
    from ...mpmath_import import mpmath
    uses = t.uses
    fn = claim("function", expr(reg, paper, t.function, uses))
    dv = claim("derivative", expr(reg, paper, t.derivative, uses))
    env = values(reg, paper, t.at)
    var = t.wrt
    if var not in env:
        raise BoundcalcError(f"identity check: 'at' has no value for {var!r}")
    tol = mpmath.mpf(str(t.tol))
    # the step stays inside the continuity interval of the point (a difference across a pole
    # of tan or 1/g, or a jump of floor, measures nothing): 1e-15, or 1e-12 of the certified
    # radius r when r < 1e-3 (truncation ~ (h/r)^2 = 1e-24 relative)
    from ..continuity import continuity_radius
    r = continuity_radius(fn, var, env)
    if r is None:
        f.evidence = {"at": {k: str(x) for k, x in env.items()}}
        f.grade(Grade.WARNING, "undecided", f"no finite difference at {var} = {env[var]}: the point is at or "
                                        "too close to a pole, jump or end of definedness of the function")
        return
    h = min(Fraction(1, 10 ** 15), r / 10 ** 12)
    extra = max(0, len(str(h.denominator)) - 16)
    with mpmath.workdps(60 + extra):
        def g(x):
            e = dict(env)
            e[var] = x
            return mpb.evaluate(fn, e, digits=50 + extra)
        x0 = mpb._mpf(env[var])
        # central difference on 50-digit values: truncation ~1e-24 relative, rounding ~1e-35
        fd = mpmath.diff(g, x0, h=mpmath.mpf(h.numerator) / h.denominator)
        printed = mpb.evaluate(dv, env, digits=50)
        rel = abs(fd - printed) / max(abs(fd), mpmath.mpf(10) ** -30)
    f.evidence = {"finite_difference": mpmath.nstr(fd, 20), "printed": mpmath.nstr(printed, 20),
                  "relative_error": mpmath.nstr(rel, 5), "at": {k: str(x) for k, x in env.items()}}
    if rel > tol:
        f.grade(Grade.ERROR, "false as printed", f"the printed derivative d/d{var} does not match finite "
                                             f"differences (rel. error {mpmath.nstr(rel, 3)})")
    else:
        f.message = (f"the printed derivative d/d{var} matches finite differences "
                     f"(rel. error {mpmath.nstr(rel, 3)})")
