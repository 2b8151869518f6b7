"""The evidence of a check finding in the paper's notation (issue 17, item 8): a helper
the Markdown, rich and HTML printers share, as ``sympy/printing/precedence.py`` is for
SymPy's printers. It imports no printer.

* the expressions a finding compares (``claim`` and ``derived_from_premise``, the two
  sides ``a``/``b`` of a restatement, a ``derivative``: :class:`Shown` strings that carry
  their SymPy expression and their symbols' LaTeX) are typeset: LaTeX through SymPy's
  ``latex`` with each symbol as the formula file declares it (``\\eta_K``,
  ``\\Phi(\\boldsymbol\\theta^0)``), or readable text (``η_K·√(d_s)``);
* an expression longer than :data:`LIMIT` characters gets named subterms: the subterm
  that fits and saves the most text (its length times how often it occurs) is named
  ``A``, then ``B`` ..., shared by every expression of the finding (the claim and the
  derived side name their common parts alike), until each line fits; the definitions come
  first, then the expressions in terms of them;
* the counterexample is a list of ``symbol = value`` in the same notation, with exact
  powers of ten as such (``N = 10^{12}``) and the two sides' values;
* everything else of the evidence stays one line of text (:func:`evidence_text`), and
  the JSON keeps SymPy's raw text.
"""
from __future__ import annotations

import re
from fractions import Fraction

LIMIT = 120                 # characters of text before an expression gets named subterms
MAX_NAMES = 12
MIN_NAMED = 16          # a shorter subterm is not worth a name
# evidence keys that hold an expression, and how a report labels them
EXPRESSIONS = {"claim": "claim", "derived_from_premise": "derived from the premise",
               "a": "side a", "b": "side b", "derivative": "derivative"}
POINT_KEYS = ("counterexample",)


def evidence_text(ev: dict, limit: int = 700, skip=()) -> str:
    """A finding's evidence on one line (order rows compacted), cut at ``limit``
    characters; keys in ``skip`` (shown typeset elsewhere) are left out."""
    parts = []
    for k, v in ev.items():
        if k in skip or v in (None, {}, [], ""):
            continue
        if k == "per_variable" and isinstance(v, list):
            v = ", ".join(f"{r['var']} -> {r['limit']} [{r['regime']}]: {r['exact']} vs {r['stated']} "
                          f"({'holds' if r['holds'] else 'fails'})" for r in v)
        parts.append(f"{k}: {plain(v)}")
    text = "; ".join(parts)
    return text if len(text) <= limit else text[:limit] + " …"


def plain(v, nested: bool = False) -> str:
    """A value of the evidence as text, not as Python's repr: a mapping ``k = v, ...`` (in
    brackets inside a list), a list ``a, b, ...``, a string as it is (no quotes, no doubled
    backslashes)."""
    if isinstance(v, dict):
        inner = ", ".join(f"{k} = {plain(x, True)}" for k, x in v.items())
        return f"[{inner}]" if nested else inner
    if isinstance(v, (list, tuple)):
        inner = ", ".join(plain(x, True) for x in v)
        return f"[{inner}]" if nested else inner
    return str(v)


def typeset_keys(ev: dict) -> list[str]:
    """The evidence keys this module typesets for ``ev`` (expressions that carry their
    SymPy form, and a counterexample point)."""
    keys = [k for k in EXPRESSIONS if getattr(ev.get(k), "expr", None) is not None]
    keys += [k for k in POINT_KEYS if _is_point(ev.get(k))]
    return keys


# ----------------------------------------------------------------------------- expressions
_GREEK = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"]
_GREEK_LOWER = {n: chr(0x3B1 + i + (1 if i >= 17 else 0)) for i, n in enumerate(_GREEK)}
_GREEK_UPPER = {n.capitalize(): chr(0x391 + i + (1 if i >= 17 else 0)) for i, n in enumerate(_GREEK)}
_WORD = re.compile(r"[A-Za-z]+")


def _unicode_name(name: str) -> str:
    """``eta_K`` -> ``η_K``, ``Phi0`` -> ``Φ0`` (whole Greek words become letters, nothing else)."""
    return _WORD.sub(lambda m: _GREEK_LOWER.get(m.group(), _GREEK_UPPER.get(m.group(), m.group())), name)


