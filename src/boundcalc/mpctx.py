"""mpmath computations at a chosen precision without touching mpmath's process-wide one.

``mpmath.workdps``/``workprec`` change the global ``mp`` context for the duration of a
block; two threads doing that interleave their save/restore and one silently computes at
the other's precision. :func:`context` hands each thread its own ``MPContext`` instead.
"""
from __future__ import annotations

import threading

_LOCAL = threading.local()


def context(*, dps: int | None = None, prec: int | None = None):
    """This thread's private mpmath context, set to ``dps`` digits or ``prec`` bits."""
    ctx = getattr(_LOCAL, "ctx", None)
    if ctx is None:
        from .mpmath_import import mpmath
        ctx = _LOCAL.ctx = mpmath.MPContext()
    if prec is not None:
        ctx.prec = prec
    elif dps is not None:
        ctx.dps = dps
    return ctx


def export(x):
    """A value computed in a private context as an ordinary ``mpmath.mpf``, exactly (the
    private context's mpf is a class of its own)."""
    from .mpmath_import import mpmath
    return mpmath.mp.make_mpf(x._mpf_)
