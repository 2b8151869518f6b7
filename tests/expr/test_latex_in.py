"""Formulas from LaTeX (expr/latex_in.py): parsing into the whitelist tree, refusals, a
user file whose formulas are given by their LaTeX alone (eval, require, check, sheet), the
transcription check, and the round trip of every built-in formula through the LaTeX our
printer writes. Expected values are computed by hand with mpmath, never by the code."""
import os
from fractions import Fraction

import mpmath
import pytest

from boundcalc.errors import BoundcalcError
from boundcalc.expr import latex_in as L
from boundcalc.expr.nodes import Sym
from boundcalc.expr.printing import to_text

ENV = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDCALC") or k == "BOUNDCALC_REGISTRY_CACHE"}

SYMS = {"n": "n", "B": "B", "gamma": r"\gamma", "delta": r"\delta", "theta": r"\|\tilde\theta\|_{2,\infty}",
        "Zmu": r"Z_\mu", "Znu": r"Z_\nu", "T": "T"}


def value(tex, env, *, kind="definition", formulas=None):
    """Parse ``tex`` and evaluate the tree with mpmath at ``env`` (via the mp back end)."""
    from boundcalc.backends import mp as mpb
    node = L.parse_statement(tex, L.names(SYMS, formulas), kind=kind).node
    return mpb.evaluate(node, {k: Fraction(v) for k, v in env.items()}, digits=30)


@pytest.mark.parametrize("tex, expected", [
    # by hand: B/(gamma sqrt n) + 1/4 at B=3, gamma=1/2, n=16 -> 3/(0.5*4) + 0.25 = 1.75
    (r"\mathcal C := \frac{B}{\gamma\sqrt n} + \frac14", mpmath.mpf("1.75")),
    (r"Q = \sqrt T(B+n)", mpmath.sqrt(5) * 19),                       # TeX: \sqrt T is \sqrt{T}
    (r"\Big(\frac{B}{2}\Big)^2 \cdot 0.5", mpmath.mpf("1.125")),      # decimals exact
    (r"Z_\mu \vee Z_\nu + 1", mpmath.mpf(8)),                          # \vee lowest: max(3, 7 + 1)
    (r"2[\|\tilde\theta\|_{2,\infty}+1]", mpmath.mpf(2) * 3),          # [..] brackets, a norm symbol
    (r"\log(1/\delta) + e^{-n/16}", mpmath.log(4) + mpmath.exp(-1)),
    (r"\min(B, n) \wedge \gamma", mpmath.mpf("0.5")),
    (r"\log_2 n - |B - n|", mpmath.mpf(4) - 13),
])
def test_values_by_hand(tex, expected):
    env = {"n": 16, "B": 3, "gamma": "0.5", "delta": "0.25", "theta": 2, "Zmu": 3, "Znu": 7, "T": 5}
    got = value(tex, env)
    assert abs(got - expected) <= mpmath.mpf(10) ** -13 * abs(expected), (tex, got, expected)   # expected: 15 digits


def test_relation_and_formula_names():
    nm = L.names(SYMS, {"cap": ("definition", r"\mathcal C(\theta) := \frac{B}{\sqrt n}")})
    p = L.parse_statement(r"n \gtrsim \frac{B^2}{\gamma^2}\,\mathcal C(\theta)", nm, kind="requirement")
    assert p.op == ">=" and p.up_to_constants
    assert p.node.lhs == Sym("n") and ("cap" in {n for _, n in p.node.refs()})
    # the formula's own quantity does not name itself
    with pytest.raises(BoundcalcError, match=r"'\\\\mathcal'"):
        L.parse_statement(r"\mathcal C(\theta) := 1 + \mathcal C(\theta)", nm, kind="definition", exclude="cap")


@pytest.mark.parametrize("tex, token", [
    # (\sum_{i=1}^n B and n! are read since issue 18/22's big operators and factorial:
    # tests/expr/test_indexed.py)
    (r"\sum B", r"\sum"), (r"\mathcal O(n)", r"\mathcal"), (r"\|W\|_F + n", r"\|"),
    (r"x + n", "x"), (r"\beta_3(n)", r"\beta"), (r"!n", "!"), (r"\int B", r"\int"),
    (r"\lim_{n} B", r"\lim"),
])
def test_refused_naming_the_token(tex, token):
    with pytest.raises(BoundcalcError) as e:
        L.parse_statement(tex, L.names(SYMS), kind="definition", where="f.toml: [formulas.x] latex")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("f.toml: [formulas.x] latex") and token in msg, msg


