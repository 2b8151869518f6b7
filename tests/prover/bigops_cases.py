"""Relations over a symbolic depth L for the big-operator layer (tests/prover/test_bigops.py).

Each case: (id, category, lhs, rel, rhs, per-layer/other assumptions, truth, sides). ``truth``
is worked out by hand from the textbook inequality or the paper's step named in the comment;
for a false one, ``sides(L, v)`` computes both sides independently with mpmath from the
depth and the layers' values ``v`` (name -> list of per-layer mpf, or a scalar), so that a
reported counterexample is re-checked at 50 digits without the code under test.

The multi-layer bounds come from papers that are not the four reference papers: Neyshabur,
Bhojanapalli & Srebro (ICLR 2018, PAC-Bayes spectrally-normalised margin bound: prod ||W_i||^2
and sum ||W_i||_F^2/||W_i||^2), Bartlett, Foster & Telgarsky (NeurIPS 2017, the spectral
complexity), Golowich, Rakhlin & Shamir (COLT 2018, the product of Frobenius norms) and
Edelman, Goel, Kakade & Zhang (ICML 2022, per-layer covering numbers summed over L).
"""
from fractions import Fraction

import mpmath

from boundcalc.expr.domains import Domain

NONNEG = Domain(False, Fraction(0), True)
POS = Domain(lo=Fraction(0))
UNIT = Domain(False, Fraction(0), False, Fraction(1), False)
NAT = Domain(True, Fraction(1), True)

DOMAINS = {"L": NAT, "a": NONNEG, "c": NONNEG, "p": POS, "s": POS, "rho": POS, "b": NONNEG, "f": POS,
           "h": POS, "B": POS, "eps": POS, "M": POS, "x": UNIT, "d": NAT}


def S(L, f):
    return mpmath.fsum(f(k) for k in range(L))


def P(L, f):
    return mpmath.fprod(f(k) for k in range(L))


