"""deora2023's formula file against values computed by hand from the paper (mpmath)."""
from __future__ import annotations

import mpmath as mp

import boundcalc

PAPER = "deora2023"


def value(name: str, **vals) -> mp.mpf:
    return boundcalc.formula(f"{PAPER}.{name}").evaluate(digits=40, **vals).mpf


def close(got, expected) -> bool:
    with mp.workdps(60):
        return mp.almosteq(got, expected, rel_eps=mp.mpf(10) ** -30, abs_eps=0)


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
    pt = {k: mp.mpf(Fraction(v).numerator) / Fraction(v).denominator for k, v in pair["point"].items()}
    with mp.workdps(50):
        def gstar(z):
            T, S, M, P, Z, Zmu = pt["T"], pt["S"], pt["M"], pt["P"], pt["Z"], pt["Z_mu"]
            Zb = max(pt["Z_mu"], pt["Z_nu"])
            return (T * (1 - z) * z * (z * S ** 4 - 7 * Zb * S ** 2 - 12 * Zb ** 2 - 16 * Zb ** 3 / S ** 2)
                    / (4 * mp.sqrt(2 * (M + 1))) - P * T ** mp.mpf(2.5) * (S + Z) ** 3
                    + S * mp.sqrt(T) * (z - 2 * (1 - z) * Zmu / S ** 2) / mp.sqrt(2))
        attn = pt["S"] * mp.sqrt(pt["T"]) / mp.sqrt(2)
        z1, z2 = (mp.mpf(Fraction(pair[k]).numerator) / Fraction(pair[k]).denominator for k in ("zeta_1", "zeta_2"))
        assert 0 < z1 < z2 < 1
        for z in (z1, z2):                        # Prop. 2/3's hypotheses and the gap's sign
            assert gstar(z) > 0 and pt["Z_mu"] == pt["Z_nu"] and pt["Z_mu"] <= pt["S"] ** 2 / 8
            assert attn >= gstar(z)
        assert attn - gstar(z2) > attn - gstar(z1)          # the gap rises with zeta
        assert mp.almosteq(attn - gstar(z1), mp.mpf(pair["f_1"]), rel_eps=1e-9)


def test_gap_grows_referee_pair():
    """The referee's pair (T = 16, M = 1, S = 1.18, P = 6.6e-5, Z = Z_mu = Z_nu = 0):
    gap(0.990) = 0.106414193108 < gap(0.995) = 0.108536010206 (by hand from eq. (7):
    gamma_* = T(1 - zeta) zeta^2 S^4/8 - P T^(5/2) S^3 + S sqrt(T) zeta/sqrt 2 at M = 1, Z = 0)."""
    with mp.workdps(50):
        T, S, P = mp.mpf(16), mp.mpf("1.18"), mp.mpf("6.6e-5")
        gs = lambda z: T * (1 - z) * z ** 2 * S ** 4 / 8 - P * T ** mp.mpf(2.5) * S ** 3 + S * mp.sqrt(T) * z / mp.sqrt(2)  # noqa: E731
        ga = S * mp.sqrt(T) / mp.sqrt(2)
        g1, g2 = ga - gs(mp.mpf("0.99")), ga - gs(mp.mpf("0.995"))
    assert mp.almosteq(g1, mp.mpf("0.106414193108"), rel_eps=1e-11)
    assert mp.almosteq(g2, mp.mpf("0.108536010206"), rel_eps=1e-11)
    at = dict(T="16", M="1", S="1.18", P="6.6e-5", Z="0", Z_mu="0", Z_nu="0")
    assert close(value("attn_ntk_gap", zeta="0.99", **at), g1)
    assert close(value("attn_ntk_gap", zeta="0.995", **at), g2)
