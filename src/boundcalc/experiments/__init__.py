"""Experiments: each paper's bounds beside what the NumPy engine measures.

One module per paper (``boundcalc.experiments.<paper>``) exposes

* ``SETTINGS: dict[str, tuple[default, help]]`` -- the settings ``compare`` accepts
  (``boundcalc compare PAPER --NAME VALUE``; values arrive as strings from the CLI);
* ``compare(*, seed=0, jobs=1, cache_dir=None, **settings) -> reports.table.Table``;
* ``REPRODUCTIONS: dict[str, Reproduction]`` -- the paper's figures/tables reproduced.

This package only knows the list of papers and imports their modules on demand, so
that importing it costs nothing (no NumPy).

>>> from boundcalc.experiments import PAPERS
>>> PAPERS
('deora2023', 'anon2025', 'tarzanagh2023', 'arda2026')
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from ..errors import BoundcalcError

PAPERS = ("deora2023", "anon2025", "tarzanagh2023", "arda2026")


@dataclass
class Reproduction:
    """A figure or table of a paper, reproduced.

    ``run(*, seed=0, full=False, jobs=1, backend="loky", scheduler=None, cache_dir=None,
    plot_dir=None, progress=True) -> dict`` returns a JSON-serialisable dict (every number
    printed, the paper's reported numbers beside ours, paths of the plots written);
    ``render(data)`` turns that dict into a rich renderable (or a string) for people;
    ``settings``: the names of the extra settings ``run`` accepts as strings from the command
    line (``boundcalc reproduce NAME --teacher authors-code``); ``plot(data, folder)``, where
    the figures are a function of the returned dict alone, draws them again from a recording.
    ``run`` estimates the memory of its largest unit of work (the engine's
    ``memory_estimate`` / ``trajectory_bytes``) and calls ``engine.budget.check_memory``
    before it allocates, as ``compare`` does, so ``--max-memory`` holds for every
    reproduction (tests/cli/test_app.py runs each one with a 1K budget).
    ``sweeps``: ``run`` does its work through :func:`boundcalc.runs.sweep.run`, so it honours
    ``jobs``, ``backend`` and ``scheduler``; False for one that runs in this process alone (the
    command line then refuses ``--backend dask`` / ``--scheduler`` for it)."""
    name: str
    description: str
    run: Callable[..., dict]
    render: Callable[[dict], object]
    settings: tuple = ()
    plot: Callable[[dict, object], list] | None = None     # figures from the JSON alone (record --replot)
    rows: Callable[[dict], dict] | None = None              # the JSON fields derived from its numbers
                                                            # (paper_vs_ours, conclusions, ...), from the JSON alone
    sweeps: bool = True                                     # honours jobs/backend/scheduler (runs.sweep)


class ExperimentUnavailable(BoundcalcError):
    """A paper's experiment module exists in the list but cannot be imported."""


def _check_paper(paper: str) -> str:
    if paper not in PAPERS:
        raise BoundcalcError(f"unknown paper {paper!r} for experiments; the papers are: {', '.join(PAPERS)}")
    return paper


def experiment_module(paper: str) -> ModuleType:
    """The experiment module of ``paper`` (imported on first use)."""
    _check_paper(paper)
    name = f"{__name__}.{paper}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name:
            raise ExperimentUnavailable(f"the experiments of {paper} are not available "
                                        f"(module {name} is missing)") from None
        raise ExperimentUnavailable(f"the experiments of {paper} cannot be imported: {e}") from e
    except ImportError as e:
        raise ExperimentUnavailable(f"the experiments of {paper} cannot be imported: {e}") from e


def reproductions(*, strict: bool = False) -> dict[str, Reproduction]:
    """Every paper's reproductions by name. Papers whose module cannot be imported are
    skipped (``strict=True`` raises instead); see :func:`unavailable` for which."""
    out: dict[str, Reproduction] = {}
    for paper in PAPERS:
        try:
            mod = experiment_module(paper)
        except ExperimentUnavailable:
            if strict:
                raise
            continue
        for name, rep in getattr(mod, "REPRODUCTIONS", {}).items():
            if name in out:
                raise BoundcalcError(f"reproduction {name!r} is defined twice (again by {paper})")
            out[name] = rep
    return out


def unavailable() -> dict[str, str]:
    """paper -> why its experiment module cannot be imported (empty when all can)."""
    out = {}
    for paper in PAPERS:
        try:
            experiment_module(paper)
        except ExperimentUnavailable as e:
            out[paper] = str(e)
    return out


def reproduction(name: str) -> Reproduction:
    """One reproduction by name, with a clear error naming the known ones."""
    reps = reproductions()
    if name not in reps:
        known = ", ".join(sorted(reps)) or "(none available)"
        missing = unavailable()
        extra = f"; not importable: {', '.join(missing)}" if missing else ""
        raise BoundcalcError(f"unknown reproduction {name!r}; the reproductions are: {known}{extra}")
    return reps[name]


@dataclass(frozen=True)
class ReproductionEntry:
    """One reproduction as ``reproduce --list`` shows it."""
    name: str
    description: str
    settings: tuple[str, ...]          # the options that set it (``--NAME``), in order


@dataclass(frozen=True)
class ReproductionListing:
    """What ``reproduce --list`` shows: every reproduction, and the papers whose experiment
    module cannot be imported, with why (printed by :mod:`boundcalc.reports.printers`)."""
    entries: tuple[ReproductionEntry, ...]
    unavailable: dict[str, str]


def listing() -> ReproductionListing:
    """The :class:`ReproductionListing` of this installation."""
    from .settings import option
    reps = reproductions()
    return ReproductionListing(tuple(ReproductionEntry(n, r.description, tuple(option(k) for k in r.settings))
                                     for n, r in reps.items()), unavailable())


@dataclass(frozen=True)
class PaperSettings:
    """One paper's settings of ``compare`` (its experiment module's ``SETTINGS``): each
    (name, default, description); ``unavailable``: why its module cannot be imported ('':
    it can)."""
    paper: str
    settings: tuple[tuple[str, object, str], ...]
    unavailable: str = ""


@dataclass(frozen=True)
class CompareSettings:
    """The per-paper settings of ``compare`` (the epilog of ``compare --help``; printed by
    :mod:`boundcalc.reports.printers.text`)."""
    papers: tuple[PaperSettings, ...]


def compare_settings() -> CompareSettings:
    """The :class:`CompareSettings` of every paper of :data:`PAPERS` (a paper whose module
    cannot be imported is named as such)."""
    out = []
    for paper in PAPERS:
        try:
            mod = experiment_module(paper)
        except ExperimentUnavailable as e:
            out.append(PaperSettings(paper, (), str(e)))
            continue
        settings = getattr(mod, "SETTINGS", None) or {}
        out.append(PaperSettings(paper, tuple((name, default, text) for name, (default, text) in settings.items())))
    return CompareSettings(tuple(out))


__all__ = ["PAPERS", "CompareSettings", "ExperimentUnavailable", "PaperSettings", "Reproduction", "ReproductionEntry",
           "ReproductionListing", "compare_settings", "experiment_module", "listing", "reproduction", "reproductions",
           "unavailable"]
