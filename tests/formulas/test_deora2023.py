"""Every Deora et al. formula pinned to values computed here by hand from the paper
(mpmath, 50 digits), at small inputs and at inputs whose values exceed 1e308."""
import mpmath
import pytest
import pytest as _pytest

import boundcalc


@_pytest.fixture(autouse=True)
def _fifty_digits():
    """Reference values at 50 digits, without leaking the precision into other tests."""
    with mpmath.workdps(50):
        yield
sqrt, log, exp, mpf = mpmath.sqrt, mpmath.log, mpmath.exp, mpmath.mpf
EPS = mpf(10) ** -28


def ev(fid, **kw):
    return boundcalc.formula(f"deora2023.{fid}").evaluate(digits=35, **kw).mpf


def close(a, b):
    return mpmath.almosteq(a, b, rel_eps=EPS, abs_eps=mpf(10) ** -40)


SMALL = {"T": 8, "d": 16, "R": "1.5", "theta_2inf": "2.5", "H": 64, "dist0": "0.75"}
HUGE = {"T": 10 ** 6, "d": 10 ** 5, "R": "1e80", "theta_2inf": "1e60", "H": 3, "dist0": "1e75"}


def b1(T, R, th):
    return sqrt(T) * R * (2 * R ** 2 * th + 1)


def b3(T, d, R, th):
    return 2 * sqrt(T) * d * R ** 3 * (3 * sqrt(d) * R ** 2 * th + 1)


@pytest.mark.parametrize("v", [SMALL, HUGE])
def test_cor1_betas(v):
    T, d, R, th, H = mpf(v["T"]), mpf(v["d"]), mpf(v["R"]), mpf(v["theta_2inf"]), mpf(v["H"])
    assert close(ev("beta1", T=v["T"], R=v["R"], theta_2inf=v["theta_2inf"]), b1(T, R, th))
    assert close(ev("beta3", T=v["T"], d=v["d"], R=v["R"], theta_2inf=v["theta_2inf"]), b3(T, d, R, th))
    want2 = b3(T, d, R, th) / sqrt(H) + b1(T, R, th) ** 2 / 4
    got2 = ev("beta2", T=v["T"], d=v["d"], R=v["R"], theta_2inf=v["theta_2inf"], H=v["H"])
    assert close(got2, want2)
    assert close(ev("kappa", T=v["T"], d=v["d"], R=v["R"], theta_2inf=v["theta_2inf"], H=v["H"]),
                 b3(T, d, R, th) / sqrt(H))


def test_huge_values_do_not_overflow():
    v = ev("beta2", **{k: HUGE[k] for k in ("T", "d", "R", "theta_2inf", "H")})
    assert v > mpf(10) ** 308
    res = boundcalc.formula("deora2023.beta2").evaluate(
        digits=20, **{k: HUGE[k] for k in ("T", "d", "R", "theta_2inf", "H")})
    assert res.float is None and "e+" in str(res)


@pytest.mark.parametrize("v", [SMALL, HUGE])
def test_sec61_alpha_rho(v):
    T, d, R, th, H, D = (mpf(v[k]) for k in ("T", "d", "R", "theta_2inf", "H", "dist0"))
    alpha = 3 * sqrt(d) * R ** 2 * (3 * sqrt(T) * R ** 3 * (3 * D + th) + 2 * sqrt(T) * R)
    rho = (2 * sqrt(T) * d * R ** 3 / sqrt(H) + T * R ** 2 / 4) * alpha ** 2
    kw = {k: v[k] for k in ("T", "d", "R", "theta_2inf", "dist0")}
    assert close(ev("alpha", **kw), alpha)
    assert close(ev("rho", H=v["H"], **kw), rho)
    assert close(ev("rho_thm1", **kw), d ** 1.5 * T ** 1.5 * R ** 13 * th ** 2 * D ** 2)


def test_prop1_model_bounds():
    T, d, X2, X1, s = 8, 16, mpf("1.25"), mpf("0.5"), mpf("3.5")
    assert close(ev("grad_model", T=T, X_2inf="1.25", sum_Xu="3.5"), 2 * X2 ** 2 * s + sqrt(T) * X2)
    assert close(ev("hess_model", T=T, d=d, X_2inf="1.25", X_1inf="0.5", sum_Xu="3.5"),
                 6 * d * X2 ** 2 * X1 ** 2 * s + 2 * sqrt(T * d) * X2 ** 2 * X1)


@pytest.mark.parametrize("L,D,eta,K,n", [("0.01", "3", "0.5", 100, 1000), ("1e-300", "1e200", "1e-100", 10, 10)])
def test_thm1_thm2_bounds(L, D, eta, K, n):
    Lm, Dm, em = mpf(L), mpf(D), mpf(eta)
    assert close(ev("train_loss_thm1", L_hat=L, dist0=D, eta=eta, K=K), 2 * Lm + 5 * Dm ** 2 / (4 * em * K))
    assert close(ev("iterate_dist_thm1", dist0=D), 4 * Dm)
    assert close(ev("iterate_dist_lemma10", dist0=D), 3 * Dm + Dm)      # Lemma 10's 3 D plus D
    assert close(ev("gen_gap_thm2", L_hat=L, dist0=D, eta=eta, K=K, n=n),
                 mpf(4) / n * (2 * K * Lm + 9 * Dm ** 2 / (4 * em)))


