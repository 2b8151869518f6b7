"""Formula sheets (LaTeX compiled with pdflatex, Markdown), citations, and references that
point at something a reader can find."""
from __future__ import annotations

import re
import shutil

import pytest
from typer.testing import CliRunner

import boundcalc
import boundcalc.api  # a submodule: the package imports it on first use of its names only
from boundcalc.cli.app import app
from boundcalc.errors import BoundcalcError
from boundcalc.reports.sheet import citation_text, sheet

PAPERS = ("deora2023", "anon2025", "tarzanagh2023", "arda2026")
HAVE_PDFLATEX = shutil.which("pdflatex") is not None


def run(*args):
    return CliRunner().invoke(app, list(args), catch_exceptions=True)


def parse_bibtex(entry: str) -> tuple[str, str, dict]:
    """A small BibTeX reader: ``@type{key, field = {value}, ...}`` with balanced braces."""
    m = re.fullmatch(r"\s*@(\w+)\{([^,\s]+),(.*)\}\s*", entry, flags=re.DOTALL)
    assert m, entry
    kind, key, body = m.groups()
    fields, i = {}, 0
    while True:
        f = re.compile(r"\s*(\w+)\s*=\s*\{").match(body, i)
        if not f:
            break
        depth, j = 1, f.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(body[j], 0)
            j += 1
        fields[f.group(1).lower()] = body[f.end():j - 1]
        i = j
        c = re.compile(r"\s*,?").match(body, i)
        i = c.end()
    assert body[i:].strip() == "", body[i:]
    return kind, key, fields


@pytest.mark.parametrize("key", PAPERS)
def test_cite_prints_a_bibtex_entry(key):
    r = run("cite", key)
    assert r.exit_code == 0, r.output
    _kind, ckey, fields = parse_bibtex(r.output)
    p = boundcalc.api.paper(key)
    assert ckey == p.refs["cite_key"] and fields["title"] == p.title
    assert fields["year"] == p.refs["year"]
    if p.refs.get("arxiv"):
        assert fields["eprint"] == p.refs["arxiv"] and p.refs["url"] == f"https://arxiv.org/abs/{p.refs['arxiv']}"
    text = run("cite", key, "--format", "text").output
    assert p.title in text and text.count("\n") == 1
    assert (p.refs.get("arxiv") or "no arXiv identifier") in text


def test_the_anonymous_paper_invents_no_identifier():
    p = boundcalc.api.paper("anon2025")
    assert not any(p.refs.get(k) for k in ("arxiv", "doi", "url"))
    assert "no arXiv identifier, DOI or public URL" in citation_text(p)
    assert "no arXiv identifier" in p.refs["bibtex"]


def test_known_identifiers():
    refs = {p.key: p.refs for p in boundcalc.papers()}
    assert refs["deora2023"]["arxiv"] == "2310.12680" and "TMLR" in refs["deora2023"]["venue"]
    assert refs["tarzanagh2023"]["arxiv"] == "2306.13596" and "NeurIPS 2023" in refs["tarzanagh2023"]["venue"]
    assert refs["arda2026"]["arxiv"] == "2601.16514" and "AISTATS 2026" in refs["arda2026"]["venue"]


def test_references_point_at_no_unshipped_file():
    """Sources, notes and [paper] fields name the paper's numbering or a public URL, never a
    local text file or a notes file that is not shipped."""
    bad = re.compile(r"\.txt\b|notes/|shared/papers|\.md\b")
    for p in boundcalc.papers():
        fields = [p.text, p.reference, *p.refs.values()]
        for f in p.formulas.values():
            fields += [f.source, f.note, f.title]
        for s in p.symbols.values():
            fields.append(s.description)
        for c in p.checks:
            fields += [c.location, c.description]
        hits = [x for x in fields if isinstance(x, str) and bad.search(x)]
        assert hits == [], (p.key, hits[:3])


def test_cite_and_sheet_errors():
    r = run("cite", "nope")
    assert isinstance(r.exception, BoundcalcError) and "unknown paper 'nope'" in str(r.exception)
    r = run("cite", "deora2023", "--format", "ris")
    assert isinstance(r.exception, BoundcalcError) and "--format" in str(r.exception)
    r = run("sheet", "deora2023", "--format", "docx")
    assert isinstance(r.exception, BoundcalcError) and "--format" in str(r.exception)


