"""Formulas from LaTeX: a formula's printed LaTeX -> the whitelist expression tree.

The reader is boundcalc's own: the text is first checked as math (:func:`check`: the one
whitelist of math commands and TeX's structural rules, :mod:`.latex_tokens`), cut at its
top-level relations (:func:`split`), its names recognised, and each part read by a small
grammar (:class:`_Reader`) straight into the tree of :mod:`.nodes` (Num, Const, Sym, Ref,
Add, Mul, Pow, Func, Indexed, BigOp, Rel). **Every token is read or refused**: a token the
grammar does not place in the result is a one-line refusal naming it, never dropped.
Nothing is ever ``eval``-ed or ``sympify``-ed, and this module imports no SymPy.

* **names** -- a paper's symbols are recognised by their ``latex`` field
  (``\\|\\tilde\\theta\\|_{2,\\infty}`` is the symbol ``theta_2inf``), other formulas by
  the quantity their own printed LaTeX defines (``\\beta_3(\\tilde\\theta)``), matched on
  normalised token sequences (spacing, ``\\left``/``\\Big``, braces around one token and
  ``\\tfrac``/``\\dfrac`` do not matter), longest first; a symbol wins over a formula of
  the same LaTeX; a LaTeX name shared by two symbols (or two formulas) is ambiguous and
  recognises neither. A subscript is part of a name: ``x_1`` is a declared symbol written
  so, an indexed symbol's component (``s_i``), or "unknown symbol x_1; declared: ...";
* **TeX's rules** -- one-token arguments (``\\frac14``, ``\\sqrt T``, ``x^\\frac12``), a double
  script, unbalanced braces, ``\\left`` without ``\\right``: refused with TeX's reason;
* **one meaning or a refusal** -- the conventions of formulas/README.md ("LaTeX alone"):
  a big operator binds the factors up to the next ``+``/``-`` or big operator, ``\\sin^2 x``
  is (sin x)^2, a function without parentheses takes one factor; ``a/b c``, ``\\log 2n``,
  ``x^23``, ``y2``, ``1e-3``, ``\\sin^{-1}``, ``n!!`` and an index bound twice are refused as ambiguous or
  outside the language; ``e`` is Euler's number when no symbol is written ``e``;
* **statements** -- :func:`parse_statement` cuts the text at its top-level relations
  (``:=``, ``=:``, ``\\triangleq``, ``=``, ``\\le``, ``\\ge``, ``<``, ``>``, ``\\lesssim``,
  ``\\gtrsim``, ``\\approx``), reads every part but the quantity it names, and keeps the
  relations the chain states between its values (``Parsed.chain``).

Anything else -- a norm or a symbol no ``[symbols]`` entry writes that way, ``\\int``,
``\\mathcal O(...)``, ``\\Pr``, a where clause -- is refused with one line naming the
offending token. The reader is linear in the length of the text (a flat sum of 25,000
terms reads in about a second) and refuses nesting deeper than the expression language's
``MAX_DEPTH``.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import ExpressionError
from .latex_tokens import math_error
from .nodes import Add, Const, Func, Mul, Node, Num, Pow, Ref, Rel, Sym, depth

# ----------------------------------------------------------------------------- tokens
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|\s+|.", re.DOTALL)
# dropped: spacing, sizing and style commands (their argument, if any, stays)
_DROP = {r"\,", r"\;", r"\:", r"\!", "\\ ", "~", r"\quad", r"\qquad", r"\displaystyle", r"\textstyle",
         r"\allowbreak", r"\big", r"\Big", r"\bigg", r"\Bigg", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr",
         r"\biggl", r"\biggr", r"\Biggl", r"\Biggr", r"\left", r"\right", r"\nolimits", r"\limits"}
_RENAME = {r"\tfrac": r"\frac", r"\dfrac": r"\frac", r"\le": r"\leq", r"\leqslant": r"\leq",
           r"\ge": r"\geq", r"\geqslant": r"\geq", r"\lvert": "|", r"\rvert": "|", r"\vert": "|",
           r"\{": "(", r"\}": ")", r"\lbrace": "(", r"\rbrace": ")", r"\coloneqq": ":=",
           r"\triangleq": ":=", r"\eqqcolon": "=:", r"\ast": "*", r"\arctan": r"\arctan"}
# control words SymPy's LaTeX grammar reads as the expression language reads them
_ALLOWED_CS = {r"\frac", r"\sqrt", r"\log", r"\ln", r"\exp", r"\max", r"\min", r"\sin", r"\cos",
               r"\tan", r"\tanh", r"\arctan", r"\cdot", r"\times", r"\lfloor", r"\rfloor", r"\lceil",
               r"\rceil", r"\leq", r"\geq", r"\pi", r"\mathit"}
_ALLOWED_CHARS = set("0123456789+-*/^_(){}[]|,<>=")
# relations at the top level of a statement -> (op, up to constants?)
_RELS = {":=": ("==", False), "=:": ("=:", False), "=": ("==", False), r"\leq": ("<=", False),
         r"\geq": (">=", False), "<": ("<", False), ">": (">", False), r"\lesssim": ("<=", True),
         r"\gtrsim": (">=", True), r"\approx": ("==", True)}
_OPEN, _CLOSE = {"(", "{", r"\lfloor", r"\lceil", r"\langle"}, {")", "}", r"\rfloor", r"\rceil", r"\rangle"}
_ASYMPTOTIC = {r"\mathcal": "a calligraphic name no [symbols] entry writes this way (or \\mathcal O: asymptotic "
                            "notation)", r"\Omega": "asymptotic notation",
               r"\Theta": "asymptotic notation", r"\widetilde": "asymptotic notation (or a decoration)",
               r"\tilde": "a decoration"}

#: placeholders are ``\mathit{<_PREFIX><letters>}``: letters only (SymPy's grammar), never
#: ``e`` or ``pi``, never a word of the text (the text's own letters are refused first)
_PREFIX = "bcvar"
# the placeholder's number in letters; never 'd', which SymPy's ANTLR lexer reads as a
# differential inside \mathit{...} ('\mathit{bcvarda}' is refused)
_DIGIT_LETTERS = "abcefghijk"


class _Ph:
    """A recognised name (symbol or formula) in the token stream: its node and its tokens."""
    __slots__ = ("key", "node")

    def __init__(self, node: Node, key: tuple):
        self.node, self.key = node, key

    @property
    def text(self) -> str:
        return _show(self.key)

    def __repr__(self):
        return f"<{self.text}>"


def tokens(tex: str) -> list:
    """The normalised tokens of ``tex`` (:func:`_tokens`; a fresh list, the work cached)."""
    return list(_tokens(tex))


@functools.lru_cache(maxsize=256)
def _tokens(tex: str) -> tuple:
    """The normalised tokens of ``tex``: commands and single characters, without spacing,
    sizing, ``\\left``/``\\right`` or braces around a single token; ``\\tfrac`` is
    ``\\frac``, ``\\le`` is ``\\leq``, ``[...]`` and ``\\{...\\}`` are parentheses (not the
    optional argument of ``\\sqrt[n]``), ``:=`` is one token."""
    tex = re.sub(r"\\operatorname\s*\{\s*(atan|arctan)\s*\}", r"\\arctan ", tex)   # SymPy's printer
    tex = re.sub(r"\\operatorname\s*\{\s*erf\s*\}", r"\\erf ", tex)
    raw = [t for t in _TOKEN.findall(tex) if not t.isspace()]
    out: list = []
    i = 0
    while i < len(raw):
        t = _RENAME.get(raw[i], raw[i])
        if t in _DROP:
            if raw[i] in (r"\left", r"\right") and i + 1 < len(raw) and raw[i + 1] == ".":
                i += 1                      # \left. / \right. : an invisible delimiter
            i += 1
            continue
        if t == ":" and i + 1 < len(raw) and raw[i + 1] == "=":
            t, i = ":=", i + 1
        elif t == "=" and i + 1 < len(raw) and raw[i + 1] == ":":
            t, i = "=:", i + 1
        elif t in ("[", "]"):
            if t == "[" and out and out[-1] == r"\sqrt":
                pass                        # \sqrt[n]{x}: the optional argument, kept
            else:
                t = "(" if t == "[" else ")"
        out.append(t)
        i += 1
    # the closing ']' of \sqrt[n] became ')' above: restore it
    for k in range(len(out) - 1):
        if out[k] == r"\sqrt" and out[k + 1] == "[":
            d = 0
            for j in range(k + 2, len(out)):
                if out[j] == "(":
                    d += 1
                elif out[j] == ")":
                    if d == 0:
                        out[j] = "]"
                        break
                    d -= 1
    return tuple(_function_parens(_unbrace(out)))


_FUNCS = {r"\log", r"\ln", r"\exp", r"\sin", r"\cos", r"\tan", r"\tanh", r"\arctan", r"\max", r"\min"}


def _function_parens(toks: list) -> list:
    """``\\log{(x)}`` -> ``\\log(x)`` (SymPy's printer braces a function's parenthesised
    argument; its parser would read ``\\log{(n)}^{6}`` as log(n^6), not log(n)^6)."""
    out = list(toks)
    i = 0
    while i < len(out) - 2:
        if out[i] in _FUNCS and out[i + 1] == "{" and out[i + 2] == "(":
            d, j = 0, i + 1
            while j < len(out):                 # the end of the brace group
                d += (out[j] == "{") - (out[j] == "}")
                if d == 0:
                    break
                j += 1
            p, k = 0, i + 2                      # the end of the parenthesis opened at i + 2
            while k < j:
                p += (out[k] == "(") - (out[k] == ")")
                if p == 0:
                    break
                k += 1
            if j < len(out) and k == j - 1:      # {( ... )} exactly
                del out[j]
                del out[i + 1]
        i += 1
    return out


def _unbrace(toks: list) -> list:
    """``{x}`` -> ``x`` for a single token ``x``; ``{}`` dropped (repeated to a fixpoint)."""
    changed = True
    while changed:
        changed, out, i = False, [], 0
        while i < len(toks):
            if toks[i] == "{" and i + 1 < len(toks) and toks[i + 1] == "}":
                i, changed = i + 2, True
                continue
            if toks[i] == "{" and i + 2 < len(toks) and toks[i + 2] == "}" and toks[i + 1] not in ("{", "}"):
                out.append(toks[i + 1])
                i, changed = i + 3, True
                continue
            out.append(toks[i])
            i += 1
        toks = out
    return toks


def _key(toks) -> tuple:
    return tuple(toks)


def _show(toks) -> str:
    """Tokens back to LaTeX-ish text for messages."""
    s = ""
    for t in toks:
        if t is None:
            continue
        t = t.text if isinstance(t, _Ph) else t
        if s and s[-1].isalpha() and re.match(r"\\[A-Za-z]+$", s.split()[-1] if s.split() else "") \
                and t[:1].isalpha():
            s += " "
        s += t
    return s


# ----------------------------------------------------------------------------- names
@dataclass
class Names:
    """The LaTeX names of one paper: normalised token sequence -> the node it stands for
    (``Sym`` of a symbol, ``Ref`` of a formula); ``ambiguous``: sequences that name two or
    more things -> their nodes (recognised only where the caller's ``prefer`` picks exactly
    one of them, else refused and said so)."""
    table: dict
    ambiguous: dict
    maxlen: int = 1
    shadowed: dict | None = None     # key -> the formula a symbol of the same LaTeX shadows
    indexed: frozenset = frozenset()  # names of the indexed symbols (``s_{i}`` is s[i])

    def __post_init__(self):
        # the first token of every name: a position whose token starts none is no name (linear time)
        self.first = frozenset(k[0] for k in list(self.table) + list(self.ambiguous) if k)


def names(symbols: dict[str, str | tuple[str, ...]], formulas: dict[str, tuple[str, str]] | None = None,
          indexed: frozenset = frozenset()) -> Names:
    """Names from ``symbols`` {name: latex, or a tuple of its spellings (its ``latex`` and the
    letter the paper prints for it)} and ``formulas`` {name: (kind, printed latex)}:
    a formula is named by the quantity its printed LaTeX defines or bounds (the left side
    of its first top-level relation, or the side named by ``=:``), for definitions and
    bounds only. A symbol wins over a formula written the same way."""
    table: dict = {}
    ambiguous: dict = {}
    sym_keys: dict = {}
    for name, texs in symbols.items():
        for tex in (texs if isinstance(texs, tuple) else (texs,)):
            k = _key(tokens(tex or name))
            if not k:
                continue
            if k in sym_keys and sym_keys[k] != name:
                ambiguous[k] = sorted({sym_keys[k], name, *ambiguous.get(k, [])})
            sym_keys.setdefault(k, name)
    for k, name in sym_keys.items():
        if k not in ambiguous:
            table[k] = Sym(name)
    form_keys: dict = {}
    shadowed: dict = {}
    for name, (kind, tex) in (formulas or {}).items():
        if kind not in ("definition", "bound") or not tex:
            continue
        try:
            q = quantity_tokens(tex)
        except ExpressionError:
            continue
        k = _key(q)
        if not q or k in sym_keys:
            shadowed.setdefault(k, []).append(Ref(None, name))
            continue
        if k in form_keys and form_keys[k] != name:
            ambiguous[k] = sorted({form_keys[k], name, *ambiguous.get(k, [])})
        form_keys.setdefault(k, name)
    for k, name in form_keys.items():
        if k not in ambiguous:
            table[k] = Ref(None, name)
    kinds = {**{n: Ref(None, n) for n in form_keys.values()}, **{n: Sym(n) for n in sym_keys.values()},
             **{n: Sym(n) for n in symbols}}
    ambiguous = {k: [kinds.get(n, Ref(None, n)) for n in v] for k, v in ambiguous.items()}
    return Names(table, ambiguous, max((len(k) for k in list(table) + list(ambiguous)), default=1), shadowed,
                 frozenset(indexed))


def names_of_paper(paper, formulas: dict[str, tuple[str, str]] | None = None) -> Names:
    """:func:`names` of a loaded paper (its symbols and its formulas' printed LaTeX)."""
    syms = {n: (s.latex, s.printed) if s.printed else s.latex for n, s in paper.symbols.items()}
    if formulas is None:
        formulas = {n: (f.kind, f.latex) for n, f in paper.formulas.items()}
    return names(syms, formulas, frozenset(n for n, s in paper.symbols.items() if getattr(s, "is_indexed", False)))


# ----------------------------------------------------------------------------- statements
@dataclass
class Statement:
    """A printed formula cut at its top-level relations: ``parts`` (token lists) and the
    relations between them (LaTeX tokens)."""
    parts: list
    rels: list

    @property
    def up_to_constants(self) -> bool:
        return any(_RELS[r][1] for r in self.rels)


def split(tex: str, where: str = "LaTeX") -> Statement:
    toks = tokens(tex)
    parts, rels, d = [], [], 0
    cur: list = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t in _OPEN or t == r"\sqrt":
            d += t != r"\sqrt"
        elif t in _CLOSE:
            d -= 1
        if d == 0 and t == ",":
            raise ExpressionError(f"{where}: ',' at the top level (a where-clause or a list) is not one formula, "
                                  f"in {_short(tex)}")
        if d == 0 and isinstance(t, str) and t in _RELS:
            parts.append(cur)
            rels.append(t)
            cur = []
            i += 1
            if t in (r"\lesssim", r"\gtrsim") and i < len(toks) and toks[i] == "_":
                i = _skip_arg(toks, i + 1)   # \lesssim_{\bar\sigma,...}: the subscript says on what
            continue
        cur.append(t)
        i += 1
    parts.append(cur)
    if any(not p for p in parts):
        raise ExpressionError(f"{where}: a relation with an empty side, in {_short(tex)}")
    return Statement(parts, rels)


def _skip_arg(toks, i):
    if i < len(toks) and toks[i] == "{":
        d = 0
        for j in range(i, len(toks)):
            d += (toks[j] == "{") - (toks[j] == "}")
            if d == 0:
                return j + 1
    return i + 1


def quantity_tokens(tex: str) -> list:
    """The quantity a printed statement defines or bounds (tokens); [] without a relation."""
    st = split(tex)
    if not st.rels:
        return []
    if "=:" in st.rels:
        return st.parts[st.rels.index("=:") + 1]
    return st.parts[0]


@dataclass
class Parsed:
    """A printed formula parsed: ``node`` (a value, or a ``Rel`` for a relation), the
    relation it was stated with (``op``; ``None`` for a bare expression), whether that
    relation holds only up to constants (``\\lesssim``, ``\\gtrsim``, ``\\approx``), and
    whether the statement chains several relations. ``others``: a chain's other values
    (``Q = a \\le b``: a); ``chain``: the relations the chain states between its values
    (``Q := a = b``: ``a == b``), each read in full -- the formula's statement, checkable."""
    node: Node
    op: str | None = None
    up_to_constants: bool = False
    chained: bool = False
    others: tuple = ()
    chain: tuple = ()
    unread: tuple = ()           # strict=False: the parts not read, (text, why)
    # the node as read, before a caller resolves its references (check/transcription.py)
    raw: Node = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        self.raw = self.node


def _flip(op: str) -> str:
    return {r"\leq": r"\geq", r"\geq": r"\leq", "<": ">", ">": "<", r"\lesssim": r"\gtrsim",
            r"\gtrsim": r"\lesssim"}.get(op, op)


def parse_statement(tex: str, nm: Names, *, kind: str, where: str = "LaTeX", exclude: str | None = None,
                    prefer=frozenset(), strict: bool = True) -> Parsed:
    """The formula a printed statement states. For a value (``kind`` definition or bound):
    the right-hand side of ``Q := value`` / ``Q \\le value`` / ``value =: Q`` (the last value
    of a chain ``Q = a \\le b``), or the whole text when it has no relation. For a relation
    (requirement or claim): ``lhs OP rhs``, a single relation. ``exclude``: the formula's
    own name (its quantity does not name itself). ``prefer``: nodes (``Sym``, bare ``Ref``)
    that settle a LaTeX name written the same way by several symbols or formulas when exactly
    one of them is among them (the transcription check passes what its expression uses).

    Every token is accounted for: the text is checked as math first (:func:`check`), and
    every part of a chain but the quantity it names is read in full (a part that cannot be
    read is a refusal naming its token); the quantity's tokens are whitelisted by
    :func:`check` only (it is the formula's own name, ``\\Delta`` or ``\\beta_3(\\theta)``).
    ``strict=False`` (the transcription check of a formula that has its own ``expr``, whose
    LaTeX is checked math but display text): a part other than the value that cannot be read
    is listed in ``Parsed.unread`` (its text and why) instead of refusing the whole statement;
    the value itself is always read in full or refused."""
    check(tex, where)
    st = split(tex, where)
    value_kind = kind in ("definition", "bound")

    def read(q):
        return _value(q, nm, where, exclude, tex, prefer)
    if not value_kind:
        if len(st.rels) != 1 or st.rels[0] in (":=", "=:"):
            what = "no relation" if not st.rels else f"{len(st.rels)} relations" if len(st.rels) > 1 else "a definition"
            raise ExpressionError(f"{where}: a {kind} is one relation 'lhs OP rhs', the LaTeX has {what}: {_short(tex)}")
        op, loose = _RELS[st.rels[0]]
        return Parsed(Rel(op, read(st.parts[0]), read(st.parts[1])), op, loose, False)
    if not st.rels:
        return Parsed(read(st.parts[0]))
    if "=:" in st.rels:
        qi = st.rels.index("=:") + 1
        k = qi - 1
        op = st.rels[k - 1] if k > 0 else "="
        chained = len(st.rels) > 2 or (len(st.rels) == 2 and k == 0)
    else:
        qi, k, op = 0, len(st.parts) - 1, st.rels[-1]
        chained = len(st.rels) > 1
        if len(st.rels) == 1 and _is_name(st.parts[1], nm, exclude, where, tex, prefer) \
                and not _is_name(st.parts[0], nm, exclude, where, tex, prefer):
            qi, k, op = 1, 0, _flip(op)     # 'value \ge Q': the quantity is on the right
    nodes: list = []
    unread: list = []
    for j, q in enumerate(st.parts):
        if j == qi:
            nodes.append(None)
            continue
        try:
            nodes.append(read(q))
        except ExpressionError as e:
            if strict or j == k:
                raise
            nodes.append(None)
            unread.append((_show(q), str(e).split(": ", 1)[-1]))
    chain = tuple(Rel(_RELS[r][0], nodes[j], nodes[j + 1]) for j, r in enumerate(st.rels)
                  if nodes[j] is not None and nodes[j + 1] is not None and _RELS[r][0] in ("==", "<=", ">=", "<", ">"))
    others = tuple(n for j, n in enumerate(nodes) if n is not None and j != k)
    return Parsed(nodes[k], _RELS[op][0] if op in _RELS else "==", st.up_to_constants, chained, others, chain,
                  tuple(unread))


def _is_name(toks, nm, exclude, where, tex, prefer) -> bool:
    """Whether ``toks`` is one recognised name (a symbol or a formula), nothing else."""
    if len(toks) > nm.maxlen:
        return False
    try:
        r = _recognise(list(toks), nm, exclude, where, tex, prefer)
    except ExpressionError:
        return False
    return len(r) == 1 and isinstance(r[0], _Ph) and isinstance(r[0].node, (Sym, Ref))


def parse_value(tex: str, nm: Names, *, where: str = "LaTeX") -> Node:
    """One LaTeX expression (no relation) as a tree."""
    st = split(tex, where)
    if st.rels:
        raise ExpressionError(f"{where}: a value was expected, the LaTeX has a relation: {_short(tex)}")
    return _value(st.parts[0], nm, where, None, tex)


# ----------------------------------------------------------------------------- one value
def _value(toks: list, nm: Names, where: str, exclude: str | None, tex: str, prefer=frozenset()) -> Node:
    toks = _recognise(list(toks), nm, exclude, where, tex, prefer)
    toks = _minmax(toks, where, tex)
    node = _read(toks, nm, where, tex)
    from .parser import MAX_DEPTH
    if depth(node) > MAX_DEPTH:
        raise ExpressionError(f"{where}: LaTeX nested more than {MAX_DEPTH} levels deep: {_short(tex)}")
    return node


def check(tex: str, where: str = "LaTeX") -> None:
    """Refuse, in one line, LaTeX that is not safe, well-formed math (:func:`.latex_tokens.math_error`:
    the one whitelist of math commands, TeX's rules) or that TeX reads otherwise than it looks
    (``x^23`` is x^{2}·3)."""
    why = math_error(tex)
    if not why:
        m = _SCRIPT_DIGITS.search(tex)
        if m:
            why = (f"ambiguous: {m.group(0)!r} -- TeX reads a one-token script, so this is "
                   f"^{{{m.group(1)}}}{m.group(2)}: write {m.group(0)[0]}{{{m.group(1)}{m.group(2)}}} or "
                   f"{m.group(0)[0]}{{{m.group(1)}}} {m.group(2)}")
    if not why:
        m = _FLOAT_NOTATION.search(tex)
        if m:
            why = (f"ambiguous: {m.group(0)!r} -- TeX typesets the letter e between the digits (a product "
                   f"with e, not a power of ten): write it with \\times 10^{{...}}")
    if why:
        raise ExpressionError(f"{where}: {why}, in {_short(tex)}")


def _recognise(toks, nm: Names, exclude, where, tex, prefer=frozenset()) -> list:
    """Replace every recognised name (longest token sequence first) by a placeholder."""
    out, i = [], 0
    first = getattr(nm, "first", None)
    memo: dict = {}
    while i < len(toks):
        hit = None
        if first is not None and (isinstance(toks[i], _Ph) or toks[i] not in first):
            out.append(toks[i])
            i += 1
            continue
        for n in range(min(nm.maxlen, len(toks) - i), 0, -1):
            k = tuple(toks[i:i + n])
            if k in memo:
                if memo[k] is None:
                    continue
                hit = (n, memo[k], k)
                break
            if any(isinstance(x, _Ph) for x in k):
                continue
            memo[k] = None
            node = nm.table.get(k)
            if node is not None and node not in prefer and nm.shadowed and k in nm.shadowed:
                # a symbol written like a formula's quantity: the formula, if that is what the
                # caller's expression uses (and the symbol is not)
                alt = [c for c in nm.shadowed[k] if c in prefer and c.name != exclude]
                if len(alt) == 1:
                    node = alt[0]
            if k in nm.ambiguous:
                cands = [c for c in nm.ambiguous[k] if c in prefer and not (isinstance(c, Ref) and c.name == exclude)]
                if len(cands) != 1:
                    raise ExpressionError(f"{where}: the LaTeX name {_show(k)!r} is ambiguous (written the same "
                                          f"way by {', '.join(c.name for c in nm.ambiguous[k])}), in {_short(tex)}")
                node = cands[0]
            if node is not None and not (isinstance(node, Ref) and node.name == exclude):
                memo[k] = node
                hit = (n, node, k)
                break
        if hit:
            out.append(_Ph(hit[1], hit[2]))
            i += hit[0]
        else:
            out.append(toks[i])
            i += 1
    return out


def _minmax(toks, where, tex) -> list:
    """``a \\vee b`` -> ``\\max(a, b)`` and ``a \\wedge b`` -> ``\\min(a, b)`` within each
    bracket (lowest precedence there); the two mixed in one bracket are refused."""
    def group(seq):
        # split seq (already inner-processed) at depth-0 \vee / \wedge
        ops = {t for t in _depth0(seq) if t in (r"\vee", r"\wedge")}
        if not ops:
            return seq
        if len(ops) > 1:
            raise ExpressionError(f"{where}: \\vee and \\wedge mixed without brackets, in {_short(tex)}")
        op = ops.pop()
        pieces: list[list] = []
        cur: list = []
        d = 0
        for t in seq:
            if t in _OPEN:
                d += 1
            elif t in _CLOSE:
                d -= 1
            if d == 0 and t == op:
                pieces.append(cur)
                cur = []
            else:
                cur.append(t)
        pieces.append(cur)
        if any(not p for p in pieces):
            raise ExpressionError(f"{where}: {op} with an empty side, in {_short(tex)}")
        out = [r"\max" if op == r"\vee" else r"\min", "("]
        for k, p in enumerate(pieces):
            out += ([","] if k else []) + p
        return out + [")"]

    # process innermost brackets first with an explicit stack
    stack: list[list] = [[]]
    opener: list = []
    for t in toks:
        if isinstance(t, str) and t in _OPEN:
            stack.append([])
            opener.append(t)
        elif isinstance(t, str) and t in _CLOSE and opener:
            inner = group(stack.pop())
            stack[-1] += [opener.pop()] + inner + [t]
        else:
            stack[-1].append(t)
    while len(stack) > 1:               # unbalanced: left for the parser to refuse
        inner = stack.pop()
        stack[-1] += [opener.pop()] + inner
    return group(stack[0])


def _depth0(seq):
    d = 0
    for t in seq:
        if isinstance(t, str) and t in _OPEN:
            d += 1
        elif isinstance(t, str) and t in _CLOSE:
            d -= 1
        elif d == 0:
            yield t


# ----------------------------------------------------------------------------- the grammar
#: functions of one argument the reader reads -> the expression language's name
_FUNC1 = {r"\log": "log", r"\ln": "log", r"\exp": "exp", r"\sin": "sin", r"\cos": "cos", r"\tan": "tan",
          r"\tanh": "tanh", r"\arctan": "atan", r"\erf": "erf"}
#: tokens that end a factor (nothing after them starts a new implicit factor)
_STOP = {"+", "-", ")", "}", "]", ",", r"\rfloor", r"\rceil", "^", "_", "!", "'", r"\cdot", r"\times", "*", "/",
         "=", "<", ">", ":=", "=:", r"\leq", r"\geq", r"\vee", r"\wedge"}
_BIG = {r"\sum": "sum", r"\prod": "prod"}
_NEG1 = Num(Fraction(-1))
_SCRIPT_DIGITS = re.compile(r"[\^_]\s*(\d)(\d)")
# a number in a program's floating-point notation, 1e-3 or 2.5E4: TeX typesets the letter e (Euler's
# number, or a symbol) between the digits, so the reading a person means (10^{-3}) is not TeX's
_FLOAT_NOTATION = re.compile(r"(?<![\\A-Za-z])\d+(?:\.\d+)?[eE][+-]?\d+")


def _why(t: str) -> str:
    """Why the token ``t`` is not read (the second half of a refusal)."""
    if t in _ASYMPTOTIC:
        return _ASYMPTOTIC[t]
    if t in (r"\sum", r"\prod"):
        return "a big operator without its index range _{i=lo}^{hi}"
    if t in (r"\int", r"\lim", r"\sup", r"\inf", r"\limsup", r"\liminf"):
        return "a big operator (not in the expression language)"
    if t == r"\|":
        return "a norm no [symbols] entry writes this way"
    if t == r"\infty":
        return "infinity (not a value of the expression language)"
    if t.startswith("\\") and len(t) > 2:
        return "a command outside the whitelist (or a symbol or formula written another way)"
    return "a token outside the whitelist"


def _mul(factors: list) -> Node:
    out: list = []
    for f in factors:
        out.extend(f.args if isinstance(f, Mul) else (f,))
    return out[0] if len(out) == 1 else Mul(tuple(out))


def _neg(x: Node) -> Node:
    if isinstance(x, Num):
        return Num(-x.value)
    return _mul([_NEG1, x])


def _pow(b: Node, e: Node) -> Node:
    if isinstance(b, Const) and b.name == "E":
        return Func("exp", (e,))
    if isinstance(e, Num) and e.value == Fraction(1, 2):
        return Func("sqrt", (b,))
    return Pow(b, e)


def _div(a: Node, b: Node) -> Node:
    """``a/b`` as the expression language's parser builds it (``2/3`` is 2*3**-1, ``1/b`` is
    b**-1): the same text gives the same tree, whichever way it is written."""
    inv = Pow(b, _NEG1)
    return inv if isinstance(a, Num) and a.value == 1 else _mul([a, inv])


class _Reader:
    """One value's tokens (names already placeholders) -> the tree, reading every token:
    a token the grammar does not place is a refusal naming it. The grammar (TeX's rules,
    and one convention where a reading depends on one, formulas/README.md "LaTeX"):

    * sum: terms joined by ``+`` / ``-``; term: factors joined by juxtaposition, ``\\cdot``,
      ``\\times``, ``/`` (``a/b`` divides the product so far; ``a/b c`` is refused);
    * factor: a sign, then an atom with its scripts and ``!``; a script or a macro's
      argument is one token or one group, as in TeX (``\\frac12``, ``x^\\frac12``);
    * ``\\sum_{i=lo}^{hi}`` / ``\\prod``: the body is the factors that follow, up to the next
      ``+`` / ``-``, closing bracket or big operator (written with or without ``\\cdot``,
      ``\\times``, ``/`` before it) whose range does not name this one's index (one that does,
      ``\\prod_{j=1}^{i}`` after ``\\sum_{i=...}``, can only be inside it); an index bound inside
      its own scope again is refused;
    * a function without parentheses takes one factor (``\\log n^2`` is log(n^2)); more
      juxtaposed factors are refused (``\\log 2n``); ``\\sin^2 x`` is (sin x)^2;
    * ``n!!`` (the double factorial) is refused; ``e`` is Euler's number."""

    def __init__(self, toks: list, nm: Names, where: str, tex: str):
        self.n = len(toks)
        self.t, self.i, self.nm, self.where, self.tex = list(toks) + [None, None, None], 0, nm, where, tex
        self.bound: list[str] = []
        self.abs = 0
        self.depth = 0

    # -- helpers
    def peek(self, k: int = 0):
        return self.t[self.i + k] if k else self.t[self.i]

    def take(self):
        t = self.t[self.i]
        if t is not None:
            self.i += 1
        return t

    def fail(self, what: str) -> ExpressionError:
        return ExpressionError(f"{self.where}: {what}, in {_short(self.tex)}")

    def expect(self, tok: str, what: str) -> None:
        t = self.take()
        if t != tok:
            got = "the end of the formula" if t is None else repr(_show([t]))
            raise self.fail(f"expected {tok!r} {what}, found {got}")

    def declared(self) -> str:
        names = sorted({_show(k) for k, v in self.nm.table.items() if isinstance(v, Sym)})
        return ", ".join(names) if names else "none"

    def unknown(self, text: str) -> ExpressionError:
        return self.fail(f"unknown symbol {text}; declared: {self.declared()}")

    def starts_factor(self, t) -> bool:
        if t is None or (isinstance(t, str) and t in _STOP):
            return False
        return not (t == "|" and self.abs)

    def enter(self):
        from .parser import MAX_DEPTH
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"LaTeX nested more than {MAX_DEPTH} levels deep")

    def range_uses_index(self, k: int = 0) -> bool:
        """Whether the range of the big operator at ``peek(k)`` names the index of the big
        operator whose body is being read (``\\sum_{i=1}^{d} s_i \\prod_{j=1}^{i} s_j``): then
        it can only be inside that body, and it does not end it."""
        j, seen = self.i + k + 1, []
        for _ in range(2):
            if self.t[j] not in ("_", "^"):
                break
            j += 1
            if self.t[j] == "{":
                depth = 0
                if self.t[j - 1] == "_" and self.t[j + 2] == "=":
                    j += 2                    # _{i=lo}: the operator's own index is no use of one
                    depth = 1
                while self.t[j] is not None:
                    depth += {"{": 1, "}": -1}.get(self.t[j], 0) if isinstance(self.t[j], str) else 0
                    seen.append(self.t[j])
                    j += 1
                    if depth == 0:
                        break
            else:
                seen.append(self.t[j])
                j += 1
        return bool(self.bound) and self.bound[-1] in seen

    # -- the grammar
    def read(self) -> Node:
        node = self.sum()
        if self.i < self.n:
            t = self.t[self.i]
            raise self.fail(f"LaTeX token {_show([t])!r} is left over: it is not part of the expression read "
                            f"({_show(self.t[max(0, self.i - 3):self.i + 3])!r})")
        return node

    def sum(self) -> Node:
        terms: list = []
        while True:
            neg = False
            while self.peek() in ("+", "-"):
                neg ^= self.take() == "-"
            if not terms and not neg and self.peek() is None:
                raise self.fail("an empty value")
            x = self.term()
            terms.append(_neg(x) if neg else x)
            if self.peek() not in ("+", "-"):
                break
        return terms[0] if len(terms) == 1 else Add(tuple(terms))

    def term(self, body: bool = False) -> Node:
        factors = [self.factor()]
        while True:
            t = self.peek()
            if body and t in (r"\cdot", r"\times", "*", "/") and self.peek(1) in _BIG and not self.range_uses_index(1):
                break                            # a \cdot before the next big operator ends this body too
            if t in (r"\cdot", r"\times", "*"):
                self.i += 1
                factors.append(self.factor())
            elif t == "/":
                self.i += 1
                d = self.factor()
                factors.append(_div(Num(Fraction(1)), d))
                nxt = self.peek()
                if self.starts_factor(nxt) and nxt not in _BIG and nxt not in _FUNC1:
                    raise self.fail(f"ambiguous: {_show(self.t[max(0, self.i - 3):self.i + 2])!r} -- write "
                                    "\\frac{a}{b} c or a/(b c)")
            elif self.starts_factor(t):
                if body and t in _BIG and not self.range_uses_index():
                    break                        # the next big operator ends this one's body
                if isinstance(t, str) and (t.isdigit() or t == "."):
                    # y2, (y+1)2, \frac12 3: TeX prints the digits after the factor, which reads as a
                    # subscript or a typo as easily as a product (y 2^{k} reads as one: a power)
                    j = self.i
                    while isinstance(self.t[j] if j < len(self.t) else None, str) and (
                            self.t[j].isdigit() or self.t[j] == "."):
                        j += 1
                    if j >= len(self.t) or self.t[j] != "^":
                        raise self.fail(f"ambiguous: the number {''.join(self.t[self.i:j])} right after a factor "
                                        "-- write the number first (2y), y \\cdot 2, or y_{2}")
                factors.append(self.factor())
            else:
                break
        return _mul(factors)

    def factor(self) -> Node:
        if self.peek() == "-":
            self.i += 1
            return _neg(self.factor())
        if self.peek() == "+":
            self.i += 1
        return self.postfix()

    def postfix(self) -> Node:
        start = self.i
        base = self.atom()
        powered = False
        while True:
            t = self.peek()
            if t == "^":
                self.i += 1
                base, powered = _pow(base, self.script()), True
            elif t == "!":
                self.i += 1
                if self.peek() == "!":
                    raise self.fail(f"{_show(self.t[start:self.i + 1])!r}: the double factorial n!! is not in the "
                                    "expression language (write it as a product)")
                if powered:
                    raise self.fail(f"ambiguous: {_show(self.t[start:self.i])!r} -- write (x^a)! or x^{{a!}}")
                base = Func("factorial", (base,))
            elif t == "_":
                first = self.t[start]
                if isinstance(first, _Ph) or (isinstance(first, str) and len(first) == 1 and first.isalpha()):
                    raise self.unknown(self.subscripted(first.text if isinstance(first, _Ph) else first))
                raise self.fail(f"a subscript on {_show(self.t[start:self.i])!r} "
                                f"({_show(self.t[start:self.i + 2])!r}) is not in the expression language")
            elif t == "'":
                raise self.fail(f"a prime on {_show(self.t[start:self.i])!r} is not in the expression language")
            else:
                return base

    def script(self) -> Node:
        """One TeX argument: a group, or a single token (a digit, a name, a command with
        its own arguments)."""
        t = self.peek()
        if t == "{":
            self.i += 1
            self.enter()
            x = self.sum()
            self.depth -= 1
            self.expect("}", "to close the group")
            return x
        if isinstance(t, str) and t.isdigit():
            self.i += 1
            return Num(Fraction(int(t)))
        if t is None or (isinstance(t, str) and (t in _STOP or t in ("(", "|"))):
            got = "the end" if t is None else repr(t)
            raise self.fail(f"a script or argument is one token or a {{group}}, found {got}; write it in braces")
        if isinstance(t, _Ph):
            self.i += 1
            return self.name(t, script=True)
        return self.atom()

    def atom(self) -> Node:
        t = self.take()
        if t is None:
            raise self.fail("the formula ends where a value was expected")
        if isinstance(t, _Ph):
            return self.name(t)
        if t.isdigit() or t == ".":
            j = self.i - 1
            while isinstance(self.t[j], str) and (self.t[j].isdigit() or self.t[j] == "."):
                j += 1
            run = "".join(self.t[self.i - 1:j])
            if not re.fullmatch(r"\d+(\.\d+)?", run):
                raise self.fail(f"the number {run!r} is not a number")
            self.i = j
            return Num(Fraction(run))
        closer = {"(": ")", "{": "}", r"\lfloor": r"\rfloor", r"\lceil": r"\rceil", "|": "|"}.get(t)
        if closer:
            self.enter()
            self.abs += t == "|"
            x = self.sum()
            self.abs -= t == "|"
            self.depth -= 1
            if self.peek() == "," and t == "(":
                raise self.fail("a list '(a, b)' is not a value (write \\max(a, b) or \\min(a, b))")
            self.expect(closer, f"to close {t!r}")
            return {"(": x, "{": x, r"\lfloor": Func("floor", (x,)), r"\lceil": Func("ceil", (x,)),
                    "|": Func("abs", (x,))}[t]
        if t in (r"\frac", r"\binom"):
            a, b = self.script(), self.script()
            return _div(a, b) if t == r"\frac" else Func("binomial", (a, b))
        if t == r"\sqrt":
            if self.peek() == "[":
                self.i += 1
                n = self.sum()
                self.expect("]", "to close \\sqrt[n]")
                return Pow(self.script(), _div(Num(Fraction(1)), n))
            return Func("sqrt", (self.script(),))
        if t == r"\pi":
            return Const("pi")
        if t in _FUNC1:
            return self.function(t)
        if t in (r"\max", r"\min", r"\Gamma"):
            return self.call(t)
        if t in _BIG:
            return self.big(t)
        if len(t) == 1 and t.isalpha():
            if t in self.bound:
                return Sym(t)
            if t == "e" and self.peek() != "_":
                return Const("E")
            raise self.unknown(self.subscripted(t))
        raise self.fail(f"LaTeX token {t!r} is {_why(t)}")

    def subscripted(self, text: str) -> str:
        """``text`` with the subscript that follows it (for a message)."""
        if self.peek() == "_":
            j = self.i + 1
            if self.peek(1) == "{":
                d, j = 0, self.i + 1
                while j < self.n:
                    d += (self.t[j] == "{") - (self.t[j] == "}")
                    j += 1
                    if d == 0:
                        break
            else:
                j = self.i + 2
            return text + _show(self.t[self.i:j])
        return text

    def name(self, ph: _Ph, script: bool = False) -> Node:
        node = ph.node
        if isinstance(node, Sym) and node.name in self.nm.indexed:
            if script:
                raise self.fail(f"{ph.text!r} is an indexed symbol: in a script write it in braces with its index")
            sup = None
            if self.peek() == "^":
                self.i += 1
                sup = self.script()
            if self.peek() != "_":
                if "_" in ph.text:        # \|W_i\|_2 as a symbol's LaTeX: W_i_{i} is no TeX
                    raise self.fail(f"{ph.text!r} is an indexed symbol whose LaTeX has a subscript already: the "
                                    "reader takes the index after the symbol's LaTeX, so declare a letter (latex "
                                    "= 's', description = the norm it stands for) and write s_{i}")
                raise self.fail(f"{ph.text!r} is an indexed symbol: write it with its index ({ph.text}_{{i}})")
            self.i += 1
            if self.peek() == "{":
                self.i += 1
                arg = []
                while self.peek() not in ("}", None):
                    arg.append(self.take())
                self.expect("}", "to close the index")
            else:
                arg = [self.take()]
            a = "".join(x if isinstance(x, str) else x.text for x in arg)
            if a.isdigit():
                index: Node = Num(Fraction(int(a)))
            elif len(arg) == 1 and isinstance(arg[0], str) and arg[0] in self.bound:
                index = Sym(arg[0])
            else:
                raise self.fail(f"the index of {ph.text!r} must be one letter bound by \\sum/\\prod or an integer, "
                                f"not {a!r}")
            from .nodes import Indexed
            out: Node = Indexed(node.name, index)
            return _pow(out, sup) if sup is not None else out
        if not script and self.peek() == "_":
            raise self.unknown(self.subscripted(ph.text))
        return node

    def function(self, t: str) -> Node:
        base = power = None
        while self.peek() in ("_", "^"):
            s = self.take()
            if s == "_":
                if t != r"\log" or base is not None:
                    raise self.fail(f"a subscript on {t} is not in the expression language")
                base = self.script()
            else:
                if power is not None:
                    raise self.fail(f"TeX: 'Double superscript' on {t}")
                power = self.script()
        if power is not None and isinstance(power, Num) and power.value < 0:
            raise self.fail(f"ambiguous: {t}^{{{power.value}}} (an inverse function or a power?) -- write "
                            f"({t} x)^{{{power.value}}} or the inverse's own name")
        nxt = self.peek()
        if nxt in ("(", "{"):
            self.i += 1
            self.enter()
            arg = self.sum()
            self.depth -= 1
            self.expect(")" if nxt == "(" else "}", f"to close the argument of {t}")
        else:
            if not self.starts_factor(nxt) or nxt in _BIG:
                raise self.fail(f"{t} without its argument")
            arg = self.postfix()
            nx2 = self.peek()
            if self.starts_factor(nx2) and nx2 not in _FUNC1 and nx2 not in _BIG and nx2 not in (r"\max", r"\min"):
                raise self.fail(f"ambiguous: {_show(self.t[self.i - 2:self.i + 1])!r} -- the argument of {t} "
                                f"without parentheses is one factor: write {t}(...) around what it applies to")
        f = Func(_FUNC1[t], (arg,) if base is None else (arg, base))
        return _pow(f, power) if power is not None else f

    def call(self, t: str) -> Node:
        power = None
        if self.peek() == "^":                  # \Gamma^{2}(x): the power of the value
            self.i += 1
            power = self.script()
        if power is not None and isinstance(power, Num) and power.value < 0:
            raise self.fail(f"ambiguous: {t}^{{{power.value}}} (an inverse function or a power?)")
        if power is not None:
            return _pow(self.call(t), power)
        if self.peek() != "(":
            raise self.fail(f"{t} needs its arguments in parentheses: {t}(a, b)")
        self.i += 1
        self.enter()
        args = [self.sum()]
        while self.peek() == ",":
            self.i += 1
            args.append(self.sum())
        self.depth -= 1
        self.expect(")", f"to close the arguments of {t}")
        if t == r"\Gamma":
            if len(args) != 1:
                raise self.fail("\\Gamma takes one argument")
            return Func("gamma", tuple(args))
        if len(args) < 2:
            raise self.fail(f"{t} of one argument: write {t}(a, b, ...)")
        return Func(t[1:], tuple(args))

    def big(self, t: str) -> Node:
        lo = hi = var = None
        for _ in range(2):
            s = self.peek()
            if s == "_" and var is None:
                self.i += 1
                if self.peek() != "{" or not (isinstance(self.peek(1), str) and len(self.peek(1)) == 1
                                              and self.peek(1).isalpha()) or self.peek(2) != "=":
                    p = self.peek(1)
                    if isinstance(p, _Ph):
                        raise self.fail(f"the index {p.text!r} of {t} is a declared symbol: bind another letter")
                    raise self.fail(f"{t} is a big operator without its index range _{{i=lo}}^{{hi}} (the index one letter)")
                var = self.peek(1)
                self.i += 3
                lo = self.sum()
                self.expect("}", f"to close the range of {t}")
            elif s == "^" and hi is None:
                self.i += 1
                hi = self.script()
        if var is None or hi is None or lo is None:
            raise self.fail(f"{t} is a big operator without its index range _{{i=lo}}^{{hi}}")
        if var in self.bound:
            raise self.fail(f"ambiguous: the index {var} of {t} is already bound by an enclosing operator "
                            "-- use another letter")
        self.bound.append(var)
        self.enter()
        neg = False
        while self.peek() in ("+", "-"):
            neg ^= self.take() == "-"
        if not self.starts_factor(self.peek()):
            raise self.fail(f"{t}_{{{var}=...}} without its body")
        body = self.term(body=True)
        self.depth -= 1
        self.bound.pop()
        from .nodes import BigOp
        return BigOp(_BIG[t], _neg(body) if neg else body, var, lo, hi)


def _read(toks: list, nm: Names, where: str, tex: str) -> Node:
    import sys
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 12000))     # the grammar's depth is bounded by MAX_DEPTH
    try:
        return _Reader(toks, nm, where, tex).read()
    finally:
        sys.setrecursionlimit(old)

def _short(text) -> str:
    s = " ".join(str(text).split())
    return repr(s) if len(s) <= 70 else repr(s[:50] + "...") + f" ({len(s)} characters)"