def test_cor2_bounds_and_g0():
    BP, g, K, eta, n = mpf("3.5"), mpf("0.25"), 1000, mpf("0.01"), 5000
    kw = {"B_Phi": "3.5", "gamma": "0.25", "K": K}
    g0 = (2 * BP + log(K)) / g
    assert close(ev("g0", **kw), g0)
    assert close(ev("train_loss_cor2", eta="0.01", **kw), mpf(2) / K + 5 * (2 * BP + log(K)) ** 2 / (4 * g ** 2 * eta * K))
    assert close(ev("gen_gap_cor2", eta="0.01", n=n, **kw), 17 * (2 * BP + log(K)) ** 2 / (g ** 2 * eta * n))
    assert close(ev("rho_cor2", d=16, T=8, R="1.5", **kw),
                 mpf(16) ** 1.5 * mpf(8) ** 1.5 * mpf("1.5") ** 13 * g0 ** 4)


def test_cor2_huge():
    # gamma tiny: g0^4 * R^13 ... far beyond 1e308
    v = ev("rho_cor2", d=10 ** 6, T=10 ** 6, R="1e10", B_Phi="1e5", gamma="1e-200", K=10 ** 9)
    g0 = (2 * mpf("1e5") + log(10 ** 9)) / mpf("1e-200")
    assert close(v, mpf(10) ** 9 * mpf(10) ** 9 * mpf("1e10") ** 13 * g0 ** 4)
    assert v > mpf(10) ** 900


def gamma_star(T, zeta, S, M, Z, Zmu, Znu, P):
    Zb = max(Zmu, Znu)
    first = T * (1 - zeta) * zeta * (zeta * S ** 4 - 7 * Zb * S ** 2 - 12 * Zb ** 2 - 16 * Zb ** 3 / S ** 2) / (4 * sqrt(2 * (M + 1)))
    return first - P * T ** mpf(2.5) * (S + Z) ** 3 + S * sqrt(T) * (zeta - 2 * (1 - zeta) * Zmu / S ** 2) / sqrt(2)


@pytest.mark.parametrize("args", [
    {"T": 8, "zeta": "0.5", "S": 1, "M": 2, "Z": "0.1", "Z_mu": "0.01", "Z_nu": "0.02", "P": "0.001"},
    {"T": 10 ** 8, "zeta": "0.25", "S": "1e40", "M": 10, "Z": "1e39", "Z_mu": "1e70", "Z_nu": "1e71", "P": "1e-30"},
])
def test_gamma_star_eq7(args):
    m = {k: mpf(v) for k, v in args.items()}
    want = gamma_star(m["T"], m["zeta"], m["S"], m["M"], m["Z"], m["Z_mu"], m["Z_nu"], m["P"])
    assert close(ev("gamma_star", **args), want)
    assert close(ev("gamma_prop2", **args), want / 2)


def test_prop2_lemma2_assumption3():
    T, S, P, R, n, delta, d, Z, n1 = 8, mpf(2), mpf("0.01"), mpf("2.5"), 1000, mpf("0.05"), 16, mpf("0.3"), 10 ** 6
    assert close(ev("B2", T=T, S=2, P="0.01"), sqrt(T) * (S + P))
    assert close(ev("B_Phi", T=T, R="2.5", S=2, P="0.01", n=n, delta="0.05"),
                 T * R * (S + P) * sqrt(2 * log(n / delta)))
    assert close(ev("P_lemma2", S=2, Z="0.3", d=d, n1=n1, delta="0.05"),
                 (2 * S + Z) * (sqrt(mpf(d) / n1) + sqrt(log(1 / delta) / n1)))
    assert close(ev("P_lemma2", S=2, Z="0.3", d=d, n1=n1, delta="0.05", C_P=3),
                 3 * (2 * S + Z) * (sqrt(mpf(d) / n1) + sqrt(log(1 / delta) / n1)))
    assert close(ev("R_dm1", S=2, Z="0.3", Z_nu="0.2", M=4), sqrt(4 + mpf("0.09") + 2 * mpf("0.2") / 4))
    assert close(ev("Zbar", Z_mu="0.2", Z_nu="0.7"), mpf("0.7"))


def test_prop3_and_sec7():
    M, S, zeta, eps, T, Zmu = 3, mpf("1.5"), mpf("0.2"), mpf("0.01"), 16, mpf("0.1")
    assert close(ev("Gamma_eps", M=M, S="1.5", zeta="0.2", eps="0.01"),
                 8 * sqrt(2 * (M + 1)) / (3 * S ** 2) * log((1 / zeta - 1) / eps))
    assert close(ev("gamma_attn", T=T, S="1.5", eps="0.01", Z_mu="0.1"),
                 sqrt(T) / (sqrt(2) * S) * (S ** 2 * (1 - eps) - 2 * eps * Zmu))
    assert close(ev("gamma_attn_limit", T=T, S="1.5"), S * sqrt(T) / sqrt(2))
    assert close(ev("gamma_attn_sec7", T=T, S="1.5", eps="0.01", Z_mu="0.1"),
                 S * sqrt(T) / sqrt(2) * ((1 - eps) - 2 * eps * Zmu / S))
    assert close(ev("Gamma_eps_sec7", S="1.5", zeta="0.2", eps="0.01"), log((1 / zeta - 1) / eps) / S)
    assert close(ev("gamma_lin_order", zeta="0.2", S="1.5"), zeta * S)


