"""The one escaper per format (reports/escape.py), and every output path of a hostile formula
file: what a user writes is data in the terminal, Markdown, HTML, CSV, LaTeX and BibTeX.

Each hole of issue 30 is reproduced with a tiny hostile TOML file and checked through the
command that had it; a hypothesis property test then sends random hostile strings through
every text field and every format. The checks here are independent of the escapers: a
Markdown output is rendered by markdown-it (as GitHub or Jupyter would) and its HTML tags
read by html.parser; a CSV is read by the csv module; a LaTeX output is compiled by pdflatex
with -no-shell-escape and -recorder, and the files it read and wrote are listed."""
from __future__ import annotations

import csv
import html as _html
import io
import itertools
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from boundcalc.cli.app import app
from boundcalc.reports import escape as E

HAVE_PDFLATEX = shutil.which("pdflatex") is not None
HAVE_BIBTEX = HAVE_PDFLATEX and shutil.which("bibtex") is not None
NO_PDFLATEX = "pdflatex not on PATH (apt may still be installing texlive): the TeX tests are skipped"

OSC_TITLE = "\x1b]0;PWNED\x07"
CLEAR = "\x1b[2J"
CSV_CMD = "=cmd|' /C calc'!A0"
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(2)>"
JS_LINK = "[click](javascript:alert(3))"
# what no output may hold raw: C0 but newline and tab, DEL, C1, bidi overrides and isolates
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# TeX commands that read, write, define or expand (never in a body boundcalc writes)
TEX_PRIMITIVES = re.compile(r"\\(?:input|include|openin|openout|write|immediate|read|def|edef|gdef|xdef|let|"
                            r"catcode|csname|expandafter|special|scantokens|everyjob|pdffiledump|"
                            r"pdfximage|includegraphics|verbatiminput|directlua)(?![A-Za-z])|\^\^")


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=True)


def toml_str(s: str) -> str:
    """A TOML basic string holding exactly ``s`` (control characters as \\uXXXX)."""
    out = []
    for ch in s:
        if ch in '"\\' or ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


TEXT_FIELDS = ("title", "authors", "reference", "text", "venue", "sym_n", "sym_delta", "f_name", "f_source",
               "f_note", "f_bounds", "s_name", "s_source", "c_location", "c_description", "c_note")


def hostile_file(folder: Path, key: str, t: dict[str, str], *, bibtex: str | None = None) -> Path:
    """A formula file with the text ``t[field]`` in every text field (:data:`TEXT_FIELDS`):
    one bound, a setting and a failing monotone check (so the check has a finding with a
    location, a description and a note)."""
    g = {k: toml_str(t.get(k, k)) for k in TEXT_FIELDS}
    extra = f"bibtex = {toml_str(bibtex)}\n" if bibtex is not None else ""
    body = f'''[paper]
key = "{key}"
title = {g["title"]}
authors = {g["authors"]}
reference = {g["reference"]}
text = {g["text"]}
venue = {g["venue"]}
year = "2024"
arxiv = "2401.00001"
results = ["Thm. 1"]
{extra}
[symbols.n]
description = {g["sym_n"]}
latex = "n"
domain = "integer >= 1"

[symbols.delta]
description = {g["sym_delta"]}
latex = '\\delta'
domain = "(0, 1)"

[formulas.gap]
name = {g["f_name"]}
kind = "bound"
bounds = {g["f_bounds"]}
direction = "upper"
expr = "sqrt(log(1/delta)/(2*n))"
source = {g["f_source"]}
latex = 'L \\le \\sqrt{{\\log(1/\\delta)/(2n)}}'
status = "as printed"
note = {g["f_note"]}

[settings.toy]
name = {g["s_name"]}
source = {g["s_source"]}
default = true
solve_for = "n"
values = {{ delta = "0.05" }}
requirements = []

[[checks]]
id = "gap_grows"
kind = "monotone"
location = {g["c_location"]}
description = {g["c_description"]}
note = {g["c_note"]}
formula = "gap"
var = "n"
claim = "increasing"
covers = ["Thm. 1"]
'''
    path = folder / f"{key}.toml"
    path.write_text(body, encoding="utf-8")
    return path


