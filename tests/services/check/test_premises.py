"""What a pass rests on (services/check/premises.py, issue 35): tautologies of the encoding
graded identity, assumptions added by us listed and a pass that needs one graded
conditional (``--strict``: a warning); --strength counting only the paper's side
(services/check/strength.py); a vacuity point outside the hypotheses re-searched inside them
(services/check/vacuity.py).

Each expected grade is argued by hand in the test's docstring or comment."""
import json

import pytest
from support import cli  # the real entry point, in this process

from boundcalc.services.check import run_checks
from boundcalc.services.check.premises import same_expression

SYMS = '''
results = ["Thm. 1"]

[symbols.x]
description = "x"
domain = "positive"

[symbols.y]
description = "y"
domain = "positive"

[symbols.c]
description = "c"
domain = "real"

[symbols.m]
description = "m"
domain = "integer >= 1"

[symbols.u]
description = "u"
domain = "real"

[symbols.d]
description = "d"
domain = "positive"

[formulas.F]
name = "F"
kind = "definition"
source = "Eq. (1)"
expr = "x**2 + d*y"

[formulas.G]
name = "G, printed"
kind = "definition"
source = "Eq. (2)"
expr = "x**2 + y"

[formulas.G_derived]
name = "G, derived by us"
kind = "definition"
source = "Eq. (2)"
status = "derived"
note = "F with d = 1"
expr = "x**2 + y"

[formulas.H]
name = "H, printed"
kind = "definition"
source = "Eq. (3)"
expr = "sqrt(x)/(sqrt(2)*y)"

[formulas.H_misprint]
name = "H with a misprinted prefactor, printed"
kind = "definition"
source = "Eq. (3')"
expr = "sqrt(x)/(2*y)"

[formulas.H_derived]
name = "H, derived by us from earlier displays"
kind = "definition"
source = "Eqs. (1)-(2)"
status = "derived"
note = "ours, from (1)-(2)"
expr = "x/(y*sqrt(2*x))"

[formulas.H_twice]
name = "H written again by us"
kind = "definition"
source = "Eq. (3)"
status = "derived"
note = "ours, (3) again"
expr = "sqrt(x)/(y*sqrt(2))"

[[hypotheses]]
result = "Thm. 1"
expr = "x <= 1"
quote = "Let x be at most 1."
source = "Thm. 1 (statement)"
'''


def _check(cid, body):
    return f'\n[[checks]]\nid = "{cid}"\nlocation = "l"\ndescription = "d"\n' + body