def test_requirements_hold_exactly_at_boundary():
    # Thm 1 (3): sqrt(H) >= d sqrt(T) R^5 theta dist0^3 with d=16, T=8, R=3/2, theta=dist0=1:
    # (16 * (3/2)^5)^2 * 8 = 118098 exactly, so H = 118098 satisfies it with equality.
    f = boundcalc.formula("deora2023.heads_thm1")
    kw = {"d": 16, "T": 8, "R": "1.5", "theta_2inf": 1, "dist0": 1}
    assert f.holds(H=118098, **kw) and not f.holds(H=118097, **kw)
    sol = f.solve("H", **kw)
    assert sol.value == 118098 and sol.integer
    # C scales the requirement: C = 2 multiplies the threshold by 4
    assert f.solve("H", C=2, **kw).value == 4 * 118098


def test_sketch_condition_is_the_glqc_condition_at_the_iterate_bound():
    T, d, R, th, D = 8, 16, mpf("1.5"), mpf("2"), mpf("0.5")
    rhs = 2 * b3(T, d, R, th + 3 * D) * (3 * D) ** 2
    sol = boundcalc.formula("deora2023.heads_thm1_sketch").solve("H", T=8, d=16, R="1.5", theta_2inf=2, dist0="0.5")
    assert sol.value == int(mpmath.ceil(rhs ** 2))
    glqc = boundcalc.formula("deora2023.glqc")
    assert glqc.holds(H=sol.value, T=8, d=16, R="1.5", theta1_2inf=2, theta2_2inf=th + 3 * D, dist12=3 * D)
    assert not glqc.holds(H=sol.value - 1, T=8, d=16, R="1.5", theta1_2inf=2, theta2_2inf=th + 3 * D, dist12=3 * D)


def test_heads_requirements_values():
    # Cor. 2, Prop. 2 (P3), Sec. 5.3 (12), Sec. 7 against hand-computed thresholds
    d, T, R, B2, BP, g, K = 16, 8, mpf("1.2"), mpf("3"), mpf("4"), mpf("0.5"), 100
    g0 = (2 * BP + log(K)) / g
    want = (d * sqrt(T) * R ** 5 * B2 ** 2 * g0 ** 3) ** 2
    sol = boundcalc.formula("deora2023.heads_cor2").solve("H", d=d, T=T, R="1.2", B_2=3, B_Phi=4, gamma="0.5", K=K)
    assert sol.value == int(mpmath.ceil(want))
    S, P, gs, n, delta = mpf(1), mpf("0.01"), mpf("0.3"), 1000, mpf("0.01")
    want = (R ** 4 * T * (S + P) / gs * sqrt(2 * log(n / delta))) ** 2
    sol = boundcalc.formula("deora2023.heads_prop2").solve("H", R="1.2", T=T, S=1, P="0.01", gamma_star="0.3",
                                                           n=n, delta="0.01")
    assert sol.value == int(mpmath.ceil(want))
    assert boundcalc.formula("deora2023.heads_sec53").solve("H", S=2, theta_norm=3).value == (32 * 27) ** 2
    want = d ** 2 * T * R ** 10 * log(n) ** 6 / g ** 6
    assert boundcalc.formula("deora2023.heads_sec7").solve("H", d=d, T=T, R="1.2", n=n, gamma="0.5").value == \
        int(mpmath.ceil(want))


def test_step_size_conditions():
    kw = {"T": 4, "d": 4, "R": 1, "theta_2inf": 1, "dist0": 1, "H": 16, "K": 10, "L_hat": "0.1", "L_hat0": "0.7"}
    alpha = 3 * 2 * (3 * 2 * (3 + 1) + 2 * 2)
    rho = (2 * 2 * 4 / 4 + mpf(4) / 4) * alpha ** 2
    bound = min(1, 1 / rho, mpf(1) / (10 * mpf("0.1")), 1 / mpf("0.7"))
    f = boundcalc.formula("deora2023.eta_thm1")
    sol = f.solve("eta", **kw)
    assert sol.direction == "greatest"
    assert mpmath.almosteq(sol.value, bound, rel_eps=mpf(10) ** -30)
    assert f.holds(eta=str(bound * (1 - mpf(10) ** -20)), **kw)
    assert not f.holds(eta=str(bound * (1 + mpf(10) ** -20)), **kw)


# ----------------------------------------------------------------------------- second reading (issue 10)
# Formulas derived for the checks, each recomputed here from the paper's displays.
def gm(X2, s, T):
    """Prop. 1, first bullet."""
    return 2 * X2 ** 2 * s + sqrt(T) * X2


def hm(X2, X1, s, T, d):
    """Prop. 1, second bullet."""
    return 6 * d * X2 ** 2 * X1 ** 2 * s + 2 * sqrt(T * d) * X2 ** 2 * X1


def test_hess_loss_prop1():
    T, d, H, X2, X1, s = 8, 16, 64, mpf("1.25"), mpf("0.5"), mpf("3.5")
    want = gm(X2, s, T) ** 2 / 4 + hm(X2, X1, s, T, d) / sqrt(H)
    assert close(ev("hess_loss_prop1", T=T, d=d, H=H, X_2inf="1.25", X_1inf="0.5", sum_Xu="3.5"), want)


