"""What every people-facing printer of a comparison table shows (a helper module the
printers share; it imports no printer): the cells of a row as short text, the caption
(the settings and the seed) and the notes."""
from __future__ import annotations

from ..numfmt import fmt_human, fmt_settings, yesno


def cells(r) -> list[str]:
    """One row of :data:`boundcalc.reports.table.COLUMNS`, numbers to 3 digits."""
    return [r.quantity, r.source, fmt_human(r.bound), fmt_human(r.measured), fmt_human(r.ratio),
            yesno(r.holds), yesno(r.hypotheses_met) + (f" ({r.hypotheses})" if r.hypotheses else ""),
            r.constant]


def caption(t) -> str:
    return f"settings: {fmt_settings(t.settings)}; seed {t.seed}"


def notes(t) -> list[str]:
    """Each row's note (``quantity: note``), then the table's notes."""
    return [f"{r.quantity}: {r.note}" for r in t.rows if r.note] + list(t.notes)
