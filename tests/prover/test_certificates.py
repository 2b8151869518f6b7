"""Certificates with the decision procedure's verdicts (``decide_relation(..., certify=True)``,
prover/certificates.py), replayed by the independent checker (boundcalc.recheck).

What is expected is worked by hand: (x + y)**2 - (x**2 + 2xy + y**2) is the zero polynomial;
x**2 - x + 1 >= 3/4 > 0 on [0, 2]; x**2 <= x fails at every x > 1; exp(x) >= 1 + x on
x > 0 has no bounded box cover (the domain is unbounded), so its certificate names what it
trusts; sqrt(log(2/d)/(2n)) <= 1/sqrt(n) for d >= 0.270672 is tests/prover/test_rewrite.py's
target, proved after squaring.
"""
from __future__ import annotations

import copy
import json
from fractions import Fraction

from support import cli

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover.decide import decide_relation
from boundcalc.recheck import recheck

P = Domain(lo=Fraction(0))
Z1 = Domain(integer=True, lo=Fraction(1), lo_closed=True)
B = Domain(lo=Fraction(0), lo_closed=True, hi=Fraction(2), hi_closed=True)


def _t(s):
    return parse(s, allow_relation=False)


def _both(lhs, rel, rhs, doms, assume=()):
    """The decision without and with a certificate (the verdict must not change)."""
    plain = decide_relation(_t(lhs), rel, _t(rhs), dict(doms), [parse(a) for a in assume])
    cert = decide_relation(_t(lhs), rel, _t(rhs), dict(doms), [parse(a) for a in assume], certify=True)
    assert (plain.verdict, plain.text, plain.counterexample) == (cert.verdict, cert.text, cert.counterexample)
    assert plain.certificate is None
    return cert


def test_a_polynomial_identity_carries_an_exact_certificate():
    d = _both("(x + y)**2", "==", "x**2 + 2*x*y + y**2", {"x": Domain(), "y": Domain()})
    assert str(d.verdict) == "proved" and d.certificate["kind"] == "exact"
    r = recheck(json.loads(json.dumps(d.certificate)))
    assert r.valid and r.trusted == []


def test_a_bounded_inequality_carries_a_box_cover():
    d = _both("x**2 + 1", ">", "x", {"x": B})
    assert str(d.verdict) == "proved" and d.certificate["kind"] == "boxes"
    assert recheck(d.certificate).valid and recheck(d.certificate).trusted == []


def test_a_disproof_carries_its_counterexample():
    d = _both("x**2", "<=", "x", {"x": P})
    assert str(d.verdict) == "disproved" and d.certificate["kind"] == "counterexample"
    assert Fraction(d.certificate["point"]["x"]) > 1
    assert recheck(d.certificate).valid
    wrong = copy.deepcopy(d.certificate)
    wrong["point"]["x"] = "1/2"                  # 1/4 <= 1/2: the relation holds there
    assert not recheck(wrong).valid


def test_a_proof_the_checker_cannot_replay_says_what_it_trusts():
    # exp(x) >= 1 + x: an smt certificate with exp(x) a free real, of which cvc5 finds a
    # model (exp(x) = 1/2 at x = 1): no proof by the checker, so z3's proof, named
    d = _both("exp(x)", ">=", "1 + x", {"x": P})
    assert str(d.verdict) == "proved" and d.certificate["kind"] == "smt"
    r = recheck(d.certificate)
    assert r.valid and r.trusted and r.trusted[0].startswith("trusted: z3")
    # the Shafer-Fink bound by the ends layer (Taylor at 0, a limit at oo): an `ends`
    # certificate whose limit (SymPy's) and derivatives are named as trusted
    d = decide_relation(_t("atan(x)"), "<=", _t("pi*x/(1 + 2*sqrt(1 + x**2))"), {"x": P}, certify=True, seconds=8.0)
    assert str(d.verdict) == "proved" and d.certificate["kind"] == "ends"
    assert [p["by"] for p in d.certificate["pieces"]] == ["taylor", "monotone", "middle"]
    r = recheck(d.certificate)
    assert r.valid and any(t.startswith("trusted: SymPy limit (the limit of g at infinity is 0)") for t in r.trusted)
    assert d.recheck["status"] == r.status


