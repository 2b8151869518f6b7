"""The ``compare`` and ``reproduce`` commands (called from :mod:`boundcalc.cli.app`).

Everything heavy (NumPy, matplotlib, joblib, the engine, the experiment modules) is
imported inside the functions, so importing this module costs nothing and the other
commands keep their fast start-up.
"""
from __future__ import annotations

import sys

from typer.core import TyperCommand

from ..errors import BoundcalcError
from ..parallel import worker_count
from ..paths import user_path

FORMATS = ("rich", "markdown", "latex", "csv", "json")
BACKENDS = ("loky", "dask")


# ---------------------------------------------------------------------------- help text
def settings_help() -> str:
    """The per-paper settings of ``compare``, read from each experiment module's
    ``SETTINGS`` (:func:`boundcalc.experiments.compare_settings`, as text)."""
    from ..experiments import compare_settings
    from ..reports.printers import render
    return render(compare_settings(), "text")


class LazyEpilogCommand(TyperCommand):
    """A command whose epilog (the per-paper settings) is computed only when --help is
    shown, so that building the CLI does not import the experiments."""

    @property
    def epilog(self):
        try:
            return settings_help()
        except Exception as e:        # the help must never crash
            return f"(the paper-specific settings could not be listed: {e})"

    @epilog.setter
    def epilog(self, value):
        pass


# ---------------------------------------------------------------------------- helpers
def _set_max_memory(text: str | None) -> None:
    """--max-memory: validated now, passed on through the environment (worker processes
    inherit it; engine.budget reads it)."""
    if text is None:
        return
    import os

    from ..engine.budget import ENV_VAR, parse_size
    parse_size(text)
    os.environ[ENV_VAR] = str(text)


def _cache(no_cache: bool):
    """The sweep cache argument; the cache folder is checked here, before any work."""
    if no_cache:
        return False
    from ..runs.sweep import check_cache_dir, resolve_cache_dir
    check_cache_dir(resolve_cache_dir(None))
    return None


# --format -> (the printer's format, its settings from render_table's arguments): the rich
# table written to a file or a pipe is the plain text of its rendering
TABLE_PRINTERS = {"rich": ("text", lambda o: {"width": o.get("width")}),
                  "markdown": ("markdown", lambda o: {}),
                  "latex": ("latex", lambda o: {k: o[k] for k in ("label", "long", "env", "notes") if k in o}),
                  "csv": ("csv", lambda o: {}),
                  "json": ("json", lambda o: {})}
LATEX_ONLY = {"long": False, "env": "table*", "notes": "short"}      # options of --format latex alone


def render_table(t, fmt: str, **options) -> str:
    """The table as text in ``fmt`` (``rich`` -> plain text of the rich table); ``options``:
    ``label``, ``long``, ``env``, ``notes`` (LaTeX), ``width`` (rich)."""
    if fmt not in TABLE_PRINTERS:
        raise BoundcalcError(f"unknown --format {fmt!r}; use one of {', '.join(FORMATS)}")
    from ..reports.printers import render
    name, settings = TABLE_PRINTERS[fmt]
    return render(t, name, **settings({k: v for k, v in options.items() if v is not None}))


def check_latex_options(fmt: str, latex: dict) -> None:
    """--long, --env and --notes: valid values, and only with --format latex."""
    from ..reports.printers.latex import ENVS, NOTES
    if latex.get("env") not in (None, *ENVS):
        raise BoundcalcError(f"unknown --env {latex['env']!r}; use one of {', '.join(ENVS)}")
    if latex.get("notes") not in (None, *NOTES):
        raise BoundcalcError(f"unknown --notes {latex['notes']!r}; use one of {', '.join(NOTES)}")
    given = [k for k, v in latex.items() if v is not None and v != LATEX_ONLY[k]]
    if given and fmt != "latex":
        raise BoundcalcError(f"--{given[0]} applies to --format latex only (got --format {fmt})")


def validate_settings(mod, paper: str, settings: dict[str, str]) -> None:
    known = getattr(mod, "SETTINGS", None)
    if known is None:
        return
    unknown = [k for k in settings if k not in known]
    if unknown:
        names = ", ".join("--" + k.replace("_", "-") for k in known) or "(none)"
        raise BoundcalcError(f"unknown setting --{unknown[0].replace('_', '-')} for {paper}; "
                             f"its settings are: {names}")


