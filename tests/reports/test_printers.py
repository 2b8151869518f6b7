"""reports/printers: the format -> printer table, the class dispatch, and the check
evidence in the paper's notation (issue 17, item 8)."""
import json
import pickle

import pytest
import sympy as sp

from boundcalc.errors import BoundcalcError
from boundcalc.reports.printers import FORMATS, printer, render
from boundcalc.reports.printers import evidence as ev
from boundcalc.reports.table import Row, Table
from boundcalc.services.check.common import Finding, Shown


def _table():
    return Table("demo", "a bound", {"n": 10}, 0,
                 [Row("loss", "Thm. 1", bound=2 ** 64 + 1, measured=0.5, note="n | m"),
                  Row("eta", "Sec. 2", bound=0.25, measured=0.125, kind="condition")])


def test_each_format_prints_the_table_as_its_method_does():
    t = _table()
    assert render(t, "markdown") == t.to_markdown()
    assert render(t, "latex", label="tab:x") == t.to_latex(label="tab:x")
    assert render(t, "csv") == t.to_csv()
    assert render(t, "html") == t._repr_html_()
    assert json.loads(render(t, "json")) == json.loads(json.dumps(t.to_json()))
    # 2**64 + 1 = 18446744073709551617: 1.84e19 for people, exact in the JSON (a float is not)
    assert "1.84e19" in render(t, "text") and r"n $\vert$ m" in t.to_markdown()
    assert t.to_json()["rows"][0]["bound_exact"] == "18446744073709551617"


def test_unknown_format_and_unknown_record_are_errors():
    with pytest.raises(BoundcalcError, match="unknown format 'yaml'"):
        printer("yaml")
    for fmt in FORMATS:
        if fmt == "json":
            continue
        with pytest.raises(BoundcalcError, match=f"no {fmt} printer for object"):
            render(object(), fmt)


def test_name_subterms_fit_and_substitute_back():
    x, y, z = sp.symbols("eta_K d_s N", positive=True)
    inner = sp.log(sp.sqrt(z) * x / (sp.sqrt(y) * (x ** sp.Rational(2, 3) + 1) ** sp.Rational(3, 2))) + 1
    a = inner * x * sp.sqrt(y) * (x ** sp.Rational(2, 3) * y + 1) ** sp.Rational(3, 2) * sp.sqrt(sp.log(z * y)) / z ** 3
    b = a * z ** sp.Rational(5, 2)
    assert len(ev.text(a)) > 60
    defs, out = ev.name_subterms({"a": a, "b": b}, limit=60)
    assert defs
    for e in list(out.values()) + [d for _, d in defs]:
        assert len(ev.text(e)) <= 60
    back = {}
    for sym, sub in reversed(defs):          # later names may use earlier ones
        back[sym] = sub
    for k, e in out.items():
        for sym, sub in reversed(defs):
            e = e.xreplace({sym: sub})
        assert sp.simplify(e - {"a": a, "b": b}[k]) == 0
    # the same subterm gets the same name in both expressions
    assert set(out["a"].free_symbols) & set(out["b"].free_symbols) & {s for s, _ in defs}


def test_notation_of_expressions_and_points():
    x, y = sp.symbols("eta_K d_s", positive=True)
    e = x * sp.sqrt(y)
    assert ev.latex(e, {"eta_K": r"\eta_K"}) == r"\sqrt{d_{s}} \eta_K"
    assert ev.text(e) == "√(d_s)·η_K"
    assert ev.text(x ** 2 / y) == "η_K^2/d_s"
    assert ev.value_latex("1000000000000") == "10^{12}"
    assert ev.value_latex("1/1000000000") == "10^{-9}"
    assert ev.value_latex("3/10") == r"\tfrac{3}{10}"
    assert ev.value_latex("9.08e-17") == r"9.08 \times 10^{-17}"
    assert ev.value_latex("1234") == "1234" and ev.value_latex("20000") == "20000"
    assert ev.value_text("-1/1000") == "-10⁻³" and ev.value_text("9.08e-17") == "9.08×10⁻¹⁷"
    pt = {"eta_K": "1/1000", "N": "100000", "lhs": "0.5"}
    assert ev.point_latex(pt, {"eta_K": r"\eta_K"}) == r"\eta_K = 10^{-3},\ N = 10^{5},\ \text{lhs} = 0.5"
    assert ev.point_text(pt) == "η_K = 10⁻³, N = 10⁵, lhs = 0.5"


