"""The hypotheses a check runs under: those of the results it covers (``[[hypotheses]]``
of the formula file, quoted from the paper) and the check's own ``assume`` entries
(each with a quoted ``reason``; one without is listed as such in the report).

Every counterexample, witness pair and vacuity point is searched inside them (they are
the ``extra`` relations of the shared decision procedure) and re-verified here,
independently, in ball arithmetic: :func:`status_at` says for each hypothesis whether
it holds at the point and by what margin. A point where a hypothesis fails makes a
finding "outside the hypotheses", never an error of the bound.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...expr.nodes import Node, Num, Ref, Rel, Sym, sub, substitute
from ...expr.parser import parse
from ...verdicts import Verdict

# the hypotheses that share no symbol with a check's expressions are left out (they
# constrain nothing the check evaluates); a hypothesis on a hidden constant of the
# paper's (e.g. the constant of an Omega~) is pinned at that constant's default


@dataclass
class Hyp:
    rel: Rel              # resolved, hidden constants pinned at their defaults
    text: str             # as written in the formula file
    origin: str           # "Prop. 3" (inherited) or "added by the check"
    quote: str            # the paper's words (inherited) or the check's reason ("" when none)
    source: str = ""
    pinned: str = ""      # "C_w = 1" when a hidden constant was pinned

    @property
    def where(self) -> str:
        """'Thm. 5' or 'Thm. 5, with C_w = 1' (a hidden constant pinned)."""
        return self.origin + (f", with {self.pinned}" if self.pinned else "")

    def to_json(self) -> dict:
        out = {"hypothesis": self.text, "from": self.origin}
        if self.quote:
            out["quote" if self.origin != "added by the check" else "reason"] = self.quote
        if self.source:
            out["source"] = self.source
        if self.pinned:
            out["with"] = self.pinned
        return out


def for_check(reg, paper, t: dict, symbols: set[str] | None = None) -> list[Hyp]:
    """The hypotheses of the results ``t`` covers (those sharing a symbol with
    ``symbols``, all when None) followed by the check's own assumptions."""
    from .common import hidden_constants, pin
    covers = set(t.get("covers", ()))
    out: list[Hyp] = []
    for h in paper.hypotheses:
        if h.result not in covers:
            continue
        node = (reg.resolved(f"{h.expr.paper or paper.key}.{h.expr.name}") if isinstance(h.expr, Ref)
                else reg.resolve(h.expr, paper.key))      # a requirement named, or a relation
        if not isinstance(node, Rel):
            continue
        consts = hidden_constants(reg, paper, node)
        pinned = ", ".join(f"{k} = {_num(v)}" for k, v in consts.items())
        node = Rel(node.op, pin(node.lhs, consts), pin(node.rhs, consts))
        if symbols is not None and not (node.symbols() & symbols):
            continue
        same = next((x for x in out if x.rel == node), None)
        if same is not None:                 # one relation stated by several results
            if h.result not in same.origin.split(", "):
                same.origin += f", {h.result}"
            continue
        out.append(Hyp(node, h.text, h.result, h.quote, h.source, pinned))
    if symbols is not None:
        out = _project(reg, paper, out, symbols)
    for a in t.get("assume", []) or []:
        text, reason = (a["expr"], a["reason"]) if isinstance(a, dict) else (a, "")
        r = parse(text, where="assume")
        uses = set(t.get("uses", []))
        r = r.map(lambda n: Ref(None, n.name) if isinstance(n, Sym) and n.name in uses else None)
        out.append(Hyp(reg.resolve(r, paper.key), text, "added by the check", reason))
    return out


def _project(reg, paper, hyps: list[Hyp], symbols: set[str]) -> list[Hyp]:
    """Leave out a hypothesis 'f(s) >= rest' (or 'rest <= f(s)') whose symbol s occurs
    nowhere else (not in the check, not in another hypothesis), ranges up to infinity, and
    enters only through f(s) = s, sqrt(s), s**k (k > 0) or log(s): some s satisfies it
    whatever the other values (e.g. "H large enough"), so it constrains nothing the check
    evaluates. Sound: the check's statement is about the other symbols only."""
    out = []
    for i, h in enumerate(hyps):
        big = {">=": h.rel.lhs, ">": h.rel.lhs, "<=": h.rel.rhs, "<": h.rel.rhs}.get(h.rel.op)
        rest = {">=": h.rel.rhs, ">": h.rel.rhs, "<=": h.rel.lhs, "<": h.rel.lhs}.get(h.rel.op)
        if big is None or rest is None:           # == (a relation with no larger side)
            out.append(h)
            continue
        s_ = _grows_in(big)
        elsewhere = symbols.union(*(x.rel.symbols() for j, x in enumerate(hyps) if j != i))
        table = reg.symbol_table(h.rel, paper.key)
        if (s_ is not None and s_ not in elsewhere and s_ not in rest.symbols() and s_ in table
                and table[s_].domain.hi is None):
            continue
        out.append(h)
    return out