def test_ambiguous_name_is_refused_unless_the_expression_settles_it():
    nm = L.names({"C1": "C", "C2": "C", "n": "n"})
    with pytest.raises(BoundcalcError, match="ambiguous"):
        L.parse_statement("C n", nm, kind="definition")
    node = L.parse_statement("C n", nm, kind="definition", prefer=frozenset({Sym("C2")})).node
    assert node.symbols() == {"C2", "n"}


def test_to_text_parses_back_to_the_same_value():
    from boundcalc.backends import mp as mpb
    from boundcalc.expr.parser import parse
    env = {"n": Fraction(7), "B": Fraction(3, 2), "gamma": Fraction(1, 3), "delta": Fraction(1, 5),
           "theta": Fraction(2), "Zmu": Fraction(1), "Znu": Fraction(5), "T": Fraction(3)}
    for tex in [r"-\frac{B}{\gamma^{3/2}} - (n - 1)^{-2}", r"\frac{1}{2}\log_3(n) \cdot e^{-B}",
                r"(Z_\mu - Z_\nu)^2 / (T n)", r"\max(B, -\gamma, n^{1/3})"]:
        node = L.parse_statement(tex, L.names(SYMS), kind="definition").node
        back = parse(to_text(node))
        a, b = mpb.evaluate(node, env, digits=30), mpb.evaluate(back, env, digits=30)
        assert abs(a - b) <= mpmath.mpf(10) ** -25 * abs(a), (tex, to_text(node))


# ----------------------------------------------------------------------------- a user file
USER = r"""
[paper]
key = "latexpaper"
title = "A margin bound given by its LaTeX"

[symbols.n]
description = "sample size"
latex = "n"
domain = "positive integer"

[symbols.B]
description = "norm bound"
latex = "B"
domain = "real > 0"

[symbols.gamma]
description = "margin"
latex = '\gamma'
domain = "real > 0"

[symbols.delta]
description = "failure probability"
latex = '\delta'
domain = "(0, 1)"

[formulas.capacity]
name = "Capacity term"
kind = "definition"
source = "eq. (1)"
latex = '\mathcal C := \frac{B}{\gamma\sqrt n}'

[formulas.gap]
name = "Generalization gap"
kind = "bound"
direction = "upper"
source = "Thm. 1"
latex = '\Delta \le 2\mathcal C + 3\sqrt{\frac{\log(2/\delta)}{2n}}'

[formulas.gap_typed]
name = "Generalization gap, typed by hand"
kind = "bound"
direction = "upper"
source = "Thm. 1"
expr = "2*capacity + EXPR_TAIL"
uses = ["capacity"]
latex = '\Delta \le 2\mathcal C + 3\sqrt{\frac{\log(2/\delta)}{2n}}'

[formulas.sample_req]
name = "Samples for a small capacity"
kind = "requirement"
source = "Cor. 1"
latex = 'n \ge \frac{400 B^2}{\gamma^2}'
solve_for = "n"

[settings.base]
name = "Unit margin"
source = "Cor. 1"
default = true
solve_for = "n"
values = { B = "1", gamma = "1", delta = "0.05" }
requirements = ["sample_req"]

[[checks]]
id = "gap_typed_latex"
kind = "transcription"
formula = "gap_typed"
location = "Thm. 1"
description = "the hand-typed expression of Thm. 1 states the printed LaTeX"
"""


def _cli(path, *args):
    from support import cli  # the real entry point, in this process
    return cli(["--formulas", path, *args], env=ENV)


def _write(tmp_path, tail="3*sqrt(log(2/delta)/(2*n))", extra=""):
    p = tmp_path / "latexpaper.toml"
    p.write_text(USER.replace("EXPR_TAIL", tail) + extra, encoding="utf-8")
    return p