def test_finding_keeps_sympy_text_in_json_and_typesets_in_markdown():
    from boundcalc.reports.printers.markdown import MarkdownPrinter
    x = sp.Symbol("eta_K", positive=True)
    shown = Shown(str(2 * x), 2 * x, {"eta_K": r"\eta_K"})
    f = Finding("p", "c", "derivation", "error", "Thm. 1", "msg",
                evidence={"claim": shown, "counterexample": {"eta_K": "1/1000"}},
                notation={"eta_K": r"\eta_K"})
    d = json.loads(json.dumps(f.to_json()))
    assert d["evidence"]["claim"] == "2*eta_K" and "notation" not in d
    lines = MarkdownPrinter()._finding(f, "")
    assert r"  claim: $2 \eta_K$  " in lines
    assert r"  counterexample: $\eta_K = 10^{-3}$  " in lines
    # the worker processes of `check --jobs` pickle findings
    back = pickle.loads(pickle.dumps(shown))
    assert back == "2*eta_K" and back.expr == 2 * x and back.names == {"eta_K": r"\eta_K"}


def test_readable_exponents_survive_an_ascii_stream():
    """The readable counterexample uses superscripts; a non-UTF-8 stream spells a run of
    them as one exponent (10⁵ once became 105, 10¹² became 10^1^2)."""
    from boundcalc.cli.output import to_ascii
    assert to_ascii(ev.point_text({"N": "100000", "eta_K": "1/1000000000", "lhs": "9.08e-17"})) \
        == "N = 10^5, eta_K = 10^-9, lhs = 9.08x10^-17"


def test_every_record_has_a_printer_in_each_of_its_formats():
    """The records x formats the CLI and the API print: a missing ``_print_<Class>`` fails
    here, not at run time."""
    from boundcalc.experiments import ReproductionListing
    from boundcalc.prover.decide import Decision
    from boundcalc.reports.printers.csv import CsvPrinter
    from boundcalc.reports.printers.html import HtmlPrinter
    from boundcalc.reports.printers.json import JsonPrinter
    from boundcalc.reports.printers.latex import LatexPrinter
    from boundcalc.reports.printers.markdown import MarkdownPrinter
    from boundcalc.reports.printers.rich import RichConsolePrinter, RichPrinter
    from boundcalc.reports.printers.text import TextPrinter
    from boundcalc.services.asymptotic import AsymptoticResult
    from boundcalc.services.check import Report
    from boundcalc.services.formula import Evaluation, FormulaDetails, FormulaListing
    from boundcalc.services.monotone import MonotoneResult
    from boundcalc.services.require import RequireResult
    from boundcalc.services.simplify import Simplified
    from boundcalc.services.verify import VerifyResult
    matrix = {Table: (TextPrinter, RichPrinter, RichConsolePrinter, MarkdownPrinter, LatexPrinter, CsvPrinter,
                      JsonPrinter, HtmlPrinter),
              Report: (RichConsolePrinter, MarkdownPrinter, CsvPrinter, JsonPrinter, HtmlPrinter),
              Finding: (JsonPrinter,), Row: (JsonPrinter,),
              VerifyResult: (TextPrinter, JsonPrinter), MonotoneResult: (TextPrinter, JsonPrinter),
              AsymptoticResult: (TextPrinter, JsonPrinter), Decision: (JsonPrinter,),
              RequireResult: (RichConsolePrinter, JsonPrinter),
              # list / show / eval / simplify: the CLI builds none of their output
              FormulaListing: (RichConsolePrinter, JsonPrinter), FormulaDetails: (RichConsolePrinter, JsonPrinter),
              Evaluation: (TextPrinter, JsonPrinter), Simplified: (TextPrinter, JsonPrinter),
              ReproductionListing: (RichConsolePrinter, JsonPrinter)}
    missing = [(rec.__name__, p.__name__) for rec, ps in matrix.items() for p in ps if not p.handles(rec)]
    assert missing == []
    assert not TextPrinter.handles(Report) and not LatexPrinter.handles(Finding)


