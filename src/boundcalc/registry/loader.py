"""Read and validate one formula file (TOML) into a :class:`~.model.Paper`.

Everything is checked here, so the rest of the code can trust a loaded paper:
unknown fields (typos), domains, defaults within domain, expressions through the
whitelist parser, names that are neither symbols nor listed formulas, settings and
checks that point at things that do not exist. Each error names the file and entry.
"""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import BoundcalcError, FormulaFileError
from ..expr.domains import parse_domain
from ..expr.indexed import Vector, range_start
from ..expr.nodes import BigOp, Indexed, Node, Num, Ref, Rel, Sym
from ..expr.parser import parse, parse_number, reserved
from . import checks
from .files import MAX_FILE_BYTES, check_formula_file, file_kind, read_formula_text
from .indexed import check_lengths
from .model import KINDS, ROLES, STATUSES, VALUE_KINDS, CheckSpec, FormulaSpec, Hypothesis, Paper, Setting, Symbol
from .steps import Step

# check_formula_file, read_formula_text, file_kind and MAX_FILE_BYTES moved to .files (the
# registry reads and hashes a file without importing this module); still importable from here
__all__ = ["MAX_FILE_BYTES", "check_formula_file", "defer_checks", "file_kind", "load_checks", "load_data", "load_file",
           "load_step_candidates", "load_steps", "parse_toml", "read_formula_text"]

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

from ..verdicts import FAIL_LEVELS, FormulaStatus


def _fail(path: Path, where: str, msg: str) -> FormulaFileError:
    return FormulaFileError(f"{path.name}: {where}: {msg}")


def _fields(path: Path, where: str, table: Any, required: set[str], optional: set[str]) -> dict:
    if not isinstance(table, dict):
        raise _fail(path, where, "expected a table")
    missing = required - table.keys()
    if missing:
        raise _fail(path, where, f"missing field(s) {', '.join(sorted(missing))}")
    unknown = table.keys() - required - optional
    if unknown:
        raise _fail(path, where, f"unknown field(s) {', '.join(sorted(unknown))} "
                                 f"(allowed: {', '.join(sorted(required | optional))})")
    return table


def _str(path, where, v, field) -> str:
    if not isinstance(v, str):
        raise _fail(path, where, f"field {field!r} must be a string")
    return v


def _str_list(path, where, v, field) -> tuple[str, ...]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise _fail(path, where, f"field {field!r} must be a list of strings")
    if len(set(v)) != len(v):
        dup = sorted({x for x in v if v.count(x) > 1})
        raise _fail(path, where, f"field {field!r} lists {', '.join(map(repr, dup))} twice")
    return tuple(v)


def _number(path, where, v) -> Fraction:
    try:
        return parse_number(v, where=f"{path.name}: {where}")
    except BoundcalcError as e:
        raise FormulaFileError(str(e)) from None


def load_file(path: str | Path, *, lazy_checks: bool = False) -> Paper:
    """Read and validate one formula file. With ``lazy_checks`` the ``[[checks]]`` tables
    are validated on the first use of ``paper.checks`` instead of now."""
    path = Path(path)
    return load_data(path, parse_toml(path, read_formula_text(path)), lazy_checks=lazy_checks)


def parse_toml(path: Path, text: str) -> dict:
    """The TOML tables of a formula file's ``text``; one error naming the file otherwise."""
    import tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise FormulaFileError(f"{path.name}: not valid TOML: {e}") from None
    except ValueError as e:       # e.g. a bare integer beyond Python's 4300-digit int/str limit
        what = "an integer with more than 4300 digits" if "4300" in str(e) else str(e).split(";")[0]
        raise FormulaFileError(f"{path.name}: not usable TOML: {what} (write huge numbers as "
                               "strings such as \"1e5000\", within the number budget)") from None
    except RecursionError:
        raise FormulaFileError(f"{path.name}: not usable TOML: nested too deeply") from None


def load_data(path: Path, data: dict, *, lazy_checks: bool = False) -> Paper:
    """A :class:`Paper` from the TOML tables ``data`` of the file ``path``, validated."""
    _fields(path, "top level", data, {"paper"}, {"symbols", "formulas", "settings", "checks", "hypotheses",
                                                 "steps", "step_candidates"})
    meta = _fields(path, "[paper]", data["paper"], {"key", "title"},
                   {"authors", "reference", "text", "note", "results",
                    "arxiv", "doi", "url", "year", "venue", "cite_key", "bibtex", "fail_on"})
    key = _str(path, "[paper]", meta["key"], "key")
    fail_on = _str(path, "[paper]", meta.get("fail_on", ""), "fail_on")
    if "fail_on" in meta and fail_on not in FAIL_LEVELS:
        raise _fail(path, "[paper]", f"fail_on = {fail_on!r}: must be one of {', '.join(FAIL_LEVELS)}")
    if not _IDENT.match(key):
        raise _fail(path, "[paper]", f"key {key!r} must be an identifier")
    if key != path.stem:
        raise _fail(path, "[paper]", f"key {key!r} must equal the file name stem {path.stem!r}")
    paper = Paper(key=key, title=_str(path, "[paper]", meta["title"], "title"),
                  authors=meta.get("authors", ""), reference=meta.get("reference", ""),
                  path=path, text=meta.get("text", ""),
                  results=_str_list(path, "[paper]", meta.get("results", []), "results"),
                  refs={k: _str(path, "[paper]", meta[k], k)
                        for k in ("arxiv", "doi", "url", "year", "venue", "cite_key", "bibtex")
                        if k in meta},
                  fail_on=fail_on)
    _load_symbols(path, paper, data.get("symbols", {}))
    _load_formulas(path, paper, data.get("formulas", {}))
    _load_settings(path, paper, data.get("settings", {}))
    _load_hypotheses(path, paper, data.get("hypotheses", []))
    vars(paper)["_step_candidates_raw"] = data.get("step_candidates", {})   # validated with the steps
    items, steps = data.get("checks", []), data.get("steps", [])
    if lazy_checks:
        defer_checks(path, paper, items, steps)
    else:
        out: list = []
        _load_checks(path, paper, items, out, steps)
        vars(paper)["_checks"] = out
    return paper


