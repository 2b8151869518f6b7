"""The Python API: ``boundcalc.formula(id)`` and friends. The CLI is a thin layer over this."""
from __future__ import annotations

from .reports import printers as _printers  # noqa: F401  (registers the printers the services' records use: boundcalc.formats)
from .services.formula import Formula, _name, _registry, formula


def compare_measured(csv_path, *, paper: str, setting: str | None = None,
                     formulas_path: list[str] | None = None, mapping: dict[str, str] | None = None):
    """Your measurements beside your bounds: each run (row) of the CSV file ``csv_path``
    gives inputs (columns named after ``paper``'s symbols) and measured values (columns
    named after its bounds); the result is a :class:`boundcalc.reports.table.Table` with,
    per run and measured bound, the bound evaluated at the run's inputs (certified), the
    measured value, their ratio and whether the bound holds. Inputs a run leaves out come
    from ``setting`` and the symbols' defaults. ``mapping`` reads a column under another name
    (``{"N": "n"}``: the CSV's ``N`` is the symbol ``n``); a ``seed`` column makes repeated runs
    one row with the mean and its Student-t interval. Print it with ``to_markdown()``,
    ``to_latex()``, ``to_csv()``, ``to_json()``, ``to_frame()`` (or
    ``boundcalc.reports.printers.render(table, "markdown")``). The CSV format:
    :mod:`boundcalc.reports.measured` and README "Your own measurements".

    >>> t = compare_measured("examples/my_paper_runs.csv", paper="my_paper",
    ...                      formulas_path=["examples/my_paper.toml"])   # doctest: +SKIP
    >>> [(r.quantity, r.holds) for r in t.rows]                          # doctest: +SKIP
    """
    from .reports.measured import measured_table
    key = _name(paper, "paper") or ""
    return measured_table(key, csv_path, setting=_name(setting, "setting", optional=True),
                          formulas_path=formulas_path, formula=formula, mapping=mapping)


def to_latex(df, *, caption: str | None = None, label: str | None = None, index: bool = False,
             digits: int = 3, layout: str = "auto") -> str:
    """A DataFrame of boundcalc (``formulas().to_frame()``, ``papers().to_frame()``,
    ``symbols().to_frame()``, a comparison table's or a report's ``to_frame()``, or your own) as a
    LaTeX table that compiles with pdflatex: numbers decimal-aligned in siunitx ``S`` columns,
    text wrapping in the line's width, breaking across pages; its first line names the
    packages (:func:`boundcalc.reports.frames.frame_latex`).

    >>> import boundcalc
    >>> tex = boundcalc.to_latex(boundcalc.symbols("deora2023").to_frame())
    >>> tex.splitlines()[0].startswith("% requires")
    True
    """
    from .reports.frames import frame_latex
    return frame_latex(df, caption=caption, label=label, index=index, digits=digits, layout=layout)


class FormulaList(list):
    """A list of :class:`Formula` with ``.to_frame()`` (one row per formula)."""

    def to_frame(self):
        """A pandas DataFrame, one row per formula."""
        from .reports.frames import formulas_frame
        return formulas_frame(self)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


class PaperList(list):
    """A list of the papers (:class:`boundcalc.registry.model.Paper`) with ``.to_frame()``."""

    def to_frame(self):
        """A pandas DataFrame, one row per paper."""
        from .reports.frames import papers_frame
        return papers_frame(self)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


class SymbolList(list):
    """A list of symbols (:class:`boundcalc.registry.model.Symbol`) with ``.to_frame()``
    (one row per symbol: paper, name, description, domain, default, role, latex)."""

    def to_frame(self):
        """A pandas DataFrame, one row per symbol."""
        from .reports.frames import symbols_frame
        return symbols_frame(self)

    def _repr_html_(self) -> str:
        return self.to_frame().to_html(index=False)


def symbols(paper: str | None = None, *, formulas_path: list[str] | None = None) -> SymbolList:
    """Every symbol of every paper, or of one paper, in the order the files declare them."""
    paper = _name(paper, "paper", optional=True)
    reg = _registry(formulas_path)
    ps = [reg.paper(paper)] if paper is not None else list(reg.papers.values())
    return SymbolList(s for p in ps for s in p.symbols.values())


def formulas(paper: str | None = None, *, formulas_path: list[str] | None = None) -> FormulaList:
    """Every formula, or those of one paper (its key, e.g. ``"deora2023"``)."""
    paper = _name(paper, "paper", optional=True)
    reg = _registry(formulas_path)
    return FormulaList(Formula(s, reg) for s in reg.all_specs(paper))


def papers(*, formulas_path: list[str] | None = None) -> PaperList:
    """Every paper of the registry: the packaged files, those of ``formulas_path`` and of
    ``$BOUNDCALC_FORMULAS``."""
    return PaperList(_registry(formulas_path).papers.values())


def paper(key: str, *, formulas_path: list[str] | None = None):
    """One paper of the registry (its symbols, formulas, settings, checks and references)."""
    return _registry(formulas_path).paper(_name(key, "paper key"))
