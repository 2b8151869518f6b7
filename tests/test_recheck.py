"""The independent certificate checker (boundcalc.recheck): every kind of the vocabulary
replayed, tampered certificates rejected, and the checker's independence of the prover.

The expected answers are worked by hand: 2 is a counterexample to x**2 <= x (4 > 2), 1/2
is not (1/4 <= 1/2); (x + y)**2 - x**2 - 2xy - y**2 is the zero polynomial and
(x + y)**2 - x**2 - y**2 = 2xy is not (2 at x = y = 1); x**2 - x + 1 >= 3/4 > 0 everywhere
(its minimum, at x = 1/2); 4x - 1 >= 0 wherever x >= 1/4.
"""
from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from boundcalc.expr.domains import Domain
from boundcalc.expr.parser import parse
from boundcalc.prover import certificates as C
from boundcalc.recheck import recheck


def _claim(lhs, rel, rhs, domains, assume=()):
    return C.claim(parse(lhs, allow_relation=False), rel, parse(rhs, allow_relation=False), domains,
                   [parse(a) for a in assume])


P = Domain(lo=Fraction(0))
UNIT2 = Domain(lo=Fraction(0), lo_closed=True, hi=Fraction(2), hi_closed=True)
UNIT = Domain(lo=Fraction(0), lo_closed=True, hi=Fraction(1), hi_closed=True)


# ----------------------------------------------------------------------------- counterexample
def test_a_counterexample_is_replayed_and_a_wrong_point_rejected():
    claim = _claim("x**2", "<=", "x", {"x": P})
    assert recheck(C.counterexample(claim, {"x": "2"})).valid
    r = recheck(C.counterexample(claim, {"x": "1/2"}))       # 1/4 <= 1/2 holds there
    assert not r.valid and "holds at the point" in r.reason
    r = recheck(C.counterexample(claim, {"x": "-3"}))        # outside x > 0
    assert not r.valid and "outside its domain" in r.reason
    r = recheck(C.counterexample(claim, {}))
    assert not r.valid and "no value for x" in r.reason


def test_a_counterexample_must_satisfy_the_assumptions():
    claim = _claim("x", "<=", "1", {"x": P, "y": P}, ["x <= y"])
    assert recheck(C.counterexample(claim, {"x": "2", "y": "3"})).valid
    r = recheck(C.counterexample(claim, {"x": "2", "y": "1"}))   # x <= y fails: not a point of the claim
    assert not r.valid and "assumption 0" in r.reason


def test_an_assumption_that_holds_with_equality_through_abs_is_decided_exactly():
    # tarzanagh2023 factor_56_from_lemma7 inside its hypotheses: |gamma_1 - gamma_3| <= Gamma held
    # with equality at the search's point; abs() sent the sign to ball arithmetic, which never
    # shows a 0, and the disproof became "unknown (certificate rejected)" under --certificates.
    # By hand: at a = b = 1, c = 0, |a - b| - c = 0 (the assumption holds) and a + b = 2 > 1.
    R = Domain()
    claim = _claim("a + b", "<=", "1", {"a": R, "b": R, "c": R}, ["abs(a - b) <= c", "max(a, b) >= c"])
    assert recheck(C.counterexample(claim, {"a": "1", "b": "1", "c": "0"})).valid
    assert not recheck(C.counterexample(claim, {"a": "1", "b": "1/2", "c": "0"})).valid   # |1/2| > 0


def test_a_trusted_disproof_is_not_spot_checked_as_a_proof():
    # the fallback for an exact 0 at a disproof's point: its claim (x <= 0 over x > 0) fails at
    # every point, as a disproof's may; a proof's trusted certificate of it is still rejected
    cert = C.trusted(_claim("x", "<=", "0", {"x": P}), "SymPy", "an exact 0 at the point {'x': '1'}")
    assert not recheck(cert).valid and "the claim fails at" in recheck(cert).reason
    assert recheck(dict(cert, verdict="disproved")).valid


def test_a_counterexample_with_a_transcendental_side_is_decided_in_balls():
    claim = _claim("exp(x)", "<=", "1 + x + x**2/2", {"x": P})
    assert recheck(C.counterexample(claim, {"x": "1"})).valid           # e > 2.5
    assert not recheck(C.counterexample(claim, {"x": "-1/2"})).valid    # outside the domain


# ----------------------------------------------------------------------------- exact
def test_an_exact_identity_is_replayed_and_a_lowered_degree_rejected():
    a, b = parse("(x + y)**2", allow_relation=False), parse("x**2 + 2*x*y + y**2", allow_relation=False)
    claim = C.claim(a, "==", b, {"x": Domain(), "y": Domain()}, [])
    cert = C.exact(claim, a, "==", b)
    assert cert is not None and cert["degrees"] == {"x": "2", "y": "2"}
    assert recheck(cert).valid
    bad = copy.deepcopy(cert)
    bad["degrees"]["x"] = "1"
    r = recheck(bad)
    assert not r.valid and "degree bound of x" in r.reason
    wrong = copy.deepcopy(cert)
    wrong["claim"]["rhs"] = "x**2 + y**2"
    r = recheck(wrong, spot=False)                   # the exact grid alone
    assert not r.valid and "not 0" in r.reason
    assert "the claim fails at" in recheck(wrong).reason    # and the spot check, before the proof


def test_exact_evaluation_is_no_proof_of_a_non_polynomial_identity():
    a, b = parse("sqrt(x)**2", allow_relation=False), parse("x", allow_relation=False)
    assert C.exact(C.claim(a, "==", b, {"x": P}, []), a, "==", b) is None
    cert = {"kind": "exact", "claim": C.claim(a, "==", b, {"x": P}, []), "degrees": {"x": "2"}}
    r = recheck(cert)
    assert not r.valid and "not a polynomial" in r.reason


# ----------------------------------------------------------------------------- boxes
def _boxes(lhs, rel, rhs, domains, assume=()):
    a, b = parse(lhs, allow_relation=False), parse(rhs, allow_relation=False)
    extra = [parse(t) for t in assume]
    return C.boxes(C.claim(a, rel, b, domains, extra), a, rel, b, domains, extra)


def _leaves(tree):
    return [tree] if "split" not in tree else _leaves(tree["parts"][0]) + _leaves(tree["parts"][1])


def test_a_box_cover_is_replayed():
    cert = _boxes("x**2 + 1", ">", "x", {"x": UNIT2})
    assert cert is not None and len(_leaves(cert["tree"])) >= 2     # 0 <= x**2 - x + 1 needs a split
    r = recheck(cert)
    assert r.valid and r.trusted == [] and "boxes cover" in r.reason
    assert recheck(json.loads(json.dumps(cert))).valid             # JSON-serialisable as it stands


def test_a_box_cover_with_an_assumption_closing_boxes():
    cert = _boxes("4*x - 1", ">=", "0", {"x": UNIT}, ["x >= 1/2"])
    assert cert is not None
    assert {leaf["by"] for leaf in _leaves(cert["tree"])} == {"goal", "assumption"}
    assert recheck(cert).valid


