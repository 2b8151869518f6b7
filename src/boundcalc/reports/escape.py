"""The one escaper of each markup boundcalc writes: Markdown (:func:`md_cell`, text in a
table cell or a list item; :func:`md_math`, LaTeX inside ``$...$`` in Markdown) and LaTeX
(:func:`latex_escape`, text to LaTeX: specials escaped, Unicode math mapped to macros).
Rich markup is escaped by :func:`rich.markup.escape` and HTML by :func:`html.escape`.
No printer writes its own.
"""
from __future__ import annotations

import re
import unicodedata


def md_cell(s) -> str:
    """Text for a Markdown table cell or list item: ``|`` escaped, on one line."""
    return str(s).replace("|", "\\|").replace("\n", " ")


def md_math(tex: str) -> str:
    """LaTeX as Markdown inline math: ``$...$`` on one line, ``\\|`` as ``\\Vert`` and ``|``
    as ``\\vert`` (a bare ``|`` would end a table cell)."""
    tex = re.sub(r"\s*\n\s*", " ", tex).replace("\\|", "\\Vert ")
    return "$" + tex.replace("|", "\\vert ") + "$"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
                  "|": r"\textbar{}"}
_GREEK = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
          "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "varsigma", "sigma", "tau", "upsilon",
          "phi", "chi", "psi", "omega"]
UNICODE_MATH = {chr(0x3B1 + i): "\\" + n for i, n in enumerate(_GREEK) if n != "omicron"}
UNICODE_MATH.update({
    "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Ξ": r"\Xi", "Π": r"\Pi",
    "Σ": r"\Sigma", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega", "ϵ": r"\epsilon", "ε": r"\varepsilon",
    "φ": r"\varphi", "ϑ": r"\vartheta", "≥": r"\geq", "≤": r"\leq", "≲": r"\lesssim", "≳": r"\gtrsim",
    "≪": r"\ll", "≫": r"\gg", "≠": r"\neq", "≈": r"\approx", "≡": r"\equiv", "∼": r"\sim",
    "≃": r"\simeq", "∝": r"\propto", "×": r"\times", "·": r"\cdot", "∘": r"\circ", "⊗": r"\otimes",
    "⊙": r"\odot", "−": "-", "±": r"\pm", "∓": r"\mp", "÷": r"\div", "∞": r"\infty", "‖": r"\|",
    "∥": r"\|", "→": r"\to", "←": r"\leftarrow", "↦": r"\mapsto", "⇒": r"\Rightarrow",
    "⇔": r"\Leftrightarrow", "√": r"\surd", "∈": r"\in", "∉": r"\notin", "⊂": r"\subset",
    "⊆": r"\subseteq", "∪": r"\cup", "∩": r"\cap", "∅": r"\emptyset", "∀": r"\forall",
    "∃": r"\exists", "∂": r"\partial", "∇": r"\nabla", "∑": r"\sum", "∏": r"\prod", "∫": r"\int",
    "⊤": r"\top", "⊥": r"\perp", "∧": r"\wedge", "∨": r"\vee", "¬": r"\neg", "⟨": r"\langle",
    "⟩": r"\rangle", "⌈": r"\lceil", "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor",
    "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}", "ℤ": r"\mathbb{Z}", "ℚ": r"\mathbb{Q}", "ℓ": r"\ell",
    "★": r"\star", "⋆": r"\star", "†": r"\dagger", "°": r"^{\circ}", "′": r"'", "…": r"\ldots",
    "⋯": r"\cdots", "²": "^{2}", "³": "^{3}", "¹": "^{1}", "⁴": "^{4}", "⁻": "^{-}", "⁺": "^{+}",
    "ᵀ": r"^{\top}", "₀": "_{0}", "₁": "_{1}", "₂": "_{2}", "₃": "_{3}", "₄": "_{4}", "ₖ": "_{k}",
    "ₙ": "_{n}", "ₜ": "_{t}"})