def everywhere(s: str) -> dict[str, str]:
    return {k: f"{k} {s}" for k in TEXT_FIELDS}


# ---------------------------------------------------------------------------- independent readers
class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def html_tags(html: str) -> list[tuple[str, dict]]:
    p = _Tags()
    p.feed(html)
    return p.tags


# the tags boundcalc's own Markdown makes (headings, tables, lists, code, emphasis, paragraphs)
MD_TAGS = {"h1", "h2", "h3", "h4", "p", "table", "thead", "tbody", "tr", "th", "td", "ul", "ol", "li", "strong",
           "em", "code", "pre", "br", "hr", "a"}


def assert_markdown_safe(md: str) -> None:
    """Rendered as a viewer renders it (markdown-it, raw HTML on, tables on): only the tags
    Markdown itself makes, no event handler, links only to http(s); no raw control character."""
    from markdown_it import MarkdownIt
    assert not RAW_CONTROL.search(md), repr(RAW_CONTROL.search(md).group(0))
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(md)
    for tag, attrs in html_tags(html):
        assert tag in MD_TAGS, (tag, attrs)
        assert not any(a.startswith("on") for a in attrs), (tag, attrs)
        if tag == "a":
            assert re.match(r"https?://", attrs.get("href", "")), attrs


def assert_html_safe(html: str, own_scripts: int) -> None:
    """No tag but the page's own: ``own_scripts`` script elements, no image, no event
    handler, no javascript: URL; no raw control character."""
    assert not RAW_CONTROL.search(html)
    tags = html_tags(html)
    assert sum(t == "script" for t, _ in tags) == own_scripts
    for tag, attrs in tags:
        assert tag not in ("img", "iframe", "object", "embed"), tag
        assert not any(a.startswith("on") for a in attrs), (tag, attrs)
        assert not any("javascript:" in (v or "").lower() for v in attrs.values()), attrs


def assert_csv_safe(text: str) -> list[list[str]]:
    """No cell a spreadsheet runs as a formula (a text starting with = + - @ tab or CR that is
    not a number); no raw control character but newline (quoted) and tab."""
    assert not RAW_CONTROL.search(text)
    rows = list(csv.reader(io.StringIO(text)))
    for row in rows:
        for cell in row:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
                float(cell)                         # only a number may start so
    return rows


def tex_body(tex: str) -> str:
    return tex.split("\\begin{document}", 1)[-1]


def assert_tex_safe(tex: str) -> None:
    assert not RAW_CONTROL.search(tex), repr(RAW_CONTROL.search(tex).group(0))
    bad = TEX_PRIMITIVES.search(tex_body(tex))
    assert not bad, (bad.group(0), tex_body(tex)[max(0, bad.start() - 80):bad.end() + 40])


def _tex_tree() -> tuple[str, ...]:
    """The folders a TeX run may read: its distribution, configuration and caches."""
    out = subprocess.run(["kpsewhich", ("-var-value=TEXMFDIST;$TEXMFSYSVAR;$TEXMFSYSCONFIG;$TEXMFVAR;"
                          "$TEXMFCONFIG;$TEXMFLOCAL;$TEXMFMAIN")], capture_output=True, text=True, check=False).stdout
    roots = {str(Path(p).resolve()) for p in re.split(r"[;:\s]+", out) if p.strip()}
    cnf = subprocess.run(["kpsewhich", "texmf.cnf"], capture_output=True, text=True, check=False).stdout.strip()
    if cnf:
        roots.add(str(Path(cnf).resolve().parent))
    return tuple(sorted(roots | {"/usr/share/texlive", "/usr/share/texmf", "/var/lib/texmf", "/etc/texmf"}))


def assert_only_build_files(compiled, build: Path) -> None:
    """pdflatex read nothing outside the build folder but the TeX tree, and wrote nothing outside it."""
    build = build.resolve()
    tree = _tex_tree()
    for p in compiled.reads:
        assert p.is_relative_to(build) or str(p).startswith(tree), f"read outside the build folder: {p}"
    for p in compiled.writes:
        assert p.is_relative_to(build), f"wrote outside the build folder: {p}"


