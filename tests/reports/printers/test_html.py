"""The HTML page (reports/printers/html.py) without a browser: the page is self-contained,
holds every finding with its parts, the CLI refuses to overwrite a page, and the numeric
commands do not load latex2mathml. The page in a real browser: test_html_browser.py beside
this file; the LaTeX -> MathML conversion: tests/reports/test_mathml.py."""
from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

from boundcalc.cli.app import app
from boundcalc.errors import BoundcalcError
from boundcalc.reports.printers.html import to_html
from boundcalc.reports.table import Row, Table
from boundcalc.services.check import run_checks


class _Refs(HTMLParser):
    """Every attribute that could fetch something, every element, every text piece."""

    def __init__(self):
        super().__init__()
        self.refs, self.tags, self.text = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("src", "href", "srcset", "data", "poster", "action", "background") and v is not None:
                self.refs.append((tag, k, v))

    def handle_data(self, data):
        self.text.append(data)


def parse(page: str) -> _Refs:
    p = _Refs()
    p.feed(page)
    return p


@pytest.fixture(scope="module")
def report():
    # an error with a counterexample (and its consequence), hypotheses at a point, a pass
    return run_checks(only=["anon2025.lemma1_vs_its_proof", "anon2025.lemma1_from_lemma2",
                            "anon2025.vacuity_theorem5_table1", "anon2025.lemma6_frobenius_form"])


def test_report_page_is_self_contained(report):
    page = to_html(report, page=True)
    p = parse(page)
    assert p.refs == [(t, k, v) for t, k, v in p.refs if k == "href" and v.startswith("#")]   # in-page links only
    assert "url(" not in page and "@import" not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/1998/Math/MathML"', "")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert p.tags.count("article") == len(report.findings) == 3
    assert "merror" not in p.tags and p.tags.count("math") >= 5
    assert not any("\\" in t for t in p.text if not t.lstrip().startswith(("(function", "\n(function")))
    # the finding's parts: grade, claim sides, counterexample, hypotheses at the point, re-run, evidence
    art = page[page.index('id="anon2025.lemma1_vs_its_proof"'):]
    art = art[:art.index("</article>")]
    for part in ("side a", "side b", "counterexample", 'class="rerun"',
                 "boundcalc check anon2025 --only lemma1_vs_its_proof", "<details class=\"evidence\">"):
        assert part in art, part
    vac = page[page.index('id="anon2025.vacuity_theorem5_table1"'):]
    vac = vac[:vac.index("</article>")]
    assert "Hypotheses at the point" in vac and re.search(r'class="holds-false">fails<', vac)
    assert 'data-grade="error"' in page and 'data-paper="anon2025"' in page
    # the consequence follows its root and links to it
    assert page.index('id="anon2025.lemma1_vs_its_proof"') < page.index('id="anon2025.lemma1_from_lemma2"')
    assert 'href="#anon2025.lemma1_vs_its_proof"' in page
    # the pass is listed, collapsed
    assert "anon2025.lemma6_frobenius_form" in page[page.index('id="passed"'):]