def test_a_proof_after_a_rewrite_carries_the_rewrite_and_its_sub_certificate():
    d = _both("sqrt(log(2/d)/(2*n))", "<=", "1/sqrt(n)", {"d": P, "n": Z1}, ["d >= 0.270672"])
    c = d.certificate
    assert str(d.verdict) == "proved" and c["kind"] == "rewrite"
    assert c["rule"].startswith("after squaring both sides (both >= 0)") and "sub" in c
    r = recheck(c)
    assert r.valid and r.kinds[0] == "rewrite" and any("squaring" in t for t in r.trusted)


def test_a_certificate_the_checker_rejects_makes_the_verdict_unknown(monkeypatch):
    import boundcalc.recheck as R
    real = R.recheck
    monkeypatch.setattr(R, "recheck", lambda c, **kw: R.Recheck(False, "invalid: tampered in the test")
                        if c.get("kind") == "boxes" and "tree" in c and "split" in c["tree"] else real(c, **kw))
    d = decide_relation(_t("x**2 + 1"), ">", _t("x"), {"x": B}, certify=True)
    # the box cover the builder made is now rejected: the builder gives it up for an smt
    # one (z3 proved it; cvc5 re-proves the exact encoding), which the checker accepts
    assert str(d.verdict) == "proved" and d.certificate["kind"] == "smt"
    monkeypatch.setattr(R, "recheck", lambda c, **kw: R.Recheck(False, "invalid: tampered in the test"))
    d = decide_relation(_t("x**2 + 1"), ">", _t("x"), {"x": B}, certify=True)
    assert str(d.verdict) == "unknown" and "certificate rejected" in d.text and d.certificate is None


def test_verify_writes_the_certificate_and_recheck_replays_it(tmp_path):
    f = tmp_path / "cert.json"
    r = cli(["verify", "x**2 + 1", ">", "x", "--assume", "x <= 2", "--certificate", f])
    assert r.returncode == 0 and "PROVED" in r.stdout, r.stdout + r.stderr
    cert = json.loads(f.read_text())
    assert cert["kind"] == "boxes"
    r = cli(["recheck", f])
    assert r.returncode == 0 and r.stdout.startswith("VALID: boxes"), r.stdout + r.stderr
    cert["tree"]["split"]["at"] = "3/4"          # a moved box edge
    f.write_text(json.dumps(cert))
    r = cli(["recheck", f])
    assert r.returncode == 1 and r.stdout.startswith("INVALID:"), r.stdout + r.stderr
    f.write_text("not json")
    r = cli(["recheck", f])
    assert r.returncode == 2 and r.stderr.startswith("error: recheck") and len(r.stderr.splitlines()) == 1


def test_verify_json_carries_the_certificate_the_checker_accepts():
    r = cli(["verify", "x**2 + 1", ">", "x", "--assume", "x <= 2", "--json"])
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["certificate"]["kind"] == "boxes" and recheck(out["certificate"]).complete


def test_every_proof_is_rechecked_even_when_no_certificate_is_asked(monkeypatch):
    """The loop closed: a "proved" whose certificate the checker rejects is never reported,
    with or without certify (the certificate itself is kept only when asked)."""
    import boundcalc.recheck as R
    calls = []
    real = R.recheck

    def spy(c, **kw):
        calls.append(c["kind"])
        return real(c, **kw)
    monkeypatch.setattr(R, "recheck", spy)
    d = decide_relation(_t("x**2 + 1"), ">=", _t("2*x"), {"x": P})
    assert str(d.verdict) == "proved" and d.certificate is None and calls
    monkeypatch.setattr(R, "recheck", lambda c, **kw: R.Recheck(False, "invalid: tampered in the test"))
    d = decide_relation(_t("x**2 + 1"), ">=", _t("2*x"), {"x": P})
    assert str(d.verdict) == "unknown" and d.text.startswith("unknown (certificate rejected: invalid: tampered")
    # a disproof is not re-checked unless a certificate is asked (its point is already
    # certified in ball arithmetic by the layer that found it)
    d = decide_relation(_t("x**2"), "<=", _t("x"), {"x": P})
    assert str(d.verdict) == "disproved"


