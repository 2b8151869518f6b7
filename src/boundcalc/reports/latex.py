"""LaTeX pieces shared by the comparison table and the formula sheet.

* :func:`latex_escape` -- text to LaTeX (specials escaped, Unicode math mapped to macros,
  accented Latin letters kept for ``[T1]{fontenc}``; nothing ever becomes ``?``);
* :func:`split_relation` / :func:`quantity_latex` -- the quantity a formula defines or
  bounds, taken from the LaTeX the formula file carries (``\\beta_2(\\tilde\\theta)``),
  cut only at a top-level relation;
* :func:`latex_balance_error` -- whether a display is balanced (braces, ``\\left``/``\\right``,
  environments);
* :func:`document` -- a complete article around a body, with the packages both need;
* :func:`compile_pdf` -- run pdflatex, return the PDF, the log and its overfull boxes.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

# packages every output of boundcalc needs (the table and the sheet)
PACKAGES = ("\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{lmodern}\n"
            "\\usepackage{amsmath}\n\\usepackage{amssymb}\n\\usepackage{booktabs}\n"
            "\\usepackage{siunitx}\n\\usepackage{threeparttable}\n\\usepackage{threeparttablex}\n"
            "\\usepackage{tabularx}\n\\usepackage{xltabular}\n"
            "\\usepackage{adjustbox}\n")
# (acmart's newtx fonts define amssymb's symbols: loading amssymb there is "\\Bbbk already defined")
REQUIRES = ("% requires \\usepackage[T1]{fontenc}, amsmath, amssymb (not with acmart: it has these symbols), "
            "booktabs, siunitx, threeparttable, tabularx")

from ..expr.latex_tokens import _tokens, latex_balance_error, latex_text_error, quantity_latex, split_relation  # noqa: F401  (LaTeX checks)
from .escape import _COMBINING, _GREEK, _LATEX_SPECIAL, UNICODE_MATH, latex_code, latex_escape  # noqa: F401  (the one LaTeX escaper)
from .names import NAMES_OF, names_of  # noqa: F401  (the context, re-exported)

# ---------------------------------------------------------------------------- ASCII math
# The notes of the experiments and the texts of the formula files write math in one ASCII /
# Unicode convention, read here and only here: ``theta_h^(1)`` (scripts; a parenthesised
# superscript keeps its parentheses when it is an index -- ``θ^(K+1)`` -- and drops them when
# they only group an exponent -- ``N^(-c)``, ``R^(1/2)`` --; a parenthesised subscript drops
# them: ``min_(s<τ)``),
# ``Φ~`` (tilde), ``s-bar`` / ``sigma_bar`` (bar), ``sqrt(T)`` / ``sqrt 2``, ``||x||``
# (norm), ``inf`` (infinity: ``||X||_{2,inf}``), ``sum_t``, ``<=`` ``>=`` ``!=`` ``->`` ``>~`` ``<~``, ``f*`` (star), ``)_t`` (a script on a
# parenthesis), Greek names and letters, numbers (set by :func:`~.numfmt.restyle_number`
# in the one number style, with a true minus), `` - `` between operands (a minus), and
# ``True``/``False`` (words: yes/no).
_GREEK_NAMES = set(_GREEK) - {"omicron", "varsigma"} | {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi",
                                                          "Sigma", "Phi", "Psi", "Omega", "varepsilon", "eps"}
_GREEK_CHARS = {ch for ch, tex in UNICODE_MATH.items() if tex[1:] in _GREEK_NAMES | {"epsilon", "varphi",
                                                                                      "vartheta"}}
_OPERATORS = {"grad": r"\nabla", "min": r"\min", "max": r"\max", "sup": r"\sup", "inf": r"\infty", "log": r"\log", "exp": r"\exp",
              "sum": r"\sum", "prod": r"\prod",
              "lim": r"\lim", "det": r"\det", "argmax": r"\operatorname{arg\,max}",
              "argmin": r"\operatorname{arg\,min}"}
_RELS = {"<=": r"\leq", ">=": r"\geq", "!=": r"\neq", "->": r"\to", ">~": r"\gtrsim", "<~": r"\lesssim"}
_WORD = re.compile(r"[A-Za-z]+|[" + "".join(sorted(UNICODE_MATH)) + r"]")
_NUM = re.compile(r"(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?(?![\w.]*[A-Za-z_])")
_IDENT_CHAR = re.compile(r"[A-Za-z0-9_]")
# a times sign written x between operands: 4 x 24, T x d, (T x d) -- one character (a digit
# or a lone letter) on each side, single spaces around
_GRAD = re.compile(r"grad ?(?=[A-Z](?![A-Za-z0-9]))")
_TIMES = re.compile(r"(?:(?<![\w\\])[A-Za-z]|\d) x (?:[A-Za-z](?![\w(])|\d)")
_BOOLEAN = re.compile(r"(True|False)(?![A-Za-z0-9_\-])(?!\s+[A-Za-z])")
# a run of digits and dots (with an arXiv version) that starts an identifier
_IDENTIFIER = re.compile(r"\d+(?:\.\d+)+(?:v\d+)?(?![\w])|\d+(?:\.\d+)+(?=v\d)")
# a file's name, with its folders: my_paper_runs.csv, notes/arda2026.md
_FILE_NAME = re.compile(r"(?:[\w.-]+/)*[\w-][\w.-]*\.(?:csv|toml|md|json|png|pdf|tex|html|txt|py|bib)(?![\w.])")
# a name that starts with an underscore (the prover's generated names, _g0): an identifier
_PRIVATE_NAME = re.compile(r"_[A-Za-z]\w*")
_ARXIV_ID = r"\d{4}\.\d{4,5}(?:v\d+)?"      # arXiv's identifiers since 2007: YYMM.NNNNN


def _math_word(w: str) -> str:
    if w == "eps":
        return r"\epsilon"
    if w in _GREEK_NAMES:
        return "\\" + w
    if w in UNICODE_MATH:
        return UNICODE_MATH[w]
    if w in _OPERATORS:
        return _OPERATORS[w]
    if len(w) == 1 or w.isdigit():
        return w
    return r"\mathrm{" + w + "}"


def _closing(text: str, i: int) -> int:
    """The index just after the bracket that closes the one at ``text[i]`` (-1 if none)."""
    pair = {"(": ")", "{": "}", "[": "]"}[text[i]]
    depth = 0
    for j in range(i, len(text)):
        if text[j] == text[i]:
            depth += 1
        elif text[j] == pair:
            depth -= 1
            if depth == 0:
                return j + 1
    return -1


def _math_inner(s: str) -> str:
    """ASCII math (the inside of a script or a root) as LaTeX math."""
    out: list[str] = []
    i = 0
    while i < len(s):
        atom = _atom(s, i, inner=True)
        if atom:
            if out and re.search(r"\\[A-Za-z]+$", out[-1]) and atom[0][:1].isalpha():
                out.append(" ")                        # γr: \gamma r, never \gammar
            out.append(atom[0])
            i = atom[1]
            continue
        rel = s[i:i + 2]
        word = re.compile(r" (in|x) (?=\S)").match(s, i)
        if word and i > 0:                             # min_(t in T_i), R^(T x d)
            out.append(r"\in " if word.group(1) == "in" else r"\times ")
            i = word.end()
        elif rel == "+-":
            out.append(r"\pm ")
            i += 2
        elif rel in _RELS:
            out.append(_RELS[rel] + " ")
            i += 2
        elif s.startswith("||", i):
            out.append(r"\|")
            i += 2
        elif s[i] in "{}" or s[i] in "%&#$":
            out.append("\\" + s[i])
            i += 1
        elif s[i] == "~":
            out.append(r"\sim ")
            i += 1
        elif s[i] in UNICODE_MATH:
            out.append(UNICODE_MATH[s[i]] + " ")
            i += 1
        elif s[i] == "…":
            out.append(r"\ldots ")
            i += 1
        elif _MATH_PLAIN.match(s, i):
            out.append(s[i])
            i += 1
        else:                      # a backslash, a lone script sign, a control character, '^^' ...
            out.append("\\text{" + latex_escape(s[i]) + "}")     # as text: never read as TeX
            i += 1
    return "".join(out)


# characters _math_inner writes into math as they are; a script sign only before what it scripts
_MATH_PLAIN = re.compile(r"[A-Za-z0-9 +\-*/=()\[\],.;:!?'<>|]|[_^](?=[A-Za-z0-9])")


def _script(s: str, i: int, sup: bool) -> tuple[str, int] | None:
    """The argument of a script starting at ``s[i]``: ``(...)``, ``{...}``, a word, digits
    or ``*``; ``(tex, end)``."""
    if i >= len(s):
        return None
    if s[i] in "({":
        j = _closing(s, i)
        if j < 0:
            return None
        inner = _math_inner(s[i + 1:j - 1])
        raw = s[i + 1:j - 1]
        # an index in parentheses (theta^(K), U^(K+1)) keeps them; a grouped exponent (^(-c), ^(1/2)) not
        keep = s[i] == "(" and sup and not (raw.startswith(("-", "+")) or re.search(r"[/ ^*]", raw))
        return ("{(" + inner + ")}" if keep else "{" + inner + "}"), j
    if s.startswith("+-", i):                           # mu_+-
        return "{\\pm}", i + 2
    signed = re.compile(r"[-+][0-9]+(?:\.[0-9]+|/[0-9]+)?(?![A-Za-z_(.0-9])").match(s, i) if sup else None
    if signed:                                          # n^-1, 2^-40, n^-1/2: a signed number
        return "{" + signed.group(0) + "}", signed.end()
    if sup and s[i] in "+-" and i + 1 < len(s) and s[i + 1] not in " *+-":
        rest = _script(s, i + 1, sup)                   # x^-y, e^-(x+1): a signed exponent
        if rest is not None:
            body = rest[0][1:-1]
            if s[i + 1] == "(" and not body.startswith("("):      # -(a/2 + 1), not -a/2 + 1
                body = "(" + body + ")"
            return "{" + s[i] + body + "}", rest[1]
    if s[i] in "*+-±∓":
        return "{" + UNICODE_MATH.get(s[i], s[i]) + "}", i + 1
    m = re.compile(r"[0-9]+|[A-Za-z]+|[" + "".join(_GREEK_CHARS) + "]").match(s, i)
    if not m:
        return None
    tex, end = _math_word(m.group(0)), m.end()
    acc = re.compile(r"[-_](bar|hat|tilde)(?![A-Za-z0-9])").match(s, end)      # t^c_hat
    if acc:
        tex, end = "\\" + acc.group(1) + "{" + tex + "}", acc.end()
    return "{" + tex + "}", end


def _atom(s: str, i: int, inner: bool = False) -> tuple[str, int] | None:
    """A math atom starting at ``s[i]`` -- a root, or a name (a word, a Greek letter, digits
    followed by a script, a closing parenthesis followed by a script) with its
    decorations and scripts -- as ``(latex, end)``; None when ``s[i]`` starts plain text."""
    if i > 0 and (_IDENT_CHAR.match(s[i - 1]) or s[i - 1] == "\\") and s[i] != ")":
        return None
    if s.startswith("sqrt", i):
        root = _root_atom(s, i)
        if root is not None:
            return root
    head = _atom_name(s, i, inner)
    if head is None:
        return None
    tex, j, decorated = _decorations(s, *head, inner)
    tex, j, scripted = _scripts(s, j, tex)
    if not (decorated or scripted) and not inner:
        return None
    return tex, j


def _root_atom(s: str, i: int) -> tuple[str, int] | None:
    """sqrt(...) or sqrt x at ``s[i]`` as ``\\sqrt{...}``."""
    j = i + 4
    if j < len(s) and s[j] == "(":
        k = _closing(s, j)
        if k > 0:
            return r"\sqrt{" + _math_inner(s[j + 1:k - 1]) + "}", k
    m = re.compile(r" ([A-Za-z0-9]+|[" + "".join(_GREEK_CHARS) + "])(?![A-Za-z0-9_(])").match(s, j)
    if m:
        return r"\sqrt{" + _math_word(m.group(1)) + "}", m.end()
    return None


def _atom_name(s: str, i: int, inner: bool) -> tuple[str, int, bool] | None:
    """(LaTeX, end, decorated) of the name at ``s[i]``: a closing parenthesis or digits
    followed by a script, or a word (X-bar as a bar; a Greek name decorated)."""
    if s[i] == ")" or s[i].isdigit():
        m = re.compile(r"\)|\d+").match(s, i)
        if m is None:
            return None
        name, j = m.group(0), m.end()
        if not (j < len(s) and s[j] in "_^" and (s[j + 1:j + 2] or " ") not in " ,;."):
            return None
        return name, j, True
    m = _WORD.match(s, i)
    if not m:
        return None
    name, j = m.group(0), m.end()
    if name in ("True", "False") and not inner:
        return None
    bar = re.fullmatch(r"([A-Za-z]|" + "|".join(sorted(_GREEK_NAMES)) + ")bar", name)
    tex = r"\bar{" + _math_word(bar.group(1)) + "}" if bar else _math_word(name)
    decorated = bool(bar) or name in _GREEK_NAMES or name in UNICODE_MATH or name == "eps"
    if name in UNICODE_MATH and name not in _GREEK_CHARS:
        return None                   # a Unicode operator: latex_escape's business
    return tex, j, decorated


def _decorations(s: str, tex: str, j: int, decorated: bool, inner: bool) -> tuple[str, int, bool]:
    """The decorations after a name: X~ (tilde), X-bar, X_bar (bar), X* (star), L^ (hat)."""
    while j < len(s):
        acc = re.compile(r"[-_](bar|hat|tilde)(?![A-Za-z0-9])").match(s, j)
        if s[j] in _COMBINING:
            tex, j, decorated = _COMBINING[s[j]] + "{" + tex + "}", j + 1, True
        elif s[j] == "^" and s[j + 1:j + 2] in ("_", " ", "", ",", ";", ")", "|"):      # L^_n, L^, L^||: a hat
            tex, j, decorated = r"\hat{" + tex + "}", j + 1, True
        elif s[j] == "~" and (j + 1 == len(s) or s[j + 1] != " " or not inner):     # X~ (in a script: X~y)
            tex, j, decorated = r"\tilde{" + tex + "}", j + 1, True
        elif acc:
            tex, j, decorated = "\\" + acc.group(1) + "{" + tex + "}", acc.end(), True
        elif s[j] == "*" and (j + 1 == len(s) or not s[j + 1].isalnum()):
            tex, j, decorated = tex + "^{*}", j + 1, True
        elif s[j] == "'" and not s[j + 1:j + 2].isalpha() and len(re.findall(r"(?:^|(?<=[\s(]))'", s[:j])) % 2 == 0:
            tex, j, decorated = tex + "'", j + 1, True       # delta': a prime (not a closing quote)
        else:
            break
    return tex, j, decorated


def _scripts(s: str, j: int, tex: str) -> tuple[str, int, bool]:
    """The scripts after a name (a second subscript joins the first: gamma_{gap,min}), and
    whether there were any."""
    scripts: dict[str, list[str]] = {}
    while j < len(s) and s[j] in "_^":
        arg = _script(s, j + 1, s[j] == "^")
        if arg is None:
            break
        scripts.setdefault(s[j], []).append(arg[0][1:-1])
        j = arg[1]
    for kind in ("_", "^"):
        if kind in scripts:
            tex += kind + "{" + ",".join(scripts[kind]) + "}"
    return tex, j, bool(scripts)


def _decompose(text: str) -> str:
    """A letter with a tilde, bar or hat composed into one character (Ũ) as the letter and
    its combining mark, which :func:`_atom` reads as a decoration; the micro sign (µ, what a
    keyboard types) as the Greek letter μ."""
    import unicodedata
    text = text.replace("\N{MICRO SIGN}", "\N{GREEK SMALL LETTER MU}")
    out = []
    for ch in text:
        d = unicodedata.normalize("NFD", ch)
        out.append(d if len(d) == 2 and d[1] in "\u0303\u0304\u0302" and d[0].isascii() else ch)
    return "".join(out)


def _lone_letter(text: str, i: int, prev: str) -> bool:
    """A single letter beside a relation or an operator, or between norm bars, is a variable:
    H = 32, <= P, 1/K, ||p||."""
    c = text[i]
    if c == "s" and text[i + 1:i + 2] == ")" and re.search(r"[A-Za-z]{3}\($", text[:i]):
        return False                  # constant(s): a plural, not the variable s
    return bool(c.isascii() and c.isalpha() and not _IDENT_CHAR.match(prev) and prev not in "'\\" and
                not _IDENT_CHAR.match(text[i + 1:i + 2] or " ") and text[i + 1:i + 2] != "'" and
                ((prev == "|" and text[i + 1:i + 2] == "|") or       # ||p||, |x|: inside norm bars
                 re.match(r"\s*(?:[=<>≤≥≲≳+*/·×]|- )", text[i + 1:]) or re.search(r"(?:[=<>≤≥≲≳+*/·×(]| -)\s*$", text[:i])
                 and not re.match(r"\s*[A-Za-z]", text[i + 1:])))


_NAMES_CACHE: dict = {}


def known_names(paper) -> tuple[re.Pattern | None, dict[str, tuple[str, str]]]:
    """The identifiers of one paper's formula file that its notes name, read as what they
    are rather than guessed by the ASCII convention: a symbol's name (``C_5O``, ``M0``,
    ``theta2_2inf``) -> ``("math", its LaTeX)`` (``C_{5,O}``); a formula's key that the
    convention would mangle (``rademacher_G_restricted``, ``prob_theorem5``) -> ``("code",
    key)``. Only names with an underscore or a digit (a plain word or letter is read by the
    convention). ``(pattern, map)``; the pattern is None when there are none."""
    key = id(paper)
    hit = _NAMES_CACHE.get(key)
    if hit is not None and hit[0] is paper:        # the paper itself is kept: no id is reused
        return hit[1]
    token = NAMES_OF.set(None)          # the keys are read in the convention alone (_mangled)
    try:
        names = _names(paper)
    finally:
        NAMES_OF.reset(token)
    rx = re.compile(r"(?<![\w\\])(?:" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
                    + r")(?![\w])") if names else None
    _NAMES_CACHE[key] = (paper, (rx, names))
    return rx, names


def _names(paper) -> dict[str, tuple[str, str]]:
    names: dict[str, tuple[str, str]] = {}
    for sym in paper.symbols.values():
        if sym.latex and re.search(r"[_\d]", sym.name) and not latex_balance_error(sym.latex):
            names[sym.name] = ("math", sym.latex)
    for k in getattr(paper, "formulas", {}):
        k = k.split(".", 1)[-1]
        # a key the convention reads into upright words or loose digits (prob_theorem5 ->
        # prob_{theorem}5) is an identifier: shown as code
        if k not in names and "_" in k and _mangled(k):
            names[k] = ("code", k)
    return names


def _mangled(key: str) -> bool:
    """Whether the ASCII convention reads a formula's key into something other than one
    clean symbol: loose pieces (``gamma_attn_sec7`` -> gamma_{attn,sec} 7) or an upright word
    as the symbol itself (``prob_theorem5`` -> prob_{theorem}5)."""
    pieces = ascii_math_parts(key)
    return len(pieces) != 1 or pieces[0][0] != "math" or pieces[0][1].startswith("\\mathrm{")


def _known_piece(text: str, i: int) -> tuple[str, str, int] | None:
    paper = NAMES_OF.get()             # the paper names_of entered (boundcalc.reports.names)
    if paper is None or not text[i].isalpha():
        return None
    rx, names = known_names(paper)
    if rx is None:
        return None
    m = rx.match(text, i)
    if m is None or text[m.end():m.end() + 1] in ("(", "~", "*") and names[m.group(0)][0] == "math":
        return None            # a call or a decorated name: the convention reads it whole
    kind, piece = names[m.group(0)]
    return kind, piece, m.end()


def _math_piece(text: str, i: int, prev: str) -> tuple[str, str, int] | None:
    """("math", LaTeX, end) of the math that starts at ``text[i]``: a known name
    (:func:`known_names`), an atom, a lone letter, a norm bar, a relation, a bracket, a script
    on what precedes, a times sign between operands (``4 x 24``, ``T x d``); None if none
    starts there."""
    c = text[i]
    if not _IDENT_CHAR.match(prev) and prev not in "\\/.":
        path = _FILE_NAME.match(text, i)
        if path:                   # a file's name (my_paper_runs.csv, notes/arda2026.md): code
            return "code", path.group(0), path.end()
    known = _known_piece(text, i) if not _IDENT_CHAR.match(prev) and prev != "\\" else None
    if known:
        return known
    if c == "x" and _TIMES.match(text, i - 2 if i >= 2 else 0) and i >= 2 and text[i - 1] == " ":
        return "math", r"\times", i + 1
    if text.startswith("+-", i) and (prev in " ([=,:" or i == 0):
        return "math", r"\pm", i + 2
    grad = _GRAD.match(text, i)
    if grad and not _IDENT_CHAR.match(prev):       # grad L(p): the gradient, nabla L(p)
        name = _atom(text, grad.end(), inner=True)
        if name is not None:
            return "math", *_call(text, r"\nabla " + name[0], name[1])
    atom = _atom(text, i)
    if atom:
        return "math", *_call(text, *atom)
    if c == "(":                     # (g_0(1/K))^3, (a + b)^2: a group with a script is math
        k = _closing(text, i)
        if k > 0 and text[k:k + 1] in ("^", "_"):
            called = _call(text, "", i)
            if called[1] > k:
                return "math", *called
    if not _IDENT_CHAR.match(prev) and prev not in "\\'":
        head = re.compile(r"[A-Za-z](?=\()|(?:" + "|".join(sorted(_CALLABLE, key=len, reverse=True))
                          + r")(?=\()").match(text, i)
        if head:                     # p(t), f(x), log(n): a function applied to math
            tex = head.group(0) if len(head.group(0)) == 1 else _math_word(head.group(0))
            called = _call(text, tex, head.end())
            if called[1] > head.end():
                return "math", *called
    if _lone_letter(text, i, prev):
        return "math", c, i + 1
    return _sign_piece(text, i, prev)


# names that may be applied to an argument in parentheses: the operators and the Greek names
_CALLABLE = {"log", "exp", "sqrt", "min", "max", "sup", "inf", "det"} | {n for n in _GREEK_NAMES if len(n) > 1}
# the words an argument of a call may hold: a short name, a Greek name, an operator
_ARG_WORD = re.compile(r"(?<![A-Za-z_^])[A-Za-z]{3,}(?![A-Za-z])")


def _call(text: str, tex: str, j: int) -> tuple[str, int]:
    """``(tex, end)`` of the math ``tex`` that ends at ``text[j]`` followed by its argument in
    parentheses (``g_0(1/K)``, ``p(t)``, ``L^_n(phi(s))``, ``phi(s)``), and a script on the
    closing parenthesis (``(1/K)^3``): one piece of math, not a letter, a text parenthesis and
    math. Only an argument of math (no word of three letters or more that is not a Greek name
    or an operator, at most 40 characters) is read; else ``(tex, j)`` unchanged."""
    if text[j:j + 1] != "(":
        return tex, j
    k = _closing(text, j)
    if k < 0 or k - j > 42:
        return tex, j
    inner = text[j + 1:k - 1]
    if not inner.strip() or any(w.group(0) not in _GREEK_NAMES and w.group(0) not in _OPERATORS
                                and w.group(0) not in ("sqrt", "eps") for w in _ARG_WORD.finditer(inner)):
        return tex, j
    if re.search(r"[\\$\"]|\s-\s*$|,\s*$", inner):
        return tex, j
    out, end, _ = _scripts(text, k, tex + "(" + _math_inner(inner) + ")")
    return out, end


def _sign_piece(text: str, i: int, prev: str) -> tuple[str, str, int] | None:
    """("math", LaTeX, end) of a sign at ``text[i]``: a norm bar, a relation, a bracket, a product
    (``eta_O*eta_V``), the wedge (``a ^ b``), a script on what precedes; None if none."""
    c = text[i]
    two = text[i:i + 2]
    if two == "||":
        return "math", r"\|", i + 2
    if two in _RELS:
        return "math", _RELS[two], i + 2
    if c in "<>|":
        return "math", c, i + 1
    if c == "*" and (prev.isalnum() or prev in ")}") and re.match(r"[A-Za-z0-9(]", text[i + 1:i + 2]):
        return "math", r"\cdot", i + 1         # eta_O*eta_V: a product
    if c == "^" and prev == " " and text[i + 1:i + 2] == " ":
        return "math", r"\wedge", i + 1         # a ^ b between spaced operands: the minimum (Deora's a ∧ b)
    if c in "_^" and i > 0 and (not text[i - 1].isspace() or (c == "^" and text[i + 1:i + 2] in ("{", "("))):
        # a script on what precedes (``)^3``, ``||^2``), or a power on its own (``or ^{3/2}``)
        arg = _script(text, i + 1, c == "^")
        if arg is not None:
            return "math", "{}" + c + arg[0], arg[1]
    return None


def _word_piece(text: str, i: int, prev: str) -> tuple[str, str, int] | None:
    """A boolean value (``used True``, ``normalized=False``) as a word -- an English adjective
    (``True loss``, ``True-loss bound``) stays as written --, a name of the prover's own
    (``_g0``) as code, or an identifier (an arXiv id
    2310.12680v2, a version 1.2.3, ``arXiv 1707.09564``) as text, never a number to be
    restyled or rounded: ``(kind, piece, end)``; None for anything else."""
    if _IDENT_CHAR.match(prev):
        return None
    m = _PRIVATE_NAME.match(text, i)          # a name of the prover's own (_g0): code
    if m:
        return "code", m.group(0), m.end()
    m = _BOOLEAN.match(text, i)
    if m:
        return "text", "yes" if m.group(1) == "True" else "no", m.end()
    m = _IDENTIFIER.match(text, i)
    if m and prev not in ".-" and (m.group(0).count(".") > 1 or re.fullmatch(_ARXIV_ID, m.group(0))
                                   or re.search(r"\b(?:arXiv|arxiv|eprint|version|v)[:\s]*$", text[:i])):
        return "text", m.group(0), m.end()
    return None


def _other_piece(text: str, i: int, prev: str, wide: dict, after_math: bool) -> tuple[str, str, int]:
    """(kind, piece, end) of what starts at ``text[i]`` when no math does: a boolean as a
    word, a minus (of a number, or math), a number in the one number style, or a character
    of text. ``after_math``: the last piece read was math (N-1 after the variable N)."""
    from .numfmt import restyle_number
    c = text[i]
    word = _word_piece(text, i, prev)
    if word is not None:
        return word
    # a minus: before a number, a name or a bracket, after a space, a bracket or '='
    if c == "-" and (prev in " ([=,:/⟨" or i == 0) and re.compile(r"-(?=[\w(.|<⟨‖\\" + "".join(_GREEK_CHARS)
                                                                  + "])").match(text, i):
        n = _NUM.match(text, i + 1)
        if n and not _IDENT_CHAR.match(prev):
            return "num", restyle_number("-" + n.group(0), wide.get("-" + n.group(0), 6)), n.end()
        return "math", "-", i + 1
    if c == "-" and after_math and re.match(r"[\w(]", text[i + 1:i + 2] or " "):     # N-1 after the variable N
        return "math", "-", i + 1
    if c in "-~" and prev == " " and text[i + 1:i + 2] == " ":
        return "math", ("-" if c == "-" else r"\sim"), i + 1     # a binary minus; '~' between operands
    if c.isdigit() or (c == "." and text[i + 1:i + 2].isdigit()):
        n = _NUM.match(text, i)
        if n and not _IDENT_CHAR.match(prev) and prev not in ".-" and \
                re.search(r"[.eE]", n.group(0)) and \
                not _REFERENCE.search(text[:i]):     # Sec. 6.1, §2.3
            return "num", restyle_number(n.group(0), wide.get(n.group(0), 6)), n.end()
    return "text", c, i + 1


def ascii_math_parts(text: str) -> list[tuple[str, str]]:
    """Text written in the ASCII/Unicode math convention above, read into pieces
    ``(kind, piece)``: ``"math"`` (LaTeX math: ``L̂(θ^(K))``, ``Φ~(X_i)``, ``sqrt(T)(S + P)``,
    ``R-bar_μ``, ``||p||``, a minus), ``"num"`` (a number in the one number style,
    :func:`.numfmt.restyle_number`), ``"code"`` (a formula's key, :func:`known_names`) and
    ``"text"`` (the words as written, the booleans as words). The one reading of that convention: :func:`ascii_math` writes it as LaTeX, the
    figures as mathtext (:func:`mathtext_label`), the HTML page as MathML."""
    from .numfmt import pair_digits
    text = _decompose(str(text))
    # Python's power between two operands (d**2, (a+b)**(1/2), n**-1) is the convention's ^;
    # an extraction's **bold** has a space or the text's edge outside its stars
    text = re.sub(r"(?<=[\w)\]])\*\*(?=[\w(\-+])", "^", text)
    text = re.sub(r"<([^<>=]+?,[^<>=]+?)>", "⟨\\1⟩", text)      # <a, b>: an inner product
    wide = pair_digits(text)          # two numbers side by side: printed to the digits that differ
    out: list[tuple[str, str]] = []
    plain: list[str] = []
    i = 0

    def flush():
        if plain:
            out.append(("text", "".join(plain)))
            plain.clear()

    while i < len(text):
        prev = text[i - 1] if i else " "
        piece = _math_piece(text, i, prev)
        if piece is None:
            piece = _other_piece(text, i, prev, wide, bool(not plain and out and out[-1][0] == "math"))
        kind, got, i = piece
        if kind == "text":
            plain.append(got)
        else:
            flush()
            out.append((kind, got))
    flush()
    return _join_math_runs(out)


# an operand after a piece of math: an operator (or none, after a relation) then an integer or
# a lone letter -- x + 1, g < 0, d = 1, x^2 + y -- read into the same math
_OPERAND = re.compile(r"(\s*)([-+=/]?)(\s*)(\d+|[A-Za-z])(?![\w.'(\[{^_])")
_ENDS_IN_OPERATOR = re.compile(r"(?:\\(?:leq|geq|neq|lesssim|gtrsim|sim|pm|cdot|times|to)|[<>=+\-/])$")


def _join_math_runs(parts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Math written with spaces (``x + 1``, ``g < 0``, ``d <= 1``) as one piece of math, not
    math, words and math side by side: an integer or a lone letter after an operator that
    follows math joins it (a letter before a word only if it cannot be an article: ``x = a
    constant`` keeps its words), and so does math after a space."""
    out: list[tuple[str, str]] = []
    for kind, p in parts:
        if out and out[-1][0] == "math" and kind == "math":
            out[-1] = ("math", out[-1][1] + ("" if p.startswith("{}") else " ") + p)
            continue
        while out and out[-1][0] == "math" and kind == "text" and p:
            m = _OPERAND.match(p)
            if not m or not (m.group(2) or _ENDS_IN_OPERATOR.search(out[-1][1])):
                break
            word_after = re.match(r"\s+[A-Za-z]", p[m.end():])
            if m.group(4).isalpha() and word_after and (m.group(4) in "aAI" or not m.group(2)):
                break
            glue = m.group(1) + m.group(2) + m.group(3)
            if not glue and re.search(r"\\[A-Za-z]+$", out[-1][1]):
                glue = " "                  # \pm x, never the control word \pmx
            out[-1] = ("math", out[-1][1] + glue + m.group(4))
            p = p[m.end():]
        if kind == "text" and not p:
            continue
        if kind == "text" and out and out[-1][0] == "math" and _BETWEEN.fullmatch(p):
            out.append((kind, p))           # a space or an operator between math: joined if math follows
            continue
        if kind == "num" and len(out) >= 2 and out[-1][0] == "text" and _BETWEEN.fullmatch(out[-1][1]) \
                and out[-2][0] == "math" and (out[-1][1].strip() or _ENDS_IN_OPERATOR.search(out[-2][1])) \
                and not out[-2][1].endswith("\\to"):
            op = out.pop()[1]              # R = 1.02, H >= 3.26e7: the number joins the math before it
            out[-1] = ("math", out[-1][1] + (op if op.strip() else " ") + num_math(p))
            continue
        if kind == "num" and out and out[-1][0] == "math" and _ENDS_IN_OPERATOR.search(out[-1][1]) \
                and not out[-1][1].endswith(("-", "+", "\\to")):      # a -> b: two values, both numbers
            out[-1] = ("math", out[-1][1] + " " + num_math(p))
            continue
        if kind == "math" and len(out) >= 2 and out[-1][0] == "text" and _BETWEEN.fullmatch(out[-1][1]) \
                and out[-2][0] == "math":
            op = out.pop()[1]
            out[-1] = ("math", out[-1][1] + (op if op.strip() else " ") + p)
            continue
        if kind == "math" and out and out[-1][0] == "text":
            m = re.search(r"(?<![\w.,])(\d+)(\s*[-+=/]?\s*)$", out[-1][1])  # 4 x 24, 1 - δ, 2 + x: the number too
            lead = _LEADS_WITH_OPERATOR.match(p)
            if m and (m.group(2).strip() or (lead and (p[0] not in "-+" or m.group(2)))) \
                    and not _REFERENCE.search(out[-1][1][:m.start()]):      # Table 2, §3: a reference
                rest = out[-1][1][:m.start()]
                out[-1:] = [("text", rest)] if rest else []
                p = m.group(1) + (m.group(2) or " ") + p
        out.append((kind, p))
    return out


# a number that follows one of these is a reference (Sec. 6.1, Table 2, §2.3), never math or a value
_REFERENCE = re.compile(r"(?:\b(?:Sec|Secs|Section|App|Appendix|Lemma|Thm|Theorem|Prop|Cor|Def|Fig|"
                        r"Table|Remark|Assumption|eq|Eq|v)\.?|§)\s?$")
_BETWEEN = re.compile(r"\s+|\s*[-+=/]\s*")
_LEADS_WITH_OPERATOR = re.compile(r"\\(?:leq|geq|neq|lesssim|gtrsim|times|cdot)(?![A-Za-z])|[<>=]|[-+](?: |$)")


def ascii_math(text: str) -> str:
    """Text written in the ASCII/Unicode math convention above, as LaTeX: every piece of
    math typeset in ``\\ensuremath``, every number in the one number style (``\\num``), the
    booleans as words, everything else escaped by :func:`latex_escape`
    (:func:`ascii_math_parts` reads it)."""
    wrap = {"math": lambda p: "\\ensuremath{" + p + "}", "num": lambda p: "\\num{" + p + "}",
            "text": latex_escape,
            "code": lambda p: latex_code(p, breaks=True)}
    return "".join(wrap[kind](p) for kind, p in ascii_math_parts(text))


def latex_text_parts(latex: str) -> list[tuple[str, str]]:
    """LaTeX text with math in ``$...$`` (a row's ``latex``, a formula file's ``*_latex``
    field) as :func:`ascii_math_parts` pieces: each ``$...$`` a math piece, the text between
    with LaTeX's ties and spacing commands read as spaces and its emphasis as the words."""
    out: list[tuple[str, str]] = []
    for k, piece in enumerate(re.split(r"(?<!\\)\$", latex)):
        if k % 2:
            out.append(("math", piece))
        elif piece:
            piece = re.sub(r"\\(?:emph|textit|textbf|textup|mbox)\{([^{}]*)\}", r"\1", piece)
            out.append(("text", re.sub(r"~|\\[ ,;]", " ", piece)))
    return out


def quote_parts(text: str) -> list[tuple[str, str]]:
    """Words in the ASCII convention with the paper's own math in ``$...$`` (a reason quoting
    the paper, a hypothesis as stated) as :func:`ascii_math_parts` pieces: each ``$...$`` a
    math piece, the words between read by :func:`ascii_math_parts` (the papers' text marks bold
    ``**so**``: read as the words)."""
    out: list[tuple[str, str]] = []
    text = re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"\1", str(text))    # the extraction's **bold**: the words
    if "$" not in text and re.search(r"\\(?:[A-Za-z]+|[|{}])", text):
        # a display's fragment quoted without its $ (a hypothesis from a $$ array): math, a piece
        # per line (\\), side by side with a comma
        for k, line in enumerate(p.strip() for p in re.split(r"\\\\", text) if p.strip()):
            out += [("text", ", ")] * bool(k) + [("math", line)]
        return out
    pos = 0
    for m in _DOLLARS.finditer(text):
        if m.start() > pos:
            out += ascii_math_parts(text[pos:m.start()])
        math = m.group(1) if m.group(1) is not None else m.group(2)
        if math.strip():
            out.append(("math", math))
        pos = m.end()
    if pos < len(text):
        out += ascii_math_parts(text[pos:])
    return out


