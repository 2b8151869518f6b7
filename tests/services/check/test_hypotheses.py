"""Hypotheses as data, least constants (services/check/hypotheses.py, derivation.py).

Every expected value here is computed by hand, independently of the code under test."""
import re
from fractions import Fraction

import pytest

from boundcalc.errors import FormulaFileError
from boundcalc.registry.loader import load_file
from boundcalc.services.check import run_checks

SYMS = '''
results = ["Thm. 1", "Cor. 1"]

[symbols.x]
description = "x"
domain = "(0, 1)"

[symbols.y]
description = "y"
domain = "real >= 1"

[symbols.C]
description = "hidden constant of Cor. 1"
domain = "positive"
default = "1"
role = "constant"
'''

BODY = SYMS + '''
[formulas.f]
name = "f"
kind = "definition"
expr = "x*(1 - x)"
source = "Thm. 1"

[formulas.base]
name = "what Thm. 1 gives"
kind = "bound"
bounds = "q"
direction = "upper"
expr = "2*y + 1"
source = "Thm. 1"

[formulas.cor]
name = "Cor. 1 with a hidden constant"
kind = "bound"
bounds = "q"
direction = "upper"
expr = "C*y"
source = "Cor. 1"

[[hypotheses]]
result = "Thm. 1"
expr = "x <= 1/2"
quote = "for x at most one half"
source = "Thm. 1 (statement)"

[[checks]]
id = "increasing_inside"
kind = "monotone"
covers = ["Thm. 1"]
location = "Thm. 1"
description = "x(1 - x) increases in x for x <= 1/2 (true)"
formula = "f"
var = "x"
claim = "increasing"

[[checks]]
id = "increasing_nowhere_said"
kind = "monotone"
location = "Thm. 1"
description = "the same claim without the hypothesis (false on (0, 1))"
formula = "f"
var = "x"
claim = "increasing"

[[checks]]
id = "decreasing_inside"
kind = "monotone"
covers = ["Thm. 1"]
location = "Thm. 1"
description = "x(1 - x) decreases in x for x <= 1/2 (false)"
formula = "f"
var = "x"
claim = "decreasing"

[[checks]]
id = "vacuity_outside"
kind = "vacuity"
covers = ["Thm. 1"]
location = "Thm. 1"
description = "f at x = 3/4, outside x <= 1/2"
formula = "f"
at = { x = "0.75" }
trivial = "1"
direction = "upper"

[[checks]]
id = "least_constant"
kind = "derivation"
covers = ["Cor. 1"]
location = "Cor. 1"
description = "C y >= 2 y + 1 for y in [1, 10]: least C is 3 (at y = 1)"
claim = "cor"
premise = "base"
direction = "upper"
assume = [{ expr = "y <= 10", reason = "Cor. 1: 'for y at most 10'" }]
'''


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    p = tmp_path_factory.mktemp("hyp") / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + BODY, encoding="utf-8")
    return {r.check: r for r in run_checks("hyp", formulas_path=[str(p)]).results}


def test_monotone_proved_inside_the_hypotheses(report):
    # d/dx x(1 - x) = 1 - 2x >= 0 exactly when x <= 1/2
    r = report["increasing_inside"]
    assert r.severity == "ok", r.message
    assert r.evidence["hypotheses"][0]["hypothesis"] == "x <= 1/2"
    # without the hypothesis the claim is false on (0, 1) (falls past x = 1/2)
    assert report["increasing_nowhere_said"].severity == "error"


def test_monotone_refuted_by_a_pair_inside_the_hypotheses(report):
    r = report["decreasing_inside"]
    assert (r.severity, r.reason) == ("error", "false as printed")
    pair = r.evidence["counterexample"]["pair"]
    x1, x2 = Fraction(pair["x_1"]), Fraction(pair["x_2"])
    # checked here, independently: both points satisfy x <= 1/2 and f rises between them
    assert 0 < x1 < x2 <= Fraction(1, 2)
    assert x1 * (1 - x1) < x2 * (1 - x2)
    assert "x <= 1/2 [Thm. 1] holds" in r.message


def test_evaluation_outside_the_hypotheses_is_its_own_grade(report):
    r = report["vacuity_outside"]
    # 3/4 > 1/2: the result is not stated there, so neither a pass nor an invalid bound
    assert (r.severity, r.reason) == ("note", "outside the hypotheses")
    assert r.message.startswith("outside the hypotheses: x <= 1/2 [Thm. 1] fails")
    assert r.evidence["hypotheses_at_point"][0]["holds"] is False