# ---------------------------------------------------------------------------- the escapers
def test_terminal_shows_control_characters_and_escapes_markup():
    assert E.terminal(OSC_TITLE + CLEAR) == "\\x1b]0;PWNED\\x07\\x1b[2J"
    assert E.terminal("a\u202eb\x85c\x7f") == "a\\u202eb\\x85c\\x7f"
    assert E.terminal("[bold]x[/bold]") == "\\[bold]x\\[/bold]"
    assert E.terminal("[bold]x", markup=False) == "[bold]x"
    assert E.terminal("line\n\tnext") == "line\n\tnext"          # newline and tab are text
    assert E.terminal("cr\rover") == "cr\\x0dover"               # a CR would overwrite the line


def test_markdown_cell():
    assert E.md_cell(SCRIPT) == "&lt;script>alert(1)&lt;/script>" and E.md_cell("a <= b < c") == "a <= b < c"
    assert E.md_cell(JS_LINK) == "\\[click\\](javascript:alert(3))"
    assert E.md_cell("a|b `c` *d* \\e") == "a\\|b \\`c\\` \\*d\\* \\\\e"
    assert E.md_cell("&lt;b&gt; & >") == "&amp;lt;b&amp;gt; & >"
    assert E.md_cell("# h") == "\\# h" and E.md_cell("1. x") == "1\\. x" and E.md_cell("0.25") == "0.25"
    assert E.md_cell("two\nlines" + CLEAR) == "two lines\\\\x1b\\[2J"
    assert E.md_code("a`b|c") == "``a`b|c``" and E.md_code("x|y", table=True) == "`x\\|y`"
    assert E.md_fence("```\n<script>", "bibtex") == "````bibtex\n```\n<script>\n````"
    assert E.md_link("p", "javascript:alert(1)") == "p (javascript:alert(1))"
    assert E.md_link("p", "https://arxiv.org/abs/1") == "[p](<https://arxiv.org/abs/1>)"
    assert E.md_math("a<b>c|d") == "$a\\lt b\\gt c\\vert d$"


@pytest.mark.parametrize("text", ["$x$ costs $5", "~~struck~~", "(_g0/2) and _emph_", "a*b*", "`code`"])
def test_markdown_cell_makes_no_math_strikethrough_or_emphasis(text):
    # rendered as Jupyter / GitHub / MyST render Markdown (dollar math and strikethrough on): the
    # user's text comes back as the same text, in one paragraph and no other element
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    md = MarkdownIt("commonmark").enable("strikethrough").use(dollarmath_plugin)
    html = md.render(E.md_cell(text)).strip()
    assert html.startswith("<p>") and html.endswith("</p>") and "<" not in html[3:-4], html
    assert _html.unescape(html[3:-4]) == text, html


def test_html_text():
    assert E.html_text(IMG + "\x1b\"'") == "&lt;img src=x onerror=alert(2)&gt;\\x1b&quot;&#x27;"