CHECKS = "".join([
    # c h + (-c) h == 0: the sides cancel on construction (SymPy's automatic collection)
    _check("cancels", 'kind = "compare"\nlhs = "c*exp(u) + (-c)*exp(u)"\nrel = "=="\nrhs = "0"\n'),
    # a derivation whose claim is the premise after the substitution, the claim written by us
    _check("defined_by_substitution", 'kind = "derivation"\nclaim = "G_derived"\npremise = "F"\n'
           'substitute = { d = "1" }\ndirection = "equal"\n'),
    # the same with a printed claim: the paper's own step, resting on the pin d = 1
    _check("pinned", 'kind = "derivation"\nclaim = "G"\npremise = "F"\nsubstitute = { d = "1" }\n'
           'direction = "equal"\n'),
    # inline, holds for every x > 0 without its premise x <= 1 (x^2 + 1 >= 2x)
    _check("holds_alone", 'kind = "compare"\ncovers = ["Thm. 1"]\nlhs = "x**2 + 1"\nrel = ">="\nrhs = "2*x"\n'),
    # its claim is its assumption divided by sqrt(m)
    _check("restates", 'kind = "compare"\nlhs = "x/sqrt(m)"\nrel = "<="\nrhs = "y/sqrt(m)"\n'
           'assume = [{ expr = "y >= x", reason = "s: \'y at least x\'" }]\n'),
    # F <= G + 1 needs d <= 1 (an assumption added by us): conditional
    _check("needs_assume", 'kind = "compare"\nlhs = "F"\nrel = "<="\nrhs = "G + 1"\nuses = ["F", "G"]\n'
           'assume = [{ expr = "d <= 1", reason = "s: \'d at most 1\'" }]\n'),
    # F >= x**2 holds whatever d > 0: the assumption is listed, not needed
    _check("assume_unneeded", 'kind = "compare"\nlhs = "F"\nrel = ">="\nrhs = "x**2"\nuses = ["F"]\n'
           'assume = [{ expr = "d <= 1", reason = "s: \'d at most 1\'" }]\n'),
    # a textbook derivative: a function of the variable alone
    _check("textbook", 'kind = "identity"\nfunction = "exp(2*u)"\nderivative = "2*exp(2*u)"\nwrt = "u"\n'
           'at = { u = "0.3" }\n'),
    # x <= 2 under the quoted x <= 1: inline, fails without it (x = 3), so not a tautology; under
    # --strength the premise mutant 'drop x <= 1' is caught: it can fail
    _check("uses_premise", 'kind = "compare"\ncovers = ["Thm. 1"]\nlhs = "x"\nrel = "<="\nrhs = "2"\n'),
    # the printed H against our derivation: they agree only by arithmetic (x/sqrt(2x) = sqrt(x/2)),
    # and a misprinted prefactor would fail (next check): a pass, not a tautology
    _check("agree_by_arithmetic", 'kind = "derivation"\nclaim = "H"\npremise = "H_derived"\ndirection = "equal"\n'),
    _check("misprinted", 'kind = "derivation"\nclaim = "H_misprint"\npremise = "H_derived"\ndirection = "equal"\n'),
    # the printed H against the same expression with its factors reordered: written twice
    _check("written_twice", 'kind = "derivation"\nclaim = "H"\npremise = "H_twice"\ndirection = "equal"\n'),
])


@pytest.fixture(scope="module")
def paper(tmp_path_factory):
    p = tmp_path_factory.mktemp("premises") / "prem.toml"
    p.write_text('[paper]\nkey = "prem"\ntitle = "t"\n' + SYMS + CHECKS, encoding="utf-8")
    return str(p)


@pytest.fixture(scope="module")
def plain(paper):
    return {r.check: r for r in run_checks("prem", formulas_path=[paper]).results}


def test_same_expression_is_automatic_collection_only():
    from boundcalc.expr.parser import parse
    assert same_expression(parse("c*exp(u) + (-c)*exp(u)"), "==", parse("0"))
    assert same_expression(parse("x + y"), "<=", parse("y + x + 1"))
    # equal only after an identity (not collected automatically): not a tautology of the encoding
    assert not same_expression(parse("(x + 1)**2"), "==", parse("x**2 + 2*x + 1"))
    assert not same_expression(parse("x"), "<=", parse("x - 1"))


@pytest.mark.parametrize("cid", ["cancels", "defined_by_substitution", "holds_alone", "restates", "textbook",
                                 "written_twice"])
def test_tautologies_of_the_encoding_are_identities_not_passes(plain, cid):
    r = plain[cid]
    assert (r.severity, r.reason) == ("identity", "tautology"), r.message
    assert "not a pass" in r.message


def test_two_expressions_agreeing_by_arithmetic_are_a_pass_that_can_fail(plain):
    """sqrt(x)/(sqrt(2) y) (printed) = x/(y sqrt(2x)) (ours) for x > 0 by arithmetic, not by
    being one tree: a pass; with the prefactor misprinted as 1/(2y) the same check fails
    (at x = y = 1: 1/sqrt(2) vs 1/2, by hand)."""
    assert plain["agree_by_arithmetic"].severity == "ok", plain["agree_by_arithmetic"].message
    assert plain["misprinted"].severity == "error", plain["misprinted"].message


def test_restating_an_assumption_names_it(plain):
    assert "its own assumptions (y >= x)" in plain["restates"].message


