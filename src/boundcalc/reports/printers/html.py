"""HTML fragments for notebooks (``_repr_html_``): a comparison table, the check report.
Text is escaped by :func:`html.escape`."""
from __future__ import annotations

import html as _html

from .base import Printer


class HtmlPrinter(Printer):
    format = "html"

    def _print_Table(self, t) -> str:
        from .cells import caption, display_frame, notes
        parts = [f"<p><b>{_html.escape(t.paper)}: {_html.escape(t.title)}</b><br>"
                 f"{_html.escape(caption(t))}</p>", display_frame(t).to_html(index=False)]
        extra = notes(t)
        if extra:
            parts.append("<ul>" + "".join(f"<li>{_html.escape(n)}</li>" for n in extra) + "</ul>")
        return "\n".join(parts)

    def _print_Report(self, report) -> str:
        """The counts, then the findings (errors first)."""
        from ..frames import FINDING_COLUMNS
        df = report.to_frame()
        counts = df["severity"].value_counts().reindex(df["severity"].cat.categories, fill_value=0)
        head = ", ".join(f"{int(n)} {s}" for s, n in counts.items()
                         if n or s not in ("cannot fail", "identity"))     # the two newer grades when present
        findings = report.to_frame(passed=False).sort_values(["severity", "paper", "check"], kind="stable")
        table = findings[list(FINDING_COLUMNS)].to_html(index=False) if len(findings) else "<p>no findings</p>"
        return (f"<p><b>boundcalc check</b> ({_html.escape(', '.join(report.papers))}): "
                f"{len(df)} checks run: {_html.escape(head)}</p>\n{table}")


def to_html(obj, **settings) -> str:
    """``obj`` as an HTML fragment."""
    return HtmlPrinter(**settings).doprint(obj)
