"""What a pass rests on: a tautology of the encoding, or an assumption added by us.

A pass is evidence only if the paper could have made it fail. Two ways it cannot, and one
way it rests on something the paper does not say, each asked of every pass (after the
check ran: a claim that holds without its premises passes with them too, so asking after
the pass gives the same answer as asking before, for no cost on a finding):

* **A tautology of the encoding** (graded ``identity``, never a pass), :func:`tautology`:

  - the two sides the check compares are the same expression once SymPy's automatic
    canonicalisation has collected like terms (no simplification), and either a side the
    check writes inline collapses to a number by itself (``c h + (-c) h == 0``: its terms
    cancel), or the two sides are bare formulas that are one tree up to the order of terms
    and factors (one formula written twice, :func:`written_twice`; two different expressions
    that agree only by arithmetic — the printed (11) against our derivation from (9)-(10) —
    are a step checked, since a misprinted prefactor would fail), or a derivation
    (restatement) whose premise, after the check's own substitution, *is* a claim the paper
    does not print (status ``derived`` / ``corrected``: the substitution defines that side).
    Sides made equal by SymPy's arithmetic (``H^(-p) H^(1/2) == H^(1/2 - p)``, a union bound
    ``1 - (1 - p) - delta == p - delta`` over formulas) are the paper's arithmetic checked, not
    a tautology; when both formulas are printed, a claim that
    is its premise after the substitution is the paper's own step (``Cor. 2 is Thm. 1 at
    delta = 0.05``), and any number the substitution pins is an assumption added by us
    (below);
  - a ``compare`` written inline (no formula of the paper named) that still holds with its
    premises (the hypotheses it inherits and its ``assume`` entries) taken away: the claim
    alone, under the symbols' domains, decided by the prover — an identity of the algebra
    the check itself wrote;
  - a ``compare`` (written inline, or naming formulas, inlined; then the factor a function
    of the assumption's own symbols) whose claim is one of its own assumptions up to a factor
    proved positive, once the symbols its assumptions pin to a number are put in (``nu/sqrt(m) <= rho/sqrt(m)`` assuming ``rho >= nu``;
    ``s_l1/s_l2^2 <= T`` assuming ``T s_l2^2 >= s_l1^2`` and ``s_l1 = 1``);
  - an ``identity`` check of a function of its variable alone, naming no formula or other
    symbol of the paper: a textbook identity (``tanh' = 1 - tanh^2``), no step of the paper;
  - an ``order`` check whose order is read straight off its own formula (:func:`read_off`:
    the variable occurs once, inside a factor reached through sums and products only, as in
    ``L_1^4/sqrt(tau)`` for "the 1/sqrt(tau) rate"): the sentence restates that factor.

* **Assumptions added by us** (:func:`added_by_us`): every ``assume`` entry (a quote in its
  reason does not make it a hypothesis of the paper: only a ``[[hypotheses]]`` entry of a
  covered result does), and every substitution that pins a symbol to a number
  (``theta_2inf = 1``) unless a covered result's hypothesis states exactly that. They are
  listed on the finding (``added``); a pass that needs one — it no longer passes when the
  ``assume`` entries are dropped, or it pins a symbol — is graded ``conditional``
  (:func:`conditional`).

Budget: each re-run decides with the seconds of a mutant of ``--strength``
(:data:`RERUN_SECONDS`); an undecided re-run counts as "needed" / "not a tautology" (the
cautious answer: a pass is never made unconditional or a tautology by a budget).
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from ...expr.nodes import Num, Rel
from ...registry import checks
from ...verdicts import FormulaStatus, Grade, Verdict

__all__ = ["RERUN_SECONDS", "added_by_us", "conditional", "read_off", "same_expression", "tautology",
           "written_twice"]

RERUN_SECONDS = 2.0
ORIENT = {"<=": 1, "<": 1, ">=": -1, ">": -1}


def same_expression(a, op: str, b) -> bool:
    """Whether ``a op b`` holds by SymPy's automatic canonicalisation alone: a - b collects
    to a number that satisfies ``op`` against 0 (no simplify, no decision)."""
    from ...backends.sym import to_sympy
    try:
        d = to_sympy(a, {}) - to_sympy(b, {})
    except Exception:          # a form SymPy cannot hold: no verdict, no tautology
        return False
    if d.free_symbols or not d.is_number or d.is_real is not True:
        return False
    v = Fraction(str(d)) if d.is_Rational else None
    if v is None:
        return False
    return {"==": v == 0, "<=": v <= 0, "<": v < 0, ">=": v >= 0, ">": v > 0}[op]


def written_twice(a, b) -> bool:
    """Whether ``a`` and ``b`` are one expression written twice: the same tree up to the
    order of the terms of a sum and the factors of a product — no arithmetic (``T/sqrt(2 T)``
    and ``sqrt(T)/sqrt(2)`` are two expressions that agree, not one written twice: a
    misprinted prefactor in either would tell them apart)."""
    return _canon(a) == _canon(b)


def _canon(node) -> str:
    """The tree as text, the terms of a sum and the factors of a product sorted."""
    from ...expr.nodes import Add, Mul
    if isinstance(node, (Add, Mul)):
        kids = sorted(_canon(k) for k in node.args)
        return ("+" if isinstance(node, Add) else "*") + "(" + ",".join(kids) + ")"
    kids = node.children()
    if not kids:
        return repr(node)
    return type(node).__name__ + "[" + repr(_fields_but_kids(node)) + "](" + ",".join(_canon(k) for k in kids) + ")"


def _fields_but_kids(node) -> tuple:
    from ...expr.nodes import Node
    return tuple(getattr(node, s_) for s_ in getattr(type(node), "__slots__", ())
                 if not isinstance(getattr(node, s_), (Node, tuple)))


def added_by_us(reg, paper, t: checks.CheckFields) -> list[dict]:
    """The assumptions a check makes beyond the quoted hypotheses of the results it covers:
    its ``assume`` entries and its substitutions of a number for a symbol (``substitute``,
    ``substitute_a``, ``substitute_b``) that no covered hypothesis states."""
    from ...expr.parser import parse
    out = []
    for a in t.assumptions:
        out.append({"assumption": a.expr, "kind": "assume", "reason": a.reason})
    stated = _stated_values(reg, paper, t)
    for key, table in t.substitutions().items():
        for sym, val in table.items():
            try:
                node = parse(str(val), allow_relation=False, where="substitute")
            except Exception:
                continue
            if node.symbols() or (sym, _value(node)) in stated:
                continue                       # a rewriting (the step itself), or stated by the paper
            out.append({"assumption": f"{sym} = {val}", "kind": "substitution",
                        "reason": f"the check sets {sym} to {val} ({key})"})
    return out


def _value(node):
    from ...expr.exact import NotExact, evaluate_exact
    try:
        return evaluate_exact(node, {})
    except (NotExact, ZeroDivisionError, ValueError, OverflowError):
        return None


def _stated_values(reg, paper, t) -> set:
    """(symbol, value) for each covered hypothesis of the form ``symbol == number``."""
    from ...expr.nodes import Sym
    covers = set(t.covers)
    out = set()
    for h in paper.hypotheses:
        if h.result not in covers or not isinstance(h.expr, Rel) or h.expr.op != "==":
            continue
        for s_, v in ((h.expr.lhs, h.expr.rhs), (h.expr.rhs, h.expr.lhs)):
            if isinstance(s_, Sym) and not v.symbols():
                out.add((s_.name, _value(v)))
    return out


def tautology(reg, paper, c, f, rerun) -> str | None:
    """Why a passing check ``c`` (its finding ``f``) is a tautology of the encoding, or
    None. ``rerun(fields, hyp_hook)`` re-runs the check's kind and returns its finding."""
    t = c.spec
    if isinstance(t, checks.Identity) and not t.uses:
        from .common import expr
        fn = expr(reg, paper, t.function)
        if fn.symbols() <= {t.wrt}:
            return (f"a textbook identity: the function is one of {t.wrt} alone, naming no formula or other "
                    "symbol of the paper — it holds whatever the paper printed")
    if isinstance(t, checks.Order):
        return read_off(reg, paper, t)
    if f.sides is None:
        return None
    a, op, b = f.sides
    if isinstance(a, Rel) or isinstance(b, Rel):
        return None
    if same_expression(a, op, b):
        subst = any(t.substitutions().values())
        ours = _not_printed(reg, paper, c)
        inline = isinstance(t, checks.Compare) and not t.uses
        if inline and any(_collapses(x) for x in (a, b)):
            return ("a tautology of the encoding: a side written by the check collapses to a number once like "
                    "terms are collected (its terms cancel) — no step of the paper is checked")
        bare = not isinstance(t, checks.Compare) or (t.lhs in t.uses and t.rhs in t.uses)
        if not subst and bare and written_twice(a, b):
            return ("a tautology of the encoding: the two sides are the same expression up to the order of "
                    "terms and factors (one formula written twice) — no step of the paper is checked")
        if subst and ours and not _quoted_substitution(reg, paper, t):
            return (f"a tautology of the encoding: after the check's substitution the two sides are the same "
                    f"expression once like terms are collected, and {', '.join(ours)} is not printed by the paper "
                    "(its status says so): the substitution defines that side — no step of the paper is checked")
    if not isinstance(t, checks.Compare):
        return None
    if t.uses:                 # a formula of the paper named: only a restated assumption is a tautology
        return _restates(reg, paper, t, a, op, b, own=True) if t.assume else None
    hyps = f.evidence.get("hypotheses") if isinstance(f.evidence, dict) else None
    if not (t.assume or hyps):
        return None
    alone = rerun(replace(t, assume=()), lambda hs: [])
    if alone.severity is Grade.OK:
        return ("an identity of the algebra the check wrote: it names no formula of the paper and holds "
                "without its premises (hypotheses and assumptions dropped, the claim alone under the "
                "symbols' domains)")
    return _restates(reg, paper, t, a, op, b)


