"""`boundcalc check`: run every check a formula file declares and report findings.

The checks are data (``[[checks]]`` in a formula file, kinds in formulas/README.md);
this package only knows how to run each kind, one module per kind:

- derivation  — re-derive a statement from its premise by substitution; equal / valid
                looser bound / not implied; hidden constants existential (:mod:`.derivation`);
- order       — a stated O / Omega / Theta against the exact growth, variable by
                variable, under each declared coupling of the variables (:mod:`.order`);
- monotone, compare, restatement — decided by the shared decision procedure (:mod:`.relations`);
- vacuity     — a bound at the paper's own settings against an exact trivial value;
                an invalid (e.g. negative) bound is an error of the bound (:mod:`.vacuity`);
- identity    — a printed derivative against high-precision finite differences;
- measured    — a stated closed form against the NumPy engine on the paper's data model;
- transcription — a formula's printed LaTeX, parsed, against its expression (:mod:`.transcription`).

Grades: error (false as printed), warning (imprecise: polylog factor, looser or larger
constant, a vacuous bound; or undecided, said so), note (rests on a reading of garbled
text or on comparing versions, or confirmed only by sampling). Every finding carries the
command that re-runs it (with every option it needs, e.g. ``--formulas FILE`` for a user
paper, ``--strength``). Coverage: which of the paper's numbered results each check
audits (:func:`coverage`), and which displayed proof steps they check (:mod:`.steps`).

``--strength`` (:mod:`.strength`) re-runs every pass on mutants of its claim; a pass that
kills none is graded "cannot fail", a check marked ``identity = true`` is graded
"identity"; neither counts as a pass. ``check`` exits 1 on a finding of the ``--fail-on``
grade (:data:`FAIL_ON`; default: an error).

Determinism: a check's finding does not depend on the other checks run, their order, or
the machine's load: seeds are fixed per decision (never drawn from a global stream), the
check layer's own searches are budgeted in counts (least-constant candidates, the points
moved onto the hypotheses, :func:`.hypotheses.search_inside`; the boxes of a monotone
check certified on its box, :func:`.relations._certified_on_box`), and the only wall-clock
figure is the report's top-level ``seconds`` (``Report.to_json(timings=False)`` leaves it
out; no finding carries one). The decision procedure (:mod:`boundcalc.prover`) budgets every
layer in work (:mod:`boundcalc.prover.budget`: z3's resource count, SymPy's calls, boxes,
points); each check starts from emptied SymPy caches (:func:`~boundcalc.prover.budget.fresh_state`).
The clocks left are safety nets (CPU time, z3's included, far beyond the budgets): a check
during which one fired is graded "undecided (safety net)" — its result would depend on the
load — and the tests fail on any in the four papers. ``bench/determinism.py --load 2``
compares reports idle and beside two busy processes. What remains: SymPy's call counts vary
by a few per cent between processes (it iterates over some sets in memory order), so a
SymPy computation within that margin of its budget could still go either way.
"""
from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...errors import BoundcalcError
from ...parallel import closing_pools, worker_count
from ...prover import budget as _budget
from ...prover.budget import Timeout
from ...registry import get_registry
from ...registry.checks import KINDS
from ...verdicts import FAIL_LEVELS, Grade
from . import derivation, encoding, hypotheses, identity, measured, order, premises, relations, vacuity
from . import strength as _strength
from . import transcription as transcription_mod
from .common import _CERTIFICATES, _CLAIM_HOOK, _SECONDS_CAP, GRADES, SEVERITIES, Finding
from .steps import step_coverage

__all__ = [
    "RUNNERS",
    "SEVERITIES",
    "UNDECIDED_REASONS",
    "CoverageReport",
    "Finding",
    "Report",
    "coverage",
    "coverage_report",
    "run_checks",
    "undecided_why",
]

# kind -> its runner, which takes the kind's typed spec (boundcalc.registry.checks.KINDS)
RUNNERS: dict[str, Callable[..., None]] = {"derivation": derivation.run, "order": order.run, "monotone": relations.monotone,
           "compare": relations.compare, "restatement": relations.restatement, "vacuity": vacuity.run,
           "identity": identity.run, "measured": measured.run, "transcription": transcription_mod.run}
