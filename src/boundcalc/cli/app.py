"""boundcalc commands. Each command parses its arguments, calls the API, and prints
(rich tables for people, ``--json`` for scripts). Heavy imports happen inside commands."""
from __future__ import annotations

from typing import List, Optional

import typer

from ..errors import BoundcalcError
from .output import console, emit_json, table

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Compute, audit and measure the bounds of learning-theory papers on transformers.")

_STATE: dict = {"formulas": None}
DYNAMIC = {"allow_extra_args": True, "ignore_unknown_options": True}


@app.callback()
def _main(formulas: Optional[List[str]] = typer.Option(
        None, "--formulas", help="Extra formula file or folder (repeatable; also $BOUNDCALC_FORMULAS).")):
    _STATE["formulas"] = formulas or None


def _paths():
    return _STATE["formulas"]


def _formula(fid: str):
    from ..api import formula
    return formula(fid, formulas_path=_paths())


def _parse_sets(items: list[str] | None) -> dict[str, str]:
    out = {}
    for it in items or []:
        if "=" not in it:
            raise BoundcalcError(f"--set expects name=value, got {it!r}")
        k, v = it.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _dynamic_flags(args: list[str]) -> dict[str, str]:
    """--NAME VALUE / --NAME=VALUE pairs (hyphens in NAME mean underscores)."""
    out, i = {}, 0
    while i < len(args):
        a = args[i]
        if not a.startswith("--") or len(a) < 3:
            raise BoundcalcError(f"unexpected argument {a!r}; inputs are given as --NAME VALUE")
        if "=" in a:
            k, v = a[2:].split("=", 1)
            i += 1
        else:
            if i + 1 >= len(args):
                raise BoundcalcError(f"option {a} needs a value")
            k, v = a[2:], args[i + 1]
            i += 2
        out[k.replace("-", "_")] = v
    return out


