"""A formula of the registry as an object: ``evaluate``, ``holds``, ``solve``, ``monotone`` ...

The class behind :func:`boundcalc.formula` (re-exported by :mod:`boundcalc.api`), here in the
services layer so that the experiments and the reports, which sit below the API, use the same
object without importing the API."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, overload

from ..backends import mp as mpb
from ..errors import BoundcalcError
from ..expr.nodes import Node, Rel, sub
from ..registry import get_registry
from ..registry.model import FormulaSpec, Setting, Symbol
from ..registry.values import Value, bind
from ..verdicts import FormulaStatus


class Formula:
    """One formula of a paper, with its references inlined.

    ``evaluate`` (mpmath, certified digits), ``grid`` (NumPy), ``holds`` (requirements),
    ``simplify``/``latex``/``monotone``/``asymptotic`` (SymPy, imported on demand),
    ``solve`` (least value of a variable meeting a requirement).
    """

    def __init__(self, spec: FormulaSpec, registry):
        self.spec = spec
        self._reg = registry
        self.expr: Node = registry.resolved(spec.id)
        self.symbol_table: dict[str, Symbol] = registry.symbol_table(spec.id)
        self.setting: Setting | None = None          # set on the copy at_setting returns

    # ------------------------------------------------------------ metadata
    id = property(lambda self: self.spec.id)
    name = property(lambda self: self.spec.title)
    kind = property(lambda self: self.spec.kind)
    source = property(lambda self: self.spec.source)
    status = property(lambda self: self.spec.status)
    note = property(lambda self: self.spec.note)
    paper = property(lambda self: self.spec.paper)
    latex_printed = property(lambda self: self.spec.latex)

    @property
    def symbols(self) -> list[str]:
        """The names of the formula's symbols, sorted."""
        return sorted(self.symbol_table)

    @property
    def constants(self) -> list[str]:
        """The symbols whose role is ``constant`` (the paper's constants, e.g. a hidden C)."""
        return [n for n, s in self.symbol_table.items() if s.is_constant]

    @property
    def dependencies(self) -> list[str]:
        """The ids of the formulas this one uses, directly or not, in dependency order."""
        return self._reg.dependencies(self.id)

    @property
    def is_relation(self) -> bool:
        """Whether the formula is a relation (a requirement or a claim), not a value."""
        return isinstance(self.expr, Rel)

    def _relation(self) -> Rel:
        """The expression of a relation; a one-line error for a value."""
        if not isinstance(self.expr, Rel):
            raise BoundcalcError(f"{self.id} is a {self.kind}, not a relation")
        return self.expr

    def __repr__(self) -> str:
        return f"<Formula {self.id}: {self.spec.text}>"

    # ------------------------------------------------------------ numeric
    # Symbol values are keywords (``T=8``) or a mapping given first (``{"T": 8}``), or both.
    # Keywords that are options (``digits``) are the options: a symbol named like one (or
    # like ``self``) is given in the mapping. The mapping and ``self`` are positional-only,
    # so any symbol name can be a keyword without colliding with a parameter.
    def _values(self, values, kw: dict, what: str = "values") -> dict:
        if values is None:
            return kw
        if not isinstance(values, dict):
            hint = " (digits is a keyword: digits=...)" if isinstance(values, int) and what == "values" else ""
            raise BoundcalcError(f"{self.id}: {what} must be a mapping symbol -> value (or keywords), "
                                 f"not a {type(values).__name__}{hint}")
        both = sorted(set(values) & set(kw))
        if both:
            raise BoundcalcError(f"{self.id}: symbol {both[0]!r} is given twice (in the mapping and as a keyword)")
        return {**values, **kw}

    def at_setting(self, setting: str | None = None, values: dict | None = None, /, *,
                   vary: list | tuple = ()) -> tuple[Formula, dict]:
        """This formula in a setting of its paper (``None``: the paper's default setting, found
        by :meth:`Registry.setting`, as ``require`` finds it): ``(formula, values)``, where
        ``values`` are the setting's values of the formula's symbols overridden by the given
        ``values``, and the returned formula has the setting's derived quantities inlined as
        exact expressions (in the setting's order; a derived symbol given in ``values`` is
        not inlined: the given value wins). Evaluate the pair as ``f.evaluate(values)``.
        ``vary``: symbols left free (``monotone --setting``: the variable and the box's
        symbols), neither taken from the setting nor inlined."""
        import copy

        from ..expr.nodes import substitute
        given = dict(values or {})
        st = self._reg.setting(self.paper, setting)
        inline: dict[str, Node] = {}
        for sym, node, _ in st.derived:
            if sym not in given and sym not in vary:
                inline[sym] = substitute(self._reg.resolve(node, st.paper), inline)
        out = copy.copy(self)
        if inline:
            out.expr = substitute(self.expr, inline)
            out.symbol_table = self._reg.symbol_table(out.expr, self.paper)
        merged = {k: v for k, v in st.values.items()
                  if k in out.symbol_table and k not in inline and k not in vary}
        merged.update(given)
        out.setting = st
        self._check_derived(st, inline, merged)
        return out, merged

    def _check_derived(self, st, inline: dict, values: dict) -> None:
        """Each derived quantity this formula uses (directly or through another) must lie in
        its symbol's domain at these values, as ``require`` checks it; outside: one error
        naming the setting, the quantity and its value."""
        from .require import _in_domain
        relevant = set(self.expr.symbols())
        for sym, node, _ in reversed(st.derived):
            if sym in relevant:
                relevant |= self._reg.resolve(node, st.paper).symbols()
        for sym, node, text in st.derived:
            if sym not in inline or sym not in relevant:
                continue
            expr = inline[sym]
            table = self._reg.symbol_table(expr, st.paper)
            b = bind(table, {k: v for k, v in values.items() if k in table}, what=f"{st.id}: {sym} = {text}")
            value = mpb.point_fraction(expr, b.env, prec=128)
            if value is None:
                value = mpb.evaluate(expr, b.env, digits=20, what=f"{st.id}: {sym} = {text}")
            decl = self._reg.paper(st.paper).symbols.get(sym)
            if decl is not None and not _in_domain(decl.domain, expr, b.env, value):
                raise BoundcalcError(f"{st.id}: {sym} = {text} evaluates to {mpb.fmt_sig(value, 6)} at these "
                                     f"values, but {sym} {decl.domain.describe()} ({decl.description})")

    def bind(self, values: dict[str, Any], allow_extra: bool = False):
        """Exact values for every symbol (given, else the symbol's default), each checked
        against its domain (:func:`boundcalc.registry.values.bind`)."""
        return bind(self.symbol_table, values, what=self.id, allow_extra=_flag(allow_extra, "allow_extra"))

    def evaluate(self, values: dict | None = None, /, *, digits: int = 15, **kw) -> Value:
        """Certified value to ``digits`` significant digits (mpmath; never overflows)."""
        if self.is_relation:
            raise BoundcalcError(f"{self.id} is a {self.kind} (a relation); use holds() or solve()")
        digits = _digits(digits)
        b = self.bind(self._values(values, kw))
        v = mpb.evaluate(self.expr, b.env, digits=digits, what=self.id)
        return Value(v, digits, b.defaults_used, b.constants)

    def sides(self, values: dict | None = None, /, *, digits: int = 15, **kw) -> tuple[Value, Value]:
        """Both sides of a relation, evaluated."""
        if not self.is_relation:
            raise BoundcalcError(f"{self.id} is a {self.kind}, not a relation")
        digits = _digits(digits)
        b = self.bind(self._values(values, kw))
        rel = self._relation()
        lhs = mpb.evaluate(rel.lhs, b.env, digits=digits, what=f"{self.id} (left side)")
        rhs = mpb.evaluate(rel.rhs, b.env, digits=digits, what=f"{self.id} (right side)")
        return (Value(lhs, digits, b.defaults_used, b.constants), Value(rhs, digits, b.defaults_used, b.constants))

    def holds(self, values: dict | None = None, /, **kw) -> bool:
        """Whether a requirement/claim holds at these values (decided exactly or with
        certified interval arithmetic)."""
        if not self.is_relation:
            raise BoundcalcError(f"{self.id} is a {self.kind}, not a relation")
        from .solve import relation_holds
        b = self.bind(self._values(values, kw))
        return relation_holds(self._relation(), b.env, what=self.id)

    def grid(self, arrays: dict | None = None, /, **kw):
        """Vectorised evaluation over NumPy arrays (broadcasting); entries beyond the
        double range come back as exact mpmath values in an object array."""
        from ..backends.np import evaluate_grid
        if self.is_relation:
            raise BoundcalcError(f"{self.id} is a relation; evaluate its sides")
        b = bind(self.symbol_table, self._values(arrays, kw, "arrays"), what=self.id, grid=True)
        try:
            import numpy as np
            np.broadcast_shapes(*(np.shape(a) for a in b.env.values()))
        except ValueError:
            raise BoundcalcError(f"grid of {self.id}: the arrays do not broadcast together (shapes "
                                 + ", ".join(f"{k} {np.shape(a)}" for k, a in b.env.items()) + ")") from None
        return evaluate_grid(self.expr, b.env)

    # ------------------------------------------------------------ symbolic
    def sympy(self):
        """The formula as a SymPy expression, its symbols carrying their domains' assumptions."""
        from ..prover.symbolic import to_sympy_with_domains
        return to_sympy_with_domains(self.expr, self.symbol_table)[0]

    def simplify(self):
        """The formula simplified by SymPy (:func:`boundcalc.services.simplify.simplify`)."""
        from .simplify import simplify
        return simplify(self)

    def latex(self) -> str:
        """The formula's expression typeset (SymPy's LaTeX), with the symbols' LaTeX names."""
        from ..backends.sym import to_latex
        return to_latex(self.expr, {n: s.latex for n, s in self.symbol_table.items()})

    def latex_read(self) -> dict:
        """How the printed LaTeX reads (:mod:`boundcalc.expr.latex_in`): ``{"text": ...,
        "latex": ..., "chain": [...]}`` -- the expression read, in plain text (the formula
        syntax, references by name) and typeset again in the paper's notation (references
        inlined), with the relations a chained statement states between its other values --
        or ``{"refused": why}``; ``{}`` when the formula has no printed LaTeX."""
        if not self.spec.latex:
            return {}
        from ..errors import BoundcalcError as _E
        from ..expr.printing import to_text
        from .check.transcription import printed
        try:
            p = printed(self._reg, self._reg.paper(self.paper), self.spec)
        except _E as e:
            return {"refused": str(e)}
        from ..backends.sym import to_latex
        from ..expr.latex_tokens import quantity_latex
        from ..expr.nodes import Ref, Sym
        names = {n: s.latex for n, s in self._reg.symbol_table(p.node, self.paper).items()}
        refs: dict = {}

        def named(n):                  # a formula the LaTeX names: typeset by its own quantity
            if isinstance(n, Ref):
                spec = self._reg.spec(f"{n.paper or self.paper}.{n.name}")
                refs[f"ref_{n.name}"] = quantity_latex(spec.latex) or rf"\mathrm{{{n.name}}}"
                return Sym(f"ref_{n.name}")
            return None
        typeset = to_latex(p.raw.map(named), {**names, **refs})
        return {"text": to_text(p.raw), "latex": typeset,
                "chain": [to_text(c) for c in p.chain]}

    def definition_latex(self) -> str:
        """The formula as a statement built from its parts: left side, relation, right side.
        A definition or a bound is ``<quantity> := <expression>`` / ``<quantity> \\leq
        <expression>`` (``\\geq`` for a lower bound): the quantity is the left side of the
        printed LaTeX's top-level relation (:func:`~boundcalc.expr.latex_tokens.quantity_latex`,
        never cut inside brackets, and only if balanced), the right side our expression (SymPy
        LaTeX, references inlined). Without a printed quantity it is the expression alone. A
        requirement or claim is its own relation, typeset from the expression."""
        body = self.latex()
        if self.is_relation:
            return body
        from ..expr.latex_tokens import quantity_latex
        lhs = quantity_latex(self.latex_printed)
        if not lhs:
            return body
        if self.kind == "bound":
            rel = "\\geq" if self.spec.direction == "lower" else "\\leq"
        else:
            rel = ":="
        return f"{lhs} {rel} {body}"

    def _repr_latex_(self) -> str:
        return f"${self.definition_latex()}$"

    def _var(self, var) -> str:
        if not isinstance(var, str):
            raise BoundcalcError(f"{self.id}: var must be a symbol name (a string), not a {type(var).__name__}")
        return var

    def monotone(self, var: str, /, **kw):
        """Monotonicity in ``var``; options ``box``, ``fixed`` (mappings), ``samples``, ``seed``."""
        from .monotone import monotone
        _options(kw, {"box": dict, "fixed": dict, "samples": int, "seed": int}, f"{self.id}: monotone")
        return monotone(self, self._var(var), **kw)

    def asymptotic(self, var: str, /, **kw):
        """Order as ``var`` tends to infinity; options ``fixed`` and ``together`` (mappings)."""
        from .asymptotic import asymptotic
        _options(kw, {"fixed": dict, "together": dict}, f"{self.id}: asymptotic")
        return asymptotic(self, self._var(var), **kw)

    def solve(self, var: str, values: dict | None = None, /, *, within: tuple | None = None, **kw):
        """Least value of ``var`` (integer if its domain is) for which the requirement holds;
        ``within=(lo, hi)`` searches only that range of ``var`` (an end None, ``"-inf"`` or
        ``"inf"``: the domain's), as ``require --from/--to``."""
        from .solve import solve_requirement
        if within is not None and (not isinstance(within, (tuple, list)) or len(within) != 2):
            raise BoundcalcError(f"{self.id}: within must be a pair (lo, hi), got {within!r}")
        return solve_requirement(self, self._var(var), self._values(values, kw),
                                 None if within is None else tuple(within))

    def difference(self) -> Node:
        """lhs - rhs of a relation."""
        rel = self._relation()
        return sub(rel.lhs, rel.rhs)