def test_user_file_latex_only_end_to_end(tmp_path):
    path = _write(tmp_path)
    # eval: by hand 2*B/(gamma sqrt n) + 3 sqrt(log(2/delta)/(2n)) at n=1000, B=1, gamma=1/2, delta=1/20
    p = _cli(path, "eval", "latexpaper.gap", "--n", "1000", "--B", "1", "--gamma", "0.5", "--delta", "0.05")
    assert p.returncode == 0, p.stderr
    mpmath.mp.dps = 30
    want = 2 / (mpmath.mpf("0.5") * mpmath.sqrt(1000)) + 3 * mpmath.sqrt(mpmath.log(40) / 2000)
    got = mpmath.mpf(p.stdout.split("=")[1].split()[0])
    assert abs(got - want) < mpmath.mpf(10) ** -13, (p.stdout, want)
    # require: the least n with gap <= 0.1 at B = gamma = 1, delta = 0.05 is
    # ceil(((2 + 3 sqrt(log(40)/2)) / 0.1)^2), by hand
    p = _cli(path, "require", "n", "--paper", "latexpaper", "--target", "gap <= 0.1")
    assert p.returncode == 0, p.stderr
    least = int(mpmath.ceil(((2 + 3 * mpmath.sqrt(mpmath.log(40) / 2)) / mpmath.mpf("0.1")) ** 2))
    assert f"least n = {least}" in p.stdout, (p.stdout, least)
    p = _cli(path, "require", "n", "--paper", "latexpaper")          # the LaTeX-only requirement
    assert p.returncode == 0 and "least n = 400" in p.stdout, p.stdout + p.stderr
    # show: the expression read from the LaTeX, in the expression language
    p = _cli(path, "show", "latexpaper.gap")
    assert p.returncode == 0 and "expr:   2*capacity + 3*sqrt(log(2/delta)/(2*n))" in p.stdout, p.stdout
    # check: the transcription of a correctly typed expression passes
    p = _cli(path, "check", "latexpaper")
    assert p.returncode == 0 and "1 passed" in p.stdout, p.stdout + p.stderr
    # sheet: the LaTeX-only formula is stated from its parts
    p = _cli(path, "sheet", "latexpaper", "--format", "markdown")
    assert p.returncode == 0 and r"\Delta \leq \frac{2 B}{\gamma \sqrt{n}}" in p.stdout, p.stdout[-2000:]


def test_planted_transcription_error_fails_check(tmp_path):
    path = _write(tmp_path, tail="3*sqrt(log(1/delta)/(2*n))")     # log(1/delta): a slip
    p = _cli(path, "check", "latexpaper")
    assert p.returncode == 1, p.stdout + p.stderr
    assert "1 error(s)" in p.stdout and "the expression is not what the paper prints" in p.stdout, p.stdout
    # --transcription adds latex:NAME for formulas with both latex and expr (not for those
    # given by their LaTeX alone), and its re-run line runs as printed
    p = _cli(path, "check", "latexpaper", "--transcription", "--json")
    assert p.returncode == 1
    import json
    data = json.loads(p.stdout)
    ids = sorted(f["check"] for f in data["findings"] + data["passed"])
    assert ids == ["gap_typed_latex", "latex:gap_typed"], ids
    rerun = next(f["rerun"] for f in data["findings"] if f["check"] == "latex:gap_typed")
    assert rerun.startswith("boundcalc check latexpaper --only latex:gap_typed --formulas "), rerun
    from support import cli
    q = cli(rerun.split()[1:], env=ENV)
    assert q.returncode == 1 and "1 error(s)" in q.stdout, q.stdout + q.stderr


def test_latex_only_formula_up_to_constants_is_refused(tmp_path):
    path = _write(tmp_path, extra="\n[formulas.loose]\nname = \"x\"\nkind = \"requirement\"\n"
                                  "source = \"s\"\nlatex = 'n \\gtrsim B^2'\n")
    p = _cli(path, "show", "latexpaper.gap")
    assert p.returncode != 0 and "Traceback" not in p.stderr
    assert "[formulas.loose]" in p.stderr and "only up to constants" in p.stderr, p.stderr


def test_latex_only_formula_outside_the_whitelist_is_one_line(tmp_path):
    path = _write(tmp_path, extra="\n[formulas.bad]\nname = \"x\"\nkind = \"bound\"\ndirection = \"upper\"\n"
                                  "source = \"s\"\nlatex = '\\Delta \\le \\int_{0}^n B'\n")
    p = _cli(path, "eval", "latexpaper.gap", "--n", "10", "--B", "1", "--gamma", "1", "--delta", "0.5")
    assert p.returncode != 0 and "Traceback" not in p.stderr
    line = p.stderr.strip()
    assert "\n" not in line and "latexpaper.toml" in line and "[formulas.bad]" in line and r"\int" in line, line


