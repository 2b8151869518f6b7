"""Plain text: what ``verify``, ``monotone`` and ``asymptotic`` print (their
``describe()`` is a thin call to :func:`to_text`), and a comparison table as the plain
text of its rich rendering (``compare --format rich --output FILE``)."""
from __future__ import annotations

from typing import ClassVar

from .base import Printer


class TextPrinter(Printer):
    format = "text"
    _default_settings: ClassVar[dict] = {"width": None}

    def _print_VerifyResult(self, r) -> str:
        m = r.method
        s = f"{r.statement}: " + (r.verdict.upper() + m[len(r.verdict):] if m.startswith(r.verdict)
                                   else f"{r.verdict.upper()} ({m})")
        if r.domains:              # what the verdict is about: every variable's domain
            s += "\n  over " + ", ".join(f"{k} {v}" for k, v in r.domains.items())
        if r.assumptions:
            s += "\n  assuming " + ", ".join(r.assumptions)
        if r.counterexample:
            s += f"\n  counterexample: {r.counterexample}"
        if r.detail:
            s += f"\n  {r.detail}"
        if r.recheck:              # verify --certificate: what the checker made of it
            s += f"\n  certificate: {r.recheck['status']}" + "".join(
                f"\n    {t}" for t in r.recheck["trusted"] + r.recheck["not_rechecked"])
        return s

    def _print_CompareSettings(self, s) -> str:
        parts = ["Paper-specific settings (--NAME VALUE; hyphens or underscores):"]
        for p in s.papers:
            if p.unavailable:
                parts.append(f"{p.paper}: not available ({p.unavailable})")
            elif not p.settings:
                parts.append(f"{p.paper}: no settings")
            else:
                parts.append("\n".join([f"{p.paper}:"] + [f"  --{name.replace('_', '-')} (default {default!r}): {text}"
                                                          for name, default, text in p.settings]))
        return "\n\n".join(parts)

    def _print_SettingsHelp(self, h) -> str:
        from ...registry.values import fmt_fraction
        parts = [("Settings and their inputs (--NAME VALUE or --set NAME=VALUE; default in parentheses,"
                  " 'derived' = computed from the others unless given):")]
        for st in h.settings:
            vals = [f"--{i.name} ({fmt_fraction(i.default)})" if i.default is not None
                    else f"--{i.name} (derived)" if i.derived else f"--{i.name}" for i in st.inputs]
            head = f"{st.paper} --setting {st.name}" + (f" (also {', '.join(st.aliases)})" if st.aliases else "")
            head += f"{' [default]' if st.default else ''}: solves {st.solve_for or '?'}; {st.title}"
            parts.append(head + "\n  " + " ".join(vals))
        return "\n\n".join(parts)

    def _print_MonotoneResult(self, r) -> str:
        from ...verdicts import Direction, MonotoneEvidence
        box = ", ".join(f"{k} in [{a}, {b}]" for k, (a, b) in r.box.items())
        if r.direction.leans is not r.direction:     # sampled: no direction named
            s = f"{r.id}: {r.direction} in {r.var} in {r.samples} samples on {box or 'the box'} (sampled)"
        elif r.direction is Direction.NEITHER and r.evidence is MonotoneEvidence.COUNTEREXAMPLE:
            s = f"{r.id} is neither increasing nor decreasing in {r.var} (certified pairs)"
        else:
            s = f"{r.id} is {r.direction} in {r.var} ({r.evidence})"
        if r.scope == "default box" and r.direction.leans is not r.direction:
            s += " — the default box only"
        elif r.scope == "default box":
            whole = f"the whole range {r.asked}" if r.asked else f"{r.var}'s whole domain"
            s += f" — on the default box only, NOT on {whole}"
        elif r.asked and r.scope == "box":
            s += f" on {r.asked}"
        if r.evidence is MonotoneEvidence.SAMPLED:
            s += " — sampled, NOT a proof"
        if r.setting:
            s += f"\n  the other symbols at setting {r.setting}'s values"
        s += f"\n  d/d{r.var} = {r.derivative}\n  {r.detail}"
        if r.box:
            s += "\n  box: " + box
        for key, word in (("increasing_pair", "rises"), ("decreasing_pair", "falls")):
            p = (r.counterexample or {}).get(key)
            if p:
                at = ", ".join(f"{k} = {v}" for k, v in (p.get("point") or {}).items())
                s += (f"\n  certified pair: f {word} from {r.var} = {p[r.var + '_1']} to {p[r.var + '_2']} "
                      f"(f = {p['f_1']} -> {p['f_2']}){' at ' + at if at else ''}")
        if r.counterexample:
            s += f"\n  counterexample: {r.counterexample}"
        return s

    def _print_AsymptoticResult(self, r) -> str:
        tog = "".join(f", {k} = {v}" for k, v in r.together.items())
        return (f"{r.quantity} = {r.order} as {r.var} -> oo{tog}\n"
                f"  leading term: {r.leading}\n  ({r.method})")

    def _print_Evaluation(self, r) -> str:
        if r.is_relation:
            return (f"{r.id}: {'holds' if r.holds else 'does NOT hold'}  "
                    f"(lhs = {r.lhs}, rhs = {r.rhs}; {r.qualifier}; {r.status}"
                    + (f"; setting {r.setting}" if r.setting is not None else "") + ")")
        where = f"; setting {r.setting}" if r.setting is not None else ""
        return f"{r.id} = {r.value}   [{r.qualifier}; {r.status}{where}; {r.digits} certified digits]"

    def _print_Simplified(self, s) -> str:
        return f"{s.id}\n  original:   {s.original}\n  simplified: {s.simplified}\n  latex:      {s.latex}"

    def _print_Table(self, t) -> str:
        import io

        from rich.console import Console

        from .cells import rich_table
        buf = io.StringIO()
        Console(file=buf, width=self._settings["width"] or 200, color_system=None, highlight=False,
                soft_wrap=True).print(rich_table(t))
        return buf.getvalue()


def to_text(obj, **settings) -> str:
    """``obj`` as plain text (``width``: of a table, default 200 columns)."""
    return TextPrinter(**settings).doprint(obj)