def test_a_huge_enclosure_is_recorded_by_a_short_bound():
    # exp(10000 x) >= e**10000 on [1, 2]: an enclosure end of 4343 digits, more than Python
    # writes as a string; the certificate records 1 instead (1 <= the enclosure's end), and
    # 1/2**k under a tiny positive one (exp(-10000 x) > 0: about 10**-8686)
    cert = _boxes("exp(10000*x)", ">", "0", {"x": Domain(lo=Fraction(1), lo_closed=True, hi=Fraction(2),
                                                              hi_closed=True)})
    assert cert is not None and cert["tree"]["lower"] == "1" and recheck(cert).valid
    tiny = _boxes("exp(-10*x)", ">", "0", {"x": UNIT2})
    assert tiny is not None and recheck(tiny).valid
    assert all(Fraction(leaf["lower"]) > 0 and len(leaf["lower"]) < 100 for leaf in _leaves(tiny["tree"]))


def test_a_false_claim_gets_no_box_cover_and_a_forged_one_is_rejected():
    assert _boxes("x**2", ">", "x", {"x": UNIT2}) is None           # fails on (0, 1)
    claim = _claim("x**2", ">", "x", {"x": UNIT2})
    forged = {"kind": "boxes", "claim": claim,
              "tree": {"box": {"x": ["0", "2"]}, "by": "goal", "prec": 64, "lower": "1"}}
    r = recheck(forged, spot=False)                  # the box cover alone
    assert not r.valid and "does not close" in r.reason
    assert "the claim fails at x = 0 " in recheck(forged).reason     # 0 > 0 is false
    unbounded = {"kind": "boxes", "claim": _claim("x**2 + 1", ">", "x", {"x": P}), "tree": forged["tree"]}
    assert "unbounded" in recheck(unbounded).reason


def test_a_moved_box_edge_is_rejected():
    cert = _boxes("x**2 + 1", ">", "x", {"x": UNIT2})
    moved = copy.deepcopy(cert)
    moved["tree"]["split"]["at"] = "9/10"           # the parts still say 1
    assert not recheck(moved).valid
    leaf = copy.deepcopy(cert)
    _leaves(leaf["tree"])[0]["box"]["x"][1] = "3/7"
    r = recheck(leaf)
    assert not r.valid and "not the part of its parent" in r.reason
    root = copy.deepcopy(cert)
    root["claim"]["domains"]["x"]["hi"] = "3"        # the cover no longer covers the domain
    assert not recheck(root).valid


def _nodes(tree):
    return [tree] + [n for p in tree.get("parts", []) for n in _nodes(p)]


def _mutants(cert, rng, n):
    """``n`` certificates, each with one number changed in the direction that breaks it: a
    box edge or a split point moved, a recorded enclosure end raised past the function's values."""
    for _ in range(n):
        m = copy.deepcopy(cert)
        nodes = _nodes(m["tree"])
        splits = [t for t in nodes if "split" in t]
        leaves = [t for t in nodes if "split" not in t]
        what = rng.choice(["edge", "split", "bound"])
        delta = Fraction(rng.randint(1, 97), rng.randint(98, 997))
        if what == "edge":
            t = rng.choice(nodes)
            end = rng.randint(0, 1)
            t["box"]["x"][end] = str(Fraction(t["box"]["x"][end]) + (delta if end else -delta))
        elif what == "split" and splits:
            t = rng.choice(splits)
            t["split"]["at"] = str(Fraction(t["split"]["at"]) + rng.choice([-1, 1]) * delta / 64)
        else:
            t = rng.choice(leaves)
            key = "lower" if t["by"] == "goal" else "upper"
            # raised past what any enclosure can show: x**2 - x + 1 <= 3 on [0, 2], so a lower
            # end above 10 is false; an assumption's recorded upper end above 0 closes nothing
            t[key] = str(Fraction(t[key]) + (10 + delta if key == "lower" else 1 + delta))
        yield m


def test_two_hundred_mutated_certificates_are_all_rejected():
    rng = random.Random(33)
    cert = _boxes("x**2 + 1", ">", "x", {"x": UNIT2})
    bad = [m for m in _mutants(cert, rng, 150) if recheck(m).valid]
    assert bad == []
    claim = _claim("x**2", "<=", "x", {"x": P})
    for _ in range(50):                  # points where x**2 <= x holds, or outside x > 0
        x = Fraction(rng.randint(-50, 50), rng.randint(51, 100))
        assert not recheck(C.counterexample(claim, {"x": str(x)})).valid, x


# ----------------------------------------------------------------------------- rewrite, trusted, malformed
def test_a_rewrite_is_as_good_as_its_sub_certificate_and_names_what_it_trusts():
    inner = _boxes("x**2 + 1", ">", "x", {"x": UNIT2})
    outer = C.rewrite(_claim("sqrt(x**2 + 1)", ">", "sqrt(x)", {"x": UNIT2}), "squaring both sides (both >= 0)",
                      inner)
    r = recheck(outer)
    assert r.valid and r.kinds == ["rewrite", "boxes"]
    assert r.trusted and "squaring both sides" in r.trusted[0]
    broken = copy.deepcopy(outer)
    broken["sub"]["tree"]["split"]["at"] = "1/3"
    assert not recheck(broken).valid


def test_a_trusted_certificate_is_accepted_and_says_what_it_trusts():
    r = recheck(C.trusted(_claim("x", "<=", "x + 1", {"x": P}), "z3", "nonlinear real arithmetic"))
    assert r.valid and r.trusted == ["trusted: z3 (nonlinear real arithmetic)"]


@pytest.mark.parametrize("cert, why", [
    ({}, "missing field 'kind'"),
    ({"kind": "magic"}, "unknown kind"),
    ({"kind": "counterexample", "claim": {"lhs": "x", "rel": "<=", "rhs": "1", "domains": {}, "assumptions": []},
      "point": {"x": "2"}}, "no domain for x"),
    ({"kind": "counterexample", "claim": {"lhs": "x", "rel": "<=", "rhs": "1",
      "domains": {"x": {"integer": False, "lo": None, "lo_closed": False, "hi": None, "hi_closed": False}},
      "assumptions": []}, "point": {"x": "two"}}, "not an exact number"),
    ({"kind": "counterexample", "claim": {"lhs": "x +", "rel": "<=", "rhs": "1", "domains": {},
      "assumptions": []}, "point": {}}, "does not parse"),
    ([], "missing field 'kind'"),
])
def test_a_malformed_certificate_is_invalid_with_a_reason_never_a_traceback(cert, why):
    r = recheck(cert)
    assert not r.valid and why in r.reason, r.reason