def test_least_constant_matches_the_hand_computation(report):
    # C y >= 2 y + 1 on [1, 10] <=> C >= 2 + 1/y, largest at y = 1: C* = 3
    r = report["least_constant"]
    assert r.severity == "ok", r.message
    (row,) = r.evidence["least_constants"]
    assert row["constant"] == "C" and row["certified"]
    assert row["sufficient"] == pytest.approx(3, rel=1e-5) and row["sufficient"] >= 3
    assert row["lower"] <= 3 and row["lower"] == pytest.approx(3, rel=0.05)
    assert "holds with C >= 3" in r.message
    # the check's own assumption is listed with its reason
    assert r.evidence["hypotheses"] == [{"hypothesis": "y <= 10", "from": "added by the check",
                                         "reason": "Cor. 1: 'for y at most 10'"}]


@pytest.mark.parametrize("hyp, msg", [
    ('expr = "x + 1"', "must be a relation"),
    ('expr = "x <= __import__(1)"', "hyp.toml"),
    ('expr = "z <= 1"', "unknown name 'z'"),
    ('requirement = "f"', "is not a requirement formula"),
    ('expr = "x <= 1"\nrequirement = "f"', "exactly one of"),
])
def test_malformed_hypothesis_is_one_line_naming_file_and_entry(tmp_path, hyp, msg):
    body = SYMS + f'''
[formulas.f]
name = "f"
kind = "definition"
expr = "x"
source = "Thm. 1"

[[hypotheses]]
result = "Thm. 1"
{hyp}
quote = "q"
source = "Thm. 1"
'''
    p = tmp_path / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + body, encoding="utf-8")
    with pytest.raises(FormulaFileError) as e:
        load_file(p)
    text = str(e.value)
    assert "\n" not in text and text.startswith("hyp.toml: [[hypotheses]] #1") and msg in text


def test_hypothesis_must_name_a_listed_result_and_quote_it(tmp_path):
    for extra, msg in (('result = "Thm. 9"\nquote = "q"', "not listed in [paper] results"),
                       ('result = "Thm. 1"\nquote = " "', "quote must not be empty")):
        p = tmp_path / "hyp.toml"
        p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + SYMS +
                     f'\n[[hypotheses]]\n{extra}\nexpr = "x <= 1"\nsource = "s"\n', encoding="utf-8")
        with pytest.raises(FormulaFileError, match=re.escape(msg)):
            load_file(p)


APPROX = SYMS + '''
[[checks]]
id = "{id}"
kind = "compare"
covers = ["Thm. 1"]
location = "Thm. 1"
description = "1 + y/100 ≈ 1 for y in [1, 10]: relative error y/100, at most 0.1 (y = 10)"
lhs = "1 + y/100"
rel = "=="
rhs = "1"
assume = [{{ expr = "y <= 10", reason = "Thm. 1: 'y at most 10'" }}]
approximate = {{ tol = "{tol}", quote = "roughly 1" }}
'''


# within the tolerance it passes only under the check's own assumption y <= 10 (not a quoted
# hypothesis: without it y/100 grows past any tolerance), so the pass is conditional
@pytest.mark.parametrize("tol, grade", [("0.2", "conditional"), ("0.05", "warning")])
def test_approximation_graded_by_relative_error_against_its_tolerance(tmp_path, tol, grade):
    p = tmp_path / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + APPROX.format(id="approx", tol=tol), encoding="utf-8")
    (r,) = run_checks("hyp", formulas_path=[str(p)]).results
    assert r.severity == grade, r.message
    assert r.evidence["approximate"]["tol"] == str(Fraction(tol))
    # the largest relative error over y in [1, 10] is y/100 at y = 10: 0.1 (by hand)
    assert float(r.evidence["largest_sampled_error"]["relative_error"]) == pytest.approx(0.1, rel=0.05)
    if grade == "warning":
        assert r.reason == "approximation" and "beyond the tolerance 5 %" in r.message
        y = Fraction(r.evidence["counterexample"]["y"])
        assert 5 < y <= 10                  # independently: y/100 > 0.05 and inside y <= 10
    else:
        assert "within the tolerance 20 %" in r.message


def test_approximate_needs_rel_equal_and_a_quote(tmp_path):
    body = APPROX.format(id="approx", tol="0.1").replace('rel = "=="', 'rel = "<="')
    p = tmp_path / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + body, encoding="utf-8")
    with pytest.raises(FormulaFileError, match="rel = '=='"):
        load_file(p)