@pytest.mark.parametrize("cell, out", [
    (CSV_CMD, "'" + CSV_CMD), ("+1+2", "'+1+2"), ("-2+3", "'-2+3"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\t=1", "'\t=1"), ("\r=1", "\\x0d=1"), ("-0.5", "-0.5"), ("+1e-3", "+1e-3"), ("-inf", "-inf"),
    ("plain", "plain"), (3.5, 3.5), (None, None), ("a\x1b[2J", "a\\x1b[2J"), ("-", "'-")])
def test_csv_cell(cell, out):
    assert E.csv_cell(cell) == out


def test_latex_text():
    assert E.latex_escape("a\x1b[2J\tb\nc\x07") == "a[U+001B][2J b c[U+0007]"
    assert E.latex_escape("\\input{/etc/passwd} ^^5c") == \
        "\\textbackslash{}input\\{/etc/passwd\\} \\textasciicircum{}\\textasciicircum{}5c"
    assert E.latex_url("https://x.org/a%20b#c") == "\\url{https://x.org/a%20b#c}"
    assert E.latex_url("}\\input{/etc/passwd}") == "\\texttt{\\}\\textbackslash{}input\\{/etc/passwd\\}}"


def test_ascii_math_writes_no_user_tex():
    """The ASCII-math reading of notes and descriptions (sqrt(...), scripts) puts its inside
    into math: a backslash, '^^' or a control character there is text, never TeX."""
    from boundcalc.reports.latex import ascii_math
    for s in ("sqrt(\\input{/etc/passwd})", "sqrt(^^5cinput)", "x^(a^^5c)", "sqrt(\x1b)", "beta_(\\def)"):
        out = ascii_math(s)
        assert not TEX_PRIMITIVES.search(out) and not RAW_CONTROL.search(out), (s, out)
    assert ascii_math("theta_h^(1) <= sqrt(T)") == "\\ensuremath{\\theta_{h}^{(1)} \\leq \\sqrt{T}}"


def test_bibtex_field_braces_balance_and_commands_are_characters():
    v = E.bibtex_field("T \\input/etc/passwd {x \\} % & ^^5c \x1b")
    assert v == ("T {\\textbackslash}input/etc/passwd {\\textbraceleft}x {\\textbackslash}{\\textbraceright} "
                 "{\\%} {\\&} {\\textasciicircum}{\\textasciicircum}5c [U+001B]")
    depth = 0
    for ch in v:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0


@pytest.mark.parametrize("entry, why", [
    ("@misc{k, title = {\\input{/etc/passwd}}}", "the command \\input"),
    ("@misc{k, title = {\\immediate\\write18{x}}}", "the command \\immediate"),
    ("@misc{k, title = {^^5cinput{/etc/passwd}}}", "TeX's '^^' character notation"),
    ("@misc{k, title = {a\x1b]0;x\x07}}", "the control character U+001B"),
    ("@misc{k, title = {a}", "1 unclosed '{'"),
    ("@misc{k, author = {M{\\\"u}ller and \\c{C}a{\\u{g}}lar}, title = {{BERT} $\\alpha$-\\textit{x}}}", ""),
])
def test_bibtex_entry_allow_list(entry, why):
    assert E.bibtex_entry_error(entry) == why


# ---------------------------------------------------------------------------- the holes of issue 30
@pytest.fixture
def hostile(tmp_path):
    s = f"{OSC_TITLE} {CLEAR} {SCRIPT} {IMG} {JS_LINK}"
    t = everywhere(s)
    t["f_name"] = CSV_CMD + " " + s
    t["c_location"] = CSV_CMD + " " + s
    t["title"] = "Title \\input/etc/passwd " + s
    return hostile_file(tmp_path, "hostile", t)


@pytest.mark.parametrize("args", [("cite", "hostile"), ("cite", "hostile", "--format", "text"),
                                  ("show", "hostile.gap"), ("list", "--paper", "hostile"),
                                  ("check", "hostile", "--jobs", "1"), ("check", "hostile", "--jobs", "1", "--markdown"),
                                  ("sheet", "hostile", "--format", "markdown"), ("sheet", "hostile")])
def test_escape_codes_never_reach_the_terminal(hostile, args):
    """Before: ESC]0;...BEL set the terminal's title and ESC[2J cleared the screen through
    cite, show, list and check (and the Markdown and LaTeX outputs carried them)."""
    r = run("--formulas", hostile, *args)
    assert r.exit_code in (0, 1), r.output
    assert "\x1b" not in r.output and "\x07" not in r.output and not RAW_CONTROL.search(r.output)
    assert "PWNED" in r.output                    # the text is shown, its control characters visible
    if args[0] in ("show", "list", "check") and "--markdown" not in args:
        assert "\\x1b]0;PWNED\\x07" in r.output and "\\x1b[2J" in r.output


def test_a_formula_leader_is_no_csv_formula(tmp_path, hostile):
    """Before: a location (or any text) starting with =cmd|' /C calc'!A0 was a CSV cell as
    written; a measured CSV named '=cmd.csv' too."""
    from boundcalc.reports.printers.csv import to_csv
    from boundcalc.services.check import run_checks
    rows = assert_csv_safe(to_csv(run_checks("hostile", formulas_path=[str(hostile)])))
    loc = rows[0].index("location")
    assert rows[1][loc].startswith("'" + CSV_CMD)
    runs = tmp_path / "=cmd.csv"
    runs.write_text(f'run,n,delta,gap\n"{CSV_CMD}",1000,0.05,0.21\n"-2+3",4000,0.05,0.12\n')
    r = run("--formulas", hostile, "compare", "hostile", "--measured", runs, "--format", "csv")
    assert r.exit_code == 0, r.output
    rows = assert_csv_safe(r.output)
    assert "'=cmd.csv" in rows[1]
    assert [float(x) for x in rows[1][rows[0].index("measured"):][:1]] == [0.21]     # numbers stay numbers


def test_no_raw_html_in_markdown(tmp_path, hostile):
    """Before: compare --measured --format markdown and sheet --format markdown wrote
    <script>, <img onerror> and javascript: links verbatim."""
    runs = tmp_path / "runs.csv"
    runs.write_text(f'run,n,delta,gap\n"{SCRIPT} {JS_LINK}",1000,0.05,0.21\n')
    for args in (("compare", "hostile", "--measured", runs, "--format", "markdown"),
                 ("sheet", "hostile", "--format", "markdown"), ("check", "hostile", "--jobs", "1", "--markdown")):
        r = run("--formulas", hostile, *args)
        assert r.exit_code in (0, 1), r.output
        assert_markdown_safe(r.output)
        assert "alert(1)" in r.output                        # shown as text


def test_html_outputs(tmp_path, hostile):
    from boundcalc.reports.printers.html import to_html
    from boundcalc.services.check import run_checks
    rep = run_checks("hostile", formulas_path=[str(hostile)])
    assert_html_safe(to_html(rep), own_scripts=0)
    assert_html_safe(to_html(rep, page=True), own_scripts=1)


def test_a_hand_written_bibtex_entry_with_tex_commands_is_refused(tmp_path):
    f = hostile_file(tmp_path, "mine", {}, bibtex="@misc{mine, title = {\\input{/etc/passwd}}}")
    from support import cli  # in process (issue 37): the real entry point
    p = cli(["--formulas", str(f), "cite", "mine"])
    assert p.returncode == 2 and not p.stdout, p.stderr
    assert p.stderr.startswith("error: ") and len(p.stderr.splitlines()) == 1
    assert "\\input" in p.stderr and "mine.toml" in p.stderr


@pytest.mark.skipif(not HAVE_PDFLATEX, reason=NO_PDFLATEX)
def test_hostile_sheet_compiles_and_reads_nothing_outside(tmp_path, hostile):
    """Before: a control character in a text field stopped pdflatex ("Unicode character ^^[
    (U+001B)", no PDF). After: it compiles, reads only the TeX tree and its own folder, and
    the /etc/passwd a title names is never read."""
    from boundcalc.reports.latex import compile_pdf
    r = run("--formulas", hostile, "sheet", "hostile")
    assert r.exit_code == 0, r.output
    assert_tex_safe(r.output)
    build = tmp_path / "build"
    c = compile_pdf(r.output, build, "sheet", runs=1)
    assert_only_build_files(c, build)
    assert Path("/etc/passwd").resolve() not in c.reads


@pytest.mark.skipif(not HAVE_PDFLATEX, reason=NO_PDFLATEX)
def test_hostile_comparison_table_compiles(tmp_path, hostile):
    """compare --measured --format latex: the run names of a measured CSV and the paper's
    texts are text in the table; it compiles and reads nothing outside its folder."""
    from boundcalc.reports.latex import compile_pdf, document
    runs = tmp_path / "runs.csv"
    runs.write_text(f'run,n,delta,gap\n"{SCRIPT} \\input{{/etc/passwd}} %&$#_^~",1000,0.05,0.21\n')
    r = run("--formulas", hostile, "compare", "hostile", "--measured", runs, "--format", "latex")
    assert r.exit_code == 0, r.output
    tex = document(r.output)
    assert_tex_safe(tex)
    build = tmp_path / "build"
    assert_only_build_files(compile_pdf(tex, build, "table", runs=1), build)


@pytest.mark.skipif(not HAVE_BIBTEX, reason=NO_PDFLATEX)
def test_input_in_a_bibtex_title_reads_no_file(tmp_path):
    """Before: cite kept '\\input/etc/passwd' from a title, and pdflatex + bibtex put the lines
    of /etc/passwd into the References. After: the title is printed as written."""
    from boundcalc.reports.latex import recorded_files
    secret = tmp_path / "secret.tex"
    secret.write_text("SECRETCONTENT\n")
    t = {"title": f"Leak \\input{{{secret}}} \\input {secret} ^^5cinput{{{secret}}} \x1b[2J"}
    f = hostile_file(tmp_path, "leak", t)
    r = run("--formulas", f, "cite", "leak")
    assert r.exit_code == 0, r.output
    build = tmp_path / "build"
    build.mkdir()
    (build / "refs.bib").write_text(r.output)
    (build / "doc.tex").write_text("\\documentclass{article}\\usepackage[T1]{fontenc}\\usepackage{amsmath}\n"
                                   "\\begin{document}See~\\cite{leak}.\\bibliographystyle{plain}"
                                   "\\bibliography{refs}\\end{document}\n")
    latex = ["pdflatex", "-no-shell-escape", "-recorder", "-interaction=nonstopmode", "-halt-on-error", "doc.tex"]
    for cmd in (latex, ["bibtex", "doc"], latex, latex):
        p = subprocess.run(cmd, cwd=build, capture_output=True, text=True, timeout=120, check=False)
        assert p.returncode == 0, p.stdout[-2000:]
    reads, writes = recorded_files(build / "doc.fls")
    assert secret.resolve() not in reads
    assert all(w.is_relative_to(build.resolve()) for w in writes)
    text = subprocess.run(["pdftotext", "doc.pdf", "-"], cwd=build, capture_output=True, text=True, check=False).stdout \
        if shutil.which("pdftotext") else (build / "doc.bbl").read_text()
    assert "SECRETCONTENT" not in text and "input" in text


# ---------------------------------------------------------------------------- the property
FRAGMENTS = [OSC_TITLE, CLEAR, "\x1b", "\x07", "\x00", "\x08", "\r", "\x0b", "\x7f", "\x85", "\x9b", "\u202e",
             "\u2066", SCRIPT, IMG, JS_LINK, "<a href='javascript:x'>", "&lt;script&gt;", "&#60;", "<!--", "-->",
             CSV_CMD, "=1+1", "+1", "-2+3", "@SUM(A1)", "\t=1", "\\input{/etc/passwd}", "\\input /etc/passwd",
             "\\write18{id}", "\\immediate", "\\def\\x{}", "\\csname", "^^5cinput", "^^", "{", "}", "\\{", "%", "$",
             "$x$", "#", "&", "_", "^", "~", "\\", "`", "```", "|", "||x||", "*", "[", "]", "(", ")", "sqrt(",
             "sqrt(\\input{x})", "x_(", "theta_h^(1)", "<=", ">=", "# ", "> ", "- ", "1. ", "[bold]", "[/]", "\n",
             "\n\n", "\t", "é", "Ω", "☃", "\u0304", "—", " "]
hostile_text = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=3)), min_size=1, max_size=6) \
    .map("".join).filter(lambda s: s.strip())