assert RUNNERS.keys() == KINDS.keys(), "a check kind without a runner, or a runner without a kind"
# ``check --fail-on LEVEL`` (or a file's ``[paper] fail_on``): the grades that make the
# command exit 1; ``undecided`` adds the findings of :data:`UNDECIDED_REASONS` to the errors
FAIL_ON = {"error": (Grade.ERROR,), "warning": (Grade.ERROR, Grade.WARNING, Grade.CANNOT_FAIL, Grade.CONDITIONAL),
           "undecided": (Grade.ERROR,), "never": ()}
assert tuple(FAIL_ON) == FAIL_LEVELS
# a check left undecided: neither shown to hold nor shown false (a warning "undecided", or
# a note that rests on sampling or on the default box only). Every other finding is a
# decided one and does not trip ``--fail-on undecided``: the expected vacuity warnings
# ("vacuous"), imprecisions ("polylog factor", "looser constant", "large hidden constant"),
# notes "outside the hypotheses" / readings; an error fails at every level but never.
UNDECIDED_REASONS = ("undecided", "sampled only", "default box only")
_LAYER_GAVE_UP = re.compile(r"unknown \((budget|none)(?:, ([^)\]]+))?")


def undecided_why(f: Finding) -> str:
    """Why a check was left undecided, as counted in the summary line: the decision layer
    that gave up (``budget`` ran out, or ``none`` decided, with its reason), the check not
    run (time budget, SymPy, an internal error), sampling / the default box only, or the
    check's own test (its kind)."""
    if f.reason in ("sampled only", "default box only"):
        return f.reason
    text = f"{f.message} {f.evidence.get('verdict', '') if isinstance(f.evidence, dict) else ''}"
    if f.message.startswith("check could not be run"):
        return ("not run: time budget" if "time budget" in f.message else
                "not run: internal error" if "internal error" in f.message else "not run: SymPy gave up")
    m = _LAYER_GAVE_UP.search(text)
    if m:
        head = "a time budget ran out" if m.group(1) == "budget" else "no layer decided"
        return head + (f" ({m.group(2).split(':')[0].strip()})" if m.group(2) else "")
    return f"the {f.kind} check's own test"