def test_table_page_without_pandas_or_sympy():
    code = ("import sys\nfrom boundcalc.reports.table import Row, Table\n"
            "from boundcalc.reports.printers.html import to_html\n"
            "t = Table('deora2023', 'demo', {'H': 4}, 0, [Row('margin gamma_NTK', 'Prop. 2', bound=2.0, "
            "measured=1.0), Row('x', 'y', bound=1.0, measured=2.0, latex=r'\\|\\theta\\|')])\n"
            "page = to_html(t, page=True, command='boundcalc compare deora2023 --html x.html')\n"
            "assert page.count('<math') == 2 and 'merror' not in page, page\n"
            "print(sorted(m for m in ('sympy', 'pandas', 'latex2mathml') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert p.stdout.strip() == "['latex2mathml']", p.stdout + p.stderr


def test_table_page_rows_and_colours():
    t = Table("deora2023", "demo", {"H": 4}, 3, [Row("margin", "Prop. 2", bound=2.0, measured=1.0),
                                                   Row("loss", "Thm 1", bound=0.1, measured=0.3)])
    page = to_html(t, page=True)
    rows = re.findall(r"<tr>(.*?)</tr>", page[page.index("<tbody>"):])
    assert len(rows) == 2
    assert 'class="holds-true">yes<' in rows[0] and 'class="holds-false">no<' in rows[1]


def test_check_html_refuses_to_overwrite(tmp_path):
    page = tmp_path / "r.html"
    page.write_text("mine")
    r = CliRunner().invoke(app, ["check", "anon2025", "--only", "lemma6_P_form", "--html", str(page)])
    assert isinstance(r.exception, BoundcalcError) and "already exists; use --force" in str(r.exception)
    assert page.read_text() == "mine"
    r = CliRunner().invoke(app, ["check", "anon2025", "--only", "lemma6_P_form", "--html", str(page), "--force"])
    assert r.exit_code == 0, r.output
    written = page.read_text()
    assert written.startswith("<!DOCTYPE html>") and "lemma6_P_form" in written
    assert "boundcalc check anon2025 --only lemma6_P_form --html " in written
    r = CliRunner().invoke(app, ["check", "anon2025", "--html", "-"])
    assert isinstance(r.exception, BoundcalcError) and "--html" in str(r.exception)


def test_numeric_command_does_not_load_latex2mathml():
    code = ("import sys, io, contextlib\nsys.argv=['boundcalc','require-heads','--d','16','--T','8']\n"
            "from boundcalc.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n  try: main()\n  except SystemExit: pass\n"
            "import boundcalc.reports.printers.html, boundcalc.reports.mathml\n"
            "print(sorted(m for m in ('latex2mathml', 'sympy', 'pandas') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert p.stdout.strip() == "[]", p.stdout + p.stderr


def test_findings_text_is_in_the_papers_notation():
    """A finding's message, note and added assumptions name the paper's symbols by their
    declared LaTeX (tarzanagh2023's gamma_opt is \\gamma_i, as the counterexample beside it
    prints it), not by a guess from the name (gamma_opt as γ_{opt}, issue 34 item 10), and the
    note's ASCII math (||p||) is typeset."""
    rep = run_checks(only=["tarzanagh2023.logistic_derivative_approx"])
    page = to_html(rep, page=True)
    art = page[page.index('id="tarzanagh2023.logistic_derivative_approx"'):]
    art = art[:art.index("</article>")]
    assert "<mi>opt</mi>" not in art and ">opt<" not in art
    gamma_i = re.compile(r"<msub><mi>(?:γ|&#x003B3;)</mi><mi>i</mi></msub>")
    msg = art[art.index('class="message"'):]
    msg = msg[:msg.index("</p>")]
    assert gamma_i.search(msg), msg[:600]
    added = [x for x in art.split('<p class="meta">') if x.startswith("added by us")]
    assert added and all(gamma_i.search(x) for x in added), added
    note = next(x for x in art.split('<p class="meta">') if x.startswith("note:"))
    assert "||p||" not in note and "<math" in note


def test_text_whose_math_does_not_typeset_is_shown_as_written():
    """A prover message cut inside an expression ("R_O**...", examples/check's
    anon2025.theorem5_union_over_integer_R) gave a MathML error box in the passed table: the
    text is shown as written instead, as code (the text scan, tests/reports/test_text_scan.py,
    reads no ASCII math as text). The prover now closes what it cuts (``sqrt(... + R_O...)``)."""
    from boundcalc.reports.printers.html import _ascii_math, _sympy_ascii
    msg = "holds [proved (SMT, after generalizing sqrt(R_Q**2 + R_K**2 + R_V**2 + R_O**...; after naming 1/delta)]"
    out = _ascii_math(_sympy_ascii(msg))           # as the passed table writes a message
    assert "<merror" not in out and out == "<code>" + _sympy_ascii(msg).replace("&", "&amp;") + "</code>"
    assert "<math" in _ascii_math("the bound sqrt(d/n) holds")          # math that typesets still does
