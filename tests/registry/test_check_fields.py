"""Every field of every check kind is validated when the file loads (issue 18): a bad value
is ONE line naming the file, the check id and the field, and the CLI exits 2 before any
check runs — never a KeyError at run time.

The base file has one valid check of each kind (it loads, asserted first); each case
replaces one field of one check by a bad value."""
from __future__ import annotations

import copy
import sys

import pytest

from boundcalc.errors import FormulaFileError
from boundcalc.registry.checks import KINDS, CheckFields
from boundcalc.registry.loader import load_file

# kind -> (required, optional) fields of its own, and the fields every check has: from the specs
CHECK_FIELDS = {k: (c.required() - set(CheckFields.field_names()), c.optional() - set(CheckFields.field_names()))
                for k, c in KINDS.items()}
_CHECK_COMMON = set(CheckFields.field_names())

HEAD = '''[paper]
key = "fields"
title = "t"
authors = "a"
reference = "template: none"
text = "none"
results = ["Thm. 1"]

[symbols.n]
description = "samples"
latex = "n"
domain = "integer >= 1"

[symbols.d]
description = "dimension"
latex = "d"
domain = "integer >= 1"

[symbols.C]
description = "constant"
latex = "C"
domain = "positive"
default = "1"
role = "constant"

[symbols.v1]
description = "logit 1"
latex = "v_1"
domain = "real"

[symbols.v2]
description = "logit 2"
latex = "v_2"
domain = "real"

[formulas.gap]
name = "gap"
kind = "bound"
direction = "upper"
expr = "C*sqrt(d/n)"
source = "Thm. 1"
status = "as printed"

[formulas.gap2]
name = "gap, restated"
kind = "bound"
direction = "upper"
expr = "C*sqrt(d)/sqrt(n)"
source = "Thm. 1"
status = "as printed"

[formulas.need]
name = "requirement"
kind = "requirement"
expr = "n >= d"
source = "Thm. 1"
status = "as printed"
'''

# one valid check of each kind: kind -> {field: value}
BASE = {
    "derivation": {"claim": "gap2", "premise": "gap", "direction": "upper", "substitute": {"C": "1"},
                   "uses": ["gap"], "assume": ["n >= 2"], "existential": ["C"]},
    "order": {"formula": "gap", "var": "n", "order": "1/sqrt(n)", "relation": "Theta", "fixed": {"d": "4"},
              "together": {"d": "n"}, "limit": "oo",
              "regimes": [{"name": "r", "together": {"d": "n"}, "order": "1"}]},
    "order_side": {"kind": "order", "formula": "need", "var": "d", "order": "d", "relation": "Theta",
                   "side": "rhs"},
    "monotone": {"formula": "gap", "var": "n", "claim": "decreasing", "box": {"n": ["1", "100"]},
                 "fixed": {"d": "4"}, "assume": ["d >= 1"], "uses": ["gap"]},
    "compare": {"lhs": "gap", "rel": "==", "rhs": "gap2", "uses": ["gap", "gap2"], "assume": ["n >= 1"],
                "approximate": {"tol": "0.1", "quote": "about"}},
    "restatement": {"a": "gap", "b": "gap2", "substitute": {"C": "C"}, "substitute_a": {"d": "d"},
                    "substitute_b": {"n": "n"}, "assume": ["n >= 1"], "uses": ["gap"]},
    "vacuity": {"formula": "gap", "at": {"n": "100", "d": "4"}, "trivial": "1", "direction": "upper",
                "side": "rhs", "trivial_is": "bound", "floor": "0", "ceiling": "2", "derived": {"C": "d/4"},
                "derived_source": "the setup: 'C = d/4'", "instances": [{"n": "200"}], "uses": ["gap"]},
    "identity": {"function": "v1**2", "derivative": "2*v1", "wrt": "v1", "at": {"v1": "2"}, "tol": "1e-9",
                 "uses": ["gap"]},
    "measured": {"measurement": "deora2023.softmax_jacobian_11", "expected": "1", "at": {"v1": "0", "v2": "0"},
                 "tol": "1e-6", "atol": "0", "seed": 0, "uses": ["gap"]},
    "transcription": {"formula": "gap"},
}
COMMON = {"location": "Thm. 1", "description": "d", "severity": "warning", "note": "why",
          "covers": ["Thm. 1"], "reading": "printed", "identity": False,
          "explained_by": {"check": "c_compare", "because": "b"}}


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


