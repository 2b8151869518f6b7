"""reports.numfmt (the one number formatter) and reports.escape (the one escaper per markup)."""
from fractions import Fraction
from pathlib import Path

import mpmath

from boundcalc.reports.escape import latex_escape, md_cell, md_math
from boundcalc.reports.numfmt import exact_str, fmt_human, s_cell, sci_parts, table_format, yesno

SRC = Path(__file__).resolve().parents[2] / "src" / "boundcalc"


def test_sci_parts_by_hand():
    # 2**64 = 18446744073709551616 = 1.84e19 to 3 digits
    assert sci_parts(2 ** 64) == ("", "1.84", 19)
    # 10**400 is far beyond the double range: still 1.00e400
    assert sci_parts(mpmath.mpf(10) ** 400) == ("", "1.00", 400)
    # 9.996 rounds up to 10.0, the exponent moves
    assert sci_parts(9.996) == ("", "1.00", 1)
    assert sci_parts(-Fraction(1, 7), 2) == ("-", "1.4", -1)     # -0.142857...


def test_human_and_latex_cells():
    assert fmt_human(64) == "64" and fmt_human(0.125) == "0.125" and fmt_human(None) == "-"
    assert fmt_human(-2.5e-7) == "-2.50e-7"
    assert s_cell(999) == "999" and s_cell(1000) == "1000" and s_cell(10 ** 6) == "1.00e6" and s_cell(1000.0) == "1000" and s_cell(0.0248) == "0.0248" and s_cell(-0.0) == "0" and s_cell(None) == "{--}"
    assert table_format(["-1.25e3", "10.5", "{--}"]) == "-2.2e1"
    assert yesno(None) == "-" and yesno(None, "--") == "--" and yesno(True) == "yes"


def test_exact_str_only_where_the_float_is_not_exact():
    assert exact_str(2 ** 53) is None
    assert exact_str(2 ** 53 + 1) == "9007199254740993"
    assert exact_str(0.5) is None


def test_escapers():
    assert md_cell("a|b\nc") == "a\\|b c"
    assert md_math("a|b\n  c") == "$a\\vert b c$"
    assert md_math("\\|W\\|_F") == "$\\Vert W\\Vert _F$"     # a norm, not a line break
    assert latex_escape("50% of a_b") == "50\\% of a\\_b"


# known, to be removed: expr/printing.to_markdown(table=True) escapes its code span's "|" itself
# (expr/ sits below reports/ and may not import reports.escape; md_cell should move below both)
KNOWN_ESCAPERS = {"expr/printing.py"}


def test_one_markdown_escaper():
    """No module but reports/escape.py escapes a Markdown cell by hand."""
    offenders = {p.relative_to(SRC).as_posix() for p in SRC.rglob("*.py")
                 if p.name != "escape.py" and 'replace("|", "\\\\|")' in p.read_text(encoding="utf-8")}
    assert offenders <= KNOWN_ESCAPERS, offenders - KNOWN_ESCAPERS


def test_numfmt_imports_no_printer():
    text = (SRC / "reports" / "numfmt.py").read_text(encoding="utf-8")
    assert "import sympy" not in text and "import pandas" not in text and "from .table" not in text


def test_float_or_mpf_of_a_fraction_beyond_the_double_range():
    """A Fraction too large for a double is kept as an mpf (it raised OverflowError)."""
    from fractions import Fraction

    from boundcalc.reports.numfmt import float_or_mpf
    big = float_or_mpf(Fraction(10) ** 999)
    assert isinstance(big, mpmath.mpf) and mpmath.log10(big) == mpmath.mpf(999)
    assert float_or_mpf(Fraction(-3, 4)) == -0.75 and float_or_mpf(Fraction(1, 10 ** 999)) != 0


def test_two_values_side_by_side_print_to_the_digits_that_differ():
    """Issue 35: a rise from -7.44625289589e17 to -7.44624935232e17 printed as -7.44625e17 ->
    -7.44625e17. They first differ at the 6th digit after rounding to 7: -7.446253 vs
    -7.446249 (by hand)."""
    import mpmath

    from boundcalc.reports.numfmt import differing_digits, pair_digits, restyle_number
    a, b = "-7.44625289589e+17", "-7.44624935232e+17"
    assert restyle_number(a) == restyle_number(b) == "-7.44625e17"       # the old printing
    assert differing_digits(mpmath.mpf(a), mpmath.mpf(b)) == 7
    wide = pair_digits(f"f: {a} -> {b}, compared")
    assert wide == {a: 7, b: 7}
    assert (restyle_number(a, wide[a]), restyle_number(b, wide[b])) == ("-7.446253e17", "-7.446249e17")
    assert pair_digits("1.5 -> 2.5") == {}                               # already distinct at 6 digits
    assert differing_digits(mpmath.mpf(1), mpmath.mpf(1)) == 6           # equal: the default


def test_ascii_math_prints_a_pair_to_the_digits_that_differ():
    from boundcalc.reports.latex import ascii_math_parts
    nums = [p for k, p in ascii_math_parts("f: -7.44625289589e+17 -> -7.44624935232e+17") if k == "num"]
    assert nums == ["-7.446253e17", "-7.446249e17"]