def _text_printer():
    from ...backends import sympy_import  # noqa: F401  -- SymPy's one importer (issue 37)
    # isort: split
    from sympy.printing.str import StrPrinter

    class _Readable(StrPrinter):
        def _print_Symbol(self, s):
            return _unicode_name(s.name)

    return _Readable({"order": None})


def text(expr) -> str:
    """Readable text: Greek letters, ``^`` for powers, ``·`` for products, ``√``."""
    try:
        s = _text_printer().doprint(expr)
    except (ValueError, TypeError):           # SymPy's own text never fails
        s = str(expr)
    s = s.replace("**", "^").replace("*", "·")
    return s.replace("sqrt(", "√(")


def latex(expr, names: dict) -> str:
    """LaTeX through SymPy, each symbol as ``names`` gives it (the formula file's LaTeX).

    SymPy's LaTeX printer splits a product into numerator and denominator by substituting
    0 for every symbol, which raises inside ``Max``/``Min`` (``zoo`` is not comparable): then
    each ``Max``/``Min`` is typeset on its own and stands in the product as one symbol; if
    that fails too, the expression is shown as text (never a traceback)."""
    from ...backends.sympy_import import sympy as sp
    # a name carrying its own superscript or prime (\ell'_{\max}) is braced, as
    # expr.printing.to_latex does: else x^{2} makes a double superscript LaTeX refuses
    symbol_names = {s: ("{" + names[s.name] + "}" if ("^" in names[s.name] or "'" in names[s.name])
                        else names[s.name]) for s in expr.free_symbols if s.name in names}
    try:
        return sp.latex(expr, symbol_names=symbol_names)
    except (ValueError, TypeError):
        pass
    try:
        stand_in = {}
        for m in sorted(expr.atoms(sp.Max, sp.Min), key=sp.default_sort_key):
            d = sp.Dummy()
            symbol_names[d] = sp.latex(m, symbol_names=symbol_names)
            stand_in[m] = d
        return sp.latex(expr.xreplace(stand_in), symbol_names=symbol_names)
    except (ValueError, TypeError):
        from ..escape import latex_escape
        return "\\text{" + latex_escape(text(expr)) + "}"


def name_subterms(exprs: dict, limit: int = LIMIT, avoid=frozenset()):
    """``(definitions, exprs)``: subterms named until every expression's text (and every
    definition's) fits in ``limit`` characters, largest first, one name per distinct
    subterm across all the expressions. ``definitions`` is a list of (name, subterm);
    ``avoid``: letters not to use as names (a symbol typeset as that letter)."""
    from ...backends.sympy_import import sympy as sp
    taken = {s.name for e in exprs.values() for s in e.free_symbols} | set(avoid)
    taken |= {n.split("_")[0] for n in taken}      # no A beside the paper's A_1
    fresh = (c for c in "ABCDEFGHKLMPQRSTUVWXYZ" if c not in taken)
    defs: list = []
    out = dict(exprs)
    for _ in range(MAX_NAMES):
        long = [e for e in list(out.values()) + [d for _, d in defs] if len(text(e)) > limit]
        if not long:
            break
        # how often each subterm occurs in everything shown: a part repeated across the lines
        # is named first (it shortens every line it is in), then the longest that fits
        seen: dict = {}
        for e in list(out.values()) + [d for _, d in defs]:
            for sub in sp.preorder_traversal(e):
                seen[sub] = seen.get(sub, 0) + 1
        best, best_score = None, 0
        for e in long:
            for sub in sp.preorder_traversal(e):
                if sub is e or sub.is_Atom or not sub.free_symbols:
                    continue
                n = len(text(sub))
                if MIN_NAMED <= n <= limit and n * seen[sub] > best_score:
                    best, best_score = sub, n * seen[sub]
        if best is None:
            break
        name = next(fresh, None)
        if name is None:
            break
        sym = sp.Symbol(name)
        out = {k: e.xreplace({best: sym}) for k, e in out.items()}
        defs = [(n, d.xreplace({best: sym})) for n, d in defs]
        defs.append((sym, best))
    return defs, out