# ----------------------------------------------------------------------------- built-ins
def _transcription(name):
    """The typed spec of a transcription check of formula ``name`` (registry/checks.py)."""
    from boundcalc.registry.checks import Transcription
    return Transcription(id="t", kind="transcription", formula=name, location="", description="")


def test_transcription_of_built_in_formulas():
    from boundcalc.registry import get_registry
    from boundcalc.services.check import _run_kind
    from boundcalc.services.check.common import Finding
    reg = get_registry()

    def run(key, name):
        f = Finding(key, "t", "transcription", "ok", "", "")
        _run_kind(reg, reg.paper(key), _transcription(name), f)
        return f
    assert run("deora2023", "beta2").severity == "ok"          # \beta_2 := \frac1{\sqrt H}\beta_3 + \frac14\beta_1^2
    assert run("deora2023", "gamma_star").severity == "ok"     # \bar Z is the formula Zbar the expr uses
    f = run("deora2023", "heads_prop2")                        # printed \gtrsim, expr with the constant C
    assert (f.severity, f.reason) == ("note", "up to constants"), f.message
    f = run("deora2023", "heads_sec7")                         # H = \mathcal O(...): nothing compared
    assert (f.severity, f.reason) == ("note", "not parsed") and r"\mathcal" in f.message


def _round_trip_failures():
    """Every built-in formula: the LaTeX our printer writes for its expression (symbols in
    their own LaTeX, references inlined) parsed back, compared with SymPy (exact equality of
    the SymPy forms, else simplify(a - b) == 0; relations: same type and lhs - rhs)."""
    import sympy as sp

    from boundcalc.api import Formula
    from boundcalc.backends.sym import to_sympy
    from boundcalc.registry import get_registry
    reg = get_registry()
    ok, refused, differ = 0, {}, []
    for key in reg.papers:
        p = reg.paper(key)
        nm = L.names({n: s.latex for n, s in p.symbols.items()})
        for spec in reg.all_specs(key):
            f = Formula(spec, reg)
            try:
                node = L.parse_statement(f.latex(), nm, kind="claim" if f.is_relation else "definition",
                                         where=f.id, prefer=frozenset(Sym(n) for n in f.expr.symbols())).node
            except BoundcalcError as e:
                refused[f.id] = str(e)
                continue
            syms: dict = {}
            a, b = to_sympy(f.expr, syms), to_sympy(node, syms)
            if f.is_relation:
                same = a == b or (type(a) is type(b) and sp.simplify((a.lhs - a.rhs) - (b.lhs - b.rhs)) == 0)
            else:
                same = a == b or sp.simplify(a - b) == 0
            if same:
                ok += 1
            else:
                differ.append(f.id)
    return ok, refused, differ


def test_every_built_in_formula_round_trips_through_its_latex():
    ok, refused, differ = _round_trip_failures()
    assert not differ, differ
    # every symbol's LaTeX is unique in its file (the loader refuses a shared one), so every
    # formula is read back: none refused, none ambiguous
    assert not refused, refused
    assert ok >= 227, (ok, len(refused))


def test_transcription_of_a_latex_only_formula_cannot_fail(tmp_path):
    from boundcalc.registry import get_registry
    from boundcalc.services.check import _run_kind
    from boundcalc.services.check.common import Finding
    reg = get_registry([str(_write(tmp_path))])
    spec = reg.spec("latexpaper.gap")
    assert spec.from_latex and spec.text == "2*capacity + 3*sqrt(log(2/delta)/(2*n))"
    f = Finding("latexpaper", "t", "transcription", "ok", "", "")
    _run_kind(reg, reg.paper("latexpaper"), _transcription("gap"), f)
    assert f.severity == "cannot fail", f.message


def test_statement_forms():
    nm = L.names(SYMS)
    # 'value >= Q': the quantity on the right is not taken for the value
    p = L.parse_statement(r"\frac{B}{2} \ge \gamma", nm, kind="definition")
    assert to_text(p.node) == "B/2" and p.op == "<="
    # a chain keeps its other values for the transcription check
    p = L.parse_statement(r"\gamma = B + n \le 2B", nm, kind="bound")
    assert p.chained and to_text(p.node) == "2*B" and [to_text(o) for o in p.others] == ["B + n"]
    # a where-clause is not one formula
    with pytest.raises(BoundcalcError, match="top level"):
        L.parse_statement(r"\gamma = B n,\quad n \ge 64", nm, kind="definition")
