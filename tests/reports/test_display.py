"""reports/display: long displays broken over lines, never scaled (issue 34, item 1). The
sheets that use it compile with no overfull box in one and two columns
(tests/reports/test_sheet.py, tests/reports/test_latex_output.py)."""
import re
import shutil
import subprocess

import pytest


@pytest.mark.parametrize("tex, broken", [
    # a \left group outside braces is sized by hand (its inside may break), after a factor a
    # discretionary times; one inside a fraction's braces stays
    (r"C \left(a + b\right)^{2}", r"C\*\bigl(a+b\bigr)^{2}"),
    (r"\left(\frac{a}{b} + c\right)", r"\biggl(\frac{a}{b}+c\biggr)"),
    (r"\frac{\left(a+b\right)}{c}", r"\frac{\left(a+b\right)}{c}"),
    # a small parenthesised factor is one unit; a max list may break after its commas
    (r"(a + b)(c + d)", r"{(a+b)}\*{(c+d)}"),
    (r"\max(a, b)", r"\max(a,\allowbreak b)"),
    (r"\left.x\right|_{0}", r"\left.x\right|_{0}"),
])
def test_breakable_displays(tex, broken):
    """The breakable form of a display (expected strings by hand): the same math, only
    the delimiters' sizing and break points change."""
    from boundcalc.reports.display import breakable
    assert breakable(tex) == broken


def test_display_macro_sets_the_breakable_form_as_its_second_argument():
    from boundcalc.reports.display import MACROS, display
    assert display(r"a \left(b+c\right)") == r"\bcdisplay{a \left(b+c\right)}{a\*\bigl(b+c\bigr)}"
    assert r"\newcommand\bcdisplay[2]" in MACROS and "resizebox" not in MACROS and "scale" not in MACROS


LONG_SUM = " + ".join(rf"\frac{{x^{{{k}}}}}{{{k + 1}}}" for k in range(1, 1501))


def test_a_display_too_long_to_measure_is_set_broken():
    # a 1500-term sum is ~55,000 pt wide: past 32768 pt TeX's box width wraps round (it
    # measured -10900 pt) and \ifdim found it narrower than the line, so the sheet set it in
    # one box off the page, without a word
    from boundcalc.reports.display import LONG, display
    assert len(LONG_SUM) > LONG
    out = display(LONG_SUM)
    assert out.startswith(r"\par\bcbroken{") and r"\bcdisplay" not in out
    assert display("a + b").startswith(r"\bcdisplay{")


@pytest.mark.skipif(not shutil.which("pdflatex") or not shutil.which("pdftotext"), reason="needs pdflatex, pdftotext")
@pytest.mark.parametrize("how", ["display", "macro"])
def test_the_long_sum_is_on_the_page(tmp_path, how):
    """Compiled: every term of the long sum is on the pages, through display() and through
    \\bcdisplay itself (its width test with the wrapped-round width)."""
    from boundcalc.reports.display import MACROS, breakable, display
    body = display(LONG_SUM) if how == "display" else rf"\bcdisplay{{{LONG_SUM}}}{{{breakable(LONG_SUM)}}}"
    (tmp_path / "d.tex").write_text("\\documentclass{article}\n" + MACROS + "\n\\begin{document}\n" + body
                                    + "\n\\end{document}\n", encoding="utf-8")
    subprocess.run(["pdflatex", "-no-shell-escape", "-interaction=nonstopmode", "d.tex"], cwd=tmp_path,
                   capture_output=True, timeout=300, check=False)
    log = (tmp_path / "d.log").read_text(errors="replace")
    assert "BOUNDCALC broken=1" in log and not re.findall(r"(?m)^! ", log)
    text = subprocess.run(["pdftotext", str(tmp_path / "d.pdf"), "-"], capture_output=True, text=True,
                          check=False).stdout
    assert "1501" in text and "751" in text       # the last denominator, and one in the middle
