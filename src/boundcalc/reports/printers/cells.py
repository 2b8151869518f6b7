"""What every people-facing printer of a comparison table shows (a helper module the
printers share; it imports no printer): the columns, the cells of a row as short text, the
caption (the settings and the seed), the notes, and the rich table built from them."""
from __future__ import annotations

from ..numfmt import fmt_human, fmt_settings, yesno

# the columns of a comparison table as people read it
COLUMNS = ("quantity", "source", "bound", "measured", "bound/measured", "holds", "hypotheses met",
           "constant")


def cells(r) -> list[str]:
    """One row of :data:`COLUMNS`, numbers to 3 digits."""
    return [r.quantity, r.source, fmt_human(r.bound), fmt_human(r.measured), fmt_human(r.ratio),
            yesno(r.holds), yesno(r.hypotheses_met) + (f" ({r.hypotheses})" if r.hypotheses else ""),
            r.constant]


def setting_options(t) -> list[str]:
    """The settings as the command-line options that give them (``--n-test 100``): code, for
    the printers that typeset (LaTeX, Markdown, HTML)."""
    def value(v):
        return yesno(v) if isinstance(v, bool) else str(v)
    return [f"--{k.replace('_', '-')} {value(v)}" for k, v in t.settings.items()]


def caption(t) -> str:
    return f"settings: {fmt_settings(t.settings)}" + (f"; seed {t.seed}" if t.seed is not None else "")


def notes(t) -> list[str]:
    """Each row's note (``quantity: note``), then the table's notes."""
    return [f"{r.quantity}: {r.note}" for r in t.rows if r.note] + list(t.notes)


def display_frame(t):
    """The table as people read it (short numbers as text), a pandas DataFrame."""
    import pandas as pd
    return pd.DataFrame([cells(r) for r in t.rows], columns=list(COLUMNS))


# below this many columns a comparison table is stacked: one block per row, a field a line
# (eight columns side by side at 80 columns are one character wide)
STACK_BELOW = 130


class _Folding:
    """A comparison table that chooses its layout by the console's width when it is drawn:
    the table side by side at :data:`STACK_BELOW` columns and more, stacked below."""

    def __init__(self, t):
        self.t = t

    def __rich_console__(self, console, options):
        yield (_stacked(self.t) if options.max_width < STACK_BELOW else _wide(self.t))


def _stacked(t):
    """One block per row: the quantity, then each field on its own line (label: value), the
    value wrapping in its own column; then the notes."""
    from rich.console import Group
    from rich.table import Table as RTable
    from rich.text import Text

    from ..escape import terminal as escape
    title = RTable.grid()             # wraps at spaces in the console's width, as the notes below
    title.add_column(overflow="fold", style="italic")
    title.add_row(escape(f"{t.paper}: {t.title}", markup=False))
    blocks: list = [title]
    for r in t.rows:
        row = [escape(str(c)) for c in cells(r)]
        colour = {True: "green", False: "red", None: "dim"}[r.holds]
        row[5] = f"[{colour}]{row[5]}[/{colour}]"
        if r.hypotheses_met is False:
            row[6] = f"[yellow]{row[6]}[/yellow]"
        g = RTable.grid(padding=(0, 1))
        g.add_column(style="dim", no_wrap=True)
        g.add_column(overflow="fold")
        for name, v in zip(COLUMNS[1:], row[1:]):
            if v:
                g.add_row(name, v)
        blocks += [Text(""), Text(escape(str(r.quantity), markup=False), style="bold"), g]
    # the caption and the notes wrap at spaces in the console's width too (a terminal breaks a
    # long line anywhere, and the CLI's console prints text unwrapped: soft_wrap)
    tail = RTable.grid(padding=(0, 1))
    tail.add_column(no_wrap=True)
    tail.add_column(overflow="fold")
    tail.add_row("", escape(caption(t), markup=False))
    for n in notes(t):
        tail.add_row("•", escape(n, markup=False))
    return Group(*blocks, Text(""), tail)


def rich_table(t):
    """The table as a rich renderable: the table (holds in colour), then the notes; stacked
    (a block per row) on a console narrower than :data:`STACK_BELOW` columns."""
    return _Folding(t)


def _wide(t):
    from rich.console import Group
    from rich.table import Table as RTable
    from rich.text import Text

    from ..escape import terminal as escape
    rt = RTable(title=escape(f"{t.paper}: {t.title}"), title_justify="left",
                caption=escape(caption(t)), caption_justify="left")
    for i, c in enumerate(COLUMNS):
        # every header whole (min_width); the quantity wraps at word boundaries like the rest
        rt.add_column(c, overflow="fold", justify="right" if c in ("bound", "measured", "bound/measured")
                      else "left", min_width=max(len(w) for w in c.split(" ")) if i == 0 else len(c))
    for r in t.rows:
        row = [escape(str(c)) for c in cells(r)]     # labels in [...] survive
        colour = {True: "green", False: "red", None: "dim"}[r.holds]
        row[5] = f"[{colour}]{row[5]}[/{colour}]"
        if r.hypotheses_met is False:
            row[6] = f"[yellow]{row[6]}[/yellow]"
        rt.add_row(*row)
    return Group(rt, *(Text("• " + escape(n, markup=False)) for n in notes(t)))
