"""HTML fragments for notebooks (``_repr_html_``): a comparison table, the check report.
Text is escaped by :func:`html.escape`."""
from __future__ import annotations

import html as _html

from .base import Printer


class HtmlPrinter(Printer):
    format = "html"

    def _print_Table(self, t) -> str:
        import pandas as pd
        from ..table import COLUMNS
        from .cells import caption, cells, notes
        frame = pd.DataFrame([cells(r) for r in t.rows], columns=list(COLUMNS))
        parts = [f"<p><b>{_html.escape(t.paper)}: {_html.escape(t.title)}</b><br>"
                 f"{_html.escape(caption(t))}</p>", frame.to_html(index=False)]
        extra = notes(t)
        if extra:
            parts.append("<ul>" + "".join(f"<li>{_html.escape(n)}</li>" for n in extra) + "</ul>")
        return "\n".join(parts)

    def _print_Report(self, report) -> str:
        """The counts, then the findings (errors first)."""
        from ..frames import FINDING_COLUMNS, report_frame
        df = report_frame(report)
        counts = df["severity"].value_counts().reindex(df["severity"].cat.categories, fill_value=0)
        head = ", ".join(f"{int(n)} {s}" for s, n in counts.items()
                         if n or s not in ("cannot fail", "identity"))     # the two newer grades when present
        findings = report_frame(report, passed=False).sort_values(["severity", "paper", "check"], kind="stable")
        table = findings[list(FINDING_COLUMNS)].to_html(index=False) if len(findings) else "<p>no findings</p>"
        return (f"<p><b>boundcalc check</b> ({_html.escape(', '.join(report.papers))}): "
                f"{len(df)} checks run: {_html.escape(head)}</p>\n{table}")


def to_html(obj, **settings) -> str:
    """``obj`` as an HTML fragment."""
    return HtmlPrinter(**settings).doprint(obj)
