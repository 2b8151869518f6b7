"""Reports: bounds beside measurements.

* :mod:`.table`  -- :class:`~.table.Row` / :class:`~.table.Table` and their formatters
  (rich, Markdown, LaTeX, CSV, JSON);
* :mod:`.plots`  -- scaling plots, bound-vs-measured bars, 2-D trajectories (PNG + PDF);
* :mod:`.measured` -- a CSV of your own runs beside your bounds (read by
  :mod:`boundcalc.runs.measured_csv`).

The runs themselves -- sweeps, their cache, the statistics over seeds -- are
:mod:`boundcalc.runs`, a layer below.

Submodules are imported on demand so that ``import boundcalc.reports`` stays light.
"""

# the package exports no names itself: its report modules are imported as modules (listed above)
__all__: list[str] = []
