"""boundcalc commands. Each command parses its arguments, calls the API, and prints
(rich tables for people, ``--json`` for scripts). Heavy imports happen inside commands.

Values are given the same way everywhere: ``--set name=value`` (repeatable) or
``--name value`` flags named after the symbols (hyphens or underscores); negative
numbers are values (``--set x=-5``, ``--x -5``). Every user-visible string is printed
with rich markup escaped, so labels such as ``[exact constant; as printed]`` survive."""

from pathlib import Path

import typer
from typer.core import TyperCommand

from ..errors import BoundcalcError, UnsatisfiableError
from .exits import EXIT_HELP, Exit, for_monotone, for_require, for_verify
from .output import console, emit_json
from .state import formula_paths, set_formula_paths

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Compute, audit and measure the bounds of learning-theory papers on transformers.",
                  epilog=EXIT_HELP)

DYNAMIC = {"allow_extra_args": True, "ignore_unknown_options": True}


def _version(value: bool):
    if value:
        from .._version import __version__
        print(f"boundcalc {__version__}")
        raise typer.Exit()


@app.callback()
def _main(formulas: list[str] | None = typer.Option(
        None, "--formulas", help="Extra formula file or folder (repeatable; also $BOUNDCALC_FORMULAS)."),
        version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                     help="Print the version and exit.")):
    set_formula_paths(formulas)
    import os
    if formulas or os.environ.get("BOUNDCALC_FORMULAS"):    # every user file is validated up front
        from ..registry import get_registry
        get_registry(formulas)


def hoist_global_options(argv: list[str]) -> list[str]:
    """``--formulas PATH`` is accepted anywhere (``boundcalc check --formulas my.toml my``):
    occurrences after the command are moved in front of it."""
    out, front, i = [], [], 0
    while i < len(argv):
        a = argv[i]
        if a == "--formulas" and i + 1 < len(argv):
            front += argv[i:i + 2]
            i += 2
            continue
        if a.startswith("--formulas="):
            front.append(a)
        else:
            out.append(a)
        i += 1
    return front + out


def usage_error(e) -> int:
    """A typer/click usage error as ONE line on stderr (with a 'did you mean' for
    commands); returns the exit status (2)."""
    import re
    import sys

    from typer._click.exceptions import NoArgsIsHelpError
    if isinstance(e, NoArgsIsHelpError):    # bare `boundcalc`: the help (typer printed it) is the answer
        text = e.format_message()
        if text.strip():
            print(text)
        return 0
    msg = " ".join(e.format_message().split()).rstrip(".")
    ctx = getattr(e, "ctx", None)
    where = ctx.command_path if ctx is not None else "boundcalc"
    m = re.match(r"No such command '([^']*)'", msg)
    if m:
        from ..suggest import did_you_mean
        names = sorted(getattr(ctx.command, "commands", {}) if ctx is not None else [])
        msg = f"no such command {m.group(1)!r}{did_you_mean(m.group(1), names)} (commands: {', '.join(names)})"
    help_hint = f"; see '{where} --help'" if ctx is not None else ""
    from ..reports.escape import terminal
    print(terminal(f"error: {where}: {msg}{help_hint}", markup=False), file=sys.stderr)
    return 2


def _formula(fid: str):
    from ..api import formula
    return formula(fid, formulas_path=formula_paths())


def _set_pairs(items: list[str] | None) -> list[tuple[str, str, str]]:
    """--set name=value items as (name, value, how it was written)."""
    out = []
    for it in items or []:
        if "=" not in it:
            raise BoundcalcError(f"--set expects name=value, got {it!r}")
        k, v = it.split("=", 1)
        out.append((k.strip(), v.strip(), f"--set {it.strip()}"))
    return out


def _flag_pairs(args: list[str]) -> list[tuple[str, str, str]]:
    """--NAME VALUE / --NAME=VALUE pairs and --set NAME=VALUE, in order, as (name, value,
    how it was written); a value may be negative (--x -5)."""
    out, i = [], 0
    while i < len(args):
        a = args[i]
        if not a.startswith("--") or len(a) < 3:
            raise BoundcalcError(f"unexpected argument {a!r}; inputs are given as --NAME VALUE or --set NAME=VALUE")
        if "=" in a:
            k, v = a[2:].split("=", 1)
            i += 1
        else:
            if i + 1 >= len(args):
                raise BoundcalcError(f"option {a} needs a value")
            k, v = a[2:], args[i + 1]
            i += 2
        if k == "set":
            out += _set_pairs([v])
        else:
            out.append((k, v, f"--{k} {v}"))
    return out


