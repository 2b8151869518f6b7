"""The encoding screen (services/check/encoding.py, issue 35) on the four papers: which passes it
grades identity, and why the ten checks the first, broader screen also flipped are (or are not)
identities. Each reason is computed here from the paper's expressions, written by hand with
mpmath, never from the code's output: for an identity, the check's own assumption and its claim
agree at every point of a grid (each is the other restated); for a pass that stays one, a point
where the claim holds and the assumption fails (so the assumption is not the claim restated: a
step of algebra is left between them, and the check can fail)."""
from pathlib import Path

import mpmath
import pytest

from boundcalc.services.check import run_checks

PAPERS = Path("/work/shared/papers")
mpf, log, exp, sqrt = mpmath.mpf, mpmath.log, mpmath.exp, mpmath.sqrt

# check -> (grade, reason) once the screen has run
GRADES = {
    "arda2026": {
        # the 'cannot fail' (third reading): def3_symmetric_init was c h - c h = 0 after OUR
        # pairing (rule 4); its pairing is now Sec. 5.2's, quoted [[hypotheses]] of Definition 3
        # (h35-cov3), which the screen never counts as ours: a pass that fails without them
        # (tests/formulas/test_arda2026.py, test_def3_pairing_by_hand); tanh_first_derivative is a
        # textbook identity (premises.py); remark10 was rewritten (fourth reading) and rests on Remark 10's quoted
        # hypotheses: a pass (its strength is tested below)
        "def3_symmetric_init": ("ok", ""), "tanh_first_derivative": ("identity", "tautology"),
        "remark10_feasible_w": ("ok", ""),
        # the first screen flipped it: its assumption (a hidden constant we chose) is not the claim
        # restated (test_not_restated), so the (L_1 + L_2)/sqrt(m) scaling is still checked
        "thm1_cof_from_blocks": ("conditional", "added assumption")},
    "deora2023": {
        "beta3_increasing_eq15": ("identity", "tautology"),          # rule 3 (sixth reading's flag)
        # rule 1: its assumption, added by us, is the claim solved for D (test_restated_by_hand)
        "eta_cor2_from_thm1": ("identity", "tautology")},
    "anon2025": {
        "output_bound_A": ("identity", "tautology"),                 # rule 2 (sixth reading's flag)
        # gamma alpha^2 <= 4 is the claim for every t >= 1, not for one t (at t = 0 the claim holds
        # for any gamma alpha^2): rule 1 does not see it, the sixth reading's flag stays
        "lemma4_phi_nonincreasing": ("identity", "identity")},
    "tarzanagh2023": {
        "L_p_uniform": ("identity", "tautology"), "attsvm_selects": ("identity", "identity"),
        "combined_covers_57": ("identity", "tautology"),             # rule 5: max(a, b) >= a
        # max(2, 1/delta) log(...) >= 2 log(...) needs log(...) >= 0, from Thm. 3's quoted
        # hypotheses, not the domains: rule 5 does not grade it, the sixth reading's flag stays
        "combined_covers_58": ("identity", "identity"),
        "lemma8_case1_threshold": ("identity", "tautology"),         # rule 1 (sixth reading's flag)
        # the first screen flipped it; its a, b > 0 are the proof's own words, now quoted hypotheses
        # of Thm. 2 (eighth referee reading): a pass (test_not_restated: b > 0 is needed, not restated)
        "ab_inequality_51": ("ok", ""),
        # the first screen flipped these; each assumption implies the claim but is not it restated
        "thm5_74_from_eps_max": ("conditional", "added assumption"),
        "thm5_76_loss_lower": ("conditional", "added assumption"),
        "lemma12_quadrant_77": ("conditional", "added assumption"),
        "thm6_79a_T3": ("conditional", "added assumption"),
        # the paper's own thresholds, quoted [[hypotheses]]: a pass (a misprinted threshold fails)
        "thm5_threshold": ("ok", ""), "exampleC_vmm_feasible": ("ok", ""), "thm6_case2_r": ("ok", "")},
}


@pytest.mark.parametrize("paper", list(GRADES))
def test_grades_of_the_screen(paper):
    got = {r.check: (r.severity, r.reason) for r in run_checks(paper, only=list(GRADES[paper])).results}
    assert got == GRADES[paper]


def _grid(*axes):
    out = [[]]
    for ax in axes:
        out = [p + [mpf(v)] for p in out for v in ax]
    return out


