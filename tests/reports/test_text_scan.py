"""Issue 34, "What it must show": a scan of the text a reader sees in every table, sheet and
page the four papers produce -- ``compare`` as LaTeX (short, full and no notes, ``--env
table``, ``--long``), Markdown, the HTML page and the notebook's HTML table; ``sheet`` as
LaTeX and Markdown; the ``check`` report as Markdown and HTML -- for identifier-like ASCII
standing in for math outside the math (``_`` or ``^``, ``**``, ``==``, ``<=``, ``>=``, ``||``,
``sqrt(``), and for arXiv identifiers that are not as the formula files write them (the number
formatter applied to free text made 2310.12680 "2310.13"). Expected: none.

What is left out as not text: math (``$...$``, ``\\ensuremath``, MathML ``<math>``), code
(``\\texttt``, code spans and blocks, ``<code>``: formula keys, options, the evidence as
report.json holds it), markup. The terminal and the machine formats (CSV, JSON) keep the
records' text in the ASCII convention (no math typesetting there); they are scanned for
rounded identifiers only.

The full check report takes minutes: the default run scans the report of a set of checks that
exercises every part of a finding the printers typeset (message, note, the assumptions added
and their reasons quoting the paper, evidence, counterexample, consequences, passes); the
full report is in the ``slow`` set."""
from __future__ import annotations

import pytest
from textscan import (
    known_arxiv_ids,
    latex_stand_ins,
    rounded_ids,
    stand_ins,
    visible_html,
    visible_markdown,
)
from typer.testing import CliRunner

from boundcalc.cli.app import app

PAPERS = ("deora2023", "anon2025", "tarzanagh2023", "arda2026")
_CACHE: dict = {}


def cli(*args) -> str:
    if args not in _CACHE:
        r = CliRunner().invoke(app, list(args), catch_exceptions=False)
        assert r.exit_code == 0, r.output
        _CACHE[args] = r.stdout
    return _CACHE[args]


def compare_page(paper: str, tmp_path) -> str:
    page = tmp_path / f"{paper}.html"
    cli("compare", paper, "--format", "csv", "--html", str(page))
    return page.read_text(encoding="utf-8")


def table(paper: str):
    """The paper's comparison :class:`~boundcalc.reports.table.Table` (its engine's compare)."""
    from importlib import import_module
    return import_module(f"boundcalc.experiments.{paper}.compare").compare()


def outputs(paper: str, tmp_path):
    """(name, kind, text) of every output of ``paper`` a reader reads."""
    for notes in ("short", "full", "none"):
        yield f"compare {paper} --format latex --notes {notes}", "latex", cli(
            "compare", paper, "--format", "latex", "--notes", notes)
    yield f"compare {paper} --format latex --env table", "latex", cli(
        "compare", paper, "--format", "latex", "--env", "table")
    yield f"compare {paper} --format latex --long --notes full", "latex", cli(
        "compare", paper, "--format", "latex", "--long", "--notes", "full")
    yield f"compare {paper} --format markdown", "markdown", cli("compare", paper, "--format", "markdown")
    yield f"compare {paper} --html", "html", compare_page(paper, tmp_path)
    yield f"sheet {paper}", "latex", cli("sheet", paper)
    yield f"sheet {paper} --format markdown", "markdown", cli("sheet", paper, "--format", "markdown")


def machine_outputs(paper: str):
    for fmt in ("csv", "json", "rich"):
        yield f"compare {paper} --format {fmt}", cli("compare", paper, "--format", fmt)


def scan(kind: str, text: str) -> list[tuple[str, str]]:
    if kind == "latex":
        return latex_stand_ins(text)
    return stand_ins(visible_markdown(text) if kind == "markdown" else visible_html(text))


@pytest.mark.parametrize("paper", PAPERS)
def test_no_ascii_stands_in_for_math_in_what_a_reader_reads(paper, tmp_path):
    found = {}
    known = known_arxiv_ids()
    for name, kind, text in outputs(paper, tmp_path):
        hits = scan(kind, text) + [("rounded id", x) for x in rounded_ids(text, known)]
        if hits:
            found[name] = (len(hits), hits[:5])
    assert found == {}, found


@pytest.mark.parametrize("paper", PAPERS)
def test_the_notebook_table_reads_as_the_page(paper):
    """``Table._repr_html_`` (a notebook): the same typeset cells as the page."""
    html = table(paper)._repr_html_()
    assert "<math" in html and stand_ins(visible_html(html)) == []


