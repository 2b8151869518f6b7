"""reports/mathml.py: LaTeX -> MathML (latex2mathml), a failed conversion shown as merror."""
from __future__ import annotations

from boundcalc.reports import mathml


def test_mathml_converts_and_marks_failures():
    out = mathml.math(r"\frac{\sqrt{N}}{\eta_{K}}", block=True)
    assert out.startswith("<math") and 'display="block"' in out and "<mfrac>" in out and "<msqrt>" in out
    assert "&#x003B7;" in out                      # eta, as a character
    # latex2mathml keeps an unknown command as text: that is a failure, shown as merror
    bad = mathml.math(r"\foo{x} + 1")
    assert "<merror>" in bad and r"\foo{x} + 1" in bad
    mixed = mathml.text_with_math(r"if $d_m \geq N^3$ and <b> then")
    assert mixed.startswith("if <math") and mixed.endswith(" and &lt;b&gt; then") and "&#x02265;" in mixed



def test_a_quote_of_bare_latex_is_math():
    """A hypothesis quoted from a display without its $ (anon2025's App. A chain,
    '\\|w_O\\|_2 <= eta_O \\\\ \\|W_V\\|_F <= eta_V') is math, one piece per line, on the HTML
    page with no backslash left as text."""
    import re

    from boundcalc.reports.latex import quote_parts
    from boundcalc.reports.printers.html import _quote
    q = r"\|\mathbf{w}_O\|_2 \leq \eta_O \\ \|\mathbf{W}_V\|_F \leq \eta_V"
    assert quote_parts(q) == [("math", r"\|\mathbf{w}_O\|_2 \leq \eta_O"), ("text", ", "),
                              ("math", r"\|\mathbf{W}_V\|_F \leq \eta_V")]
    got = _quote(q)
    assert got.count("<math") == 2 and "merror" not in got and "<code>" not in got
    assert not any("\\" in t for t in re.findall(r">([^<]*)<", got))
    assert "&#x02264;" in got                                        # the sign, typeset