def _same_value(a: str, b: str) -> bool:
    """Whether two written values are the same number (2 and 2.0, 0.5 and 1/2), compared
    exactly in decimal arithmetic (never building 10**999999999); otherwise equal text."""
    a, b = a.strip(), b.strip()
    if a == b:
        return True
    from decimal import MAX_EMAX, MIN_EMIN, Decimal, DecimalException, localcontext

    def ratio(t: str):
        num, _, den = t.partition("/")
        return Decimal(num.strip()), Decimal(den.strip() or "1")
    try:
        with localcontext() as ctx:
            ctx.prec, ctx.Emax, ctx.Emin = 2 * (len(a) + len(b)) + 10, MAX_EMAX, MIN_EMIN
            (n1, d1), (n2, d2) = ratio(a), ratio(b)
            if not all(x.is_finite() for x in (n1, d1, n2, d2)) or d1 == 0 or d2 == 0:
                return False
            return n1 * d2 == n2 * d1
    except (DecimalException, ValueError):
        return False


def merge_values(pairs: list[tuple[str, str, str]]) -> dict[str, str]:
    """The ONE place where values given on the command line meet (--set NAME=VALUE,
    --NAME VALUE, repeated or not): a name (hyphens mean underscores) given twice with
    different values is refused in one line naming both, whatever the order; the same
    value twice is accepted."""
    out: dict[str, str] = {}
    how: dict[str, str] = {}
    for k, v, written in pairs:
        key = k.replace("-", "_")
        if key in out and not _same_value(out[key], v):
            raise BoundcalcError(f"conflicting values for {key}: {how[key]} and {written}; give it once")
        out.setdefault(key, v)
        how.setdefault(key, written)
    return out


def _parse_sets(items: list[str] | None) -> dict[str, str]:
    return merge_values(_set_pairs(items))


def _dynamic_flags(args: list[str]) -> dict[str, str]:
    """--NAME VALUE / --NAME=VALUE pairs (hyphens in NAME mean underscores) and
    --set NAME=VALUE; a value may be negative (--x -5)."""
    return merge_values(_flag_pairs(args))


def _values(set_: list[str] | None, ctx: typer.Context | list[str] | None) -> dict[str, str]:
    """--set name=value and --name value, merged (a name given twice with different values
    is refused, see merge_values)."""
    args = list(ctx) if isinstance(ctx, list) else list(ctx.args) if ctx is not None else []
    return merge_values(_set_pairs(set_) + _flag_pairs(args))


def _say(text: str) -> None:
    """Print a plain line: every character as written (no markup), control characters shown."""
    from ..reports.escape import terminal
    console().print(terminal(text, markup=False), markup=False)