def expressions(ev: dict):
    """``(definitions, [(label, key, expr)], names)`` for the typeset expressions of ``ev``."""
    keys = [k for k in EXPRESSIONS if getattr(ev.get(k), "expr", None) is not None]
    names: dict = {}
    for k in keys:
        names.update(ev[k].names)
    defs, out = name_subterms({k: ev[k].expr for k in keys})
    return defs, [(EXPRESSIONS[k], k, out[k]) for k in keys], names


# ----------------------------------------------------------------------------- points
def _is_point(ce) -> bool:
    """A counterexample that is a point (symbol -> value, and the sides' values); anything
    else (pairs of points, nested rows) stays in the one-line evidence text."""
    return isinstance(ce, dict) and bool(ce) and all(isinstance(v, (str, int, float, Fraction))
                                                     and not isinstance(v, bool) for v in ce.values())


def _point_items(ce: dict) -> list[tuple[str, str]]:
    return [(k, str(v)) for k, v in ce.items() if isinstance(v, (str, int, float, Fraction))]


_DEC = re.compile(r"(-?)(\d+(?:\.\d+)?)(?:e([+-]?\d+))?")


def _power_of_ten(n: int) -> int | None:
    s = str(n)
    return len(s) - 1 if n > 0 and s == "1" + "0" * (len(s) - 1) else None


def _number_parts(v: str):
    """(kind, parts) of a value as the check writes it: an integer, p/q, or a decimal."""
    v = v.strip()
    if re.fullmatch(r"-?\d+", v):
        return "int", int(v)
    m = re.fullmatch(r"(-?\d+)/(\d+)", v)
    if m:
        return "frac", (int(m.group(1)), int(m.group(2)))
    m = _DEC.fullmatch(v)
    if m:
        return "dec", (m.group(1), m.group(2), int(m.group(3)) if m.group(3) else None)
    return "text", v


_SUP = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def value_latex(v: str) -> str:
    kind, x = _number_parts(v)
    if kind == "int":
        k = _power_of_ten(abs(x))
        if k is not None and k >= 4:
            return ("-" if x < 0 else "") + f"10^{{{k}}}"
        return str(x)
    if kind == "frac":
        p, q = x
        k = _power_of_ten(q)
        if abs(p) == 1 and k is not None and k >= 3:
            return ("-" if p < 0 else "") + f"10^{{-{k}}}"
        return ("-" if p < 0 else "") + f"\\tfrac{{{abs(p)}}}{{{q}}}"
    if kind == "dec":
        sign, mant, e = x
        return f"{sign}{mant}" + (f" \\times 10^{{{e}}}" if e else "")
    from ..escape import latex_escape
    return "\\text{" + latex_escape(x) + "}"


def value_text(v: str) -> str:
    kind, x = _number_parts(v)
    if kind == "int":
        k = _power_of_ten(abs(x))
        return ("-" if x < 0 else "") + "10" + str(k).translate(_SUP) if k is not None and k >= 4 else str(x)
    if kind == "frac":
        p, q = x
        k = _power_of_ten(q)
        if abs(p) == 1 and k is not None and k >= 3:
            return ("-" if p < 0 else "") + "10" + f"-{k}".translate(_SUP)
        return f"{p}/{q}"
    if kind == "dec":
        sign, mant, e = x
        return f"{sign}{mant}" + ("×10" + str(e).translate(_SUP) if e else "")
    return x


def point_latex_items(ce: dict, names: dict) -> list[str]:
    """``["C_1 = 4", "N = 10^{12}", ...]`` (then the two sides' values), LaTeX, one per symbol."""
    from ...backends.sympy_import import sympy as sp
    parts = []
    for k, v in _point_items(ce):
        if names.get(k):
            sym = names[k]
        elif k in ("lhs", "rhs") or not k.isidentifier():      # a side's label, as the record names it
            from ..escape import latex_escape
            sym = f"\\text{{{latex_escape(k)}}}"
        else:
            sym = sp.latex(sp.Symbol(k))
        parts.append(f"{sym} = {value_latex(v)}")
    return parts


def point_latex(ce: dict, names: dict) -> str:
    """``C_1 = 4,\\ N = 10^{12}, ...`` (then the two sides' values), LaTeX."""
    return ",\\ ".join(point_latex_items(ce, names))