def test_cor1_substitutions_by_hand():
    # beta_1 is Prop. 1's bound at ||X|| = R, sum ||X u_t|| = sqrt(T) R theta; beta_3 is sqrt(d) x Prop. 1's
    T, d, R, th = mpf(8), mpf(16), mpf("1.5"), mpf("2.5")
    s = sqrt(T) * R * th
    assert close(b1(T, R, th), gm(R, s, T))
    assert close(b3(T, d, R, th), sqrt(d) * hm(R, R, s, T, d))


@pytest.mark.parametrize("L,L0,D,eta,K", [("0.01", "0.7", "3", "0.5", 100), ("1e-300", "2", "1e200", "1e-100", 10)])
def test_train_loss_sec61(L, L0, D, eta, K):
    Lm, L0m, Dm, em = mpf(L), mpf(L0), mpf(D), mpf(eta)
    # avg <= L + D^2/(2 eta K) + L/3 + L0/(3K) + avg/3, solved for avg
    want = (Lm + Dm ** 2 / (2 * em * K) + Lm / 3 + L0m / (3 * K)) * mpf(3) / 2
    assert close(ev("train_loss_sec61", L_hat=L, L_hat0=L0, dist0=D, eta=eta, K=K), want)
    # with L0 = D^2/eta it is eq. (4)'s first line
    assert close(ev("train_loss_sec61", L_hat=L, L_hat0=str(Dm ** 2 / em), dist0=D, eta=eta, K=K),
                 2 * Lm + 5 * Dm ** 2 / (4 * em * K))


def test_gen_gap_sec62():
    b, eta, n, K, L, D = mpf("1.5"), mpf("0.2"), 1000, 50, mpf("0.01"), mpf("2")
    want = 2 * b * (2 * eta * b / n) * (2 * K * L + 9 * D ** 2 / (4 * eta))
    assert close(ev("gen_gap_sec62", beta1_tilde="1.5", eta="0.2", n=n, K=K, L_hat="0.01", dist0=2), want)


def test_heads_ratio_and_dist0_eq3():
    T, d, R, th, D, C = mpf(8), mpf(16), mpf("1.5"), mpf("2"), mpf("0.5"), mpf(3)
    sketch = 2 * b3(T, d, R, th + 3 * D) * (3 * D) ** 2
    eq3 = C * d * sqrt(T) * R ** 5 * th * D ** 3
    assert close(ev("heads_ratio_sketch_eq3", T=8, d=16, R="1.5", theta_2inf=2, dist0="0.5", C=3), sketch / eq3)
    H = mpf(10) ** 12
    want = (sqrt(H) / (C * d * sqrt(T) * R ** 5 * th)) ** (mpf(1) / 3)
    assert close(ev("dist0_eq3", H=10 ** 12, T=8, d=16, R="1.5", theta_2inf=2, C=3), want)
    # at that distance (3) holds with equality
    assert close(C * d * sqrt(T) * R ** 5 * th * want ** 3, sqrt(H))


def test_test_loss_cor2():
    BP, g, K, eta, n = mpf("3.5"), mpf("0.25"), 1000, mpf("0.01"), 5000
    want = mpf(2) / K + 5 * (2 * BP + log(K)) ** 2 / (4 * g ** 2 * eta * K) + 17 * (2 * BP + log(K)) ** 2 / (g ** 2 * eta * n)
    assert close(ev("test_loss_cor2", B_Phi="3.5", gamma="0.25", K=K, eta="0.01", n=n), want)


def test_first_phase_norms():
    T, zeta, S, P, R, delta = 8, mpf("0.3"), mpf(2), mpf("0.01"), mpf("2.5"), mpf("0.05")
    assert close(ev("U1_norm", T=T, zeta="0.3", S=2, P="0.01"), sqrt(T) * (zeta * sqrt(2) * S / 2 + P))
    assert close(ev("B_Phi_first_phase", T=T, R="2.5", zeta="0.3", S=2, P="0.01", delta="0.05"),
                 T * R * (zeta * S / sqrt(2) + P) * sqrt(2 * log(2 / delta)))


def test_margin_sec53_and_ntk_U_terms():
    T, S, eps, Zmu, zeta = 16, mpf("1.5"), mpf("0.01"), mpf("0.1"), mpf("0.2")
    want = T * ((1 - eps) * S ** 2 - 2 * eps * Zmu) / (S * sqrt(2 * T))
    got = ev("margin_sec53", T=T, S="1.5", eps="0.01", Z_mu="0.1")
    assert close(got, want)
    assert close(got, ev("gamma_attn", T=T, S="1.5", eps="0.01", Z_mu="0.1"))
    printed = S * sqrt(T) / sqrt(2) * (zeta - 2 * (1 - zeta) * Zmu / S ** 2)
    assert close(ev("ntk_U_term_sec52", T=T, S="1.5", zeta="0.2", Z_mu="0.1"), printed)
    assert close(ev("ntk_U_term_derived", T=T, S="1.5", zeta="0.2", Z_mu="0.1"),
                 sqrt(T) * (zeta * S ** 2 - 2 * (1 - zeta) * Zmu) / (sqrt(2) * S))


