"""A comparison table: the bounds of a paper beside what the engine measured.

A :class:`Table` holds one :class:`Row` per compared quantity; it knows no format. The
printers of :mod:`boundcalc.reports.printers` render it for people (rich, Markdown, HTML
in a notebook), for papers (a LaTeX table that fits the text width) and for scripts
(CSV, JSON with numbers as numbers and full precision in ``*_exact``); ``to_frame()`` is
a pandas DataFrame with float columns and the exact values beside them. The ``to_*``
methods are thin calls to those printers.

Numbers may be Python ints/floats, NumPy scalars, :class:`mpmath.mpf` of any size
(a bound of ``1e400`` is printed as ``1.00e400``, never ``inf``), a
:class:`fractions.Fraction` or a :class:`boundcalc.registry.values.Value`.

How ``holds`` is decided when it is not given (``None``):

* ``kind="upper"``: the bound is an upper bound, holds iff ``bound >= measured``;
* ``kind="lower"``: holds iff ``bound <= measured``;
* ``kind="condition"``: a hypothesis of the theorem in the form "the value used must
  reach the required value": ``bound`` is the required value, ``measured`` the value
  used, holds iff ``measured >= bound``. For a hypothesis of the other direction
  (e.g. a step size ``eta <= 1/L``) pass ``holds`` explicitly. When
  ``hypotheses_met`` is not given for a condition row it is set to ``holds``;
* ``kind="info"``: nothing is asserted, ``holds`` stays ``None``.

``holds`` also stays ``None`` when ``bound`` or ``measured`` is missing or NaN.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import BoundcalcError
from ..mpmath_import import mpmath

KINDS = ("upper", "lower", "condition", "info")
from .printers.cells import COLUMNS  # noqa: F401  (the columns people read)

_JSON_DIGITS = 17


# numbers and escaping: the one formatter (numfmt) and the one escaper (escape); the names
# are re-exported here for code that imported them from this module
from .escape import latex_escape, md_cell  # noqa: F401
from .numfmt import (  # noqa: F401
    as_number,
    exact_str,
    float_or_mpf,
    float_or_nan,
    float_or_none,
    fmt_full,
    fmt_human,
    fmt_latex_num,
    fmt_settings,
    is_finite,
    json_setting,
    sci_parts,
    yesno,
)


# ---------------------------------------------------------------------------- Row / Table
@dataclass
class Row:
    """One compared quantity (see the module docstring for how ``holds`` is decided)."""
    quantity: str
    source: str
    bound: object = None
    measured: float | None = None
    kind: str = "upper"
    formula: str = ""
    holds: bool | None = None
    hypotheses_met: bool | None = None
    hypotheses: str = ""
    constant: str = ""
    note: str = ""
    latex: str = ""        # the quantity for LaTeX output: math, or text with math in $...$ (default: the words)
    # a measured value that is a mean over seeds: its interval, the number of runs and the
    # method (``interval``: "95% Student-t, 3 degrees of freedom"); None/"" for one value
    measured_low: float | None = None
    measured_high: float | None = None
    seeds: int | None = None
    interval: str = ""
    # the inputs of the run the row was measured in (symbol -> its exact text, as given), for
    # plotting against one of them (``compare --measured --plot``); empty for engine rows
    inputs: dict = field(default_factory=dict)

    def __post_init__(self):
        # certified digits of boundcalc Values, kept for the exact columns
        given: tuple[tuple[str, Any], ...] = (("bound", self.bound), ("measured", self.measured))
        self._digits = {k: v.digits for k, v in given if isinstance(getattr(v, "digits", None), int) and hasattr(v, "mpf")}
        if self.kind not in KINDS:
            raise BoundcalcError(f"row {self.quantity!r}: kind must be one of {', '.join(KINDS)}, "
                                 f"got {self.kind!r}")
        self.bound = as_number(self.bound, what=f"bound of row {self.quantity!r}")
        m = as_number(self.measured, what=f"measured value of row {self.quantity!r}")
        self.measured = float_or_mpf(m) if not isinstance(m, int) else m
        if self.holds is None:
            self.holds = self._decide()
        else:
            self.holds = bool(self.holds)
        if self.hypotheses_met is None and self.kind == "condition":
            self.hypotheses_met = self.holds
        if self.hypotheses_met is not None:
            self.hypotheses_met = bool(self.hypotheses_met)

    def _decide(self) -> bool | None:
        b, m = self.bound, self.measured
        if self.kind == "info" or b is None or m is None:
            return None
        b = b if isinstance(b, int) else mpmath.mpf(b)
        m = m if isinstance(m, int) else mpmath.mpf(m)
        if (not isinstance(b, int) and mpmath.isnan(b)) or (not isinstance(m, int) and mpmath.isnan(m)):
            return None
        if self.kind == "upper":
            return bool(b >= m)
        if self.kind == "lower":
            return bool(b <= m)
        return bool(m >= b)   # condition: the value used reaches the required value

    @property
    def ratio(self):
        """bound / measured: a float, or an mpf when outside the double range; None when
        either is missing, not finite, or measured is 0."""
        b, m = self.bound, self.measured
        if not (is_finite(b) and is_finite(m)) or m == 0:
            return None
        from ..mpctx import context, export
        mp = context(dps=30)
        return float_or_mpf(export(mp.mpf(b) / mp.mpf(m)))

    def to_json(self) -> dict:
        """Numbers as JSON numbers (``null`` when missing or outside the double range);
        ``*_exact`` keeps the full-precision value (a decimal string) wherever the float
        is not exact: big integers, certified mpmath values, values beyond 1e308."""
        from .printers.json import to_json
        return to_json(self)


def _setting_dtype(v) -> str:
    """The column type of a setting's value: ``boolean``, ``int64`` (within its range),
    ``float64``, or ``object`` for anything else (a string, a list)."""
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int) and -2 ** 63 <= v < 2 ** 63:
        return "int64"
    if isinstance(v, float):
        return "float64"
    return "object"


FRAME_COLUMNS = ("quantity", "source", "kind", "formula", "bound", "measured", "measured_low", "measured_high",
                 "seeds", "interval", "ratio", "holds", "hypotheses_met", "hypotheses", "constant", "note",
                 "bound_exact", "measured_exact", "ratio_exact")


@dataclass
class Table:
    """The bounds of one paper beside the measurements, with every setting used."""
    paper: str
    title: str
    settings: dict
    seed: int | None          # None: not one engine run (a user's CSV of runs)
    rows: list[Row]
    notes: list[str] = field(default_factory=list)
    # the runs' input symbols (compare --measured): symbol -> (its LaTeX, its description),
    # for the axis a plot against one of them names
    input_symbols: dict = field(default_factory=dict)

    def __post_init__(self):
        for r in self.rows:
            if not isinstance(r, Row):
                raise BoundcalcError(f"table {self.paper!r}: rows must be Row objects, got {type(r).__name__}")

    # -- machines (every format is a printer: reports/printers/)
    def to_json(self) -> dict:
        from .printers.json import to_json
        return to_json(self)

    def to_frame(self):
        """A :class:`pandas.DataFrame`, one row per compared quantity: ``bound``,
        ``measured`` and ``ratio`` as float64 (``inf`` beyond the double range, NaN when
        missing), ``holds``/``hypotheses_met`` as nullable booleans, ``measured_low`` and
        ``measured_high`` (float64, NaN for a single run) the interval of a measured mean over
        ``seeds`` runs (``Int64``) by the method ``interval`` says, and ``*_exact``
        (strings) with the exact value wherever the float is not exact. Each setting is
        also a column ``settings.NAME`` (the same value on every row, so frames of several
        tables concatenate into one tidy frame), numeric where the value is a number
        (``int64``/``float64``/``boolean``); settings, seed, paper and title are in
        ``frame.attrs`` too."""
        import pandas as pd
        data: dict[str, list] = {c: [] for c in FRAME_COLUMNS}
        for r in self.rows:
            for c in ("quantity", "source", "kind", "formula", "holds", "hypotheses_met", "hypotheses",
                      "constant", "note", "seeds", "interval"):
                data[c].append(getattr(r, c))
            for c in ("measured_low", "measured_high"):
                data[c].append(float_or_nan(getattr(r, c)))
            for c, v in (("bound", r.bound), ("measured", r.measured), ("ratio", r.ratio)):
                data[c].append(float_or_nan(v))
                data[c + "_exact"].append(exact_str(v, r._digits.get(c)))
        dtypes = {"bound": "float64", "measured": "float64", "ratio": "float64", "holds": "boolean",
                  "hypotheses_met": "boolean", "measured_low": "float64", "measured_high": "float64",
                  "seeds": "Int64"}
        df = pd.DataFrame({c: pd.Series(v, dtype=dtypes.get(c, object)) for c, v in data.items()},
                          columns=list(FRAME_COLUMNS))
        for k, v in self.settings.items():
            df[f"settings.{k}"] = pd.Series([v] * len(df), dtype=_setting_dtype(v))
        df.attrs.update(paper=self.paper, title=self.title, seed=self.seed, settings=dict(self.settings),
                        notes=list(self.notes))
        return df

    def to_csv(self) -> str:
        """The frame of :meth:`to_frame` as CSV (floats round-trip; exact values in the
        ``*_exact`` columns)."""
        from .printers.csv import to_csv
        return to_csv(self)

    # -- people
    def display_frame(self):
        """The table as people read it (short numbers as text), a DataFrame."""
        from .printers.cells import display_frame
        return display_frame(self)

    def to_markdown(self) -> str:
        from .printers.markdown import to_markdown
        return to_markdown(self)

    def _repr_html_(self) -> str:
        from .printers.html import to_html
        return to_html(self)

    def to_rich(self):
        from .printers.rich import to_rich
        return to_rich(self)

    def __rich__(self):
        return self.to_rich()

    # -- papers
    def to_latex(self, label: str | None = None, long: bool = False, env: str = "table*",
                 notes: str = "short") -> str:
        """A float table (or with ``long`` one that breaks across pages) that fits the text
        width (see :mod:`boundcalc.reports.printers.latex`)."""
        from .printers.latex import to_latex
        return to_latex(self, label=label, long=long, env=env, notes=notes)


def diverged_table(paper: str, title: str, settings: dict, seed: int, *, run: str, source: str,
                   error, step_name: str, step_value) -> Table:
    """The table of a comparison whose training run diverged (``error``: an
    ``engine.budget.Divergence``): one row saying at which step, and no measurement."""
    step = error.step
    return Table(paper, f"{title}: the {run} diverged", dict(settings), seed,
                 [Row(f"{run}: diverged at step {step}", source, kind="info",
                      note=f"non-finite {error.what} at step {step} with {step_name} = {step_value}; the run "
                           "was stopped and nothing is compared")],
                 [f"diverged at step {step}: the run was stopped and no measurement is reported"])
