"""JSON: each record as JSON-ready data (:func:`to_json`) and as text (:func:`dumps`).

Numbers as JSON numbers where a float says everything, exact values as strings beside
them (``*_exact``); verdicts and grades are str enums and serialise as their strings.
Imports only the standard library at module level: the numeric commands use it.
"""
from __future__ import annotations

import json as _json
from fractions import Fraction
from typing import ClassVar

from .base import Printer


def default(o):
    """``json.dumps``'s fallback: a Fraction as ``p/q``, an mpf to 20 digits, else str."""
    if isinstance(o, Fraction):
        return str(o)
    from ...mpmath_import import mpmath
    if isinstance(o, mpmath.mpf):
        return mpmath.nstr(o, 20)
    return str(o)


class JsonPrinter(Printer):
    format = "json"
    _default_settings: ClassVar[dict] = {"timings": True}

    # -- the comparison table
    def _print_Row(self, r) -> dict:
        from ..numfmt import exact_str, float_or_none
        return {"quantity": r.quantity, "source": r.source, "kind": r.kind, "formula": r.formula,
                "bound": float_or_none(r.bound), "measured": float_or_none(r.measured),
                "measured_low": float_or_none(r.measured_low), "measured_high": float_or_none(r.measured_high),
                "seeds": r.seeds, "interval": r.interval, "ratio": float_or_none(r.ratio),
                "bound_exact": exact_str(r.bound, r._digits.get("bound")),
                "measured_exact": exact_str(r.measured, r._digits.get("measured")),
                "ratio_exact": exact_str(r.ratio),
                "holds": r.holds, "hypotheses_met": r.hypotheses_met,
                "hypotheses": r.hypotheses, "constant": r.constant, "note": r.note}

    def _print_Table(self, t) -> dict:
        from ..numfmt import json_setting
        return {"paper": t.paper, "title": t.title,
                "settings": {k: json_setting(v) for k, v in t.settings.items()},
                "seed": t.seed, "rows": [self._print_Row(r) for r in t.rows], "notes": list(t.notes)}

    # -- the check report
    def _print_Finding(self, f) -> dict:
        d = dict(f.__dict__)
        del d["notation"]              # for typesetting; the JSON keeps SymPy's text
        d.pop("sides", None)           # the runner's nodes, for the tautology screen only
        if not d["added"]:
            del d["added"]
        if d["strength"] is None:
            del d["strength"]
        if not d["note"]:               # the check declares none
            del d["note"]
        return d

    def _print_Report(self, report) -> dict:
        from ...verdicts import Grade
        reasons: dict[str, int] = {}
        for r in report.findings:
            reasons[r.reason] = reasons.get(r.reason, 0) + 1
        out = {"papers": report.papers, "checks_run": len(report.results), "counts": report.counts(),
               "counts_by_paper": {p: report.counts(p) for p in report.papers},
               "counts_by_reason": dict(sorted(reasons.items())),
               "counts_by_kind": report.counts_by_kind(),
               "undecided": report.undecided_counts()}
        if report.strength:
            out["strength"] = report.strength_counts()
        if self._settings["timings"]:
            out["seconds"] = round(report.seconds, 2)
        out.update({"findings": [self._print_Finding(f) for f in report.findings],
                    "passed": [self._print_Finding(r) for r in report.results if r.severity is Grade.OK],
                    "added_assumptions": report.added_assumptions(),
                    "coverage": report.coverage or {}, "step_coverage": report.steps or {}})
        return out

    # -- decisions
    def _print_VerifyResult(self, r) -> dict:
        return _without_empty_certificate(r.__dict__)

    def _print_Decision(self, d) -> dict:
        return _without_empty_certificate(d.__dict__)

    def _print_MonotoneResult(self, r) -> dict:
        # the printed verdict (direction and region) in the record's first fields' place,
        # the direction member last, as the JSON has always been laid out
        fields = {k: v for k, v in r.__dict__.items() if k not in ("id", "var", "direction")}
        return {"id": r.id, "var": r.var, "verdict": r.verdict, **fields, "direction": r.direction}

    def _print_AsymptoticResult(self, r) -> dict:
        return dict(r.__dict__)

    def _print_RequireResult(self, res) -> dict:
        from ...backends import mp as mpb
        from ...registry.values import fmt_fraction
        b = res.binding
        var = res.var
        return {
            "setting": res.setting.id,
            "setting_name": res.setting.title,
            "source": res.setting.source,
            "var": var,
            "domain": res.var_domain,
            "description": res.var_description,
            "target": res.target or None,
            "range": res.search_range or None,
            var: b.solution.json_value,
            "direction": b.solution.direction,
            "attained": b.solution.attained,
            "binding": b.id,
            "feasible": res.feasible,
            "inputs": {k: {"value": fmt_fraction(v), "from": src, "description": res.descriptions.get(k, "")}
                       for k, (v, src) in sorted(res.inputs.items())},
            "derived": {k: {"value": None if v is None else mpb.fmt_sig(v, 15), "expression": text, "from": src}
                        for k, (v, text, src) in res.derived.items()},
            "requirements": [{
                "id": r.id, "name": r.name, "source": r.source, "status": r.status,
                var: r.solution.json_value,
                "direction": r.solution.direction,
                "attained": r.solution.attained,
                "result": r.solution.outcome,
                "monotone": r.solution.monotone,
                "certificate": dict(r.solution.certificate),
                "qualifier": ("up to the absolute constant(s) " + ", ".join(r.constants)) if r.constants
                else "exact constant",
                "note": r.note,
            } for r in res.results],
            "skipped": res.skipped,
            "note": res.setting.note,
        }

    # -- list / show / eval / simplify
    def _print_FormulaListing(self, r) -> list:
        return [{"id": e.id, "name": e.name, "kind": e.kind, "source": e.source, "status": e.status}
                for e in r.entries]

    def _print_FormulaDetails(self, r) -> dict:
        return dict(r.__dict__)

    def _print_Evaluation(self, r) -> dict:
        setting = {} if r.setting is None else {"setting": r.setting}
        if r.is_relation:
            return {"id": r.id, "kind": r.kind, "holds": r.holds, "lhs": r.lhs, "rhs": r.rhs,
                    "qualifier": r.qualifier, "status": r.status, **setting, "defaults_used": r.defaults_used}
        return {"id": r.id, "value": r.value, "float": r.as_float, "digits": r.digits, "kind": r.kind,
                "status": r.status, "qualifier": r.qualifier, **setting, "defaults_used": r.defaults_used}

    def _print_ReproductionListing(self, r) -> dict:
        return {"reproductions": [{"name": e.name, "description": e.description, "settings": list(e.settings)}
                                  for e in r.entries],
                "unavailable": r.unavailable}

    def _print_Simplified(self, s) -> dict:
        return dict(s.__dict__)

    def _print_CoverageReport(self, r) -> dict:
        return {"coverage": r.results, "step_coverage": r.steps}

    def _print_dict(self, d) -> dict:
        return d

    def _print_list(self, xs) -> list:
        return xs


def to_json(obj, **settings):
    """``obj`` as JSON-ready data (dicts, lists, strings, numbers). ``timings=False``: a
    check report without its wall-clock seconds (the only part two runs differ in)."""
    return JsonPrinter(**settings).doprint(obj)


def dumps(obj, *, indent: int = 2, **settings) -> str:
    """``obj`` as JSON text (a newline at the end)."""
    return _json.dumps(to_json(obj, **settings), indent=indent, default=default) + "\n"


def _without_empty_certificate(fields: dict) -> dict:
    """A verdict's fields; its certificate and the checker's answer on it (``recheck``) only
    where one was asked for (``verify --certificate``), so that the JSON of every other run
    stays as it was."""
    return {k: v for k, v in fields.items() if not (k in ("certificate", "recheck") and v is None)}
