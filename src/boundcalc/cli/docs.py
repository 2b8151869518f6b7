"""The ``sheet``, ``cite`` and ``new`` commands: a paper's formula sheet, its reference,
and a skeleton formula file for a new paper.

Registered in :mod:`boundcalc.cli.app`; everything heavy (SymPy for the sheet, pandas
for its Markdown tables) is imported inside the commands.
"""
from __future__ import annotations

import sys

import typer

from .state import formula_paths


def sheet(paper: str = typer.Argument(..., help="deora2023, anon2025, tarzanagh2023, arda2026 or your own."),
          format_: str = typer.Option("latex", "--format", help="latex (a document pdflatex compiles) or markdown."),
          output: str | None = typer.Option(None, "--output", help="Write the sheet to this file (- for standard output)."),
          force: bool = typer.Option(False, "--force", help="Overwrite --output.")):
    """A paper's formula sheet: its reference, its symbols, and every formula with its
    source, status (as printed / corrected / derived), LaTeX as printed, our expression
    and its notes."""
    from ..reports.sheet import sheet as make
    from .output import check_outputs, write_output
    check_outputs([("--output", output)], force=force)     # before any work
    write_output(output, make(paper, format_, formulas_path=formula_paths()), what="sheet")


def cite(paper: str = typer.Argument(..., help="deora2023, anon2025, tarzanagh2023, arda2026 or your own."),
         format_: str = typer.Option("bibtex", "--format", help="bibtex or text."),
         json: bool = typer.Option(False, "--json", help="All reference fields, machine-readable.")):
    """How to cite a paper: its BibTeX entry (the file's `bibtex`, else one built from its
    [paper] fields), or one line of text."""
    from ..reports.sheet import cite as make
    if json:
        from ..reports.sheet import reference
        from .output import emit_json
        emit_json(reference(paper, formulas_path=formula_paths()))
        return
    sys.stdout.write(make(paper, format_, formulas_path=formula_paths()))


def new(key: str = typer.Argument(..., help="The new paper's key (an identifier; the file is KEY.toml)."),
        output: str | None = typer.Option(None, "--output", help="Write here (a file named KEY.toml, or a "
                                             "folder) instead of ./KEY.toml.")):
    """Write a commented skeleton formula file KEY.toml (a toy bound with symbols, formulas,
    a setting and checks) that loads as it is; never overwrites an existing file."""
    import os

    from ..registry.template import check_key, skeleton_path, write_skeleton
    from .output import check_outputs
    check_key(key)
    target = skeleton_path(key, output)
    if not os.path.lexists(target):           # (an existing one is refused by write_skeleton)
        check_outputs([("--output" if output else "new:", target)])   # it can be created: one line if not
    path = write_skeleton(key, output)
    print(f"written: {path}  (try: boundcalc --formulas {path} check {key})", file=sys.stderr)
