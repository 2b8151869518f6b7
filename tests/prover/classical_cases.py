"""Issue 36's held-out suite: classical special-function inequalities in one or two
variables, each with a near-miss false twin (used by test_classical.py and bench/relations.py).

Sources: the four books issue 36 names -- D. S. Mitrinovic, *Analytic Inequalities* (1970),
M. Abramowitz & I. A. Stegun, *Handbook of Mathematical Functions*, ch. 4 (A&S), P. S.
Bullen, *A Dictionary of Inequalities* (1998), W. J. Kaczor & M. T. Nowak, *Problems in
Mathematical Analysis* (K&N) -- cited by book and topic (or the inequality's name) only: no
section or item number is given where the number was not known for sure. A few entries
are consequences of a book's formula (a series with terms of one sign, an infinite product,
a partial-fraction expansion, the mean value theorem): their source says so ("from ...").
The error-analysis family (a perturbation |d| <= eps) follows the standard relative-error
lemmas (Higham, *Accuracy and Stability of Numerical Algorithms*, ch. 3), derived with the
mean value theorem; each says so.

Each entry: ``C(family, source, lhs, rel, rhs, dom, twin, assume)``.
``dom``: "x:(0,pi/2) y:[-1,1]" -- each symbol's interval, brackets open or closed, ends
numbers, ``pi``-expressions or ``inf``. A rational end becomes the symbol's Domain bound;
an irrational end (pi/2) becomes a rational Domain bound just outside it plus the
assumption ``x < pi/2`` (or <=), so the prover sees the exact domain (:func:`prover_input`).
``near``: a point (name, value text, ...) where the search for the twin's counterexample
starts, for twins whose failing set the grid misses (|x - y| small near 0).
``twin``: the false near miss, a (lhs, rel, rhs) triple on the same domain and assumptions,
or a bare string: the rhs, with the theorem's lhs and rel. Its counterexample point is
recorded in classical_witnesses.json (``python tests/prover/classical_cases.py --witnesses``
searches it at 50 digits; test_classical.py re-checks every point and the theorems).
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

WITNESSES = Path(__file__).with_name("classical_witnesses.json")

MIT, AS, BUL, KN = ("Mitrinovic, Analytic Inequalities", "Abramowitz & Stegun ch. 4",
                    "Bullen, A Dictionary of Inequalities", "Kaczor & Nowak, Problems in Mathematical Analysis")
HIG = "error analysis (Higham, Accuracy and Stability, ch. 3, relative-error lemmas), by the mean value theorem"


@dataclass(frozen=True)
class C:
    family: str
    source: str
    lhs: str
    rel: str
    rhs: str
    dom: str
    twin: object
    assume: tuple = ()
    near: tuple = ()         # where the twin's counterexample search starts, if not at the grid's best point

    def twin_rel(self) -> tuple[str, str, str]:
        if isinstance(self.twin, str):
            return (self.lhs, self.rel, self.twin)
        return tuple(self.twin)

    @property
    def key(self) -> str:
        return f"{self.lhs} {self.rel} {self.rhs} | {self.dom} | {'; '.join(self.assume)}"


P2, PI = "x:(0,pi/2)", "x:(0,pi)"
CASES = [
    # ------------------------------------------------------------------ tan
    C("tan", f"{AS}, §4.3 circular functions: sin x < x < tan x", "tan(x)", ">", "x", P2, "1.001*x"),
    C("tan", f"{AS}, §4.3: Maclaurin series of tan (all terms positive)", "tan(x)", ">", "x + x**3/3", P2,
      "x + 1.001*x**3/3"),
    C("tan", f"{AS}, §4.3: Maclaurin series of tan (all terms positive)", "tan(x)", ">",
      "x + x**3/3 + 2*x**5/15", P2, "x + x**3/3 + 2.002*x**5/15"),
    C("tan", f"{AS}, §4.3: Maclaurin series of tan (all terms positive)", "tan(x)", ">",
      "x + x**3/3 + 2*x**5/15 + 17*x**7/315", P2, "x + x**3/3 + 2*x**5/15 + 17.017*x**7/315"),
    C("tan", f"{BUL}: Becker-Stark inequality (upper)", "tan(x)", "<", "pi**2*x/(pi**2 - 4*x**2)", P2,
      "0.999*pi**2*x/(pi**2 - 4*x**2)"),
    C("tan", f"{BUL}: Becker-Stark inequality (lower)", "tan(x)", ">", "8*x/(pi**2 - 4*x**2)", P2,
      "8.008*x/(pi**2 - 4*x**2)"),
    C("tan", f"from {AS}, §4.3: partial fractions of tan (terms positive on (0, pi/2))", "tan(x)", ">",
      "8*x/(pi**2 - 4*x**2) + 8*x/(9*pi**2 - 4*x**2)", P2,
      "1.001*(8*x/(pi**2 - 4*x**2) + 8*x/(9*pi**2 - 4*x**2))"),
    C("tan", f"{BUL}: Wilker's inequality", "(sin(x)/x)**2 + tan(x)/x", ">", "2", P2, "2.002"),
    C("tan", f"{BUL}: Huygens' inequality", "2*sin(x)/x + tan(x)/x", ">", "3", P2, "3.003"),
    C("tan", f"{MIT}: trigonometric functions, sin x tan x > x^2", "sin(x)*tan(x)", ">", "x**2", P2,
      "1.001*x**2"),
    C("tan", f"from {AS}, §4.3: Lambert's continued fraction for tan (convergents below tan)", "tan(x)", ">",
      "3*x/(3 - x**2)", P2, "3.003*x/(3 - x**2)"),
    C("tan", f"from {AS}, §4.3: Lambert's continued fraction for tan (convergents below tan)", "tan(x)", ">",
      "x*(15 - x**2)/(15 - 6*x**2)", P2, "1.001*x*(15 - x**2)/(15 - 6*x**2)"),
    C("tan", f"from {AS}, §4.3: series of cot t (all terms after 1/t negative), t = pi/2 - x", "tan(x)", "<",
      "1/(pi/2 - x) - (pi/2 - x)/3", P2, "1/(pi/2 - x) - (pi/2 - x)/2.997"),
    C("tan", f"{KN}: tan is convex on [0, pi/2), above its tangent at pi/4", "tan(x)", ">=",
      "1 + 2*(x - pi/4)", P2, "1.001 + 2*(x - pi/4)"),
    # ------------------------------------------------------------------ sin
    C("sin", f"{BUL}: Jordan's inequality", "sin(x)", ">", "2*x/pi", P2, "2.002*x/pi"),
    C("sin", f"{AS}, §4.3: sin x < x", "sin(x)", "<", "x", "x:(0,inf)", "0.999*x"),
    C("sin", f"from {AS}, §4.3: Maclaurin series of sin (alternating remainders)", "sin(x)", ">", "x - x**3/6",
      "x:(0,inf)", "x - 0.999*x**3/6"),
    C("sin", f"from {AS}, §4.3: Maclaurin series of sin (alternating remainders)", "sin(x)", "<",
      "x - x**3/6 + x**5/120", "x:(0,inf)", "x - x**3/6 + 0.999*x**5/120"),
    C("sin", f"from {AS}, §4.3: Maclaurin series of sin (alternating remainders)", "sin(x)", ">",
      "x - x**3/6 + x**5/120 - x**7/5040", "x:(0,inf)", "x - x**3/6 + x**5/120 - 0.999*x**7/5040"),
    C("sin", f"{BUL}: Redheffer's inequality (Jordan's inequality, refinements)", "sin(x)/x", ">=",
      "(pi**2 - x**2)/(pi**2 + x**2)", PI, "1.001*(pi**2 - x**2)/(pi**2 + x**2)"),
    C("sin", f"from {AS}, §4.3: infinite product of sin (factors in (0, 1))", "sin(x)", "<=",
      "x*(1 - x**2/pi**2)", PI, "0.999*x*(1 - x**2/pi**2)"),
    C("sin", f"from {AS}, §4.3: infinite product of sin (factors in (0, 1))", "sin(x)", "<=",
      "x*(1 - x**2/pi**2)*(1 - x**2/(4*pi**2))", PI, "0.999*x*(1 - x**2/pi**2)*(1 - x**2/(4*pi**2))"),
    C("sin", f"{MIT}: trigonometric functions, sin x > x cos x", "sin(x)", ">", "x*cos(x)", PI,
      "1.001*x*cos(x)"),
    C("sin", f"{MIT}: trigonometric functions, sin x < x cos(x/2)", "sin(x)", "<", "x*cos(x/2)", PI,
      "0.999*x*cos(x/2)"),
    C("sin", f"{KN}: sin is concave on [0, pi], below its tangent at pi/3", "sin(x)", "<=",
      "sqrt(3)/2 + (x - pi/3)/2", "x:[0,pi]", "sqrt(3)/2 + 0.999*(x - pi/3)/2"),
    C("sin", f"{KN}: sin is concave on [0, pi], above the chord from pi/6 to pi/2", "sin(x)", ">=",
      "1/2 + 3*(x - pi/6)/(2*pi)", "x:[pi/6,pi/2]", "1/2 + 3.003*(x - pi/6)/(2*pi)"),
    C("sin", f"{BUL}: Jordan's inequality, two-sided (sin x <= x)", "sin(x)", "<=", "x", "x:[0,pi/2]",
      "0.999*x"),
    # ------------------------------------------------------------------ cos
    C("cos", f"from {AS}, §4.3: Maclaurin series of cos (alternating remainders)", "cos(x)", ">=",
      "1 - x**2/2", "x:(-inf,inf)", "1 - 0.999*x**2/2"),
    C("cos", f"from {AS}, §4.3: Maclaurin series of cos (alternating remainders)", "cos(x)", "<=",
      "1 - x**2/2 + x**4/24", "x:(-inf,inf)", "1 - x**2/2 + 0.999*x**4/24"),
    C("cos", f"from {AS}, §4.3: Maclaurin series of cos (alternating remainders)", "cos(x)", ">=",
      "1 - x**2/2 + x**4/24 - x**6/720", "x:(-inf,inf)", "1 - x**2/2 + x**4/24 - 0.999*x**6/720"),
    C("cos", f"from {AS}, §4.3: Maclaurin series of cos (alternating remainders)", "cos(x)", "<=",
      "1 - x**2/2 + x**4/24 - x**6/720 + x**8/40320", "x:(-inf,inf)",
      "1 - x**2/2 + x**4/24 - x**6/720 + 0.999*x**8/40320"),
    C("cos", f"{MIT}: trigonometric functions, Kober's inequality (lower)", "cos(x)", ">=", "1 - 2*x/pi",
      "x:[0,pi/2]", "1 - 1.998*x/pi"),
    C("cos", f"{MIT}: trigonometric functions, Kober's inequality (upper)", "cos(x)", "<=", "pi/2 - x",
      "x:[0,pi/2]", "0.999*(pi/2 - x)"),
    C("cos", f"from {AS}, §4.3: infinite product of cos (factors in (0, 1))", "cos(x)", "<=",
      "1 - 4*x**2/pi**2", "x:[-pi/2,pi/2]", "1 - 4.004*x**2/pi**2"),
    C("cos", f"from {AS}, §4.3: infinite product of cos (factors in (0, 1))", "cos(x)", "<=",
      "(1 - 4*x**2/pi**2)*(1 - 4*x**2/(9*pi**2))", "x:[-pi/2,pi/2]",
      "0.999*(1 - 4*x**2/pi**2)*(1 - 4*x**2/(9*pi**2))"),
    C("cos", f"{BUL}: Jordan's inequality, refinements (Redheffer type, cosine)", "cos(x)", ">=",
      "(pi**2 - 4*x**2)/(pi**2 + 4*x**2)", "x:[-pi/2,pi/2]", "1.001*(pi**2 - 4*x**2)/(pi**2 + 4*x**2)"),
    C("cos", f"{MIT}: trigonometric functions, cos x < sin x/x", "cos(x)", "<", "sin(x)/x", PI,
      "0.999*sin(x)/x"),
    C("cos", f"{KN}: cos is concave on [-pi/2, pi/2], below its tangent at pi/4", "cos(x)", "<=",
      "sqrt(2)/2 - sqrt(2)*(x - pi/4)/2", "x:[-pi/2,pi/2]", "sqrt(2)/2 - 0.999*sqrt(2)*(x - pi/4)/2"),
    # ------------------------------------------------------------------ sin/cos
    C("sin/cos", f"{BUL}: Cusa's inequality (Cusa-Huygens)", "sin(x)/x", "<", "(2 + cos(x))/3", P2,
      "(2 + cos(x))/3.003"),
    C("sin/cos", f"{MIT}: Adamovic-Mitrinovic inequality", "(sin(x)/x)**3", ">", "cos(x)", P2,
      "1.001*cos(x)"),
    C("sin/cos", f"{MIT}: trigonometric functions, (sin x/x)^2 > cos x", "(sin(x)/x)**2", ">", "cos(x)", P2,
      "1.001*cos(x)"),
    C("sin/cos", f"{MIT}: trigonometric functions, sin x/x > cos^2(x/2)", "sin(x)/x", ">", "(1 + cos(x))/2",
      PI, "1.001*(1 + cos(x))/2"),
    C("sin/cos", f"{AS}, §4.3: sin x + cos x = sqrt(2) sin(x + pi/4)", "sin(x) + cos(x)", "<=", "sqrt(2)",
      "x:(-inf,inf)", "0.999*sqrt(2)"),
    C("sin/cos", f"{AS}, §4.3: sin x + cos x = sqrt(2) sin(x + pi/4)", "sin(x) + cos(x)", ">=", "1",
      "x:[0,pi/2]", "1.001"),
    C("sin/cos", f"{AS}, §4.3: sin 2x = 2 sin x cos x", "sin(x)*cos(x)", "<=", "1/2", "x:(-inf,inf)", "0.4995"),
    C("sin/cos", f"from {AS}, §4.3: partial fractions of cot (terms after 1/x negative)", "cos(x)/sin(x)",
      "<=", "1/x - 2*x/(pi**2 - x**2)", PI, "1/x - 2.002*x/(pi**2 - x**2)"),
    C("sin/cos", f"{AS}, §4.3: 1 - cos x = 2 sin^2(x/2) <= x^2/2", "1 - cos(x)", "<=", "x**2/2",
      "x:(-inf,inf)", "0.999*x**2/2"),
    C("sin/cos", f"{MIT}: trigonometric functions, cos x <= (sin x/x)^2 <= 1 (upper, via sin x < x)",
      "sin(x)**2", "<=", "x**2", "x:(-inf,inf)", "0.999*x**2"),
    C("sin/cos", f"{AS}, §4.3: cos 2x = 1 - 2 sin^2 x, with sin^2 x <= x^2", "cos(2*x)", ">=", "1 - 2*x**2",
      "x:(-inf,inf)", "1 - 1.998*x**2"),
    C("sin/cos", f"{MIT}: trigonometric functions, sin x cos x < x (0 < x)", "sin(x)*cos(x)", "<", "x",
      "x:(0,inf)", "0.999*x"),
    # ------------------------------------------------------------------ exp
    C("exp", f"{AS}, §4.2: exp inequalities, e^x > 1 + x", "exp(x)", ">=", "1 + x", "x:(-inf,inf)",
      "1 + 1.001*x"),
    C("exp", f"{AS}, §4.2: exp inequalities, e^x < 1/(1 - x) (x < 1)", "exp(x)", "<", "1/(1 - x)", "x:(0,1)",
      "0.999/(1 - x)"),
    C("exp", f"{AS}, §4.2: exp inequalities, x/(1 + x) < 1 - e^(-x) (x > -1)", "1 - exp(-x)", ">", "x/(1 + x)",
      "x:(0,inf)", "1.001*x/(1 + x)"),
    C("exp", f"{AS}, §4.2: exp inequalities, 1 - e^(-x) < x", "1 - exp(-x)", "<", "x", "x:(0,inf)", "0.999*x"),
    C("exp", f"{AS}, §4.2: exp inequalities, x < e^x - 1 < x/(1 - x) (x < 1)", "exp(x) - 1", "<",
      "x/(1 - x)", "x:(0,1)", "0.999*x/(1 - x)"),
    C("exp", f"{AS}, §4.2: exp inequalities, 1 + x > e^(x/(1 + x)) (x > -1)", "exp(x/(1 + x))", "<", "1 + x",
      "x:(0,inf)", "1 + 0.999*x"),
    C("exp", f"{AS}, §4.2: exp inequalities, 1 + x > e^(x/(1 + x)) (x > -1)", "exp(x/(1 + x))", "<", "1 + x",
      "x:(-1,0)", "1 + 1.001*x"),
    C("exp", f"from {AS}, §4.2: Maclaurin series, Lagrange remainder e^t x^4/24 >= 0", "exp(x)", ">=",
      "1 + x + x**2/2 + x**3/6", "x:(-inf,inf)", "1 + x + x**2/2 + 1.001*x**3/6"),
    C("exp", f"from {AS}, §4.2: Maclaurin series, Lagrange remainder e^t x^3/6 <= 0 for x <= 0", "exp(x)", "<=",
      "1 + x + x**2/2", "x:(-inf,0]", "1 + x + 0.999*x**2/2"),
    C("exp", f"from {AS}, §4.2: Maclaurin series of e^(-x) (alternating for x >= 0)", "exp(-x)", "<=",
      "1 - x + x**2/2", "x:[0,inf)", "1 - x + 0.999*x**2/2"),
    C("exp", f"from {AS}, §4.2: Maclaurin series of e^(-x) (alternating for x >= 0)", "exp(-x)", ">=",
      "1 - x + x**2/2 - x**3/6", "x:[0,inf)", "1 - x + x**2/2 - 0.999*x**3/6"),
    C("exp", f"{MIT}: exponential function, e^x >= e x", "exp(x)", ">=", "E*x", "x:(-inf,inf)", "1.001*E*x"),
    C("exp", f"{MIT}: exponential function, e^x >= x^e (x > 0)", "x**E", "<=", "exp(x)", "x:(0,inf)",
      "0.999*exp(x)"),
    C("exp", f"{MIT}: exponential function, e^(-x^2) <= 1/(1 + x^2)", "exp(-x**2)", "<=", "1/(1 + x**2)",
      "x:(-inf,inf)", "0.999/(1 + x**2)"),
    C("exp", f"from {AS}, §4.5: e^x = (1 + tanh(x/2))/(1 - tanh(x/2)), tanh t <= t (t >= 0)", "exp(x)", "<=",
      "(2 + x)/(2 - x)", "x:[0,2)", "0.999*(2 + x)/(2 - x)"),
    C("exp", f"from {AS}, §4.5: e^x = (1 + tanh(x/2))/(1 - tanh(x/2)), tanh t >= t (t <= 0)", "exp(x)", ">=",
      "(2 + x)/(2 - x)", "x:(-2,0]", "1.001*(2 + x)/(2 - x)"),
    C("exp", f"{AS}, §4.2: exp inequalities, e^x - 1 <= x e^x (mean value theorem)", "exp(x) - 1", "<=",
      "x*exp(x)", "x:(-inf,inf)", "0.999*x*exp(x)"),
    C("exp", f"from {AS}, §4.2: e^(x/2) >= 1 + x/2, squared (x >= -2)", "exp(x)", ">=", "(1 + x/2)**2",
      "x:[-2,inf)", "(1 + 1.001*x/2)**2"),
    C("exp", f"from {AS}, §4.2: e^(x/3) >= 1 + x/3, cubed (x >= -3)", "exp(x)", ">=", "(1 + x/3)**3",
      "x:[-3,inf)", "(1 + 1.001*x/3)**3"),
    C("exp", f"{MIT}: the number e, (1 + 1/x)^(x + 1) > e", "(1 + 1/x)**(x + 1)", ">", "E", "x:(0,inf)",
      "1.001*E"),
    C("exp", f"{MIT}: the number e, (1 + 1/x)^(x + 1/2) > e", "(1 + 1/x)**(x + 1/2)", ">", "E", "x:(0,inf)",
      ("(1 + 1/x)**(x + 0.4995)", ">", "E")),
    C("exp", f"{AS}, §4.5: sinh x > x (x > 0)", "(exp(x) - exp(-x))/2", ">", "x", "x:(0,inf)", "1.001*x"),
    C("exp", f"{AS}, §4.5: cosh x >= 1 + x^2/2", "(exp(x) + exp(-x))/2", ">=", "1 + x**2/2", "x:(-inf,inf)",
      "1 + 1.001*x**2/2"),
    C("exp", f"{MIT}: hyperbolic functions, cosh x <= e^(x^2/2)", "(exp(x) + exp(-x))/2", "<=", "exp(x**2/2)",
      "x:(-inf,inf)", "0.999*exp(x**2/2)"),
    C("exp", f"{KN}: softplus'' = s(1 - s) <= 1/4 (Taylor with remainder)", "log(1 + exp(x))", "<=",
      "log(2) + x/2 + x**2/8", "x:(-inf,inf)", "log(2) + x/2 + 0.999*x**2/8"),
    C("exp", f"from {AS}, §4.1: log(1 + t) > 0, t = e^(-x)", "log(1 + exp(x))", ">", "x", "x:(-inf,inf)",
      "x + 0.001"),
    # ------------------------------------------------------------------ log
    C("log", f"{AS}, §4.1: log inequalities, x/(1 + x) < log(1 + x) < x", "log(1 + x)", "<", "x", "x:(0,inf)",
      "0.999*x"),
    C("log", f"{AS}, §4.1: log inequalities, x/(1 + x) < log(1 + x) < x", "log(1 + x)", ">", "x/(1 + x)",
      "x:(0,inf)", "1.001*x/(1 + x)"),
    C("log", f"{AS}, §4.1: log inequalities, x/(1 + x) < log(1 + x) < x (x > -1)", "log(1 + x)", "<", "x",
      "x:(-1,0)", "1.001*x"),
    C("log", f"{AS}, §4.1: log inequalities, x/(1 + x) < log(1 + x) < x (x > -1)", "log(1 + x)", ">",
      "x/(1 + x)", "x:(-1,0)", "0.999*x/(1 + x)"),
    C("log", f"from {AS}, §4.1: Maclaurin series of log(1 + x) (alternating for x >= 0)", "log(1 + x)", ">=",
      "x - x**2/2", "x:[0,inf)", "x - 0.999*x**2/2"),
    C("log", f"from {AS}, §4.1: Maclaurin series of log(1 + x) (alternating for x >= 0)", "log(1 + x)", "<=",
      "x - x**2/2 + x**3/3", "x:[0,inf)", "x - x**2/2 + 0.999*x**3/3"),
    C("log", f"from {AS}, §4.1: Maclaurin series of log(1 + x) (alternating for x >= 0)", "log(1 + x)", ">=",
      "x - x**2/2 + x**3/3 - x**4/4", "x:[0,inf)", "x - x**2/2 + x**3/3 - 0.999*x**4/4"),
    C("log", f"{AS}, §4.1: log inequalities, log(1 + x) <= x(2 + x)/(2(1 + x))", "log(1 + x)", "<=",
      "x*(2 + x)/(2*(1 + x))", "x:[0,inf)", "0.999*x*(2 + x)/(2*(1 + x))"),
    C("log", f"{AS}, §4.1: log inequalities, 2x/(2 + x) vs log(1 + x), reversed for -1 < x < 0", "log(1 + x)",
      "<=", "2*x/(2 + x)", "x:(-1,0]", "1.001*2*x/(2 + x)"),
    C("log", f"{AS}, §4.1: log inequalities, |log(1 - x)| < 3x/2 for 0 < x <= 0.5828", "-log(1 - x)", "<",
      "3*x/2", "x:(0,0.5828]", "2.997*x/2"),
    C("log", f"{AS}, §4.1: log inequalities, x < -log(1 - x) < x/(1 - x)", "-log(1 - x)", "<", "x/(1 - x)",
      "x:(0,1)", "0.999*x/(1 - x)"),
    C("log", f"{AS}, §4.1: log inequalities, x < -log(1 - x) < x/(1 - x)", "-log(1 - x)", ">", "x", "x:(0,1)",
      "1.001*x"),
    C("log", f"{MIT}: logarithmic function, log x <= x - 1", "log(x)", "<=", "x - 1", "x:(0,inf)",
      "0.999*(x - 1)"),
    C("log", f"{MIT}: logarithmic function, log x >= 1 - 1/x", "log(x)", ">=", "1 - 1/x", "x:(0,inf)",
      "1.001*(1 - 1/x)"),
    C("log", f"{MIT}: logarithmic function, log x <= n(x^(1/n) - 1), n = 2", "log(x)", "<=", "2*(sqrt(x) - 1)",
      "x:(0,inf)", "1.998*(sqrt(x) - 1)"),
    C("log", f"{BUL}: logarithmic mean, L(x, 1) >= G(x, 1)", "log(x)", "<=", "(x - 1)/sqrt(x)", "x:[1,inf)",
      "0.999*(x - 1)/sqrt(x)"),
    C("log", f"{BUL}: logarithmic mean, L(x, 1) <= A(x, 1)", "log(x)", ">=", "2*(x - 1)/(x + 1)", "x:[1,inf)",
      "2.002*(x - 1)/(x + 1)"),
    C("log", f"{BUL}: logarithmic mean, Carlson's inequality L < (2G + A)/3", "log(x)", ">",
      "6*(x - 1)/(x + 1 + 4*sqrt(x))", "x:(1,inf)", "6.006*(x - 1)/(x + 1 + 4*sqrt(x))"),
    C("log", f"{MIT}: logarithmic function, log x <= x/e", "log(x)", "<=", "x/E", "x:(0,inf)", "0.999*x/E"),
    C("log", f"{KN}: max of log(x)/x^a is 1/(a e), a = 1/2", "log(x)", "<=", "2*sqrt(x)/E", "x:(0,inf)",
      "0.999*2*sqrt(x)/E"),
    C("log", f"{KN}: max of log(x)/x^a is 1/(a e), a = 1/4", "log(x)", "<=", "4*x**(1/4)/E", "x:(0,inf)",
      "0.999*4*x**(1/4)/E"),
    C("log", f"{MIT}: logarithmic function, log x <= (x - 1/x)/2 (x >= 1)", "log(x)", "<=", "(x - 1/x)/2",
      "x:[1,inf)", "0.999*(x - 1/x)/2"),
    C("log", f"from {AS}, §4.1: log(1 + t) > t/(1 + t), t = 1/x", "log(1 + x)", ">", "log(x) + 1/(x + 1)",
      "x:(0,inf)", "log(x) + 1.001/(x + 1)"),
    C("log", f"from {AS}, §4.1: log(1 + t) < t, t = 1/x", "log(1 + x)", "<", "log(x) + 1/x", "x:(0,inf)",
      "log(x) + 0.999/x"),
    C("log", f"from {AS}, §4.1: log(1 + t) < t, t = log(1 + x) (nested)", "log(1 + log(1 + x))", "<",
      "log(1 + x)", "x:(0,inf)", "0.999*log(1 + x)"),
    C("log", f"from {AS}, §4.1: log(1 + t) > t/(1 + t), t = log(1 + x) (nested)", "log(1 + log(1 + x))", ">",
      "log(1 + x)/(1 + log(1 + x))", "x:(0,inf)", "1.001*log(1 + x)/(1 + log(1 + x))"),
    C("log", f"{KN}: log is concave, below its tangent at 1 (log(1 + x) at x = 1)", "log(1 + x)", "<=",
      "log(2) + (x - 1)/2", "x:(-1,inf)", "log(2) + 0.999*(x - 1)/2"),
    # ------------------------------------------------------------------ atan
    C("atan", f"{AS}, §4.4: atan x < x (x > 0)", "atan(x)", "<", "x", "x:(0,inf)", "0.999*x"),
    C("atan", f"from {AS}, §4.4: Maclaurin series of atan (alternating, x > 0)", "atan(x)", ">", "x - x**3/3",
      "x:(0,inf)", "x - 0.999*x**3/3"),
    C("atan", f"from {AS}, §4.4: Maclaurin series of atan (alternating, x > 0)", "atan(x)", "<",
      "x - x**3/3 + x**5/5", "x:(0,inf)", "x - x**3/3 + 0.999*x**5/5"),
    C("atan", f"from {AS}, §4.4: Maclaurin series of atan (alternating, x > 0)", "atan(x)", ">",
      "x - x**3/3 + x**5/5 - x**7/7", "x:(0,inf)", "x - x**3/3 + x**5/5 - 0.999*x**7/7"),
    C("atan", f"from {AS}, §4.4: atan x = pi/2 - atan(1/x) (x > 0), atan t < t", "atan(x)", ">", "pi/2 - 1/x",
      "x:(0,inf)", "pi/2 - 0.999/x"),
    C("atan", f"from {AS}, §4.4: atan x = pi/2 - atan(1/x) (x > 0), atan t > t - t^3/3", "atan(x)", "<",
      "pi/2 - 1/x + 1/(3*x**3)", "x:(0,inf)", "pi/2 - 1/x + 0.999/(3*x**3)"),
    C("atan", f"from {AS}, §4.4: atan x = pi/2 - atan(1/x), atan t >= t/(1 + t^2)", "atan(x)", "<=",
      "pi/2 - x/(1 + x**2)", "x:(0,inf)", "pi/2 - 1.001*x/(1 + x**2)"),
    C("atan", f"{MIT}: inverse trigonometric functions, atan x > x/(1 + x^2)", "atan(x)", ">", "x/(1 + x**2)",
      "x:(0,inf)", "1.001*x/(1 + x**2)"),
    C("atan", f"from {AS}, §4.4: atan x = 2 atan(x/(1 + sqrt(1 + x^2))), atan t < t", "atan(x)", "<",
      "2*x/(1 + sqrt(1 + x**2))", "x:(0,inf)", "0.999*2*x/(1 + sqrt(1 + x**2))"),
    C("atan", f"from {AS}, §4.4: sin(atan x) = x/sqrt(1 + x^2) and sin t < t", "atan(x)", ">",
      "x/sqrt(1 + x**2)", "x:(0,inf)", "1.001*x/sqrt(1 + x**2)"),
    C("atan", f"{KN}: atan is concave on [0, 1], above its chord", "atan(x)", ">=", "pi*x/4", "x:[0,1]",
      "1.001*pi*x/4"),
    C("atan", f"{KN}: atan is concave on [0, inf), below its tangent at 1", "atan(x)", "<=",
      "pi/4 + (x - 1)/2", "x:[0,inf)", "pi/4 + 0.999*(x - 1)/2"),
    # ------------------------------------------------------------------ tanh (and hyperbolic)
    C("tanh", f"{AS}, §4.5: tanh x < x (x > 0)", "tanh(x)", "<", "x", "x:(0,inf)", "0.999*x"),
    C("tanh", f"from {AS}, §4.5: continued fraction of tanh (convergents alternate)", "tanh(x)", ">",
      "3*x/(3 + x**2)", "x:(0,inf)", "3.003*x/(3 + x**2)"),
    C("tanh", f"from {AS}, §4.5: continued fraction of tanh (convergents alternate)", "tanh(x)", "<",
      "x*(15 + x**2)/(15 + 6*x**2)", "x:(0,inf)", "0.999*x*(15 + x**2)/(15 + 6*x**2)"),
    C("tanh", f"from {AS}, §4.5: tanh x = 1 - 2e^(-2x)/(1 + e^(-2x))", "tanh(x)", ">", "1 - 2*exp(-2*x)",
      "x:(0,inf)", "1 - 1.998*exp(-2*x)"),
    C("tanh", f"from {AS}, §4.5: Maclaurin series of tanh (partial sums bracket it)", "tanh(x)", ">=",
      "x - x**3/3 + 2*x**5/15 - 17*x**7/315", "x:[0,inf)", "x - x**3/3 + 2*x**5/15 - 16.983*x**7/315"),
    C("tanh", f"{MIT}: hyperbolic functions, Lazarevic's inequality cosh x < (sinh x/x)^3",
      "(exp(x) + exp(-x))/2", "<", "((exp(x) - exp(-x))/(2*x))**3", "x:(0,inf)",
      "0.999*((exp(x) - exp(-x))/(2*x))**3"),
    C("tanh", f"{BUL}: Cusa's inequality, hyperbolic form sinh x/x < (2 + cosh x)/3",
      "(exp(x) - exp(-x))/(2*x)", "<", "(2 + (exp(x) + exp(-x))/2)/3", "x:(0,inf)",
      "(2 + (exp(x) + exp(-x))/2)/3.003"),
    C("tanh", f"{BUL}: Wilker's inequality, hyperbolic form", "((exp(x) - exp(-x))/(2*x))**2 + tanh(x)/x", ">",
      "2", "x:(0,inf)", "2.002"),
    C("tanh", f"{BUL}: Huygens' inequality, hyperbolic form", "(exp(x) - exp(-x))/x + tanh(x)/x", ">", "3",
      "x:(0,inf)", "3.003"),
    C("tanh", f"{AS}, §4.5: tanh x > x/cosh x (sinh x > x)", "tanh(x)", ">", "2*x/(exp(x) + exp(-x))",
      "x:(0,inf)", "2.002*x/(exp(x) + exp(-x))"),
    C("tanh", f"{KN}: tanh is concave on [0, inf), above its chord on [0, 1]", "tanh(x)", ">=", "tanh(1)*x",
      "x:[0,1]", "1.001*tanh(1)*x"),
    C("tanh", f"{KN}: tanh is concave on [0, inf), below its tangent at 1", "tanh(x)", "<=",
      "tanh(1) + (1 - tanh(1)**2)*(x - 1)", "x:[0,inf)", "tanh(1) + 0.999*(1 - tanh(1)**2)*(x - 1)"),
    # ------------------------------------------------------------------ sqrt (and roots)
    C("sqrt", f"{MIT}: Bernoulli's inequality, (1 + x)^(1/2) <= 1 + x/2", "sqrt(1 + x)", "<=", "1 + x/2",
      "x:[-1,inf)", "1 + 0.999*x/2"),
    C("sqrt", f"from {MIT}: binomial series of (1 + x)^(1/2) (alternating for x >= 0)", "sqrt(1 + x)", ">=",
      "1 + x/2 - x**2/8", "x:[0,inf)", "1 + x/2 - 0.999*x**2/8"),
    C("sqrt", f"from {MIT}: binomial series of (1 + x)^(1/2) (alternating for x >= 0)", "sqrt(1 + x)", "<=",
      "1 + x/2 - x**2/8 + x**3/16", "x:[0,inf)", "1 + x/2 - x**2/8 + 0.999*x**3/16"),
    C("sqrt", f"{BUL}: arithmetic-geometric mean inequality, G(x, 1) <= A(x, 1)", "sqrt(x)", "<=", "(x + 1)/2",
      "x:(0,inf)", "0.999*(x + 1)/2"),
    C("sqrt", f"{BUL}: geometric-harmonic mean inequality, G(x, 1) >= H(x, 1)", "sqrt(x)", ">=",
      "2*x/(x + 1)", "x:(0,inf)", "1.001*2*x/(x + 1)"),
    C("sqrt", f"{MIT}: Bernoulli's inequality with x^2", "sqrt(1 + x**2)", "<=", "1 + x**2/2", "x:(-inf,inf)",
      "1 + 0.999*x**2/2"),
    C("sqrt", f"{MIT}: Cauchy's inequality (1 + x)^2 <= 2(1 + x^2)", "sqrt(1 + x**2)", ">=", "(1 + x)/sqrt(2)",
      "x:(-inf,inf)", "1.001*(1 + x)/sqrt(2)"),
    C("sqrt", f"{KN}: sqrt(x + 1) - sqrt(x) = 1/(sqrt(x + 1) + sqrt(x))", "sqrt(x + 1) - sqrt(x)", "<",
      "1/(2*sqrt(x))", "x:(0,inf)", "0.999/(2*sqrt(x))"),
    C("sqrt", f"{KN}: sqrt(x + 1) - sqrt(x) = 1/(sqrt(x + 1) + sqrt(x))", "sqrt(x + 1) - sqrt(x)", ">",
      "1/(2*sqrt(x + 1))", "x:(0,inf)", "1.001/(2*sqrt(x + 1))"),
    C("sqrt", f"{MIT}: Bernoulli's inequality, (1 + x)^r <= 1 + r x (0 < r < 1), r = 1/3", "(1 + x)**(1/3)",
      "<=", "1 + x/3", "x:[-1,inf)", "1 + 0.999*x/3"),
    C("sqrt", f"{MIT}: Bernoulli's inequality, (1 + x)^r >= 1 + r x (r > 1), r = 3/2", "(1 + x)**(3/2)", ">=",
      "1 + 3*x/2", "x:[-1,inf)", "1 + 1.001*3*x/2"),
    C("sqrt", f"{MIT}: sqrt t >= t on [0, 1]", "sqrt(1 - x)", ">=", "1 - x", "x:[0,1]", "1.001*(1 - x)"),
    C("sqrt", f"{BUL}: power means, M_2(x, 1) >= A(x, 1)", "sqrt((1 + x**2)/2)", ">=", "(1 + x)/2",
      "x:(0,inf)", "1.001*(1 + x)/2"),
    # ------------------------------------------------------------------ abs
    C("abs", f"{AS}, §4.3: |sin x| <= |x|", "abs(sin(x))", "<=", "abs(x)", "x:(-inf,inf)", "0.999*abs(x)"),
    C("abs", f"{MIT}: trigonometric functions, |sin x| + |cos x| >= 1", "abs(sin(x)) + abs(cos(x))", ">=", "1",
      "x:(-inf,inf)", "1.001"),
    C("abs", f"{MIT}: trigonometric functions, |sin x| + |cos x| <= sqrt(2)", "abs(sin(x)) + abs(cos(x))", "<=",
      "sqrt(2)", "x:(-inf,inf)", "0.999*sqrt(2)"),
    C("abs", f"{AS}, §4.2: |e^z - 1| <= e^|z| - 1 (real z)", "abs(exp(x) - 1)", "<=", "exp(abs(x)) - 1",
      "x:(-inf,inf)", "0.999*(exp(abs(x)) - 1)"),
    C("abs", f"{AS}, §4.2: e^|z| - 1 <= |z| e^|z| (real z)", "exp(abs(x)) - 1", "<=", "abs(x)*exp(abs(x))",
      "x:(-inf,inf)", "0.999*abs(x)*exp(abs(x))"),
    C("abs", f"{AS}, §4.3: |1 - cos x| <= x^2/2", "abs(cos(x) - 1)", "<=", "x**2/2", "x:(-inf,inf)",
      "0.999*x**2/2"),
    C("abs", f"from {AS}, §4.1: |log(1 + x)| <= |x|/(1 - |x|) (|x| < 1)", "abs(log(1 + x))", "<=",
      "abs(x)/(1 - abs(x))", "x:(-1,1)", "0.999*abs(x)/(1 - abs(x))"),
    C("abs", f"{BUL}: Jordan's inequality, |sin x| >= 2|x|/pi on [-pi/2, pi/2]", "abs(sin(x))", ">=",
      "2*abs(x)/pi", "x:[-pi/2,pi/2]", "2.002*abs(x)/pi"),
    C("abs", f"{AS}, §4.4: |atan x| <= |x|", "abs(atan(x))", "<=", "abs(x)", "x:(-inf,inf)", "0.999*abs(x)"),
    C("abs", f"{AS}, §4.5: |tanh x| <= |x|", "abs(tanh(x))", "<=", "abs(x)", "x:(-inf,inf)", "0.999*abs(x)"),
    C("abs", f"{KN}: |sin nx| <= n|sin x| (induction), n = 3", "abs(sin(3*x))", "<=", "3*abs(sin(x))",
      "x:(-inf,inf)", "2.997*abs(sin(x))"),
    # ------------------------------------------------------------------ error analysis (|d| <= eps)
    C("error", f"{HIG}: |e^(x(1+d)) - e^x| = e^x |e^(xd) - 1| <= |xd| e^(x + |xd|)",
      "abs(exp(x*(1 + d)) - exp(x))", "<=", "abs(x*d)*exp(x + abs(x*d))", "x:[0,2] d:[-0.01,0.01]",
      "0.999*abs(x*d)*exp(x + abs(x*d))"),
    C("error", f"{HIG}: |log(x(1+d)) - log x| = |log(1 + d)| <= |d|/(1 - |d|)", "abs(log(x*(1 + d)) - log(x))",
      "<=", "abs(d)/(1 - abs(d))", "x:(0,100] d:[-0.01,0.01]", "0.999*abs(d)/(1 - abs(d))"),
    C("error", f"{HIG}: |sin(x(1+d)) - sin x| <= |xd| (|cos| <= 1)", "abs(sin(x*(1 + d)) - sin(x))", "<=",
      "abs(x*d)", "x:[0,10] d:[-0.01,0.01]", "0.999*abs(x*d)"),
    C("error", f"{HIG}: |cos(x(1+d)) - cos x| <= |xd| (|sin| <= 1)", "abs(cos(x*(1 + d)) - cos(x))", "<=",
      "abs(x*d)", "x:[0,10] d:[-0.01,0.01]", "0.999*abs(x*d)"),
    C("error", f"{HIG}: Taylor, |cos(x + h) - cos x| <= |h||sin x| + h^2/2 with h = xd",
      "abs(cos(x*(1 + d)) - cos(x))", "<=", "abs(x*d)*abs(sin(x)) + (x*d)**2/2", "x:[0,4] d:[-0.01,0.01]",
      "0.999*(abs(x*d)*abs(sin(x)) + (x*d)**2/2)"),
    C("error", f"{HIG}: |atan(x(1+d)) - atan x| <= |xd|/(1 + x^2(1 - |d|)^2)",
      "abs(atan(x*(1 + d)) - atan(x))", "<=", "abs(x*d)/(1 + x**2*(1 - abs(d))**2)", "x:[0,10] d:[-0.01,0.01]",
      "0.999*abs(x*d)/(1 + x**2*(1 - abs(d))**2)"),
    C("error", f"{HIG}: |sqrt(x(1+d)) - sqrt x| = sqrt x |d|/(1 + sqrt(1 + d))",
      "abs(sqrt(x*(1 + d)) - sqrt(x))", "<=", "sqrt(x)*abs(d)/(1 + sqrt(1 - abs(d)))",
      "x:(0,100] d:[-0.01,0.01]", "0.999*sqrt(x)*abs(d)/(1 + sqrt(1 - abs(d)))"),
    C("error", f"{HIG}: |log(1 + x(1+d)) - log(1 + x)| <= |xd|/(1 + x(1 - |d|))",
      "abs(log(1 + x*(1 + d)) - log(1 + x))", "<=", "abs(x*d)/(1 + x*(1 - abs(d)))", "x:[0,10] d:[-0.01,0.01]",
      "0.999*abs(x*d)/(1 + x*(1 - abs(d)))"),
    C("error", f"{HIG}: |tan(x(1+d)) - tan x| <= |xd|/cos^2(x(1 + |d|)) (sec^2 increasing)",
      "abs(tan(x*(1 + d)) - tan(x))", "<=", "abs(x*d)/cos(x*(1 + abs(d)))**2", "x:[0,1.5] d:[-0.01,0.01]",
      "0.999*abs(x*d)/cos(x*(1 + abs(d)))**2"),
    C("error", f"{HIG}: gamma_2, |(1 + d)(1 + e) - 1| <= 2u + u^2 (|d|, |e| <= u = 0.01)",
      "abs((1 + d)*(1 + e) - 1)", "<=", "2*0.01 + 0.01**2", "d:[-0.01,0.01] e:[-0.01,0.01]", "0.999*0.0201"),
    C("error", f"{HIG}: |1/(1 + d) - 1| <= |d|/(1 - |d|)", "abs(1/(1 + d) - 1)", "<=", "abs(d)/(1 - abs(d))",
      "d:[-0.01,0.01]", "0.999*abs(d)/(1 - abs(d))"),
    C("error", f"{HIG}; {AS}, §4.2: |e^d - 1| <= |d|/(1 - |d|) (e^x - 1 < x/(1 - x))", "abs(exp(d) - 1)", "<=",
      "abs(d)/(1 - abs(d))", "d:[-0.01,0.01]", "0.999*abs(d)/(1 - abs(d))"),
    C("error", f"{HIG}: |exp(xd) - 1| <= |xd| e^|xd| on a range of x", "abs(exp(x*d) - 1)", "<=",
      "abs(x*d)*exp(abs(x*d))", "x:[-10,10] d:[-0.01,0.01]", "0.999*abs(x*d)*exp(abs(x*d))"),
    # ------------------------------------------------------------------ two-variable functional
    C("two-variable", f"{BUL}: logarithmic mean, L(x, y) >= G(x, y)", "log(x) - log(y)", "<=",
      "(x - y)/sqrt(x*y)", "x:(0,10] y:(0,10]", "0.999*(x - y)/sqrt(x*y)", ("x >= y",)),
    C("two-variable", f"{BUL}: logarithmic mean, L(x, y) <= A(x, y)", "log(x) - log(y)", ">=",
      "2*(x - y)/(x + y)", "x:(0,10] y:(0,10]", "2.002*(x - y)/(x + y)", ("x >= y",)),
    C("two-variable", f"{BUL}: Young's inequality with f = exp", "x*y", "<=", "exp(x) + y*log(y) - y",
      "x:[-3,3] y:(0,10]", "exp(x) + y*log(y) - y - 0.001"),
    C("two-variable", f"{MIT}: Bernoulli's inequality (1 + x)^r <= 1 + r x, 0 <= r <= 1", "(1 + x)**r", "<=",
      "1 + r*x", "x:[-1,10] r:[0,1]", "1 + 0.999*r*x"),
    C("two-variable", f"{MIT}: Bernoulli's inequality (1 + x)^r >= 1 + r x, r >= 1", "(1 + x)**r", ">=",
      "1 + r*x", "x:[-1,10] r:[1,4]", "1 + 1.001*r*x"),
    C("two-variable", f"{BUL}: weighted AM-GM, x^(1/3) y^(2/3) <= x/3 + 2y/3", "x**(1/3)*y**(2/3)", "<=",
      "x/3 + 2*y/3", "x:(0,10] y:(0,10]", "0.999*(x/3 + 2*y/3)"),
    C("two-variable", f"{AS}, §4.3: sin x sin y = (cos(x - y) - cos(x + y))/2 <= sin^2((x + y)/2)",
      "sin(x)*sin(y)", "<=", "sin((x + y)/2)**2", "x:[0,pi] y:[0,pi]", "0.999*sin((x + y)/2)**2"),
    C("two-variable", f"{MIT}: Jensen, sin concave on [0, pi]", "sin(x) + sin(y)", "<=", "2*sin((x + y)/2)",
      "x:[0,pi] y:[0,pi]", "1.998*sin((x + y)/2)"),
    C("two-variable", f"{MIT}: Jensen, cos concave on [-pi/2, pi/2]", "cos(x) + cos(y)", "<=",
      "2*cos((x + y)/2)", "x:[-pi/2,pi/2] y:[-pi/2,pi/2]", "1.998*cos((x + y)/2)"),
    C("two-variable", f"{MIT}: Jensen, tan convex on [0, pi/2)", "tan(x) + tan(y)", ">=", "2*tan((x + y)/2)",
      "x:[0,1.5] y:[0,1.5]", "2.002*tan((x + y)/2)"),
    C("two-variable", f"{KN}: exp is convex, above its tangent at y", "exp(x)", ">=", "exp(y)*(1 + x - y)",
      "x:[-5,5] y:[-5,5]", "exp(y)*(1.001 + x - y)"),
    C("two-variable", f"{KN}: log is concave, below its tangent at y", "log(x)", "<=", "log(y) + (x - y)/y",
      "x:(0,10] y:(0,10]", "log(y) + 0.999*(x - y)/y"),
    C("two-variable", f"{KN}: mean value theorem, atan' = 1/(1 + t^2) decreasing on t >= 0",
      "atan(x) - atan(y)", "<=", "(x - y)/(1 + y**2)", "x:[0,10] y:[0,10]", "0.999*(x - y)/(1 + y**2)",
      ("x >= y",)),
    C("two-variable", f"{MIT}: Jensen, atan concave on [0, inf)", "atan(x) + atan(y)", "<=",
      "2*atan((x + y)/2)", "x:[0,10] y:[0,10]", "1.998*atan((x + y)/2)"),
    C("two-variable", f"{AS}, §4.5: tanh(x + y) = (tanh x + tanh y)/(1 + tanh x tanh y) (subadditive)",
      "tanh(x + y)", "<=", "tanh(x) + tanh(y)", "x:[0,10] y:[0,10]", "0.999*(tanh(x) + tanh(y))"),
    C("two-variable", f"{AS}, §4.3: sin x + sin y - sin(x + y) = 4 sin(x/2) sin(y/2) sin((x+y)/2)",
      "sin(x + y)", "<=", "sin(x) + sin(y)", "x:[0,pi] y:[0,pi]", "0.999*(sin(x) + sin(y))"),
    C("two-variable", f"{BUL}: sqrt is subadditive", "sqrt(x + y)", "<=", "sqrt(x) + sqrt(y)",
      "x:[0,10] y:[0,10]", "0.999*(sqrt(x) + sqrt(y))"),
    C("two-variable", f"{BUL}: sqrt x - sqrt y <= sqrt(x - y) (x >= y >= 0)", "sqrt(x) - sqrt(y)", "<=",
      "sqrt(x - y)", "x:[0,10] y:[0,10]", "0.999*sqrt(x - y)", ("x >= y",)),
    C("two-variable", f"{KN}: sin x/x decreasing on (0, pi]", "sin(x)/x", ">=", "sin(y)/y", "x:(0,pi] y:(0,pi]",
      ("sin(x)/x", ">=", "1.001*sin(y)/y"), ("x <= y",)),
    C("two-variable", f"{KN}: tan x/x increasing on (0, pi/2)", "tan(x)/x", "<=", "tan(y)/y",
      "x:(0,1.5] y:(0,1.5]", ("tan(x)/x", "<=", "0.999*tan(y)/y"), ("x <= y",)),
    C("two-variable", f"{KN}: log(1 + x)/x decreasing on (0, inf)", "log(1 + x)/x", ">=", "log(1 + y)/y",
      "x:(0,10] y:(0,10]", ("log(1 + x)/x", ">=", "1.001*log(1 + y)/y"), ("x <= y",)),
    C("two-variable", f"{MIT}: Bernoulli's inequality, x^y >= x/(x + y - xy) (x > 0, 0 <= y <= 1)", "x**y",
      ">=", "x/(x + y - x*y)", "x:(0,1] y:[0,1]", "1.001*x/(x + y - x*y)"),
    C("two-variable", f"{MIT}: x^y + y^x > 1 (x, y > 0), from x^y >= x/(x + y - xy)", "x**y + y**x", ">", "1",
      "x:(0,1] y:(0,1]", "1.001"),
    C("two-variable", f"from {AS}, §4.1: 1 + xy <= (1 + x)(1 + y) (x, y >= 0)", "log(1 + x*y)", "<=",
      "log(1 + x) + log(1 + y)", "x:[0,10] y:[0,10]", "log(1 + x) + log(1 + y) - 0.001"),
    C("two-variable", f"{BUL}: AM-GM for logs, log x log y <= (log sqrt(xy))^2", "log(x)*log(y)", "<=",
      "(log(x*y)/2)**2", "x:[1,10] y:[1,10]", "(log(x*y)/2)**2 - 0.001"),
    C("two-variable", f"{MIT}: (1 + x/y)^y < e^x (real y > 0)", "(1 + x/y)**y", "<=", "exp(x)",
      "x:(0,10] y:[1,100]", "0.999*exp(x)"),
    C("two-variable", f"{KN}: mean value theorem, |sin x - sin y| <= |x - y|", "abs(sin(x) - sin(y))", "<=",
      "abs(x - y)", "x:[-5,5] y:[-5,5]", "0.999*abs(x - y)", (), ("x", "0.01", "y", "0")),
    C("two-variable", f"{KN}: mean value theorem, |atan x - atan y| <= |x - y|", "abs(atan(x) - atan(y))", "<=",
      "abs(x - y)", "x:[-5,5] y:[-5,5]", "0.999*abs(x - y)", (), ("x", "0.01", "y", "0")),
    C("two-variable", f"{KN}: mean value theorem, |tanh x - tanh y| <= |x - y|", "abs(tanh(x) - tanh(y))", "<=",
      "abs(x - y)", "x:[-5,5] y:[-5,5]", "0.999*abs(x - y)", (), ("x", "0.01", "y", "0")),
    C("two-variable", f"{KN}: |x + y|/(1 + |x + y|) <= |x|/(1 + |x|) + |y|/(1 + |y|)",
      "abs(x + y)/(1 + abs(x + y))", "<=", "abs(x)/(1 + abs(x)) + abs(y)/(1 + abs(y))", "x:[-5,5] y:[-5,5]",
      "0.999*(abs(x)/(1 + abs(x)) + abs(y)/(1 + abs(y)))"),
    C("two-variable", f"{MIT}: triangle inequality, ||x| - |y|| <= |x - y|", "abs(abs(x) - abs(y))", "<=",
      "abs(x - y)", "x:[-5,5] y:[-5,5]", "0.999*abs(x - y)"),
    C("two-variable", f"{AS}, §4.3: cos x cos y = (cos(x - y) + cos(x + y))/2 <= cos^2((x + y)/2)",
      "cos(x)*cos(y)", "<=", "cos((x + y)/2)**2", "x:[-pi/2,pi/2] y:[-pi/2,pi/2]", "0.999*cos((x + y)/2)**2"),
    C("two-variable", f"{BUL}: arithmetic-geometric mean inequality for e^x, e^y", "exp(x) + exp(y)", ">=",
      "2*exp((x + y)/2)", "x:[-5,5] y:[-5,5]", "2.002*exp((x + y)/2)"),
]


# ----------------------------------------------------------------------------- domains
_IV = re.compile(r"^(\w+):([\[(])([^,]+),([^\])]+)([\])])$")


def parse_dom(spec: str) -> dict[str, tuple[str, bool, str, bool]]:
    """"x:(0,pi/2) y:[-1,1]" -> {name: (lo text, lo closed, hi text, hi closed)}."""
    out = {}
    for part in spec.split():
        m = _IV.match(part)
        if not m:
            raise ValueError(f"bad domain {part!r}")
        out[m.group(1)] = (m.group(3), m.group(2) == "[", m.group(4), m.group(5) == "]")
    return out


def _rational(text: str) -> Fraction | None:
    try:
        return Fraction(text)
    except ValueError:
        return None


def prover_input(spec: str, assume=()) -> tuple[dict, list[str]]:
    """The case's domains for the prover: {name: Domain kwargs} with rational ends, and the
    assumptions (the case's own, plus ``x < pi/2`` for each irrational end, whose Domain
    bound is a rational 1e-6 outside it)."""
    import mpmath
    doms, extra = {}, list(assume)
    for n, (lo, lc, hi, hc) in parse_dom(spec).items():
        kw: dict = {}
        for side, text, closed in (("lo", lo, lc), ("hi", hi, hc)):
            if text in ("inf", "-inf"):
                continue
            q = _rational(text)
            if q is None:
                with mpmath.workdps(30):
                    v = mpmath.mpf(eval(text, {"__builtins__": {}}, {"pi": mpmath.pi}))   # the suite's own text
                    q = Fraction(int(mpmath.floor(v * 10**6) if side == "lo" else mpmath.ceil(v * 10**6)), 10**6)
                extra.append(f"{n} {'>' if side == 'lo' else '<'}{'=' if closed else ''} {text}")
            kw[side], kw[f"{side}_closed"] = q, closed
        doms[n] = kw
    return doms, extra


# ----------------------------------------------------------------------------- 50-digit checks
def mp_names():
    import mpmath
    return {"sqrt": mpmath.sqrt, "exp": mpmath.exp, "log": mpmath.log, "tanh": mpmath.tanh, "atan": mpmath.atan,
            "sin": mpmath.sin, "cos": mpmath.cos, "tan": mpmath.tan, "abs": abs, "pi": mpmath.pi, "E": mpmath.e,
            "mpf": mpmath.mpf}


_CODE: dict[str, tuple] = {}     # text -> (its code, its literals): compiled once
_LIT: dict[tuple[str, int], object] = {}   # (literal, precision) -> its mpf
_NAMES: dict = {}


def mp_eval(expr: str, env: dict):
    """The suite's own text at mpmath's working precision, literals as exact decimals
    (each literal ``mpf("...")``, rounded at the current precision).

    The same as ``eval(re.sub(literal, 'mpf("literal")', expr))`` at every call, without
    compiling the text and parsing its literals again at each of the grid's points: the
    code is compiled once per text, and each literal's mpf made once per precision (mpfs
    are immutable; the arithmetic runs at the precision of the call, as before)."""
    import mpmath
    got = _CODE.get(expr)
    if got is None:
        lits: list[str] = []

        def name(m) -> str:
            lits.append(m.group(1))
            return f"_lit{len(lits) - 1}"
        text = re.sub(r"(?<![\w.])(\d+(?:\.\d+)?)", name, expr)
        got = _CODE[expr] = (compile(text, "<classical suite>", "eval"), tuple(lits))
    code, lits = got
    if not _NAMES:
        _NAMES.update(mp_names())
    ns = {**_NAMES, **env}
    prec = mpmath.mp.prec
    for i, lit in enumerate(lits):
        v = _LIT.get((lit, prec))
        if v is None:
            v = _LIT[(lit, prec)] = mpmath.mpf(lit)
        ns[f"_lit{i}"] = v
    return eval(code, {"__builtins__": {}}, ns)   # the suite's literals only


def margin(rel: str, a, b):
    """> 0 where ``a rel b`` holds with room, < 0 where it fails."""
    return b - a if rel in ("<=", "<") else a - b


def grid(spec: str, n1: int = 400, n2: int = 40) -> list[dict]:
    """A dense grid of the domain: evenly spaced points, points clustered geometrically at
    each finite end (down to 1e-5 of the width), log-spaced points out to 1e6 on infinite
    sides; closed ends included. The cross product in two variables."""
    import mpmath
    axes = {}
    iv = parse_dom(spec)
    n = n1 if len(iv) == 1 else n2
    for name, (lo, lc, hi, hc) in iv.items():
        lo_v = None if lo == "-inf" else mpmath.mpf(mp_eval(lo, {}))
        hi_v = None if hi == "inf" else mpmath.mpf(mp_eval(hi, {}))
        pts = []
        if lo_v is not None and hi_v is not None:
            w = hi_v - lo_v
            pts += [lo_v + w * k / n for k in range(1, n)]
            for j in range(1, 6):
                for f in (1, 3):
                    pts += [lo_v + w * f * mpmath.mpf(10) ** -j, hi_v - w * f * mpmath.mpf(10) ** -j]
        else:
            base = lo_v if lo_v is not None else hi_v
            sgn = 1 if lo_v is not None else -1
            if base is None:                       # the whole line: both sides of 0
                base, both = mpmath.mpf(0), True
            else:
                both = False
            offs = [mpmath.mpf(10) ** (-5 + 11 * k / n) for k in range(n + 1)] + \
                   [mpmath.mpf(10) * k / n for k in range(1, n)]
            pts += [base + sgn * o for o in offs]
            if both:
                pts += [base + o for o in offs] + [base]
        if lc and lo_v is not None:
            pts.append(lo_v)
        if hc and hi_v is not None:
            pts.append(hi_v)
        axes[name] = pts
    names = list(axes)
    if len(names) == 1:
        return [{names[0]: p} for p in axes[names[0]]]
    return [{names[0]: p, names[1]: q} for p in axes[names[0]] for q in axes[names[1]]]


def satisfies(case: C, env: dict) -> bool:
    """The point is in the case's domain and meets its assumptions (exactly, at 50 digits)."""
    for n, (lo, lc, hi, hc) in parse_dom(case.dom).items():
        v = env[n]
        if lo != "-inf":
            b = mp_eval(lo, {})
            if v < b or (v == b and not lc):
                return False
        if hi != "inf":
            b = mp_eval(hi, {})
            if v > b or (v == b and not hc):
                return False
    for a in case.assume:
        m = re.match(r"(.+?)\s*(<=|>=|<|>)\s*(.+)", a)
        if margin(m.group(2), mp_eval(m.group(1), env), mp_eval(m.group(3), env)) < 0:
            return False
    return True