# ---------------------------------------------------------------------------- list / show
@app.command("list")
def list_(paper: Optional[str] = typer.Option(None, help="Only this paper's formulas."),
          json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """List the formulas (id, kind, source)."""
    from ..api import formulas
    fs = formulas(paper, formulas_path=_paths())
    if json:
        emit_json([{"id": f.id, "name": f.name, "kind": f.kind, "source": f.source, "status": f.status}
                   for f in fs])
        return
    t = table(f"{len(fs)} formulas", ["id", "kind", "name", "source", "status"])
    for f in fs:
        t.add_row(f.id, f.kind, f.name, f.source, f.status)
    console().print(t)


@app.command()
def show(fid: str = typer.Argument(..., metavar="ID"),
         json: bool = typer.Option(False, "--json")):
    """Expression, LaTeX, source, symbols and dependencies of one formula."""
    f = _formula(fid)
    data = {"id": f.id, "name": f.name, "kind": f.kind, "expr": f.spec.text, "source": f.source,
            "latex_printed": f.latex_printed, "status": f.status, "note": f.note,
            "uses": f.dependencies,
            "symbols": {n: {"description": s.description, "domain": str(s.domain),
                            "latex": s.latex, "role": s.role,
                            "default": None if s.default is None else str(s.default)}
                        for n, s in f.symbol_table.items()},
            "qualifier": ("up to the absolute constant(s) " + ", ".join(f.constants)) if f.constants
            else "exact constant"}
    if json:
        emit_json(data)
        return
    c = console()
    c.print(f"[bold]{f.id}[/bold] — {f.name}  ({f.kind}, {f.status})")
    c.print(f"source: {f.source}")
    c.print(f"expr:   {f.spec.text}")
    if f.latex_printed:
        c.print(f"latex (as printed): {f.latex_printed}")
    if f.dependencies:
        c.print("uses:   " + ", ".join(f.dependencies))
    c.print(data["qualifier"])
    if f.note:
        c.print(f"note:   {f.note}")
    t = table("symbols", ["symbol", "domain", "role", "default", "description"])
    for n, s in data["symbols"].items():
        t.add_row(n, s["domain"], s["role"], s["default"] or "", s["description"])
    c.print(t)


# ---------------------------------------------------------------------------- eval
@app.command("eval")
def eval_(fid: str = typer.Argument(..., metavar="ID"),
          set_: Optional[List[str]] = typer.Option(None, "--set", help="name=value (repeatable); exact decimals."),
          digits: int = typer.Option(15, help="Significant digits (certified)."),
          json: bool = typer.Option(False, "--json")):
    """Evaluate a formula (mpmath, certified digits; never overflows)."""
    f = _formula(fid)
    values = _parse_sets(set_)
    if f.is_relation:
        lhs, rhs = f.sides(digits=digits, **values)
        holds = f.holds(**values)
        data = {"id": f.id, "kind": f.kind, "holds": holds, "lhs": str(lhs), "rhs": str(rhs),
                "qualifier": lhs.qualifier, "status": f.status,
                "defaults_used": {k: str(v) for k, v in lhs.defaults_used.items()}}
        if json:
            emit_json(data)
        else:
            console().print(f"{f.id}: {'holds' if holds else 'does NOT hold'}  "
                            f"(lhs = {lhs}, rhs = {rhs}; {lhs.qualifier}; {f.status})")
        return
    v = f.evaluate(digits=digits, **values)
    data = {"id": f.id, "value": str(v), "float": v.float, "digits": digits, "kind": f.kind,
            "status": f.status, "qualifier": v.qualifier,
            "defaults_used": {k: str(x) for k, x in v.defaults_used.items()}}
    if json:
        emit_json(data)
        return
    console().print(f"{f.id} = {v}   [{v.qualifier}; {f.status}; {digits} certified digits]")


# ---------------------------------------------------------------------------- symbolic
@app.command()
def simplify(fid: str = typer.Argument(..., metavar="ID"), json: bool = typer.Option(False, "--json")):
    """A simplified form of a formula and its LaTeX."""
    s = _formula(fid).simplify()
    if json:
        emit_json(s.__dict__)
        return
    c = console()
    c.print(f"{s.id}\n  original:   {s.original}\n  simplified: {s.simplified}\n  latex:      {s.latex}")


def _ranges(items: list[str] | None) -> dict[str, tuple[str, str]]:
    out = {}
    for it in items or []:
        if "=" not in it or ":" not in it.split("=", 1)[1]:
            raise BoundcalcError(f"--box expects name=lo:hi, got {it!r}")
        k, v = it.split("=", 1)
        a, b = v.split(":", 1)
        out[k.strip()] = (a.strip(), b.strip())
    return out


@app.command()
def monotone(fid: str = typer.Argument(..., metavar="ID"),
             var: str = typer.Option(..., "--var", help="The variable."),
             box: Optional[List[str]] = typer.Option(None, "--box", help="name=lo:hi box for certification."),
             set_: Optional[List[str]] = typer.Option(None, "--set", help="Fix a symbol: name=value."),
             json: bool = typer.Option(False, "--json")):
    """Increasing / decreasing / neither / unknown in VAR, with the evidence level."""
    r = _formula(fid).monotone(var, box=_ranges(box), fixed=_parse_sets(set_))
    if json:
        emit_json(r.to_json())
        return
    console().print(r.describe())


@app.command()
def asymptotic(fid: str = typer.Argument(..., metavar="ID"),
               var: str = typer.Option(..., "--var"),
               with_: Optional[List[str]] = typer.Option(None, "--with",
                                                         help="Let a symbol tend with VAR: K=n, or K=n**2."),
               set_: Optional[List[str]] = typer.Option(None, "--set", help="Fix a symbol: name=value."),
               json: bool = typer.Option(False, "--json")):
    """Leading order as VAR -> oo (others fixed, or tending together with --with)."""
    r = _formula(fid).asymptotic(var, together=_parse_sets(with_), fixed=_parse_sets(set_))
    if json:
        emit_json(r.to_json())
        return
    console().print(r.describe())


@app.command()
def verify(lhs: str = typer.Argument(...), rel: str = typer.Argument(..., metavar="REL"),
           rhs: str = typer.Argument(...),
           assume: Optional[List[str]] = typer.Option(None, "--assume", help="e.g. 'x>=1' (repeatable)."),
           json: bool = typer.Option(False, "--json")):
    """Decide LHS REL RHS (REL one of ==, <=, >=, <, >): proved / disproved / unknown."""
    from ..services.verify import verify as run
    r = run(lhs, rel, rhs, assume or [], formulas_path=_paths())
    if json:
        emit_json(r.to_json())
        return
    console().print(r.describe())


# ---------------------------------------------------------------------------- requirements
def _run_require(var: str | None, paper: str, setting: str | None, ctx: typer.Context, json: bool):
    from ..services.require import require, to_json
    res = require(paper, setting, _dynamic_flags(ctx.args), var=var, formulas_path=_paths())
    data = to_json(res)
    if json:
        emit_json(data)
        return
    from .render import print_require
    print_require(data)


@app.command(context_settings=DYNAMIC)
def require(ctx: typer.Context,
            var: Optional[str] = typer.Argument(None, help="Variable to solve for (default: the setting's)."),
            paper: str = typer.Option(..., "--paper"),
            setting: Optional[str] = typer.Option(None, "--setting", help="Setting (default: the paper's default)."),
            json: bool = typer.Option(False, "--json")):
    """Least value of VAR each requirement of a setting needs. Inputs: --NAME VALUE."""
    _run_require(var, paper, setting, ctx, json)


@app.command("require-heads", context_settings=DYNAMIC)
def require_heads(ctx: typer.Context,
                  theorem: Optional[str] = typer.Option(
                      None, "--theorem", help="dm1/cor2 (default: tokenized mixture, Sec. 5) or thm1."),
                  paper: str = typer.Option("deora2023", "--paper"),
                  json: bool = typer.Option(False, "--json")):
    """Least number of attention heads H each head condition needs, and which binds.

    Every input can be set with a flag named after its symbol: --d 16 --T 8 --R 1.5
    --zeta 0.25 --C 2 ...; with --theorem thm1 give --theta-2inf X --dist0 Y.
    """
    _run_require("H", paper, theorem, ctx, json)


@app.command()
def check(paper: Optional[str] = typer.Argument(None),
          json: bool = typer.Option(False, "--json"),
          only: Optional[List[str]] = typer.Option(None, "--only", help="Run only this check (ID or PAPER.ID; repeatable)."),
          coverage: bool = typer.Option(False, "--coverage",
                                        help="List the paper's numbered results and the checks covering each "
                                             "(none: unaudited); does not run the checks.")):
    """Audit a paper's algebra (all papers if none given): derivations, stated orders,
    monotonicity, restatements, vacuity, identities, engine measurements."""
    if coverage:
        from ..registry import get_registry
        from ..services.check import coverage as cov
        from .render import print_coverage
        keys = [paper] if paper else list(get_registry(_paths()).papers)
        rows = {k: cov(k, formulas_path=_paths()) for k in keys}
        if json:
            emit_json({"coverage": rows})
            return
        for k in keys:
            print_coverage(k, rows[k])
        return
    from ..services.check import run_checks
    from .render import print_check
    report = run_checks(paper, formulas_path=_paths(), only=only)
    if json:
        emit_json(report.to_json())
        return
    print_check(report)


# ---------------------------------------------------------------------------- reports
from .reports import LazyEpilogCommand as _LazyEpilog  # noqa: E402  (typer only; no NumPy)
from . import docs as _docs  # noqa: E402  (sheet, cite; typer only)

app.command("sheet")(_docs.sheet)
app.command("cite")(_docs.cite)


@app.command(context_settings=DYNAMIC, cls=_LazyEpilog)
def compare(ctx: typer.Context,
            paper: str = typer.Argument(..., help="deora2023, anon2025, tarzanagh2023 or arda2026."),
            seed: int = typer.Option(0, "--seed", help="Random seed (data, initialisation)."),
            jobs: int = typer.Option(1, "--jobs", help="Parallel worker processes (-1: all cores)."),
            format_: str = typer.Option("rich", "--format", help="rich, markdown, latex, csv or json."),
            output: Optional[str] = typer.Option(None, "--output", help="Write the table to this file."),
            force: bool = typer.Option(False, "--force", help="Overwrite --output / --plot files."),
            plot: Optional[str] = typer.Option(None, "--plot",
                                               help="Bound-vs-measured bars: FILE(.png|.pdf), both written."),
            no_cache: bool = typer.Option(False, "--no-cache", help="Recompute; do not read or write the cache."),
            json: bool = typer.Option(False, "--json", help="Same as --format json.")):
    """A paper's bounds beside what the engine measures, as a table. Settings: --NAME VALUE."""
    from .reports import compare as run
    run(paper, _dynamic_flags(ctx.args), seed=seed, jobs=jobs, fmt="json" if json else format_,
        output=output, force=force, plot=plot, no_cache=no_cache)


@app.command()
def reproduce(name: Optional[str] = typer.Argument(None, help="A reproduction (see --list), or 'list'."),
              list_: bool = typer.Option(False, "--list", help="List the reproductions."),
              full: bool = typer.Option(False, "--full", help="The paper's full sizes (slow); default: small."),
              json: bool = typer.Option(False, "--json"),
              seed: int = typer.Option(0, "--seed"),
              jobs: int = typer.Option(1, "--jobs", help="Parallel workers (-1: all cores)."),
              backend: str = typer.Option("loky", "--backend", help="loky (local processes) or dask."),
              scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Dask scheduler tcp://HOST:PORT."),
              plot_dir: Optional[str] = typer.Option(None, "--plot-dir", help="Write the figures (PNG+PDF) here."),
              no_cache: bool = typer.Option(False, "--no-cache", help="Recompute; do not read or write the cache."),
              force: bool = typer.Option(False, "--force", help="Allow writing figures into a non-empty --plot-dir.")):
    """Reproduce a figure or table of a paper; our numbers beside the paper's."""
    from .reports import reproduce as run
    run(name, list_=list_, full=full, json=json, seed=seed, jobs=jobs, backend=backend,
        scheduler=scheduler, plot_dir=plot_dir, no_cache=no_cache, force=force)