def test_sheet_output_is_not_overwritten(tmp_path):
    out = tmp_path / "s.md"
    assert run("sheet", "arda2026", "--format", "markdown", "--output", str(out)).exit_code == 0
    assert out.read_text().startswith("# Formula sheet: Finite-Time Analysis")
    out.write_text("mine")
    r = run("sheet", "arda2026", "--format", "markdown", "--output", str(out))
    assert isinstance(r.exception, BoundcalcError) and "already exists" in str(r.exception)
    assert out.read_text() == "mine"


@pytest.mark.parametrize("key", PAPERS)
def test_markdown_sheet_lists_every_formula(key):
    import html
    import re

    import boundcalc.api
    md = sheet(key, "markdown")
    p = boundcalc.api.paper(key)

    def shown(text):             # what a Markdown viewer shows: backslash escapes and entities read
        return html.unescape(re.sub(r"\\(.)", r"\1", text))

    def words(text):             # the prose words of a text (its math is typeset, issue 34)
        return re.findall(r"(?<![\w\\^])[A-Za-z]{5,}(?![\w(^])", text)

    for f in p.formulas.values():
        i = md.index(f"### `{f.id}`: ")
        block = md[i:md.find("\n### ", i + 1)]
        assert f"status: *{f.status}*." in shown(block) and "source: " in block
        seen = shown(block)
        for text in (f.source, f.note or ""):
            missing = [w for w in words(text) if w not in seen]
            assert missing == [], (f.id, missing)
    for s in p.symbols:
        assert f"`{s}`" in md
    assert md.count("$$") % 2 == 0 and "```bibtex" in md


@pytest.mark.skipif(not HAVE_PDFLATEX, reason="pdflatex not on PATH")
@pytest.mark.parametrize("key", PAPERS)
def test_latex_sheet_compiles_within_the_text_width(key, tmp_path):
    from boundcalc.reports.latex import compile_pdf
    tex = sheet(key, "latex")
    p = boundcalc.api.paper(key)
    ids = tex.replace("\\allowbreak{}", "")          # ids may break after their dots and underscores
    for f in p.formulas.values():
        assert ids.count(f"\\texttt{{{f.id.replace('_', chr(92) + '_')}}}") == 1, f.id
    # issue 34 (1): no display is scaled (the worst was 1/8.2): a long one breaks over lines
    assert "\\begin{adjustbox}" not in tex and "resizebox" not in tex and "scalebox" not in tex
    c = compile_pdf(tex, tmp_path, key)
    assert c.pdf.read_bytes()[:5] == b"%PDF-"
    assert c.overfull == [], c.overfull[:3]
    assert "undefined" not in c.log            # the \\cite of the paper resolves


_USER_PAPER = '''[paper]
key = "{key}"
title = "Spectrally-normalized margin bounds for neural networks & more"
authors = "P. L. Bartlett, D. J. Foster and M. Telgarsky"
reference = "arXiv 1706.08498; NeurIPS 2017"
{extra}
'''


def _user_cite(tmp_path, key, extra):
    f = tmp_path / f"{key}.toml"
    f.write_text(_USER_PAPER.format(key=key, extra=extra))
    r = run("--formulas", str(f), "cite", key)
    assert r.exit_code == 0, r.output
    return parse_bibtex(r.output)


