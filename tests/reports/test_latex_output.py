"""Every LaTeX output of the CLI -- the four papers' ``compare --format latex`` tables (short,
full and no notes) and the four formula sheets -- read as a co-author would: no ASCII stands
in for math, and each compiles in ONE pdflatex pass, in ``article`` and in
``article[twocolumn]``, with no error, no overfull box and no rerun request (log parsed)."""
from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from textscan import latex_stand_ins
from typer.testing import CliRunner

from boundcalc.cli.app import app

PAPERS = ("deora2023", "anon2025", "tarzanagh2023", "arda2026")
HAVE_PDFLATEX = shutil.which("pdflatex") is not None
_CACHE: dict = {}


def cli(*args) -> str:
    if args not in _CACHE:
        r = CliRunner().invoke(app, list(args), catch_exceptions=False)
        assert r.exit_code == 0, r.output
        _CACHE[args] = r.stdout
    return _CACHE[args]


def table(paper, notes="short", *extra):
    return cli("compare", paper, "--format", "latex", "--notes", notes, *extra)


def sheet(paper):
    return cli("sheet", paper)


# ---------------------------------------------------------------------------- the ASCII scan
# the scanner is shared with the scan of every format (tests/textscan.py, test_text_scan.py)
stand_ins = latex_stand_ins


def test_the_scan_finds_what_it_looks_for():
    """The scanner on known stand-ins (and on their typeset forms, which pass)."""
    bad = [r"L\textasciicircum{}(x)", r"\ensuremath{\Phi}\textasciitilde{}", "bound sqrt(T)(S + P)", "s-bar",
           r"R-\ensuremath{\mathrm{bar}_{\mu}}", r"needs: False", "used True", "used True, then", r"gamma = -5.4", "1 - delta", r"n\_test",
           r"a \textless{}= b", "x = 3.26e+7", r"[U+2603 SNOWMAN]"]
    for b in bad:
        assert stand_ins(b), b
    good = [r"\ensuremath{\hat{L}}(x)", r"\ensuremath{\tilde\Phi}", r"\ensuremath{\sqrt{T}}(S + P)", r"\ensuremath{\bar s}",
            r"needs: no", r"\num{-5.4}", r"1 \ensuremath{-} \ensuremath{\delta}", r"\texttt{--n-test}~2000",
            r"non-negative, Thms 2-3, (L1-L3)", r"x & -2.72 & 1.00e-4 & 3.2e7 \\", r"\num{3.26e7}",
            r"% requires siunitx", "True-loss bound", "True loss from"]
    for g in good:
        assert stand_ins(g) == [], (g, stand_ins(g))


def all_outputs():
    for p in PAPERS:
        for notes in ("short", "full"):
            yield f"compare {p} --notes {notes}", table(p, notes)
        yield f"sheet {p}", sheet(p)


@pytest.mark.parametrize("paper", PAPERS)
def test_no_ascii_stands_in_for_math(paper):
    found = {}
    for name, tex in all_outputs():
        if paper in name:
            hits = stand_ins(tex)
            if hits:
                found[name] = hits
    assert found == {}, {k: (len(v), v[:6]) for k, v in found.items()}


def test_table_numbers_have_one_style():
    """In every S cell: an exact integer, fixed-point in [1e-3, 1e4), or scientific outside."""
    for p in PAPERS:
        tex = table(p)
        for cell in re.findall(r"&\s*(-?\d[\d.]*(?:e-?\d+)?)\s*(?=&)", tex):
            m = re.fullmatch(r"-?(\d+)(?:\.(\d+))?(?:e(-?\d+))?", cell)
            assert m, cell
            v = abs(float(cell))
            if m.group(3):
                assert not (1e-3 <= v < 1e4), (p, cell)
            elif m.group(2):
                assert 1e-3 <= v < 1e4 and len((m.group(1) + m.group(2)).lstrip("0")) == 3, (p, cell)
            assert cell not in ("-0", "-0.0", "-0.00")