def test_the_checker_imports_neither_the_prover_nor_sympy():
    cert = _boxes("x**2 + 1", ">", "x", {"x": UNIT2})
    # the package's own __init__ loads its API (the registry among it): what the checker
    # adds on top of that, importing and replaying a certificate, is what is tested
    code = ("import json, sys; import boundcalc; before = set(sys.modules); "
            "from boundcalc.recheck import recheck; "
            f"r = recheck(json.loads({json.dumps(json.dumps(cert))})); assert r.valid, r.reason; "
            "bad = sorted(m for m in set(sys.modules) - before if m.startswith(('sympy', 'boundcalc.prover', "
            "'boundcalc.services', 'boundcalc.registry', 'z3'))); print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_an_edited_claim_is_rejected_even_when_its_proof_is_trusted():
    # before: a `trusted` certificate whose claim was edited from x**2 + 1 >= 2*x to the false
    # x**2 + 1 >= 3*x (1.25 < 1.5 at x = 1/2) was VALID, since nothing of a trusted step is checked
    claim = _claim("x**2 + 1", ">=", "2*x", {"x": P})
    cert = {"kind": "trusted", "claim": claim, "by": "z3", "how": "proved (SMT, polynomial)"}
    r = recheck(cert)
    assert r.valid and not r.complete and r.trusted == ["trusted: z3 (proved (SMT, polynomial))"]
    bad = copy.deepcopy(cert)
    bad["claim"]["rhs"] = "3*x"
    r = recheck(bad)
    assert not r.valid and "the claim fails at x = 1/2" in r.reason


def test_the_cli_tells_a_complete_check_from_one_up_to_trusted_facts(tmp_path):
    from support import cli
    claim = _claim("x**2 + 1", ">=", "2*x", {"x": P})
    f = tmp_path / "c.json"
    f.write_text(json.dumps({"kind": "trusted", "claim": claim, "by": "z3"}), encoding="utf-8")
    p = cli(["recheck", str(f)])
    assert p.returncode == 5 and p.stdout.startswith("VALID UP TO TRUSTED FACTS"), (p.returncode, p.stdout)
    f.write_text(json.dumps(_boxes("x**2 + 1", ">", "x", {"x": UNIT2})), encoding="utf-8")
    p = cli(["recheck", str(f)])
    assert p.returncode == 0 and p.stdout.startswith("VALID: "), (p.returncode, p.stdout)


# ----------------------------------------------------------------------------- smt (cvc5)
def _smt(lhs, rel, rhs, domains, assume=()):
    return C.smt(_claim(lhs, rel, rhs, domains, assume), "z3")


def test_an_smt_certificate_is_re_proved_by_cvc5_on_the_exact_encoding():
    pytest.importorskip("cvc5")
    # sqrt(x) <= (1 + x)/2 is AM-GM: (1 - sqrt(x))**2 >= 0; the root is named by its definition
    cert = _smt("sqrt(x)", "<=", "(1 + x)/2", {"x": P})
    assert "(= (* |_t0| |_t0|) |x|)" in cert["query"] and "(>= |_t0| 0.0)" in cert["query"]
    r = recheck(cert)
    assert r.valid and r.complete and r.kinds == ["smt"], r.reason
    # x/(1 + x) < 1 for x > 0; the quotient named with 1 + x != 0
    assert recheck(_smt("x/(1 + x)", "<", "1", {"x": P})).complete


def test_a_false_smt_claim_is_rejected_by_cvc5_whatever_the_certificate_says():
    pytest.importorskip("cvc5")
    # sqrt(x) <= x/2 fails at x = 1 (1 > 1/2); claim and query consistent, so only cvc5 can tell
    r = recheck(_smt("sqrt(x)", "<=", "x/2", {"x": P}), spot=False)
    assert not r.valid and "cvc5 finds a point" in r.reason


def test_an_smt_query_that_is_not_the_claims_encoding_is_rejected():
    cert = _smt("x**2 + 1", ">=", "2*x", {"x": P})
    cert["query"] = cert["query"].replace("(* 2.0 |x|)", "(* 1.0 |x|)")
    r = recheck(cert)
    assert not r.valid and "not the exact encoding" in r.reason
    # another claim's query under this claim: invalid
    forged = {**cert, "claim": _claim("exp(x)", ">=", "1 + x", {"x": P})}
    assert not recheck(forged).valid


def test_other_functions_are_free_reals_and_a_model_of_them_refutes_nothing():
    pytest.importorskip("cvc5")
    # log(x) + 1 >= log(x) holds whatever log(x) is: re-proved with log(x) a free real
    cert = _smt("log(x) + 1", ">=", "log(x)", {"x": P})
    assert "; |_t0| is log(x) (a free real)" in cert["query"]
    r = recheck(cert)
    assert r.complete and "free reals" in r.reason, r.reason
    # pi > 3 from the fact 3 < pi < 22/7; x**y * x**y >= 0 with x**y free (no sign assumed)
    assert recheck(_smt("pi", ">", "3", {})).complete
    cert = _smt("x**y * x**y", ">=", "0", {"x": P, "y": P})
    assert "(> |_t0| 0.0)" not in cert["query"] and recheck(cert).complete
    # exp(x) >= 1 + x needs more of exp than exp > 0: cvc5 finds a model of the abstraction,
    # which is no counterexample -- the proof stays z3's, labelled, and the certificate valid
    r = recheck(_smt("exp(x)", ">=", "1 + x", {"x": P}))
    assert r.valid and not r.complete and "free reals" in r.trusted[0], r.trusted


def test_without_cvc5_an_smt_certificate_is_trusted_to_z3_with_a_label(monkeypatch):
    import boundcalc.recheck as R
    monkeypatch.setitem(sys.modules, "cvc5", None)          # import cvc5 -> ImportError
    monkeypatch.setattr(R, "_CVC5", {})
    r = recheck(_smt("x**2 + 1", ">=", "2*x", {"x": P}))
    assert r.valid and not r.complete and r.trusted == ["trusted: z3 (cvc5 not installed)"]


def test_a_named_term_never_takes_a_symbols_name():
    cert = _smt("sqrt(_t0)", "<=", "(1 + _t0)/2", {"_t0": P})
    assert "(declare-fun |_t1| () Real)" in cert["query"] and "(= (* |_t1| |_t1|) |_t0|)" in cert["query"]


def test_an_indexed_symbol_and_one_named_like_it_are_refused_not_confused():
    from boundcalc.expr.nodes import Add, Mul, Num, Sym
    from boundcalc.prover.decide import decide_relation
    with pytest.raises(C.NameClash, match="a_i_"):
        C.claim(Sym("a[i]"), ">=", Sym("a_i_"), {"a[i]": P, "a_i_": P}, [])
    a, b = Sym("a[i]"), Sym("a_i_")
    two = Num(Fraction(2))
    # a**2 + b**2 >= 2ab is true; read as one symbol it would say 2a**2 >= 2a**2, also true:
    # a proof the checker cannot tell apart from another claim, so no "proved"
    d = decide_relation(Add((Mul((a, a)), Mul((b, b)))), ">=", Mul((two, a, b)),
                        {"a[i]": P, "a_i_": P}, certify=True)
    assert str(d.verdict) == "unknown" and "certificate refused" in d.text


# ----------------------------------------------------------------------------- cheap and full rechecks
def test_the_cheap_recheck_checks_the_query_text_but_labels_the_proof_not_rechecked():
    cert = _smt("sqrt(x)", "<=", "(1 + x)/2", {"x": P})
    r = recheck(cert, solver=False)
    assert r.valid and not r.complete and r.trusted == [] and r.status == "certificate attached, not rechecked"
    assert r.not_rechecked and "boundcalc recheck FILE" in r.not_rechecked[0]
    assert r.to_json()["status"] == r.status and r.to_json()["not_rechecked"] == r.not_rechecked
    # the query must still be the claim's encoding, cvc5 or not
    bad = {**cert, "query": cert["query"].replace("(* |_t0| |_t0|)", "(* |_t0| 2.0)")}
    assert not recheck(bad, solver=False).valid
    # a false claim is still caught by the exact spot points without cvc5 (x = 1: 1 > 1/2)
    assert not recheck(_smt("sqrt(x)", "<=", "x/2", {"x": P}), solver=False).valid


def test_a_decision_runs_cvc5_only_when_its_certificate_is_handed_out(monkeypatch):
    pytest.importorskip("cvc5")
    import boundcalc.recheck as R
    from boundcalc.prover.decide import decide_relation
    asked = []
    real = R.cvc5_answer
    monkeypatch.setattr(R, "cvc5_answer", lambda q: asked.append(q) or real(q))
    a, b = parse("sqrt(x)", allow_relation=False), parse("(1 + x)/2", allow_relation=False)
    d = decide_relation(a, "<=", b, {"x": P})
    assert str(d.verdict) == "proved" and d.certificate is None and d.recheck is None and asked == []
    d = decide_relation(a, "<=", b, {"x": P}, certify=True)
    assert str(d.verdict) == "proved" and d.certificate["kind"] == "smt" and len(asked) == 1
    assert d.recheck["status"] == "rechecked" and d.recheck["complete"]


def test_verify_says_what_the_checker_made_of_its_certificate(tmp_path):
    pytest.importorskip("cvc5")
    from support import cli
    p = cli(["verify", "sqrt(x)", "<=", "(1 + x)/2", "--certificate", str(tmp_path / "c.json")])
    assert p.returncode == 0 and p.stdout.rstrip().endswith("certificate: rechecked"), p.stdout
    p = cli(["verify", "sqrt(x)", "<=", "(1 + x)/2", "--json"])
    d = json.loads(p.stdout)
    assert d["certificate"]["kind"] == "smt" and d["recheck"]["status"] == "rechecked"
    # a proof taken on trust (exp is outside the smt encoding) is labelled so, never "rechecked"
    p = cli(["verify", "exp(x)", ">=", "1 + x", "--json"])
    d = json.loads(p.stdout)
    assert d["recheck"]["status"] == "rechecked up to trusted facts" and d["recheck"]["trusted"]
    p = cli(["verify", "exp(x)", ">=", "1 + x"])
    assert "certificate" not in p.stdout          # none asked for: none described


def _spin():
    while True:
        pass


def test_cvc5_answers_the_same_under_a_busy_loop(monkeypatch):
    """No clock in cvc5's answer: a work limit (resource units) and, for its procedure that
    ignores it, a CPU-time net in a child process. Two busy processes on the machine's cores
    change nothing: an unsat, a sat and a runaway query (the 10-variable claim of anon2025
    the coverings procedure does not stop on; the net lowered to 1 s for the test)."""
    pytest.importorskip("cvc5")
    import multiprocessing

    import boundcalc.recheck as R
    monkeypatch.setattr(R, "CVC5_NET_CPU", 1)
    names = ("Q", "K", "V", "O")
    doms = {f"D_{n}": Domain(lo=Fraction(0), lo_closed=True) for n in names} | {f"R_{n}": P for n in names}
    queries = [
        _smt("sqrt(x)", "<=", "(1 + x)/2", {"x": P})["query"],                     # AM-GM: unsat
        R.smt_query(R.read_claim(_claim("sqrt(x)", "<=", "x/2", {"x": P}))),        # x = 1: sat
        _smt("sqrt(" + " + ".join(f"D_{n}**2" for n in names) + ")", "<=",
             "sqrt(" + " + ".join(f"R_{n}**2" for n in names) + ")", doms,
             [f"D_{n} <= R_{n}" for n in names])["query"],
    ]

    def answers():
        monkeypatch.setattr(R, "_CVC5", {})
        return [R.cvc5_answer(q) for q in queries]

    idle = answers()
    assert idle == ["unsat", "sat", "net"], idle
    busy = [multiprocessing.get_context("spawn").Process(target=_spin, daemon=True) for _ in range(2)]
    for b in busy:
        b.start()
    try:
        loaded = answers()
    finally:
        for b in busy:
            b.terminate()
            b.join()
    assert loaded == idle


# ----------------------------------------------------------------------------- cases, monotone
SYM2 = Domain(lo=Fraction(-2), lo_closed=True, hi=Fraction(2), hi_closed=True)
HALF2 = Domain(lo=Fraction(0), lo_closed=True, hi=Fraction(2), hi_closed=True)


def _exact(lhs, rel, rhs, domains):
    a, b = parse(lhs, allow_relation=False), parse(rhs, allow_relation=False)
    return C.exact(C.claim(a, rel, b, domains, []), a, rel, b)


def _split():
    """|x|*|x| + 1 > |x| on [-2, 2] (t**2 - t + 1 >= 3/4 for t = |x|), cut at x = 0: on x <= 0
    (written x -> -x, x in [0, 2]) |-x| is x since -x <= 0; on x >= 0 |x| is x; either piece
    reads x*x + 1 > x on [0, 2], closed by a box cover."""
    def piece(half, of, sign, sign_claim):
        return {"halves": {"x": half}, "case": None,
                "signs": [{"of": of, "sign": sign, "proof": _boxes(*sign_claim, {"x": HALF2})}],
                "proof": _boxes("x*x + 1", ">", "x", {"x": HALF2})}
    return C.cases(_claim("abs(x)*abs(x) + 1", ">", "abs(x)", {"x": SYM2}), ["x"],
                   [piece("-", "-x", "-", ("-x", "<=", "0")), piece("+", "x", "+", ("x", ">=", "0"))])


def _reduction():
    """x*(1 + d)**2 >= x on [0, 1] x [0, 1]: d/dd of the difference, 2*x*(1 + d), is >= 0 on
    the box (a box cover), so the least value along d is at d = 0, where both sides are x
    (an identity of degree 1)."""
    return C.monotone(_claim("x*(1 + d)**2", ">=", "x", {"x": UNIT, "d": UNIT}), "d", "lo",
                      parse("2*x*(1 + d)", allow_relation=False),
                      _boxes("2*x*(1 + d)", ">=", "0", {"x": UNIT, "d": UNIT}), _exact("x", ">=", "x", {"x": UNIT}))


def _iv(lo, hi, lo_closed=True, hi_closed=True):
    return {"lo": lo, "lo_closed": lo_closed, "hi": hi, "hi_closed": hi_closed}


def _cut_ends():
    """x**2 - x**3 >= 0 on [0, 1] (x**2 (1 - x)), touching 0 at both ends: Taylor at 0 on
    [0, 1/4] (g(0) = g'(0) = 0, g'' = 2 - 6x >= 1/2 there), a box cover of the middle
    [1/4, 3/4], and at 1 g decreasing (-g' = 3x**2 - 2x >= 3/16 on [3/4, 1]) to g(1) = 0."""
    piece = lambda lo, hi: {"x": Domain(lo=Fraction(lo), lo_closed=True, hi=Fraction(hi), hi_closed=True)}
    return C.ends(_claim("x**2 - x**3", ">=", "0", {"x": UNIT}), "x", [
        {"by": "taylor", **_iv("0", "1/4"), "at": "lo", "derivatives": ["2*x - 3*x**2", "2 - 6*x"]},
        {"by": "middle", **_iv("1/4", "3/4"), "proof": _boxes("x**2 - x**3", ">=", "0", piece("1/4", "3/4"))},
        {"by": "monotone", **_iv("3/4", "1"), "derivative": "2*x - 3*x**2", "direction": -1,
         "strict": False, "proof": _boxes("-(2*x - 3*x**2)", ">=", "0", piece("3/4", "1")), "least": {"by": "zero"}},
    ])


def test_an_ends_argument_is_replayed_piece_by_piece():
    cert = _cut_ends()
    r = recheck(json.loads(json.dumps(cert)))
    assert r.valid and r.kinds == ["ends", "boxes", "boxes"], r.reason
    assert not any("= 0 exactly" in t for t in r.trusted), r.trusted       # g(0), g'(0), g(1) exact
    gap = copy.deepcopy(cert)
    gap["pieces"][1]["hi"] = "2/3"          # (2/3, 3/4) uncovered (and the box cover is of [1/4, 3/4])
    assert not recheck(gap).valid
    moved = copy.deepcopy(cert)
    moved["pieces"][0]["hi"] = "1/2"        # g'' = 2 - 6x < 0 past 1/3: the Taylor bound fails
    assert not recheck(moved).valid
    at = copy.deepcopy(cert)
    at["pieces"][0]["at"] = "hi"            # g(1/4) = 3/64 is not 0
    assert not recheck(at).valid
    strict = copy.deepcopy(cert)
    strict["claim"]["rel"] = ">"            # g(0) = 0: '>' fails at a point of the domain
    assert not recheck(strict, spot=False).valid


Z1 = Domain(integer=True, lo=Fraction(1), lo_closed=True)
Z010 = Domain(integer=True, lo=Fraction(0), lo_closed=True, hi=Fraction(10), hi_closed=True)


def _inductions():
    """Three integer claims, worked by hand: n**2 - 3n + 3 > 0 on 0..10 (its discriminant
    9 - 12 < 0), every integer checked; n**2 >= 3n - 2 on n >= 1 ((n - 1)(n - 2) >= 0 at
    every integer, not at n = 3/2), n = 1 checked and the reals from 2 (an smt proof);
    2**n >= 2n on n >= 1, n = 1 checked and the step 2**n >= 2n => 2*2**n >= 2(n + 1) on the
    reals from 1 (2*2**n >= 4n >= 2n + 2; 2**n a free real of the smt query)."""
    real = lambda lo: {"n": Domain(lo=Fraction(lo), lo_closed=True)}
    p = lambda t: parse(t, allow_relation=False)
    from boundcalc.expr.nodes import Num, Rel, sub
    zero = Num(Fraction(0))
    relax = C.claim(p("n**2 - (3*n - 2)"), ">=", zero, real(2), [])
    g = sub(p("2**n"), p("2*n"))
    step = C.claim(p("2*2**n - 2*(n + 1)"), ">=", zero, real(1), [Rel(">=", g, zero)])
    return [
        {"kind": "induction", "claim": _claim("n**2 - 3*n + 3", ">", "0", {"n": Z010}), "var": "n",
         "checked": [0, 10], "step": {"by": "none"}},
        {"kind": "induction", "claim": _claim("n**2", ">=", "3*n - 2", {"n": Z1}), "var": "n", "checked": [1, 1],
         "step": {"by": "relaxation", "from": 2, "proof": C.smt(relax, "z3")}},
        {"kind": "induction", "claim": _claim("2**n", ">=", "2*n", {"n": Z1}), "var": "n", "checked": [1, 1],
         "step": {"by": "step", "from": 1, "next": "2*2**n - 2*(n + 1)", "proof": C.smt(step, "z3")}},
    ]


def test_an_induction_checks_its_integers_and_its_step():
    every, relax, step = _inductions()
    r = recheck(json.loads(json.dumps(every)))
    assert r.valid and r.complete, r.reason
    r = recheck(json.loads(json.dumps(relax)))
    assert r.valid and r.kinds == ["induction", "smt"] and r.complete, (r.reason, r.trusted)
    r = recheck(json.loads(json.dumps(step)))
    assert r.valid and r.trusted == ["trusted: SymPy (the step's 'next' is g at n + 1)"], (r.reason, r.trusted)
    short = copy.deepcopy(every)
    short["checked"] = [0, 9]                # n = 10 left out
    assert not recheck(short).valid
    below = copy.deepcopy(relax)
    below["step"]["from"] = 3                # n = 2 neither checked nor in the proof's domain
    assert not recheck(below).valid
    false = copy.deepcopy(relax)
    false["step"]["from"] = 1                # the reals from 1: (x - 1)(x - 2) < 0 at 3/2
    false["step"]["proof"] = C.smt(C.claim(parse("n**2 - (3*n - 2)", allow_relation=False), ">=",
                                           parse("0", allow_relation=False), {"n": Domain(lo=Fraction(1),
                                                                                          lo_closed=True)}, []), "z3")
    false["checked"] = [1, 0]
    assert not recheck(false).valid          # cvc5 finds the real counterexample
    wrong = copy.deepcopy(every)
    wrong["claim"] = _claim("n**2 - 3*n + 2", ">", "0", {"n": Z010})    # 0 at n = 1 and 2
    assert not recheck(wrong, spot=False).valid


def test_a_case_split_is_replayed_piece_by_piece_and_must_cover_the_domain():
    cert = _split()
    r = recheck(json.loads(json.dumps(cert)))
    assert r.valid and r.complete and r.kinds[0] == "cases", r.reason
    short = copy.deepcopy(cert)
    short["pieces"].pop(0)                          # x <= 0 no longer covered
    r = recheck(short)
    assert not r.valid and "do not cover" in r.reason
    wrong = copy.deepcopy(cert)
    wrong["pieces"][1]["signs"][0]["sign"] = "-"    # |x| as -x on x >= 0: not what its proof shows
    assert not recheck(wrong).valid
    moved = copy.deepcopy(cert)
    moved["pieces"][1]["proof"]["claim"]["domains"]["x"]["hi"] = "1"     # a piece on [0, 1] only
    assert not recheck(moved).valid


def test_a_case_split_of_a_false_claim_is_rejected_whatever_its_pieces_say():
    # |x| >= x + 1 fails at x = 0; its "pieces" prove other claims, which the checker re-derives
    cert = copy.deepcopy(_split())
    cert["claim"] = _claim("abs(x)", ">=", "x + 1", {"x": SYM2})
    assert not recheck(cert, spot=False).valid


def test_a_monotone_reduction_is_replayed_with_the_derivative_named_as_trusted():
    cert = _reduction()
    r = recheck(json.loads(json.dumps(cert)))
    assert r.valid and r.kinds == ["monotone", "boxes", "exact"], r.reason
    assert r.trusted[0].startswith("trusted: SymPy derivative")
    for key, value in (("end", "hi"), ("var", "x")):
        bad = copy.deepcopy(cert)
        bad[key] = value              # d's upper end / x occurs in the face: not the face proved
        assert not recheck(bad).valid, key
    bad = copy.deepcopy(cert)
    bad["derivative"] = "3*x*(1 + d)"               # the sign proved is of 2*x*(1 + d)
    assert not recheck(bad).valid
    bad = copy.deepcopy(cert)
    bad["claim"]["assumptions"] = ["d <= x"]        # d in an assumption: no cylinder along d
    assert not recheck(bad, spot=False).valid


# ----------------------------------------------------------------------------- issue 33: the new kinds
R2 = Domain()
PHALF2 = Domain(lo=Fraction(1, 2), lo_closed=True, hi=Fraction(2), hi_closed=True)


def _c(lhs, rel, rhs, domains, assume=()):
    """An ``smt`` certificate of a sub-claim (cvc5 re-proves it, or it is named z3's)."""
    return C.smt(_claim(lhs, rel, rhs, domains, assume), "z3")


def _identities():
    """atan(u) - atan(v) = atan((u - v)/(1 + uv)) where uv >= -1/2, by hand: at p = (0, 0)
    both sides are exactly 0 (atan 0 = 0), the one definedness condition 1 + uv != 0 is + at p
    and 1 + uv > 0 on the region (uv >= -1/2 gives 1 + uv >= 1/2), and the region is
    star-shaped about p ((tu)(tv) = t^2 uv >= -t^2/2 >= -1/2 for t in (0, 1]). And
    atan(x) + atan(1/x) = pi/2 on x > 0 at p = 1 (pi/4 + pi/4: not an exact rational), 1/x
    defined since x > 0, no assumption."""
    seg = "(0 + t_star*(u - 0))*(0 + t_star*(v - 0)) - (-1/2)"
    star = {"u": R2, "v": R2, "t_star": Domain(lo=Fraction(0), hi=Fraction(1), hi_closed=True)}
    two = {"kind": "exact", "claim": _claim("atan(u) - atan(v)", "==", "atan((u - v)/(1 + u*v))", {"u": R2, "v": R2},
                                            ["u*v >= -1/2"]),
           "by": "derivatives", "point": {"u": "0", "v": "0"},
           "defined": [_c("1 + u*v", ">", "0", {"u": R2, "v": R2}, ["u*v >= -1/2"])],
           "star": [_c(seg, ">=", "0", star, ["u*v >= -1/2"])]}
    one = {"kind": "exact", "claim": _claim("atan(x) + atan(1/x)", "==", "pi/2", {"x": P}), "by": "derivatives",
           "point": {"x": "1"}, "defined": [_c("x", ">", "0", {"x": P})], "star": []}
    return two, one


def test_an_identity_with_special_functions_names_only_sympys_simplification():
    two, one = _identities()
    r = recheck(json.loads(json.dumps(two)))
    assert r.valid and r.kinds == ["exact", "smt", "smt"], r.reason
    derivs = "trusted: SymPy simplification (every partial derivative of lhs - rhs is 0)"
    assert [t for t in r.trusted if not t.startswith("trusted: z3")] == [derivs], r.trusted
    r = recheck(json.loads(json.dumps(one)))
    assert r.valid and r.trusted[-2:] == ["trusted: SymPy (lhs - rhs = 0 exactly at the point)", derivs], r.trusted
    bad = copy.deepcopy(two)
    bad["star"] = []                             # the region not shown star-shaped
    assert not recheck(bad).valid
    bad = copy.deepcopy(two)
    bad["point"] = {"u": "1", "v": "-1"}         # atan 1 - atan(-1) = pi/2, atan(2/0): undefined there
    assert not recheck(bad).valid
    bad = copy.deepcopy(one)
    bad["claim"]["domains"]["x"]["lo"] = None    # x real: 1/x > 0 not what "defined" proves (and x = -1 fails)
    assert not recheck(bad, spot=False).valid
    bad = copy.deepcopy(one)
    bad["claim"]["rhs"] = "-pi/2"                # D(1) = pi, certainly not 0
    assert not recheck(bad, spot=False).valid
    normal = {"kind": "exact", "claim": _claim("tanh(2*u)", "==", "2*tanh(u)/(1 + tanh(u)**2)", {"u": R2}),
              "by": "normal form"}
    r = recheck(normal)
    normal_form = "trusted: SymPy simplification (lhs - rhs simplifies to 0 where both sides are defined)"
    assert r.valid and r.trusted == [normal_form]
    normal["claim"] = _claim("tanh(2*u)", "==", "2*tanh(u)/(1 - tanh(u)**2)", {"u": R2})
    # tanh 1 = 0.7616 against 2*0.4621/(1 - 0.2135) = 1.1752 at u = 1/2: the exact points reject it
    assert not recheck(normal).valid
    assert not recheck({**normal, "claim": _claim("tanh(2*u)", "<", "2", {"u": R2})}).valid     # no strict identity


def _jensen():
    """tanh((x + y)/2) >= (tanh(x) + tanh(y))/2 on x, y in [1/2, 2], by hand: f = tanh, c = 1,
    w = 1/2, 1/2, f'' = -2 tanh(t)(1 - tanh(t)^2) (tanh' = 1 - tanh^2), and on the hull
    [1/2, 2] -f'' = 2 tanh(t)(1 - tanh(t)^2) >= 2 * 0.46 * 0.07 > 0 (a box cover)."""
    f2 = "-2*tanh(t_jensen)*(1 - tanh(t_jensen)**2)"
    return {"kind": "convexity", "claim": _claim("tanh((x + y)/2)", ">=", "(tanh(x) + tanh(y))/2",
                                                  {"x": PHALF2, "y": PHALF2}),
            "var": "t_jensen", "f": "tanh(t_jensen)", "scale": "1", "single": "lhs", "arg": "(x + y)/2",
            "weights": {"x": "1/2", "y": "1/2"}, "second": f2,
            "sign": _boxes(f"-({f2})", ">=", "0", {"t_jensen": PHALF2}), "defined": []}


def test_a_jensen_instance_is_checked_as_identities_and_the_sign_of_f2():
    cert = _jensen()
    r = recheck(json.loads(json.dumps(cert)))
    assert r.valid and r.kinds == ["convexity", "boxes"], r.reason
    assert r.trusted == ["trusted: SymPy derivative (the certificate's 'second' is d^2/dt_jensen^2 of scale*f)"]
    for key, value in (("weights", {"x": "1/3", "y": "2/3"}),      # arg is not x/3 + 2y/3
                       ("single", "rhs"),                           # convex needed then: f'' >= 0 not proved
                       ("scale", "2"),                              # the sides are not 2*tanh(...)
                       ("second", "2*tanh(t_jensen)*(1 - tanh(t_jensen)**2)"),    # not the sign proved
                       ("arg", "(x + y)/3")):
        bad = copy.deepcopy(cert)
        bad[key] = value
        assert not recheck(bad).valid, key
    bad = copy.deepcopy(cert)
    bad["claim"]["rel"] = "<="                   # convexity would be needed
    assert not recheck(bad, spot=False).valid
    bad = copy.deepcopy(cert)
    bad["claim"]["domains"]["y"]["hi"] = "3"     # the hull [1/2, 3] is not the sign's [1/2, 2]
    assert not recheck(bad).valid


def test_a_jensen_instance_of_a_function_with_kinks_is_refused():
    # f(t) = |t - 1| - |t| is concave at 0 and convex at 1: on [1/2, 2] f(1) = -1 < (f(1/2) + f(3/2))/2
    # = -1/2, though its "f''" (0 away from the kinks) is >= 0 and <= 0; the checker asks for smooth f
    f = "abs(t_jensen - 1) - abs(t_jensen)"
    cert = {**_jensen(), "claim": _claim("abs((x + y)/2 - 1) - abs((x + y)/2)", ">=",
                                         "(abs(x - 1) - abs(x) + abs(y - 1) - abs(y))/2", {"x": PHALF2, "y": PHALF2}),
            "f": f, "second": "0", "sign": _exact("-(0)", ">=", "0", {"t_jensen": PHALF2})}
    r = recheck(cert, spot=False)
    assert not r.valid and "smooth" in r.reason, r.reason


def _steps():
    """The integer layer's other steps, by hand. n! <= n^n, n >= 1: n = 1 (1 <= 1, exactly)
    and the ratio step, A = n^n, B = n!: log((n + 1)^(n + 1)/n^n) - log(n + 1) = n log(1 + 1/n)
    >= 0. n! >= 2^(n - 1): n = 1 and the step with F = n! > 0: F >= 2^n/2 gives (n + 1)F >=
    2F >= 2^n. (1 + 1/n)^n <= e: s = e/(1 + 1/n)^n, log(s(n)/s(n + 1)) = (n + 1) log(1 + 1/(n +
    1)) - n log(1 + 1/n) >= 0 (n log(1 + 1/n) increases), s -> 1 = target."""
    real = {"n": Domain(lo=Fraction(1), lo_closed=True)}
    ratio = {"kind": "induction", "claim": _claim("factorial(n)", "<=", "n**n", {"n": Z1}), "var": "n",
             "checked": [1, 1], "step": {"by": "ratio", "from": 1, "ratio": "n*log(1 + 1/n)",
                                         "proof": _c("n*log(1 + 1/n)", ">=", "0", real)}}
    doms = {**real, "n_F0": Domain(lo=Fraction(0))}
    opaque = {"kind": "induction", "claim": _claim("factorial(n)", ">=", "2**(n - 1)", {"n": Z1}), "var": "n",
              "checked": [1, 1], "step": {"by": "opaque", "from": 1, "hyp": "n_F0 - 2**n/2", "next": "(n + 1)*n_F0 - 2**n",
                                          "symbols": {"n_F0": {"integer": False, "lo": "0", "lo_closed": False,
                                                               "hi": None, "hi_closed": False}},
                                          "proof": _c("(n + 1)*n_F0 - 2**n", ">=", "0", doms, ["n_F0 - 2**n/2 >= 0"])}}
    dec = "(n + 1)*log(1 + 1/(n + 1)) - n*log(1 + 1/n)"
    limit = {"kind": "induction", "claim": _claim("(1 + 1/n)**n", "<=", "E", {"n": Z1}), "var": "n", "checked": [1, 0],
             "step": {"by": "limit", "from": 1, "form": "ratio", "decrease": dec, "strict": False, "target": 1,
                      "limit": "1", "proof": _c(dec, ">=", "0", real)}}
    return ratio, opaque, limit


def test_the_ratio_opaque_and_limit_steps_name_what_sympy_derived():
    ratio, opaque, limit = _steps()
    for cert, named in ((ratio, "trusted: SymPy (the ratio step"), (opaque, "trusted: SymPy (the opaque step"),
                        (limit, "trusted: SymPy limit (the sequence's limit at infinity is 1)")):
        r = recheck(json.loads(json.dumps(cert)))
        assert r.valid and any(t.startswith(named) for t in r.trusted), (r.reason, r.trusted)
    bad = copy.deepcopy(ratio)
    bad["step"]["from"] = 0                      # the ratio step needs n > 0
    assert not recheck(bad).valid
    bad = copy.deepcopy(opaque)
    bad["step"]["symbols"]["n_F0"]["lo"] = "1"   # F >= 1 only: not every F > 0
    assert not recheck(bad).valid
    bad = copy.deepcopy(limit)
    bad["step"]["limit"] = "1/2"                 # a limit below the target gives nothing
    assert not recheck(bad).valid
    bad = copy.deepcopy(limit)
    bad["checked"] = [2, 1]                      # the integers must start at the domain's least
    assert not recheck(bad).valid


def test_a_constant_relation_is_decided_by_its_exact_value():
    # min(1, 1, 1) = 1 exactly (ball arithmetic alone never shows a 0); e = 2.718... > 2 in balls
    value = {"kind": "exact", "claim": _claim("min(1, 1, 1)", "==", "1", {}), "by": "value"}
    assert recheck(value).complete
    assert recheck({**value, "claim": _claim("exp(1)", ">", "2", {})}).complete
    assert not recheck({**value, "claim": _claim("max(1, 2, 1)", "==", "1", {})}).valid
    assert not recheck({**value, "claim": _claim("x**2", ">=", "0", {"x": R2})}).valid    # not a constant


def test_a_taylor_leaf_closes_a_box_where_the_plain_enclosure_cannot():
    # x**2 - x + 1/4 >= 0 on [0, 1], by hand: the naive enclosure over [0, 1] is [-3/4, 5/4];
    # at the centre 1/2, g = 0, g' = 0, g'' = 2, so g >= 0 + 0 + (1/2)*2*[0, 1/4] >= 0
    claim = _claim("x**2 - x + 1/4", ">=", "0", {"x": UNIT})
    leaf = {"box": {"x": ["0", "1"]}, "by": "taylor", "prec": 64, "lower": "0"}
    r = recheck({"kind": "boxes", "claim": claim, "tree": leaf})
    assert r.valid and r.complete, r.reason
    assert not recheck({"kind": "boxes", "claim": claim, "tree": {**leaf, "by": "goal"}}).valid
    assert not recheck({"kind": "boxes", "claim": claim, "tree": {**leaf, "lower": "1/1024"}}).valid
    strict = _claim("x**2 - x + 1/4", ">", "0", {"x": UNIT})
    assert not recheck({"kind": "boxes", "claim": strict, "tree": leaf}, spot=False).valid
    from boundcalc.recheck import taylor_lower
    # x**2 + y**2 - x*y on [-1/10, 1/10]^2 at 0: (1/2)*2*[0, 1/100] twice and -1*[-1/100, 1/100]
    lo = taylor_lower(parse("x**2 + y**2 - x*y", allow_relation=False),
                      {"x": (Fraction(-1, 10), Fraction(1, 10)), "y": (Fraction(-1, 10), Fraction(1, 10))}, 64)
    assert abs(float(lo) + 0.01) < 1e-9


MUTABLE = ("lo", "hi", "lower", "upper", "at", "of", "sign", "lhs", "rhs", "derivative", "end", "direction", "from",
           "next", "hyp", "ratio", "decrease", "second", "arg", "scale")


def _numbers(obj, path=()):
    """(path, value) of every number, expression, sign and end of a certificate (a box's
    edges included), the things a mutation edits."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _numbers(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _numbers(v, path + (i,))
    elif (isinstance(obj, str) or path[-1] in ("direction", "from") or "checked" in path) and (
            path[-1] in MUTABLE or isinstance(path[-1], int) and ("box" in path or "checked" in path)):
        yield path, obj


def _what(path) -> str:
    if "checked" in path:
        return "integers checked"
    if isinstance(path[-1], int):
        return "box edge"
    return "taylor end" if path[-1] == "at" and "tree" not in path else path[-1]


def _mutate(cert, rng):
    """``cert`` with one edit that breaks it: a box bound or a split point moved, a domain
    widened, a piece narrowed, a recorded enclosure end raised, a term added to an expression, an absolute
    value's argument doubled, a sign flipped, an end swapped."""
    m = copy.deepcopy(cert)
    spots: dict[str, list] = {}
    for p, v in _numbers(m):              # by what is edited, so that every kind of edit is drawn
        spots.setdefault(_what(p), []).append((p, v))
    path, value = rng.choice(spots[rng.choice(sorted(spots))])
    node = m
    for k in path[:-1]:
        node = node[k]
    key = path[-1]
    if key == "sign":
        node[key] = {"+": "-", "-": "+"}[value]
    elif value in ("lo", "hi"):                # a face's or a Taylor piece's end
        node[key] = {"lo": "hi", "hi": "lo"}[value]
    elif key == "direction":
        node[key] = -value
    elif key == "from":
        node[key] = value + rng.choice([-1, 1]) * rng.randint(1, 3)
    elif "checked" in path:                    # the first integer moved, or fewer checked
        node[key] = value + (1 if key == 0 else -1) * rng.randint(1, 3)
    elif key in ("lhs", "rhs") and len(path) == 2:
        # the claim's greater side lowered by 1000 (each claim here is bounded on its domain
        # near its least point, so it is then false; the checker must refuse it)
        down = (key == "lhs") == (m["claim"]["rel"] in (">=", ">"))
        node[key] = f"({value}) {'-' if down else '+'} 1000"
    elif key in ("lhs", "rhs", "derivative", "of", "next", "hyp", "ratio", "decrease", "second", "arg"):
        node[key] = f"({value}) + {rng.randint(1, 9)}/{rng.randint(10, 99)}" if key != "of" else f"2*({value})"
    elif key in ("lower", "upper"):
        # a recorded enclosure end raised past what any enclosure shows (every function here
        # is below 10 on its boxes; an assumption's upper end above 0 excludes nothing)
        node[key] = str(Fraction(value) + (10 if key == "lower" else 1) + Fraction(1, rng.randint(2, 99)))
    elif key in ("lo", "hi"):
        # a claim's domain widened (its proof then covers too little), a piece narrowed (a gap
        # between pieces, or a piece that is not its proof's)
        out = (key == "hi") == ("claim" in path)
        step = Fraction(rng.randint(1, 9), rng.randint(100, 999)) + (rng.randint(1, 3) if "claim" in path else 0)
        node[key] = str(Fraction(value) + (1 if out else -1) * step)      # an integer domain widens by >= 1
    else:                             # a box edge, a split point moved
        node[key] = str(Fraction(value) + Fraction(rng.choice([-1, 1]) * rng.randint(1, 9), rng.randint(10, 99)))
    return m, path


def test_two_hundred_mutated_case_splits_monotone_ends_and_induction_certificates_are_all_rejected():
    rng = random.Random(3300)
    certs = [_split(), _reduction(), _cut_ends(), *_inductions()]
    assert all(recheck(c).valid for c in certs)
    accepted, edited = [], set()
    for _ in range(200):
        m, path = _mutate(rng.choice(certs), rng)
        edited.add(_what(path))
        if recheck(json.loads(json.dumps(m))).valid:
            accepted.append(path)
    assert accepted == []
    # box bounds, domain ends, recorded enclosures, coefficients (terms added), signs, ends
    assert {"box edge", "lo", "hi", "lower", "lhs", "derivative", "of", "sign", "end", "taylor end", "direction",
            "from", "next", "integers checked"} <= edited, edited


def test_two_hundred_mutated_identity_jensen_step_and_taylor_certificates_are_all_rejected():
    rng = random.Random(3301)
    taylor = {"kind": "boxes", "claim": _claim("x**2 - x + 1/4", ">=", "0", {"x": UNIT}),
              "tree": {"box": {"x": ["0", "1"]}, "by": "taylor", "prec": 64, "lower": "0"}}
    certs = [*_identities(), _jensen(), *_steps(), taylor]
    assert all(recheck(c).valid for c in certs)
    accepted, edited = [], set()
    for i in range(200):                   # each certificate in turn, about 22 edits each
        m, path = _mutate(certs[i % len(certs)], rng)
        edited.add(_what(path))
        if recheck(json.loads(json.dumps(m))).valid:
            accepted.append(path)
    assert accepted == []
    # a box edge, a recorded lower end, domain ends, sides, and the new kinds' expressions and numbers
    assert {"box edge", "lo", "lower", "lhs", "rhs", "from", "integers checked", "hyp", "ratio", "decrease",
            "second", "arg", "scale", "next"} <= edited, edited


def _mpf_cases():
    import mpmath as m
    return [("x**3 - 2*x", lambda t: t**3 - 2*t), ("exp(-x**2)*sin(3*x)", lambda t: m.exp(-t**2)*m.sin(3*t)),
            ("log(1 + x**2)/sqrt(x)", lambda t: m.log(1 + t**2)/m.sqrt(t)), ("tan(x)*atan(x)", lambda t: m.tan(t)*m.atan(t)),
            ("erf(x)**2 - tanh(x)", lambda t: m.erf(t)**2 - m.tanh(t)), ("x**x", lambda t: t**t),
            ("cos(x)**(1/3)", lambda t: m.cos(t)**(m.mpf(1)/3)), ("1/(1 + x)", lambda t: 1/(1 + t))]


@pytest.mark.parametrize("expr, f", _mpf_cases(), ids=[c[0] for c in _mpf_cases()])
def test_the_checkers_own_derivative_matches_a_numerical_one(expr, f):
    # at x = 0.3 and 0.7, mpmath's 50-digit numerical differentiation (independent of the rules)
    import flint
    import mpmath

    from boundcalc.backends import arb as A
    from boundcalc.recheck import derivative
    dg = derivative(parse(expr, allow_relation=False), "x")
    with mpmath.workdps(50):
        for x0 in ("0.3", "0.7"):
            got = A.enclose(dg, {"x": Fraction(x0)}, prec=200)
            with A.precision(200):
                want = flint.arb(mpmath.nstr(mpmath.diff(f, mpmath.mpf(x0)), 45))
                assert abs(got - want) < flint.arb("1e-30"), (expr, x0, got, want)


def test_a_taylor_piece_uses_the_checkers_own_derivatives():
    # _cut_ends's Taylor piece at 0 with its derivatives wrong: the checker's own (2x - 3x**2,
    # 2 - 6x) close the piece, so nothing is taken from the certificate's
    cert = _cut_ends()
    cert["pieces"][0]["derivatives"] = ["0", "1"]
    r = recheck(cert)
    assert r.valid and not any("SymPy derivative (the derivatives" in t for t in r.trusted), r.trusted