def defer_checks(path: Path, paper: Paper, items: Any, steps: Any) -> None:
    """Validate the ``[[checks]]`` tables ``items`` (and ``[[steps]]``) on the first use of
    ``paper.checks`` (:attr:`Paper.checks` reads ``_load_checks``)."""
    vars(paper)["_load_checks"] = lambda out: _load_checks(path, paper, items, out, steps)


def load_checks(path: Path, paper: Paper, items: Any, out: list, steps: Any = None) -> None:
    """Validate the ``[[checks]]`` tables ``items`` and ``[[steps]]`` of ``paper`` into ``out``
    (what :attr:`Paper.checks` runs on first use; :mod:`.cache` calls it on a cache hit)."""
    _load_checks(path, paper, items, out, steps)


def _load_symbols(path: Path, paper: Paper, table: Any) -> None:
    if not isinstance(table, dict):
        raise _fail(path, "[symbols]", "expected a table of symbols")
    for name, t in table.items():
        where = f"[symbols.{name}]"
        if not _IDENT.match(name):
            raise _fail(path, where, "a symbol name must be an ASCII identifier")
        if reserved(name):
            raise _fail(path, where, f"symbol name {reserved(name)}; choose another name")
        _fields(path, where, t, {"description", "domain"}, {"latex", "printed", "default", "role", "note",
                                                             "description_latex", "index", "range"})
        domain = parse_domain(_str(path, where, t["domain"], "domain"), where=f"{path.name}: {where}")
        role = t.get("role", "input")
        if role not in ROLES:
            raise _fail(path, where, f"role must be one of {', '.join(ROLES)}, not {role!r}")
        default = None
        if "default" in t:
            default = _number(path, f"{where} default", t["default"])
            if not domain.contains(default):
                raise _fail(path, where, f"default {t['default']!r} is outside the domain ({domain})")
        if role == "constant" and default is None:
            raise _fail(path, where, "an absolute constant (role = 'constant') needs a default")
        index, rng = _index_range(path, where, t)
        for fld in ("latex", "printed"):
            _math(path, where, t, fld)
        paper.symbols[name] = Symbol(paper.key, name, _str(path, where, t["description"], "description"),
                                     _str(path, where, t.get("latex", name), "latex"), domain, default, role,
                                     _str(path, where, t.get("printed", ""), "printed"),
                                     _latex_text(path, where, t, "description_latex"), index, rng)
    _unique_latex(path, paper)
    for name, sym in paper.symbols.items():
        if sym.is_indexed:
            where = f"[symbols.{name}]"
            if sym.index in paper.symbols:
                raise _fail(path, where, f"index {sym.index!r} is also a symbol of the file; choose "
                                         "another index name")
            lo_end, hi_end = sym.range or (Num(Fraction(1)), Num(Fraction(1)))
            for n in sorted(lo_end.symbols() | hi_end.symbols()):
                if n not in paper.symbols or paper.symbols[n].is_indexed:
                    raise _fail(path, where, f"range names {n!r}, which is not a plain symbol of the file")


def _math(path: Path, where: str, t: dict, field: str) -> None:
    """A ``latex``/``printed`` field is LaTeX math: checked against the one whitelist of math
    commands and TeX's rules (:func:`boundcalc.expr.latex_tokens.math_error`), never run;
    refused in one line naming the file, the entry and the field."""
    if field not in t:
        return
    from ..expr.latex_tokens import math_error
    why = math_error(_str(path, where, t[field], field))
    if why:
        raise _fail(path, where, f"{field}: {why}")


def _unique_latex(path: Path, paper: Paper) -> None:
    """Two symbols of one file never share their LaTeX (a sheet, a table or a LaTeX round trip
    could not tell them apart): where the paper itself writes both with one letter, each gets
    its own ``latex`` and the paper's letter goes in ``printed``."""
    seen: dict[str, str] = {}
    for name, sym in paper.symbols.items():
        key = " ".join(sym.latex.split())
        if not key:
            continue
        if key in seen:
            raise _fail(path, f"[symbols.{name}]", f"latex {sym.latex!r} is also the LaTeX of symbol "
                                                   f"{seen[key]!r}; give each its own (where the paper writes "
                                                   f"both this way, put that in printed = {sym.latex!r})")
        seen[key] = name


