"""The one whitelist of LaTeX math (expr/latex_tokens.py): what is refused and why, in
TeX's words where TeX refuses it, and what real formula files hold passes."""
import pytest

from boundcalc.expr.latex_tokens import MATH_COMMANDS, math_error


@pytest.mark.parametrize("tex, why", [
    (r"\delta \input{/etc/passwd}", r"\input"), (r"\include{x}", r"\include"), (r"\openin5=x", r"\openin"),
    (r"\openout5=x", r"\openout"), (r"\write18{ls}", r"\write"), (r"\immediate", r"\immediate"),
    (r"\catcode`\^=7", r"\catcode"), (r"\def\x{1}", r"\def"), (r"\csname input\endcsname", r"\csname"),
    (r"\read5 to\x", r"\read"), (r"\special{x}", r"\special"), (r"\let\a\b", r"\let"),
    (r"\newcommand{\a}{b}", r"\newcommand"), (r"\usepackage{x}", r"\usepackage"), (r"\loop", r"\loop"),
    (r"\begin{x}", r"\begin"), ("x ^^5c input", "'^^'"), ("x % comment", "'%'"), ("x # 1", "'#'"),
    ("a & b", "'&'"), ("x $ y", "'$'"), ("x@y", "'@'"), (r"a \\ b", "line break"), ("a\x1b]0;t\x07", "U+001B"),
    ("é", "not ASCII"), (r"2^3^4", "Double superscript"), (r"x^{y}^{2}", "Double superscript"),
    (r"x^2'", "Double superscript"), (r"x_1_2", "Double subscript"), (r"{x", "Missing } inserted"),
    (r"x}", "Extra }"), (r"\left( x", r"Missing \right."), (r"x \right)", r"Extra \right"), (r"x^", "Missing {"),
    (r"\left x \right)", "Missing delimiter"), ("\\", "control symbol"),
])
def test_refused(tex, why):
    msg = math_error(tex)
    assert msg and why in msg and "\n" not in msg, (tex, msg)


@pytest.mark.parametrize("tex", [
    r"x^2_3", r"x_3^2", r"x'^2", r"{x^2}^3", r"\left\| x \right\|_2^2", r"\left. x \right|_{0}", r"\%",
    r"\|\tilde\theta\|_{2,\infty}", r"\mathcal R_S(\mathcal F)", r"\text{if } x \ge 0", r"\frac{a}{b}^2",
    r"\sum_{i=1}^{n} \Big(\frac{x_i}{2}\Big)", r"\underbrace{x}_{\text{a}}",
])
def test_accepted(tex):
    assert math_error(tex) == "", math_error(tex)


def test_the_files_hold_only_math_and_the_list_is_math_only():
    import glob
    import tomllib
    seen = 0
    for f in glob.glob("formulas/*.toml") + glob.glob("examples/*.toml"):
        with open(f, "rb") as fh:
            d = tomllib.load(fh)
        for sec in ("formulas", "symbols"):
            for name, t in d.get(sec, {}).items():
                for field in ("latex", "printed"):
                    if field in t:
                        seen += 1
                        assert math_error(t[field]) == "", (f, name, field, math_error(t[field]))
    assert seen > 400
    for bad in ("input", "include", "write", "immediate", "catcode", "def", "csname", "read", "special", "let",
                "openin", "openout", "newcommand", "usepackage", "loop", "begin", "makeatletter", "expandafter"):
        assert bad not in MATH_COMMANDS
