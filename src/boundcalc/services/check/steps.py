"""Step coverage: the displayed steps of the proofs a paper's results rest on
(``[[steps]]`` in its formula file), and how many a check has decided.

A step is **checked** when one of its checks ran and decided something about it: passed
(also conditionally, under an assumption added by us), or a finding (error, warning, note)
other than "undecided". A check graded "cannot fail"
or "identity" is no evidence, and an undecided one decided nothing: the step stays
unchecked (status ``undecided`` / ``no evidence``). Without a run (``check --coverage``)
a step with a check not flagged ``identity = true`` in the formula file is ``declared``, and
one whose every check is so flagged is ``no evidence`` already (a declared identity is graded
"identity" by every run); a run can still leave a declared step unchecked (undecided, or an
identity found by ``premises.py``). Coverage = checked steps / displayed steps; ``declared``
counts the steps with a check not flagged an identity (without a run, the most a run can
find checked).
"""
from __future__ import annotations

#: grades that are evidence about a step (an undecided warning is not: see ``_status``); a
#: conditional pass is evidence under the assumption it lists as added by us
EVIDENCE = ("ok", "conditional", "error", "warning", "note")


def _status(grades: list[tuple[str, str]] | None, n_checks: int, n_identity: int = 0) -> str:
    if not n_checks:
        return "unchecked"
    if grades is None:
        return "declared" if n_checks > n_identity else "no evidence"
    if any(g in EVIDENCE and reason != "undecided" for g, reason in grades):
        return "checked"
    if any(reason == "undecided" for _, reason in grades):
        return "undecided"
    return "no evidence" if grades else "not run"


def step_coverage(paper, results=None) -> dict:
    """``{displayed, checked, coverage, by_result, steps}`` for one paper (a registry
    ``Paper``); ``results`` (the findings of a run) grade each step's checks."""
    by_check = None if results is None else {r.check: r for r in results if r.paper == paper.key}
    # the checks the formula file flags ``identity = true``: evidence of nothing, run or not
    declared_identity = {c.id for c in paper.checks if getattr(c.spec, "identity", False)}
    steps: list[dict] = []
    by_result: dict[str, dict] = {}
    for s in paper.steps:
        checks: list[dict] = []
        grades: list | None = None if by_check is None else []
        for cid in s.checks:
            row: dict = {"id": cid}
            if cid in declared_identity:
                row["identity"] = True
            r = None if by_check is None else by_check.get(cid)
            if r is not None and grades is not None:      # (a finding is only found in results)
                row["grade"] = r.severity
                grades.append((r.severity, r.reason))
            checks.append(row)
        st = _status(grades, len(s.checks), sum(c in declared_identity for c in s.checks))
        steps.append({"id": s.id, "result": s.result, "place": s.place, "step": s.step,
                      "status": st, "checks": checks, **({"note": s.note} if s.note else {})})
        b = by_result.setdefault(s.result, {"displayed": 0, "checked": 0})
        b["displayed"] += 1
        b["checked"] += st == "checked"
    n, k = len(steps), sum(s["status"] == "checked" for s in steps)
    return {"displayed": n, "checked": k, "coverage": round(k / n, 4) if n else None,
            "declared": sum(any(c not in declared_identity for c in s.checks) for s in paper.steps),
            "by_result": by_result, "steps": steps}