# ---------------------------------------------------------------------------- compiling
def preamble(tex: str, twocolumn: bool, klass: str = "article") -> str:
    """A document class and exactly the packages the table's ``% requires`` line names, as it
    writes them: a package it says is "not with" ``klass`` (amssymb with acmart) left out."""
    line = tex.splitlines()[0]
    assert line.startswith("% requires ") and ("compiles in one pdflatex pass" in line
                                               or "longtable needs two or three" in line), line
    pkgs = line[len("% requires "):].split(";")[0]
    uses = []
    for p in re.split(r",\s*(?![^()]*\))", pkgs):                   # commas outside a remark
        remark = re.search(r"\s*\(not with (\w+)[^)]*\)", p)
        if remark and remark.group(1) == klass:
            continue
        p = (p[:remark.start()] + p[remark.end():] if remark else p).strip()
        uses.append(p if p.startswith("\\usepackage") else f"\\usepackage{{{p}}}")
    return "\n".join([f"\\documentclass{'[twocolumn]' if twocolumn else ''}{{article}}", *uses])


def compile_once(tex: str, folder, name: str) -> dict:
    """One pdflatex pass; the log's errors, overfull boxes and rerun requests."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.tex").write_text(tex, encoding="utf-8")
    subprocess.run(["pdflatex", "-interaction=nonstopmode", f"{name}.tex"], cwd=folder,
                   capture_output=True, text=True, timeout=180, check=False)
    log = (folder / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    return {"pdf": folder / f"{name}.pdf",
            "errors": re.findall(r"(?m)^! .*$", log),
            "overfull": re.findall(r"(?m)^Overfull \\[hv]box.*$", log),
            "too large": re.findall(r"(?m)^.*Float too large.*$", log),
            # LaTeX's own "Label(s) may have changed" follows every \label on a first pass (a
            # document's cross-references always take two); anything else asks for a rerun
            "rerun": [x for x in re.findall(r"(?m)^.*(?:Rerun to|Rerun LaTeX|rerun LaTeX|Table widths have changed"
                                            r"|\(rerunfilecheck\)\s+Rerun|has changed).*$", log)
                      if not _DOCUMENT_RERUN.search(x)]}


# what every document asks for on a first pass, whatever its tables: LaTeX's "Label(s) may have
# changed" after any \label, natbib's citations and hyperref's bookmarks (acmart loads both), and
# a font's encoding note (not a rerun)
_DOCUMENT_RERUN = re.compile(r"Label\(s\) may have changed|\(natbib\)\s+Rerun to get citations|"
                             r"Rerun to get outlines right|\.out' has changed|^LaTeX Font Info:")


def table_document(tex: str, twocolumn: bool) -> str:
    lorem = ("Text of the paper around the table, so that the float sits in running text. " * 12)
    return "\n".join([preamble(tex, twocolumn), "\\begin{document}", lorem, "", tex, lorem,
                      "\\begin{thebibliography}{9}\\bibitem{" + re.search(r"\\cite\{([^}]*)\}", tex).group(1)
                      + "} The paper.\\end{thebibliography}", "\\end{document}"])


# Known open (issue 19): with full notes deora2023's and arda2026's tables are taller than a
# page even in two columns (--long is the way there). Strict: the mark fails the moment a
# case starts passing.
_TALL = pytest.mark.xfail(strict=True, reason="full notes are taller than a page: use --long (a known limit, said in the README)")


_TABLE_CASES = [pytest.param(p, two, id=f"{p}-{'twocolumn' if two else 'article'}",
                             )
                for p in PAPERS for two in (False, True)]


@pytest.mark.skipif(not HAVE_PDFLATEX, reason="pdflatex not on PATH")
@pytest.mark.parametrize("paper, twocolumn", _TABLE_CASES)
def test_table_compiles_in_one_pass(paper, twocolumn, tmp_path):
    tex = table(paper)
    assert "compiles in one pdflatex pass" in tex.splitlines()[0]
    c = compile_once(table_document(tex, twocolumn), tmp_path, paper)
    assert c["pdf"].read_bytes()[:5] == b"%PDF-"
    assert (c["errors"], c["overfull"], c["too large"], c["rerun"]) == ([], [], [], []), c


_VARIANTS = [pytest.param(p, v, id=f"{p}-{name}",
                          marks=_TALL if (name == "full-notes" and p in ("deora2023", "arda2026")) else ())
             for p in PAPERS for name, v in (("no-notes", ("none",)), ("env-table", ("short", "--env", "table")),
                                             ("full-notes", ("full",)))]


@pytest.mark.skipif(not HAVE_PDFLATEX, reason="pdflatex not on PATH")
@pytest.mark.parametrize("paper, variant", _VARIANTS)
def test_table_variants_compile_in_one_pass(paper, variant, tmp_path):
    """No notes, and ``--env table``, in a one-column article; full notes in a two-column one."""
    tex = table(paper, variant[0], *variant[1:])
    c = compile_once(table_document(tex, variant[0] == "full"), tmp_path, paper)
    assert (c["errors"], c["overfull"], c["too large"], c["rerun"]) == ([], [], [], []), c


_SHEET_CASES = [pytest.param(p, two, id=f"{p}-{'twocolumn' if two else 'article'}",
                             )
                for p in PAPERS for two in (False, True)]


@pytest.mark.skipif(not HAVE_PDFLATEX, reason="pdflatex not on PATH")
@pytest.mark.parametrize("paper, twocolumn", _SHEET_CASES)
def test_sheet_compiles_in_one_pass(paper, twocolumn, tmp_path):
    tex = sheet(paper)
    if twocolumn:
        tex = tex.replace("\\documentclass[11pt]{article}", "\\documentclass[11pt,twocolumn]{article}", 1)
        assert "twocolumn" in tex
    c = compile_once(tex, tmp_path, paper)
    assert c["pdf"].read_bytes()[:5] == b"%PDF-"
    assert (c["errors"], c["overfull"], c["too large"], c["rerun"]) == ([], [], [], []), c


@pytest.mark.skipif(not HAVE_PDFLATEX, reason="pdflatex not on PATH")
@pytest.mark.parametrize("paper", PAPERS)
def test_long_table_with_full_notes_compiles(paper, tmp_path):
    """``--long --notes full``: a longtable across pages in a one-column article. Its header
    says it needs two or three passes; after three, no error, overfull box or rerun request."""
    tex = table(paper, "full", "--long")
    assert "longtable needs two or three pdflatex passes" in tex.splitlines()[0]
    doc = table_document(tex, False)
    for _ in range(3):
        c = compile_once(doc, tmp_path, paper)
    assert (c["errors"], c["overfull"], c["too large"], c["rerun"]) == ([], [], [], []), c


# ---------------------------------------------------------------------------- LaTeX fields
_PAPER = '''[paper]
key = "texfields"
title = "A paper"
authors = "A. Author"
reference = "nowhere"

[symbols.x]
description = "x_hat, the estimate"
domain = "real"
description_latex = {value}
'''


@pytest.mark.parametrize("value, why", [
    (r"'$\hat x$, the estimate'", None),
    (r"'$\hat x, the estimate'", "an unpaired '$'"),
    (r"'$\frac{{1}}{{x$'", "unclosed '{'"),
    (r"'\input{{secrets}} $x$'", "the command \\input is not allowed"),
])
def test_latex_fields_are_checked_and_used(tmp_path, value, why):
    f = tmp_path / "texfields.toml"
    f.write_text(_PAPER.format(value=value))
    r = CliRunner().invoke(app, ["--formulas", str(f), "sheet", "texfields"])
    if why is None:
        assert r.exit_code == 0, r.output
        assert r"$\hat x$, the estimate" in r.stdout and "x\\_hat" not in r.stdout
    else:
        assert r.exit_code != 0 and "description_latex" in str(r.exception) and why in str(r.exception), \
            (r.output, r.exception)


@pytest.mark.parametrize("text, tex", [
    # a function applied to math is one piece of math (its parentheses were text between pieces)
    ("L̂(θ^(K))", r"\ensuremath{\hat{L}(\theta^{(K)})}"),
    ("Φ~(X_i; θ^(1))", r"\ensuremath{\tilde{\Phi}(X_{i}; \theta^{(1)})}"),
    ("sqrt(T)(S + P)", r"\ensuremath{\sqrt{T}(S + P)}"),
    ("R-bar_μ and s-bar", r"\ensuremath{\bar{R}_{\mu}} and \ensuremath{\bar{s}}"),
    ("U~^(K+1)", r"\ensuremath{\tilde{U}^{(K+1)}}"),
    ("(N-1)^(-c_hat)", r"\ensuremath{(N-1)^{-\hat{c}}}"),      # a group with a script: math (was "(" and "N -1 )")
    ("p(t)/||p(t)|| and (g_0(1/K))^3", r"\ensuremath{p(t)/\| p(t) \|} and \ensuremath{(g_{0}(1/K))^{3}}"),
    ("f(the thing), Lemma 2 (i) and (P used in (7))", r"f(the thing), Lemma 2 (\ensuremath{i}) and (P used in (7))"),
    ("min_(s<τ) loss", r"\ensuremath{\min_{s<\tau}} loss"),
    # a number after math and an operator is part of the math (H \geq, then a text number)
    ("needs H >= 3.26e+7, used True", r"needs \ensuremath{H \geq 3.26\times 10^{7}}, used yes"),
    ("γ_* = -5.435; 1 - δ", r"\ensuremath{\gamma_{*} = -5.435}; \ensuremath{1 - \delta}"),
    ("R = 1.02 (realised), from 0.5 to 0.6", r"\ensuremath{R = 1.02} (realised), from \num{0.5} to \num{0.6}"),
    # the letter between norm bars is the variable (it was an upright x between two bars)
    ("<a, b> and ||x||_{2,inf}", r"\ensuremath{\langle}a, b\ensuremath{\rangle} and \ensuremath{\| x \|{}_{2,\infty}}"),
    # math written with spaces is one piece of math, not math, words and math side by side
    ("the paper means x + 1 here", r"the paper means \ensuremath{x + 1} here"),
    ("x^2 + y as _g0", r"\ensuremath{x^{2} + y} as \texttt{\_\allowbreak{}g0}"),
    ("if d <= 1 and 4 x 24 = 96", r"if \ensuremath{d \leq 1} and \ensuremath{4 \times 24 = 96}"),
    ("x = a constant, T - 1 and 2 + x", r"\ensuremath{x} = a constant, \ensuremath{T - 1} and \ensuremath{2 + x}"),
    ("see §2.3 and Table 2", r"see \S{}2.3 and Table 2"),
    ("gamma_gap_min", r"\ensuremath{\gamma_{\mathrm{gap},\min}}"),
    ("Sec. 6.1, Thms 2-3, non-negative", "Sec. 6.1, Thms 2-3, non-negative"),
])
def test_text_math_convention(text, tex):
    """The ASCII/Unicode math of the texts, typeset (expected forms written by hand)."""
    from boundcalc.reports.latex import ascii_math
    assert ascii_math(text) == tex


@pytest.mark.parametrize("x, text", [(0.0248, "0.0248"), (1.0, "1.00"), (32, "32"), (-5.435, "-5.43"),
                                     (3.26e7, "3.26e7"), (9.64e-7, "9.64e-7"), (20000.0, "2.00e4"),
                                     (9999.6, "1.00e4"), (0.001, "0.00100"), (-0.0, "0"), (10 ** 6, "1.00e6"),
                                     (999999, "999999"), (1980.4, "1980")])
def test_one_number_style(x, text):
    """Fixed-point between 1e-3 and 1e4 (3 significant digits), scientific outside, exact
    integers as integers (below 1e6), no -0 (expected values by hand)."""
    from boundcalc.reports.numfmt import num_text
    assert num_text(x) == text


@pytest.mark.parametrize("args, message", [
    (("--format", "latex", "--env", "figure"), "unknown --env 'figure'; use one of table*, table"),
    (("--format", "latex", "--notes", "some"), "unknown --notes 'some'; use one of short, full, none"),
    (("--notes", "full"), "--notes applies to --format latex only (got --format rich)"),
    (("--format", "csv", "--long"), "--long applies to --format latex only (got --format csv)"),
    (("--format", "latex", "--width", "half"), "unknown --width 'half'; use one of text, column"),
    (("--format", "markdown", "--width", "column"), "--width applies to --format latex only (got --format markdown)"),
    (("--format", "latex", "--width", "column", "--env", "table*"), "--width column is --env table, not --env table*"),
])
def test_latex_options_are_checked_before_any_work(args, message):
    r = CliRunner().invoke(app, ["compare", "tarzanagh2023", *args])
    assert r.exit_code != 0 and str(r.exception) == message, (r.output, r.exception)


def test_width_column_is_the_column_table():
    """--width column (issue 34's name for it) gives the one-column table, --env table, and
    --width text the default table*."""
    col = table("tarzanagh2023", "short", "--width", "column")
    assert col == table("tarzanagh2023", "short", "--env", "table")
    assert "\\begin{table}" in col and "\\begin{table*}" not in col
    assert table("tarzanagh2023", "short", "--width", "text") == table("tarzanagh2023", "short")


def _toml(key):
    import tomllib

    from boundcalc.registry import packaged_dir
    return tomllib.loads((packaged_dir() / f"{key}.toml").read_text(encoding="utf-8"))


def test_notes_name_the_papers_symbols_and_formulas():
    """Issue 34 (2): a symbol named in a note is typeset as its formula file typesets it (read
    here with tomllib), not guessed from its name ("C_5O" was C_5 O, "M0" upright); a formula's
    key is code ("rademacher_G_restricted" was rademacher_{G,restricted}); outside a paper the
    convention alone reads the text; the times sign, the element sign and plus-minus are math."""
    from boundcalc.reports.latex import ascii_math, names_of
    syms = _toml("anon2025")["symbols"]
    c5o = syms["C_5O"]["latex"]
    text = "O(.) hides a constant: C_5O; see rademacher_G_restricted."
    with names_of("anon2025"):
        got = ascii_math(text)
    assert got == (f"\\ensuremath{{O(.)}} hides a constant: \\ensuremath{{{c5o}}}; see "
                   r"\texttt{rademacher\_\allowbreak{}G\_\allowbreak{}restricted}.")
    assert ascii_math("C_5O") == r"\ensuremath{C_{5}}O"          # no paper: the convention alone
    t = _toml("tarzanagh2023")["symbols"]
    with names_of("tarzanagh2023"):
        assert ascii_math("(M0, M1)") == f"(\\ensuremath{{{t['M0']['latex']}}}, \\ensuremath{{{t['M1']['latex']}}})"
    assert ascii_math("4 x 24 = 96") == r"\ensuremath{4 \times 24 = 96}"       # one piece of math
    assert ascii_math("R^(T x d)") == r"\ensuremath{R^{T\times d}}"
    assert ascii_math("min_(t in T_i)") == r"\ensuremath{\min_{t\in T_{i}}}"
    assert ascii_math("mu_+-") == r"\ensuremath{\mu_{\pm}}"
    assert ascii_math("labels +-1") == r"labels \ensuremath{\pm 1}"
    assert ascii_math("labels +-y") == r"labels \ensuremath{\pm y}"          # not the control word \pmy
    assert ascii_math("grad_U") == r"\ensuremath{\nabla_{U}}"
    assert ascii_math("max x of the set") == "max x of the set"
    # constant(s) is a plural (the s was italic math), grad L the gradient, delta' a prime
    # (a closing quote stays a quote)
    assert ascii_math("the constant(s) C_1") == r"the constant(s) \ensuremath{C_{1}}"
    # a function applied to math is one piece (f, the parentheses and L were text beside math)
    assert ascii_math("f(s) = 1") == r"\ensuremath{f(s) = 1}"
    assert ascii_math("lr/||grad L(p)||") == r"lr/\ensuremath{\| \nabla L(p) \|}"
    assert ascii_math("E_{U,m}(delta')") == r"\ensuremath{E_{U,m}(\delta')}"
    assert ascii_math("hides 'besides N and d_s': C") == r"hides 'besides N and \ensuremath{d_{s}}': C"


def test_sheets_show_symbols_as_their_latex():
    """In the sheet, the note of anon2025.theorem5 names C_5O: its LaTeX from the formula
    file, not \\ensuremath{C_{5}}O."""
    tex = sheet("anon2025")
    c5o = _toml("anon2025")["symbols"]["C_5O"]["latex"]
    assert r"\ensuremath{C_{5}}O" not in tex and f"\\ensuremath{{{c5o}}}" in tex


def test_code_keeps_its_double_hyphens():
    """Issue 34 (5): in the T1 typewriter font "--" is a ligature, so "--notes full" printed as
    "–notes full". Code goes through latex_code, which breaks the ligature (by hand)."""
    from boundcalc.reports.escape import latex_code
    assert latex_code("boundcalc compare x --notes full") == r"\texttt{boundcalc compare x -{}-notes full}"
    assert latex_code("a_b", breaks=True) == r"\texttt{a\_\allowbreak{}b}"
    tex = table("tarzanagh2023")
    assert "--notes full" not in tex and "-{}-notes full" in tex


@pytest.mark.skipif(not (HAVE_PDFLATEX and shutil.which("pdftotext")), reason="pdflatex or pdftotext not on PATH")
def test_the_typeset_table_reads_two_hyphens(tmp_path):
    """The PDF's text (pdftotext) has "--notes full", not an en dash."""
    c = compile_once(table_document(table("tarzanagh2023"), False), tmp_path, "t")
    text = subprocess.run(["pdftotext", str(c["pdf"]), "-"], capture_output=True, text=True, check=True).stdout
    assert "--notes full" in " ".join(text.split()) and "\N{EN DASH}notes" not in text


# ---------------------------------------------------------------------------- one column of two (issue 34 (5))
_COLUMN_CLASSES = {
    "article-twocolumn": (r"\documentclass[twocolumn]{article}", None),
    "IEEEtran": (r"\documentclass[conference]{IEEEtran}", "IEEEtran.cls"),
    # ICML and AISTATS: 6.75 in text in two 3.25 in columns, 9 in tall
    "icml-like": (("\\documentclass[10pt,twocolumn]{article}\n"
                   "\\usepackage[textwidth=6.75in,columnsep=0.25in,textheight=9in]{geometry}"), None),
    # ACM's two-column proceedings format (texlive-publishers); the header says amssymb is not
    # for acmart (its fonts define those symbols: \Bbbk already defined)
    "acmart-sigconf": ("\\documentclass[sigconf,nonacm]{acmart}\n\\title{A paper}", "acmart.cls"),
}
# acmart is usable only with its fonts (texlive-fonts-extra): without them it falls back to
# Computer Modern ("You do not have the libertine package installed"), \gtrsim is undefined
# (newtxmath defines it, and the header leaves amssymb out for acmart), and the T1 text, a
# bitmap font without cm-super, is fatal under acmart's microtype ("auto expansion is only
# possible with scalable fonts"). A machine without them skips acmart, naming what is missing.
_CLASS_NEEDS = {"acmart.cls": ("acmart.cls", "libertine.sty", "newtxmath.sty", "zi4.sty")}


def _missing(cls: str | None) -> list[str]:
    """The files of ``cls`` (and the fonts it needs) that kpsewhich does not find."""
    if cls is None:
        return []
    if shutil.which("kpsewhich") is None:
        return [cls]
    return [f for f in _CLASS_NEEDS.get(cls, (cls,))
            if subprocess.run(["kpsewhich", f], capture_output=True, text=True, check=False).stdout.strip() == ""]


def column_document(tex: str, klass: str) -> str:
    family = "acmart" if klass.startswith("acmart") else "article"
    head = preamble(tex, True, family).split("\n", 1)[1]        # the packages the requires line names
    lorem = "Text of the paper around the table, so that the float sits in running text. " * 12
    key = re.search(r"\\cite\{([^}]*)\}", tex).group(1)
    return "\n".join([_COLUMN_CLASSES[klass][0], head, "\\begin{document}", lorem, "", tex, lorem, lorem,
                      "\\begin{thebibliography}{9}\\bibitem{" + key + "} The paper.\\end{thebibliography}",
                      "\\end{document}"])


def test_the_column_table_is_stacked_and_decimal_aligned():
    """``--env table``: a row's quantity on a line of its own, its numbers beneath in S columns
    aligned on the decimal marker (no table-alignment-mode=none), holds/hyp. in one column."""
    tex = table("anon2025", "short", "--env", "table")
    assert "one column of a two-column document" in tex.splitlines()[0]
    assert "table-alignment-mode=none" not in tex and "\\begin{tabular*}{\\linewidth}" in tex
    assert "table*" not in tex and re.search(r"S\[table-format=-?\d\.\d(e-?\d)?,tight-spacing=true\]", tex)
    assert re.search(r"(?m)^ *& .*& (yes|no|--)/(yes|no|--) \\\\$", tex) is None      # no empty first cell
    assert re.search(r"(?m)^-?[\d.e-]+ & .* & (yes|no|--)/(yes|no|--) \\\\$", tex), tex


@pytest.mark.skipif(not HAVE_PDFLATEX, reason="pdflatex not on PATH")
@pytest.mark.parametrize("notes", ["short", "full"])
@pytest.mark.parametrize("klass", list(_COLUMN_CLASSES))
@pytest.mark.parametrize("paper", PAPERS)
def test_the_column_table_fits_one_column(paper, klass, notes, tmp_path):
    """Issue 34 (5): ``--env table`` in one column of a two-column venue: no overfull box, no
    float taller than the column (the rows go into as many floats as it takes), one pass."""
    missing = _missing(_COLUMN_CLASSES[klass][1])
    if missing:
        pytest.skip(f"{klass}: {', '.join(missing)} not installed")
    tex = table(paper, notes, "--env", "table")
    c = compile_once(column_document(tex, klass), tmp_path, paper)
    assert c["pdf"].read_bytes()[:5] == b"%PDF-"
    assert (c["errors"], c["overfull"], c["too large"], c["rerun"]) == ([], [], [], []), c


@pytest.mark.parametrize("text, want", [
    ("O(d**2)", "d^{2}"),                   # Python's power between operands is the convention's ^
    ("d**(3/2)", "d^{3/2}"),
    ("n**-1", "n^{-1}"),
    ("2^-40", "2^{-40}"),                   # a signed exponent is one script, not '-' then 40
    ("n^-1/2", "n^{-1/2}"),
    ("x^-y", "x^{-y}"),
    ("e^-(x/2+1)", "e^{-(x/2+1)}"),         # the sign of a group keeps the group's parentheses
])
def test_powers_written_in_python_or_with_a_sign_are_read_whole(text, want):
    """Found in the text scan's leftovers (h34-out2): d**2 was read d^{*}*2 and 2^-40 as 2^{-}40."""
    from boundcalc.reports.latex import ascii_math
    got = ascii_math(text)
    assert want in got and "^{*}" not in got and "^{-}" not in got, got


def test_a_letter_between_norm_bars_is_math():
    """'first-phase error ||p||' (deora2023's first row, in every note and frame) had an upright
    p between two pieces of math bars: the letter inside the bars is the variable."""
    from boundcalc.reports.latex import ascii_math
    assert ascii_math("first-phase error ||p|| (P used)") == r"first-phase error \ensuremath{\| p \|} (P used)"
    assert ascii_math("|x| <= 1") == r"\ensuremath{| x | \leq 1}"