_n = itertools.count()


def _outputs(path: Path, key: str) -> dict[str, str]:
    """Every format of the file's paper, in-process: cite, the sheets, show and list (the
    CLI's typer app in-process), the check report in Markdown, CSV, HTML and as a page."""
    from boundcalc.reports.printers.csv import to_csv
    from boundcalc.reports.printers.html import to_html
    from boundcalc.reports.printers.markdown import to_markdown
    from boundcalc.reports.sheet import cite, sheet
    from boundcalc.services.check import run_checks
    paths = [str(path)]
    out = {"bibtex": cite(key, "bibtex", paths), "cite-text": cite(key, "text", paths),
           "sheet-latex": sheet(key, "latex", paths), "sheet-markdown": sheet(key, "markdown", paths)}
    for args in (("show", f"{key}.gap"), ("list", "--paper", key)):
        r = run("--formulas", path, *args)
        assert r.exit_code == 0, r.output
        out[args[0]] = r.output
    rep = run_checks(key, formulas_path=paths)
    assert rep.findings and rep.findings[0].note            # the finding carries the check's texts
    out |= {"check-markdown": to_markdown(rep), "check-csv": to_csv(rep), "check-html": to_html(rep),
            "check-page": to_html(rep, page=True), "check": _terminal(rep)}
    return out