def _file(checks: dict[str, dict]) -> str:
    out = [HEAD]
    for t in checks.values():
        out.append("[[checks]]")
        for k, v in t.items():
            out.append(f"{k} = {_toml_value(v)}")
        out.append("")
    return "\n".join(out)


def _checks() -> dict[str, dict]:
    out = {}
    for name, fields in BASE.items():
        kind = fields.get("kind", name)
        t = {"id": f"c_{name}", "kind": kind, "location": "Thm. 1", "description": "d"}
        t.update({k: v for k, v in fields.items() if k != "kind"})
        out[t["id"]] = t
    out["c_common"] = {"id": "c_common", "kind": "transcription", "formula": "gap", **COMMON}
    return out


def test_base_file_loads_and_covers_every_field(tmp_path):
    p = tmp_path / "fields.toml"
    p.write_text(_file(_checks()))
    paper = load_file(p)
    assert {c.kind for c in paper.checks} == set(CHECK_FIELDS)
    seen = {(BASE[k].get("kind", k), f) for k in BASE for f in BASE[k] if f != "kind"}
    for kind, (req, opt) in CHECK_FIELDS.items():
        for f in req | opt:
            assert (kind, f) in seen, f"the base file has no {kind} check with field {f!r}"
    assert _CHECK_COMMON - {"id", "kind"} <= set(COMMON) | {"location", "description"}


# (check, field, bad value, words the one-line error must contain besides file, id and field)
BAD = [
    # every kind: the common fields
    ("common", "id", "bad id!", "identifier"),
    ("common", "location", 3, "string"),
    ("common", "description", ["x"], "string"),
    ("common", "severity", "fatal", "severity"),
    ("common", "note", 5, "string"),
    ("common", "covers", ["Thm. 9"], "Thm. 9"),
    ("common", "reading", "typed", "typed"),
    ("common", "identity", "yes", "true or false"),
    ("common", "explained_by", {"check": "nope", "because": "b"}, "nope"),
    ("common", "kind", "derivaton", "derivation"),
    # derivation
    ("derivation", "claim", "nope", "nope"),
    ("derivation", "premise", "gapp", "gap"),
    ("derivation", "direction", "up", "upper"),
    ("derivation", "substitute", {"Q": "1"}, "Q"),
    ("derivation", "substitute", {"C": "1 +"}, "substitute"),
    ("derivation", "uses", ["nope"], "nope"),
    ("derivation", "assume", ["q >= 2"], "q"),
    ("derivation", "assume", ["n >> 2"], "assume"),
    ("derivation", "existential", ["Q"], "Q"),
    # order
    ("order", "formula", "nope", "nope"),
    ("order", "var", "q", "q"),
    ("order", "order", "1/sqrt(q)", "q"),
    ("order", "relation", "Th", "Theta"),
    ("order", "fixed", {"q": "1"}, "q"),
    ("order", "together", {"q": "n"}, "q"),
    ("order", "limit", "inf", "oo"),
    ("order", "regimes", [{"name": "r", "order": "1/"}], "regime"),
    ("order", "regimes", [{"name": "r", "tgether": {}}], "tgether"),
    ("order_side", "side", "middle", "lhs"),
    # monotone
    ("monotone", "formula", "nope", "nope"),
    ("monotone", "var", "q", "q"),
    ("monotone", "claim", "up", "increasing"),
    ("monotone", "box", {"n": ["1"]}, "lo"),
    ("monotone", "box", {"q": ["1", "2"]}, "q"),
    ("monotone", "box", {"n": ["100", "1"]}, "reversed"),
    ("monotone", "fixed", {"q": "1"}, "q"),
    ("monotone", "assume", ["q >= 1"], "q"),
    ("monotone", "uses", ["nope"], "nope"),
    # compare
    ("compare", "lhs", "gap +", "lhs"),
    ("compare", "lhs", "gapp", "gapp"),
    ("compare", "rel", "=<", "<="),
    ("compare", "rhs", "q", "q"),
    ("compare", "uses", ["nope"], "nope"),
    ("compare", "assume", ["q >= 1"], "q"),
    ("compare", "approximate", {"tol": "2", "quote": "about"}, "tol"),
    # restatement
    ("restatement", "a", "nope", "nope"),
    ("restatement", "b", "nope", "nope"),
    ("restatement", "substitute", {"Q": "1"}, "Q"),
    ("restatement", "substitute", ["C"], "table"),
    ("restatement", "substitute_a", {"Q": "1"}, "Q"),
    ("restatement", "substitute_b", {"C": "1 +"}, "substitute_b"),
    ("restatement", "assume", ["q >= 1"], "q"),
    ("restatement", "uses", ["nope"], "nope"),
    # vacuity
    ("vacuity", "formula", "nope", "nope"),
    ("vacuity", "at", {"q": "1"}, "q"),
    ("vacuity", "at", {"n": "abc"}, "at"),
    ("vacuity", "at", {"n": "d"}, "which 'at' does not set"),     # d has no value at the point
    ("vacuity", "trivial", "1/", "trivial"),
    ("vacuity", "direction", "up", "upper"),
    ("vacuity", "side", "middle", "lhs"),
    ("vacuity", "trivial_is", "maybe", "exact"),
    ("vacuity", "floor", "x +", "floor"),
    ("vacuity", "ceiling", "q", "q"),
    ("vacuity", "derived", {"C": "d +"}, "derived.C"),
    ("vacuity", "derived", {"n": "2*d"}, "both in 'at' and in 'derived'"),
    ("vacuity", "derived_source", 3, "derived_source"),
    ("vacuity", "instances", [{}], "instances"),
    ("vacuity", "instances", [{"n": "1 +"}], "instances #1.n"),
    ("vacuity", "uses", ["nope"], "nope"),
    # identity
    ("identity", "function", "v1 +", "function"),
    ("identity", "derivative", "q", "q"),
    ("identity", "wrt", "q", "q"),
    ("identity", "at", {"q": "1"}, "q"),
    ("identity", "tol", "abc", "tol"),
    ("identity", "uses", ["nope"], "nope"),
    # measured
    ("measured", "measurement", "nope", "nope"),
    ("measured", "expected", "1 +", "expected"),
    ("measured", "at", {"q": "1"}, "q"),
    ("measured", "tol", "abc", "tol"),
    ("measured", "atol", "abc", "atol"),
    ("measured", "seed", -1, "seed"),
    ("measured", "uses", ["nope"], "nope"),
    # transcription
    ("transcription", "formula", "nope", "nope"),
]


