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
from pathlib import Path

# packages every output of boundcalc needs (the table and the sheet)
PACKAGES = ("\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{lmodern}\n"
            "\\usepackage{amsmath}\n\\usepackage{amssymb}\n\\usepackage{booktabs}\n"
            "\\usepackage{siunitx}\n\\usepackage{threeparttable}\n\\usepackage{threeparttablex}\n"
            "\\usepackage{tabularx}\n\\usepackage{xltabular}\n"
            "\\usepackage{adjustbox}\n")
REQUIRES = ("% requires \\usepackage[T1]{fontenc}, amsmath, amssymb, booktabs, siunitx, "
            "threeparttable, tabularx")

from .escape import _GREEK, _LATEX_SPECIAL, UNICODE_MATH, latex_escape  # noqa: F401  (the one LaTeX escaper)


# ---------------------------------------------------------------------------- ASCII math
_GREEK_NAMES = set(_GREEK) - {"omicron", "varsigma"} | {"Gamma", "Delta", "Theta", "Lambda", "Xi", "Pi",
                                                          "Sigma", "Phi", "Psi", "Omega", "varepsilon", "eps"}
_SUB = r"(?:\{[^{}]*\}|[A-Za-z0-9]+|\*)"
_SUP = r"(?:\([^()]*\)|\{[^{}]*\}|[A-Za-z0-9]+|\*)"
_ASCII_MATH = re.compile(
    r"(?P<norm>\|\|)|(?P<rel><=|>=|!=|->|>~|<~)"
    r"|(?<![A-Za-z0-9_.\\])(?P<base>[A-Za-z]+)(?P<sub>_" + _SUB + r")?(?P<sup>\^" + _SUP + r")?(?![A-Za-z0-9_])")
_RELS = {"<=": r"\leq", ">=": r"\geq", "!=": r"\neq", "->": r"\to", ">~": r"\gtrsim", "<~": r"\lesssim"}


def _math_word(w: str) -> str:
    if w in ("eps",):
        return r"\epsilon"
    if w in _GREEK_NAMES:
        return "\\" + w
    if w == "inf":
        return r"\infty"
    if len(w) == 1 or w.isdigit():
        return w
    return r"\mathrm{" + w + "}"


def _script(s: str) -> str:
    if s in ("*",):
        return "*"
    if s[0] in "{(":
        inner = s[1:-1]
        parts = re.split(r"([,+\- ])", inner)
        body = "".join(_math_word(x) if re.fullmatch(r"[A-Za-z]+", x) else latex_escape(x) for x in parts)
        return "{" + (f"({body})" if s[0] == "(" else body) + "}"
    return "{" + _math_word(s) + "}"


def ascii_math(text: str) -> str:
    """Text with ASCII math (``||theta_h^(1)||``, ``gamma_*/2 <= gamma_NTK``, ``Z_mu``) as
    LaTeX: Greek names, sub/superscripts, norms and relations become ``\\ensuremath``
    math, everything else is escaped as by :func:`latex_escape`."""
    out, i = [], 0
    for m in _ASCII_MATH.finditer(text):
        if m.group("base") is not None:
            base, sub, sup = m.group("base"), m.group("sub"), m.group("sup")
            if not (sub or sup or base in _GREEK_NAMES or base == "eps"):
                continue          # a plain word
            tex = _math_word(base) + (f"_{_script(sub[1:])}" if sub else "") + (f"^{_script(sup[1:])}" if sup else "")
        elif m.group("norm"):
            tex = r"\|"
        else:
            tex = _RELS[m.group("rel")]
        out.append(latex_escape(text[i:m.start()]))
        out.append("\\ensuremath{" + tex + "}")
        i = m.end()
    out.append(latex_escape(text[i:]))
    return "".join(out)


# ---------------------------------------------------------------------------- quantities
_REL = re.compile(r":=|=:|\\coloneqq|\\triangleq|\\(?:leq?|geq?|lesssim|gtrsim|approx)(?![A-Za-z])"
                  r"|(?<![<>!])=|<|>")


_OPENERS = {"left", "langle", "lceil", "lfloor", "{"}
_CLOSERS = {"right", "rangle", "rceil", "rfloor", "}"}


def _tokens(tex: str):
    """``(position, token)``: a command (``\\le``, ``\\{``) or one character."""
    i = 0
    while i < len(tex):
        if tex[i] == "\\":
            m = re.compile(r"\\(?:[A-Za-z]+|.)", re.S).match(tex, i)
            if m is None:                  # a backslash that ends the text: one character
                yield i, tex[i]
                i += 1
                continue
            yield i, m.group(0)
            i = m.end()
        else:
            yield i, tex[i]
            i += 1


