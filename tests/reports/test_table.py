"""reports.table: Row semantics and the five formats (LaTeX compiled when pdflatex exists)."""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import boundcalc
from boundcalc.errors import BoundcalcError
from boundcalc.reports.table import Row, Table, fmt_full, fmt_human, fmt_latex_num, latex_escape

HUGE = mpmath.mpf(10) ** 400 * mpmath.mpf("1.83")


def make_table() -> Table:
    b1 = boundcalc.formula("deora2023.beta1").evaluate(T=4, R=1, theta_2inf=1, digits=20)  # = 6
    return Table("deora2023", "Multi-head attention_demo", {"H": 64, "eta_1": 0.1, "n": 100}, 7, [
        Row("NTK margin θ after phase 1", "Prop. 2, eq. (7)", bound=HUGE, measured=0.25,
            formula="deora2023.x", constant="up to absolute constant C (= 1)"),
        Row("beta_1 (100% of the budget)", "Cor. 1", bound=b1, measured=6.5, formula="deora2023.beta1",
            constant="exact constant"),
        Row("heads H", "Thm 1", bound=1.83e19, measured=64, kind="condition",
            hypotheses="needs H >= 1.8e19, used H = 64"),
        Row("test error", "Thm 2", bound=0.1, measured=0.05, kind="lower"),
        Row("steps", "Sec. 4", bound=None, measured=np.float64(1e-3), kind="info", note="just info"),
    ], notes=["seed & settings recorded"])


def test_row_semantics():
    t = make_table()
    huge, beta, heads, err, info = t.rows
    assert huge.holds is True and isinstance(huge.ratio, mpmath.mpf)
    assert mpmath.almosteq(huge.ratio, HUGE * 4, rel_eps=mpmath.mpf(10) ** -14)
    assert beta.bound == 6 and beta.holds is False and beta.ratio == pytest.approx(6 / 6.5)
    assert heads.holds is False and heads.hypotheses_met is False
    assert heads.ratio == pytest.approx(1.83e19 / 64)
    assert err.holds is False                     # lower bound 0.1 > measured 0.05
    assert info.holds is None and info.ratio is None
    assert Row("a", "b", bound=Fraction(1, 4), measured=0.25).holds is True   # equality holds
    assert Row("a", "b", bound=float("nan"), measured=1.0).holds is None
    assert Row("a", "b", bound=1, measured=2, holds=True).holds is True     # explicit wins
    assert Row("a", "b", bound=3, measured=0.0).ratio is None
    with pytest.raises(BoundcalcError, match="kind"):
        Row("a", "b", kind="maybe")
    with pytest.raises(BoundcalcError, match="bound of row 'a'"):
        Row("a", "b", bound="12")


def test_number_formats():
    assert fmt_human(64) == "64" and fmt_human(0.125) == "0.125" and fmt_human(1.83e19) == "1.83e19"
    assert fmt_human(HUGE) == "1.83e400" and fmt_human(9.9996) == "10.0" and fmt_human(None) == "-"
    assert fmt_latex_num(HUGE) == r"\num{1.83e400}" and fmt_latex_num(-2.5e-7) == r"\num{-2.50e-7}"
    assert fmt_latex_num(64) == r"\num{64}" and fmt_latex_num(None) == "{--}"
    # full precision: a float round-trips, a huge mpf keeps 17+ digits
    assert float(fmt_full(0.1)) == 0.1 and fmt_full(3) == 3
    full = fmt_full(HUGE)
    assert full.endswith("e400") and len(full.split("e")[0].replace(".", "")) >= 17
    assert mpmath.mpf(full) == HUGE
    assert latex_escape("a_b 5% #1 & {x} θ≥1") == \
        r"a\_b 5\% \#1 \& \{x\} \ensuremath{\theta}\ensuremath{\geq}1"


def test_json_numbers_are_numbers_and_exact_values_are_kept():
    t = make_table()
    j = json.loads(json.dumps(t.to_json(), allow_nan=False))    # strict JSON: no NaN/Infinity
    assert j["paper"] == "deora2023" and j["seed"] == 7 and j["settings"]["H"] == 64
    r0, r1, r2, _r3, r4 = j["rows"]
    assert r0["bound"] is None and r0["measured"] == 0.25          # 1.83e400 has no double
    assert mpmath.almosteq(mpmath.mpf(r0["bound_exact"]), HUGE, rel_eps=mpmath.mpf(10) ** -16)
    assert mpmath.almosteq(mpmath.mpf(r0["ratio_exact"]), 4 * HUGE, rel_eps=mpmath.mpf(10) ** -16)
    assert r1["bound"] == 6.0 and r1["bound_exact"] is None        # beta_1 = 2 + 4 = 6 exactly
    assert r1["ratio"] == 6 / 6.5 and r2["bound"] == 1.83e19 and r2["holds"] is False
    assert r4["measured"] == 1e-3 and r4["bound"] is None and j["notes"] == ["seed & settings recorded"]
    for r in j["rows"]:
        assert all(isinstance(r[k], (float, type(None))) for k in ("bound", "measured", "ratio"))
    big = Row("H", "x", bound=18134244923697980226, measured=32, kind="condition").to_json()
    assert big["bound_exact"] == "18134244923697980226" and big["bound"] == 1.8134244923697980226e19


def test_csv_goes_through_the_frame():
    t = make_table()
    rows = list(csv.DictReader(io.StringIO(t.to_csv())))
    assert [r["quantity"] for r in rows] == [r.quantity for r in t.rows]
    assert float(rows[1]["bound"]) == 6.0 and float(rows[4]["measured"]) == 1e-3
    assert rows[0]["bound"] == "inf" and mpmath.mpf(rows[0]["bound_exact"]) == mpmath.mpf(HUGE)
    assert rows[2]["holds"] == "False" and rows[4]["holds"] == "" and rows[3]["kind"] == "lower"


