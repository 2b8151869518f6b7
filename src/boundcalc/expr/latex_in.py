"""Formulas from LaTeX: a formula's printed LaTeX -> the whitelist expression tree.

The mathematics is parsed by a real LaTeX-math parser, SymPy's ``parse_latex`` (its
ANTLR back end, see pyproject.toml for why), and the SymPy expression it returns is
converted node by node into the tree of :mod:`.nodes` (Num, Const, Sym, Ref, Add, Mul,
Pow, Func, Rel) by :func:`_to_node`, which accepts only what the expression language has
(the functions of :data:`.parser.FUNCTIONS`). Nothing is ever ``eval``-ed or
``sympify``-ed: the text reaches SymPy's LaTeX grammar only, and only after every token
of it has passed :func:`_whitelist`.

Around the parser, this module does what the grammar cannot:

* **names** -- a paper's symbols are recognised by their ``latex`` field
  (``\\|\\tilde\\theta\\|_{2,\\infty}`` is the symbol ``theta_2inf``), other formulas by
  the quantity their own printed LaTeX defines (``\\beta_3(\\tilde\\theta)``), matched on
  normalised token sequences (spacing, ``\\left``/``\\Big``, braces around one token and
  ``\\tfrac``/``\\dfrac`` do not matter), longest first; a symbol wins over a formula of
  the same LaTeX; a LaTeX name shared by two symbols (or two formulas) is ambiguous and
  recognises neither. Each name reaches SymPy as an opaque ``\\mathit{...}`` placeholder;
* **what SymPy's grammar lacks** -- ``\\sqrt T`` / ``\\frac14`` (unbraced arguments),
  ``[...]`` and ``\\{...\\}`` as brackets, ``a \\vee b`` / ``a \\wedge b`` (max / min; lowest
  precedence in their bracket, and not mixed), decimals (exact: ``0.5`` is 1/2), ``e``
  (Euler's number when no symbol is written ``e``), ``\\pi``;
* **statements** -- :func:`parse_statement` cuts the text at its top-level relations
  (``:=``, ``=:``, ``\\triangleq``, ``=``, ``\\le``, ``\\ge``, ``<``, ``>``, ``\\lesssim``,
  ``\\gtrsim``, ``\\approx``) into the quantity and its value, or a relation.

Anything else -- a norm or a symbol no ``[symbols]`` entry writes that way, ``\\sum``,
``\\mathcal O(...)``, ``\\Pr``, a function applied to an argument, a ``where`` clause --
is refused with one line naming the offending token.

SymPy is imported lazily, inside :func:`_sympy_parse`: loading a paper whose formulas
all have ``expr`` never imports it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..errors import ExpressionError
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
_OPEN, _CLOSE = {"(", "{", r"\lfloor", r"\lceil"}, {")", "}", r"\rfloor", r"\rceil"}
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
    """A recognised name (symbol or formula) or an exact number in the token stream."""
    __slots__ = ("node", "text")

    def __init__(self, node: Node, text: str):
        self.node, self.text = node, text

    def __repr__(self):
        return f"<{self.text}>"


def tokens(tex: str) -> list:
    """The normalised tokens of ``tex``: commands and single characters, without spacing,
    sizing, ``\\left``/``\\right`` or braces around a single token; ``\\tfrac`` is
    ``\\frac``, ``\\le`` is ``\\leq``, ``[...]`` and ``\\{...\\}`` are parentheses (not the
    optional argument of ``\\sqrt[n]``), ``:=`` is one token."""
    tex = re.sub(r"\\operatorname\s*\{\s*(atan|arctan)\s*\}", r"\\arctan ", tex)   # SymPy's printer
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
    return _function_parens(_unbrace(out))


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


def names(symbols: dict[str, str | tuple[str, ...]], formulas: dict[str, tuple[str, str]] | None = None) -> Names:
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
    return Names(table, ambiguous, max((len(k) for k in list(table) + list(ambiguous)), default=1), shadowed)


def names_of_paper(paper, formulas: dict[str, tuple[str, str]] | None = None) -> Names:
    """:func:`names` of a loaded paper (its symbols and its formulas' printed LaTeX)."""
    syms = {n: (s.latex, s.printed) if s.printed else s.latex for n, s in paper.symbols.items()}
    if formulas is None:
        formulas = {n: (f.kind, f.latex) for n, f in paper.formulas.items()}
    return names(syms, formulas)


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
    whether the statement chains several relations (only the last value is kept)."""
    node: Node
    op: str | None = None
    up_to_constants: bool = False
    chained: bool = False
    others: tuple = ()           # a chain's other values that parse (``Q = a \\le b``: a)


def parse_statement(tex: str, nm: Names, *, kind: str, where: str = "LaTeX", exclude: str | None = None,
                    prefer=frozenset()) -> Parsed:
    """The formula a printed statement states. For a value (``kind`` definition or bound):
    the right-hand side of ``Q := value`` / ``Q \\le value`` / ``value =: Q`` (the last value
    of a chain ``Q = a \\le b``), or the whole text when it has no relation. For a relation
    (requirement or claim): ``lhs OP rhs``, a single relation. ``exclude``: the formula's
    own name (its quantity does not name itself). ``prefer``: nodes (``Sym``, bare ``Ref``)
    that settle a LaTeX name written the same way by several symbols or formulas when exactly
    one of them is among them (the transcription check passes what its expression uses)."""
    st = split(tex, where)
    value_kind = kind in ("definition", "bound")
    if value_kind:
        if not st.rels:
            return Parsed(_value(st.parts[0], nm, where, exclude, tex, prefer))
        if "=:" in st.rels:
            k = st.rels.index("=:")
            part, op = st.parts[k], (st.rels[k - 1] if k > 0 else "=")
            chained = len(st.rels) > 2 or (len(st.rels) == 2 and k == 0)
            rest = [q for j, q in enumerate(st.parts) if j not in (k, k + 1)]
        else:
            part, op = st.parts[-1], st.rels[-1]
            chained = len(st.rels) > 1
            rest = st.parts[1:-1]
            if len(st.rels) == 1 and _is_name(part, nm, exclude, where, tex, prefer) \
                    and not _is_name(st.parts[0], nm, exclude, where, tex, prefer):
                # 'value \ge Q': the quantity is on the right
                part, op = st.parts[0], {r"\leq": r"\geq", r"\geq": r"\leq", "<": ">", ">": "<"}.get(op, op)
        others = []
        for q in rest if chained else ():
            try:
                others.append(_value(q, nm, where, exclude, tex, prefer))
            except ExpressionError:
                pass
        return Parsed(_value(part, nm, where, exclude, tex, prefer), _RELS[op][0] if op in _RELS else "==",
                      st.up_to_constants, chained, tuple(others))
    if len(st.rels) != 1 or st.rels[0] in (":=", "=:"):
        what = "no relation" if not st.rels else f"{len(st.rels)} relations" if len(st.rels) > 1 else "a definition"
        raise ExpressionError(f"{where}: a {kind} is one relation 'lhs OP rhs', the LaTeX has {what}: {_short(tex)}")
    op, loose = _RELS[st.rels[0]]
    lhs = _value(st.parts[0], nm, where, exclude, tex, prefer)
    rhs = _value(st.parts[1], nm, where, exclude, tex, prefer)
    return Parsed(Rel(op, lhs, rhs), op, loose, False)


def _is_name(toks, nm, exclude, where, tex, prefer) -> bool:
    """Whether ``toks`` is one recognised name (a symbol or a formula), nothing else."""
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
    toks = _numbers(toks)
    toks = _minmax(toks, where, tex)
    _whitelist(toks, nm, where, tex)
    src, table = _emit(toks)
    expr = _sympy_parse(src, where, tex)
    node = _to_node(expr, table, where, tex)
    from .parser import MAX_DEPTH
    if depth(node) > MAX_DEPTH:
        raise ExpressionError(f"{where}: LaTeX nested more than {MAX_DEPTH} levels deep: {_short(tex)}")
    return node


def _recognise(toks, nm: Names, exclude, where, tex, prefer=frozenset()) -> list:
    """Replace every recognised name (longest token sequence first) by a placeholder."""
    out, i = [], 0
    while i < len(toks):
        hit = None
        for n in range(min(nm.maxlen, len(toks) - i), 0, -1):
            k = tuple(toks[i:i + n])
            if any(isinstance(x, _Ph) for x in k):
                continue
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
                hit = (n, node, _show(k))
                break
        if hit:
            out.append(_Ph(hit[1], hit[2]))
            i += hit[0]
        else:
            out.append(toks[i])
            i += 1
    return out


def _numbers(toks) -> list:
    """Digit runs with a decimal point -> exact placeholders (``0.5`` is 1/2)."""
    out, i = [], 0
    while i < len(toks):
        t = toks[i]
        if isinstance(t, str) and (t.isdigit() or t == "."):
            j = i
            while j < len(toks) and isinstance(toks[j], str) and (toks[j].isdigit() or toks[j] == "."):
                j += 1
            run = "".join(toks[i:j])
            if "." in run and re.fullmatch(r"\d*\.\d+|\d+\.\d*", run):
                out.append(_Ph(Num(Fraction(run)), run))
                i = j
                continue
        out.append(t)
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
        pieces, cur, d = [], [], 0
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


def _whitelist(toks, nm: Names, where, tex) -> None:
    """Every token left is one SymPy's grammar reads as the expression language does;
    anything else is refused, named, before the parser sees it."""
    for i, t in enumerate(toks):
        if isinstance(t, _Ph):
            continue
        if t in _ALLOWED_CS or t in _ALLOWED_CHARS or t.isdigit():
            continue
        if t == "e" and not (i + 1 < len(toks) and toks[i + 1] == "_"):
            continue                        # Euler's number (no symbol is written e)
        ctx = _show(toks[i:i + 3]) if t in ("_", "^", "'") or (i + 1 < len(toks) and toks[i + 1] in ("_", "^")) \
            else t
        if t in ("_", "^") and i:
            ctx = _show(toks[max(0, i - 1):i + 2])
        if t.isalpha() and len(t) == 1:
            why = "an unknown symbol (no [symbols] entry has this latex)"
        elif t in _ASYMPTOTIC:
            why = _ASYMPTOTIC[t]
        elif t in (r"\sum", r"\prod", r"\int", r"\lim", r"\sup", r"\inf"):
            why = "a big operator (not in the expression language)"
        elif t == r"\|":
            why = "a norm no [symbols] entry writes this way"
        elif t.startswith("\\") and len(t) > 2:
            why = "a command outside the whitelist (or a symbol or formula written another way)"
        else:
            why = "a token outside the whitelist"
        raise ExpressionError(f"{where}: LaTeX token {ctx!r} is {why}, in {_short(tex)}")


def _emit(toks) -> tuple[str, dict]:
    """The text handed to SymPy's parser and the placeholder table: unbraced single-token
    arguments of ``\\sqrt``, ``\\frac``, ``^`` and ``_`` are braced (``\\sqrt T`` means
    ``\\sqrt{T}``); every placeholder is ``\\mathit{<name>}``."""
    table: dict[str, Node] = {}
    ids: dict[int, str] = {}

    def ph(t: _Ph) -> str:
        if id(t) not in ids:
            k = len(table)
            name = _PREFIX + "".join(_DIGIT_LETTERS[int(c)] for c in str(k))
            table[name] = t.node
            ids[id(t)] = name
        return r"\mathit{" + ids[id(t)] + "}"

    def one(t) -> str:
        return ph(t) if isinstance(t, _Ph) else t

    toks = _brace_args(toks)
    out = [one(t) for t in toks]
    s = ""
    for piece in out:
        if s and re.search(r"\\[A-Za-z]+$", s) and piece[:1].isalnum():
            s += " "
        s += piece
    return s, table


def _brace_args(toks) -> list:
    """Brace every unbraced one-token argument of ``\\frac`` (two), ``\\sqrt``, ``^``, ``_``
    (TeX reads ``\\frac14`` as 1/4 and ``\\sqrt T`` as ``\\sqrt{T}``; SymPy's grammar needs
    the braces). ``\\sqrt[n]``'s optional argument is kept."""
    out = list(toks)
    i = 0
    while i < len(out):
        t = out[i]
        n = 2 if t == r"\frac" else 1 if t in (r"\sqrt", "^", "_") else 0
        j = i + 1
        if t == r"\sqrt" and j < len(out) and out[j] == "[":
            while j < len(out) and out[j] != "]":
                j += 1
            j += 1
        for _ in range(n):
            if j >= len(out):
                break
            if out[j] == "{":
                d, k = 0, j
                while k < len(out):
                    d += (out[k] == "{") - (out[k] == "}")
                    if d == 0:
                        break
                    k += 1
                j = k + 1
            elif isinstance(out[j], str) and out[j] in ("}", ")"):
                break
            else:
                out[j:j + 1] = ["{", out[j], "}"]
                j += 3
        i += 1
    return out


def _sympy_parse(src: str, where: str, tex: str):
    try:
        from sympy.parsing.latex import parse_latex
        from sympy.parsing.latex.errors import LaTeXParsingError
    except ImportError as e:            # pragma: no cover - a broken installation
        raise ExpressionError(f"{where}: SymPy's LaTeX parser is not available ({e})") from None
    try:
        return parse_latex(src)
    except LaTeXParsingError as e:
        msg = " ".join(str(e).split("\n")[0].split())
        raise ExpressionError(f"{where}: SymPy's LaTeX parser refuses it ({msg[:100]}), in {_short(tex)}") from None
    except ImportError as e:
        raise ExpressionError(f"{where}: SymPy's LaTeX parser needs antlr4-python3-runtime 4.11 ({e})") from None


_FUNC_NAMES = {"sin": "sin", "cos": "cos", "tan": "tan", "tanh": "tanh", "atan": "atan", "exp": "exp",
               "Abs": "abs", "floor": "floor", "ceiling": "ceil", "erf": "erf", "Max": "max", "Min": "min"}


def _to_node(e, table: dict, where: str, tex: str) -> Node:
    """SymPy expression -> tree, accepting only the expression language's operations."""
    import sympy as sp

    def fail(what: str):
        return ExpressionError(f"{where}: {what} is not in the expression language, in {_short(tex)}")

    def conv(x) -> Node:
        if isinstance(x, sp.Rational):          # Integer too
            return Num(Fraction(int(x.p), int(x.q)))
        if isinstance(x, sp.Float):
            raise fail(f"the inexact number {x}")
        if x is sp.pi:
            return Const("pi")
        if x is sp.E:
            return Const("E")
        if isinstance(x, sp.Symbol):
            if x.name in table:
                return table[x.name]
            if x.name == "pi":
                return Const("pi")
            if x.name == "e":
                return Const("E")
            raise fail(f"the name {x.name!r}")
        if isinstance(x, sp.Add):
            return Add(tuple(conv(a) for a in x.args))
        if isinstance(x, sp.Mul):
            return Mul(tuple(conv(a) for a in x.args))
        if isinstance(x, sp.Pow):
            b, p = x.args
            if isinstance(b, sp.Symbol) and b.name == "e" and b.name not in table:
                return Func("exp", (conv(p),))
            if p == sp.Rational(1, 2):
                return Func("sqrt", (conv(b),))
            return Pow(conv(b), conv(p))
        if isinstance(x, sp.log):
            args = x.args
            if len(args) == 2 and args[1] is not sp.E:
                return Func("log", (conv(args[0]), conv(args[1])))
            return Func("log", (conv(args[0]),))
        if isinstance(x, sp.exp):
            return Func("exp", (conv(x.args[0]),))
        if isinstance(x, sp.core.relational.Relational):
            op = {sp.LessThan: "<=", sp.GreaterThan: ">=", sp.StrictLessThan: "<", sp.StrictGreaterThan: ">",
                  sp.Equality: "=="}.get(type(x))
            if op is None:
                raise fail(f"the relation {type(x).__name__}")
            return Rel(op, conv(x.lhs), conv(x.rhs))
        name = type(x).__name__ if not isinstance(x, sp.core.function.AppliedUndef) else None
        if isinstance(x, sp.core.function.AppliedUndef):
            fname = str(x.func)
            if fname in ("max", "min") and len(x.args) >= 1:
                return Func(fname, tuple(conv(a) for a in x.args))
            raise fail(f"applying {fname!r} as a function")
        if name in _FUNC_NAMES:
            return Func(_FUNC_NAMES[name], tuple(conv(a) for a in x.args))
        raise fail(f"{name} ({x})")
    return conv(e)


def _short(text) -> str:
    s = " ".join(str(text).split())
    return repr(s) if len(s) <= 70 else repr(s[:50] + "...") + f" ({len(s)} characters)"