def _latex_text(path: Path, where: str, t: dict, field: str) -> str:
    """An optional LaTeX-text field (``description_latex``, ``name_latex``, ``note_latex``,
    ``bounds_latex``: text with math in ``$...$``), checked -- never run -- by
    :func:`boundcalc.expr.latex_tokens.latex_text_error`; ``""`` when absent."""
    if field not in t:
        return ""
    from ..expr.latex_tokens import latex_text_error
    text = _str(path, where, t[field], field)
    why = latex_text_error(text)
    if why:
        raise _fail(path, where, f"{field}: {why}")
    return text


def _index_range(path: Path, where: str, t: dict) -> tuple[str, tuple | None]:
    """``index = "i"`` and ``range = [lo, hi]`` (numbers or expressions in other
    symbols) of an indexed symbol: both or neither."""
    if ("index" in t) != ("range" in t):
        raise _fail(path, where, "an indexed symbol needs both index = \"i\" and range = [lo, hi]")
    if "index" not in t:
        return "", None
    index = _str(path, where, t["index"], "index")
    if not _IDENT.match(index) or reserved(index):
        raise _fail(path, where, f"index {index!r} must be an ASCII identifier that is not reserved")
    r = t["range"]
    if not isinstance(r, list) or len(r) != 2:
        raise _fail(path, where, "range must be a list [lo, hi] (numbers, or expressions such as \"L\")")
    ends = []
    for e in r:
        if isinstance(e, bool) or not isinstance(e, (int, str)):
            raise _fail(path, where, f"range end {e!r} must be an integer or an expression string")
        node = Num(Fraction(e)) if isinstance(e, int) else _parse(path, f"{where} range", e, allow_relation=False)
        if node.refs() or node.indexed():
            raise _fail(path, where, f"range end {e!r} may name only plain symbols")
        ends.append(node)
    return index, (ends[0], ends[1])


def _check_scopes(path: Path, where: str, node: Node, paper: Paper, uses: tuple[str, ...]) -> None:
    """Indexed symbols and bound indices used as declared, each fault in one line naming
    it: ``s[i]`` only for an indexed ``s`` (never a bare ``s``), an index variable only
    inside the sum/prod/max/min that binds it, an index not named like a symbol."""
    indices = {s.index: s.name for s in paper.symbols.values() if s.is_indexed}
    binders = _bound_names(node)
    stack: list[tuple[Node, frozenset[str]]] = [(node, frozenset())]
    while stack:
        n, bound = stack.pop()
        if isinstance(n, Sym) and n.name not in bound:
            decl = paper.symbols.get(n.name)
            if decl is not None and decl.is_indexed:
                raise _fail(path, where, f"{n.name!r} is indexed ({n.name}[{decl.index}]): write {n.name}[...] "
                                         f"inside sum/prod/max/min(..., {decl.index}, lo, hi)")
            if n.name not in paper.symbols and n.name not in uses and (n.name in indices or n.name in binders):
                raise _fail(path, where, f"free index {n.name!r} outside the sum/prod/max/min that binds it "
                                         f"(write sum(..., {n.name}, lo, hi) around its use, or a number)")
        if isinstance(n, Indexed):
            decl = paper.symbols.get(n.name)
            if decl is None or not decl.is_indexed:
                raise _fail(path, where, f"{n.name}[...]: {n.name!r} is not declared as an indexed symbol "
                                         f"(give [symbols.{n.name}] index = \"i\" and range = [1, \"L\"])")
        if isinstance(n, BigOp):
            if n.var in paper.symbols or n.var in uses:
                raise _fail(path, where, f"index {n.var!r} of {n.op}(...) is also the name of a symbol or "
                                         "formula; choose another index name")
            stack.append((n.body, bound | {n.var}))
            stack.extend((c, bound) for c in (n.lo, n.hi))
            continue
        stack.extend((c, bound) for c in n.children())


def _bind_names(path: Path, where: str, node: Node, paper: Paper, uses: tuple[str, ...]) -> Node:
    """Turn bare names into symbols or (if listed in ``uses``) formula references; a big
    operator's bound index stays what it is (:func:`_check_scopes` checks the scopes)."""
    _check_scopes(path, where, node, paper, uses)
    bound = _bound_names(node)

    def f(n: Node):
        if isinstance(n, Sym):
            if n.name in bound and n.name not in paper.symbols and n.name not in uses:
                return None           # a bound index (_check_scopes: never free)
            if n.name in uses:
                return Ref(None, n.name)
            if n.name not in paper.symbols:
                raise _fail(path, where, f"unknown name {n.name!r}: declare it under [symbols.{n.name}] "
                                         "or list a formula of that name in 'uses'")
        return None
    return node.map(f)


def _bound_names(node: Node) -> set[str]:
    return {n.var for n in node.unique_nodes() if isinstance(n, BigOp)}


def _parse(path: Path, where: str, text: Any, *, allow_relation=True) -> Node:
    if not isinstance(text, str):
        raise _fail(path, where, "an expression must be a string")
    try:
        return parse(text, allow_relation=allow_relation, where=f"{path.name}: {where}")
    except BoundcalcError as e:
        raise FormulaFileError(str(e)) from None


