"""``compare``, ``restatement`` and ``monotone`` checks: a stated relation, two
statements of one result, a stated monotonicity — each decided by the shared decision
procedure, whose verdict names the layer that produced it."""
from __future__ import annotations

from ...expr.nodes import Rel, sub, substitute
from .common import Finding, assumptions, claim, decide, domains, expr, formula, formula_id, show, subst


def compare(reg, paper, t, f: Finding):
    uses = tuple(t.get("uses", []))
    a, b = claim("lhs", expr(reg, paper, t["lhs"], uses)), claim("rhs", expr(reg, paper, t["rhs"], uses))
    r = decide(a, t["rel"], b, domains(reg, paper, Rel("==", a, b)), assumptions(t.get("assume")),
               statement=f"{t['lhs']} {t['rel']} {t['rhs']}")
    f.evidence = {"verdict": r.method, "counterexample": r.counterexample}
    if r.verdict == "proved":
        f.message = f"holds [{r.method}]"
    elif r.verdict == "disproved":
        f.grade("error", "false as printed",
                f"does not hold: {t['lhs']} {t['rel']} {t['rhs']} fails at a certified point [{r.method}]")
    else:
        f.grade("warning", "undecided", f"undecided: no proof, no counterexample [{r.method}]")


def restatement(reg, paper, t, f: Finding):
    a = claim("a", formula(reg, paper, t["a"]))
    b = claim("b", substitute(formula(reg, paper, t["b"]), subst(reg, paper, t.get("substitute"))))
    if isinstance(a, Rel) and isinstance(b, Rel):
        a, b = sub(a.lhs, a.rhs), sub(b.lhs, b.rhs)
    f.evidence = {"a": show(a), "b": show(b)}
    r = decide(a, "==", b, domains(reg, paper, Rel("==", a, b)), statement=f"{t['a']} == {t['b']}")
    f.evidence["verdict"] = r.method
    if r.verdict == "proved":
        f.message = f"the two statements are identical [{r.method}]"
    elif r.verdict == "disproved":
        f.evidence["counterexample"] = r.counterexample
        f.grade("error", "false as printed",
                f"the restatements differ: {t['a']} and {t['b']} give different values [{r.method}]")
    else:
        f.grade("warning", "undecided", f"undecided: could not decide whether the two statements agree "
                                        f"[{r.method}]")


def monotone(reg, paper, t, f: Finding):
    from ..monotone import monotone as run
    from ...api import Formula
    fid = formula_id(paper, t["formula"])
    box = {k: (str(v[0]), str(v[1])) for k, v in (t.get("box") or {}).items()}
    r = run(Formula(reg.spec(fid), reg), t["var"], box=box, fixed=t.get("fixed"))
    want = {"nondecreasing": "increasing", "nonincreasing": "decreasing"}.get(t["claim"], t["claim"])
    f.evidence = {"verdict": r.verdict, "evidence": r.evidence, "derivative": r.derivative, "box": r.box,
                  "counterexample": r.counterexample}
    if getattr(r, "layer", None):
        f.evidence["layer"] = r.layer
    if r.verdict == want:
        if r.evidence == "sampled":
            f.grade("note", "sampled only", f"stated {want} in {t['var']}: only sampled (no proof, no certificate)")
        else:
            f.message = f"stated {want} in {t['var']}: {r.evidence}"
    elif r.verdict in ("neither", "increasing", "decreasing", "constant") and r.evidence in (
            "proved", "certified", "counterexample"):
        f.grade("error", "false as printed", f"stated {want} in {t['var']}, but it is {r.verdict} ({r.evidence})")
    elif (r.counterexample or {}).get({"decreasing": "increasing_pair", "increasing": "decreasing_pair"}.get(want, "")):
        pair = r.counterexample[{"decreasing": "increasing_pair", "increasing": "decreasing_pair"}[want]]
        v = t["var"]
        f.grade("error", "false as printed",
                f"stated {want} in {v}, but f {'rises' if want == 'decreasing' else 'falls'} from "
                f"{v} = {pair[v + '_1']} to {pair[v + '_2']} (f: {pair['f_1']} -> {pair['f_2']}, compared in "
                f"ball arithmetic); elsewhere {r.verdict} ({r.evidence})")
    else:
        f.grade("warning", "undecided", f"stated {want} in {t['var']}: not confirmed ({r.verdict}, {r.evidence})")