def _digits(digits) -> int:
    import numbers
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or not 1 <= int(digits) <= 10000:
        raise BoundcalcError(f"digits must be an integer between 1 and 10000, not {digits!r}")
    return int(digits)


def _flag(value, name: str) -> bool:
    if not isinstance(value, bool):
        raise BoundcalcError(f"{name} must be True or False, not {value!r}")
    return value


def _options(kw: dict, allowed: dict[str, type], what: str) -> None:
    """Keyword options of a service call: known names, of the right type (None: unset)."""
    for k, v in kw.items():
        if k not in allowed:
            raise BoundcalcError(f"{what}: unknown option {k!r}; options: {', '.join(allowed)}")
        t = allowed[k]
        if v is not None and (not isinstance(v, t) or isinstance(v, bool)):
            raise BoundcalcError(f"{what}: option {k} must be {'a mapping' if t is dict else 'an integer'}, "
                                 f"not {v!r}")


def _registry(formulas_path):
    """The registry with ``formulas_path`` (None, one path, or a list of paths) checked."""
    import os
    if formulas_path is None:
        return get_registry(None)
    if isinstance(formulas_path, (str, os.PathLike)):
        formulas_path = [formulas_path]
    if not isinstance(formulas_path, (list, tuple)) or not all(
            isinstance(p, (str, os.PathLike)) for p in formulas_path):
        raise BoundcalcError(f"formulas_path must be a path or a list of paths, not {formulas_path!r:.80}")
    return get_registry([os.fspath(p) for p in formulas_path])