def _grows_in(node) -> str | None:
    """s when ``node`` is s, sqrt(s), s**k with k > 0, or log(s) (tends to +oo with s)."""
    from ...expr.nodes import Func, Pow, Sym as S
    if isinstance(node, S):
        return node.name
    if isinstance(node, Func) and node.name in ("sqrt", "log") and len(node.args) == 1 and isinstance(node.args[0], S):
        return node.args[0].name
    if isinstance(node, Pow) and isinstance(node.base, S) and isinstance(node.exp, Num) and node.exp.value > 0:
        return node.base.name
    return None


def relations(hyps: list[Hyp]) -> list[Rel]:
    return [h.rel for h in hyps]


def add_domains(reg, paper, doms: dict, hyps: list[Hyp], skip=()) -> dict:
    """``doms`` with the declared domains of the hypotheses' symbols added (a symbol
    the check does not mention would otherwise default to nonnegative)."""
    from .common import domains
    for h in hyps:
        for n, d in domains(reg, paper, h.rel).items():
            if n not in skip:
                doms.setdefault(n, d)
    return doms


def status_at(hyps: list[Hyp], env: dict) -> list[dict]:
    """Each hypothesis at the point ``env`` (symbol -> number or exact decimal string),
    decided in ball arithmetic: ``holds`` True/False/None (undecided or not all of its
    symbols given), and the values of both sides."""
    import mpmath
    from ...backends import mp as mpb
    pt = {k: _frac(v) for k, v in env.items() if _frac(v) is not None}
    out = []
    for h in hyps:
        row: dict[str, object] = {"hypothesis": h.text, "from": h.where}
        if not h.rel.symbols() <= pt.keys():
            row["holds"] = None
            row["why"] = "not all of its symbols are fixed at the point: " + ", ".join(
                sorted(h.rel.symbols() - pt.keys()))
            out.append(row)
            continue
        s = mpb.decide_sign(sub(h.rel.lhs, h.rel.rhs), pt)
        row["holds"] = None if s is None else {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0,
                                               "==": s == 0}[h.rel.op]
        try:
            row["lhs"] = mpmath.nstr(mpb.evaluate(h.rel.lhs, pt, digits=12), 8)
            row["rhs"] = mpmath.nstr(mpb.evaluate(h.rel.rhs, pt, digits=12), 8)
        except Exception:          # a side too close to 0 to certify 12 digits: the sign decided it
            pass
        out.append(row)
    return out


def describe(rows: list[dict]) -> str:
    """'X holds (a <= b); Y fails (c > d)' for a finding's message."""
    def one(r):
        v = f" ({r['lhs']} vs {r['rhs']})" if "lhs" in r and "rhs" in r else ""
        state = {True: "holds", False: "FAILS", None: "undecided"}[r["holds"]]
        return f"{r['hypothesis']} [{r['from']}] {state}{v}"
    return "; ".join(one(r) for r in rows)


def failing(rows: list[dict]) -> list[dict]:
    return [r for r in rows if r["holds"] is False]


def pin_point(node: Node, env: dict) -> Node:
    return substitute(node, {k: Num(_frac(v)) for k, v in env.items() if _frac(v) is not None})


def _frac(v):
    if isinstance(v, Fraction):
        return v
    if isinstance(v, int):
        return Fraction(v)
    try:
        return Fraction(str(v))          # "1/100", "0.25", "3"
    except (ValueError, ZeroDivisionError):
        pass
    try:
        from ...expr.parser import parse_number
        return Fraction(parse_number(str(v)))
    except Exception:
        return None


def _num(v: Fraction) -> str:
    return str(v.numerator) if v.denominator == 1 else f"{float(v):g}"


def added(results) -> list[dict]:
    """Every assumption a check adds to the hypotheses of the results it covers, with its
    reason ("" when the check gives none), for the report."""
    out = []
    for r in results:
        for h in r.evidence.get("hypotheses", []) if isinstance(r.evidence, dict) else []:
            if h.get("from") == "added by the check":
                out.append({"paper": r.paper, "check": r.check, "assumption": h["hypothesis"],
                            "reason": h.get("reason", ""), "grade": r.severity})
    return out


def decide_within(a, rel: str, b, doms: dict, extra: list, inherited: int, *, statement: str, **kw):
    """The shared decision of ``a rel b`` where the hypotheses hold, ``extra`` being the
    inherited hypotheses (its first ``inherited`` relations) then the check's own
    assumptions. A proof under the check's own assumptions alone holds a fortiori under
    all, and is tried first (inherited hypotheses make the problem larger); anything
    else is decided under all of them, so that a counterexample satisfies every one."""
    from .common import decide
    if inherited:
        own = list(extra[inherited:])
        used = a.symbols() | b.symbols() | set().union(*(r.symbols() for r in own))
        r = decide(a, rel, b, {n: d for n, d in doms.items() if n in used}, own, statement=statement, **kw)
        if r.verdict is Verdict.PROVED:
            return r
    return decide(a, rel, b, doms, extra, statement=statement, **kw)


def inherited_count(hyps: list[Hyp]) -> int:
    return sum(h.origin != "added by the check" for h in hyps)