_UNICODE_TEXT = {"—": "---", "–": "--", "“": "``", "”": "''", "’": "'", "‘": "`", "\u00a0": "~",
                 "§": r"\S{}", "•": r"\textbullet{}", "€": "EUR", "\u200b": "", "\ufeff": ""}
# combining marks: applied to the character before them (Z̄ -> \bar{Z})
_COMBINING = {"\u0304": r"\bar", "\u0305": r"\bar", "\u0303": r"\tilde", "\u0302": r"\hat",
              "\u0307": r"\dot", "\u0308": r"\ddot", "\u20d7": r"\vec"}


def _is_latin_t1(ch: str) -> bool:
    """Accented Latin letters that pdflatex typesets from UTF-8 with [T1]{fontenc}."""
    return ("\u00c0" <= ch <= "\u017f") and ch not in "×÷"


def latex_escape(s: str) -> str:
    """Escape text for LaTeX. Unicode math becomes ``\\ensuremath{...}``, accented Latin
    letters are kept (``[T1]{fontenc}``), a combining accent applies to the letter before
    it, and any other character is written as its Unicode name (``[U+2603 SNOWMAN]``) --
    never dropped, never ``?``."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", str(s)):
        if ch in _LATEX_SPECIAL:
            out.append(_LATEX_SPECIAL[ch])
        elif ord(ch) < 128:
            out.append(ch)
        elif ch in _COMBINING and out:
            prev = out.pop()
            inner = prev[len("\\ensuremath{"):-1] if prev.startswith("\\ensuremath{") else prev
            out.append("\\ensuremath{" + _COMBINING[ch] + "{" + inner + "}}")
        elif ch in UNICODE_MATH:
            out.append("\\ensuremath{" + UNICODE_MATH[ch] + "}")
        elif ch in _UNICODE_TEXT:
            out.append(_UNICODE_TEXT[ch])
        elif _is_latin_t1(ch):
            out.append(ch)
        else:
            base = unicodedata.normalize("NFKD", ch)
            if base != ch and all(ord(c) < 128 or c in UNICODE_MATH or _is_latin_t1(c) for c in base):
                out.append(latex_escape(base))
            else:
                name = unicodedata.name(ch, "")
                out.append(f"[U+{ord(ch):04X}{' ' + name if name else ''}]")
    return "".join(out)


# ---------------------------------------------------------------------------- LaTeX checks
def _tokens(tex: str):
    """``(position, token)``: a command (``\\le``, ``\\{``) or one character."""
    i = 0
    while i < len(tex):
        if tex[i] == "\\":
            m = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL).match(tex, i)
            if m is None:                 # a backslash that ends the text
                yield i, tex[i]
                i += 1
                continue
            yield i, m.group(0)
            i = m.end()
        else:
            yield i, tex[i]
            i += 1


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



# commands a formula file's LaTeX text may not hold: they read or write files, or redefine
_FORBIDDEN = re.compile(r"\\(?:input|include|write|immediate|openout|openin|read|def|edef|gdef|xdef|let|"
                        r"catcode|newcommand|renewcommand|providecommand|usepackage|documentclass|"
                        r"csname|expandafter|special|makeatletter)(?![A-Za-z])")


def latex_text_error(text: str) -> str:
    """Why ``text`` is not usable LaTeX text (``""`` if it is): text with inline math
    ``$...$`` (a ``latex`` field of a description, note or title in a formula file). Each
    math segment must be balanced (:func:`latex_balance_error`), the ``$`` must pair up,
    the braces of the text must balance, and no command may read or write a file or
    redefine anything."""
    bad = _FORBIDDEN.search(text)
    if bad:
        return f"the command {bad.group(0)} is not allowed"
    parts = re.split(r"(?<!\\)\$", text)
    if len(parts) % 2 == 0:
        return "an unpaired '$'"
    for k, part in enumerate(parts):
        why = latex_balance_error(part) if k % 2 else latex_balance_error(part.replace("$", ""))
        if why:
            return ("in math " if k % 2 else "") + f"'{part.strip()[:40]}': {why}"
    return ""