def test_a_pin_and_a_needed_assumption_make_a_pass_conditional(plain):
    pin = plain["pinned"]
    assert pin.severity == "conditional", pin.message
    assert pin.added == [{"assumption": "d = 1", "kind": "substitution", "needed": True,
                          "reason": "the check sets d to 1 (substitute)"}]
    need = plain["needs_assume"]
    assert need.severity == "conditional" and "d <= 1" in need.message
    assert need.added[0]["kind"] == "assume" and need.added[0]["needed"] is True


def test_an_unneeded_assumption_is_listed_and_the_pass_stays_unconditional(plain):
    r = plain["assume_unneeded"]
    assert r.severity == "ok", r.message
    assert r.added == [{"assumption": "d <= 1", "kind": "assume", "reason": "s: 'd at most 1'", "needed": False}]


def test_a_genuine_pass_under_a_quoted_hypothesis_stays_a_pass(plain):
    r = plain["uses_premise"]
    assert r.severity == "ok" and not r.added, r.message


def test_added_assumptions_in_every_output(paper, plain):
    rep = run_checks("prem", formulas_path=[paper], only=["needs_assume", "pinned"])
    d = rep.to_json()
    assert d["counts"]["conditional"] == 2
    rows = {(a["check"], a["assumption"]) for a in d["added_assumptions"]}
    assert rows == {("needs_assume", "d <= 1"), ("pinned", "d = 1")}
    md = rep.to_markdown()
    # the relation typeset as math in the one reading ($d$ = 1), not as the code's text
    assert "**conditional**" in md and "added by us (substitution): $d = 1$" in md
    assert "added by us (assume): $d \\leq 1$" in md
    from boundcalc.reports.printers.html import to_html
    html = to_html(rep, page=True)
    # the relation typeset (d ≤ 1 as MathML), not the ASCII "d <= 1"
    import re
    added = re.search(r"added by us \(assume\): (<math.*?) — the pass needs it", html)
    assert added and "<mi>d</mi>" in added.group(1) and "&#x02264;" in added.group(1), html[-3000:]
    assert "&lt;=" not in added.group(1)
    assert 'data-grade="conditional"' in html


def test_strict_grades_conditional_passes_warnings(paper):
    rep = run_checks("prem", formulas_path=[paper], only=["needs_assume"], strict=True)
    (r,) = rep.results
    assert (r.severity, r.reason) == ("warning", "added assumption") and "--strict" in r.message
    assert r.rerun.endswith("--strict")
    p = cli(["check", "prem", "--only", "needs_assume",
                        "--formulas", paper, "--strict", "--json", "--fail-on", "warning"])
    assert p.returncode == 1 and json.loads(p.stdout)["counts"]["warning"] == 1


def test_strength_counts_only_the_paper_side(paper):
    """x <= 2 under the quoted x <= 1: dropping the premise is caught (x = 3 > 2), a mutant of
    the paper's side; 'cancels' is an identity and is not mutated."""
    rep = run_checks("prem", formulas_path=[paper], only=["uses_premise", "cancels"], strength=True)
    got = {r.check: r for r in rep.results}
    st = got["uses_premise"].strength
    assert got["uses_premise"].severity == "ok"
    assert "premise: drop 'x <= 1'" in st["paper_caught"] and st["paper_killed"] == len(st["paper_caught"])
    assert got["cancels"].severity == "identity" and got["cancels"].strength is None
    assert rep.strength_counts()["paper_killed"] >= 1