@dataclass
class Report:
    papers: list[str]
    results: list[Finding]
    seconds: float
    coverage: dict | None = None
    options: str = ""          # what a re-run of the whole report needs (``--formulas FILE`` ...)
    strength: bool = False     # run with --strength (mutation testing of the passes)
    steps: dict | None = None  # step coverage per paper (:mod:`.steps`)
    fail_on: dict | None = None   # paper -> its file's ``[paper] fail_on`` (where it sets one)
    # with certificates=True: (paper, check) -> the certificates of its decided relations
    # ({"statement", "verdict", "method", "certificate"}), not in the report's JSON
    certificates: dict | None = None

    @property
    def findings(self) -> list[Finding]:
        return [r for r in self.results if r.severity is not Grade.OK]

    def counts(self, paper: str | None = None) -> dict:
        rs = [r for r in self.results if paper is None or r.paper == paper]
        out: dict[str, int] = {s: sum(r.severity == s for r in rs) for s in GRADES}
        out["undecided"] = sum(r.reason == "undecided" for r in rs)    # a part of the warnings
        return out

    def counts_by_kind(self) -> dict:
        """Findings as roots (explained by no other finding) and consequences (attached to a
        root), and the two kinds that are not errors of the paper's statements."""
        fs = [f for f in self.findings if f.severity in SEVERITIES]    # not identities, conditional passes
        return {"root": sum(not f.root for f in fs), "consequence": sum(bool(f.root) for f in fs),
                "outside the hypotheses": sum(f.reason == "outside the hypotheses" for f in fs),
                "approximation": sum(f.reason == "approximation" for f in fs)}

    def fails(self, level: str | None = "error") -> bool:
        """Whether ``check --fail-on level`` exits 1: a finding of a grade in FAIL_ON[level]
        (``undecided``: also a check left undecided, :data:`UNDECIDED_REASONS`). ``None``:
        each paper's own ``[paper] fail_on``, ``error`` where its file sets none."""
        def at(r: Finding) -> str:
            return level or (self.fail_on or {}).get(r.paper) or "error"
        return any(r.severity in FAIL_ON[at(r)] or (at(r) == "undecided" and r.reason in UNDECIDED_REASONS)
                   for r in self.results)

    def undecided_counts(self) -> dict:
        """The checks left undecided (:data:`UNDECIDED_REASONS`) by why (:func:`undecided_why`),
        most first."""
        out: dict[str, int] = {}
        for r in self.results:
            if r.reason in UNDECIDED_REASONS:
                w = undecided_why(r)
                out[w] = out.get(w, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def strength_counts(self) -> dict | None:
        """--strength: passes mutated, mutants, caught (of the paper's side), passes that
        catch a mutant of the paper's side, passes that cannot fail."""
        st = [r.strength for r in self.results if r.strength is not None]
        if not self.strength:
            return None
        rs = [r for r in self.results if r.strength is not None]
        return {"mutated": len(st), "mutants": sum(s["mutants"] for s in st),
                "killed": sum(s["killed"] for s in st), "paper_killed": sum(s["paper_killed"] for s in st),
                "passes_killing_some": sum(s["paper_killed"] > 0 for s in st),
                "cannot_fail": sum(r.severity is Grade.CANNOT_FAIL for r in rs)}

    def added_assumptions(self) -> list[dict]:
        """The assumptions the checks add beyond the quoted hypotheses of the results they
        cover ("added by us": ``assume`` entries, numbers substituted for symbols;
        :func:`.premises.added_by_us`), with whether the check's pass needs each."""
        return [{"paper": r.paper, "check": r.check, **a, "grade": r.severity} for r in self.results for a in r.added]

    def to_json(self, timings: bool = True) -> dict:
        """The report as JSON. ``timings=False`` leaves out the wall-clock seconds (the only
        part that differs between two runs of the same command). Printed by
        :mod:`boundcalc.reports.printers.json`."""
        from ... import formats
        return formats.call("json", self, timings=timings)

    def to_frame(self, passed: bool = True):
        """One row per check (``passed=False``: findings only), a pandas DataFrame."""
        from ... import formats
        return formats.call("frame", self, passed=passed)

    def to_markdown(self) -> str:
        """The report as Markdown: counts, findings with evidence (typeset in the paper's
        notation) and re-run commands, coverage (:mod:`boundcalc.reports.printers.markdown`)."""
        from ... import formats
        return formats.call("markdown", self)

    def _repr_html_(self) -> str:
        from ... import formats
        return formats.call("html", self)


def run_checks(paper: str | None = None, *, formulas_path=None, only=None, strength: bool = False,
               jobs: int = 1, transcription: bool = False, strict: bool = False,
               certificates: bool = False) -> Report:
    """Run the declared checks of one paper (all papers if None). ``only``: check ids
    (``ID`` or ``paper.ID``) to run, the others skipped. ``strength``: re-run every pass on
    mutants of its claim (:mod:`.strength`); a pass that kills none is graded "cannot fail".
    ``jobs``: worker processes (-1: one per core); each check is decided on its own, with
    budgets counted in work (prover/budget.py), so the report is the same for any ``jobs``.
    ``transcription``: also compare every formula's printed LaTeX with its expression (one
    ``transcription`` check per formula that has both, id ``latex:NAME``; such an id may
    also be named in ``only`` without it). ``strict``: a pass that needs an assumption added
    by us (graded "conditional", :mod:`.premises`) is graded a warning instead.
    ``certificates``: the report's ``certificates`` holds, per check, the certificate of each
    relation its evidence decided (re-checked by :mod:`boundcalc.recheck`; not the re-runs
    of the premises or --strength mutants)."""
    reg = get_registry(formulas_path)
    keys = [paper] if paper else list(reg.papers)
    for k in keys:
        reg.paper(k)                                   # unknown paper: a clear error
    wanted = _only(reg, keys, only)
    t = time.perf_counter()
    latex = transcription or any(c.startswith(transcription_mod.PREFIX) for _, c in wanted or ())
    todo = [(k, c.id) for k in keys for c in _all_checks(reg.paper(k), latex)
            if wanted is None or (k, c.id) in wanted]
    extra = ((" --strength" if strength else "") + (" --transcription" if transcription else "")
             + (" --strict" if strict else ""))
    options = {k: rerun_options(reg, k, formulas_path) + extra for k in keys}
    pairs = _run_todo(reg, todo, options, strength, formulas_path, jobs, certificates)
    out = [f for f, _ in pairs]
    certs = {(f.paper, f.check): c for f, c in pairs if c} if certificates else None
    if strict:                       # a pass that needs an assumption added by us is a warning
        for f in out:
            if f.severity is Grade.CONDITIONAL:
                f.grade(Grade.WARNING, "added assumption", f"{f.message} — a warning under --strict")
    _attach_roots(reg, out)
    cov = {k: coverage(k, formulas_path=formulas_path, results=out) for k in keys} if wanted is None else None
    steps = {k: step_coverage(reg.paper(k), out) for k in keys} if wanted is None else None
    opts = "".join(dict.fromkeys(rerun_options(reg, k, formulas_path) for k in keys))
    return Report(keys, out, time.perf_counter() - t, cov, opts + extra, strength, steps,
                  {k: reg.paper(k).fail_on for k in keys if reg.paper(k).fail_on}, certs)


def _run_todo(reg, todo, options, strength, formulas_path, jobs,
              certificates: bool = False) -> list[tuple[Finding, list | None]]:
    """The findings of ``todo`` in its order, each with its certificates (``certificates``,
    else None), in this process or in ``jobs`` worker processes (interleaved chunks, so
    that slow checks spread over the workers)."""
    n = worker_count(jobs, "jobs")
    if n == 1 or len(todo) < 2:
        return _run_chunk(formulas_path, todo, options, strength, certificates, reg)
    from joblib import Parallel, delayed
    chunks = [todo[i::4 * n] for i in range(min(len(todo), 4 * n))]
    paths = list(formulas_path) if formulas_path else None
    with closing_pools():
        parts = Parallel(n_jobs=n, backend="loky")(delayed(_run_chunk)(paths, c, options, strength, certificates)
                                                   for c in chunks)
    found = {(f.paper, f.check): (f, c) for part in parts for f, c in part}
    return [found[t] for t in todo]


def _run_chunk(formulas_path, chunk, options, strength, certificates: bool = False,
               reg=None) -> list[tuple[Finding, list | None]]:
    reg = reg if reg is not None else get_registry(formulas_path)
    out = []
    for k, cid in chunk:
        certs: list | None = [] if certificates else None
        out.append((_run_by_id(reg, k, cid, options[k], strength, certs), certs))
    return out


def _attach_roots(reg, results: list[Finding]) -> None:
    """A finding whose check declares ``explained_by`` becomes a consequence of that root
    when the root is itself a finding (run here if ``--only`` left it out, not reported);
    a root that passes explains nothing, and the finding stands as a root of its own."""
    by_id = {(r.paper, r.check): r for r in results}
    for r in results:
        if r.severity is Grade.OK:
            continue
        spec = next((c for c in reg.paper(r.paper).checks if c.id == r.check), None)
        e = spec.spec.explained_by if spec is not None else None
        if not e:
            continue
        if e.where is not None and not _holds_at_point(reg, r, e):
            r.evidence["declared_root_not_shown"] = (f"{r.paper}.{e.check}: {e.where} is not shown to hold "
                                                     "at this finding's point")
            continue
        root = by_id.get((r.paper, e.check)) or _run_by_id(reg, r.paper, e.check)
        while root.severity is not Grade.OK and root.root:          # attach to the root of the root
            p, _, c = root.root.partition(".")
            root = by_id.get((p, c)) or _run_by_id(reg, p, c)
        if root.severity is Grade.OK:
            r.evidence["declared_root_passed"] = f"{root.paper}.{root.check}"
            continue
        r.root, r.because = f"{root.paper}.{root.check}", e.because


def _holds_at_point(reg, r: Finding, e) -> bool:
    """The declared condition of a consequence (``explained_by.where``) at the finding's
    own point (its counterexample, or the derivative's point of a monotone one), decided in
    ball arithmetic; False when it fails, is undecided or the finding has no point."""
    from ...backends import mp as mpb
    from ...expr.nodes import Ref, Sym, sub
    from ...expr.parser import parse
    from .hypotheses import _frac
    ce = r.evidence.get("counterexample") or {}
    if isinstance(ce, dict) and isinstance(ce.get("derivative_at"), dict):
        ce = ce["derivative_at"]
    pt = {k: _frac(v) for k, v in ce.items() if isinstance(v, str) and _frac(v) is not None} \
        if isinstance(ce, dict) else {}
    uses = set(e.uses)
    rel = parse(e.where, where="explained_by where").map(
        lambda n: Ref(None, n.name) if isinstance(n, Sym) and n.name in uses else None)
    rel = reg.resolve(rel, r.paper)
    if not pt or not rel.symbols() <= pt.keys():
        return False
    s = mpb.decide_sign(sub(rel.lhs, rel.rhs), pt)
    ok = s is not None and {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0, "==": s == 0}[rel.op]
    if ok:
        r.evidence["root_condition_at_point"] = e.where
    return ok


def _run_by_id(reg, key: str, cid: str, options: str = "", strength: bool = False,
               certificates: list | None = None) -> Finding:
    p = reg.paper(key)
    return _run_one(reg, p, next(c for c in _all_checks(p, cid.startswith(transcription_mod.PREFIX))
                                 if c.id == cid), options, strength, certificates)


def _all_checks(p, transcription: bool) -> list:
    """The paper's declared checks, and with ``transcription`` one per formula whose printed
    LaTeX can be compared with its expression (:func:`.transcription.checks`)."""
    return list(p.checks) + (transcription_mod.checks(p) if transcription else [])


def rerun_options(reg, key: str, formulas_path=None) -> str:
    """The options a printed re-run line needs to run as printed: ``--formulas FILE`` for
    every user formula file when the paper comes from one (its own file and the others it
    may reference; absolute paths, so the line runs from any directory). A packaged paper
    needs none."""
    import shlex

    from ...registry.registry import ENV_VAR, packaged_dir
    path = reg.paper(key).path
    if path is None or Path(path).resolve().parent == packaged_dir().resolve():
        return ""
    env = os.environ.get(ENV_VAR, "")
    user = [Path(x).resolve() for x in [p for p in env.split(os.pathsep) if p] + list(formulas_path or [])]
    files = list(dict.fromkeys([Path(path).resolve(), *user]))
    return "".join(f" --formulas {shlex.quote(str(f))}" for f in files)


def _only(reg, keys, only):
    if not only:
        return None
    all_ids = {(k, c.id) for k in keys for c in _all_checks(reg.paper(k), True)}
    wanted = set()
    for o in only:
        pk, _, cid = o.rpartition(".")
        hits = {(k, c) for k, c in all_ids if c == cid and (not pk or k == pk)}
        if not hits:
            raise BoundcalcError(f"--only {o}: no such check in {', '.join(keys)}")
        wanted |= hits
    return wanted


def _run_one(reg, paper, c, options: str = "", strength: bool = False,
             certificates: list | None = None) -> Finding:
    # every check starts from the same SymPy state (its work counts do not depend on what ran
    # before it), and one during which a clock's safety net fired is undecided
    # --strength's mutants run after that: a safety net one of them trips marks that mutant
    # (not decided, not counted), never the check's own verdict
    _budget.fresh_state()
    nets = _budget.safety_net_hits()
    f, claims = _run_one_counted(reg, paper, c, options, strength, certificates)
    if _budget.safety_net_hits() > nets:
        f.evidence["grade_before_safety_net"] = f.severity
        fired = "; ".join(dict.fromkeys(_budget.safety_nets_fired()))
        f.grade(Grade.WARNING, "undecided", f"undecided (safety net): a safety net ({fired}: a clock, not a work "
                f"budget) fired while the check ran, so its result would depend on the machine's load: {f.message}")
    if f.severity in (Grade.OK, Grade.CONDITIONAL) and strength:
        _mutate(reg, paper, c, f, claims)
    f.sides = None
    return f


def _run_one_counted(reg, paper, c, options: str = "", strength: bool = False,
                     certificates: list | None = None) -> tuple[Finding, dict]:
    """The check run and graded (premises, identities), and the claims its run recorded
    for --strength's mutants."""
    f = Finding(paper.key, c.id, c.kind, Grade.OK, c.location, c.description,
                reading=c.reading, covers=list(c.covers), note=c.spec.note)
    f.rerun = f"boundcalc check {paper.key} --only {c.id}{options}"
    f.api = (f"boundcalc.services.check.run_checks({paper.key!r}, only=[{c.id!r}]"
             + (", strength=True)" if strength else ")"))
    if c.kind == "measured":
        f.api = measured.api_call(c.spec)
    claims: dict = {}
    token = _CLAIM_HOOK.set(_strength.recorder(claims) if strength else None)
    sink = _CERTIFICATES.set(certificates)       # the check's own decisions only
    try:
        _run_kind(reg, paper, c.spec, f)
    finally:
        _CERTIFICATES.reset(sink)
        _CLAIM_HOOK.reset(token)
    _hypotheses_at_counterexample(reg, paper, c, f)
    f.notation = _notation(paper, f.evidence)
    _grade_reading(f)
    _cap_severity(f, c.spec)
    f.added = premises.added_by_us(reg, paper, c.spec)
    if f.severity is Grade.OK and c.spec.identity:
        f.grade(Grade.IDENTITY, "identity", f"records an identity (identity = true), not evidence: {f.message}")
    elif f.severity is Grade.OK:
        _premises(reg, paper, c, f)
    return f, claims


def _rerun(reg, paper, c, spec, hyp_hook=None) -> Finding:
    """The check's kind re-run on ``spec`` (a typed spec, :mod:`boundcalc.registry.checks`) (and, with ``hyp_hook``, its hypotheses
    rewritten), each decision capped at :data:`.premises.RERUN_SECONDS`."""
    m = Finding(paper.key, c.id, c.kind, Grade.OK, c.location, c.description)
    cap = _SECONDS_CAP.set(premises.RERUN_SECONDS)
    hook = hypotheses.HYP_HOOK.set(hyp_hook)
    try:
        _run_kind(reg, paper, spec, m)
    finally:
        hypotheses.HYP_HOOK.reset(hook)
        _SECONDS_CAP.reset(cap)
    return m


def _premises(reg, paper, c, f: Finding) -> None:
    """A pass that is a tautology of the encoding is graded identity; one that needs an
    assumption added by us is graded conditional (:mod:`.premises`)."""
    rerun = lambda spec, hook: _rerun(reg, paper, c, spec, hook)
    why = encoding.why(reg, paper, c.spec, f, rerun) or premises.tautology(reg, paper, c, f, rerun)
    if why:
        f.grade(Grade.IDENTITY, "tautology", f"{why}; not a pass: {f.message}")
    elif premises.conditional(c, f, rerun):
        used = "; ".join(x["assumption"] for x in f.added if x["needed"])
        f.grade(Grade.CONDITIONAL, "added assumption",
                f"passes only under assumption(s) added by us, not hypotheses of the paper ({used}): {f.message}")


def _mutate(reg, paper, c, f: Finding, claims: dict) -> None:
    """Re-run a passing check on each mutant of its claim, premise and encoding
    (:mod:`.strength`); it can fail only if a mutant of the paper's side is caught."""
    survivors, caught, paper_caught, netted, n = [], [], [], [], 0
    cap = _SECONDS_CAP.set(_strength.MUTANT_SECONDS)
    try:
        refs = {name: reg.resolved(spec.id) for name, spec in sorted(paper.formulas.items())}
        hyps = f.evidence.get("hypotheses", []) if isinstance(f.evidence, dict) else []
        for mu in _strength.mutants(c.kind, c.spec, claims, refs, hyps):
            m = Finding(paper.key, c.id, c.kind, Grade.OK, c.location, c.description)
            token = _CLAIM_HOOK.set(mu.hook)
            htoken = hypotheses.HYP_HOOK.set(mu.hyp_hook)
            nets = _budget.safety_net_hits()
            try:
                _run_kind(reg, paper, mu.spec, m)
            finally:
                hypotheses.HYP_HOOK.reset(htoken)
                _CLAIM_HOOK.reset(token)
            n += 1
            if _budget.safety_net_hits() > nets:     # its verdict would depend on the load
                netted.append(mu.label)
            elif _strength.killed_by(m):
                caught.append(mu.label)
                if mu.side == "paper":
                    paper_caught.append(mu.label)
            else:
                survivors.append(mu.label)
    finally:
        _SECONDS_CAP.reset(cap)
    f.strength = {"mutants": n, "killed": len(caught), "paper_killed": len(paper_caught), "caught": caught,
                  "paper_caught": paper_caught, "survivors": survivors}
    if netted:
        f.strength["safety_net"] = netted
    if not paper_caught:
        other = f" (caught only: {'; '.join(caught)} — the claim's form or our encoding)" if caught else ""
        if netted:
            other += (f"; {len(netted)} mutant(s) not decided (a safety net fired: {'; '.join(netted)}), "
                      "so not shown to be caught")
        f.grade(Grade.CANNOT_FAIL, "cannot fail",
                f"cannot fail: passes, and no mutant of the paper's side among its {n} mutant(s) is caught"
                f"{other}: {f.message}")


def _run_kind(reg, paper, spec, f: Finding) -> None:
    """Run one check kind (its typed spec) into ``f``; what goes wrong is graded an undecided warning."""
    try:
        RUNNERS[f.kind](reg, paper, spec, f)
    except BoundcalcError as e:
        f.grade(Grade.WARNING, "undecided", f"check could not be run: {e}")
    except (NotImplementedError, ValueError, TypeError, ZeroDivisionError, RecursionError) as e:
        # SymPy gives up on some expressions (limits of min/max in several variables ...)
        f.grade(Grade.WARNING, "undecided", f"check could not be run: SymPy could not decide it "
                                        f"({type(e).__name__}: {str(e)[:120]})")
    except (KeyboardInterrupt, SystemExit):
        raise
    except Timeout:                      # a SymPy work budget's alarm that escaped its layer
        f.grade(Grade.WARNING, "undecided", "check could not be run: its work budget ran out")
    except Exception as e:               # a defect of boundcalc, said as one: never a pass
        f.grade(Grade.WARNING, "undecided", f"check could not be run: internal error "
                                        f"({type(e).__name__}: {str(e)[:120]}); please report it")


def _hypotheses_at_counterexample(reg, paper, c, f: Finding) -> None:
    """A counterexample of a check with hypotheses is re-verified against each of them in
    ball arithmetic, independently of the search that found it, and the finding says
    which hold there. One that fails (a search bug) does not refute the claim: the
    finding becomes undecided."""
    ce = f.evidence.get("counterexample") if isinstance(f.evidence, dict) else None
    if f.severity is Grade.OK or not isinstance(ce, dict) or "derivative_at" in ce or "pair" in ce:
        return
    pt = {k: v for k, v in ce.items() if k not in ("lhs", "rhs") and k.isidentifier()}   # not a side's label
    hyps = [h for h in hypotheses.for_check(reg, paper, c.spec, free=pt.keys())
            if h.rel.symbols() <= pt.keys()]
    if not hyps or not pt:
        return
    rows = hypotheses.status_at(hyps, pt)
    moved = _onto_lattice(hyps, rows, pt, f.sides)
    if moved is not None:                # off the paper's integrality only: a point on it
        pt, rows, how = moved
        ce.clear()
        ce.update({k: str(v) for k, v in pt.items()})
        f.evidence["counterexample_moved"] = how
    f.evidence["hypotheses_at_counterexample"] = rows
    if any(r["holds"] is not True for r in rows):
        f.grade(Grade.WARNING, "undecided", f"{f.message} — but the counterexample is not certified inside the "
                                        f"hypotheses ({hypotheses.describe(rows)}): not counted")
    else:
        f.message += f" — inside the hypotheses: {hypotheses.describe(rows)}" + (
            f" (the point {f.evidence['counterexample_moved']})" if moved is not None else "")


LATTICE_MULTIPLES = 64       # integer multipliers tried to put a counterexample on a lattice


def _onto_lattice(hyps, rows, pt, sides):
    """When the only hypotheses a counterexample breaks are integralities (``floor(X) ==
    X``: zeta T tokens), the nearest point on their lattice where the check's claim still
    fails and every hypothesis holds (decided exactly and in ball arithmetic): one symbol
    of X changed — an integer one multiplied by m = 2, 3, ... (X scales with it), a real
    one set so that X becomes the whole number nearest it. (point, rows, how) or None."""
    from fractions import Fraction

    from ...backends import mp as mpb
    from ...expr.nodes import sub
    bad = [h for h, r in zip(hyps, rows) if r["holds"] is not True]
    if not bad or sides is None or any(hypotheses.lattice(h.rel) is None for h in bad):
        return None
    a, op, b = sides
    if op not in ("<=", "<", ">=", ">", "=="):
        return None
    try:
        pt = {k: Fraction(str(v)) for k, v in pt.items()}
    except (ValueError, ZeroDivisionError):
        return None

    def fails(q) -> bool:
        try:
            s_ = mpb.decide_sign(sub(a, b), q)
        except Exception:
            return False
        return s_ is not None and not {"<=": s_ <= 0, "<": s_ < 0, ">=": s_ >= 0, ">": s_ > 0, "==": s_ == 0}[op]

    x = hypotheses.lattice(bad[0].rel)
    from ...expr.exact import NotExact, evaluate_exact
    if x is None:
        return None
    try:
        xv = evaluate_exact(x, pt)
    except (NotExact, ZeroDivisionError, ValueError, OverflowError, KeyError):
        return None
    tries = []
    for n in sorted(x.symbols() & pt.keys()):
        if pt[n].denominator == 1 and pt[n] != 0:        # an integer symbol: T -> m T
            tries += [(n, pt[n] * m, f"{n} multiplied by {m}") for m in range(2, LATTICE_MULTIPLES + 1)]
        elif xv != 0:                                    # a real one: X -> the nearest whole number
            for w in sorted({max(Fraction(round(xv)), Fraction(1)), Fraction(-(-xv.numerator // xv.denominator))}):
                tries.append((n, pt[n] * w / xv, f"{n} set so that {x} = {w}"))
    for n, val, how in tries:
        q = {**pt, n: val}
        if any(r["holds"] is not True for r in hypotheses.status_at(hyps, q)) or not fails(q):
            continue
        return q, hypotheses.status_at(hyps, q), f"moved onto the paper's integrality ({how})"
    return None


def _notation(paper, ev) -> dict:
    """The LaTeX of each symbol the evidence shows (looked up once, when the finding is
    built): the expressions' symbols and the counterexample's."""
    if not isinstance(ev, dict):
        return {}
    out: dict[str, str] = {}
    for v in ev.values():
        out.update(getattr(v, "names", None) or {})
    ce = ev.get("counterexample")
    if isinstance(ce, dict):
        out.update({k: paper.symbols[k].latex for k in ce if k in paper.symbols and paper.symbols[k].latex})
    return out


def _grade_reading(f: Finding) -> None:
    """A finding that rests on one reading of garbled text, or on comparing two versions
    of the paper (a revision), is a note whatever it would be on the printed text."""
    if f.reading == "printed" or f.severity not in (Grade.ERROR, Grade.WARNING):
        return
    why = {"garbled": "rests on one reading of an expression the text copy garbled",
           "versions": "compares two versions of the paper (a revision, not an inconsistency)",
           "approximate": "checks exactly a step the paper states as an approximation (≈)"}[f.reading]
    f.message = f"{f.message} — graded a note: it {why} (as printed it would be {'an error' if f.severity is Grade.ERROR else 'a warning'})"
    f.evidence["grade_on_printed_text"] = f.severity
    f.severity, f.reason = Grade.NOTE, f"reading: {f.reading}"


def _cap_severity(f: Finding, spec) -> None:
    """A check's declared ``severity`` is the highest grade its finding gets (the loader
    requires a ``note`` saying why whenever it is below 'error'); the grade it would have had
    stays in the evidence."""
    cap = Grade(spec.severity)
    order = (Grade.OK, Grade.NOTE, Grade.WARNING, Grade.ERROR)
    if f.severity is Grade.OK or order.index(f.severity) <= order.index(cap):
        return
    f.evidence["grade_as_found"] = f.severity
    f.message = f"{f.message} — graded a {cap} as declared (its note says why)"
    f.severity = cap


def coverage(paper: str, *, formulas_path=None, results: list[Finding] | None = None) -> list[dict]:
    """Every entry of the paper's ``[paper] results`` with the checks that cover it (and
    their grades when ``results`` of a run are given); none: ``"unaudited"``."""
    reg = get_registry(formulas_path)
    p = reg.paper(paper)
    grade = {(r.paper, r.check): r.severity for r in results or []}
    rows = []
    for res in p.results:
        checks = [{"id": c.id, "kind": c.kind, **({"grade": grade[(paper, c.id)]}
                                                   if (paper, c.id) in grade else {})}
                  for c in p.checks if res in c.covers]
        rows.append({"result": res, "status": "audited" if checks else "unaudited", "checks": checks})
    return rows
@dataclass(frozen=True)
class CoverageReport:
    """``check --coverage``: each paper's numbered results (:func:`coverage`) and displayed
    proof steps (:func:`.steps.step_coverage`) with the checks covering each; no check is
    run. Printed by :mod:`boundcalc.reports.printers` (JSON: ``{"coverage": ...,
    "step_coverage": ...}``)."""
    papers: tuple[str, ...]
    results: dict[str, list[dict]]       # paper -> its rows (:func:`coverage`)
    steps: dict[str, dict]               # paper -> its step coverage (:func:`.steps.step_coverage`)

    def to_json(self) -> dict:
        """JSON-ready data (:mod:`boundcalc.reports.printers.json`)."""
        from ... import formats
        return formats.call("json", self)


def coverage_report(paper: str | None = None, *, formulas_path=None) -> CoverageReport:
    """The :class:`CoverageReport` of ``paper`` (every paper when None)."""
    reg = get_registry(formulas_path)
    keys = [paper] if paper else list(reg.papers)
    return CoverageReport(tuple(keys), {k: coverage(k, formulas_path=formulas_path) for k in keys},
                          {k: step_coverage(reg.paper(k)) for k in keys})