def _bad_file(tmp_path, check, field, value):
    checks = copy.deepcopy(_checks())
    t = checks[f"c_{check}"]
    t[field] = value
    p = tmp_path / "fields.toml"
    p.write_text(_file(checks))
    return p, t["id"] if field != "id" else "bad id!"


def test_every_kind_and_field_has_a_bad_case():
    cases = {(BASE.get(c, {}).get("kind", c), f) for c, f, _, _ in BAD if c != "common"}
    for kind, (req, opt) in CHECK_FIELDS.items():
        for f in req | opt:
            assert (kind, f) in cases, f"no bad-value case for {kind}.{f}"
    assert _CHECK_COMMON <= {f for c, f, _, _ in BAD if c == "common"}


@pytest.mark.parametrize("check,field,value,words", BAD, ids=[f"{c}.{f}.{i}" for i, (c, f, _, _) in enumerate(BAD)])
def test_bad_field_is_one_line_at_load(tmp_path, check, field, value, words):
    p, cid = _bad_file(tmp_path, check, field, value)
    with pytest.raises(FormulaFileError) as e:
        load_file(p)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith("fields.toml: "), msg
    assert f"check {cid!r}" in msg or f"{cid}" in msg, msg
    assert field in msg, msg
    assert words in msg, msg


@pytest.mark.parametrize("check,field,value,words", BAD[::7])
def test_bad_field_cli_exit_2_before_running(tmp_path, check, field, value, words, capsys, monkeypatch):
    """The command line: one line on stderr, exit 2, for a sample of the cases (every 7th)."""
    from boundcalc.cli import main
    p, _cid = _bad_file(tmp_path, check, field, value)
    monkeypatch.setattr(sys, "argv", ["boundcalc", "--formulas", str(p), "check", "fields"])
    with pytest.raises(SystemExit) as e:
        main()
    err = capsys.readouterr().err
    assert e.value.code == 2, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: fields.toml: ") and field in err, err