# ---------------------------------------------------------------------------- list / show
@app.command("list")
def list_(paper: str | None = typer.Option(None, help="Only this paper's formulas."),
          json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """List the formulas (id, kind, source)."""
    from ..api import formulas
    from ..services.formula import listing
    _print(listing(formulas(paper, formulas_path=formula_paths())), json)


@app.command()
def show(fid: str = typer.Argument(..., metavar="ID"),
         json: bool = typer.Option(False, "--json")):
    """Expression, LaTeX, source, symbols and dependencies of one formula."""
    from ..services.formula import details
    _print(details(_formula(fid)), json)


def _print(record, json: bool) -> None:
    """``record`` as JSON (``--json``) or on the console (:mod:`boundcalc.reports.printers`)."""
    if json:
        from ..reports.printers.json import to_json
        emit_json(to_json(record))
        return
    from ..reports.printers.rich import print_rich
    print_rich(record, console=console())


# ---------------------------------------------------------------------------- eval
@app.command("eval", context_settings=DYNAMIC)
def eval_(ctx: typer.Context,
          fid: str = typer.Argument(..., metavar="ID"),
          set_: list[str] | None = typer.Option(None, "--set", help="name=value (repeatable); exact decimals. "
                                                   "Or --NAME VALUE."),
          digits: int = typer.Option(15, help="Significant digits (certified)."),
          setting: str | None = typer.Option(None, "--setting", help="Take the values of this setting of the "
                                                "formula's paper (its derived quantities inlined exactly); "
                                                "--NAME / --set override them."),
          json: bool = typer.Option(False, "--json")):
    """Evaluate a formula (certified digits; never overflows). Values: --set k=v or --k v,
    or a setting's (--setting S) with those overriding it."""
    from ..services.formula import evaluation
    f = _formula(fid)
    values = _values(set_, ctx)
    if setting is not None:
        f, values = f.at_setting(setting, values)
    _say_record(evaluation(f, values, digits=digits), json)


# ---------------------------------------------------------------------------- symbolic
@app.command()
def simplify(fid: str = typer.Argument(..., metavar="ID"), json: bool = typer.Option(False, "--json")):
    """A simplified form of a formula and its LaTeX."""
    _say_record(_formula(fid).simplify(), json)


def _say_record(record, json: bool) -> None:
    """``record`` as JSON (``--json``) or as its plain text, every character as written."""
    if json:
        from ..reports.printers.json import to_json
        emit_json(to_json(record))
        return
    from ..reports.printers.text import to_text
    _say(to_text(record))


def _ranges(items: list[str] | None) -> dict[str, tuple[str, str]]:
    out = {}
    for it in items or []:
        if "=" not in it or ":" not in it.split("=", 1)[1]:
            raise BoundcalcError(f"--box expects name=lo:hi, got {it!r}")
        k, v = it.split("=", 1)
        a, b = v.split(":", 1)
        out[k.strip()] = (a.strip(), b.strip())
    return out


@app.command(context_settings=DYNAMIC)
def monotone(ctx: typer.Context,
             fid: str = typer.Argument(..., metavar="ID"),
             var: str = typer.Option(..., "--var", help="The variable."),
             box: list[str] | None = typer.Option(
                 None, "--box", help="name=lo:hi: decide on this box (repeatable); an end may be inf or -inf "
                                     "(an unbounded range: proved there, or unknown)."),
             set_: list[str] | None = typer.Option(None, "--set", help="Fix a symbol: name=value."),
             setting: str | None = typer.Option(None, "--setting", help="Fix the symbols to this setting's "
                                                   "values (its derived quantities inlined exactly), except VAR "
                                                   "and the --box symbols; --NAME / --set override them."),
             json: bool = typer.Option(False, "--json")):
    """Increasing / decreasing / neither / unknown in VAR, with the evidence level (a sampled
    search names no direction: 'no decrease found in N samples on BOX').
    Exit 0 for a proved or certified direction, 3 for 'neither' (certified both ways),
    5 for anything less (sampled, unknown, the default box only)."""
    f, fixed, boxes = _formula(fid), _values(set_, ctx), _ranges(box)
    if setting is not None:
        f, fixed = f.at_setting(setting, fixed, vary=[var, *boxes])
    r = f.monotone(var, box=boxes, fixed=fixed)
    if setting is not None:
        from dataclasses import replace
        r = replace(r, setting=f.setting.id)
    if json:
        emit_json(r.to_json())
    else:
        _say(r.describe())
    _exit(for_monotone(r))


@app.command(context_settings=DYNAMIC)
def asymptotic(ctx: typer.Context,
               fid: str = typer.Argument(..., metavar="ID"),
               var: str = typer.Option(..., "--var"),
               with_: list[str] | None = typer.Option(None, "--with",
                                                         help="Let a symbol tend with VAR: K=n, or K=n**2."),
               set_: list[str] | None = typer.Option(None, "--set", help="Fix a symbol: name=value."),
               json: bool = typer.Option(False, "--json")):
    """Leading order as VAR -> oo (others fixed, or tending together with --with)."""
    r = _formula(fid).asymptotic(var, together=_parse_sets(with_), fixed=_values(set_, ctx))
    if json:
        emit_json(r.to_json())
        return
    _say(r.describe())


@app.command(context_settings={"ignore_unknown_options": True})
def verify(lhs: str = typer.Argument(...), rel: str = typer.Argument(..., metavar="REL"),
           rhs: str = typer.Argument(...),
           assume: list[str] | None = typer.Option(None, "--assume", help="e.g. 'x>=1' (repeatable)."),
           json: bool = typer.Option(False, "--json"),
           certificate: Path | None = typer.Option(
               None, "--certificate", help="Write the verdict's certificate (JSON) to this file; "
               "'boundcalc recheck FILE' re-verifies it without the prover.")):
    """Decide LHS REL RHS (REL one of ==, <=, >=, <, >): proved / disproved / unknown.
    Exit 0 proved, 4 disproved, 5 unknown or vacuous."""
    from ..services.verify import verify as run
    r = run(lhs, rel, rhs, assume or [], formulas_path=formula_paths(), certify=certificate is not None or json)
    if certificate is not None:
        _write_certificate(certificate, r.certificate)
    if json:
        emit_json(r.to_json())
    else:
        _say(r.describe())
    _exit(for_verify(r))


def _write_certificate(path: Path, cert: dict | None) -> None:
    """The certificate as JSON at ``path`` (``null`` for an unknown or vacuous verdict,
    which has none); a file that cannot be written is one line, exit 2."""
    import json as _json
    try:
        path.write_text(_json.dumps(cert, indent=1) + "\n", encoding="utf-8")
    except OSError as e:
        raise BoundcalcError(f"--certificate {path}: cannot write it ({e.strerror or e})") from None


def _certificate_dir(path: Path) -> None:
    """``path`` as a directory for certificates (created), or one line, exit 2."""
    if path.exists() and not path.is_dir():
        raise BoundcalcError(f"--certificates {path}: not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BoundcalcError(f"--certificates {path}: cannot create it ({e.strerror or e})") from None


def certificate_file_name(paper: str, check: str, k: int) -> str:
    """A safe file name for the ``k``-th certificate of ``paper``'s check ``check``: letters,
    digits, '-' and '_' kept, anything else (a '/', a '..', a ':') written as '_'."""
    import re
    def safe(t: str) -> str:
        return re.sub(r"[^A-Za-z0-9_-]", "_", t)[:100] or "_"
    return f"{safe(paper)}.{safe(check)}.{k}.json"


def _write_certificates(path: Path, certs: dict) -> None:
    """One JSON file per decided relation of each check: its certificate, with the
    statement, verdict, method and the checker's status when the check ran it ("rechecked",
    "rechecked up to trusted facts") beside it (fields the checker does not read)."""
    import json as _json
    seen: set[str] = set()
    for (paper, check), items in certs.items():
        for k, item in enumerate(items, 1):
            name = certificate_file_name(paper, check, k)
            while name in seen:              # two ids that differ only in unsafe characters
                name = name[:-5] + "_.json"
            seen.add(name)
            body = {**item["certificate"], "check": f"{paper}.{check}", "statement": item["statement"],
                    "verdict": item["verdict"], "method": item["method"]}
            if item.get("recheck"):        # the checker's answer when the check ran it
                body["rechecked"] = item["recheck"]["status"]
            try:
                (path / name).write_text(_json.dumps(body, indent=1) + "\n", encoding="utf-8")
            except OSError as e:
                raise BoundcalcError(f"--certificates {path}: cannot write {name} ({e.strerror or e})") from None


@app.command()
def recheck(file: Path = typer.Argument(..., metavar="FILE"), json: bool = typer.Option(False, "--json")):
    """Re-verify a certificate (written by 'verify --certificate FILE' or 'check --certificates DIR') with the
    independent checker: exact rationals and ball arithmetic, no prover, no SymPy. Prints
    valid / valid up to trusted facts / invalid with the reason and every fact taken on trust. Exit 0
    valid (every step re-verified), 5 valid up to the facts taken on trust (z3, SymPy, a layer), 1 invalid."""
    import json as _json

    from ..recheck import recheck as run
    try:
        cert = _json.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise BoundcalcError(f"recheck {file}: cannot read it ({e.strerror or e})") from None
    except (ValueError, RecursionError) as e:
        raise BoundcalcError(f"recheck {file}: not JSON ({e})") from None
    r = run(cert)
    if json:
        emit_json(r.to_json())
    else:
        head = "VALID: " if r.complete else "VALID UP TO TRUSTED FACTS: " if r.valid else "INVALID: "
        _say(head + r.reason.removeprefix("invalid: ") + "".join(f"\n  {t}" for t in r.trusted))
    if not r.valid:
        _exit(Exit.FINDINGS)
    if not r.complete:
        _exit(Exit.UNKNOWN)             # re-verified only up to the facts taken on trust


def _exit(code: Exit) -> None:
    """End the command with ``code`` (:mod:`.exits`); nothing for 0."""
    if code is not Exit.OK:
        raise typer.Exit(int(code))


# ---------------------------------------------------------------------------- requirements
def settings_inputs_help(paper: str | None = None) -> str:
    """Every setting (of one paper, or all) with its inputs and their default values,
    read from the formula files (the epilog of ``require --help``):
    :func:`boundcalc.services.require.settings_help` as text."""
    from ..reports.printers import render
    from ..services.require import settings_help
    return render(settings_help(paper, formulas_path=formula_paths()), "text")


def _lazy_epilog(paper: str | None):
    class Cmd(TyperCommand):
        """Epilog computed only when --help is shown (the registry is not loaded otherwise)."""
        @property
        def epilog(self):
            try:
                return settings_inputs_help(paper)
            except Exception as e:        # the help must never crash
                return f"(the settings could not be listed: {e})"

        @epilog.setter
        def epilog(self, value):
            pass
    return Cmd


def _find_setting_paper(setting: str | None) -> str:
    """The paper that declares ``setting`` (when --paper is not given)."""
    from ..registry import get_registry
    from ..suggest import did_you_mean
    if not setting:
        raise BoundcalcError("give --paper PAPER (or --setting NAME of a paper's setting)")
    reg = get_registry(formula_paths())
    hits, names = [], []
    for key, p in reg.papers.items():
        for st in p.settings.values():
            names += [st.name, *st.aliases]
            if setting == st.name or setting in st.aliases:
                hits.append(key)
    hits = sorted(set(hits))
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise BoundcalcError(f"setting {setting!r} exists in {', '.join(hits)}; give --paper")
    raise BoundcalcError(f"unknown setting {setting!r}{did_you_mean(setting, names)}")


def _range_end(text: str | None, var: str | None, flag: str) -> str | None:
    """``--from 8`` or ``--from n=8`` (the name, when given, must be VAR's)."""
    if text is None or "=" not in text:
        return text
    name, _, value = text.partition("=")
    name = name.strip().replace("-", "_")
    if var is not None and name != var:
        raise BoundcalcError(f"{flag} {text}: the range is for the variable solved for, {var}, not {name}")
    return value.strip()


def _run_require(var: str | None, paper: str | None, setting: str | None, ctx: typer.Context,
                 set_: list[str] | None, target: str | None, explain: bool, json: bool,
                 from_: str | None = None, to: str | None = None):
    import sys

    from ..services.require import no_answer_reason, require, to_json
    args = list(ctx.args)
    if var is not None and var.startswith("-"):      # `require --d 16 ...`: no VAR, a flag came first
        args, var = [var] + args, None
    values = _values(set_, args)
    if paper is None and setting is None:
        raise BoundcalcError("give --paper PAPER and/or --setting NAME (see `boundcalc require --help`)")
    paper = paper or _find_setting_paper(setting)
    within = None
    if from_ is not None or to is not None:
        within = (_range_end(from_, var, "--from"), _range_end(to, var, "--to"))
    try:
        res = require(paper, setting, values, var=var, target=target, formulas_path=formula_paths(),
                      within=within)
    except UnsatisfiableError as e:     # no value can work: an answer ('no'), status 4
        from ..reports.escape import terminal
        print(f"error: {' '.join(terminal(e, markup=False).split())}", file=sys.stderr)
        raise typer.Exit(int(Exit.NO_ANSWER)) from None
    data = to_json(res)
    if json:
        emit_json(data)
    else:
        from .render import print_require
        print_require(data, explain=explain)
    reason = no_answer_reason(res)
    if reason:        # not an answer: the output above, then the reason on one line (status: .exits)
        from ..reports.escape import terminal
        print(f"error: {terminal(reason, markup=False)}", file=sys.stderr)
    _exit(for_require(res))


_SET_HELP = "NAME=VALUE (repeatable); same as --NAME VALUE."


@app.command(context_settings=DYNAMIC, cls=_lazy_epilog(None))
def require(ctx: typer.Context,
            var: str | None = typer.Argument(None, help="Variable to solve for (default: the setting's)."),
            paper: str | None = typer.Option(None, "--paper", help="Paper (default: the one declaring --setting)."),
            setting: str | None = typer.Option(None, "--setting", help="Setting (default: the paper's default)."),
            target: str | None = typer.Option(
                None, "--target", help="Solve 'formula REL value' instead of the setting's requirements, "
                                       "e.g. 'gen_gap_cor2 <= 0.05'."),
            set_: list[str] | None = typer.Option(None, "--set", help=_SET_HELP),
            from_: str | None = typer.Option(
                None, "--from", help="Search VAR only from this value on (VALUE or VAR=VALUE; -inf: no lower "
                                     "end): e.g. where log(n)/sqrt(n) has turned decreasing."),
            to: str | None = typer.Option(None, "--to", help="Search VAR only up to this value (inf: no upper end)."),
            explain: bool = typer.Option(False, "--explain", help="Also every input, derived value and certificate."),
            json: bool = typer.Option(False, "--json")):
    """Least (or largest) VAR each requirement of a setting allows, with a certificate:
    it holds at the answer and fails just beyond. VAR can be any variable the
    requirement is monotone in (H, n, K, m, eta ...), over its domain or over the range
    --from/--to; a relation that is not monotone there gets its counterexample instead
    of an answer. Exit 0 an answer, 3 not monotone, 4 no value in the domain or range
    (or impossible), 5 undecided."""
    _run_require(var, paper, setting, ctx, set_, target, explain, json, from_, to)


@app.command("require-heads", context_settings=DYNAMIC, cls=_lazy_epilog("deora2023"))
def require_heads(ctx: typer.Context,
                  theorem: str | None = typer.Option(
                      None, "--theorem", help="dm1/cor2 (default: tokenized mixture, Sec. 5) or thm1."),
                  paper: str = typer.Option("deora2023", "--paper"),
                  set_: list[str] | None = typer.Option(None, "--set", help=_SET_HELP),
                  explain: bool = typer.Option(False, "--explain",
                                               help="Also every input, derived value and certificate."),
                  json: bool = typer.Option(False, "--json")):
    """Least number of attention heads H each head condition needs, and which binds.

    Every input can be set with a flag named after its symbol: --d 16 --T 8 --R 1.5
    --zeta 0.25 --C 2 ...; with --theorem thm1 give --theta-2inf X --dist0 Y.
    """
    _run_require("H", paper, theorem, ctx, set_, None, explain, json)


@app.command()
def check(paper: str | None = typer.Argument(None),
          json: bool = typer.Option(False, "--json"),
          markdown: bool = typer.Option(False, "--markdown", help="Print the report as Markdown."),
          only: list[str] | None = typer.Option(None, "--only", help="Run only this check (ID or PAPER.ID; repeatable)."),
          coverage: bool = typer.Option(False, "--coverage",
                                        help="List the paper's numbered results and displayed proof steps with "
                                             "the checks covering each (none: unaudited / unchecked); does "
                                             "not run the checks."),
          strength: bool = typer.Option(False, "--strength",
                                        help="Mutation-test every pass: re-run it on mutants of its claim "
                                             "(flipped relation, scaled by 2 and 1/2, exponents +-1/2, a "
                                             "denominator inverted, a term dropped or its sign flipped, a "
                                             "constant doubled or halved, a factor of a product dropped, the "
                                             "argument of exp/log/sqrt doubled or halved), of its premise (a hypothesis dropped or moved) and of "
                                             "its encoding (substitutions swapped or moved); a pass that "
                                             "catches no mutant of the paper's side is graded 'cannot fail'."),
          strict: bool = typer.Option(False, "--strict",
                                      help="Grade a pass that needs an assumption added by us (not a quoted "
                                           "hypothesis of the paper; graded 'conditional') a warning."),
          fail_on: str | None = typer.Option(None, "--fail-on",
                                             help="Exit 1 when the report has a finding of this grade or "
                                                  "worse: error (default) | warning (also 'cannot fail', "
                                                  "'conditional') | undecided (errors and every check left "
                                                  "undecided: not the vacuity warnings) | never. Default: "
                                                  "each file's [paper] fail_on, else error."),
          jobs: int = typer.Option(-1, "--jobs", help="Worker processes (default -1: one per core); the "
                                                      "report is the same for any number."),
          transcription: bool = typer.Option(False, "--transcription",
                                             help="Also compare every formula's printed LaTeX with its "
                                                  "expression (checks 'latex:NAME'; formulas/README.md)."),
          timings: bool = typer.Option(True, "--timings/--no-timings",
                                       help="--json: include the run's wall-clock seconds (the only part "
                                            "that differs between two runs of the same command)."),
          html: str | None = typer.Option(None, "--html",
                                          help="Also write the report as one self-contained web page "
                                               "(math as MathML; filters by paper and grade; nothing "
                                               "fetched when viewed) to this file."),
          force: bool = typer.Option(False, "--force", help="Overwrite the --html file."),
          certificates: Path | None = typer.Option(
              None, "--certificates", metavar="DIR",
              help="Write the certificate of every relation each check decided to DIR (created; one "
                   "JSON file each, named PAPER.CHECK.N.json); 'boundcalc recheck FILE' re-verifies one.")):
    """Audit a paper's algebra (all papers if none given): derivations, stated orders,
    monotonicity, restatements, vacuity, identities, engine measurements. Exits 1 when
    it finds an error (``--fail-on``), so it can gate a paper's CI."""
    from ..services.check import FAIL_ON
    if fail_on is not None and fail_on not in FAIL_ON:
        raise BoundcalcError(f"--fail-on must be one of {', '.join(FAIL_ON)}, not {fail_on!r}")
    if coverage:
        from ..services.check import coverage_report
        _print(coverage_report(paper, formulas_path=formula_paths()), json)
        return
    from ..services.check import run_checks
    from .render import print_check
    if html is not None:
        from .output import check_outputs, is_stdout
        if not html.strip() or is_stdout(html):
            raise BoundcalcError("--html: give a file name for the page")
        check_outputs([("--html", html)], force=force)       # before any work
    from ..parallel import worker_count
    jobs = worker_count(jobs)                                 # before any work: capped at the cores
    if certificates is not None:
        _certificate_dir(certificates)                        # before any work
    report = run_checks(paper, formulas_path=formula_paths(), only=only, strength=strength, jobs=jobs,
                        transcription=transcription, strict=strict, certificates=certificates is not None)
    if certificates is not None:
        _write_certificates(certificates, report.certificates or {})
    if json:
        emit_json(report.to_json(timings=timings))
    elif markdown:
        print(report.to_markdown(), end="")
    else:
        print_check(report)
    if html is not None:
        import shlex

        from ..reports.printers.html import to_html
        from .output import write_output
        cmd = ("boundcalc check" + (f" {paper}" if paper else "") + "".join(f" --only {shlex.quote(o)}" for o in only or ())
               + report.options + f" --html {shlex.quote(html)}")
        write_output(html, to_html(report, page=True, command=cmd), what="report")
    if report.fails(fail_on):
        raise typer.Exit(1)


# ---------------------------------------------------------------------------- reports
# imported here, after the commands above: typer only (no NumPy); sheet, cite, new
from . import docs as _docs
from .reports import LazyEpilogCommand as _LazyEpilog

app.command("sheet")(_docs.sheet)
app.command("cite")(_docs.cite)
app.command("new")(_docs.new)


@app.command(context_settings=DYNAMIC, cls=_LazyEpilog)
def compare(ctx: typer.Context,
            paper: str = typer.Argument(..., help="deora2023, anon2025, tarzanagh2023 or arda2026."),
            seed: int = typer.Option(0, "--seed", help="Random seed (data, initialisation)."),
            jobs: int = typer.Option(1, "--jobs", help="Parallel worker processes (-1: all cores)."),
            format_: str = typer.Option("rich", "--format", help="rich, markdown, latex, csv or json."),
            output: str | None = typer.Option(None, "--output", help="Write the table to this file (- for standard output)."),
            force: bool = typer.Option(False, "--force", help="Overwrite --output / --plot files."),
            plot: str | None = typer.Option(None, "--plot",
                                               help="Bound-vs-measured bars: FILE(.png|.pdf), both written."),
            no_cache: bool = typer.Option(False, "--no-cache", help="Recompute; do not read or write the cache."),
            max_memory: str | None = typer.Option(None, "--max-memory", help="Memory budget (512M, 4G; "
                                                     "default: half the available memory)."),
            measured: str | None = typer.Option(
                None, "--measured", help="A CSV of your own runs: columns named after the paper's symbols "
                                         "(inputs) and bounds (measured values), optional 'run' labels; "
                                         "the bounds are evaluated at each run (no engine)."),
            setting: str | None = typer.Option(None, "--setting", help="With --measured: inputs a run does "
                                                                       "not give come from this setting."),
            map_: list[str] = typer.Option(None, "--map", help="With --measured: COLUMN=NAME reads a CSV column "
                                           "as a symbol or formula of the paper (repeatable)."),
            json: bool = typer.Option(False, "--json", help="Same as --format json."),
            html: str | None = typer.Option(None, "--html",
                                            help="Also write the table as one self-contained web page (math "
                                                 "as MathML, nothing fetched when viewed) to this file."),
            figsize: str = typer.Option("column", "--figsize",
                                        help="--plot width: column (3.25 in, one column of a two-column "
                                             "paper; default) or page (6.75 in); fonts sized for the paper."),
            versus: str | None = typer.Option(None, "--versus", help="With --measured --plot: the input "
                                              "column on the x axis (default: the one that varies across "
                                              "the runs)."),
            long: bool = typer.Option(False, "--long", help="LaTeX: a longtable that breaks across pages "
                                      "(one-column documents; needs 2-3 pdflatex passes)."),
            env: str | None = typer.Option(None, "--env", help="LaTeX: the float, table* (default; one- and "
                                           "two-column documents) or table (one column of a two-column venue: "
                                           "rows stacked, numbers decimal-aligned, as many floats as fit a "
                                           "column)."),
            width: str | None = typer.Option(None, "--width", help="LaTeX: the table's width, text (the text "
                                             "block; --env table*) or column (one column of a two-column "
                                             "venue; --env table)."),
            notes: str = typer.Option("short", "--notes", help="LaTeX: table notes, short (one line each; "
                                      "default), full or none.")):
    """A paper's bounds beside what the engine measures, as a table. Settings: --NAME VALUE or --set NAME=VALUE.
    With --measured runs.csv (any paper, your own with --formulas): the bounds beside your measurements."""
    fmt = "json" if json else format_
    env = _latex_env(env, width, fmt)
    if measured is not None:
        from .reports import compare_measured
        compare_measured(paper, measured, setting=setting, fmt=fmt, output=output, force=force, plot=plot,
                         extra=list(ctx.args), latex={"long": long, "env": env, "notes": notes}, html=html,
                         figsize=figsize, mapping=map_, versus=versus)
        return
    if setting is not None or map_ or versus is not None:
        flag = "--setting" if setting is not None else "--map" if map_ else "--versus"
        raise BoundcalcError(f"{flag} applies to --measured; the engine's settings are --NAME VALUE")
    from .reports import compare as run
    run(paper, _dynamic_flags(ctx.args), seed=seed, jobs=jobs, fmt=fmt,
        output=output, force=force, plot=plot, no_cache=no_cache, max_memory=max_memory,
        latex={"long": long, "env": env, "notes": notes}, html=html, figsize=figsize, argv=list(ctx.args))


def _latex_env(env: str | None, width: str | None, fmt: str) -> str | None:
    """The LaTeX float of ``--env`` and ``--width`` (``column`` is ``--env table``, ``text``
    ``--env table*``): both given must agree, and ``--width`` is of ``--format latex`` only."""
    if width is None:
        return env
    widths = {"text": "table*", "column": "table"}
    if width not in widths:
        raise BoundcalcError(f"unknown --width {width!r}; use one of {', '.join(widths)}")
    if fmt != "latex":
        raise BoundcalcError(f"--width applies to --format latex only (got --format {fmt})")
    if env is not None and env != widths[width]:
        raise BoundcalcError(f"--width {width} is --env {widths[width]}, not --env {env}")
    return widths[width]


@app.command(context_settings=DYNAMIC)
def reproduce(ctx: typer.Context,
              name: str | None = typer.Argument(None, help="A reproduction (see --list), or 'list'."),
              list_: bool = typer.Option(False, "--list", help="List the reproductions."),
              full: bool = typer.Option(False, "--full", help="The paper's full sizes (slow); default: small."),
              json: bool = typer.Option(False, "--json"),
              seed: int = typer.Option(0, "--seed"),
              jobs: int = typer.Option(-1, "--jobs", help="Parallel worker processes, each on one BLAS "
                                       "thread (default -1: one per core)."),
              backend: str = typer.Option("loky", "--backend", help="loky (local processes) or dask."),
              scheduler: str | None = typer.Option(None, "--scheduler", help="Dask scheduler tcp://HOST:PORT."),
              plot_dir: str | None = typer.Option(None, "--plot-dir", help="Write the figures (PNG+PDF) here."),
              no_cache: bool = typer.Option(False, "--no-cache", help="Recompute; do not read or write the cache."),
              force: bool = typer.Option(False, "--force", help="Allow writing figures into a non-empty --plot-dir."),
              max_memory: str | None = typer.Option(None, "--max-memory", help="Memory budget (512M, 4G; "
                                                       "default: half the available memory)."),
              figsize: str = typer.Option("page", "--figsize",
                                          help="--plot-dir figures' width: column (3.25 in) or page (6.75 in); "
                                               "fonts sized for the paper.")):
    """Reproduce a figure or table of a paper; our numbers beside the paper's. Settings the
    reproduction accepts: --NAME VALUE (e.g. arda2026-fig1 --teacher authors-code)."""
    from .reports import reproduce as run
    run(name, list_=list_, full=full, json=json, seed=seed, jobs=jobs, backend=backend,
        scheduler=scheduler, plot_dir=plot_dir, no_cache=no_cache, force=force, max_memory=max_memory,
        settings=_dynamic_flags(list(ctx.args)), figsize=figsize)


def _prose(doc: str) -> str:
    """A command's docstring as help: its paragraphs (blank-line separated) each on one line, so
    that the terminal, not the source's line breaks, decides where a line ends."""
    import inspect
    text = inspect.cleandoc(doc).replace("``", "'")           # rST literals, for the terminal
    return "\n\n".join(" ".join(p.split()) for p in text.split("\n\n"))


for _info in app.registered_commands:
    if _info.help is None and _info.callback is not None and _info.callback.__doc__:
        _info.help = _prose(_info.callback.__doc__)