def test_strength_a_pass_caught_only_by_form_mutants_cannot_fail(write_formula_file):
    """F <= 2 F (F > 0 inlined on both sides; not collected to a number, so not a tautology
    by construction): every mutant inside F, and the scalings of F, change both sides alike;
    only the flip (F >= 2 F, false) dies — a mutant of the claim's form, which dies even for
    x - x = 0: cannot fail."""
    p = write_formula_file("formonly", SYMS + _check(
        "form_only", 'kind = "compare"\nlhs = "F"\nrel = "<="\nrhs = "2*F"\nuses = ["F"]\n'))
    (r,) = run_checks("formonly", formulas_path=[str(p)], strength=True).results
    assert r.severity == "cannot fail", (r.message, r.strength)
    assert r.strength["paper_killed"] == 0 and r.strength["killed"] >= 1
    assert "flip <= -> >=" in r.strength["caught"]
    # issue 35's operators reach inside F = x^2 + d y too: a factor of d y dropped (x^2 + y <=
    # 2 (x^2 + y) holds: survives), a term's sign flipped: both sides alike, shown as the
    # claim's form and not counted — x^2 - d y <= 2 (x^2 - d y) is false at
    # x = d = y = 1 (-1 <= -2), yet only says the claim's form needs F >= 0
    everything = r.strength["caught"] + r.strength["survivors"]
    assert "lhs: factor d of a product dropped" in r.strength["survivors"], everything
    assert "rhs: sign of term 2 of a sum flipped (in a formula both sides use)" in r.strength["caught"], everything
    assert "the claim's form or our encoding" in r.message


VAC = '''
results = ["Thm. 1"]

[symbols.w]
description = "width"
domain = "positive"

[symbols.N]
description = "samples"
domain = "integer >= 1"

[formulas.cond]
name = "width condition"
kind = "requirement"
source = "Thm. 1"
expr = "w >= N**2"

[formulas.B]
name = "a bound on a loss"
kind = "bound"
bounds = "a loss"
direction = "upper"
source = "Thm. 1"
expr = "{expr}"

[[hypotheses]]
result = "Thm. 1"
requirement = "cond"
quote = "if w >= N^2"
source = "Thm. 1"

[[checks]]
id = "v"
kind = "vacuity"
covers = ["Thm. 1"]
location = "l"
description = "d"
formula = "B"
at = {{ w = "10", N = "10" }}
trivial = "1"
direction = "upper"
'''


@pytest.mark.parametrize("expr, grade", [
    # 2 + 1/w: vacuous (> 1) at w = 10 and at every w: at the point inside (w = 160 >= 100) still
    # 2 + 1/160 > 1, so the finding keeps its grade
    ("2 + 1/w", "warning"),
    # 10/w: 1 at w = 10 (vacuous), 10/160 < 1 at the point inside: it goes away there: a note
    ("10/w", "note"),
])
def test_a_vacuity_outside_the_hypotheses_is_re_searched_inside(write_formula_file, expr, grade):
    p = write_formula_file("vac", VAC.format(expr=expr))
    (r,) = run_checks("vac", formulas_path=[str(p)]).results
    assert r.severity == grade, r.message
    # w moved up by the least power of 2 that satisfies w >= N^2 = 100: 10 * 2^4 = 160 (by hand)
    assert r.evidence["point_inside"]["moved"] == {"w": "160"}
    if grade == "note":
        assert r.reason == "outside the hypotheses" and "goes away" in r.message
    else:
        assert r.reason == "vacuous" and "the finding stands inside the hypotheses" in r.message


VAC_TIED = VAC.replace('''[symbols.N]''', '''[symbols.b]
description = "a quantity the setup ties to w"
domain = "positive"

[symbols.N]''').replace('''[[checks]]''', '''[[hypotheses]]
result = "Thm. 1"
expr = "b >= 1"
quote = "if b >= 1"
source = "Thm. 1"

[[checks]]''')