def point_text(ce: dict) -> str:
    return ", ".join(f"{_unicode_name(k)} = {value_text(v)}" for k, v in _point_items(ce))


def sympy_ascii(text: str) -> str:
    """SymPy's text inside a message (``N**(-1/2)``, ``8*exp(x)``, ``oo``) in the ASCII math
    convention the reader knows (``N^(-1/2)``, ``8·exp(x)``, ``∞``, ``a = b`` for ``a == b``);
    a star that decorates a name (``gamma_*``, ``theta*``) stays."""
    text = re.sub(r"(?<![\w.])oo(?!\w)", "∞", text)                 # SymPy's infinity
    text = text.replace(" == ", " = ")                                # SymPy's Eq, Python's ==
    return re.sub(r"(?<=[\w)])\*(?=[\w(])", "·", text.replace("**", "^"))


_DOLLARS = re.compile(r"(\$\$.*?\$\$|\$[^$]*\$)", re.DOTALL)
_GREEK_WORD = re.compile(r"(?<![\\A-Za-z])(" + "|".join(sorted(_GREEK + [n.capitalize() for n in _GREEK],
                                                                   key=len, reverse=True)) + r")(?![A-Za-z])")


def readable(text: str) -> str:
    """Free text of a finding (a message, a location, the rest of its evidence) in the notation
    :func:`text` gives its expressions, so that a terminal report has one: SymPy's and Python's
    ``d**(3/2)``, ``a*b``, ``a == b``, ``oo`` as ``d^(3/2)``, ``a·b``, ``a = b``, ``∞`` (as
    :func:`sympy_ascii`, but a quote's ``**bold**`` keeps its stars), ``sqrt(x)`` as ``√(x)``, and a Greek name, alone or in an
    identifier (``theta``, ``Z_nu``, ``gamma_attn``), as its letter. A quoted ``$...$`` (the
    paper's LaTeX) is left as it is."""
    out = []
    for k, part in enumerate(_DOLLARS.split(str(text))):
        if k % 2:
            out.append(part)
            continue
        # a power between operands (d**2, (a+b)**(1/2)); a quote's **bold** keeps its stars
        part = re.sub(r"(?<=[\w)\]])\*\*(?=[\w(\-+])", "^", part)
        part = re.sub(r"(?<![\w.])oo(?!\w)", "∞", part).replace(" == ", " = ")
        part = re.sub(r"(?<=[\w)])\*(?=[\w(])", "·", part)
        part = re.sub(r"(?<![\w\\])sqrt\(", "√(", part)
        out.append(_GREEK_WORD.sub(lambda m: _GREEK_LOWER.get(m.group(), _GREEK_UPPER.get(m.group(), m.group())),
                                   part))
    return "".join(out)


def added_lines(f, *, text=str, assumption=str, reason=str) -> list[str]:
    """One line per assumption the check added (``Finding.added``): what it is, whether the
    pass needs it, and its reason. Plain text by default (the printers escape it); a printer
    that typesets passes its own ``text`` escaper, ``assumption`` (the relation, in the ASCII
    math convention) and ``reason`` (words with the paper's ``$...$`` math) formatters."""
    out = []
    for a in getattr(f, "added", None) or []:
        need = {True: "the pass needs it", False: "not needed: passes without it"}.get(a.get("needed"), "")
        out.append(text(f"added by us ({a['kind']}): ") + assumption(a["assumption"])
                   + text(f" — {need}" if need else "")
                   + (text("; reason: ") + reason(a["reason"]) if a.get("reason") else text("; no reason given")))
    return out


def strength_lines(f) -> list[str]:
    """Plain-text lines for ``--strength`` (``Finding.strength``): the mutants caught, of the
    paper's side and of the rest, and the count that survived."""
    s = getattr(f, "strength", None)
    if not s:
        return []
    paper = [x for x in s.get("caught", []) if x in s.get("paper_caught", [])]
    other = [x for x in s.get("caught", []) if x not in paper]
    return [f"--strength: {s['killed']}/{s['mutants']} mutants caught, {len(paper)} of the paper's side"
            + (f" ({'; '.join(paper)})" if paper else "")
            + (f"; caught, not counted (the claim's form or our encoding): {'; '.join(other)}" if other else "")]