def read_off(reg, paper, t) -> str | None:
    """Why an ``order`` check states an order read straight off its own formula, or None:
    in the default regime (no coupling, no further regime), with definitions inlined and
    ``fixed`` values put in, the way from the top of the formula down to each occurrence of
    the variable passes sums and products first, then only products, powers and functions —
    no sum below a power or a function (``L_1^4/sqrt(tau)`` in tau,
    ``C (a + L_1 sqrt(log(2n/delta)/m))`` in n; not ``(1 + (sqrt(d) + b)^2)^2`` in d, whose
    order is the algebra of a sum under a power) — and either the variable occurs once, or
    (:func:`_monomial`) every term of a sum that holds it holds it as the same single monomial
    factor ``v^k`` reached through products and numeric powers only, no two factors of one
    product holding it (``C (2S + Z)(sqrt(d/n1) + sqrt(log(1/delta)/n1))`` in n1: the formula
    is ``n1^(-1/2)`` times an n1-free part, merely not factored; not ``sqrt(n) n^-1``, whose
    exponents are added by arithmetic, nor ``sqrt(n) + 1/n``). Its order is then the factor
    the variable sits in, whatever the paper printed: no step of the paper is checked."""
    from ...expr.nodes import Sym, substitute
    from ...expr.parser import parse_number
    from .common import formula_id
    if t.regimes or t.together or isinstance(t.var, list):
        return None
    node = reg.resolved(formula_id(paper, t.formula))
    if isinstance(node, Rel):
        return None
    node = substitute(node, {k: Num(parse_number(str(v))) for k, v in t.fixed.items()})
    v = t.var
    count = sum(1 for n in node.walk() if isinstance(n, Sym) and n.name == v)
    if count == 0 or _read_off_walk(node, v, True) is None:
        return None
    if count == 1:
        return (f"an order read off its own formula: {v} occurs once in {t.formula}, reached through its sums "
                f"and products and then only products, powers and functions, so the stated order is the order "
                f"of the factor {v} sits in, read off the formula (the sentence restates that factor) — no step "
                "of the paper is checked")
    k = _monomial(node, v)
    return (f"an order read off its own formula: {v} occurs {count} times in {t.formula}, but every term that "
            f"holds it holds the same single factor {v}^({k}) (through products and numeric powers only), so "
            f"the part of {t.formula} that holds {v} is {v}^({k}) times a {v}-free part, not factored; the stated "
            "order is that factor, read off the formula (the sentence restates it) — no step of the paper is checked")