# ---------------------------------------------------------------------------- compare
def _check_table_outputs(fmt: str, output: str | None, plot: str | None, force: bool, *,
                         html: str | None = None, latex: dict | None = None,
                         figsize: str = "page") -> None:
    """``--format``, ``--output``, ``--html``, ``--plot`` (and its ``--figsize``) and the LaTeX
    options of a table command, checked before any work."""
    from .output import check_outputs, is_stdout, refuse_stdout_figures
    if fmt not in FORMATS:
        raise BoundcalcError(f"unknown --format {fmt!r}; use one of {', '.join(FORMATS)}")
    check_latex_options(fmt, dict(latex or {}))
    outputs: list[tuple[str, object]] = [("--output", output), ("--html", html)]
    for flag, p in (("--output", output), ("--plot", plot), ("--html", html)):
        if p is not None and not str(p).strip():
            raise BoundcalcError(f"{flag}: an empty path; give a file name")
    if html is not None and is_stdout(html):
        raise BoundcalcError("--html: give a file name for the page")
    refuse_stdout_figures("--plot", plot)
    from ..reports.plots import check_figsize
    check_figsize(figsize)
    if plot is not None:
        # the files of one panel, and every figure of the name's panels already there
        # (FILE-losses.png ...): refused before any work unless --force; which panels are
        # written is known once the table is, and they are checked again then
        from ..reports.plots import targets
        base = targets(plot)
        # the name given is probed itself (created and removed): an unwritable folder is named
        # by the user's path, and --output or --html naming the same file is refused here
        outputs += [("--plot", f) for f in base if f == base[0] or f.exists()]
        stem = base[0].with_suffix("")
        if stem.parent.is_dir():
            import glob
            outputs += [("--plot", f) for f in sorted(stem.parent.glob(glob.escape(stem.name) + "-*"))
                        if f.suffix in (".png", ".pdf")]
    check_outputs(outputs, force=force)       # every output checked before any work


def _emit_table(t, fmt: str, output: str | None, plot: str | None, *, latex: dict | None = None,
                html: str | None = None, command: str = "", figsize: str = "page", force: bool = False,
                versus: str | None = None, measured: bool = False) -> None:
    """The table in ``fmt`` to ``--output`` (a file, or '-') or standard output, then the
    ``--html`` page (``command`` is its re-run line) and the ``--plot`` figures (one file per
    panel: every one checked, beside ``--output`` and ``--html``, before anything is written).
    ``measured``: the table of ``--measured``, plotted against ``versus`` (its varying input)."""
    from .output import check_outputs, console, write_output
    latex = dict(latex or {})
    if plot is not None:
        from ..reports import plots
        files = (plots.measured_versus_targets(t, plot, versus, figsize) if measured
                 else plots.bound_vs_measured_targets(t, plot, figsize))
        check_outputs([("--output", output), ("--html", html), *(("--plot", f) for f in files)], force=force)
    if output is not None:                    # a file, or '-' (standard output)
        write_output(output, render_table(t, fmt, **latex) or "", what="table")
    elif fmt == "rich":
        console().print(t.to_rich())
    else:
        sys.stdout.write(render_table(t, fmt, **latex) or "")
    if html is not None:
        from ..reports.printers.html import to_html
        write_output(html, to_html(t, page=True, command=command), what="page")
    if plot is not None:
        written = (plots.measured_versus(t, plot, versus=versus, figsize=figsize) if measured
                   else plots.bound_vs_measured(t, plot, figsize=figsize))
        print("plot written: " + ", ".join(str(p) for p in written), file=sys.stderr)


def compare(paper: str, settings: dict[str, str], *, seed: int = 0, jobs: int = 1, fmt: str = "rich",
            output: str | None = None, force: bool = False, plot: str | None = None,
            no_cache: bool = False, max_memory: str | None = None, latex: dict | None = None,
            html: str | None = None, figsize: str = "column", argv: list[str] | None = None) -> None:
    """``latex``: ``long``, ``env``, ``notes`` of the LaTeX table (``--format latex``); ``html``: also
    write the table as a page; ``figsize``: the --plot width; ``argv``: the settings as given (the
    page's re-run command)."""
    import shlex

    from ..experiments import experiment_module
    from ..reports.table import Table
    jobs = worker_count(jobs)
    _check_table_outputs(fmt, output, plot, force, html=html, latex=latex, figsize=figsize)
    _set_max_memory(max_memory)
    cache = _cache(no_cache)
    mod = experiment_module(paper)
    validate_settings(mod, paper, settings)
    from ..engine.budget import numpy_quiet
    with numpy_quiet() as warned:
        t = mod.compare(seed=seed, jobs=jobs, cache_dir=cache, **settings)
    if warned.summary():
        print(f"note: {warned.summary()}", file=sys.stderr)
    if not isinstance(t, Table):
        raise BoundcalcError(f"the experiments of {paper} returned {type(t).__name__}, not a Table")
    cmd = shlex.join(["boundcalc", "compare", paper, "--seed", str(seed), *(argv or []), "--html", html or ""])
    _emit_table(t, fmt, output, plot, latex=latex, html=html, command=cmd, figsize=figsize, force=force)


