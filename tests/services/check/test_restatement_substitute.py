"""A restatement's ``substitute`` rewrites both sides (issue 18: it used to rewrite side b
only, undocumented); ``substitute_a`` / ``substitute_b`` rewrite one side. The expected
verdicts are by hand: after the substitution the two sides are the same expression, or
differ by a factor 2."""
from __future__ import annotations

import pytest

from boundcalc.errors import FormulaFileError
from boundcalc.services.check import run_checks

HEAD = '''[paper]
key = "subst"
title = "t"
authors = "a"
reference = "template: none"
text = "none"

[symbols.n]
description = "samples"
latex = "n"
domain = "integer >= 1"

[symbols.C1]
description = "the constant of Thm. 1 (written C_1 there)"
latex = "C_1"
domain = "positive"
role = "constant"
default = "1"

[symbols.C2]
description = "the constant of Cor. 1 (written C_2 there)"
latex = "C_2"
domain = "positive"
role = "constant"
default = "1"

[formulas.thm1]
name = "Thm. 1"
kind = "bound"
direction = "upper"
expr = "C1/sqrt(n)"
source = "Thm. 1"
status = "as printed"

[formulas.cor1]
name = "Cor. 1"
kind = "bound"
direction = "upper"
expr = "C2*n**(-1/2)"
source = "Cor. 1"
status = "as printed"
'''


def _run(tmp_path, fields: str):
    d = tmp_path / str(len(list(tmp_path.iterdir())))     # a new file each time (no cached registry)
    d.mkdir()
    p = d / "subst.toml"
    p.write_text(HEAD + f'''
[[checks]]
id = "same"
kind = "restatement"
location = "Cor. 1"
description = "Cor. 1 restates Thm. 1 with C_2 = C_1."
a = "thm1"
b = "cor1"
{fields}
''')
    (r,) = run_checks("subst", formulas_path=[str(p)]).results
    return r


def test_substitute_rewrites_side_a(tmp_path):
    # C1 occurs only in side a: with C1 -> C2 both sides are C2/sqrt(n)
    r = _run(tmp_path, 'substitute = { C1 = "C2" }')
    assert r.severity == "ok", (r.message, r.evidence)


def test_substitute_a_only_and_a_wrong_factor_is_an_error(tmp_path):
    assert _run(tmp_path, 'substitute_a = { C1 = "C2" }').severity == "ok"
    r = _run(tmp_path, 'substitute_a = { C1 = "2*C2" }')     # 2 C2/sqrt(n) vs C2/sqrt(n): differ
    assert r.severity == "error" and "differ" in r.message


def test_substitute_b_rewrites_side_b(tmp_path):
    assert _run(tmp_path, 'substitute_b = { C2 = "C1" }').severity == "ok"


@pytest.mark.parametrize("fields,words", [
    ('substitute_b = { C1 = "C2" }', "'C1' does not occur in cor1"),
    ('substitute = { C3 = "C2" }', "unknown symbol 'C3'"),
])
def test_substitute_target_checked_at_load(tmp_path, fields, words):
    with pytest.raises(FormulaFileError) as e:
        _run(tmp_path, fields)
    assert words in str(e.value) and "check 'same'" in str(e.value)