def _read_off_walk(cur, v: str, linear: bool):
    """The path rule of :func:`read_off` below ``cur`` (which holds ``v``): True when it holds,
    None when not. A sum of the linear part (sums and products from the top) with several
    terms holding ``v`` holds when each term does and all share one monomial factor of ``v``."""
    from ...expr.nodes import Add, Func, Mul, Pow, Sym
    if isinstance(cur, Sym) and cur.name == v:
        return True
    kids = [k for k in cur.children() if v in k.symbols()]
    if isinstance(cur, Add) and not linear:
        return None
    if isinstance(cur, Add) and len(kids) > 1:
        exps = [_monomial(k, v) for k in kids]
        if any(e is None for e in exps) or len(set(exps)) != 1:
            return None
        return True if all(_read_off_walk(k, v, True) for k in kids) else None
    if not isinstance(cur, (Add, Mul, Pow, Func)) or len(kids) != 1:
        return None
    return _read_off_walk(kids[0], v, linear and isinstance(cur, (Add, Mul)))


def _monomial(cur, v: str):
    """The exponent k (a Fraction) when ``cur`` holds ``v`` as one factor ``v^k`` reached
    through products and numeric powers only (``sqrt`` a power 1/2), one factor of each product
    holding it (so no exponents are added: ``sqrt(n)/n`` is not one); a sum whose terms all
    hold the same monomial counts as that monomial (the factor taken out). None otherwise."""
    from ...expr.nodes import Add, Func, Mul, Pow, Sym
    if isinstance(cur, Sym) and cur.name == v:
        return Fraction(1)
    kids = [k for k in cur.children() if v in k.symbols()]
    if isinstance(cur, Add):
        exps = [_monomial(k, v) for k in kids]
        return exps[0] if exps and None not in exps and len(set(exps)) == 1 else None
    if len(kids) != 1:
        return None
    if isinstance(cur, Mul):
        return _monomial(kids[0], v)
    if isinstance(cur, Func) and cur.name == "sqrt":
        inner = _monomial(kids[0], v)
        return None if inner is None else inner / 2
    if isinstance(cur, Pow) and kids[0] is cur.base and not cur.exp.symbols():
        e = _value(cur.exp)
        inner = _monomial(cur.base, v)
        if inner is None or not isinstance(e, Fraction):
            return None
        return inner * e
    return None