@pytest.mark.parametrize("paper", PAPERS)
def test_ids_are_never_rounded(paper):
    """Every output, the terminal's and the machines' too, writes each arXiv identifier as the
    formula files do; the sheet writes its paper's identifier and year in full."""
    import tomllib

    from boundcalc.registry import packaged_dir
    known = known_arxiv_ids()
    for name, text in [*machine_outputs(paper), (f"sheet {paper}", cli("sheet", paper)),
                       (f"sheet {paper} --format markdown", cli("sheet", paper, "--format", "markdown"))]:
        assert rounded_ids(text, known) == [], name
    refs = tomllib.loads((packaged_dir() / f"{paper}.toml").read_text(encoding="utf-8"))["paper"]
    for field in ("arxiv", "year"):
        value = str(refs.get(field) or refs.get("refs", {}).get(field, ""))
        for sheet_text in (cli("sheet", paper), cli("sheet", paper, "--format", "markdown")):
            if value:
                assert value in sheet_text, (paper, field, value)


# ---------------------------------------------------------------------------- the check report
# one of each part a finding's printers typeset: an error with a counterexample and its
# consequence, hypotheses at a point, assumptions added with reasons quoting the paper, a note,
# evidence, passes
_SOME_CHECKS = ["anon2025.lemma1_vs_its_proof", "anon2025.lemma1_from_lemma2", "anon2025.vacuity_theorem5_table1",
                "anon2025.lemma6_frobenius_form", "anon2025.lemma1_sup_constraint_KQ", "anon2025.union_bound_from_mohri",
                "anon2025.dudley_integral", "arda2026.def3_symmetric_init", "arda2026.remark3_M_bounded",
                "deora2023.gamma_attn_restated_sec7", "deora2023.Gamma_eps_restated_sec7",
                "deora2023.gap_grows_as_sparsity_decreases", "tarzanagh2023.descent_lemma_step",
                "tarzanagh2023.L_p_restated"]


def _scan_report(report) -> dict:
    from boundcalc.reports.printers.html import to_html
    from boundcalc.reports.printers.markdown import to_markdown
    known = known_arxiv_ids()
    found = {}
    for name, kind, text in (("markdown", "markdown", to_markdown(report)),
                             ("html", "html", to_html(report, page=True))):
        hits = scan(kind, text) + [("rounded id", x) for x in rounded_ids(text, known)]
        if hits:
            found[name] = (len(hits), hits[:8])
    return found


def test_the_check_report_has_no_ascii_stand_ins():
    from boundcalc.services.check import run_checks
    assert _scan_report(run_checks(only=_SOME_CHECKS)) == {}


@pytest.mark.slow
def test_the_full_check_report_has_no_ascii_stand_ins():
    from boundcalc.services.check import run_checks
    assert _scan_report(run_checks()) == {}


# ---------------------------------------------------------------------------- the scan can fail
def test_the_scan_finds_a_planted_stand_in(tmp_path):
    """A stand-in planted in the visible text of a real output is found, in each format; the
    same text inside math or code is not; a rounded identifier is found."""
    md = cli("compare", "anon2025", "--format", "markdown")
    page = compare_page("anon2025", tmp_path)
    tex = cli("compare", "anon2025", "--format", "latex")
    assert scan("markdown", md) == [] and scan("html", page) == [] and scan("latex", tex) == []
    planted = {
        "markdown": [md.replace("Notes:", "Notes: x_hat <= sqrt(n)", 1),
                     md.replace("Notes:", "Notes: \\|\\|x\\|\\|", 1), md.replace("Notes:", "Notes: a == b", 1),
                     md.replace("Notes:", "Notes: d\\*\\*2", 1), md.replace("Notes:", "Notes: d^2", 1)],
        "html": [page.replace("<h2>Notes</h2>", "<h2>Notes: ||theta||_2</h2>", 1),
                 page.replace("<h2>Notes</h2>", "<h2>Notes: N**3 &gt;= d</h2>", 1)],
        "latex": [tex.replace("\\caption{", "\\caption{x\\_hat ", 1),
                  tex.replace("\\caption{", "\\caption{a \\textless{}= b ", 1)],
    }
    for kind, texts in planted.items():
        for t in texts:
            assert scan(kind, t), (kind, t[:200])
    inside = {"markdown": md.replace("Notes:", "Notes: $x_{hat} \\leq \\sqrt{n}$ `x_hat <= sqrt(n)`", 1),
              "html": page.replace("<h2>Notes</h2>", "<h2>Notes <code>x_hat &lt;= sqrt(n)</code></h2>", 1),
              "latex": tex.replace("\\caption{", "\\caption{\\texttt{x\\_hat} $x_{\\hat{}}$ ", 1)}
    for kind, t in inside.items():
        assert scan(kind, t) == [], kind
    known = known_arxiv_ids()
    assert rounded_ids("Deora et al. (arXiv 2310.13)", known) == ["arXiv 2310.13"]
    assert rounded_ids("arXiv:2.31e3 and https://arxiv.org/abs/2310.127", known) == ["arXiv:2.31e3",
                                                                                     "arxiv.org/abs/2310.127"]
    assert rounded_ids("arXiv:2310.12680, arXiv 2110.10090", known) == []