def compare_measured(paper: str, csv_path: str, *, setting: str | None, fmt: str, output: str | None,
                     force: bool, plot: str | None, extra: list[str], latex: dict | None = None,
                     html: str | None = None, figsize: str = "column", mapping: list[str] | None = None,
                     versus: str | None = None) -> None:
    """``compare PAPER --measured runs.csv``: the table of :func:`boundcalc.api.compare_measured`
    in ``fmt``, to standard output or ``--output``, the ``--html`` page and the ``--plot`` figures
    (against ``versus``, :func:`boundcalc.reports.plots.measured_versus`)."""
    import shlex

    from ..api import compare_measured as build
    from ..paths import user_path
    from .state import formula_paths
    if extra:
        raise BoundcalcError(f"unexpected {extra[0]!r} with --measured: the inputs of each run are the "
                             "CSV's columns (and --setting)")
    if versus is not None and plot is None:
        raise BoundcalcError("--versus names the x axis of --plot; give --plot FILE too")
    _check_table_outputs(fmt, output, plot, force, html=html, latex=latex, figsize=figsize)
    from ..runs.measured_csv import parse_map
    t = build(user_path(csv_path), paper=paper, setting=setting, formulas_path=formula_paths(),
              mapping=parse_map(mapping))
    cmd = shlex.join(["boundcalc", "compare", paper, "--measured", csv_path,
                      *(["--setting", setting] if setting else []),
                      *[a for m in (mapping or []) for a in ("--map", m)], "--html", html or ""])
    _emit_table(t, fmt, output, plot, latex=latex, html=html, command=cmd, figsize=figsize, force=force,
                versus=versus, measured=True)


# ---------------------------------------------------------------------------- reproduce
def list_reproductions(json: bool = False) -> None:
    from ..experiments import listing
    from .output import console, emit_json
    r = listing()
    if json:
        from ..reports.printers.json import to_json
        emit_json(to_json(r))
        return
    from ..reports.printers.rich import print_rich
    print_rich(r, console=console())


def reproduce(name: str | None, *, list_: bool = False, full: bool = False, json: bool = False,
              seed: int = 0, jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
              plot_dir: str | None = None, no_cache: bool = False, force: bool = False,
              max_memory: str | None = None, settings: dict[str, str] | None = None,
              figsize: str = "page") -> None:
    from .output import console, emit_json, refuse_stdout_figures
    if list_ or name == "list":
        list_reproductions(json)
        return
    if not name:
        raise BoundcalcError("give the name of a reproduction (boundcalc reproduce --list shows them)")
    if backend not in BACKENDS:
        raise BoundcalcError(f"unknown --backend {backend!r}; use one of {', '.join(BACKENDS)}")
    if backend == "dask" and not scheduler:
        raise BoundcalcError("--backend dask needs --scheduler tcp://HOST:PORT")
    if scheduler and backend != "dask":
        raise BoundcalcError("--scheduler is only used with --backend dask")
    jobs = worker_count(jobs)
    refuse_stdout_figures("--plot-dir", plot_dir)
    from ..reports.plots import check_figsize
    check_figsize(figsize)
    if plot_dir:
        d = user_path(plot_dir)
        if d.exists() and not d.is_dir():
            raise BoundcalcError(f"--plot-dir {plot_dir!r} exists and is not a folder")
        from .output import check_outputs
        check_outputs([("--plot-dir", d / ".boundcalc-write-test")], force=force)
    if plot_dir and not force and d.exists() and (not d.is_dir() or any(d.iterdir())):
        raise BoundcalcError(f"--plot-dir {plot_dir!r} exists and is not an empty folder: figures there "
                             "could be overwritten; use a new folder or pass --force")
    _set_max_memory(max_memory)
    cache = _cache(no_cache)
    from ..experiments import reproduction
    rep = reproduction(name)
    settings = settings or {}
    for k in settings:
        if k not in rep.settings:
            known = ", ".join("--" + s.replace("_", "-") for s in rep.settings) or "none"
            raise BoundcalcError(f"unknown option --{k.replace('_', '-')} for reproduction {name}; "
                                 f"its settings: {known}")
    if backend != "loky" and not rep.sweeps:
        raise BoundcalcError(f"reproduction {name} runs in this process alone (no sweep): --backend "
                             f"{backend}{' and --scheduler' if scheduler else ''} would not be used")
    if backend == "dask":
        from ..runs.sweep import check_scheduler
        scheduler = check_scheduler(scheduler)              # reached and answering, before any work
    from ..engine.budget import Divergence, numpy_quiet
    from ..reports.plots import paper_style
    try:
        with numpy_quiet() as warned, paper_style(figsize):
            data = rep.run(seed=seed, full=full, jobs=jobs, backend=backend, scheduler=scheduler,
                           cache_dir=cache, plot_dir=plot_dir, progress=True, **settings)
    except Divergence as e:        # a run inside the reproduction: one line, not a traceback
        raise BoundcalcError(f"reproduction {name}: a training run {e}; use a smaller step size") from None
    if warned.summary():
        print(f"note: {warned.summary()}", file=sys.stderr)
    if json:
        emit_json(data)
        return
    console().print(rep.render(data))