def test_cite_builds_an_entry_from_the_paper_fields(tmp_path):
    """No hand-written ``bibtex``: the entry is built from the [paper] fields, field by field
    (the reader above checks that every brace balances)."""
    kind, key, fields = _user_cite(tmp_path, "bartlett2017", 'arxiv = "1706.08498"\nyear = "2017"\n'
                                   'venue = "Advances in Neural Information Processing Systems 30"\n'
                                   'cite_key = "bartlett2017spectrally"\ndoi = "10.5555/3295222.3295372"')
    assert (kind, key) == ("inproceedings", "bartlett2017spectrally")
    assert fields == {"title": r"Spectrally-normalized margin bounds for neural networks {\&} more",
                      "author": "P. L. Bartlett and D. J. Foster and M. Telgarsky",
                      "booktitle": "Advances in Neural Information Processing Systems 30",
                      "year": "2017", "eprint": "1706.08498", "archiveprefix": "arXiv",
                      "doi": "10.5555/3295222.3295372"}
    kind, key, fields = _user_cite(tmp_path, "journal2019", 'venue = "Journal of Machine Learning Research"\n'
                                   'year = "2019"\nurl = "https://example.org/p"')
    assert (kind, key) == ("article", "journal2019")          # no cite_key: the paper key
    assert fields["journal"] == "Journal of Machine Learning Research" and fields["url"] == "https://example.org/p"
    assert "booktitle" not in fields and "note" not in fields
    kind, key, fields = _user_cite(tmp_path, "plain", "")
    assert kind == "misc" and set(fields) == {"title", "author", "note"}
    assert fields["note"] == "arXiv 1706.08498; NeurIPS 2017"
    kind, _, fields = _user_cite(tmp_path, "anon", 'venue = "under review at ICML"')
    assert kind == "unpublished" and fields["note"] == "under review at ICML"


