"""reports/display: long displays broken over lines, never scaled (issue 34, item 1). The
sheets that use it compile with no overfull box in one and two columns
(tests/reports/test_sheet.py, tests/reports/test_latex_output.py)."""
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