def test_restated_by_hand():
    """eta_cor2_from_thm1 (deora2023): 4 B^2/(gamma^2 l) <= min(D^2, D^2/l), l = log(1 + e^B), holds
    exactly when D >= 2 B/gamma, for B >= 1 (P2; l > 1 there) — at points on either side of the
    threshold, by a relative 1e-9. lemma8_case1_threshold (tarzanagh2023): M- K- e^{-R Gq}/(2n) >=
    M+ K+ T e^{-R (Gq + dG)} exactly when R dG >= log(2n M+ K+ T/(M- K-))."""
    with mpmath.workdps(40):
        for B, g, s in _grid(["1", "1.5", "7"], ["0.1", "1", "4"], ["0.999999999", "1.000000001", "0.5", "3"]):
            D = 2 * B / g * s
            l = log(1 + exp(B))
            claim = 4 * B ** 2 / (g ** 2 * l) <= min(D ** 2, D ** 2 / l)
            assert claim == (D >= 2 * B / g), (B, g, s)
        for n, mm, km, mp, kp, T, gq, dg, s in _grid(["1", "5"], ["0.5"], ["2"], ["3"], ["0.25"], ["4"], ["0.3"],
                                                      ["0.2", "2"], ["0.999999999", "1.000000001", "0.1", "9"]):
            R = log(2 * n * mp * kp * T / (mm * km)) / dg * s
            claim = mm * km * exp(-R * gq) / (2 * n) >= mp * kp * T * exp(-R * (gq + dg))
            assert claim == (R * dg >= log(2 * n * mp * kp * T / (mm * km))), (n, dg, s)


def test_not_restated():
    """For each flip the first screen made and this one does not: a point where the claim holds
    and the check's own assumption (for ab_inequality_51 its quoted hypothesis b > 0) fails, so the
    claim does not restate it (by hand)."""
    def cof(C, rc=1, ru=1, rw=1, nc=1, nu=1, nw=1, L1=1, L2=1, m=1):
        a = sqrt(mpf(ru) ** 2 + rw ** 2)
        lhs = sqrt((L1 * a) ** 2 + (rc * L1 + L2 * a) ** 2) / sqrt(m) * (sqrt(rc ** 2 + a ** 2) + sqrt(
            mpf(nc) ** 2 + nu ** 2 + nw ** 2))
        need = (rc + a) * (sqrt(rc ** 2 + a ** 2) + sqrt(mpf(nc) ** 2 + nu ** 2 + nw ** 2))
        return lhs <= C * (L1 + L2) / sqrt(m), C >= need
    r, G, M, T, Xi, R, gam = 1, 1, 1, 1, 1, 1, mpf(1) / 2
    bound = M * T * exp(-Xi * R)
    eps = bound + mpf("0.01")
    c76 = exp(-(1 - gam / 2) * G * r)
    x76 = c76 * mpf("0.9")
    e2, e3 = mpf("0.001"), mpf(10)
    d12, rest12 = mpf(1), mpf(1)
    cases = {
        "thm1_cof_from_blocks": cof(mpf(5)),                 # C_CoF = 5 < 8.36 (the assumed bound), 9.69 <= 10
        "ab_inequality_51": ((mpf(-1) ** 2 - mpf(-1) ** 2) / (2 * -1) - (-1 - -1) >= 0, mpf(-1) > 0),   # a = b = -1
        "thm5_74_from_eps_max": (log(1 + exp(r * eps - r * G)) <= exp(r * bound - r * G), eps <= bound),
        "thm5_76_loss_lower": (log(1 + x76) >= c76 / 2, x76 >= c76),            # n = 1
        "lemma12_quadrant_77": (1 / (1 + exp(-d12) + rest12) <= mpf(1) / 2, d12 < 0),
        "thm6_79a_T3": (log((e2 + e3) / (1 + e2 + e3)) >= -(1 - gam) * Xi * R - log(3), e2 >= exp(-(1 - gam) * Xi * R)),
    }
    for cid, (claim, assumption) in cases.items():
        assert claim and not assumption, cid


def test_thm6_case2_r_is_the_papers_threshold():
    """Its threshold is a quoted [[hypotheses]] entry of Thm. 6, word for word in the text; the
    pass can fail: with 2/gamma printed for 3/gamma the claim is false just above the threshold
    (e^{gamma r/3}/(2n) = (2n)^(-1/3) < 1, by hand at n = 4, gamma = 1/2)."""
    (r,) = run_checks("tarzanagh2023", only=["thm6_case2_r"]).results
    assert (r.severity, r.added) == ("ok", [])
    (h,) = [h for h in r.evidence["hypotheses"] if "r > 3*log(2*n)/gamma_c" in h["hypothesis"]]
    assert h["from"] == "Thm. 6"
    if PAPERS.exists():
        assert h["quote"] in (PAPERS / "003_04b0af99deb573f1.txt").read_text(encoding="utf-8")
    n, g = 4, mpf(1) / 2
    rr = 2 * log(2 * n) / g * (1 + mpf(10) ** -9)
    assert exp(g * rr / 3) / (2 * n) < 1


def test_remark10_can_fail_on_the_papers_side():
    """remark10_feasible_w (the issue's 'restates its assumption divided by sqrt(m)', rewritten):
    |c_i(0)| ||v_w||/sqrt(m) <= rho_w/sqrt(m) under Remark 10's quoted rho_w >= nu_w, V_nu's
    ||v_w|| <= nu_w and |c_i(0)| = 1: dropping one of those premises is caught (v_w = 2 nu_w,
    rho_w = nu_w breaks it) — a mutant of the paper's side, so the pass can fail."""
    (r,) = run_checks("arda2026", only=["remark10_feasible_w"], strength=True).results
    assert r.severity == "ok", r.message
    assert any(x.startswith("premise:") for x in r.strength["paper_caught"]), r.strength