ROOTS = SYMS + '''
[formulas.g]
name = "g"
kind = "definition"
expr = "1 - 2*x"
source = "Thm. 1"

[[checks]]
id = "root"
kind = "compare"
location = "Thm. 1"
description = "1 - 2x >= 0 on (0, 1): false for x > 1/2"
lhs = "g"
rel = ">="
rhs = "0"
uses = ["g"]

[[checks]]
id = "consequence"
kind = "compare"
location = "Cor. 1"
description = "(1 - 2x) y >= 0: false exactly where the root is"
lhs = "g*y"
rel = ">="
rhs = "0"
uses = ["g"]
explained_by = {{ check = "{root}", where = "{where}", because = "g < 0 there" }}
'''


@pytest.mark.parametrize("root, where, attached", [
    ("root", "x > 1/2", True),          # the condition holds at the consequence's counterexample
    ("root", "x < 1/2", False),         # it cannot: every counterexample has x > 1/2
])
def test_consequence_attached_under_its_root_only_when_shown(tmp_path, root, where, attached):
    p = tmp_path / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + ROOTS.format(root=root, where=where), encoding="utf-8")
    rep = run_checks("hyp", formulas_path=[str(p)])
    r = {x.check: x for x in rep.results}
    assert r["root"].severity == r["consequence"].severity == "error"
    x = Fraction(r["consequence"].evidence["counterexample"]["x"])
    assert x > Fraction(1, 2)                                      # by hand: (1 - 2x) y < 0 iff x > 1/2
    assert (r["consequence"].root == "hyp.root") is attached
    kinds = rep.to_json()["counts_by_kind"]
    assert (kinds["root"], kinds["consequence"]) == ((1, 1) if attached else (2, 0))
    md = rep.to_markdown()
    assert ("  - consequence ($g \\lt 0$ there):" in md) is attached


def test_explained_by_must_name_a_check_without_cycles(tmp_path):
    body = ROOTS.format(root="nope", where="x > 1/2")
    p = tmp_path / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + body, encoding="utf-8")
    with pytest.raises(FormulaFileError, match="explained_by names unknown check 'nope'"):
        load_file(p)
    body = ROOTS.format(root="consequence", where="x > 1/2")
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + body, encoding="utf-8")
    with pytest.raises(FormulaFileError, match="explained by itself"):
        load_file(p)


def test_monotone_pair_inside_hypotheses_with_fixed_values(tmp_path):
    # x(1 - x) y with y fixed at 2: decreasing claimed under x <= y/4 (= 1/2) is false; the
    # pair must be checked against the hypothesis with y pinned
    body = BODY.replace('expr = "x*(1 - x)"', 'expr = "x*(1 - x)*y"').replace(
        'expr = "x <= 1/2"', 'expr = "x <= y/4"').replace(
        'description = "x(1 - x) decreases in x for x <= 1/2 (false)"',
        'description = "x(1 - x) y decreases in x for x <= 1/2 (false)"\nfixed = { y = "2" }')
    p = tmp_path / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + body, encoding="utf-8")
    (r,) = run_checks("hyp", formulas_path=[str(p)], only=["decreasing_inside"]).results
    assert r.severity == "error", r.message
    pair = r.evidence["counterexample"]["pair"]
    x1, x2 = Fraction(pair["x_1"]), Fraction(pair["x_2"])
    assert 0 < x1 < x2 <= Fraction(1, 2) and 2 * x1 * (1 - x1) < 2 * x2 * (1 - x2)


def test_a_hypothesis_some_free_symbol_can_always_meet_is_projected_out(tmp_path):
    """'sqrt(H) >= 10 x' with H in nothing else: some H meets it for every x, so it
    constrains nothing a check about x evaluates; 'x <= H' with H also in the check stays."""
    from boundcalc.registry import get_registry
    from boundcalc.services.check import hypotheses
    body = SYMS + '''
[symbols.H]
description = "heads"
domain = "real >= 1"

[[hypotheses]]
result = "Thm. 1"
expr = "sqrt(H) >= 10*x"
quote = "q"
source = "s"

[[hypotheses]]
result = "Thm. 1"
expr = "x**2 <= 1/4"
quote = "q"
source = "s"
'''
    p = tmp_path / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + body, encoding="utf-8")
    reg = get_registry([str(p)])
    paper = reg.paper("hyp")
    from boundcalc.registry.checks import Transcription
    spec = Transcription(id="t", kind="transcription", location="", description="", formula="f", covers=("Thm. 1",))
    kept = hypotheses.for_check(reg, paper, spec, {"x"})
    assert [h.text for h in kept] == ["x**2 <= 1/4"]
    both = hypotheses.for_check(reg, paper, spec, {"x", "H"})
    assert [h.text for h in both] == ["sqrt(H) >= 10*x", "x**2 <= 1/4"]