def _depth_step(tok: str) -> int:
    """+1 for anything that opens a group -- ``{``, ``(``, ``[``, ``\\{``, ``\\left``,
    ``\\langle`` ... --, -1 for what closes one, 0 otherwise."""
    if tok in "{([" and len(tok) == 1:
        return 1
    if tok in "})]" and len(tok) == 1:
        return -1
    if tok.startswith("\\"):
        name = tok[1:]
        if name in _OPENERS:
            return 1
        if name in _CLOSERS:
            return -1
    return 0


def split_relation(tex: str) -> list[tuple[str, str]]:
    """``[(part, relation_after_it), ...]``: ``tex`` cut at its top-level relations only --
    outside every brace, parenthesis, bracket, ``\\{...\\}``, ``\\left...\\right`` and
    ``\\langle...\\rangle`` (the ``\\le`` of ``\\Pr[yf(X)\\le 0] \\le B`` inside the
    brackets is not one); the last relation is ``""``."""
    parts, depth, start = [], 0, 0
    skip_to = 0
    for i, tok in _tokens(tex):
        if i < skip_to:
            continue
        if depth == 0:
            m = _REL.match(tex, i)
            if m and (tok.startswith("\\") or len(tok) == 1) and m.start() == i:
                parts.append((tex[start:i].strip(), m.group(0)))
                start = skip_to = m.end()
                continue
        depth += _depth_step(tok)
    parts.append((tex[start:].strip(), ""))
    return parts


_ENV = re.compile(r"\\(begin|end)\s*\{([^{}]*)\}")


def latex_balance_error(tex: str) -> str:
    """Why ``tex`` is not balanced math (``""`` if it is): an unmatched brace (``\\{``
    and ``\\}`` are text, not braces), ``\\left`` without ``\\right`` or the reverse, a
    ``\\begin{env}`` not closed by its own ``\\end{env}``, or a ``$`` (which would end
    the surrounding math)."""
    depth, lr, envs = 0, 0, []
    for i, tok in _tokens(tex):
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth < 0:
                return f"unmatched '}}' at position {i}"
        elif tok == "$":
            return f"'$' at position {i} inside math"
        elif tok == "\\left":
            lr += 1
        elif tok == "\\right":
            lr -= 1
            if lr < 0:
                return f"\\right without \\left at position {i}"
        elif tok in ("\\begin", "\\end"):
            m = _ENV.match(tex, i)
            if not m:
                return f"{tok} without an environment name at position {i}"
            if tok == "\\begin":
                envs.append(m.group(2))
            elif not envs or envs.pop() != m.group(2):
                return f"\\end{{{m.group(2)}}} does not close the open environment at position {i}"
    if depth:
        return f"{depth} unclosed '{{'"
    if lr:
        return f"{lr} \\left without \\right"
    if envs:
        return f"\\begin{{{envs[-1]}}} not closed"
    return ""


def quantity_latex(printed: str) -> str:
    """The quantity a formula's printed LaTeX defines or bounds: the side named by ``=:``,
    else the left side of the first top-level relation (:func:`split_relation`); ``""``
    when ``printed`` has no relation or that side is not balanced LaTeX on its own."""
    parts = split_relation(printed or "")
    if len(parts) < 2:
        return ""
    q = parts[0][0]
    for k, (_, rel) in enumerate(parts):
        if rel == "=:":
            q = parts[k + 1][0]
            break
    return q if q and not latex_balance_error(q) else ""


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
           "\\usepackage[hidelinks]{hyperref}", "\\sisetup{detect-all}", "\\begin{document}"]
    if title:
        out += [f"\\section*{{{title}}}"]
    out.append(body.rstrip("\n"))
    if bibitems:
        out += ["\\begin{thebibliography}{9}"] + \
               [f"\\bibitem{{{k}}} {text}" for k, text in bibitems] + ["\\end{thebibliography}"]
    out.append("\\end{document}")
    return "\n".join(out) + "\n"


class Compiled:
    def __init__(self, pdf: Path, log: str):
        self.pdf, self.log = pdf, log
        self.overfull = re.findall(r"^Overfull \\hbox.*$", log, flags=re.M)
        self.typeout = dict(re.findall(r"^BOUNDCALC (\w+)=(\S+)$", log, flags=re.M))


def compile_pdf(tex: str, folder, name: str = "doc", runs: int = 2) -> Compiled:
    """Write ``tex`` to ``folder/name.tex`` and run pdflatex ``runs`` times (citations need
    two). Raises :class:`RuntimeError` with the log's tail when pdflatex fails."""
    import subprocess
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.tex").write_text(tex, encoding="utf-8")
    for _ in range(runs):
        p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"],
                           cwd=folder, capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError(f"pdflatex failed on {folder / name}.tex:\n{p.stdout[-3000:]}")
    log = (folder / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    return Compiled(folder / f"{name}.pdf", log)
