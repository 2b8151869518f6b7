"""The relation suite's cases in issue 22's categories (used by test_relations.py and
bench/relations.py): tight bounds of special functions, identities on their branches,
Jensen instances in several variables, integer-only truths, tight generalization
thresholds, l_p norms with 3 terms."""

TRUE, FALSE = "proved", "disproved"

# ---------------------------------------------------------------------------------------
# Issue 22's categories. Each case: (lhs, rel, rhs, assumptions, expected, domains, needs).
# ``domains``: "x:P" x > 0, "u:R" any real, "n:Z1" an integer >= 1 (the test builds them,
# so the registry's declarations play no part). ``needs``: "" (must be decided), or "h10"
# (a tight bound of a special function that needs the certified function-bound table of
# issue 22's other part: "unknown" is accepted until it lands, a wrong verdict never).
# Every true case carries its justification; every false case's counterexample is
# re-checked below at 50 digits.
NEW_CASES = [
    # ---- tight polynomial and rational bounds of special functions
    # tanh's Maclaurin series x - x^3/3 + 2x^5/15 - 17x^7/315 + ... alternates on x >= 0
    # (tanh is the odd part of the alternating Bernoulli series; partial sums bracket it)
    ("tanh(x)", "<=", "x - x**3/3 + 2*x**5/15", [], TRUE, "x:P", ""),
    ("tanh(x)", ">=", "x - x**3/3", [], TRUE, "x:P", ""),                   # same series
    ("tanh(x)", "<=", "x - x**3/3 + x**5/15", [], FALSE, "x:P", ""),        # 2/15 > 1/15 at O(x^5)
    # Shafer (1966): atan x > 3x/(1 + 2 sqrt(1 + x^2)); Fink (1995): atan x < pi x/(1 + 2 sqrt(1 + x^2))
    ("atan(x)", ">=", "3*x/(1 + 2*sqrt(1 + x**2))", [], TRUE, "x:P", ""),
    ("atan(x)", "<=", "pi*x/(1 + 2*sqrt(1 + x**2))", [], TRUE, "x:P", ""),
    ("atan(x)", ">=", "3.01*x/(1 + 2*sqrt(1 + x**2))", [], FALSE, "x:P", ""),   # slope 3.01/3 > 1 at 0
    # Polya (1949): erf x <= sqrt(1 - exp(-4x^2/pi)); Chu (1955): erf x >= sqrt(1 - exp(-x^2))
    ("erf(x)", "<=", "sqrt(1 - exp(-4*x**2/pi))", [], TRUE, "x:P", "h10"),
    ("erf(x)", ">=", "sqrt(1 - exp(-x**2))", [], TRUE, "x:P", ""),
    ("erf(x)", "<=", "sqrt(1 - exp(-1.2*x**2))", [], FALSE, "x:P", ""),     # slope sqrt(1.2) < 2/sqrt(pi)
    # Topsoe (2004): ln(1+x) <= x(6+x)/(6+4x) for x >= 0 (Pade [2/1]); ln(1+x) >= 2x/(2+x)
    ("log(1 + x)", "<=", "x*(6 + x)/(6 + 4*x)", [], TRUE, "x:P", ""),
    ("log(1 + x)", ">=", "2*x/(2 + x)", [], TRUE, "x:P", ""),
    ("log(1 + x)", "<=", "x*(6 + x)/(6 + 4.01*x)", [], FALSE, "x:P", ""),   # x^2 coefficient -0.5017 < -1/2
    ("log(1 + x)", ">=", "x*(6 + x)/(6 + 4*x)", [], FALSE, "x:P", ""),      # the reverse of Topsoe's bound
    # (1 + 1/x)^x increases to e; x log(1 + 1/x) <= 1 as log(1 + t) <= t
    ("(1 + 1/x)**x", "<=", "E", [], TRUE, "x:P", ""),
    # e(1 - 1/(2x+1)) <= (1+1/x)^x <= e(1 - 1/(2x+2)) (Polya-Szego, Aufgaben I, 168; the
    # expansion e(1 - 1/(2x) + 11/(24x^2) - ...) sits between 1/(4x^2) and 1/(2x^2))
    ("(1 + 1/x)**x", ">=", "E*2*x/(2*x + 1)", [], TRUE, "x:P", ""),
    ("(1 + 1/x)**x", "<=", "E*(2*x + 1)/(2*x + 2)", [], TRUE, "x:P", ""),
    ("(1 + 1/x)**x", ">=", "E*2*x/(2*x + 0.9)", [], FALSE, "x:P", ""),      # -0.45/x > -1/(2x) for large x
    # the logistic is concave on x >= 0: below its tangent 1/2 + x/4 at 0
    ("1/(1 + exp(-x))", "<=", "1/2 + x/4", [], TRUE, "x:P", ""),
    ("1/(1 + exp(-x))", "<=", "1/2 + x/4.1", [], FALSE, "x:P", ""),          # slope 1/4 > 1/4.1 at 0
    # ---- identities with special functions, on both sides of their branch conditions
    # atan u - atan v lies in (-pi/2, pi/2) exactly when uv > -1 (same signs: |diff| < pi/2;
    # u > 0 > v: atan u + atan|v| < pi/2 iff u < 1/|v|), and then tan of it is (u-v)/(1+uv)
    ("atan(u) - atan(v)", "==", "atan((u - v)/(1 + u*v))", ["u*v >= -1/2"], TRUE, "u:R v:R", ""),
    ("atan(u) - atan(v)", "==", "atan((u - v)/(1 + u*v))", ["u*v <= -2"], FALSE, "u:R v:R", ""),  # off by pi
    # for x, y > 0: atan x + atan y < pi/2 iff xy < 1 (same argument)
    ("atan(x) + atan(y)", "==", "atan((x + y)/(1 - x*y))", ["x*y <= 1/2"], TRUE, "x:P y:P", ""),
    ("atan(x) + atan(y)", "==", "atan((x + y)/(1 - x*y))", ["x*y >= 2"], FALSE, "x:P y:P", ""),   # off by pi
    # tanh 2u = 2 tanh u/(1 + tanh^2 u) (addition theorem); 2 tanh u/(1 - tanh^2 u) = sinh 2u
    ("tanh(2*u)", "==", "2*tanh(u)/(1 + tanh(u)**2)", [], TRUE, "u:R", ""),
    ("tanh(2*u)", "==", "2*tanh(u)/(1 - tanh(u)**2)", [], FALSE, "u:R", ""),
    # atan x + atan(1/x) = pi/2 sgn x: derivative 1/(1+x^2) - 1/(1+x^2) = 0, value at x = +-1
    ("atan(x) + atan(1/x)", "==", "pi/2", [], TRUE, "x:P", ""),
    ("atan(u) + atan(1/u)", "==", "-pi/2", ["u < 0"], TRUE, "u:R", ""),
    ("atan(u) + atan(1/u)", "==", "pi/2", ["u < 0"], FALSE, "u:R", ""),
    # tanh(log x) = (x - 1/x)/(x + 1/x) = (x^2 - 1)/(x^2 + 1)
    ("tanh(log(x))", "==", "(x**2 - 1)/(x**2 + 1)", [], TRUE, "x:P", ""),
    ("tanh(log(x))", "==", "(x**2 - 1)/(x**2 + 2)", [], FALSE, "x:P", ""),
    ("tanh(u)", "==", "(exp(2*u) - 1)/(exp(2*u) + 1)", [], TRUE, "u:R", ""),    # definition of tanh
    ("erf(-u)", "==", "-erf(u)", [], TRUE, "u:R", ""),                          # erf is odd
    ("sin(2*u)", "==", "2*sin(u)*cos(u)", [], TRUE, "u:R", ""),                 # double angle
    # ---- Jensen instances in several variables (the convexity layer, prover/convexity.py)
    # tanh'' = -2 tanh sech^2 <= 0 on x >= 0: concave there, convex on x <= 0
    ("tanh((x + y + z)/3)", ">=", "(tanh(x) + tanh(y) + tanh(z))/3", [], TRUE, "x:P y:P z:P", ""),
    ("tanh((x + y)/2)", ">=", "(tanh(x) + tanh(y))/2", [], TRUE, "x:P y:P", ""),
    ("tanh((u + v + w)/3)", ">=", "(tanh(u) + tanh(v) + tanh(w))/3", [], FALSE, "u:R v:R w:R", ""),
    # softplus'' = s(1 - s) > 0 (s the logistic): convex on the reals
    ("log(1 + exp((u + v)/2))", "<=", "(log(1 + exp(u)) + log(1 + exp(v)))/2", [], TRUE, "u:R v:R", ""),
    ("log(1 + exp((u + v + w)/3))", "<=", "(log(1 + exp(u)) + log(1 + exp(v)) + log(1 + exp(w)))/3", [],
     TRUE, "u:R v:R w:R", ""),
    ("log(1 + exp((u + v)/2))", ">=", "(log(1 + exp(u)) + log(1 + exp(v)))/2", [], FALSE, "u:R v:R", ""),
    ("exp((u + v + w)/3)", "<=", "(exp(u) + exp(v) + exp(w))/3", [], TRUE, "u:R v:R w:R", ""),  # AM-GM
    ("sqrt((x + y + z)/3)", ">=", "(sqrt(x) + sqrt(y) + sqrt(z))/3", [], TRUE, "x:P y:P z:P", ""),  # concave
    ("(x + y)/2*log((x + y)/2)", "<=", "(x*log(x) + y*log(y))/2", [], TRUE, "x:P y:P", ""),  # x log x convex
    ("log(a*x + (1 - a)*y)", ">=", "a*log(x) + (1 - a)*log(y)", ["a <= 1"], TRUE, "a:P x:P y:P", ""),
    # ---- integer-only truths (false on the reals: the relaxation alone cannot prove them)
    # 3^n >= n^3: n = 1, 2, 3 by hand (3 >= 1, 9 >= 8, 27 = 27); step 3 n^3 >= (n+1)^3 for n >= 3
    ("3**n", ">=", "n**3", [], TRUE, "n:Z1", ""),
    ("3**x", ">=", "x**3", ["x >= 1"], FALSE, "x:P", ""),                    # log x/x > log 3/3 near e
    # 2^n >= n^2 for n >= 4: 16 = 16, step 2 n^2 >= (n+1)^2 for n >= 3; false at n = 3 (8 < 9)
    ("2**n", ">=", "n**2", ["n >= 4"], TRUE, "n:Z1", ""),
    ("2**n", ">=", "n**2", [], FALSE, "n:Z1", ""),
    # (log n)^2/n: largest on the integers at n = 7 (0.540938...), on the reals 4/e^2 = 0.541341...
    ("log(n)**2/n", "<=", "0.541", [], TRUE, "n:Z1", ""),
    ("log(x)**2/x", "<=", "0.541", [], FALSE, "x:P", ""),
    ("log(n)**2/n", "<=", "0.5409", [], FALSE, "n:Z1", ""),
    ("2**n", ">=", "2*n", [], TRUE, "n:Z1", ""),                              # 2 = 2; 2^(n+1) = 2*2^n >= 4n >= 2n+2
    # n^(1/n): largest on the integers at n = 3 (log x/x decreases for x >= e; 2^(1/2) < 3^(1/3))
    ("n**(1/n)", "<=", "3**(1/3)", [], TRUE, "n:Z1", ""),
    ("n**(1/n)", "<", "3**(1/3)", [], FALSE, "n:Z1", ""),                    # equality at n = 3
    # ---- tight generalization thresholds (margins near 1e-6)
    # sqrt(log(2/d)/(2n)) <= n^(-1/2) iff log(2/d) <= 2 iff d >= 2/e^2 = 0.27067056647...
    # (both sides >= 0: square them, drop the positive factor 1/n; prover/rewrite.py)
    ("sqrt(log(2/d)/(2*n))", "<=", "1/sqrt(n)", ["d >= 0.270672"], TRUE, "d:P n:Z1", ""),
    ("sqrt(log(2/d)/(2*n))", "<=", "1/sqrt(n)", ["d >= 0.270669"], FALSE, "d:P n:Z1", ""),
    ("sqrt(log(2/d)/(2*n))", "<=", "1/sqrt(n)", ["d >= 0.270670"], FALSE, "d:P n:Z1", ""),  # 2/e^2 above it
    # Hoeffding's sample size: m >= log(2/d)/(2 e^2) gives sqrt(log(2/d)/(2m)) <= e (square both sides)
    ("sqrt(log(2/d)/(2*m))", "<=", "e", ["m >= log(2/d)/(2*e**2)"], TRUE, "d:P m:P e:P", ""),
    ("sqrt(log(2/d)/(2*m))", "<=", "e", ["m >= 0.999999*log(2/d)/(2*e**2)"], FALSE, "d:P m:P e:P", ""),
    ("1/sqrt(m)", "<=", "e", ["m >= 1.000001/e**2"], TRUE, "m:P e:P", ""),
    ("1/sqrt(m)", "<=", "e", ["m >= 0.999999/e**2"], FALSE, "m:P e:P", ""),   # at m = 0.999999/e^2
    # ---- l_p norm inequalities with 3 terms
    # ||x||_p is non-increasing in p (p = 2/3 vs 1, 1 vs 2, 2 vs 3, 4 vs inf)
    ("(x**(2/3) + y**(2/3) + z**(2/3))**(3/2)", ">=", "x + y + z", [], TRUE, "x:P y:P z:P", ""),
    ("sqrt(x**2 + y**2 + z**2)", "<=", "x + y + z", [], TRUE, "x:P y:P z:P", ""),
    ("(x**3 + y**3 + z**3)**(1/3)", "<=", "sqrt(x**2 + y**2 + z**2)", [], TRUE, "x:P y:P z:P", ""),
    ("max(x, y, z)", "<=", "(x**4 + y**4 + z**4)**(1/4)", [], TRUE, "x:P y:P z:P", ""),
    # Hoelder: ||x||_p <= 3^(1/p - 1/q) ||x||_q for p < q, equality at x = y = z
    ("(x**(2/3) + y**(2/3) + z**(2/3))**(3/2)", "<=", "sqrt(3)*(x + y + z)", [], TRUE, "x:P y:P z:P", ""),
    ("(x**(2/3) + y**(2/3) + z**(2/3))**(3/2)", "<=", "1.732*(x + y + z)", [], FALSE, "x:P y:P z:P", ""),
    ("x + y + z", "<=", "sqrt(3)*sqrt(x**2 + y**2 + z**2)", [], TRUE, "x:P y:P z:P", ""),
    ("x + y + z", "<=", "1.732*sqrt(x**2 + y**2 + z**2)", [], FALSE, "x:P y:P z:P", ""),
    ("(x**2 + y**2 + z**2)**2", "<=", "3*(x**4 + y**4 + z**4)", [], TRUE, "x:P y:P z:P", ""),
    ("(x**2 + y**2 + z**2)**2", "<=", "2.9*(x**4 + y**4 + z**4)", [], FALSE, "x:P y:P z:P", ""),
]