def _quoted_substitution(reg, paper, t) -> bool:
    """Whether every substitution of the check is a condition the paper states for a result
    the check covers, taken at its boundary (``L_hat0 = dist0**2/eta`` from Thm. 1's quoted
    ``eta <= ... wedge dist0**2/L_hat0``): the condition becomes ``x op x`` (one side, or an
    argument of a ``min``/``max`` side, the same expression as the other) after the
    substitution. Such a substitution is the paper's own step, not a definition of a side
    by us. The conditions: the covered results' ``[[hypotheses]]`` and the paper's
    ``requirement`` formulas whose source names a covered result."""
    from ...expr.nodes import Func, substitute
    from ...expr.parser import parse
    conds = _covered_conditions(reg, paper, t)
    tables = [tb for tb in t.substitutions().values() if tb]
    if not conds or not tables:
        return False

    def sides(x):
        return (x,) + (x.args if isinstance(x, Func) and x.name in ("min", "max") else ())
    for table in tables:
        for sym, val in table.items():
            try:
                rep = {sym: parse(str(val), allow_relation=False, where="substitute")}
            except Exception:
                return False
            hit = False
            for r in conds:
                if sym not in r.symbols():
                    continue
                r2 = substitute(r, rep)
                if isinstance(r2, Rel) and any(same_expression(u, "==", v) for u in sides(r2.lhs)
                                               for v in sides(r2.rhs)):
                    hit = True
                    break
            if not hit:
                return False
    return True


def _covered_conditions(reg, paper, t) -> list:
    """The relations the paper states as conditions of the results ``t`` covers."""
    import re
    covers = set(t.covers)
    out = [h.expr for h in paper.hypotheses if h.result in covers and isinstance(h.expr, Rel)]
    for name, spec in sorted(paper.formulas.items()):
        if spec.kind != "requirement" or spec.status is not FormulaStatus.AS_PRINTED:
            continue
        if any(re.match(re.escape(r) + r"(?![\w.])", spec.source) for r in covers):
            node = reg.resolved(spec.id)
            if isinstance(node, Rel):
                out.append(node)
    return out


def _collapses(node) -> bool:
    """A side with symbols that SymPy's automatic collection turns into a number (c h - c h)."""
    from ...backends.sym import to_sympy
    if not node.symbols():
        return False
    try:
        return not to_sympy(node, {}).free_symbols
    except Exception:
        return False


def _not_printed(reg, paper, c) -> list[str]:
    """The formulas a derivation or restatement compares that the paper does not print as
    they are (status ``derived`` or ``corrected``: written by us)."""
    from .common import formula_id
    t = c.spec
    names = (t.claim, t.premise) if isinstance(t, checks.Derivation) else \
        (t.a, t.b) if isinstance(t, checks.Restatement) else ()
    out = []
    for name in names:
        spec = reg.spec(formula_id(paper, name))
        if spec.status is not FormulaStatus.AS_PRINTED:
            out.append(f"{name} ({spec.status})")
    return out