def _terminal(rep) -> str:
    """The check report as ``check`` prints it on a terminal (the CLI's console, colours on)."""
    from boundcalc.cli.output import console
    from boundcalc.reports.printers.rich import print_rich
    c = console()
    c.file = io.StringIO()
    c._force_terminal = True
    print_rich(rep, console=c)
    return c.file.getvalue()


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.fixed_dictionaries({k: hostile_text for k in TEXT_FIELDS}))
def test_property_every_text_field_through_every_format(tmp_path, texts):
    key = f"p{next(_n)}"
    path = hostile_file(tmp_path, key, texts)
    out = _outputs(path, key)
    for name, text in out.items():
        if name == "check":           # rich's own colour codes: only SGR sequences ESC[...m
            text = re.sub(r"\x1b\[[0-9;]*m", "", text)
        assert not RAW_CONTROL.search(text), (name, repr(RAW_CONTROL.search(text).group(0)))
        assert "\x1b" not in text, name
    for name in ("sheet-markdown", "check-markdown"):
        assert_markdown_safe(out[name])
    assert_html_safe(out["check-html"], own_scripts=0)
    assert_html_safe(out["check-page"], own_scripts=1)
    assert_csv_safe(out["check-csv"])
    assert_tex_safe(out["sheet-latex"])
    assert not TEX_PRIMITIVES.search(out["bibtex"])
    assert E.bibtex_entry_error(out["bibtex"]) == ""       # what cite writes passes its own allow-list