@pytest.mark.parametrize("extra, grade", [
    # b is not fixed at the point: b >= 1 undecided, so no point is certified inside: a note
    ("", "note"),
    # b tied to w (b = w/100): 1.6 >= 1 at w = 160 (by hand), every hypothesis certified there
    ('derived = { b = "w/100" }\nderived_source = "the setup: b = w/100"\n', "warning"),
])
def test_a_point_inside_certifies_every_hypothesis_and_moves_tied_values(write_formula_file, extra, grade):
    text = VAC_TIED.format(expr="2 + 1/w").replace('trivial = "1"\n', 'trivial = "1"\n' + extra)
    p = write_formula_file("vac", text)
    (r,) = run_checks("vac", formulas_path=[str(p)]).results
    assert r.severity == grade, r.message
    if grade == "note":
        assert "no point where every hypothesis is certified" in r.message
    else:
        assert r.evidence["point_inside"]["moved"] == {"w": "160"}
        assert r.evidence["at"]["b"] == "8/5" and "b = 1.6" in r.message
        assert all(h["holds"] is True for h in r.evidence["point_inside"]["hypotheses"])


def test_a_vacuity_with_instances_is_one_finding(write_formula_file):
    text = VAC.format(expr="2 + 1/w").replace('trivial = "1"\n',
                                              'trivial = "1"\ninstances = [{ N = "10" }, { N = "20" }]\n')
    p = write_formula_file("vac", text)
    (r,) = run_checks("vac", formulas_path=[str(p)]).results
    # w moved to 10 * 2^4 = 160 >= 100 and 10 * 2^6 = 640 >= 400 (by hand): vacuous at both
    assert r.severity == "warning" and "2 of the 2 instances graded warning" in r.message
    assert [x["moved"] for x in r.evidence["instances"]] == [{"w": "160"}, {"w": "640"}]


STEP = '''
results = ["Thm. 2", "Thm. 3"]

[symbols.eta]
description = "step size"
domain = "positive"

[symbols.D]
description = "distance"
domain = "positive"

[symbols.L]
description = "loss"
domain = "positive"

[symbols.L0]
description = "initial loss"
domain = "positive"

[symbols.K]
description = "iterations"
domain = "integer >= 1"

[formulas.cond]
name = "step-size condition of Thm. 2"
kind = "requirement"
source = "Thm. 2 (step size)"
expr = "eta <= min(1, D**2/L0)"

[formulas.P]
name = "the bound before the step-size condition, derived by us"
kind = "bound"
bounds = "loss"
direction = "upper"
source = "Sec. 6"
status = "derived"
note = "ours"
expr = "2*L + L0/K"

[formulas.Q]
name = "Thm. 2's bound, printed"
kind = "bound"
bounds = "loss"
direction = "upper"
source = "Thm. 2"
expr = "2*L + D**2/(eta*K)"

[formulas.Q_misprint]
name = "Thm. 2's bound with a misprinted constant"
kind = "bound"
bounds = "loss"
direction = "upper"
source = "Thm. 2"
expr = "2*L + D**2/(2*eta*K)"
'''


def _step(cid, claim, covers):
    return _check(cid, f'kind = "derivation"\nclaim = "{claim}"\npremise = "P"\nsubstitute = {{ L0 = "D**2/eta" }}\n'
                       f'direction = "upper"\ncovers = ["{covers}"]\n')


def test_a_substitution_that_is_a_quoted_condition_does_not_define_a_side(write_formula_file):
    """deora2023 thm1_train_from_sec61's pattern: the premise (ours) at L0 = D^2/eta — the
    boundary of Thm. 2's printed eta <= D^2/L0 — is the printed claim. That substitution is
    the paper's hypothesis, not a definition of a side by us: a pass (by hand: 2L + L0/K at
    L0 = D^2/eta is 2L + D^2/(eta K), the claim), and a misprinted 1/2 fails it (2L + D^2/(2 eta K)
    is below it: an upper bound tighter than derived). Covering Thm. 3 instead (whose
    conditions do not include it), the substitution is ours: a tautology of the encoding."""
    p = write_formula_file("step", STEP + _step("quoted", "Q", "Thm. 2") + _step("misprint", "Q_misprint", "Thm. 2")
                           + _step("not_quoted", "Q", "Thm. 3"))
    got = {r.check: r for r in run_checks("step", formulas_path=[str(p)]).results}
    assert got["quoted"].severity == "ok", got["quoted"].message
    assert got["misprint"].severity == "error", got["misprint"].message
    assert (got["not_quoted"].severity, got["not_quoted"].reason) == ("identity", "tautology")


