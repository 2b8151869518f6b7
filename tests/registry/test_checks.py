"""The typed check specs (boundcalc.registry.checks): one frozen spec per kind, the KINDS
table the loader dispatches on and ``boundcalc check`` runs, a misspelt or unknown field
refused in one line naming it, and formulas/README.md's field reference written from them.

``python tests/registry/test_checks.py --write`` rewrites that part of formulas/README.md."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from boundcalc.errors import BoundcalcError, FormulaFileError
from boundcalc.registry import checks
from boundcalc.registry.checks import KINDS

README = Path(__file__).resolve().parents[2] / "formulas" / "README.md"

# the fields of each kind as issue 18 listed them (kind: required, optional), written out by
# hand here: the specs must declare exactly these
EXPECTED = {
    "derivation": ({"claim", "premise", "direction"}, {"substitute", "uses", "assume", "existential"}),
    "order": ({"formula", "var", "order", "relation"}, {"fixed", "together", "side", "limit", "regimes"}),
    "monotone": ({"formula", "var", "claim"}, {"box", "fixed", "assume", "uses"}),
    "compare": ({"lhs", "rel", "rhs"}, {"uses", "assume", "approximate"}),
    "restatement": ({"a", "b"}, {"substitute", "substitute_a", "substitute_b", "assume", "uses"}),
    "vacuity": ({"formula", "at", "trivial", "direction"}, {"side", "trivial_is", "floor", "ceiling", "derived",
                                                          "derived_source", "instances", "uses"}),   # issue 35
    "identity": ({"function", "derivative", "wrt", "at"}, {"tol", "uses"}),
    "measured": ({"measurement", "expected", "at"}, {"tol", "atol", "seed", "uses"}),
    "transcription": ({"formula"}, set()),
}
COMMON = ({"id", "kind", "location", "description"},
          {"severity", "note", "covers", "reading", "explained_by", "identity"})

# a valid value of each shape (what the spec alone can check; names against a paper are the loader's)
VALID = {"text": "x", "ident": "c1", "formula": "f", "expr": "x + 1", "table": {"x": "1"}, "names": ["a"],
         "var": "x", "number": "0.5", "seed": 3, "flag": True, "assume": ["x >= 1", {"expr": "x <= 2", "reason": "r"}],
         "regimes": [{"name": "r", "together": {"x": "y"}, "limit": "0"}],
         "approximate": {"tol": "0.1", "quote": "about"}, "instances": [{"z": "2"}], "explained_by": {"check": "other", "because": "b"}}


def _full_table(kind: str) -> dict:
    """A table of ``kind`` that sets every field (the kind's first word where it has words)."""
    cls = KINDS[kind]
    t = {}
    for f in dataclasses.fields(cls):
        md = f.metadata
        t[f.name] = md["words"][0] if md["shape"] == "word" else VALID[md["shape"]]
    t.update(kind=kind, note="why")
    if kind == "compare":
        t["rel"] = "=="                     # an approximate claim compares with ==
    if kind == "vacuity":
        t["derived"] = {"y": "x + 1"}       # a derived value is not also a value of 'at'

    return t


def _misspelt(name: str) -> str:
    """``name`` with its last two letters swapped (``claim`` -> ``clami``), or doubled."""
    return name[:-2] + name[-1] + name[-2] if len(name) > 2 and name[-1] != name[-2] else name + name[-1]


def test_the_specs_declare_exactly_the_fields_of_each_kind():
    assert set(KINDS) == set(EXPECTED)
    for kind, (req, opt) in EXPECTED.items():
        cls = KINDS[kind]
        assert cls.KIND == kind
        assert cls.required() == req | COMMON[0], kind
        assert cls.optional() == opt | COMMON[1], kind


def test_the_runners_are_the_kinds():
    from boundcalc.services.check import RUNNERS
    from boundcalc.services.check.strength import CLAIM_ROLES, FLIPS
    assert set(RUNNERS) == set(KINDS)
    assert set(CLAIM_ROLES) == set(KINDS)
    for kind, (fld, _) in FLIPS.items():      # the flipped field is a word field of its kind
        assert KINDS[kind].__dataclass_fields__[fld].metadata["shape"] == "word", (kind, fld)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_full_table_reads_into_a_frozen_typed_spec(kind):
    spec = KINDS[kind].from_table(_full_table(kind), file="f.toml", where="check 'c1'")
    assert isinstance(spec, KINDS[kind]) and spec.id == "c1" and spec.kind == kind
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.id = "other"        # type: ignore[misc]
    if hasattr(spec, "assume"):
        assert spec.assumptions == (checks.Assumption("x >= 1", ""), checks.Assumption("x <= 2", "r"))
    if kind == "order":
        assert spec.regimes == (checks.Regime(name="r", together={"x": "y"}, limit="0"),)
    assert spec.explained_by == checks.ExplainedBy("other", "b")
    if kind == "vacuity":
        assert (spec.derived, spec.instances) == ({"y": "x + 1"}, ({"z": "2"},))


def test_defaults_are_the_documented_ones():
    t = {"id": "m", "kind": "measured", "location": "l", "description": "d", "measurement": "x.y",
         "expected": "1", "at": {"n": "2"}}
    m = KINDS["measured"].from_table(t, file="f.toml", where="check 'm'")
    assert (m.seed, m.tol, m.atol, m.uses, m.severity, m.reading, m.identity) == \
        (0, "1e-6", "0", (), "error", "printed", False)
    v = KINDS["vacuity"].from_table({"id": "v", "kind": "vacuity", "location": "l", "description": "d",
                                     "formula": "f", "at": {}, "trivial": "1", "direction": "upper"},
                                    file="f.toml", where="check 'v'")
    assert (v.side, v.trivial_is, v.floor, v.ceiling) == ("rhs", "exact", None, None)


CASES = [(kind, f.name) for kind in sorted(KINDS) for f in dataclasses.fields(KINDS[kind]) if f.name != "kind"]


@pytest.mark.parametrize("kind,name", CASES, ids=[f"{k}.{n}" for k, n in CASES])
def test_a_misspelt_field_is_one_line_naming_it(kind, name):
    t = _full_table(kind)
    typo = _misspelt(name)
    t[typo] = t.pop(name)
    with pytest.raises(FormulaFileError) as e:
        KINDS[kind].from_table(t, file="f.toml", where="check 'c1'")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("f.toml: check 'c1': unknown field(s) "), msg
    assert typo in msg and "; did you mean " in msg, msg
    assert name in msg.split("; did you mean ", 1)[1].rstrip("?").split(", "), msg


@pytest.mark.parametrize("kind,name,bad,words", [
    ("order", "relation", "Omgea", "'Omgea' is not one of O, Omega, Theta; did you mean Omega?"),
    ("compare", "rel", "=<", "is not one of <=, >=, <, >, =="),
    ("monotone", "box", ["n"], "must be a table"),
    ("derivation", "uses", "gap", "must be a list of strings"),
    ("derivation", "uses", ["a", "a"], "lists 'a' twice"),
    ("identity", "tol", "-1", "must be >= 0"),
    ("measured", "seed", True, "seed must be a nonnegative integer"),
    ("compare", "lhs", 3, "an expression must be a string"),
    ("compare", "approximate", {"tol": "1", "quote": "q"}, "must be in (0, 1)"),
    ("derivation", "assume", ["x"], "must be a relation"),
    ("transcription", "identity", "yes", "true or false"),
    ("transcription", "severity", "fatal", "is not one of error, warning, note"),
])
def test_a_bad_value_is_one_line_naming_the_field(kind, name, bad, words):
    t = _full_table(kind)
    t[name] = bad
    with pytest.raises(FormulaFileError) as e:
        KINDS[kind].from_table(t, file="f.toml", where="check 'c1'")
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("f.toml: check 'c1'") and name in msg and words in msg, msg


def test_constraints_between_fields():
    t = _full_table("compare")
    t["rel"] = "<="
    with pytest.raises(FormulaFileError, match="field 'approximate': an approximate claim compares with rel"):
        KINDS["compare"].from_table(t, file="f.toml", where="check 'c1'")
    t = _full_table("transcription")
    t.update(severity="note", note=" ")
    with pytest.raises(FormulaFileError, match="severity = 'note' lowers the grade"):
        KINDS["transcription"].from_table(t, file="f.toml", where="check 'c1'")
    t = _full_table("transcription")
    t["explained_by"] = {"check": "c1", "because": "b"}
    with pytest.raises(FormulaFileError, match="cannot be explained by itself"):
        KINDS["transcription"].from_table(t, file="f.toml", where="check 'c1'")


def test_missing_field():
    t = _full_table("order")
    del t["relation"]
    with pytest.raises(FormulaFileError, match=r"^f.toml: check 'c1': missing field\(s\) relation$"):
        KINDS["order"].from_table(t, file="f.toml", where="check 'c1'")


def test_every_packaged_check_loads_into_its_kinds_spec():
    from boundcalc.registry import get_registry
    reg = get_registry()
    n = 0
    for key in reg.papers:
        for c in reg.paper(key).checks:
            assert type(c.spec) is KINDS[c.kind] and c.spec.id == c.id
            n += 1
    assert n > 200          # the four papers declare 261 checks


def test_readme_field_reference_is_the_specs():
    """formulas/README.md's table of kinds is the one the specs write (regenerate it with
    ``python tests/registry/test_checks.py --write``)."""
    text = README.read_text(encoding="utf-8")
    assert checks.readme_section(text) == checks.reference_table()
    assert checks.with_reference(text) == text
    for kind, cls in KINDS.items():        # each row names every field of its kind
        row = next(line for line in checks.reference_table().splitlines() if line.startswith(f"| `{kind}` |"))
        for f in cls.own_fields():
            assert f"`{f.name}`" in row, (kind, f.name)
    with pytest.raises(BoundcalcError, match="markers"):
        checks.readme_section("no markers")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        README.write_text(checks.with_reference(README.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote the checks reference of {README}")
    else:
        print(checks.reference_table(), end="")