def _drawn(width: int) -> str:
    import io

    from rich.console import Console
    t = Table("demo", "a bound whose title is longer than a narrow terminal's line: " + "title " * 12, {"n": 10}, 0,
              [Row("first-phase error ||p|| (P used in (7))", "Lemma 2, eq. (6)", bound=0.0248, measured=0.0124,
                   hypotheses_met=True, hypotheses="almost surely, given ||p|| <= P",
                   note="a note long enough to need more than one line of a narrow terminal: " + "word " * 30)])
    # soft_wrap as the CLI's console (cli.output.console): text is not wrapped by rich itself
    c = Console(width=width, file=io.StringIO(), color_system=None, record=True, soft_wrap=True)
    c.print(t.to_rich())
    return c.export_text()


@pytest.mark.parametrize("width", [80, 100])
def test_a_narrow_terminal_gets_a_stacked_table(width):
    """Issue 34 (8): at 80 columns the eight columns were one character wide. Below
    STACK_BELOW columns each row is a block: the quantity whole on its line, then one field a
    line with its label whole (values by hand: 0.0248/0.0124 = 2.00)."""
    text = _drawn(width)
    lines = [x.rstrip() for x in text.splitlines()]
    assert max(len(x) for x in lines) <= width          # the notes wrapped too (they were one line)
    assert any("a note long enough" in x for x in lines) and sum("word" in x for x in lines) >= 2
    assert "first-phase error ||p|| (P used in (7))" in lines
    for label, value in (("source", "Lemma 2, eq. (6)"), ("bound", "0.0248"), ("measured", "0.0124"),
                         ("bound/measured", "2.00"), ("hypotheses met", "yes (almost surely, given ||p|| <= P)")):
        assert any(x.startswith(label) and x.endswith(value) for x in lines), (label, text)


def test_a_wide_terminal_gets_the_table_side_by_side():
    text = _drawn(160)
    header = next(x for x in text.splitlines() if "quantity" in x)
    for c in ("quantity", "source", "bound", "measured", "bound/measured", "holds", "hypotheses met"):
        assert c in header, header


def test_the_terminal_report_has_one_notation():
    """Issue 34 (8): `check` in a terminal mixed SymPy's d**(3/2) in the message, the formula
    file's theta in the location and the evidence's √(2)·θ: every line of a finding is now in
    the notation of its expressions (powers ^, products ·, √, Greek letters), a quoted $...$
    of the paper as written."""
    import io

    from rich.console import Console

    from boundcalc.reports.printers.rich import RichConsolePrinter
    t, z = sp.symbols("T Z_nu", positive=True)
    f = Finding("p", "c", "order", "error", "Thm. 1 (rho <~ d^{3/2} ||theta||^2)",
                "stated O(d**(3/2)*T**(3/2)) fails as d -> oo; Z_nu == Z_mu holds",
                evidence={"a": Shown(str(sp.sqrt(2) * sp.sqrt(t) * z), sp.sqrt(2) * sp.sqrt(t) * z, {}),
                          "quote": "such that $Z_\\mu = Z_\\nu$"})
    out = io.StringIO()
    RichConsolePrinter(console=Console(file=out, width=200, highlight=False))._finding(f)
    text = out.getvalue()
    assert "— Thm. 1 (ρ <~ d^{3/2} ||θ||^2)" in text
    assert "stated O(d^(3/2)·T^(3/2)) fails as d -> ∞; Z_ν = Z_μ holds" in text
    assert "side a: √(2)·√(T)·Z_ν" in text and "$Z_\\mu = Z_\\nu$" in text
    assert "**" not in text and "==" not in text and "sqrt(" not in text


def test_readable_keeps_a_quotes_bold_and_latex():
    assert ev.readable("quote = **Sparsity level:** the $\\zeta T$ tokens; d**2 == x*y") == \
        "quote = **Sparsity level:** the $\\zeta T$ tokens; d^2 = x·y"