# $$display$$ or $inline$ math in a text (a ``\$`` is a dollar)
_DOLLARS = re.compile(r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$", re.DOTALL)


def label_parts(row) -> list[tuple[str, str]]:
    """A comparison row's quantity as :func:`ascii_math_parts` pieces: its ``latex`` when it has
    one (math, or LaTeX text with math in ``$...$``), else its words read in the ASCII math
    convention."""
    latex = getattr(row, "latex", "")
    if not latex:
        return ascii_math_parts(row.quantity)
    if "$" not in latex:
        return [("math", latex)]
    return latex_text_parts(latex)


def markdown_pieces(parts: list[tuple[str, str]], table: bool = False) -> str:
    """:func:`ascii_math_parts` pieces as Markdown: the math as ``$...$`` (:func:`.escape.md_math`),
    a number in the one number style (a power of ten as math, a true minus), a formula's key
    as code, the words escaped (:func:`.escape.md_cell`); ``table``: for a table cell."""
    from .escape import md_cell, md_code, md_line_start, md_math

    def number(p: str) -> str:
        if re.search(r"[eE]", p):
            return md_math(num_math(p))
        return md_cell(p.replace("-", "\N{MINUS SIGN}"), inline=True)
    merged: list[tuple[str, str]] = []
    for kind, p in parts:            # $a$$b$ would open a display: one span for math side by side
        if kind == "math" and merged and merged[-1][0] == "math":
            merged[-1] = ("math", merged[-1][1] + " " + p)
        else:
            merged.append((kind, p))
    wrap: dict[str, Callable[[str], str]] = {"math": md_math, "num": number,
                                             "code": lambda p: md_code(p, table=table),
                                             "text": lambda p: md_cell(p, inline=True)}
    return md_line_start("".join(wrap[kind](p) for kind, p in merged))


def markdown_text(text: str, table: bool = False) -> str:
    """Text written in the ASCII/Unicode math convention above, as Markdown (the same reading as
    :func:`ascii_math` and the HTML page's: :func:`ascii_math_parts`)."""
    return markdown_pieces(ascii_math_parts(text), table=table)


def num_math(num: str) -> str:
    """A number of the one number style (``3.26e7``, ``-0.5``) as LaTeX math (3.26\\times10^{7})."""
    m = re.fullmatch(r"(-?[\d.]+)[eE]([+-]?\d+)", num)
    return f"{m.group(1)}\\times 10^{{{int(m.group(2))}}}" if m else num


def mathtext_label(row) -> str:
    """The row's quantity for a matplotlib label (mathtext ``$...$``; a text ``$`` escaped)."""
    out = []
    for kind, p in label_parts(row):
        out.append(p.replace("$", r"\$") if kind in ("text", "code") else f"${p if kind == 'math' else num_math(p)}$")
    return "".join(out)


# ---------------------------------------------------------------------------- quantities
def formula_quantity(fid: str) -> str:
    """:func:`quantity_latex` of a formula of the registry by id; ``""`` if unknown."""
    if not fid:
        return ""
    try:
        from ..registry import get_registry
        spec = get_registry().spec(fid)
    except Exception:         # an id the registry does not know: fall back to the text
        return ""
    if spec.kind in ("requirement", "claim"):
        return ""             # a condition is named by its title, not by one side of it
    return quantity_latex(spec.latex)


# ---------------------------------------------------------------------------- documents
def document(body: str, *, title: str = "", bibitems: list[tuple[str, str]] | None = None,
             landscape: bool = False) -> str:
    """A complete ``article`` (standard text width) around ``body``; ``bibitems``
    ``[(cite_key, LaTeX text)]`` become a ``thebibliography`` so every ``\\cite`` resolves."""
    out = ["\\documentclass[11pt]{article}", PACKAGES.rstrip("\n"),
           "\\usepackage[hidelinks,bookmarks=false]{hyperref}", "\\sisetup{detect-all}", "\\begin{document}"]
    if title:
        out += [f"\\section*{{{title}}}"]
    out.append(body.rstrip("\n"))
    if bibitems:
        out += ["\\begin{thebibliography}{9}"] + \
               [f"\\bibitem{{{k}}} {text}" for k, text in bibitems] + ["\\end{thebibliography}"]
    out.append("\\end{document}")
    return "\n".join(out) + "\n"


class Compiled:
    def __init__(self, pdf: Path, log: str, reads: frozenset = frozenset(), writes: frozenset = frozenset()):
        self.pdf, self.log = pdf, log
        self.overfull = re.findall(r"^Overfull \\hbox.*$", log, flags=re.MULTILINE)
        self.typeout = dict(re.findall(r"^BOUNDCALC (\w+)=(\S+)$", log, flags=re.MULTILINE))
        self.reads, self.writes = reads, writes       # absolute paths, from pdflatex's -recorder


def recorded_files(fls: Path) -> tuple[frozenset, frozenset]:
    """The files a TeX run read and wrote, from its ``-recorder`` file (``.fls``: ``PWD``,
    ``INPUT`` and ``OUTPUT`` lines), as absolute resolved paths."""
    import os
    pwd = fls.parent
    reads: set[Path] = set()
    writes: set[Path] = set()
    for line in fls.read_text(encoding="utf-8", errors="replace").splitlines():
        kind, _, path = line.partition(" ")
        if kind == "PWD":
            pwd = Path(path)
        elif kind in ("INPUT", "OUTPUT"):
            (reads if kind == "INPUT" else writes).add(Path(os.path.realpath(pwd / path)))
    return frozenset(reads), frozenset(writes)


def compile_pdf(tex: str, folder, name: str = "doc", runs: int = 2) -> Compiled:
    """Write ``tex`` to ``folder/name.tex`` and run pdflatex ``runs`` times (citations need
    two), with ``-no-shell-escape`` and ``-recorder`` (the files it read and wrote:
    :attr:`Compiled.reads` / :attr:`Compiled.writes`). Raises :class:`RuntimeError` with
    the log's tail when pdflatex fails."""
    import subprocess
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.tex").write_text(tex, encoding="utf-8")
    reads: set = set()
    writes: set = set()
    for _ in range(runs):
        p = subprocess.run(["pdflatex", "-no-shell-escape", "-recorder", "-interaction=nonstopmode",
                            "-halt-on-error", f"{name}.tex"],
                           cwd=folder, capture_output=True, text=True, encoding="utf-8", errors="replace",
                           timeout=120, check=False)
        if p.returncode != 0:
            raise RuntimeError(f"pdflatex failed on {folder / name}.tex:\n{p.stdout[-3000:]}")
        r, w = recorded_files(folder / f"{name}.fls")
        reads |= r
        writes |= w
    log = (folder / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    return Compiled(folder / f"{name}.pdf", log, frozenset(reads), frozenset(writes))