def test_check_writes_a_certificate_per_decided_relation_and_all_recheck(tmp_path):
    """check --certificates DIR on one paper: one file per decided relation, named from the
    check id, each accepted by the checker; the default --json report carries none."""
    r = cli(["check", "deora2023", "--certificates", tmp_path / "certs", "--jobs", "1", "--fail-on", "never",
             "--json", "--no-timings"])
    assert r.returncode == 0, r.stderr
    assert "certificate" not in r.stdout
    files = sorted((tmp_path / "certs").iterdir())
    assert len(files) >= 20
    kinds = set()
    for f in files:
        assert f.name.startswith("deora2023.") and f.name.endswith(".json")
        cert = json.loads(f.read_text())
        got = recheck(cert)
        assert got.valid, (f.name, got.reason)
        kinds.add(cert["kind"])
        assert cert["verdict"] in ("proved", "disproved") and cert["check"].startswith("deora2023.")
        # the label beside it is what the full checker says (cvc5 run: never "not rechecked")
        assert cert["rechecked"] == got.status != "certificate attached, not rechecked", f.name
    assert "counterexample" in kinds and kinds - {"counterexample"}


def test_a_certificate_file_name_is_safe():
    from boundcalc.cli.app import certificate_file_name
    assert certificate_file_name("p", "../../etc/passwd", 1) == "p.______etc_passwd.1.json"
    assert certificate_file_name("p", "latex:B_2", 3) == "p.latex_B_2.3.json"
    assert "/" not in certificate_file_name("a/b", "", 1)