# ------------------------------------------------ a hidden constant a hypothesis shares with the claim
SHARED = SYMS + '''
[[hypotheses]]
result = "Cor. 1"
expr = "y >= 4*C**2"
quote = "if y is at least 4C^2"
source = "Cor. 1 (statement)"

[[checks]]
id = "shared"
kind = "compare"
location = "Cor. 1"
description = "under y >= 4 C^2: C sqrt(y) <= y/2"
lhs = "C*sqrt(y)"
rel = "<="
rhs = "RHS"
covers = ["Cor. 1"]
'''


@pytest.mark.parametrize("rhs, grade", [("y/2", "ok"), ("y/3", "error")])
def test_a_constant_the_claim_shares_with_a_hypothesis_is_one_constant(tmp_path, rhs, grade):
    """By hand: y >= 4 C^2 gives sqrt(y) >= 2C, so C sqrt(y) <= sqrt(y)^2/2 = y/2 for every
    C > 0 (a pass); pinning C = 1 in the hypothesis alone (y >= 4) would refute it at C = 2,
    y = 4 (2*2 = 4 > 2). With y/3 it fails inside the hypothesis for every C: at y = 4 C^2,
    2 C^2 > 4 C^2/3; the counterexample is certified inside it with the claim's own C."""
    p = tmp_path / "hyp.toml"
    p.write_text('[paper]\nkey = "hyp"\ntitle = "t"\n' + SHARED.replace("RHS", rhs), encoding="utf-8")
    (r,) = run_checks("hyp", formulas_path=[str(p)], only=["shared"]).results
    assert r.severity == grade, r.message
    if grade == "error":
        ce = r.evidence["counterexample"]
        c, y = Fraction(ce["C"]), Fraction(ce["y"])
        assert y >= 4 * c * c and c * c * y > y * y / 9       # C sqrt(y) > y/3, squared
        assert all(row["holds"] is True and "with" not in row["from"]
                   for row in r.evidence["hypotheses_at_counterexample"])


# ------------------------------------------------ issue 35 (referee 4): the paper's integrality
def test_integrality_hypothesis_is_decided_exactly_and_relaxed_for_proofs():
    """``floor(X) == X`` states that X is an integer (deora2023: |R| = zeta T tokens). At a
    point it is decided exactly (188/194 * 194 = 188 is one, 0.9901 * 1 is not); the decision
    procedure gets the other hypotheses only (dropping one only relaxes the premises); the
    inherited count matches what relations() hands on."""
    from boundcalc.expr.parser import parse
    from boundcalc.services.check import hypotheses as hy
    lat = hy.Hyp(parse("floor(zeta*T) == zeta*T"), "floor(zeta*T) == zeta*T", "Assumption 3", "q")
    pos = hy.Hyp(parse("zeta > 0"), "zeta > 0", "Assumption 3", "q")
    own = hy.Hyp(parse("T >= 3"), "T >= 3", "added by the check", "r")
    assert hy.lattice(lat.rel) == parse("zeta*T") and hy.lattice(pos.rel) is None
    assert hy.lattice(parse("zeta*T == floor(zeta*T)")) == parse("zeta*T")
    (row,) = hy.status_at([lat], {"zeta": Fraction(188, 194), "T": Fraction(194)})
    assert row["holds"] is True
    (row,) = hy.status_at([lat], {"zeta": Fraction(9901, 10000), "T": Fraction(1)})
    assert row["holds"] is False
    assert hy.relations([lat, pos, own]) == [pos.rel, own.rel]
    assert hy.inherited_count([lat, pos, own]) == 1


def test_lattice_step_of_a_monotone_variable():
    """zeta T integer gives the lattice zeta = k/T: the step's c is T (X/zeta, free of zeta);
    an integrality that does not involve the variable gives none."""
    from boundcalc.expr.parser import parse
    from boundcalc.services.check import hypotheses as hy
    from boundcalc.services.check.relations import _lattice_step
    lat = hy.Hyp(parse("floor(zeta*T) == zeta*T"), "", "Assumption 3", "q")
    assert _lattice_step(parse("zeta**2*T"), "zeta", [lat]) == parse("T")
    assert _lattice_step(parse("M*T"), "M", [lat]) is None