# --------------------------------------------------------------------------- issue 35, fourth referee reading
# An order read straight off its own formula (premises.read_off) is an identity; an order that
# needs the algebra of a sum under a power stays a pass.
ORDERS = '''
results = ["Thm. 1"]

[symbols.t]
description = "steps"
domain = "positive"

[symbols.L]
description = "a constant free of t"
domain = "positive"

[symbols.d]
description = "dimension"
domain = "positive"

[symbols.C]
description = "hidden constant"
domain = "positive"
default = "1"
role = "constant"

[formulas.opt]
name = "optimization term"
kind = "definition"
source = "Thm. 1"
expr = "L**4/sqrt(t)"

[formulas.total]
name = "bound"
kind = "definition"
source = "Thm. 1"
expr = "C*(opt + L*sqrt(log(2*t/L)/d))"
uses = ["opt"]

[formulas.lip]
name = "Lipschitz constant"
kind = "definition"
source = "Lemma 2"
expr = "(1 + (sqrt(d) + L)**2)**2"

[[checks]]
id = "rate_t"
kind = "order"
location = "l"
description = "d"
formula = "opt"
var = "t"
order = "t**(-1/2)"
relation = "Theta"

[formulas.unfactored]
name = "an estimation error, not factored"
kind = "definition"
source = "Lemma 2"
expr = "C*(2*L + d)*(sqrt(d/t) + sqrt(log(1/L)/t))"

[formulas.two_rates]
name = "two rates"
kind = "definition"
source = "Lemma 2"
expr = "sqrt(d/t) + L/t"

[[checks]]
id = "rate_unfactored"
kind = "order"
location = "l"
description = "d"
formula = "unfactored"
var = "t"
order = "t**(-1/2)"
relation = "Theta"

[[checks]]
id = "rate_two_rates"
kind = "order"
location = "l"
description = "d"
formula = "two_rates"
var = "t"
order = "t**(-1/2)"
relation = "Theta"

[[checks]]
id = "rate_t_through_a_sum"
kind = "order"
location = "l"
description = "d"
formula = "total"
var = "L"
order = "L**4"
relation = "O"

[[checks]]
id = "rate_d_algebra"
kind = "order"
location = "l"
description = "d"
formula = "lip"
var = "d"
order = "d**2"
relation = "Theta"

[[checks]]
id = "vac"
kind = "vacuity"
location = "l"
description = "d"
formula = "total"
at = { t = "4", L = "2", d = "1" }
trivial = "1"
direction = "upper"

[[checks]]
id = "vac_plain"
kind = "vacuity"
location = "l"
description = "d"
formula = "opt"
at = { t = "4", L = "2" }
trivial = "1"
direction = "upper"
'''


@pytest.fixture(scope="module")
def orders(tmp_path_factory):
    p = tmp_path_factory.mktemp("orders") / "ords.toml"
    p.write_text('[paper]\nkey = "ords"\ntitle = "t"\n' + ORDERS, encoding="utf-8")
    return {r.check: r for r in run_checks("ords", formulas_path=[str(p)]).results}


def test_an_order_read_off_its_own_formula_is_an_identity(orders):
    # L^4/sqrt(t): t occurs once, as the factor t^(-1/2): Theta(t^(-1/2)) restates the formula
    r = orders["rate_t"]
    assert r.severity == "identity" and r.reason == "tautology", (r.severity, r.message)
    assert "read off its own formula" in r.message and "t occurs once in opt" in r.message
    # L occurs several times in total: its order L^4 needs the sum (a pass, not read off)
    assert orders["rate_t_through_a_sum"].severity == "ok", orders["rate_t_through_a_sum"].message


