"""A verdict on a box: the scan proposes (:mod:`.scan`), certified pairs refute, the layers
of :mod:`boundcalc.prover.decide` certify the one direction no sample contradicted; else the
verdict is sampled and names no direction. Also the functions without a derivative
(abs/min/max/floor/ceil: the structure, then pairs) and a sign shown without continuity."""
from __future__ import annotations

from fractions import Fraction

from ...backends import mp as mpb
from ...expr.nodes import Num
from ...verdicts import Direction, MonotoneEvidence, Verdict
from ..continuity import continuity
from .result import MonotoneResult
from .scan import _Ctx, _Scan
from .sign import _defined_where


def _on_box(ctx: _Ctx, on_box: dict, claimed, open_note: str) -> MonotoneResult:
    """The box: the scan (:func:`_scan`) proposes, certified pairs refute, the layers of
    :mod:`.decide` certify the one direction no sample contradicted; else the verdict is
    sampled and names no direction (``no decrease found in N samples``)."""
    var = ctx.var
    scan = ctx.scan()
    if not scan.n:
        return MonotoneResult(ctx.id, var, Direction.UNKNOWN, MonotoneEvidence.NONE, ctx.dstr,
                              "f could not be evaluated at any point of the box", ctx.shown)
    if claimed is None and scan.rises and scan.falls:
        return _both_ways(ctx, scan)
    verdict = Direction(claimed) if claimed else (Direction.DECREASING if scan.falls else Direction.INCREASING)
    dnode = ctx.dnode
    assert dnode is not None            # set by monotone() before the box is examined
    if not open_note:
        # the layers of .decide on the box (bounded: interval branch-and-bound, SMT per piece)
        from ...prover.decide import decide_relation
        rel = ">=" if verdict is Direction.INCREASING else "<="
        if dnode.symbols():
            hyp = _defined_where(ctx.fnode)
            bdoms = {n: on_box[n] for n in dnode.symbols() if n in on_box}
            bdoms.update({n: on_box[n] for r_ in hyp for n in r_.symbols() if n in on_box})
            dec = decide_relation(dnode, rel, Num(Fraction(0)), bdoms, hyp, seconds=3.0, samples=300)
            sign_shown, sign_how = dec.verdict is Verdict.PROVED, dec.text
        else:                  # a constant derivative: its sign in ball arithmetic
            sg = mpb.decide_sign(dnode, {})
            sign_shown = sg is not None and (sg >= 0 if verdict is Direction.INCREASING else sg <= 0)
            sign_how = "constant, ball arithmetic"
        if sign_shown:
            how = f"d/d{var} {rel} 0 on the whole box: {sign_how}"
            cont = continuity(ctx.fnode, var, dict(on_box))
            if cont.ok:
                return ctx.result(verdict, "certified", f"{how}; f is {cont.text()}")
            open_note = f"{how}, but {cont.text()}"
    if open_note:
        return _across_breaks(ctx, verdict, open_note)
    if scan.rises and scan.falls:
        return _both_ways(ctx, scan)
    return _sampled(ctx, scan)


def _both_ways(ctx: _Ctx, scan: _Scan) -> MonotoneResult:
    """The samples rose and fell: 'neither' when a certified pair shows each direction,
    else unknown (sampled), with the pair that was certified."""
    up, down = ctx.pair(rising=True), ctx.pair(rising=False)
    counts = (f"{scan.counts[0]} rising and {scan.counts[1]} falling neighbouring pairs among {scan.n} samples "
              f"on the box ({scan.how})")
    if up and down:
        return MonotoneResult(ctx.id, ctx.var, Direction.NEITHER, MonotoneEvidence.COUNTEREXAMPLE, ctx.dstr,
                              "f rises between one certified pair of points and falls between another "
                              f"(values compared in ball arithmetic); {counts}", ctx.shown,
                              {"increasing_pair": up, "decreasing_pair": down})
    ce = {k: v for k, v in (("increasing_pair", up), ("decreasing_pair", down)) if v} or None
    shown = (f"; a certified pair shows it is not {'decreasing' if up else 'increasing'}" if ce else "")
    return MonotoneResult(ctx.id, ctx.var, Direction.UNKNOWN, MonotoneEvidence.SAMPLED, ctx.dstr,
                          f"f rose and fell between sampled points ({counts}), but ball arithmetic did not "
                          f"certify a pair each way{shown}", ctx.shown, ce)


