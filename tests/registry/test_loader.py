"""The registry refuses malformed and malicious formula files, naming the culprit."""

from fractions import Fraction

import mpmath
import pytest

import boundcalc
from boundcalc.errors import BoundcalcError, FormulaFileError
from boundcalc.registry import Registry, load_file

GOOD = '''
[symbols.x]
description = "x"
domain = "real >= 1"

[symbols.C]
description = "absolute constant"
domain = "positive"
default = "1"
role = "constant"

[formulas.f]
name = "f"
kind = "definition"
expr = "C*x**2"
source = "Eq. (1)"

[formulas.g]
name = "g uses f"
kind = "definition"
expr = "f + 1"
uses = ["f"]
source = "Eq. (2)"
'''


def test_good_file_loads_and_resolves(write_formula_file):
    p = write_formula_file("toy", GOOD)
    f = boundcalc.formula("toy.g", formulas_path=[str(p)])
    assert f.symbols == ["C", "x"]
    assert str(f.evaluate(x=3, digits=5)) == "10.000"
    assert f.evaluate(x=3).qualifier.startswith("up to the absolute constant")


def test_malicious_expression_is_refused_without_side_effect(write_formula_file, tmp_path):
    sentinel = tmp_path / "pwned"
    body = GOOD + f'''
[formulas.evil]
name = "evil"
kind = "definition"
expr = "__import__('os').system('touch {sentinel}')"
source = "nowhere"
'''
    p = write_formula_file("evil", body)
    with pytest.raises(FormulaFileError) as e:
        load_file(p)
    assert "evil" in str(e.value) and "not allowed" in str(e.value)
    assert not sentinel.exists()


@pytest.mark.parametrize("patch,needle", [
    (('domain = "real >= 1"', 'domain = "sometimes"'), "unknown domain"),
    (('expr = "C*x**2"', 'expr = "C*y**2"'), "unknown name 'y'"),
    (('kind = "definition"\nexpr = "C*x**2"', 'kind = "requirement"\nexpr = "C*x**2"'), "must be a relation"),
    (('source = "Eq. (1)"', 'source = "Eq. (1)"\nsoruce = "typo"'), "unknown field(s) soruce"),
    (('default = "1"', 'default = "-1"'), "outside the domain"),
    (('uses = ["f"]', 'uses = ["nope"]'), "unknown name 'f'"),
    (('expr = "C*x**2"', 'expr = "g*x"\nuses = ["g"]'), "circular"),
])
def test_malformed_files_name_the_culprit(write_formula_file, patch, needle):
    p = write_formula_file("toy", GOOD.replace(*patch, 1))
    with pytest.raises(FormulaFileError) as e:
        _ = Registry([p]).papers
    assert needle in str(e.value)
    assert "toy.toml" in str(e.value)


def test_not_toml(write_formula_file):
    p = write_formula_file("broken", "[formulas.f\nname = 1")
    with pytest.raises(FormulaFileError, match="not valid TOML"):
        load_file(p)


def test_key_must_match_file_name(tmp_path):
    p = tmp_path / "a.toml"
    p.write_text('[paper]\nkey = "b"\ntitle = "t"\n')
    with pytest.raises(FormulaFileError, match="must equal the file name"):
        load_file(p)


def test_user_files_from_environment(write_formula_file, monkeypatch):
    p = write_formula_file("envpaper", GOOD)
    monkeypatch.setenv("BOUNDCALC_FORMULAS", str(p))
    assert boundcalc.formula("envpaper.f").evaluate(x=2).mpf == 4


def test_evaluation_errors_name_the_culprit(write_formula_file):
    p = [str(write_formula_file("toy", GOOD))]
    f = boundcalc.formula("toy.f", formulas_path=p)
    with pytest.raises(BoundcalcError, match="x = 1/2 is outside its domain"):
        f.evaluate(x="0.5")
    with pytest.raises(BoundcalcError, match="missing value for symbol 'x'"):
        f.evaluate()
    with pytest.raises(BoundcalcError, match="unknown symbol 'z'"):
        f.evaluate(x=1, z=2)
    with pytest.raises(BoundcalcError, match="unknown formula 'toy.nope'"):
        boundcalc.formula("toy.nope", formulas_path=p)
    with pytest.raises(BoundcalcError, match="unknown paper"):
        boundcalc.formula("nopaper.f", formulas_path=p)


def test_packaged_files_all_load():
    papers = {p.key for p in boundcalc.papers()}
    assert "deora2023" in papers
    for f in boundcalc.formulas():
        assert f.source and f.kind in ("definition", "bound", "requirement", "claim")


def _chain_file(write_formula_file, key: str, n: int, step: str):
    body = '[symbols.x]\ndescription = "x"\ndomain = "positive"\n'
    body += '[formulas.a0]\nname = "a0"\nkind = "definition"\nexpr = "x"\nsource = "s"\n'
    for i in range(1, n + 1):
        body += (f'[formulas.a{i}]\nname = "a{i}"\nkind = "definition"\nsource = "s"\n'
                 f'expr = "{step.format(p=f"a{i - 1}")}"\nuses = ["a{i - 1}"]\n')
    return [str(write_formula_file(key, body))]


def test_a_long_chain_of_references_resolves(write_formula_file):
    """a_i = a_(i-1) + 1, 1000 formulas: inlined without recursion into one flat sum."""
    p = _chain_file(write_formula_file, "chain", 1000, "{p} + 1")
    f = boundcalc.formula("chain.a1000", formulas_path=p)
    v = f.evaluate(x=Fraction(1, 3), digits=30)
    assert str(v) == "1000." + "3" * 26           # 3001/3 to 30 significant digits
    with mpmath.workdps(60):
        assert abs(v.mpf - mpmath.mpf(3001) / 3) <= mpmath.mpf(10) ** -26
    assert len(f.dependencies) == 1000 and f.dependencies[:2] == ["chain.a0", "chain.a1"]


def test_a_too_deep_chain_names_the_file_and_the_formula(write_formula_file):
    from boundcalc.expr.parser import MAX_DEPTH
    p = _chain_file(write_formula_file, "deep", 210, "sqrt({p})")      # a_i is i + 1 levels deep
    assert boundcalc.formula(f"deep.a{MAX_DEPTH - 1}", formulas_path=p).evaluate(x=1).mpf == 1
    with pytest.raises(FormulaFileError) as e:
        boundcalc.formula("deep.a210", formulas_path=p)
    assert str(e.value) == (f"deep.toml: [formulas.a{MAX_DEPTH}]: with its references inlined the expression "
                            f"is nested {MAX_DEPTH + 1} levels deep; the limit is {MAX_DEPTH} "
                            "(flat sums and products count as one level)")
