"""Runs: the measuring side of boundcalc, below the reports that print it.

* :mod:`.sweep`  -- run a function over many configurations (joblib or a Dask cluster),
  cached on disk;
* :mod:`.fit`    -- log-log slopes with confidence intervals over seeds;
* :mod:`.intervals` -- the mean over seeds with its Student-t interval;
* :mod:`.measured_csv` -- a CSV file of your own runs, read and checked.

Submodules are imported on demand so that ``import boundcalc.runs`` stays light.
"""
# the package exports no names itself: its modules are imported as modules (listed above)
__all__: list[str] = []
