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