def test_check_certificates_into_a_file_is_one_line(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    r = cli(["check", "deora2023", "--certificates", f, "--only", "B2_from_lemma2"])
    assert r.returncode == 2 and r.stderr.startswith("error: --certificates") and len(r.stderr.splitlines()) == 1


# ----------------------------------------------------------------------------- tampering
NEGATE = {">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "<"}


def _nodes(tree):
    yield tree
    for p in tree.get("parts", ()):
        yield from _nodes(p)


def _claims(cert):
    while True:
        yield cert["claim"]
        if cert["kind"] != "rewrite":
            return
        cert = cert["sub"]


def _tamper(cert, how: str, rng):
    """``cert`` with one edit that makes it false whatever else it says: a box's number
    changed (the box is then not the part of its parent the split says, or the domain's
    closure), a box dropped (a split left with one part), a claim edited into its negation
    (every point where the claim holds then refutes it), a counterexample moved to where the
    relation holds, an identity's degree bound lowered below the degree."""
    m = copy.deepcopy(cert)
    inner = m
    while inner["kind"] == "rewrite":
        inner = inner["sub"]
    if how == "claim":
        c = rng.choice(list(_claims(m)))
        c["rel"] = NEGATE[c["rel"]]
    elif how == "number" and inner["kind"] == "boxes":
        node = rng.choice(list(_nodes(inner["tree"])))
        var = rng.choice(sorted(node["box"]))
        end = rng.randrange(2)
        node["box"][var][end] = str(Fraction(node["box"][var][end]) + Fraction(rng.choice([-1, 1]), rng.randint(3, 97)))
    elif how == "number" and inner["kind"] == "exact":
        var = rng.choice(sorted(k for k, v in inner["degrees"].items() if int(v) > 0))
        inner["degrees"][var] = str(int(inner["degrees"][var]) - 1)
    elif how == "number" and inner["kind"] == "counterexample":
        inner["point"]["x"] = str(Fraction(rng.randint(1, 99), 100))     # x**2 <= x holds on (0, 1]
    elif how == "number" and inner["kind"] == "smt":
        # a number of the query (a domain's end, a coefficient) changed: not the claim's encoding
        nums = [t for t in inner["query"].replace("(", " ").replace(")", " ").split() if t.endswith(".0")]
        old = rng.choice(nums)
        inner["query"] = inner["query"].replace(old, f"{int(float(old)) + rng.randint(1, 9)}.0", 1)
    elif how == "number" and inner["kind"] == "ends":
        # a piece narrowed: a gap between pieces, or a piece that is not its slope's proof's
        piece = rng.choice(inner["pieces"])
        end = rng.choice([k for k in ("lo", "hi") if piece[k] is not None])
        piece[end] = str(Fraction(piece[end]) + (1 if end == "lo" else -1) * Fraction(1, rng.randint(1000, 9999)))
    elif how == "drop":
        splits = [n for n in _nodes(inner["tree"]) if "parts" in n]
        rng.choice(splits)["parts"].pop(rng.randrange(2))
    return m


def test_two_hundred_tampered_certificates_of_real_decisions_are_all_rejected():
    """Certificates the decision procedure itself produced (a box cover, a polynomial
    identity, a counterexample, proofs by z3 re-proved by cvc5 (smt, one with log(1 + x) a
    free real), one by z3 that cvc5 does not re-prove, one by the ends layer: its pieces),
    210 of them tampered with one edit each, of a kind the certificate has (fixed seed):
    every one rejected."""
    import random
    made = [
        decide_relation(_t("x**2 + 1"), ">", _t("x"), {"x": B}, certify=True),
        decide_relation(_t("x*y + 1"), ">=", _t("x/2"), {"x": B, "y": B}, certify=True),
        decide_relation(_t("(x + y)**2"), "==", _t("x**2 + 2*x*y + y**2"), {"x": P, "y": P}, certify=True),
        decide_relation(_t("x**2"), "<=", _t("x"), {"x": P}, certify=True),
        decide_relation(_t("sqrt(x**2 + 1)"), ">", _t("x"), {"x": B}, certify=True),
        decide_relation(_t("x**2 + 1"), ">=", _t("2*x"), {"x": P}, certify=True),
        decide_relation(_t("sqrt(x)"), "<=", _t("(1 + x)/2"), {"x": P}, certify=True),
        decide_relation(_t("x/(1 + x)"), "<", _t("1"), {"x": P}, certify=True),
        decide_relation(_t("exp(x)"), ">=", _t("1 + x"), {"x": P}, certify=True),
        decide_relation(_t("log(1 + x) + 1"), ">", _t("log(1 + x)"), {"x": P}, certify=True),
        decide_relation(_t("atan(x)"), "<=", _t("pi*x/(1 + 2*sqrt(1 + x**2))"), {"x": P}, certify=True, seconds=8.0),
    ]
    certs = [d.certificate for d in made]
    kinds = [c["kind"] for c in certs]
    assert {"boxes", "exact", "counterexample", "smt", "ends"} <= set(kinds), kinds
    assert all(recheck(c).valid for c in certs)
    rng = random.Random(3333)
    tampered = []
    while len(tampered) < 210:
        c = rng.choice(certs)
        inner = c
        while inner["kind"] == "rewrite":
            inner = inner["sub"]
        hows = ["claim"] + (["number"] if inner["kind"] in ("boxes", "exact", "counterexample", "smt", "ends") else []) \
            + (["drop"] if inner["kind"] == "boxes" and "parts" in inner["tree"] else [])
        how = rng.choice(hows)
        tampered.append((how, _tamper(c, how, rng)))
    assert {h for h, _ in tampered} == {"claim", "number", "drop"}
    accepted = [(h, m["kind"]) for h, m in tampered if recheck(json.loads(json.dumps(m))).valid]
    assert accepted == []
