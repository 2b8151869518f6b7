"""Reports: bounds beside measurements.

* :mod:`.table`  -- :class:`~.table.Row` / :class:`~.table.Table` and their formatters
  (rich, Markdown, LaTeX, CSV, JSON);
* :mod:`.sweep`  -- run a function over many configurations (joblib or a Dask cluster),
  cached on disk;
* :mod:`.fit`    -- log-log slopes with confidence intervals over seeds;
* :mod:`.plots`  -- scaling plots, bound-vs-measured bars, 2-D trajectories (PNG + PDF).

Submodules are imported on demand so that ``import boundcalc.reports`` stays light.
"""

# the package exports no names itself: its report modules are imported as modules (listed above)
__all__: list[str] = []