def _sampled(ctx: _Ctx, scan: _Scan) -> MonotoneResult:
    """Only one way (or no way) seen in the samples: 'no decrease found in N samples'
    (never a direction), with a certified pair in the way f moved where one is found."""
    if scan.falls or scan.local_down:
        word, rising = Direction.NO_INCREASE_FOUND, False
    elif scan.rises or scan.local_up:
        word, rising = Direction.NO_DECREASE_FOUND, True
    else:
        word, rising = Direction.NO_CHANGE_FOUND, None
    pair = ctx.pair(rising) if rising is not None else None
    ce = {("increasing_pair" if rising else "decreasing_pair"): pair} if pair else None
    return ctx.result(word, "sampled",
                      f"{word} in {scan.n} samples on the box ({scan.how}); not proved, not certified"
                      + (f"; f {'rises' if rising else 'falls'} between a certified pair of points, so it is "
                         f"not {'decreasing' if rising else 'increasing'}" if pair else ""), ce)


def _nonsmooth(ctx: _Ctx, doms, on_box, samples) -> MonotoneResult:
    """abs/min/max/floor/ceil: no derivative. The structure first (compositions of monotone
    functions, certified signs: floor(100/n) is non-increasing), then certified pairs of
    points on the box (both directions: 'neither'), else a sampled verdict."""
    from ..trend import trend
    var = ctx.var
    if set(ctx.fnode.symbols()) == {var}:
        scope_dom = on_box[var] if ctx.box_scope == "box" else doms[var]
        t = trend(ctx.fnode, var, {}, scope_dom)
        if t in (1, -1, 0):
            word = {1: Direction.INCREASING, -1: Direction.DECREASING, 0: Direction.CONSTANT}[t]
            non = {1: "non-decreasing", -1: "non-increasing", 0: "constant"}[t]
            detail = (f"{non} in {var} (non-strict: floor/ceil/min/max/abs parts may be flat), read from "
                      "the structure: monotone functions (floor, ceil, exp, log, sqrt, ...) of monotone "
                      "arguments, signs certified in ball arithmetic; no derivative needed")
            if ctx.box_scope == "box":
                return MonotoneResult(ctx.id, var, word, MonotoneEvidence.CERTIFIED, "(not used)", detail, ctx.shown,
                                      scope="box")
            return MonotoneResult(ctx.id, var, word, MonotoneEvidence.PROVED, "(not used)",
                                  detail + f" — for every {var} in its domain")
    scan = ctx.scan()
    if not scan.n:
        return MonotoneResult(ctx.id, var, Direction.UNKNOWN, MonotoneEvidence.NONE, ctx.dstr,
                              "f could not be evaluated at any point of the box", ctx.shown)
    if scan.rises and scan.falls:
        return _both_ways(ctx, scan)
    return _sampled(ctx, scan)


def _across_breaks(ctx: _Ctx, verdict: Direction, open_note: str) -> MonotoneResult:
    """The derivative has one sign where f is defined, but continuity on the region is not
    established: look for a certified pair of points (across a pole or jump) that contradicts
    the direction; with a pair in the direction it is 'neither', else only sampled."""
    rising = verdict is Direction.INCREASING
    contra = ctx.pair(rising=not rising)
    local = ctx.pair(rising=rising)
    if contra:
        ce = {("increasing_pair" if rising else "decreasing_pair"): local,
              ("decreasing_pair" if rising else "increasing_pair"): contra}
        ce = {k: v for k, v in ce.items() if v}
        return MonotoneResult(ctx.id, ctx.var, Direction.NEITHER if local else Direction.UNKNOWN,
                              MonotoneEvidence.COUNTEREXAMPLE if local else MonotoneEvidence.NONE, ctx.dstr,
                              f"{open_note}; f {'falls' if rising else 'rises'} across it between a certified "
                              "pair of points" + (f", and {'rises' if rising else 'falls'} between another" if local else ""),
                              ctx.shown, ce)
    scan = ctx.scan()
    word = Direction.NO_DECREASE_FOUND if rising else Direction.NO_INCREASE_FOUND
    return ctx.result(word, "sampled",
                      f"{open_note}; {word} in {scan.n} samples on the box ({scan.how}): no certified pair "
                      f"contradicts {verdict} (sampled, NOT a proof)")