def _load_formulas(path: Path, paper: Paper, table: Any) -> None:
    if not isinstance(table, dict):
        raise _fail(path, "[formulas]", "expected a table of formulas")
    for name, t in table.items():
        where = f"[formulas.{name}]"
        if not _IDENT.match(name):
            raise _fail(path, where, "a formula name must be an ASCII identifier")
        if reserved(name):
            raise _fail(path, where, f"formula name {reserved(name)}; choose another name")
        _fields(path, where, t, {"name", "kind", "source"},
                {"expr", "latex", "uses", "status", "note", "bounds", "direction", "solve_for",
                 "name_latex", "note_latex", "bounds_latex"})
        kind = t["kind"]
        if kind not in KINDS:
            raise _fail(path, where, f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        uses = t.get("uses", [])
        if not isinstance(uses, list) or not all(isinstance(u, str) and _IDENT.match(u) for u in uses):
            raise _fail(path, where, "'uses' must be a list of formula names")
        _math(path, where, t, "latex")
        chain: tuple = ()
        if "expr" in t:
            expr, text = _parse(path, where, t["expr"]), t["expr"]
        else:                  # a formula given by its LaTeX alone (expr/latex_in.py)
            expr, text, uses, chain = _from_latex(path, where, paper, table, name, t, uses)
        if kind in VALUE_KINDS and isinstance(expr, Rel):
            raise _fail(path, where, f"a {kind} must be a value, not a relation")
        if kind not in VALUE_KINDS and not isinstance(expr, Rel):
            raise _fail(path, where, f"a {kind} must be a relation 'lhs OP rhs'")
        expr = _bind_names(path, where, expr, paper, tuple(uses))
        status = t.get("status", "as printed")
        if status not in STATUSES:
            raise _fail(path, where, f"status must be one of {', '.join(STATUSES)}, not {status!r}")
        if status != "as printed" and not t.get("note"):
            raise _fail(path, where, f"status {status!r} needs a 'note' saying how/why")
        direction = t.get("direction", "")
        if kind == "bound" and direction not in ("upper", "lower"):
            raise _fail(path, where, "a bound needs direction = 'upper' or 'lower'")
        solve_for = t.get("solve_for", "")
        if solve_for and solve_for not in expr.symbols():
            raise _fail(path, where, f"solve_for {solve_for!r} does not appear in the expression")
        paper.formulas[name] = FormulaSpec(
            paper=paper.key, name=name, title=_str(path, where, t["name"], "name"), kind=kind,
            text=text, expr=expr, source=_str(path, where, t["source"], "source"),
            latex=t.get("latex", ""), uses=tuple(uses), status=FormulaStatus(status), note=t.get("note", ""),
            bounds=t.get("bounds", ""), direction=direction, solve_for=solve_for, from_latex="expr" not in t,
            title_latex=_latex_text(path, where, t, "name_latex"), note_latex=_latex_text(path, where, t, "note_latex"),
            bounds_latex=_latex_text(path, where, t, "bounds_latex"),
            chain=tuple(_bind_names(path, where, c, paper, tuple(uses)) for c in chain))
    for spec in paper.formulas.values():
        for u in spec.uses:
            if u not in paper.formulas:
                raise _fail(path, f"[formulas.{spec.name}]", f"uses unknown formula {u!r}")


def _from_latex(path: Path, where: str, paper: Paper, table: dict, name: str, t: dict, uses: list):
    """A formula without ``expr``: its ``latex`` parsed (:mod:`..expr.latex_in`, which
    imports SymPy), with symbols and the file's other formulas recognised by their LaTeX;
    the formulas it names are added to ``uses``. Returns (tree, text, uses, chain): ``chain``
    the relations a chained statement states between its other values (``Q := a = b``:
    ``a == b``), read in full and kept on the formula (``FormulaSpec.chain``)."""
    if not isinstance(t.get("latex"), str) or not t["latex"].strip():
        raise _fail(path, where, "give 'expr' (an expression) or 'latex' (the formula's LaTeX alone)")
    from ..expr import latex_in
    nm = paper.__dict__.get("_latex_names")
    if nm is None:
        forms = {n: (f.get("kind", ""), f.get("latex", "")) for n, f in table.items() if isinstance(f, dict)}
        nm = paper.__dict__["_latex_names"] = latex_in.names_of_paper(paper, forms)
    try:
        parsed = latex_in.parse_statement(t["latex"], nm, kind=t["kind"], where=f"{path.name}: {where} latex",
                                          exclude=name)
    except BoundcalcError as e:
        raise FormulaFileError(str(e)) from None
    if parsed.up_to_constants:       # never invent the constant a \lesssim hides
        raise _fail(path, where, "the LaTeX holds only up to constants (\\lesssim, \\gtrsim or \\approx): give "
                                 "'expr' with the hidden constant as a symbol of role = 'constant'")
    node = parsed.node
    refs = sorted({n for x in (node, *parsed.chain) for _, n in x.refs()})
    from ..expr.printing import to_text
    return node, to_text(node), list(dict.fromkeys([*uses, *refs])), parsed.chain


def _load_settings(path: Path, paper: Paper, table: Any) -> None:
    if not isinstance(table, dict):
        raise _fail(path, "[settings]", "expected a table of settings")
    for name, t in table.items():
        where = f"[settings.{name}]"
        _fields(path, where, t, {"name", "source", "values"},
                {"derived", "derived_uses", "requirements", "solve_for", "default", "aliases", "note",
                 "constraints"})
        values: dict[str, Fraction | Vector] = {}
        if not isinstance(t["values"], dict):
            raise _fail(path, where, "'values' must be a table symbol = value")
        for sym, v in t["values"].items():
            if sym not in paper.symbols:
                raise _fail(path, where, f"value for unknown symbol {sym!r}")
            if isinstance(v, list) and paper.symbols[sym].is_indexed:
                if not v:
                    raise _fail(path, where, f"{sym} = []: an indexed symbol needs at least one value")
                nums = [_number(path, f"{where} {sym}[{k + 1}]", x) for k, x in enumerate(v)]
                bad = next((x for x in nums if not paper.symbols[sym].domain.contains(x)), None)
                if bad is not None:
                    raise _fail(path, where, f"{sym} = {v!r}: {bad} is outside its domain ({paper.symbols[sym].domain})")
                values[sym] = Vector(nums, range_start(paper.symbols[sym]))
                continue
            num = _number(path, f"{where} {sym}", v)
            if not paper.symbols[sym].domain.contains(num):
                raise _fail(path, where, f"{sym} = {v!r} is outside its domain ({paper.symbols[sym].domain})")
            values[sym] = num
        try:
            check_lengths(paper.symbols, values)
        except BoundcalcError as e:
            raise _fail(path, where, str(e)) from None
        duses = tuple(t.get("derived_uses", []))
        for u in duses:
            if u not in paper.formulas:
                raise _fail(path, where, f"derived_uses names unknown formula {u!r}")
        derived = []
        for sym, text in t.get("derived", {}).items():
            if sym not in paper.symbols:
                raise _fail(path, where, f"derived value for unknown symbol {sym!r}")
            node = _bind_names(path, f"{where} derived {sym}",
                               _parse(path, f"{where} derived {sym}", text, allow_relation=False), paper, duses)
            derived.append((sym, node, text))
        reqs = tuple(t.get("requirements", []))
        for r in reqs:
            if r not in paper.formulas or paper.formulas[r].kind != "requirement":
                raise _fail(path, where, f"{r!r} is not a requirement formula of {paper.key}")
        constraints = []
        for c in t.get("constraints", []):
            node = _parse(path, f"{where} constraint", c)
            if not isinstance(node, Rel):
                raise _fail(path, where, f"constraint {c!r} must be a relation")
            constraints.append((_bind_names(path, f"{where} constraint", node, paper, duses), c))
        paper.settings[name] = Setting(
            paper=paper.key, name=name, title=_str(path, where, t["name"], "name"),
            source=_str(path, where, t["source"], "source"), values=values, derived=tuple(derived),
            requirements=reqs, solve_for=t.get("solve_for", ""), default=bool(t.get("default", False)),
            aliases=tuple(t.get("aliases", [])), note=t.get("note", ""), constraints=tuple(constraints))


def _load_hypotheses(path: Path, paper: Paper, items: Any) -> None:
    """``[[hypotheses]]``: the conditions under which the paper states each result. Either
    ``expr`` (a relation; formulas by bare name listed in ``uses``) or ``requirement`` (a
    requirement formula of the paper), with the paper's own words (``quote``) and where they
    are (``source``)."""
    if not isinstance(items, list):
        raise _fail(path, "[[hypotheses]]", "hypotheses must be an array of tables [[hypotheses]]")
    out = []
    for i, t in enumerate(items):
        where = f"[[hypotheses]] #{i + 1}"
        if isinstance(t, dict) and isinstance(t.get("result"), str):
            where += f" (result {t['result']!r})"
        _fields(path, where, t, {"result", "quote", "source"}, {"expr", "requirement", "uses", "note"})
        result = _str(path, where, t["result"], "result")
        if result not in paper.results:
            raise _fail(path, where, f"result {result!r} is not listed in [paper] results")
        for f in ("quote", "source"):
            if not _str(path, where, t[f], f).strip():
                raise _fail(path, where, f"{f} must not be empty (quote the statement and say where it is)")
        if ("expr" in t) == ("requirement" in t):
            raise _fail(path, where, "give exactly one of 'expr' (a relation) or 'requirement' (a formula name)")
        uses = _str_list(path, where, t.get("uses", []), "uses")
        for u in uses:
            if u not in paper.formulas:
                raise _fail(path, where, f"uses unknown formula {u!r}")
        node: Node
        if "requirement" in t:
            name = _str(path, where, t["requirement"], "requirement")
            spec = paper.formulas.get(name)
            if spec is None or spec.kind != "requirement":
                raise _fail(path, where, f"{name!r} is not a requirement formula of {paper.key}")
            node, text = Ref(None, name), name
        else:
            text = _str(path, where, t["expr"], "expr")
            node = _parse(path, f"{where} expr", text)
            if not isinstance(node, Rel):
                raise _fail(path, where, f"expr {text!r} must be a relation 'lhs OP rhs'")
            node = _bind_names(path, f"{where} expr", node, paper, uses)
        out.append(Hypothesis(paper.key, result, node, text, t["quote"], t["source"], t.get("note", "")))
    paper.hypotheses = tuple(out)


def _load_checks(path: Path, paper: Paper, items: Any, out: list, steps: Any = None) -> None:
    """``[[checks]]`` (each read into its kind's typed spec, :mod:`.checks`, then checked
    against the paper), then ``[[steps]]`` (which name checks; :mod:`.steps`)."""
    if not isinstance(items, list):
        raise _fail(path, "[[checks]]", "checks must be an array of tables [[checks]]")
    seen = set()
    for i, t in enumerate(items):
        if not isinstance(t, dict) or "kind" not in t or "id" not in t:
            raise _fail(path, f"[[checks]] #{i + 1}", "a check needs 'id' and 'kind'")
        where = f"check {t['id']!r}"
        cls = checks.KINDS.get(t["kind"])
        if cls is None:
            from ..suggest import did_you_mean
            raise _fail(path, where, f"field 'kind': kind must be one of {', '.join(checks.KINDS)}, not "
                                     f"{t['kind']!r}{did_you_mean(str(t['kind']), list(checks.KINDS))}")
        spec = cls.from_table(t, file=path.name, where=where)
        if spec.id in seen:
            raise _fail(path, where, "duplicate check id")
        seen.add(spec.id)
        _check_against_paper(path, where, paper, spec)
        out.append(CheckSpec(paper.key, spec.id, spec.kind, spec.location, spec.description, spec))
    _check_roots(path, out)
    vars(paper)["_steps"] = load_steps(path, paper, [] if steps is None else steps, {c.id for c in out})


def _check_roots(path: Path, out: list[CheckSpec]) -> None:
    """Every ``explained_by`` names a check of the file, and no chain of them is a cycle."""
    by_id = {c.id: c.spec for c in out}

    def root_of(spec) -> str | None:
        return spec.explained_by.check if spec.explained_by is not None else None
    for c in out:
        root = root_of(c.spec)
        if root is not None and root not in by_id:
            raise _fail(path, f"check {c.id!r}", f"explained_by names unknown check {root!r}")
        seen_roots, r = {c.id}, root
        while r is not None:                 # no cycles: a root is never its own consequence
            if r in seen_roots:
                raise _fail(path, f"check {c.id!r}", "explained_by forms a cycle")
            seen_roots.add(r)
            r = root_of(by_id[r])


def _formula_symbols(paper: Paper, ref: str, seen: set | None = None) -> set[str] | None:
    """The symbols of formula ``ref`` of this paper, its references inside the paper followed;
    None when it reaches into another paper (then not checked here)."""
    pk, _, nm = ref.rpartition(".")
    if (pk or paper.key) != paper.key or nm not in paper.formulas:
        return None
    seen = set() if seen is None else seen
    if nm in seen:
        return set()
    seen.add(nm)
    node = paper.formulas[nm].expr
    out = set(node.symbols())
    for r in node.refs():
        sub_ = _formula_symbols(paper, f"{r[0]}.{r[1]}" if r[0] else r[1], seen)
        if sub_ is None:
            return None
        out |= sub_
    return out


class _PaperCheck:
    """The fields of one check's typed spec against the paper (issue 18: a misspelt value is
    one line naming the file, the check and the field when the file loads, never a KeyError
    when the check runs): formulas named exist, ``covers`` lists results, names in
    expressions are symbols of the paper or formulas listed in ``uses``, the symbols a table
    names (``substitute``/``at``/``fixed``/``together``/``box`` keys, ``var``, ``wrt``) occur
    in the formula the check is about, ``box`` ranges, measurements and their sizes."""

    def __init__(self, path: Path, where: str, paper: Paper, spec: checks.CheckFields):
        self.path, self.where, self.paper, self.spec = path, where, paper, spec
        existential = spec.existential if isinstance(spec, checks.Derivation) else ()
        self.known = set(paper.symbols) | set(spec.used) | set(existential)
        self.refs = [r for r in spec.about() if isinstance(r, str)]

    def fail(self, fld: str, msg: str) -> FormulaFileError:
        return _fail(self.path, self.where, f"field {fld!r}: {msg}")

    def run(self) -> None:
        self.formulas()
        self.common()
        self.names_in_expressions()
        about = self.about()
        for name, table, md in self.spec.present("table"):
            if md["of_symbols"]:
                self.table(name, table, md, about)
        if isinstance(self.spec, checks.Order):
            self.regimes(self.spec.regimes)
        self.variables(about)
        if isinstance(self.spec, checks.Measured):
            self.measurement(self.spec)

    def formulas(self) -> None:
        from ..suggest import did_you_mean
        for name, ref, _ in self.spec.present("formula"):
            pk, _, nm = ref.rpartition(".")
            if (pk or self.paper.key) == self.paper.key and nm not in self.paper.formulas:
                raise _fail(self.path, self.where, f"{name} names unknown formula {ref!r}")
        for u in self.spec.used:
            if "." not in u and u not in self.paper.formulas:
                raise self.fail("uses", f"names unknown formula {u!r}{did_you_mean(u, list(self.paper.formulas))}")

    def common(self) -> None:
        spec, paper = self.spec, self.paper
        unknown = [c for c in spec.covers if c not in paper.results]
        if unknown:
            raise _fail(self.path, self.where, f"covers {', '.join(map(repr, unknown))}, which [paper] results "
                                               f"does not list")
        e = spec.explained_by
        for u in (e.uses if e is not None else ()):
            if u not in paper.formulas:
                raise _fail(self.path, self.where, f"explained_by uses unknown formula {u!r}")
        for n in (spec.existential if isinstance(spec, checks.Derivation) else ()):
            if n not in paper.symbols:
                raise _fail(self.path, self.where, f"existential names unknown symbol {n!r}")

    def names(self, fld: str, text: Any) -> None:
        """Every name in expression ``text`` is known (a symbol, a formula in ``uses``)."""
        from ..suggest import did_you_mean
        if isinstance(text, (int, float)) and not isinstance(text, bool):
            text = str(text)
        node = _parse(self.path, f"{self.where} {fld}", text, allow_relation=True)
        # an assumption on components at an undeclared index (a[i] >= 1) holds at every layer
        layer = {x.index.name for x in node.unique_nodes() if fld == "assume" and isinstance(x, Indexed)
                 and isinstance(x.index, Sym) and x.name in self.paper.symbols}
        for n in sorted(node.symbols()):
            if n not in self.known and n not in layer:
                raise self.fail(fld, f"unknown name {n!r} in {text!r}{did_you_mean(n, sorted(self.known))}: declare "
                                     f"it under [symbols.{n}] or list a formula of that name in 'uses'")

    def names_in_expressions(self) -> None:
        for name, text, _ in self.spec.present("expr"):
            self.names(name, text)
        for a in self.spec.assumptions:
            self.names("assume", a.expr)

    def about(self) -> set[str] | None:
        """The symbols of the formula(s) the check is about; None when unknown."""
        if isinstance(self.spec, checks.Identity):
            fn = _parse(self.path, f"{self.where} function", self.spec.function, allow_relation=False)
            if fn.refs():
                return None
            uses = self.spec.used
            return _union([_formula_symbols(self.paper, n) if n in uses else {n} for n in fn.symbols()])
        return _union([_formula_symbols(self.paper, r) for r in self.refs]) if self.refs else None

    def table(self, fld: str, table: dict, md: Any, about: set[str] | None) -> None:
        from ..suggest import did_you_mean
        side = getattr(self.spec, md["side"]) if md["side"] else None
        here = about if side is None else _formula_symbols(self.paper, side)
        for k, v in table.items():
            if k not in self.paper.symbols:
                raise self.fail(fld, f"names unknown symbol {k!r}{did_you_mean(k, list(self.paper.symbols))}")
            # 'at' and a vacuity's 'derived' set the point's values, which the hypotheses and the
            # derived values themselves use, not only the formula
            if here is not None and k not in here and fld not in ("at", "derived"):
                raise self.fail(fld, f"{k!r} does not occur in {side or ' / '.join(self.refs) or 'the function'}")
            if fld == "box":
                self.box_range(k, v)
            elif fld == "at":
                self.at_value(table, k, v)
            else:
                self.names(fld, v)

    def box_range(self, k: str, v: Any) -> None:
        if not isinstance(v, list) or len(v) != 2:
            raise self.fail("box", f"{k} = {v!r}: expected [lo, hi]")
        lo, hi = (_number(self.path, f"{self.where} box.{k}", x) for x in v)
        if lo > hi:
            raise self.fail("box", f"{k} = {v!r}: reversed range (lo must be <= hi)")

    def at_value(self, at: dict, k: str, v: Any) -> None:
        if not isinstance(v, str) or _plain_number(v):
            _number(self.path, f"{self.where} at.{k}", v)
            return
        self.names("at", v)
        # a value that is an expression may use only symbols 'at' itself sets
        free = sorted(_parse(self.path, f"{self.where} at.{k}", v, allow_relation=False).symbols()
                      - set(at) - set(self.spec.used))
        if free:
            raise self.fail("at", f"{k} = {v!r} uses {', '.join(map(repr, free))}, which 'at' does not set: "
                                  f"give {'it' if len(free) == 1 else 'them'} a value in 'at' or write a number")

    def regimes(self, regimes: tuple[checks.Regime, ...]) -> None:
        for r in regimes:
            for fld, table in (("together", r.together), ("fixed", r.fixed)):
                for k, v in (table or {}).items():
                    if k not in self.paper.symbols:
                        raise self.fail("regimes", f"{fld} names unknown symbol {k!r}")
                    self.names("regimes", v)
            if r.order is not None:
                self.names("regimes", r.order)
            for v in _var_list(r.var if r.var is not None else []):
                if v not in self.paper.symbols:
                    raise self.fail("regimes", f"var names unknown symbol {v!r}")

    def variables(self, about: set[str] | None) -> None:
        from ..suggest import did_you_mean
        for fld, value, _ in self.spec.present("var"):
            for v in (_var_list(value) if isinstance(self.spec, checks.Order) else [value]):
                if not isinstance(v, str) or v not in self.paper.symbols:
                    raise self.fail(fld, f"{v!r} is not a symbol of {self.paper.key}"
                                         f"{did_you_mean(str(v), list(self.paper.symbols))}")
                if about is not None and v not in about:
                    raise self.fail(fld, f"{v!r} does not occur in {' / '.join(self.refs) or 'the function'}")

    def measurement(self, spec: checks.Measured) -> None:
        from ..engine.measurements import MEASUREMENTS
        if spec.measurement not in MEASUREMENTS:
            raise _fail(self.path, self.where, f"unknown measurement {spec.measurement!r} "
                                               f"(known: {', '.join(sorted(MEASUREMENTS))})")
        for k in spec.at:
            if k not in MEASUREMENTS[spec.measurement].sizes:
                raise _fail(self.path, self.where, f"field 'at': measurement {spec.measurement!r} takes no size {k!r}")


def _check_against_paper(path: Path, where: str, paper: Paper, spec: checks.CheckFields) -> None:
    _PaperCheck(path, where, paper, spec).run()


def _union(sets: list[set[str] | None]) -> set[str] | None:
    """The union of ``sets``; None when one of them is unknown (None)."""
    out: set[str] = set()
    for x in sets:
        if x is None:
            return None
        out |= x
    return out


def _var_list(v) -> list:
    """An order check's ``var``: one symbol or a list of symbols tending together."""
    return list(v) if isinstance(v, list) else [v]


def _plain_number(text: str) -> bool:
    try:
        parse_number(text)
        return True
    except BoundcalcError:
        return False


def load_steps(path: Path, paper, items: Any, check_ids: set[str]) -> tuple[Step, ...]:
    """``[[steps]]`` of one file (:mod:`.steps`), against its check ids."""
    if not isinstance(items, list):
        raise _fail(path, "[[steps]]", "steps must be an array of tables [[steps]]")
    out: list[Step] = []
    seen: set[str] = set()
    for i, t in enumerate(items):
        where = f"[[steps]] #{i + 1}"
        if isinstance(t, dict) and isinstance(t.get("id"), str):
            where = f"step {t['id']!r}"
        _fields(path, where, t, {"id", "result", "place", "step"}, {"checks", "note"})
        sid = _str(path, where, t["id"], "id")
        if not _IDENT.match(sid):
            raise _fail(path, where, f"id {sid!r} must be an identifier")
        if sid in seen:
            raise _fail(path, where, "duplicate step id")
        seen.add(sid)
        result = _str(path, where, t["result"], "result")
        if result not in paper.results:
            raise _fail(path, where, f"result {result!r} is not listed in [paper] results")
        for f in ("place", "step"):
            if not _str(path, where, t[f], f).strip():
                raise _fail(path, where, f"{f} must not be empty (say where the step is displayed and what it states)")
        checks = _str_list(path, where, t.get("checks", []), "checks")
        unknown = [c for c in checks if c not in check_ids]
        if unknown:
            from ..suggest import did_you_mean
            raise _fail(path, where, f"checks names unknown check {unknown[0]!r}{did_you_mean(unknown[0], check_ids)}")
        out.append(Step(paper.key, sid, result, t["place"], t["step"], checks,
                        _str(path, where, t.get("note", ""), "note")))
    vars(paper)["_step_candidates"] = load_step_candidates(path, vars(paper).get("_step_candidates_raw", {}),
                                                           seen)
    return tuple(out)


def load_step_candidates(path: Path, table: Any, step_ids: set[str]) -> dict[str, dict]:
    """``[step_candidates]``: the candidates of a displayed step (``bench/steps_candidates.py``)
    a person decided, label -> ``{excluded = "reason"}`` (not a displayed step with algebra)
    or ``{steps = ["id", ...]}`` (the steps that list a display the script cannot match by
    its number, e.g. an unnumbered ``display@159``)."""
    if not isinstance(table, dict):
        raise _fail(path, "[step_candidates]", "expected a table: label = { excluded = \"reason\" } "
                                               "or label = { steps = [\"step id\"] }")
    out: dict[str, dict] = {}
    for label, t in table.items():
        where = f"[step_candidates] {label!r}"
        if not label.strip():
            raise _fail(path, where, "the label must not be empty")
        _fields(path, where, t, set(), {"excluded", "steps"})
        if len(t) != 1:
            raise _fail(path, where, "give exactly one of 'excluded' (the reason) and 'steps' (step ids)")
        if "excluded" in t:
            if not _str(path, where, t["excluded"], "excluded").strip():
                raise _fail(path, where, "'excluded' must give the reason (e.g. 'definition, no algebra')")
            out[label] = {"excluded": t["excluded"]}
            continue
        ids = _str_list(path, where, t["steps"], "steps")
        unknown = [x for x in ids if x not in step_ids]
        if not ids or unknown:
            from ..suggest import did_you_mean
            raise _fail(path, where, "'steps' must name steps of the file" + (
                f": unknown step {unknown[0]!r}{did_you_mean(unknown[0], step_ids)}" if unknown else ""))
        out[label] = {"steps": ids}
    return out