def _restates(reg, paper, t, a, op, b, own: bool = False) -> str | None:
    """The claim ``a op b`` is one of the check's assumptions up to a factor proved
    positive (SymPy's cancel of the two differences, then the shared decision), once the
    symbols its assumptions pin to a number (:func:`_pinned`) are put in. Asked also of a
    compare that names formulas of the paper (``nnz_hat >= 1`` assuming ``s_l2^2 <= s_l1``
    with ``nnz_hat = s_l1/s_l2^2``): the formula inlined, the claim is still its premise —
    there (``own``) only when the factor is one of the assumption's own symbols, so that no
    algebra of the named formula is checked (``thm2_eq52_from_summing_51``, whose claim is
    ``L_t >= L_star`` times 2 eta (1 - eps)/||p||, checks (52)'s constant: a step)."""
    from ...backends.sym import from_sympy, to_sympy
    from ...expr.parser import parse
    from .common import decide, domains
    if op not in ORIENT:
        return None
    try:
        gc = ORIENT[op] * (to_sympy(a, {}) - to_sympy(b, {}))
    except Exception:
        return None
    from ...backends.sympy_import import sympy
    pins = _pinned(t)
    if pins:
        gc = gc.subs({sympy.Symbol(k, positive=True): sympy.Rational(v.numerator, v.denominator)
                      for k, v in pins.items()})
    for x in t.assumptions:
        text = x.expr
        r = parse(text, where="assume")
        if not isinstance(r, Rel) or r.op not in ORIENT or set(r.symbols()) <= set(pins):
            continue
        try:
            ga = ORIENT[r.op] * (to_sympy(r.lhs, {}) - to_sympy(r.rhs, {}))
            if pins:
                ga = ga.subs({sympy.Symbol(k, positive=True): sympy.Rational(v.numerator, v.denominator)
                              for k, v in pins.items()})
            if ga.free_symbols - gc.free_symbols:
                continue
            q = sympy.cancel(gc / ga)
        except Exception:
            continue
        if not q.free_symbols <= gc.free_symbols or sympy.count_ops(q) > 20:
            continue
        if own and not {str(x) for x in q.free_symbols} <= set(r.symbols()):
            continue
        try:
            node = from_sympy(q)
        except Exception:      # a form the expression language cannot hold
            continue
        doms = domains(reg, paper, node) if node.symbols() else {}
        if not node.symbols():
            ok = q.is_positive is True
        else:
            ok = decide(node, ">", Num(Fraction(0)), doms, statement=f"claim / ({text}) > 0",
                        seconds=RERUN_SECONDS).verdict is Verdict.PROVED
        if ok:
            at = (" once " + ", ".join(f"{k} = {v}" for k, v in sorted(pins.items())) + " (pinned by its other "
                  "assumptions) is put in") if pins else ""
            return (f"a tautology of the encoding: the claim is its own assumption {text} up to the positive "
                    f"factor {q}{at} — it restates its premise")
    return None


def _pinned(t) -> dict:
    """The symbols the check's ``assume`` entries pin to one number: ``x == c``, or the pair
    ``x >= c`` and ``x <= c`` (``s_l1 >= 1``, ``s_l1 <= 1``: a softmax vector's ||s||_1 = 1)."""
    from ...expr.nodes import Sym
    from ...expr.parser import parse
    lo: dict = {}
    hi: dict = {}
    for x in t.assumptions:
        try:
            r = parse(x.expr, where="assume")
        except Exception:
            continue
        if not isinstance(r, Rel) or not isinstance(r.lhs, Sym) or r.rhs.symbols():
            continue
        v = _value(r.rhs)
        if not isinstance(v, Fraction):
            continue
        if r.op in ("==", ">="):
            lo.setdefault(r.lhs.name, set()).add(v)
        if r.op in ("==", "<="):
            hi.setdefault(r.lhs.name, set()).add(v)
    return {k: next(iter(lo[k] & hi[k])) for k in lo if k in hi and lo[k] & hi[k]}


def conditional(c, f, rerun) -> bool:
    """Fill in which of ``f.added`` a passing check needs; True when it needs one (a
    substitution always; the ``assume`` entries unless the check still passes without them)."""
    if not f.added:
        return False
    assumes = [x for x in f.added if x["kind"] == "assume"]
    if assumes:
        without = rerun(replace(c.spec, assume=()), None)
        needed = without.severity is not Grade.OK
        for x in assumes:
            x["needed"] = needed
    for x in f.added:
        x.setdefault("needed", True)
    return any(x["needed"] for x in f.added)