def _rel_margin(case: C, rel_triple, env):
    import mpmath
    lhs, rel, rhs = rel_triple
    for n, v in env.items():                    # the point as recorded (40 digits), exactly
        env[n] = mpmath.mpf(mpmath.nstr(v, 40))
    if not satisfies(case, env):
        return None
    try:
        a, b = mp_eval(lhs, env), mp_eval(rhs, env)
    except (ZeroDivisionError, ValueError):
        return None
    if not (mpmath.isfinite(a) and mpmath.isfinite(b)) or mpmath.im(a) or mpmath.im(b):
        return None
    return margin(rel, a, b) / (1 + abs(a) + abs(b))


def find_witness(case: C):
    """The point (at 50 digits) where the twin fails by the largest relative margin: the
    best point of the dense grid, then a zoom around it (11 points a side, 14 rounds, the
    radius divided by 4 each round); None if no point fails by more than 1e-30."""
    import itertools

    import mpmath
    twin = case.twin_rel()
    best, where = None, None
    with mpmath.workdps(50):
        for env in grid(case.dom):
            m = _rel_margin(case, twin, env)
            if m is not None and (best is None or m < best):
                best, where = m, env
        if case.near:
            env = {case.near[i]: mpmath.mpf(case.near[i + 1]) for i in range(0, len(case.near), 2)}
            best, where = _rel_margin(case, twin, env), env
        if where is None:
            return None
        radius = {n: mpmath.mpf(1) / 10 * (1 + abs(v)) for n, v in where.items()}
        per = 21 if len(where) == 1 else 11
        for _ in range(14):
            centre = dict(where)
            steps = [[centre[n] + radius[n] * (2 * k / (per - 1) - 1) for k in range(per)] for n in centre]
            for pt in itertools.product(*steps):
                env = dict(zip(centre, pt))
                m = _rel_margin(case, twin, env)
                if m is not None and m < best:
                    best, where = m, env
            radius = {n: r / 4 for n, r in radius.items()}
    if best >= -mpmath.mpf(10) ** -30:
        return None
    return {k: mpmath.nstr(v, 40) for k, v in where.items()}


def main() -> None:
    if sys.argv[1:] != ["--witnesses"]:
        sys.exit("usage: python tests/prover/classical_cases.py --witnesses")
    out = {}
    for c in CASES:
        w = find_witness(c)
        if w is None:
            print(f"no counterexample for the twin of: {c.key}", file=sys.stderr)
        else:
            out[c.key] = w
    WITNESSES.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"{len(out)} of {len(CASES)} witnesses -> {WITNESSES}")


if __name__ == "__main__":
    main()