T, F = True, False
CASES = [
    # --- congruence: equal bodies (after simplification) give equal sums/products
    ("cong-square", "congruence", "sum(a[i]*a[i], i, 1, L)", "==", "sum(a[i]**2, i, 1, L)", [], T, None),
    ("cong-commute", "congruence", "prod(p[i]*s[i], i, 1, L)", "==", "prod(s[i]*p[i], i, 1, L)", [], T, None),
    ("cong-log", "congruence", "sum(log(p[i]*s[i]), i, 1, L)", "==", "sum(log(p[i]) + log(s[i]), i, 1, L)", [], T, None),
    ("cong-max", "congruence", "max(a[i] + 1, i, 1, L)", "==", "max(1 + a[i], i, 1, L)", [], T, None),
    ("cong-RA", "congruence", "prod(rho[i]*s[i], i, 1, L)*sum((b[i]/s[i])**2, i, 1, L)**(3/2)", "==",
     "prod(s[i]*rho[i], i, 1, L)*sum(b[i]**2/s[i]**2, i, 1, L)**(3/2)", [], T, None),
    ("cong-le", "congruence", "sum(exp(a[i])*exp(a[i]), i, 1, L)", "<=", "sum(exp(2*a[i]), i, 1, L)", [], T, None),
    # --- termwise comparison at a generic layer
    ("tw-sq", "termwise", "sum(a[i]**2, i, 1, L)", "<=", "sum(a[i]**2 + a[i], i, 1, L)", [], T, None),
    ("tw-log1p", "termwise", "sum(log(1 + a[i]), i, 1, L)", "<=", "sum(a[i], i, 1, L)", [], T, None),
    ("tw-exp", "termwise", "prod(1 + a[i], i, 1, L)", "<=", "exp(sum(a[i], i, 1, L))", [], T, None),
    ("tw-frac", "termwise", "sum(a[i]/(1 + a[i]), i, 1, L)", "<=", "sum(a[i], i, 1, L)", [], T, None),
    ("tw-amgm2", "termwise", "sum(sqrt(a[i]), i, 1, L)", "<=", "sum((1 + a[i])/2, i, 1, L)", [], T, None),
    ("tw-unit-sum", "termwise", "sum(x[i], i, 1, L)", "<=", "L", [], T, None),
    ("tw-unit-prod", "termwise", "prod(x[i], i, 1, L)", "<=", "1", [], T, None),
    ("tw-expneg", "termwise", "sum(exp(-a[i]), i, 1, L)", "<=", "L", [], T, None),
    ("tw-pow2", "termwise", "prod(1 + 1/d[i], i, 1, L)", "<=", "2**L", [], T, None),
    ("tw-strict", "termwise", "sum(a[i] + 1, i, 1, L)", ">", "sum(a[i], i, 1, L)", [], T, None),
    ("tw-assume", "termwise", "sum(c[i], i, 1, L)", "<=", "L*B", ["c[i] <= B"], T, None),
    ("tw-int", "termwise", "sum(d[i]**2, i, 1, L)", ">=", "sum(d[i], i, 1, L)", [], T, None),
    # --- classical inequalities between sums, products and power sums over layers
    ("cl-powermean", "classical", "sum(a[i], i, 1, L)**2", "<=", "L*sum(a[i]**2, i, 1, L)", [], T, None),
    ("cl-cs", "classical", "sum(a[i]*c[i], i, 1, L)**2", "<=", "sum(a[i]**2, i, 1, L)*sum(c[i]**2, i, 1, L)", [], T, None),
    ("cl-amgm-root", "classical", "prod(a[i], i, 1, L)**(1/L)", "<=", "sum(a[i], i, 1, L)/L", [], T, None),
    ("cl-amgm-pow", "classical", "prod(a[i], i, 1, L)", "<=", "(sum(a[i], i, 1, L)/L)**L", [], T, None),
    ("cl-weier", "classical", "prod(1 + a[i], i, 1, L)", ">=", "1 + sum(a[i], i, 1, L)", [], T, None),
    ("cl-weier-unit", "classical", "prod(1 - x[i], i, 1, L)", ">=", "1 - sum(x[i], i, 1, L)", [], T, None),
    ("cl-super2", "classical", "sum(a[i]**2, i, 1, L)", "<=", "sum(a[i], i, 1, L)**2", [], T, None),
    ("cl-super3", "classical", "sum(a[i]**3, i, 1, L)", "<=", "sum(a[i], i, 1, L)**3", [], T, None),
    ("cl-powermean3", "classical", "sum(a[i], i, 1, L)**3", "<=", "L**2*sum(a[i]**3, i, 1, L)", [], T, None),
    ("cl-jensen-exp", "classical", "sum(exp(a[i]), i, 1, L)", ">=", "L*exp(sum(a[i], i, 1, L)/L)", [], T, None),
    ("cl-jensen-sqrt", "classical", "sum(sqrt(a[i]), i, 1, L)", "<=", "L*sqrt(sum(a[i], i, 1, L)/L)", [], T, None),
    ("cl-jensen-log", "classical", "sum(log(p[i]), i, 1, L)", "<=", "L*log(sum(p[i], i, 1, L)/L)", [], T, None),
    ("cl-sum-prod", "classical", "sum(a[i], i, 1, L)", "<", "prod(1 + a[i], i, 1, L)", [], T, None),
    # harder forms (added after the first run, not tuned: a max over the layers, CS in root form, HM-AM)
    ("cl-max-sum", "classical", "sum(a[i], i, 1, L)", "<=", "L*max(a[i], i, 1, L)", [], T, None),
    ("cl-max-prod", "classical", "prod(p[i], i, 1, L)", "<=", "max(p[i], i, 1, L)**L", [], T, None),
    ("cl-cs-root", "classical", "sum(a[i]*c[i], i, 1, L)", "<=",
     "sqrt(sum(a[i]**2, i, 1, L)*sum(c[i]**2, i, 1, L))", [], T, None),
    ("cl-hm-am", "classical", "sum(1/p[i], i, 1, L)", ">=", "L**2/sum(p[i], i, 1, L)", [], T, None),
    ("cl-logprod", "classical", "log(prod(1 + a[i], i, 1, L))", "<=", "sum(a[i], i, 1, L)", [], T, None),
    # --- induction on the depth
    ("ind-basel", "induction", "sum(1/i**2, i, 1, L)", "<=", "2 - 1/L", [], T, None),
    ("ind-gauss", "induction", "sum(i, i, 1, L)", "==", "L*(L + 1)/2", [], T, None),
    ("ind-euler", "induction", "prod((1 + 1/d[i])**d[i], i, 1, L)", "<=", "exp(L)", [], T, None),
    ("ind-geom", "induction", "sum(2**i, i, 1, L)", "==", "2**(L + 1) - 2", [], T, None),
    ("ind-tele-prod", "induction", "prod(1 + 1/i, i, 1, L)", "==", "L + 1", [], T, None),
    ("ind-tele-sum", "induction", "sum(1/(i*(i + 1)), i, 1, L)", "==", "1 - 1/(L + 1)", [], T, None),
    # --- steps of multi-layer bounds (papers other than the four)
    # Neyshabur-Bhojanapalli-Srebro 2018: prod ||W_i||^2 = (prod ||W_i||)^2
    ("nbs-prodsq", "papers", "prod(s[i]**2, i, 1, L)", "==", "prod(s[i], i, 1, L)**2", [], T, None),
    # NBS 2018: ||W||_F >= ||W||_2 at every layer, so sum ||W||_F^2/||W||_2^2 >= L
    ("nbs-stable-lo", "papers", "sum(f[i]**2/s[i]**2, i, 1, L)", ">=", "L", ["f[i] >= s[i]"], T, None),
    # NBS 2018: ||W||_F^2 <= h ||W||_2^2 (rank h), so sum ||W||_F^2/||W||_2^2 <= L h
    ("nbs-stable-hi", "papers", "sum(f[i]**2/s[i]**2, i, 1, L)", "<=", "L*h", ["f[i]**2 <= h*s[i]**2"], T, None),
    # Bartlett-Foster-Telgarsky 2017: the product of the layers' rho_i s_i splits
    ("bft-split", "papers", "prod(rho[i]*s[i], i, 1, L)", "==", "prod(rho[i], i, 1, L)*prod(s[i], i, 1, L)", [], T, None),
    # BFT 2017: with ||A_i - M_i|| <= ||A_i||, sum (b_i/s_i)^(2/3) <= L
    ("bft-ratio", "papers", "sum((b[i]/s[i])**(2/3), i, 1, L)", "<=", "L", ["b[i] <= s[i]"], T, None),
    # Golowich-Rakhlin-Shamir 2018: log of the product of Frobenius norms is the sum of logs
    ("grs-log", "papers", "log(prod(M[i], i, 1, L))", "==", "sum(log(M[i]), i, 1, L)", [], T, None),
    # GRS 2018: prod M_F(j) <= (sum M_F(j) / L)^L (AM-GM of the norms)
    ("grs-amgm", "papers", "prod(M[i], i, 1, L)", "<=", "(sum(M[i], i, 1, L)/L)**L", [], T, None),
    # Edelman-Goel-Kakade-Zhang 2022: per-layer log covering numbers log(1 + 2B/eps) <= 2B/eps
    ("egkz-cover", "papers", "sum(log(1 + 2*B[i]/eps), i, 1, L)", "<=", "sum(2*B[i]/eps, i, 1, L)", [], T, None),
    # planted-slip family, correct versions: (1 + 1/d)^d >= 2 for d >= 1
    ("slip-euler-lo", "papers", "prod((1 + 1/d[i])**d[i], i, 1, L)", ">=", "2**L", [], T, None),
    ("slip-d2-ok", "papers", "sum(d[i]**2, i, 1, L)", "<=", "sum(d[i], i, 1, L)**2", [], T, None),

    # --- false relations (each counterexample re-checked with mpmath at 50 digits)
    ("F-cube", "false", "sum(a[i]**3, i, 1, L)", "<=", "sum(a[i]**2, i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: v["a"][k] ** 3), S(L, lambda k: v["a"][k] ** 2))),
    ("F-super-rev", "false", "sum(a[i]**2, i, 1, L)", ">=", "sum(a[i], i, 1, L)**2", [], F,
     lambda L, v: (S(L, lambda k: v["a"][k] ** 2), S(L, lambda k: v["a"][k]) ** 2)),
    ("F-weier-rev", "false", "prod(1 + a[i], i, 1, L)", "<=", "1 + sum(a[i], i, 1, L)", [], F,
     lambda L, v: (P(L, lambda k: 1 + v["a"][k]), 1 + S(L, lambda k: v["a"][k]))),
    ("F-powermean-rev", "false", "sum(a[i], i, 1, L)**2", ">=", "L*sum(a[i]**2, i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: v["a"][k]) ** 2, L * S(L, lambda k: v["a"][k] ** 2))),
    ("F-basel", "false", "sum(1/i**2, i, 1, L)", "<=", "3/2 - 1/L", [], F,
     lambda L, v: (S(L, lambda k: mpmath.mpf(1) / (k + 1) ** 2), mpmath.mpf(3) / 2 - mpmath.mpf(1) / L)),
    ("F-gauss", "false", "sum(i, i, 1, L)", "==", "L*(L - 1)/2", [], F,
     lambda L, v: (S(L, lambda k: k + 1), mpmath.mpf(L * (L - 1)) / 2)),
    ("F-tele", "false", "prod(1 + 1/i, i, 1, L)", "==", "L", [], F,
     lambda L, v: (P(L, lambda k: 1 + mpmath.mpf(1) / (k + 1)), mpmath.mpf(L))),
    # the planted slip: a wrong exponent d for d^2 in a sum over layers
    ("F-slip-d2", "false", "sum(d[i]**2, i, 1, L)", "<=", "L*sum(d[i], i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: v["d"][k] ** 2), L * S(L, lambda k: v["d"][k]))),
    # the planted slip: a product of (1 + 1/d)^d compared with e^L the wrong way round
    ("F-slip-euler", "false", "prod((1 + 1/d[i])**d[i], i, 1, L)", ">=", "exp(L)", [], F,
     lambda L, v: (P(L, lambda k: (1 + 1 / v["d"][k]) ** v["d"][k]), mpmath.e ** L)),
    ("F-slip-euler1", "false", "prod((1 + 1/d[i])**(d[i] + 1), i, 1, L)", "<=", "exp(L)", [], F,
     lambda L, v: (P(L, lambda k: (1 + 1 / v["d"][k]) ** (v["d"][k] + 1)), mpmath.e ** L)),
    ("F-amgm-rev", "false", "prod(a[i], i, 1, L)**(1/L)", ">=", "sum(a[i], i, 1, L)/L", [], F,
     lambda L, v: (P(L, lambda k: v["a"][k]) ** (mpmath.mpf(1) / L), S(L, lambda k: v["a"][k]) / L)),
    ("F-cs-rev", "false", "sum(a[i]*c[i], i, 1, L)**2", ">=", "sum(a[i]**2, i, 1, L)*sum(c[i]**2, i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: v["a"][k] * v["c"][k]) ** 2,
                   S(L, lambda k: v["a"][k] ** 2) * S(L, lambda k: v["c"][k] ** 2))),
    ("F-jensen-rev", "false", "sum(exp(a[i]), i, 1, L)", "<=", "L*exp(sum(a[i], i, 1, L)/L)", [], F,
     lambda L, v: (S(L, lambda k: mpmath.exp(v["a"][k])), L * mpmath.exp(S(L, lambda k: v["a"][k]) / L))),
    ("F-log1p-rev", "false", "sum(log(1 + a[i]), i, 1, L)", ">=", "sum(a[i], i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: mpmath.log(1 + v["a"][k])), S(L, lambda k: v["a"][k]))),
    ("F-unit-prod", "false", "prod(x[i], i, 1, L)", ">=", "1", [], F,
     lambda L, v: (P(L, lambda k: v["x"][k]), mpmath.mpf(1))),
    ("F-unit-sum", "false", "sum(x[i], i, 1, L)", ">=", "L", [], F,
     lambda L, v: (S(L, lambda k: v["x"][k]), mpmath.mpf(L))),
    # NBS 2018 slip: the stable ranks bounded by L (it is >= L)
    ("F-nbs", "false", "sum(f[i]**2/s[i]**2, i, 1, L)", "<=", "L", ["f[i] >= s[i]"], F,
     lambda L, v: (S(L, lambda k: v["f"][k] ** 2 / v["s"][k] ** 2), mpmath.mpf(L))),
    # BFT 2017 slip: a product written as a product times a sum
    ("F-bft", "false", "prod(rho[i]*s[i], i, 1, L)", "==", "prod(rho[i], i, 1, L)*sum(s[i], i, 1, L)", [], F,
     lambda L, v: (P(L, lambda k: v["rho"][k] * v["s"][k]),
                   P(L, lambda k: v["rho"][k]) * S(L, lambda k: v["s"][k]))),
    # EGKZ 2022 slip: log(1 + 2x) <= x (it is <= 2x)
    ("F-egkz", "false", "sum(log(1 + 2*B[i]/eps), i, 1, L)", "<=", "sum(B[i]/eps, i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: mpmath.log(1 + 2 * v["B"][k] / v["eps"])), S(L, lambda k: v["B"][k] / v["eps"]))),
    ("F-sum-prod", "false", "sum(a[i], i, 1, L)", ">=", "prod(a[i], i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: v["a"][k]), P(L, lambda k: v["a"][k]))),
    ("F-geom", "false", "sum(2**i, i, 1, L)", "==", "2**L", [], F,
     lambda L, v: (S(L, lambda k: mpmath.mpf(2) ** (k + 1)), mpmath.mpf(2) ** L)),
    ("F-pow2", "false", "prod(1 + 1/d[i], i, 1, L)", "<=", "1 + L", [], F,
     lambda L, v: (P(L, lambda k: 1 + 1 / v["d"][k]), mpmath.mpf(1 + L))),
    ("F-weier-unit-rev", "false", "prod(1 - x[i], i, 1, L)", "<=", "1 - sum(x[i], i, 1, L)", [], F,
     lambda L, v: (P(L, lambda k: 1 - v["x"][k]), 1 - S(L, lambda k: v["x"][k]))),
    ("F-frac-rev", "false", "sum(a[i]/(1 + a[i]), i, 1, L)", ">=", "sum(a[i], i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: v["a"][k] / (1 + v["a"][k])), S(L, lambda k: v["a"][k]))),
    ("F-max", "false", "sum(a[i], i, 1, L)", "<=", "max(a[i], i, 1, L)", [], F,
     lambda L, v: (S(L, lambda k: v["a"][k]), max(v["a"][k] for k in range(L)))),
    ("F-assume", "false", "sum(c[i], i, 1, L)", "<=", "B", ["c[i] <= B"], F,
     lambda L, v: (S(L, lambda k: v["c"][k]), v["B"])),
]