# ------------------------------------------------------------- issue 17: a claim refuted inside the hypotheses
def test_gap_grows_refuted_inside_the_hypotheses():
    """'the gap increases with decreasing sparsity' (Sec. 5.3/7) fails inside Prop. 2/3's
    hypotheses: near zeta = 1 the gap gamma_attn - gamma_* rises in zeta where a small P keeps
    gamma_attn >= gamma_* > 0 (a thin region the decision's uniform sampling misses; found by
    moving sampled points onto the hypotheses). The pair is recomputed here from eq. (7) with
    mpmath at 50 digits, and the hypotheses re-checked there."""
    from fractions import Fraction

    from boundcalc.services.check import run_checks
    (f,) = run_checks("deora2023", only=["gap_grows_as_sparsity_decreases"]).results
    assert f.severity == "error" and f.reason == "false as printed"
    pair = f.evidence["counterexample"]["pair"]
    pt = {k: mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator for k, v in pair["point"].items()}
    with mpmath.workdps(50):
        def gstar(z):
            T, S, M, P, Z, Zmu = pt["T"], pt["S"], pt["M"], pt["P"], pt["Z"], pt["Z_mu"]
            Zb = max(pt["Z_mu"], pt["Z_nu"])
            return (T * (1 - z) * z * (z * S ** 4 - 7 * Zb * S ** 2 - 12 * Zb ** 2 - 16 * Zb ** 3 / S ** 2)
                    / (4 * mpmath.sqrt(2 * (M + 1))) - P * T ** mpmath.mpf(2.5) * (S + Z) ** 3
                    + S * mpmath.sqrt(T) * (z - 2 * (1 - z) * Zmu / S ** 2) / mpmath.sqrt(2))
        attn = pt["S"] * mpmath.sqrt(pt["T"]) / mpmath.sqrt(2)
        z1, z2 = (mpmath.mpf(Fraction(pair[k]).numerator) / Fraction(pair[k]).denominator for k in ("zeta_1", "zeta_2"))
        assert 0 < z1 < z2 < 1
        for z in (z1, z2):                        # Prop. 2/3's hypotheses and the gap's sign
            assert gstar(z) > 0 and pt["Z_mu"] == pt["Z_nu"] and pt["Z_mu"] <= pt["S"] ** 2 / 8
            assert attn >= gstar(z)
        assert attn - gstar(z2) > attn - gstar(z1)          # the gap rises with zeta
        assert mpmath.almosteq(attn - gstar(z1), mpmath.mpf(pair["f_1"]), rel_eps=1e-9)
    # issue 35 (referee 4): |R| = zeta T is a number of tokens (Assumption 3), so the pair is
    # two neighbouring whole numbers of relevant tokens at one T (not T = 1, zeta = 0.9901)
    T = Fraction(pair["point"]["T"])
    r1, r2 = Fraction(pair["zeta_1"]) * T, Fraction(pair["zeta_2"]) * T
    assert T.denominator == 1 and r1.denominator == 1 and r2 == r1 + 1 and 1 <= r1 and r2 < T
    rows = pair["hypotheses_1"] + pair["hypotheses_2"]
    assert [r["holds"] for r in rows if r["hypothesis"] == "floor(zeta*T) == zeta*T"] == [True, True]


def test_gap_grows_referee_pair():
    """The referee's pair (T = 16, M = 1, S = 1.18, P = 6.6e-5, Z = Z_mu = Z_nu = 0):
    gap(0.990) = 0.106414193108 < gap(0.995) = 0.108536010206 (by hand from eq. (7):
    gamma_* = T(1 - zeta) zeta^2 S^4/8 - P T^(5/2) S^3 + S sqrt(T) zeta/sqrt 2 at M = 1, Z = 0)."""
    with mpmath.workdps(50):
        T, S, P = mpmath.mpf(16), mpmath.mpf("1.18"), mpmath.mpf("6.6e-5")
        gs = lambda z: T * (1 - z) * z ** 2 * S ** 4 / 8 - P * T ** mpmath.mpf(2.5) * S ** 3 + S * mpmath.sqrt(T) * z / mpmath.sqrt(2)
        ga = S * mpmath.sqrt(T) / mpmath.sqrt(2)
        g1, g2 = ga - gs(mpmath.mpf("0.99")), ga - gs(mpmath.mpf("0.995"))
    assert mpmath.almosteq(g1, mpmath.mpf("0.106414193108"), rel_eps=1e-11)
    assert mpmath.almosteq(g2, mpmath.mpf("0.108536010206"), rel_eps=1e-11)
    at = {"T": "16", "M": "1", "S": "1.18", "P": "6.6e-5", "Z": "0", "Z_mu": "0", "Z_nu": "0"}
    assert close(ev("attn_ntk_gap", zeta="0.99", **at), g1)
    assert close(ev("attn_ntk_gap", zeta="0.995", **at), g2)


def test_gamma_attn_from_eq10_is_a_pass_not_a_tautology():
    """issue 35 (referee): the printed (11), sqrt(T)/(sqrt(2) S) (S^2 (1-eps) - 2 eps Z_mu),
    against the derivation from (9)-(10), T ((1-eps) S^2 - 2 eps Z_mu)/(S sqrt(2T)): they agree
    only because T/sqrt(2T) = sqrt(T/2) (by hand; mpmath below), and a misprinted prefactor
    sqrt(T)/(2S) would differ — a pass, not 'one formula written twice'."""
    import mpmath

    from boundcalc.services.check import run_checks
    with mpmath.workdps(50):
        T, S, eps, Z = mpmath.mpf(7), mpmath.mpf("1.3"), mpmath.mpf("0.01"), mpmath.mpf("0.2")
        printed = mpmath.sqrt(T) / (mpmath.sqrt(2) * S) * (S ** 2 * (1 - eps) - 2 * eps * Z)
        derived = T * ((1 - eps) * S ** 2 - 2 * eps * Z) / (S * mpmath.sqrt(2 * T))
        misprint = mpmath.sqrt(T) / (2 * S) * (S ** 2 * (1 - eps) - 2 * eps * Z)
        assert abs(printed - derived) < mpmath.mpf(10) ** -45 and abs(misprint - derived) > 0.1
    (r,) = run_checks("deora2023", only=["gamma_attn_from_eq10"]).results
    assert r.severity == "ok", r.message