# --------------------------------------------------------------------------- issue 35 (h35-cov)
CHAIN = '''
[paper]
key = "chainhyp"
title = "t"
results = ["Thm. 1"]

[symbols.C]
description = "hidden constant"
domain = "positive"
default = "1"
role = "constant"
''' + "".join(f'''
[symbols.a{i}]
description = "a{i}"
domain = "[1, 2]"
''' for i in range(1, 9)) + "".join(f'''
[[hypotheses]]
result = "Thm. 1"
expr = "a{i} <= a{i + 1}"
quote = "a{i} <= a{i + 1}"
source = "Thm. 1"
''' for i in range(1, 8)) + '''
[formulas.premise]
name = "premise"
kind = "bound"
bounds = "q"
direction = "upper"
expr = "2*a1"
source = "Thm. 1"

[formulas.claim]
name = "claim"
kind = "bound"
bounds = "q"
direction = "upper"
expr = "C*(a2 + a3 + a4 + a5 + a6 + a7 + a8)/7"
source = "Thm. 1"

[[checks]]
id = "least_in_a_chain"
kind = "derivation"
covers = ["Thm. 1"]
location = "Thm. 1"
description = "C (a2 + ... + a8)/7 >= 2 a1 under a1 <= a2 <= ... <= a8"
claim = "claim"
premise = "premise"
direction = "upper"
'''


def test_least_constant_inside_a_chain_of_hypotheses(tmp_path):
    """C m >= 2 a1 with m = (a2 + ... + a8)/7, over a1 <= a2 <= ... <= a8 (eight symbols in [1, 2]): every
    a_i >= a1, so m >= a1 and C >= 2 a1/m is at most 2, attained when all are equal: the least constant is
    2 (by hand; without the chain it would be 2 * 2/1 = 4, at a1 = 2 and the others 1). A box sample has the eight values in order at about
    1 point in 8! = 40320, so none of the first 4000 is inside; the scan orders the values of further
    points along the chain (derivation._ordered) and certifies the lower end 2 (issue 35: anon2025's
    R <= xi <= eta; before, no point was inside and the scan proposed nothing)."""
    import numpy as np

    from boundcalc.expr.domains import Domain
    from boundcalc.expr.nodes import Rel, Sym
    from boundcalc.services.check.derivation import _ordered
    p = tmp_path / "chainhyp.toml"
    p.write_text(CHAIN, encoding="utf-8")
    (r,) = run_checks("chainhyp", formulas_path=[str(p)]).results
    assert r.severity == "ok", r.message
    (row,) = r.evidence["least_constants"]
    # the certified lower end is the hand value 2 (at a point inside the chain); the value proved to
    # work is the sampled sup rounded up (2.0000000000000004 -> 3, one significant digit first)
    assert row["certified"] and row["lower"] == pytest.approx(2, rel=1e-9) and 2 <= row["sufficient"] <= 3
    assert all(row["lower_at"][f"a{i}"] == row["lower_at"]["a1"] for i in range(2, 9))
    # the reordering keeps each point's values and makes x <= y <= z hold everywhere
    pos = Domain(lo=Fraction(0))
    pts = {"x": np.array([3.0, 1.0, 2.0]), "y": np.array([1.0, 2.0, 3.0]), "z": np.array([2.0, 3.0, 1.0])}
    ex = [Rel("<=", Sym("x"), Sym("y")), Rel(">=", Sym("z"), Sym("y"))]
    out = _ordered(ex, {"x": pos, "y": pos, "z": pos}, pts)
    assert [list(out[k]) for k in "xyz"] == [[1.0, 1.0, 1.0], [2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]


LINKED = '''[paper]
key = "chain"
title = "t"
results = ["Thm. 1"]
''' + "".join(f'[symbols.{s}]\ndescription = "{s}"\ndomain = "positive"\n' for s in "abcd") + "".join(
    f'[[hypotheses]]\nresult = "Thm. 1"\nexpr = "{lo} <= {hi}"\nquote = "{lo} at most {hi}"\nsource = "Thm. 1"\n'
    for lo, hi in ("ab", "bc", "cd")) + '''
[[checks]]
id = "ends"
kind = "compare"
location = "Thm. 1"
description = "a <= d, from the chain a <= b <= c <= d"
lhs = "a"
rel = "<="
rhs = "d"
covers = ["Thm. 1"]
'''


def test_a_chain_of_hypotheses_is_kept_whole(tmp_path):
    """a <= b <= c <= d gives a <= d (by hand: transitivity). The link b <= c shares no symbol
    with the check; leaving it out admitted a = 2, d = 1 as 'a point inside the hypotheses'
    (no b, c satisfy the chain there): a false error."""
    p = tmp_path / "chain.toml"
    p.write_text(LINKED, encoding="utf-8")
    rep = run_checks("chain", formulas_path=[str(p)])
    (r,) = rep.results
    assert r.severity == "ok", r.message
    assert r.severity != "error"
