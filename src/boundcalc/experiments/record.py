"""Run a reproduction and record it: ``python -m boundcalc.experiments.record NAME``.

Writes into ``--out`` (default ``examples/NAME``), in a subfolder ``reduced/`` or ``full/``:
``NAME.json`` (the result, plus ``wall_seconds``, ``command`` and the machine's core count),
``README.md`` (the paper-vs-ours table, conclusions and the figures) and the figures (PNG and
PDF) the reproduction draws.  Caches go to ``$BOUNDCALC_CACHE`` (never into ``--out``).

Options: ``--full``, ``--seed N``, ``--jobs N`` (default: one worker per core), ``--out DIR``, ``--set NAME=VALUE`` (repeatable;
passed to the reproduction as keyword settings, e.g. ``--set teacher=authors-code``).
``--replot`` trains nothing: it redraws the figures of a recorded folder from its JSON (for
reproductions whose figures are a function of their result) and rewrites its README, keeping
the recorded wall time and command, and saying that the figures were redrawn.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
import time
from pathlib import Path


def _jsonable(x):
    import numpy as np
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, np.generic):
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return str(x)


def _value(v: str):
    if v[:1] in "[{":                       # lists, e.g. --set 'cells=[[4096,400]]'
        try:
            return json.loads(v)
        except ValueError:
            pass
    for conv in (int, float):
        try:
            return conv(v)
        except ValueError:
            pass
    return v


def _flat(x) -> bool:
    return not isinstance(x, (dict, list))


def dumps(x, level: int = 0) -> str:
    """JSON as ``json.dumps(indent=1)`` writes it, except that a list of numbers (or strings)
    stays on one line and a list of such lists puts one per line: a recorded trajectory or
    per-seed series reads as rows instead of one number per line.  ``json.loads`` gives back
    the same object."""
    pad = " " * (level + 1)
    if isinstance(x, dict):
        if not x:
            return "{}"
        body = ",\n".join(f"{pad}{json.dumps(k)}: {dumps(v, level + 1)}" for k, v in x.items())
        return "{\n" + body + "\n" + " " * level + "}"
    if isinstance(x, list):
        if all(_flat(v) for v in x):
            return json.dumps(x)
        body = ",\n".join(pad + dumps(v, level + 1) for v in x)
        return "[\n" + body + "\n" + " " * level + "]"
    return json.dumps(x)


def record(name: str, *, full: bool = False, seed: int = 0, jobs: int = 1, out=None,
           settings: dict | None = None, argv=None) -> Path:
    """Run reproduction ``name`` and write its JSON, Markdown and figures; returns the folder.
    The wall time recorded is this run's (a cache hit makes it short: the sweep cache is keyed
    on the package's source, so a recording after any code change recomputes)."""
    from ..experiments import reproduction
    from ..parallel import worker_count
    from ..runs import sweep
    from .paper_vs_ours import markdown_report
    jobs = worker_count(jobs)
    rep = reproduction(name)
    folder = Path(out or Path("examples") / name) / ("full" if full else "reduced")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        from ..errors import BoundcalcError
        raise BoundcalcError(f"--out {str(folder)!r}: cannot create the folder ({e.strerror or e})") from None
    cache = os.environ.get("BOUNDCALC_CACHE")
    before, load0 = sweep.tally(), os.getloadavg()[0]
    t0 = time.perf_counter()
    data = rep.run(seed=seed, full=full, jobs=jobs, cache_dir=cache, plot_dir=folder, progress=False,
                   **(settings or {}))
    wall = time.perf_counter() - t0
    after = sweep.tally()
    cmd = "python -m boundcalc.experiments.record " + " ".join(shlex.quote(a) for a in (argv or [name]))
    data = dict(data, wall_seconds=wall, command=cmd, cpu_count=os.cpu_count(),
                machine={"jobs": jobs, "niceness": os.nice(0),
                         "load_average_1min": [round(load0, 2), round(os.getloadavg()[0], 2)]},
                sweep_points={k: after[k] - before[k] for k in after},
                plots=[Path(p).name for p in data.get("plots", [])])
    (folder / f"{name}.json").write_text(dumps(_jsonable(data)) + "\n", encoding="utf-8")
    (folder / "README.md").write_text(markdown_report(data, wall_seconds=wall, command=cmd), encoding="utf-8")
    return folder


def replot(name: str, *, full: bool = False, out=None) -> Path:
    """Redraw the figures of the recording in ``out/NAME/{reduced,full}`` from its JSON."""
    from .._version import __version__
    from ..errors import BoundcalcError
    from ..experiments import reproduction
    from .paper_vs_ours import markdown_report

    rep = reproduction(name)
    if rep.plot is None:
        raise BoundcalcError(f"{name}: its figures are drawn during the run, not from its JSON; "
                             "record it again to redraw them")
    folder = Path(out or Path("examples") / name) / ("full" if full else "reduced")
    path = folder / f"{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BoundcalcError(f"no recording at {str(path)!r}; record it first") from None
    except ValueError as e:
        raise BoundcalcError(f"{str(path)!r} is not valid JSON ({e})") from None
    plots = [Path(p).name for p in rep.plot(data, folder)]
    what = "figures"
    if rep.rows is not None:                 # the verdicts, too, are a function of the recorded numbers
        data = dict(data, **rep.rows(data))
        what = "figures and paper-vs-ours table"
    data = dict(data, plots=plots, figures_note=f"{what} redrawn from this JSON by `record {name} "
                f"--replot{' --full' if full else ''}` (boundcalc {__version__}); the measured numbers are the run's")
    path.write_text(dumps(_jsonable(data)) + "\n", encoding="utf-8")
    (folder / "README.md").write_text(markdown_report(data, wall_seconds=data.get("wall_seconds"),
                                                      command=data.get("command")), encoding="utf-8")
    return folder


def main(argv=None) -> int:
    from ..errors import BoundcalcError

    argv = list(sys.argv[1:] if argv is None else argv)
    ap = argparse.ArgumentParser(prog="python -m boundcalc.experiments.record")
    ap.add_argument("name")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=None,
                    help="worker processes, one BLAS thread each (default: one per core)")
    ap.add_argument("--out")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--replot", action="store_true", help="redraw a recording's figures from its JSON")
    a = ap.parse_args(argv)
    if a.replot:
        if a.set or a.jobs is not None or a.seed != 0:
            print("error: --replot takes only NAME, --full and --out (it trains nothing)", file=sys.stderr)
            return 2
        try:
            folder = replot(a.name, full=a.full, out=a.out)
        except BoundcalcError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"redrawn: {folder}")
        return 0
    settings = {}
    for kv in a.set:
        if "=" not in kv:
            print(f"error: --set expects NAME=VALUE, got {kv!r}", file=sys.stderr)
            return 2
        k, v = kv.split("=", 1)
        settings[k.strip().replace("-", "_")] = _value(v.strip())
    try:
        folder = record(a.name, full=a.full, seed=a.seed, jobs=-1 if a.jobs is None else a.jobs, out=a.out,
                        settings=settings, argv=argv)
    except BoundcalcError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"recorded: {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