def test_iterate_distance_constant_is_exact():
    """Eq. (4)'s 4 is Lemma 10's 3 plus the triangle inequality's 1, attained: iterates on a line with
    theta_K - theta = 3 (theta - theta_0) give ||theta_K - theta_0|| = 4 ||theta - theta_0||; a printed 3
    (or Lemma 10 with 2) would fail. The check grades it 'follows exactly' and --strength catches a
    paper-side mutant (issue 35)."""
    import numpy as np
    rng = np.random.default_rng(35)
    th0 = rng.normal(size=5)
    th = th0 + rng.normal(size=5)
    thK = th + 3 * (th - th0)
    D = np.linalg.norm(th - th0)
    assert np.linalg.norm(thK - th0) == pytest.approx(4 * D) and 4 * D > 3 * D
    from boundcalc.services.check import run_checks
    f, = run_checks("deora2023", only=["iterate_dist_from_lemma10"], strength=True).results
    assert f.severity == "ok" and f.strength["paper_caught"], (f.severity, f.message, f.strength)


# --------------------------------------------------------------------------- REFEREE3: (7)'s terms as formulas
def test_eq7_terms_are_formulas_and_misprints_fail(tmp_path):
    """(7)'s W-, P- and U-terms are formulas of the file (gamma_star is their combination), the two
    checks reference them, and misprints of (7) planted in a copy of the file fail them. By hand
    (mpmath): at T = 4, S = 1, Z = 1/2, P = 1/10 the Cauchy-Schwarz bound P T^2 (S + Z)^3 = 5.4 sits
    below (7)'s P T^{5/2} (S + Z)^3 = 10.8 and above a misprinted P T^{3/2} (S + Z)^3 = 2.7; at
    Zbar = 0 (7)'s W-term is half the exact noise-free one, a W-term without its 4 is twice it."""
    import json

    from boundcalc.services.check import run_checks
    m = mpmath.mpf
    args = {"T": 4, "zeta": "0.25", "S": 1, "M": 2, "Z": "0.5", "Z_mu": "0.1", "Z_nu": "0.05", "P": "0.1"}
    with mpmath.workdps(40):
        T, z, S, M, Z, Zmu, Znu, P = 4, m("0.25"), 1, 2, m("0.5"), m("0.1"), m("0.05"), m("0.1")
        Zb = max(Zmu, Znu)
        w = T * (1 - z) * z * (z * S**4 - 7 * Zb * S**2 - 12 * Zb**2 - 16 * Zb**3 / S**2) / (4 * mpmath.sqrt(2 * (M + 1)))
        pt = P * m(T) ** m(2.5) * (S + Z) ** 3
        u = S * mpmath.sqrt(T) * (z - 2 * (1 - z) * Zmu / S**2) / mpmath.sqrt(2)
        sub = lambda *ks: {k: args[k] for k in ks}
        assert close(ev("eq7_W_term", **sub("T", "zeta", "S", "M", "Z_mu", "Z_nu")), w)
        assert close(ev("eq7_P_term", **sub("P", "T", "S", "Z")), pt)
        assert close(ev("eq7_U_term", **sub("S", "T", "zeta", "Z_mu")), u)
        assert close(ev("gamma_star", **args), w - pt + u)
        assert P * T**2 * (S + Z) ** 3 < pt and P * T**2 * (S + Z) ** 3 > P * m(T) ** m(1.5) * (S + Z) ** 3
    ids = ["eq7_W_term_noise_free", "eq7_P_term_cauchy_schwarz"]
    got = {f.check: f for f in run_checks("deora2023", only=ids).results}
    assert got["eq7_W_term_noise_free"].severity == "ok" and got["eq7_P_term_cauchy_schwarz"].severity == "ok"
    from boundcalc.registry.registry import packaged_dir
    src = (packaged_dir() / "deora2023.toml").read_text(encoding="utf-8")
    plants = [('expr = "P*T**(5/2)*(S + Z)**3"', 'expr = "P*T**(3/2)*(S + Z)**3"'),
              ("16*Zbar**3/S**2)/(4*sqrt(2*(M + 1)))", "16*Zbar**3/S**2)/(sqrt(2*(M + 1)))")]
    planted = src
    for old, new in plants:
        assert planted.count(old) == 1, old
        planted = planted.replace(old, new)
    assert planted.count('key = "deora2023"') == 1
    f = tmp_path / "planted2023.toml"
    f.write_text(planted.replace('key = "deora2023"', 'key = "planted2023"'), encoding="utf-8")
    from support import cli  # in process (issue 37): the real entry point
    p = cli(["check", "--formulas", str(f), "planted2023", *[a for c in ids for a in ("--only", c)],
             "--json", "--no-timings"])
    out = json.loads(p.stdout)
    assert {r["check"]: r["severity"] for r in out["findings"]} == dict.fromkeys(ids, "error")