def test_a_hand_written_bibtex_still_wins(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text(_USER_PAPER.format(key="mine", extra='venue = "ICML"\nbibtex = """@misc{handmade, title = {T}}"""'))
    assert run("--formulas", str(f), "cite", "mine").output == "@misc{handmade, title = {T}}\n"


@pytest.mark.parametrize("authors, joined", [
    ("A. Author", "A. Author"),
    ("A. Author, B. Author", "A. Author and B. Author"),
    ("A. Bee, C. Dee, and E. Eff", "A. Bee and C. Dee and E. Eff"),
    ("Arda, Enes and Cayci, Semih", "Arda, Enes and Cayci, Semih"),
    ("Anonymous authors (under review)", "{Anonymous authors (under review)}"),
    ("J. {Unbalanced", r"{J. {\textbraceleft}Unbalanced}"),     # the brace a character
])
def test_bibtex_author_lists(authors, joined):
    from boundcalc.reports.sheet import bib_authors
    assert bib_authors(authors) == joined


def test_a_cite_key_bibtex_cannot_read_is_refused(tmp_path):
    f = tmp_path / "badkey.toml"
    f.write_text(_USER_PAPER.format(key="badkey", extra='cite_key = "two words"'))
    r = run("--formulas", str(f), "cite", "badkey")
    assert isinstance(r.exception, BoundcalcError) and "cite_key 'two words'" in str(r.exception)


# ---------------------------------------------------------------------------- balanced displays
def _balance_problems(tex: str) -> list[str]:
    """An independent reader (not the code's): braces (``\\{``/``\\}`` are literal),
    ``\\left``/``\\right`` pairs and ``\\begin``/``\\end`` environments, each must close in order."""
    stack, out, i = [], [], 0
    while i < len(tex):
        if tex.startswith("\\begin{", i) or tex.startswith("\\end{", i):
            j = tex.index("}", i)
            name = tex[tex.index("{", i) + 1:j]
            if tex.startswith("\\begin", i):
                stack.append("env:" + name)
            elif not stack or stack.pop() != "env:" + name:
                out.append(f"\\end{{{name}}} at {i}")
            i = j + 1
            continue
        m = re.compile(r"\\(left|right)(?![A-Za-z])").match(tex, i)
        if m:
            if m.group(1) == "left":
                stack.append("left")
            elif not stack or stack.pop() != "left":
                out.append(f"\\right at {i}")
            i = m.end()
            continue
        if tex[i] == "\\":
            i += 2
            continue
        if tex[i] == "{":
            stack.append("{")
        elif tex[i] == "}" and (not stack or stack.pop() != "{"):
            out.append(f"}} at {i}")
        i += 1
    return out + [f"unclosed {x}" for x in stack]


def _latex_displays(tex: str, broken: bool = False) -> list[str]:
    """The math of every ``\\bcdisplay{math}{breakable math}`` (the second argument with
    ``broken``), read with brace matching."""
    out = []
    for m in re.finditer(r"\\bcdisplay\{", tex):
        args, i = [], m.end() - 1
        for _ in range(2):
            depth, j = 0, i
            while True:
                if tex[j] == "\\":
                    j += 2
                    continue
                depth += {"{": 1, "}": -1}.get(tex[j], 0)
                j += 1
                if depth == 0:
                    break
            args.append(tex[i + 1:j - 1])
            i = j
        out.append(args[1] if broken else args[0])
    return out


def _markdown_displays(md: str) -> list[str]:
    return re.findall(r"^\$\$(.*?)\$\$$", md, flags=re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("key", PAPERS)
def test_every_display_of_every_sheet_is_balanced(key):
    tex, md = sheet(key, "latex"), sheet(key, "markdown")
    shown = _latex_displays(tex)
    p = boundcalc.api.paper(key)
    assert len(shown) >= len(p.formulas)          # every formula's statement is a display
    for d in shown + _latex_displays(tex, broken=True) + _markdown_displays(md):
        assert "$" not in d and _balance_problems(d) == [], d
    assert _balance_problems(tex) == []


_PR_PAPER = r'''[paper]
key = "margin"
title = "A margin bound"
[symbols.n]
description = "samples"
domain = "integer >= 1"
[symbols.gamma]
description = "margin"
latex = "\\gamma"
domain = "positive"
[formulas.gap]
name = "margin gap"
kind = "bound"
direction = "upper"
source = "Thm 1"
expr = "1/(gamma*sqrt(n))"
latex = '\Pr[yf(X)\le 0] - \widehat R_\gamma \le \frac{1}{\gamma\sqrt{n}}'
[formulas.plain]
name = "no latex"
kind = "definition"
source = "x"
expr = "gamma**2 + n"
'''


BROKEN = r"""
[formulas.broken]
name = "a printed formula with an unclosed brace"
kind = "definition"
source = "x"
expr = "n"
latex = 'B := \frac{1}{n'
"""


def test_a_user_sheet_states_the_structured_formula(tmp_path):
    """The left side is the printed quantity up to its top-level relation (the \\le inside
    \\Pr[...] is not it), the relation comes from the kind, the right side is our
    expression; a formula without LaTeX is typeset from its expression, not shown by id;
    unbalanced printed LaTeX is refused at load, never pasted into math."""
    f = tmp_path / "margin.toml"
    f.write_text(_PR_PAPER)
    tex, md = sheet("margin", "latex", formulas_path=[str(f)]), sheet("margin", "markdown", formulas_path=[str(f)])
    for shown in (_latex_displays(tex), _markdown_displays(md)):
        assert r"\Pr[yf(X)\le 0] - \widehat R_\gamma \leq \frac{1}{\gamma \sqrt{n}}" in shown
        assert r"\gamma^{2} + n" in shown
        assert not any(r"\Pr[yf(X) \leq" in d or r"\mathrm{plain}" in d for d in shown)
        assert not any(r"\frac{1}{n" in d and "}" not in d.split(r"\frac{1}{n")[1] for d in shown)
        for d in shown:
            assert _balance_problems(d) == [], d
    assert _balance_problems(tex) == []
    # an unbalanced printed LaTeX no longer reaches a sheet: it is refused when the file
    # loads, with TeX's reason (tests/expr/test_latex_in_misreads.py)
    broken = tmp_path / "broken.toml"
    broken.write_text(_PR_PAPER.replace('key = "margin"', 'key = "broken"') + BROKEN)
    with pytest.raises(BoundcalcError, match=r"\[formulas.broken\]: latex: TeX: 'Missing } inserted'"):
        sheet("broken", "latex", formulas_path=[str(broken)])
    if HAVE_PDFLATEX:
        from boundcalc.reports.latex import compile_pdf
        assert compile_pdf(tex, tmp_path, "margin").pdf.read_bytes()[:5] == b"%PDF-"


@pytest.mark.parametrize("tex, parts", [
    (r"\Pr[yf(X)\le 0] - \widehat R_\gamma \le B", [r"\Pr[yf(X)\le 0] - \widehat R_\gamma", "B"]),
    (r"\left( a \le b \right) \geq c", [r"\left( a \le b \right)", "c"]),
    (r"\{x : x \le 1\} = S", [r"\{x : x \le 1\}", "S"]),
    (r"\langle u, v \rangle \le \|u\| \|v\|", [r"\langle u, v \rangle", r"\|u\| \|v\|"]),
    (r"\leftarrow \le x", [r"\leftarrow", "x"]),
    (r"a := b \leq c", ["a", "b", "c"]),
])
def test_split_relation_cuts_only_at_top_level(tex, parts):
    from boundcalc.expr.latex_tokens import split_relation
    assert [p for p, _ in split_relation(tex)] == parts


def _shipped_toml(key):
    """The shipped formula file of ``key``, read with tomllib (not through boundcalc)."""
    import tomllib

    from boundcalc.registry import packaged_dir
    return tomllib.loads((packaged_dir() / f"{key}.toml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", PAPERS)
def test_arxiv_ids_are_printed_as_written(key):
    """Issue 34 (3): the number formatter rounded identifiers in free text ("arXiv 2310.13" for
    2310.12680). Every arXiv-shaped id of the [paper] reference, as the formula file writes it,
    appears verbatim on the Reference line of the LaTeX sheet."""
    ref = _shipped_toml(key)["paper"]["reference"]
    ids = re.findall(r"\d{4}\.\d{4,5}", ref)
    assert ids, ref
    tex = sheet(key, "latex")
    line = next(x for x in tex.splitlines() if x.startswith("\\noindent Reference:"))
    for i in ids:
        assert i in line and f"\\num{{{i[:7]}" not in line, line
    assert "\\num{" not in line.split("arXiv", 1)[1][:12], line


def test_an_identifier_in_free_text_is_not_a_number():
    """Ids and versions stay as written (the user's arXiv 1707.09564 was printed 1707.10); a
    measured number is still set in the one number style (expected strings by hand)."""
    from boundcalc.reports.latex import ascii_math
    assert ascii_math("arXiv 1707.09564") == "arXiv 1707.09564"
    assert ascii_math("see arXiv:2310.12680v2.") == "see arXiv:2310.12680v2."
    assert ascii_math("version 2.10.1") == "version 2.10.1"
    assert ascii_math("loss 0.123456789") == r"loss \num{0.123457}"


def test_true_as_an_adjective_is_not_a_boolean():
    """Issue 34 (4): "True-loss bound" was printed "yes-loss bound" in anon2025's headings.
    The titles as written in the formula file appear in the sheet's headings."""
    from boundcalc.reports.latex import ascii_math
    tex = sheet("anon2025", "latex")
    names = [f["name"] for f in _shipped_toml("anon2025")["formulas"].values() if f["name"].startswith("True")]
    assert len(names) == 3, names
    heads = [x for x in tex.splitlines() if x.startswith("\\subsubsection*")]
    for n in names:
        assert any(h.endswith(": " + n + "}") for h in heads), n
    assert "yes-loss" not in tex and "yes loss" not in tex
    assert ascii_math("used True, causal=False") == "used yes, causal=no"


def test_long_formulas_get_named_subterms():
    """arda2026.thm1_min (2000 characters of LaTeX, shown at 1/8.2 before): our statement in
    terms of named subterms, each defined beneath it, and the definitions substituted back
    give our expression again (SymPy, structurally)."""
    import sympy as sp

    from boundcalc.backends.sym import to_sympy
    from boundcalc.reports.printers.evidence import name_subterms
    from boundcalc.reports.sheet import NAME_LIMIT
    tex = sheet("arda2026", "latex")
    block = tex.split("thm1\\_\\allowbreak{}min}")[1].split("\\subsubsection*")[0]
    assert "\\noindent where" in block and block.count("\\bcdisplay{") >= 4
    f = boundcalc.api.formula("arda2026.thm1_min")
    e = to_sympy(f.expr, {})
    defs, out = name_subterms({"e": e}, NAME_LIMIT)
    back = out["e"]
    for name, d in reversed(defs):
        back = back.xreplace({name: d})
    assert sp.simplify(back - e) == 0 and len(defs) >= 2
