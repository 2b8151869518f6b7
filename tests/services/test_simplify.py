"""services/simplify.py: the simplified form is equivalent."""
import boundcalc


def test_simplify_returns_equivalent_form():
    s = boundcalc.formula("deora2023.beta2").simplify()
    assert "H" in s.simplified and s.latex