def test_sec52_target_scale_by_a_second_method():
    """Sec. 5.2's target scale (step s52_mha): the scale c making the multi-head NTK margin of
    c concat(theta_*(theta_h^(1))) the mean of the heads' margins, recomputed with the engine's
    forward-mode tangent (model_jvp) instead of the measurement's finite differences, is 1/sqrt(H)
    as printed (H = 1, 4, 9); the check passes and catches a mutant of the printed scale."""
    import numpy as np

    from boundcalc.engine import deora2023 as D
    from boundcalc.engine.measurements import _sec52_target, measure
    from boundcalc.services.check import run_checks
    sizes = {"T": 8, "d": 12, "M": 3, "n1": 2000, "zeta": 0.25, "S": 1}
    for H in (1, 4, 9):
        _, p1, V, X, y = _sec52_target(H=H, seed=0, **sizes)
        multi = float(y @ D.model_jvp(p1, X, V))
        single = np.mean([float(y @ D.model_jvp(D.MHAParams(p1.U[h:h + 1], p1.W[h:h + 1]), X,
                                                D.MHAParams(V.U[h:h + 1], V.W[h:h + 1])))
                          for h in range(H)])
        assert single > 0                                       # a positive margin per head
        assert abs(single / multi - 1 / np.sqrt(H)) < 1e-12
        assert abs(measure("deora2023.sec52_margin_scale", H=H, seed=0, **sizes) - 1 / np.sqrt(H)) < 1e-8
    (r,) = run_checks("deora2023", only=["sec52_target_scale_margin"], strength=True).results
    assert r.severity == "ok" and r.strength["paper_killed"] >= 1


# ------------------------------------------------ issue 35 (referee 4): passes that test the paper's step
def _planted_run(tmp_path, text: str, ids: list[str]) -> dict:
    import json
    # a user file may not redefine a shipped paper: the (planted) copy is a paper of its own
    assert text.count('key = "deora2023"') == 1
    f = tmp_path / "planted2023.toml"
    f.write_text(text.replace('key = "deora2023"', 'key = "planted2023"'), encoding="utf-8")
    only = [a for c in ids for a in ("--only", c)]
    from support import cli  # in process (issue 37): the real entry point
    p = cli(["check", "--formulas", str(f), "planted2023", *only, "--json", "--no-timings"])
    return json.loads(p.stdout)


# (check, the paper's display as encoded, a misprint of it): each misprint must make the pass an error
MISPRINTS_35B = [
    # (16): -(1/2) beta_3/sqrt(H) max L ||.||^2; a 1/4 asks more than (14) with (15) gives
    ("taylor_eq16_direction", 'expr = "tay_Lk + tay_g - (1/2)*tay_b3/sqrt(H)*tay_Lmax*tay_D**2"',
     'expr = "tay_Lk + tay_g - (1/4)*tay_b3/sqrt(H)*tay_Lmax*tay_D**2"'),
    # Sec. 5.2's scale 1/sqrt(H) of theta~_*: 1/H gives ||theta~_*|| = sqrt(2/H), not sqrt(2)
    ("theta_star_norm_sec52", 'expr = "1/sqrt(H)"', 'expr = "1/H"'),
    # (9)'s scale 1/(S sqrt(2T)) of U_opt: 1/(S sqrt(T)) gives ||theta_opt||^2 = 2 + 1 = 3, not 2
    ("theta_opt_norm_eq9", 'expr = "1/(S*sqrt(2*T))"', 'expr = "1/(S*sqrt(T))"'),
]


def test_eq16_and_theta_star_norm_test_the_printed_step(tmp_path):
    """taylor_eq16_direction was one numeric point of the textbook Taylor bound (0.127 >= -0.097),
    theta_star_norm_sec52 the literal sqrt(H*2/H), theta_opt_norm_eq9 (9)'s scales written inline:
    none could fail. Now (16) as printed is
    derived from (14) ('>=') with (15) quoted as its hypothesis — by hand: L_k + g + lam D^2/2 >=
    L_k + g - (1/2)(b3/sqrt(H)) Lmax D^2 iff lam >= -(b3/sqrt(H)) Lmax, which is (15) — and the norm
    uses the printed scale: H (1/sqrt(H))^2 (1 + 1) = 2. Both pass as shipped (ok, not identity)
    and fail with the paper's side misprinted (1/4 for 1/2 at H = 1, D = Lmax = b3 = 1 gives
    L_k + g - 1/4 > L_k + g - 1/2; 1/H gives sqrt(2/H) != sqrt(2) at H = 4)."""
    from boundcalc.registry.registry import packaged_dir
    src = (packaged_dir() / "deora2023.toml").read_text(encoding="utf-8")
    ids = [c for c, _, _ in MISPRINTS_35B]
    clean = _planted_run(tmp_path, src, ids)
    assert {r["check"]: r["severity"] for r in clean["passed"]} == dict.fromkeys(ids, "ok"), clean["counts"]
    planted = src
    for _, old, new in MISPRINTS_35B:
        assert planted.count(old) == 1, old
        planted = planted.replace(old, new)
    out = _planted_run(tmp_path, planted, ids)
    assert {r["check"]: r["severity"] for r in out["findings"]} == dict.fromkeys(ids, "error"), out["counts"]