@pytest.mark.skipif(not HAVE_PDFLATEX, reason=NO_PDFLATEX)
@settings(max_examples=15, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],  # no shrinking:
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # pdflatex is slow
@given(st.fixed_dictionaries({k: hostile_text for k in TEXT_FIELDS}))
def test_property_hostile_sheets_compile(tmp_path, texts):
    """Every LaTeX output still compiles (pdflatex -no-shell-escape) and reads and writes
    nothing outside its build folder but the TeX tree."""
    from boundcalc.reports.latex import compile_pdf
    from boundcalc.reports.sheet import sheet
    key = f"c{next(_n)}"
    path = hostile_file(tmp_path, key, texts)
    build = tmp_path / f"build-{key}"
    c = compile_pdf(sheet(key, "latex", [str(path)]), build, "sheet", runs=1)
    assert_only_build_files(c, build)


@pytest.mark.parametrize("text", [
    r"see ^^5cinput{/etc/passwd}",                  # TeX's ^^ notation: ^^5c is a backslash
    r"$x$ \pdffiledump offset 0 length 99 {/etc/passwd}",
    r"\scantokens{\input /etc/passwd}",
    r"\verbatiminput{/etc/passwd}",
    r"\lstinputlisting{/etc/passwd}",
    r"\IfFileExists{/etc/passwd}{a}{b}",
    r"\begin{filecontents}",
    "a \x1b]0;title\x07 b",
    r"\openin", r"\input{x}", r"$\input{x}$", r"\csname input\endcsname",
])
def test_latex_text_fields_hold_only_whitelisted_commands(text):
    """A LaTeX-text field (description_latex, note_latex ...) is refused unless every control
    sequence is math, text emphasis or an accent: a list of dangerous commands misses
    ^^5cinput, \\pdffiledump and the packages' file readers."""
    from boundcalc.expr.latex_tokens import latex_text_error
    assert latex_text_error(text)


@pytest.mark.parametrize("text", [
    r"the bound of Thm.~1 with $\sqrt{d/n}$", r"\emph{as printed}, Erd\H{o}s and G\"odel",
    r"$\|W\|_{2,\infty} \le \frac{1}{\sqrt m}$, 50\% of the heads", r"a\\b",
])
def test_latex_text_fields_keep_math_and_text(text):
    from boundcalc.expr.latex_tokens import latex_text_error
    assert latex_text_error(text) == ""