def test_markdown_and_rich():
    t = make_table()
    md = t.to_markdown()
    # the numbers and the notes' math typeset as the LaTeX table and the page read them (issue 34)
    assert md.count("\n|") == 2 + len(t.rows) and r"$1.83\times 10^{400}$" in md and "seed 7" in md
    assert r"needs $H \geq 1.8\times 10^{19}$" in md and "- just info" not in md and "steps: just info" in md
    from rich.console import Console
    c = Console(width=200, record=True)
    c.print(t.to_rich())
    text = c.export_text()
    assert "1.83e400" in text and "Prop. 2, eq. (7)" in text and "seed 7" in text


def _validate_latex(tex: str) -> None:
    """Structure any LaTeX engine needs: balanced environments and braces, booktabs rules,
    S columns, one caption, the label."""
    envs = re.findall(r"\\(begin|end)\{(\w+)\}", tex)
    stack = []
    for kind, name in envs:
        if kind == "begin":
            stack.append(name)
        else:
            assert stack and stack.pop() == name, f"unbalanced \\end{{{name}}}"
    assert not stack
    body = re.sub(r"\\[{}%&_#$]", "", tex)
    body = "\n".join(line.split("%", 1)[0] for line in body.splitlines())
    depth = 0
    for ch in body:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0
    assert tex.index(r"\toprule") < tex.index(r"\midrule") < tex.index(r"\bottomrule")
    assert tex.count(r"\caption{") == 1 and re.search(r"\binf\b|\bnan\b|\?", tex) is None
    assert r"\label{tab:demo}" in tex and tex.count("S[table-format=") == 3


def test_latex_structure_always():
    t = make_table()
    for long in (False, True):
        tex = t.to_latex(label="tab:demo", long=long)
        _validate_latex(tex)
        assert (r"\begin{threeparttable}" in tex) != long and (r"\begin{ThreePartTable}" in tex) == long
        assert r"\cite{" in tex.split(r"\caption{")[1].split("\n")[0]
        rows = (tex.split(r"\midrule")[1].split(r"\bottomrule")[0] if not long
                else tex.split(r"\endlastfoot")[1].split(r"\end{xltabular}")[0])
        assert len(rows.strip().splitlines()) == len(t.rows)
        for row in rows.strip().splitlines():
            assert row.endswith(r"\\") and len(re.findall(r"(?<!\\)&", row)) == 5
    tex = t.to_latex(label="tab:demo")
    # numbers: 3 significant digits, huge ones keep their exponent, missing ones are text
    assert " & 1.83e400 & 0.250 & 7.32e400 & yes & -- " in tex      # 0.25: fixed-point (1e-3..1e4)
    # with full notes, the quantity of a known formula comes from its file's LaTeX, and the
    # settings are the command-line options that give them
    full = t.to_latex(label="tab:demo", notes="full")
    assert boundcalc.formula("deora2023.beta1").latex_printed.startswith(r"\beta_1(\tilde\theta)")
    assert r"$\beta_1(\tilde\theta)$" in full and r"$\beta_1(\tilde\theta)$" not in tex
    # -{}- : the T1 typewriter font would print -- as an en dash (issue 34 (5))
    assert r"Settings: \texttt{-{}-H 64}, \texttt{-{}-eta-1 0.1}, \texttt{-{}-n 100}; seed 7." in full
    # Unicode in text becomes LaTeX, never '?'
    assert latex_escape("Z̄ ≲ C · ö ☃") == (r"\ensuremath{\bar{Z}} \ensuremath{\lesssim} C "
                                         r"\ensuremath{\cdot} ö [U+2603 SNOWMAN]")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not on PATH")
@pytest.mark.parametrize("long", [False, True])
def test_latex_compiles_within_the_text_width(tmp_path, long):
    from boundcalc.reports.latex import compile_pdf, document
    tex = make_table().to_latex(label="tab:demo", long=long)
    c = compile_pdf(document(tex, bibitems=[("x", "y")]), tmp_path, "t")
    assert c.pdf.read_bytes()[:5] == b"%PDF-"
    assert c.overfull == [], c.overfull
    assert "Float too large" not in c.log


def test_ascii_math_is_typeset():
    from boundcalc.reports.latex import ascii_math
    assert ascii_math("||theta_h^(1)||") == r"\ensuremath{\| \theta_{h}^{(1)} \|}"
    assert ascii_math("gamma_*/2 <= gamma_NTK") == \
        r"\ensuremath{\gamma_{*}/2 \leq \gamma_{\mathrm{NTK}}}"
    assert ascii_math("Z_mu = Z_nu, 5% of n_test") == \
        r"\ensuremath{Z_{\mu} = Z_{\nu}}, 5\% of \ensuremath{n_{\mathrm{test}}}"
    assert ascii_math("a plain sentence (engine.data.dm1)") == "a plain sentence (engine.data.dm1)"
    t = Table("deora2023", "demo", {}, 0, [Row("B_2 = max_h ||theta_h^(1)||", "Prop. 2 (P1)", bound=2.9,
                                               measured=0.5, formula="deora2023.B2")])
    tex = t.to_latex(notes="full")
    # the paper's own LaTeX of its symbol B_2 (issue 34: names as the formula file writes them)
    assert r"\ensuremath{B_2 = \max_{h} \| \theta_{h}^{(1)} \|}" in tex       # one piece of math
    assert r"Prop. 2 (P1): $B_2$" in tex           # the formula file's LaTeX of the quantity
    assert "theta\\_h" not in tex and "||" not in tex