def test_quoted_hypotheses_make_conditionals_ok():
    """prop4_four_thirds_from_eq16 rests on x <= 1/2, which is Prop. 4's own (18) (2 b3 ||.||^2 <=
    sqrt(H), x = b3 ||.||^2/sqrt(H)); cor2_gen_from_thm2 on eta <= 4 B^2/(gamma^2 log(1 + e^B)),
    the third term of Cor. 2's step-size condition. Both are now quoted [[hypotheses]]: ok, with
    nothing added by us (before: conditional, 'added assumption')."""
    from boundcalc.services.check import run_checks
    ids = ["prop4_four_thirds_from_eq16", "cor2_gen_from_thm2"]
    got = {f.check: f for f in run_checks("deora2023", only=ids).results}
    for i in ids:
        assert got[i].severity == "ok", (i, got[i].severity, got[i].message)
        assert not getattr(got[i], "added", None), got[i].added
        froms = [h["from"] for h in got[i].evidence["hypotheses"]]
        assert "added by the check" not in froms and ("Prop. 4" in froms or "Cor. 2" in froms)


# --------------------------------------------------------------------------- issue 35, fifth referee reading
def test_descent_eq13_rests_on_sec61s_step_size():
    """eta_k <= 1/rho_k is Sec. 6.1's own condition of (13) ('where step-size at each iteration
    eta_k <= 1/rho_k'): a quoted [[hypotheses]] entry of eq. (13), so the check is ok (was
    conditional). By hand: -eta g + rho eta^2 g/2 <= -eta g/2 iff rho eta <= 1 (g > 0); at
    eta = 3, rho = 1 (outside the hypothesis) -3 + 4.5 = 1.5 > -1.5."""
    from pathlib import Path

    from boundcalc.services.check import run_checks
    txt = Path("/work/shared/papers/000_e1f759d336c0f7ff.txt")
    import tomllib
    data = tomllib.loads((Path(__file__).resolve().parents[2] / "formulas" / "deora2023.toml").read_text("utf-8"))
    (h,) = [h for h in data["hypotheses"] if h["result"] == "eq. (13)"]
    assert h["expr"] == "eta*rho_k <= 1"
    if txt.exists():
        assert h["quote"] in txt.read_text(encoding="utf-8")
    (f,) = run_checks("deora2023", only=["descent_eq13"]).results
    assert f.severity == "ok" and not f.added, (f.severity, f.added, f.message)
    assert any(x["from"] == "eq. (13)" for x in f.evidence["hypotheses"])
    assert -3 + 9 / 2 > -3 / 2


def test_first_phase_rate_is_read_off_lemma2s_formula():
    """Sec. 5.1's O(1/sqrt(n1)) for P = C (2S + Z)(sqrt(d/n1) + sqrt(log(1/delta)/n1)) of Lemma 2:
    n1 occurs twice only because n1^(-1/2) is not factored out (P = C (2S + Z)(sqrt(d) +
    sqrt(log(1/delta))) n1^(-1/2)), so the stated order restates the formula: identity, not a pass."""
    from boundcalc.services.check import run_checks
    (f,) = run_checks("deora2023", only=["first_phase_rate_sec51"]).results
    assert (f.severity, f.reason) == ("identity", "tautology"), (f.severity, f.message)
    assert "n1 occurs 2 times in P_lemma2" in f.message and "n1^(-1/2)" in f.message


def test_eq15_from_cor1_rests_on_quoted_premises():
    """Eighth referee reading (issue 35): eq15_from_cor1's premises, Cor. 1's (3) at a point of the
    segment, the note before (15) (max beta_3 on the segment = beta_3(theta_1) v beta_3(theta_2)) and
    L̂ <= its max there, are quoted hypotheses of eq. (15), word for word in the text, so the pass is
    'ok' with nothing added by us. It can fail (by hand): at beta_3(theta) = beta_3 v beta_3 = 2,
    L̂(theta) = max L̂ = 3, H = 4, (3) allows lambda_min = -2 * 3/2 = -3, which breaks a (15) printed
    with H^(3/4) (bound -6/4^(3/4) = -2.12) or with 2 sqrt(H) (-1.5)."""
    import tomllib
    from pathlib import Path

    from boundcalc.services.check import run_checks
    b3, L, H = mpmath.mpf(2), mpmath.mpf(3), mpmath.mpf(4)
    lam = -b3 / mpmath.sqrt(H) * L
    assert lam == -3 and lam < -b3 / H ** mpmath.mpf("0.75") * L and lam < -b3 / (2 * mpmath.sqrt(H)) * L
    toml = Path(__file__).resolve().parents[2] / "formulas" / "deora2023.toml"
    hyps = [h for h in tomllib.loads(toml.read_text(encoding="utf-8"))["hypotheses"] if h["result"] == "eq. (15)"]
    assert {h["expr"] for h in hyps} == {"lam_pt >= -b3_pt/sqrt(H)*L_pt", "b3_pt <= tay_b3", "L_pt <= tay_Lmax"}
    text = Path("/work/shared/papers/000_e1f759d336c0f7ff.txt")
    if text.exists():
        body = text.read_text(encoding="utf-8")
        assert all(h["quote"] in body for h in hyps)
    (f,) = run_checks("deora2023", only=["eq15_from_cor1"]).results
    assert (f.severity, f.added) == ("ok", []), (f.severity, f.message)