@overload
def _name(value, name: str, optional: Literal[False] = False) -> str: ...
@overload
def _name(value, name: str, optional: bool) -> str | None: ...
def _name(value, name: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise BoundcalcError(f"{name} must be a non-empty string{' or None' if optional else ''}, "
                             f"not {value!r:.80}")
    return value


def formula(fid: str, *, formulas_path: list[str] | None = None) -> Formula:
    """One formula by id, ``paper.name`` (e.g. ``"deora2023.beta2"``)."""
    fid = _name(fid, "formula id")
    reg = _registry(formulas_path)
    return Formula(reg.spec(fid), reg)


# ------------------------------------------------------------ what list / show / eval return
# Records that carry everything their printers need (reports/printers: json, text, rich); the
# CLI builds none of their output.
@dataclass(frozen=True)
class FormulaEntry:
    """One formula as ``boundcalc list`` shows it."""
    id: str
    name: str
    kind: str
    source: str
    status: FormulaStatus


@dataclass(frozen=True)
class FormulaListing:
    """The formulas ``boundcalc list`` shows, in the registry's order."""
    entries: tuple[FormulaEntry, ...]


def listing(formulas) -> FormulaListing:
    """The :class:`FormulaListing` of ``formulas`` (:class:`Formula` objects)."""
    return FormulaListing(tuple(FormulaEntry(f.id, f.name, f.kind, f.source, f.status) for f in formulas))


@dataclass(frozen=True)
class FormulaDetails:
    """One formula as ``boundcalc show`` shows it: its expression, the LaTeX as printed and
    as read (:meth:`Formula.latex_read`), what it uses, its symbols and whether its constant
    is exact."""
    id: str
    name: str
    kind: str
    expr: str
    source: str
    latex_printed: str
    latex_read: dict
    status: FormulaStatus
    note: str
    uses: list[str]
    symbols: dict[str, dict[str, Any]]     # name -> description, domain, latex, role, default
    qualifier: str


def details(f: Formula) -> FormulaDetails:
    """The :class:`FormulaDetails` of ``f``."""
    return FormulaDetails(
        f.id, f.name, f.kind, f.spec.text, f.source, f.latex_printed, f.latex_read(), f.status, f.note,
        f.dependencies,
        {n: {"description": s.description, "domain": str(s.domain), "latex": s.latex, "role": s.role,
             "default": None if s.default is None else str(s.default)}
         for n, s in f.symbol_table.items()},
        ("up to the absolute constant(s) " + ", ".join(f.constants)) if f.constants else "exact constant")


@dataclass(frozen=True)
class Evaluation:
    """A formula evaluated at given values (``boundcalc eval``): a value to ``digits``
    certified digits, or -- a relation -- whether it holds, with its two sides."""
    id: str
    kind: str
    status: FormulaStatus
    qualifier: str
    digits: int
    defaults_used: dict[str, str]           # symbol -> its default, for those not given
    setting: str | None = None              # the setting the values came from
    value: str | None = None                # a value: its certified digits
    as_float: float | None = None
    holds: bool | None = None               # a relation: whether it holds, and its sides
    lhs: str | None = None
    rhs: str | None = None

    @property
    def is_relation(self) -> bool:
        return self.holds is not None


def evaluation(f: Formula, values: dict, *, digits: int = 15) -> Evaluation:
    """``f`` evaluated at ``values`` (its setting, if :meth:`Formula.at_setting` made it)."""
    setting = f.setting.id if f.setting is not None else None
    if f.is_relation:
        lhs, rhs = f.sides(values, digits=digits)
        return Evaluation(f.id, f.kind, f.status, lhs.qualifier, digits,
                          {k: str(v) for k, v in lhs.defaults_used.items()}, setting,
                          holds=f.holds(values), lhs=str(lhs), rhs=str(rhs))
    v = f.evaluate(values, digits=digits)
    return Evaluation(f.id, f.kind, f.status, v.qualifier, digits, {k: str(x) for k, x in v.defaults_used.items()},
                      setting, value=str(v), as_float=v.float)