def test_an_order_through_a_sum_under_a_power_stays_a_pass(orders):
    # (1 + (sqrt(d) + L)^2)^2 ~ d^2: d occurs once, but under a power of a sum (the algebra of
    # expanding (sqrt(d) + L)^2 is the step), so it is checked, not read off
    r = orders["rate_d_algebra"]
    assert r.severity == "ok", (r.severity, r.message)


def test_read_off_walks_sums_and_products_then_no_sum():
    from boundcalc.expr.parser import parse
    from boundcalc.services.check.premises import read_off

    class _Reg:
        def __init__(self, node):
            self.node = node

        def resolved(self, fid):
            return self.node

    class _Paper:
        key = "p"
    def t(var):
        return type("T", (), {"regimes": (), "together": {}, "var": var, "fixed": {}, "formula": "f"})()
    # C (a + b sqrt(log(2 n/delta)/m)) in n: a sum at the top, then products, powers, functions
    assert read_off(_Reg(parse("C*(a + b*sqrt(log(2*n/delta)/m))")), _Paper(), t("n"))
    # log(n + 1): a sum below a function: not read off
    assert read_off(_Reg(parse("C*log(n + 1)")), _Paper(), t("n")) is None
    # n twice: not read off
    assert read_off(_Reg(parse("n/(1 + n)")), _Paper(), t("n")) is None


def test_an_order_of_an_unfactored_monomial_is_read_off(orders):
    # issue 35, fifth reading (deora2023 first_phase_rate_sec51): t occurs twice in
    # C (2L + d)(sqrt(d/t) + sqrt(log(1/L)/t)) only because t^(-1/2) is not factored out:
    # Theta(t^(-1/2)) restates the formula
    r = orders["rate_unfactored"]
    assert (r.severity, r.reason) == ("identity", "tautology"), (r.severity, r.message)
    assert "t occurs 2 times in unfactored" in r.message and "t^(-1/2)" in r.message
    # sqrt(d/t) + L/t: two different powers of t, the order is the comparison of the two: a pass
    r = orders["rate_two_rates"]
    assert r.severity == "ok", (r.severity, r.message)


def test_monomial_factor_rule_by_hand():
    from fractions import Fraction

    from boundcalc.expr.parser import parse
    from boundcalc.services.check.premises import _monomial, _read_off_walk
    # sqrt(d/n) + sqrt(log(1/delta)/n) = n^(-1/2) (sqrt(d) + sqrt(log(1/delta))): exponent -1/2
    x = parse("C*(2*S + Z)*(sqrt(d/n) + sqrt(log(1/delta)/n))")
    assert _read_off_walk(x, "n", True) and _monomial(x, "n") == Fraction(-1, 2)
    # a/n^2 + b/n^2: -2
    assert _monomial(parse("a/n**2 + b/n**2"), "n") == Fraction(-2)
    # sqrt(n)/n = n^(-1/2) only by adding exponents: not a read-off
    assert _monomial(parse("sqrt(n)/n"), "n") is None and _read_off_walk(parse("sqrt(n)/n"), "n", True) is None
    # a sum of two different powers, a sum under a power, a log: not read off
    assert _read_off_walk(parse("sqrt(n) + 1/n"), "n", True) is None
    assert _read_off_walk(parse("(a/n + b/n)**2"), "n", True) is None
    assert _read_off_walk(parse("n + n*log(n)"), "n", True) is None


def test_a_vacuity_at_hidden_constants_says_so(orders):
    # total at t = 4, L = 2, d = 1, C = 1 (its default, role constant): 16/2 + 2 sqrt(log 4) =
    # 8 + 2.3548 = 10.35 > 1 (by hand): vacuous, and the message names C = 1
    r = orders["vac"]
    assert r.severity == "warning" and r.reason == "vacuous"
    assert r.message.startswith("vacuous at the paper's setting, with the hidden constant C = 1: the bound is 10.35")
    # opt has no hidden constant: the message is as before
    r = orders["vac_plain"]
    assert r.message.startswith("vacuous at the paper's setting: the bound is 8.0, above"), r.message
