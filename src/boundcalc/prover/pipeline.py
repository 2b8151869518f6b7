"""The decision procedure as data: the :class:`Layer` protocol and the strategy table
:data:`STRATEGY` that :func:`.decide.decide_relation` runs, row after row.

A layer is an object with a ``name`` (one of :data:`.goal.LAYERS`, or "pre-pass"),
``applies(goal)`` (whether the goal is of its kind: an equality, one integer symbol, ...)
and ``run(goal, budget) -> Outcome`` (a :class:`.goal.Decision`, or None to go on). A row of
the table (:class:`Row`) names the layer, on which goals the strategy runs it (``on``,
beside the layer's own ``applies``; ``live``: only while the decision's work budget
lasts), its ``share`` of the decision's budget, and the kinds of sub-goals it may open
(``opens``: "real", a real relaxation decided by the layers again; "relation", an
equivalent relation decided by :func:`.decide.decide_relation`), the only ones its goal
lets it open (:class:`.goal.SubGoals`). The first Decision a row returns is the answer.

Adding a layer: one module with its procedure (its soundness contract in its docstring), a
class here with ``name``, ``applies`` and ``run``, and one row of :data:`STRATEGY`.

Soundness contract: each layer keeps its module's contract; the rows here add nothing but
the order, and a counterexample from any layer counts only once certified on the original
relation (:func:`certify`).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from ..errors import BoundcalcError
from ..expr.domains import Domain
from ..expr.nodes import Add, Const, Func, Mul, Node, Num, Pow, Rel
from ..verdicts import IntervalStatus, SmtStatus, Verdict
from ..verdicts import Layer as LayerName
from .budget import INTERVAL_BOXES_PER_SECOND, clock, sympy_safe, time_limit
from .budget import Timeout as _Timeout
from .fold import fold_constants
from .goal import Budget, Decision, Goal, SmtRun, verdict
from .signs import structural_sign, sympy_sign
from .statement import sampling_str

Outcome = Decision | None          # a layer's answer: a Decision ends the decision, None goes on


class Layer(Protocol):
    """A layer of the decision procedure (see the module docstring)."""
    name: str

    def applies(self, goal: Goal) -> bool: ...

    def run(self, goal: Goal, budget: Budget) -> Outcome: ...


@dataclass(frozen=True)
class Share:
    """A layer's share of the decision's ``total`` seconds of work:
    ``max(floor, min(cap, fraction * total))``."""
    fraction: float
    cap: float
    floor: float = 0.0

    def of(self, total: float) -> float:
        return max(self.floor, min(self.cap, self.fraction * total))


def _always(goal: Goal) -> bool:
    return True


@dataclass(frozen=True)
class Row:
    """One row of :data:`STRATEGY`: the ``layer``, on which goals it runs (``on``, read when
    the row's turn comes, and the layer's own ``applies``; ``live``: not once the decision's
    deadline has passed), its ``share`` of the budget (None: up to the deadline) and the
    kinds of sub-goals it may open (``opens``, of :data:`.goal.SUBGOAL_KINDS`)."""
    layer: Layer
    on: Callable[[Goal], bool] = _always
    share: Share | None = None
    opens: frozenset[str] = frozenset()
    live: bool = False

    def admits(self, goal: Goal, budget: Budget) -> bool:
        """Whether this row runs on ``goal`` now."""
        return self.layer.applies(goal) and self.on(goal) and not (self.live and budget.expired())

    def budget(self, budget: Budget) -> Budget:
        """The decision's budget with this row's share."""
        return budget.with_share(None if self.share is None else self.share.of(budget.total))


def certify(goal: Goal, point) -> dict | None:
    """``point`` as a counterexample of the goal's original relation, certified (or None)."""
    from . import search
    return search.certify_point(goal, point)


def proof_certificate(goal: Goal, kinds: tuple[str, ...]) -> dict | None:
    """A certificate of a proved goal of the first of ``kinds`` ("exact": a polynomial
    identity; "value": a constant relation's sign; "boxes": a plain bisection cover; "taylor":
    one whose boxes may close by the second-order Taylor form) that the checker accepts, or None (the
    decision then gives a "trusted" one). Built outside the work budget, after the proof."""
    from ..recheck import recheck
    from . import certificates as C
    try:
        claim = C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra)
    except C.NameClash:
        return None
    for kind in kinds:
        try:
            cert = (C.exact(claim, goal.a, goal.rel, goal.b) if kind == "exact"
                    else {"kind": "exact", "claim": claim, "by": "value"} if kind == "value"
                    else C.boxes(claim, goal.a, goal.rel, goal.b, goal.domains, goal.extra, taylor=kind == "taylor"))
        except (ValueError, OverflowError, RecursionError, MemoryError):
            cert = None                  # numbers too large to write: this kind gives none
        if cert is not None and recheck(cert).valid:
            return cert
    return None


def _sign(node: Node, env) -> int | None:
    from ..backends import mp as mpb
    return mpb.decide_sign(node, env)


def _smt_how(prefix: str, named: list[str]) -> str:
    return prefix + (("after naming " + ", ".join(_short(named))) if named else "polynomial")


# ----------------------------------------------------------------------------- the layers
class Constant:
    """A constant relation: ball arithmetic decides it."""
    name = "interval"

    def applies(self, goal: Goal) -> bool:
        return not goal.g.symbols()

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from . import search
        s = _sign(goal.g, {})
        if s is None:
            return verdict("unknown", "budget", "the constant difference could not be separated from 0",
                           detail="ball arithmetic up to the precision limit")
        ok = {">=": s >= 0, ">": s > 0, "==": s == 0}[goal.op]
        return verdict("proved" if ok else "disproved", "interval" if ok else "counterexample",
                       "constant, ball arithmetic" if ok else "certified",
                       counterexample=None if ok else search.report({}, goal.a, goal.b,
                                                                    Rel(goal.rel, goal.a, goal.b), goal.extra),
                       certificate=proof_certificate(goal, ("value", "exact", "boxes")) if ok and budget.certify else None)


class QuickSearch:
    """A quick counterexample search (vectorised sampling + domain boundaries)."""
    name = "counterexample"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from . import search
        assert budget.seconds is not None
        ce = search.find(goal, samples=budget.samples, seed=budget.seed,
                         deadline=min(budget.deadline, clock() + budget.seconds))
        if ce is not None:
            return verdict("disproved", "counterexample", "certified", counterexample=ce,
                           detail="the relation fails at a point re-checked in ball arithmetic")
        return None


class PrePass:
    """The pre-pass (:mod:`.prepass`) reads the goal: whether SymPy is safe on it, whether
    it is the integer layer's, and the problems the quick SMT passes try first (fractional
    powers of single symbols substituted away; repeated subterms named, on its share)."""
    name = "pre-pass"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .integers import applies
        from .prepass import profile, root_substitution
        from .smt import generalize
        g, extra, domains, found = goal.g, goal.extra, goal.domains, goal.found
        assert budget.seconds is not None
        found.special = profile(g, goal.op, domains, extra).special
        found.n_int = applies(g, goal.op, domains, extra)
        found.why = sympy_safe(g) or next((sympy_safe(r) for r in extra if sympy_safe(r)), None)
        gen = None
        if found.why is None:
            try:
                with time_limit(budget.seconds):
                    gen = generalize(g, extra, domains, lambda n: sympy_sign(n, domains))
            except _Timeout:
                gen = None
        found.runs = [SmtRun("", g, extra, domains)]
        if gen is not None:
            found.runs.insert(0, SmtRun("after generalizing " + ", ".join(_short(gen.labels, 2)) + "; ", gen.g,
                                        gen.extra, gen.domains))
        roots = root_substitution(g, extra, domains)
        if roots is not None:
            found.runs.insert(0, SmtRun("after substituting " + ", ".join(_short(roots.labels, 2)) + "; ",
                                        fold_constants(roots.g), roots.extra, roots.domains))
        found.candidates = [g]
        return None


class QuickSmt:
    """Quick SMT passes (:mod:`.smt`) on the substituted, the generalized goal and the goal:
    most proofs are found here in a fraction of a second (a relation true on the reals keeps
    its SMT proof; z3 refutes a false relaxation fast, and a model of the goal itself is a
    candidate counterexample)."""
    name = "SMT"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .smt import decide_smt
        assert budget.seconds is not None
        for run in goal.found.runs:
            quick = decide_smt(run.g, goal.op, run.domains, run.extra, timeout_ms=int(1000 * budget.seconds))
            if quick.status is SmtStatus.PROVED:
                return verdict("proved", "SMT", _smt_how(run.prefix, quick.named))
            if quick.status is SmtStatus.SAT:
                goal.found.settled.add(id(run.g))
                if quick.model is not None and run.g is goal.g:
                    ce = certify(goal, quick.model)
                    if ce is not None:
                        return verdict("disproved", "counterexample", "certified, from an SMT model",
                                       counterexample=ce)
        return None


class Convexity:
    """A Jensen instance f(sum w_i x_i) vs sum w_i f(x_i): the sign of f'' on the hull
    (:mod:`.convexity`), its sub-goals real relaxations."""
    name = "convexity"

    def applies(self, goal: Goal) -> bool:
        return goal.rel in ("<=", ">=")

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .convexity import prove_convexity
        assert budget.seconds is not None
        record: dict = {}
        jensen = prove_convexity(goal.a, goal.rel, goal.b, goal.domains, goal.subgoals.open("real"),
                                 seconds=budget.seconds, record=record)
        if jensen is None:
            return None
        return Decision(Verdict.PROVED, LayerName.CONVEXITY, f"proved ({jensen})",
                        certificate=_convexity_certificate(goal, record) if budget.certify else None)


def _checked(cert: dict) -> dict | None:
    """``cert`` if the checker accepts it (the cheap recheck), else None: the decision then
    gives a ``trusted`` one, and the verdict stays what it was."""
    from ..recheck import recheck
    return cert if recheck(cert, solver=False).valid else None


def _convexity_certificate(goal: Goal, record: dict) -> dict | None:
    """A ``convexity`` certificate of the Jensen proof described in ``record`` (its f, scale,
    weights, argument, SymPy's f'' and the real sub-goals proved, each certified by a second
    method), or None when the checker does not accept it."""
    from ..expr.printing import to_text
    from . import certificates as C
    f, t, zero = record["f"], record["t"], Num(Fraction(0))
    scale = Fraction(1)
    if isinstance(f, Mul) and isinstance(f.args[0], Num):           # c*f0 (convexity.jensen_instance)
        scale, f = f.args[0].value, (f.args[1] if len(f.args) == 2 else Mul(f.args[1:]))
    hull = {t: record["hull"]}
    by, how = "the convexity layer", "its real sub-goal by the real layers"
    try:
        cert = {"kind": "convexity", "claim": C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra),
                "var": t, "f": to_text(f), "scale": C._q(scale), "single": record["single"],
                "arg": to_text(C.readable(record["arg"])),
                "weights": {C.name(x.name): C._q(w) for w, x in record["pairs"]},
                "second": to_text(record["f2"]),
                "sign": fact_certificate(record["sign"], ">=", zero, hull, [], by, how),
                "defined": [fact_certificate(e, ">", zero, hull, [], by, how) for e in record["defined"]]}
    except (C.NameClash, ValueError, RecursionError, KeyError):
        return None
    return _checked(cert)


class Identity:
    """The identity layer (:mod:`.identity`): an equality with special functions."""
    name = "identity"

    def applies(self, goal: Goal) -> bool:
        return goal.op == "=="

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .identity import prove_identity
        assert budget.seconds is not None
        record: dict = {}
        how = prove_identity(goal.a, goal.b, goal.domains, goal.extra, goal.subgoals.open("real"),
                             seconds=budget.seconds, record=record)
        if how is None:
            return None
        return Decision(Verdict.PROVED, LayerName.IDENTITY, f"proved ({how})",
                        certificate=_identity_certificate(goal, record) if budget.certify else None)


def _identity_certificate(goal: Goal, record: dict) -> dict | None:
    """An ``exact`` certificate of the identity layer's proof described in ``record`` (the
    normal form, or the derivatives with the point and the real sub-goals proved, each
    certified by a second method), or None when the checker does not accept it."""
    from . import certificates as C
    by, how, zero = "the identity layer", "its real sub-goal by the real layers", Num(Fraction(0))
    try:
        cert = {"kind": "exact", "claim": C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra),
                "by": record["by"]}
        if record["by"] == "derivatives":
            cert.update(point={C.name(k): C._q(v) for k, v in sorted(record["point"].items())},
                        defined=[fact_certificate(e, ">", zero, d, x, by, how) for e, d, x in record["defined"]],
                        star=[fact_certificate(e, op, zero, d, x, by, how) for e, op, d, x in record["star"]])
    except (C.NameClash, ValueError, RecursionError, KeyError):
        return None
    return _checked(cert)


class Integers:
    """The integer layer (:mod:`.integers`): one or two integer symbols; its point is a
    counterexample only once certified on the original relation."""
    name = "integers"

    def applies(self, goal: Goal) -> bool:
        return goal.found.n_int is not None

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .integers import prove_integers
        assert budget.seconds is not None
        record: dict = {}
        io = prove_integers(goal.g, goal.op, goal.found.n_int, goal.domains, goal.subgoals.open("real"),
                            seconds=budget.seconds, record=record)
        if io is not None and io.verdict is Verdict.PROVED:
            return Decision(Verdict.PROVED, LayerName.INTEGERS, f"proved ({io.how})",
                            certificate=_induction_certificate(goal, record) if budget.certify else None)
        if io is not None and io.verdict is Verdict.DISPROVED:
            ce = certify(goal, io.point)
            if ce is not None:
                return verdict("disproved", "counterexample", "certified, an integer", counterexample=ce)
        return None


def _induction_certificate(goal: Goal, record: dict) -> dict | None:
    """An ``induction`` certificate of the integer layer's proof described in ``record``
    (the integers checked one by one, then nothing, a real relaxation, an inductive step, an
    opaque-factorial step, a ratio step or a monotone sequence and its limit from n0, its real
    sub-goal certified by a second method), or None for one the checker does not accept."""
    from ..backends.sym import from_sympy
    from ..expr.printing import to_text
    from . import certificates as C
    step = record.get("step") or ()
    if not step or not isinstance(goal.found.n_int, str):
        return None
    n, zero, op = goal.found.n_int, Num(Fraction(0)), goal.op
    hi = record["hi"]
    by, how = "the integer layer", "its real sub-goal by the real layers"
    row: dict = {"by": step[0]}

    def text(e: Node) -> str:
        return to_text(C.readable(e))
    try:
        if step[0] != "none":
            real = {n: Domain(False, Fraction(step[1]), True, None if hi is None else Fraction(hi), hi is not None)}
            row["from"] = step[1]
        if step[0] == "relaxation":
            row["proof"] = fact_certificate(goal.g, op, zero, real, [], by, how)
        elif step[0] == "step":
            row.update(next=text(step[2]),
                       proof=fact_certificate(step[2], op, zero, real, [Rel(op, goal.g, zero)], by, how))
        elif step[0] == "opaque":
            hyp, nxt, doms = step[2:5]
            row.update(hyp=text(hyp), next=text(nxt), symbols={C.name(k): C._domain(d) for k, d in sorted(doms.items())},
                       proof=fact_certificate(nxt, op, zero, {**real, **doms}, [Rel(op, hyp, zero)], by, how))
        elif step[0] == "ratio":
            row.update(ratio=text(step[2]), proof=fact_certificate(step[2], ">=", zero, real, [], by, how))
        elif step[0] == "limit":
            ls, strict = step[2], step[4]
            row.update(form=ls.form, decrease=text(ls.decrease), strict=strict, target=ls.target,
                       limit=text(from_sympy(step[3])),
                       proof=fact_certificate(ls.decrease, ">" if strict else ">=", zero, real, [], by, how))
        cert = {"kind": "induction", "claim": C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra),
                "var": C.name(n), "checked": [record["lo"], record["last"]], "step": row}
    except Exception:               # (a name clash, a limit SymPy's form cannot be read back in, ...)
        return None
    return _checked(cert)


class Exact:
    """The exact layer (:mod:`.exact_layer`, SymPy); its logarithmic forms of the goal become
    candidates of the layers after it."""
    name = "exact"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        found = goal.found
        if found.why is not None:
            found.budget_hit.append(f"exact skipped: {found.why}")
            return None
        from .exact_layer import prove_exact
        assert budget.seconds is not None
        try:
            with time_limit(budget.seconds):
                res, rewritten = prove_exact(goal.g, goal.op, goal.domains, goal.extra)
            if res:
                return verdict("proved", "exact", res, certificate=proof_certificate(goal, ("exact", "boxes"))
                               if budget.certify else None)
            found.candidates += rewritten
        except _Timeout:
            found.budget_hit.append("exact")
        return None


class Rewrites:
    """The rewrites of :mod:`.rewrite` (its contract): a goal with a root or a quotient,
    rewritten into an equivalent goal (both sides squared, factors of proved sign dropped;
    SymPy on the row's share), decided as a "relation" sub-goal on a share of the time
    left; a rewritten goal is rewritten again only up to rewrite.MAX_DEPTH. A disproof counts
    only once its point is certified on the original relation."""
    name = "rewrites"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from . import rewrite as RW
        a, b, domains, extra = goal.a, goal.b, goal.domains, goal.extra
        if not (RW.depth() < RW.MAX_DEPTH and goal.found.why is None and not budget.expired()
                and RW.worth_trying(a, b)):
            return None
        assert budget.seconds is not None
        sign_calls = [0]

        def _rw_sign(n: Node) -> str | None:
            # from the shape, else z3; not SymPy's prove_sign, whose strict sign holds only
            # inside a bounded domain with closed ends (x - 1 "positive" on [1, 2])
            return structural_sign(n, domains) or RW.smt_sign(n, domains, extra, sign_calls)
        try:
            rws = RW.equivalents(a, goal.rel, b, domains, extra, _rw_sign, sympy_seconds=budget.seconds)
        except _Timeout:
            rws = []
            goal.found.budget_hit.append("rewrites")
        decide = goal.subgoals.open("relation")
        for i, rw in enumerate(rws):
            if budget.expired():
                goal.found.budget_hit.append("rewrites")
                break
            try:
                with RW.nested():
                    # a share that lets the layers below work on it (the ends layer's nested
                    # decisions need about two seconds on Polya's squared bound): 70 % of what is
                    # left for a first rewrite that removed every root, else half of it
                    rest = budget.left()
                    rootless = i == 0 and not RW.has_root(rw.goal, Num(Fraction(0)))
                    share = min(0.7 * budget.total, max(min(1.0, 0.1 * budget.total),
                                                        0.7 * rest if rootless else rest / 2))
                    sub_d = decide(rw.goal, rw.op, Num(Fraction(0)), dict(domains), extra, share)
            except BoundcalcError:
                continue
            out = _rewritten(goal, rw, sub_d)
            if out is not None:
                return out
        return None


def _rewritten(goal: Goal, rw, sub_d: Decision) -> Outcome:
    """The sub-decision on a rewritten goal as a decision of the goal: its proof reported as
    the sub-layer's, its counterexample only once certified on the original relation."""
    from . import rewrite as RW
    if sub_d.verdict is Verdict.PROVED:
        inner = sub_d.text[len("proved ("):-1] if sub_d.text.startswith("proved (") else sub_d.text
        head, _, how = inner.partition(", ")
        cert = None
        if sub_d.certificate is not None:
            from . import certificates as C
            try:
                cert = C.rewrite(C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra), rw.label,
                                 sub_d.certificate)
            except C.NameClash:
                cert = None             # the decision refuses it (decide._certified)
        return Decision(Verdict.PROVED, sub_d.layer, f"proved ({head}, {rw.label}{'; ' + how if how else ''})",
                        detail="decided on the equivalent goal " + str(rw.goal) + f" {rw.op} 0"
                        + ("; " + sub_d.detail if sub_d.detail else ""), certificate=cert)
    if sub_d.verdict is Verdict.DISPROVED and sub_d.counterexample:
        env = RW.fill_point(sub_d.counterexample, goal.domains)
        ce = certify(goal, env) if env is not None else None
        if ce is not None:
            return verdict("disproved", "counterexample", "certified, found " + rw.label, counterexample=ce)
    if sub_d.layer is LayerName.BUDGET:
        goal.found.budget_hit.append("rewrites")
    return None


class PiScaling:
    """Domains ending at rational multiples of pi (:mod:`.pisub`, its contract): the goal with
    ``x = pi*t`` (rational ends for t), decided as a "relation" sub-goal on the row's share;
    its proof reported as the sub-layer's, with a ``rewrite`` certificate naming the
    substitution around the sub-goal's own. Only proofs are taken: a counterexample at an
    irrational x = pi*t is left to the layers on the original goal."""
    name = "pi scaling"

    def applies(self, goal: Goal) -> bool:
        return bool(goal.extra) and any(isinstance(x, Const) and x.name == "pi"
                                        for r in goal.extra for x in r.unique_nodes())

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .pisub import scaled
        s = scaled(goal.a, goal.b, goal.domains, goal.extra)
        if s is None or budget.expired():
            return None
        a, b, doms, extra, names = s
        label = "after " + ", ".join(f"{n} = pi*{t}" for n, t in names.items())
        assert budget.seconds is not None
        try:
            sub_d = goal.subgoals.open("relation")(a, goal.rel, b, doms, extra,
                                                   min(budget.seconds, max(0.5, budget.left())))
        except BoundcalcError:
            return None
        if sub_d.verdict is not Verdict.PROVED:
            if sub_d.layer is LayerName.BUDGET:
                goal.found.budget_hit.append("pi scaling")
            return None
        inner = sub_d.text[len("proved ("):-1] if sub_d.text.startswith("proved (") else sub_d.text
        head, _, how = inner.partition(", ")
        cert = None
        if sub_d.certificate is not None:
            from . import certificates as C
            cert = C.rewrite(C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra), label,
                             sub_d.certificate)
        return Decision(Verdict.PROVED, sub_d.layer, f"proved ({head}, {label}{'; ' + how if how else ''})",
                        detail=f"decided on {to_text_rel(a, goal.rel, b)} on the rational-ended domains "
                        + ", ".join(f"{t}: {doms[t].describe()}" for t in names.values())
                        + ("; " + sub_d.detail if sub_d.detail else ""), certificate=cert)


class Reflection:
    """Domains ending at pi/2 or pi (:mod:`.reflect`, its contract): the goal with ``x = c -
    t`` (sin, cos, tan of x by their cofunctions of t), decided as a "relation" sub-goal on
    the row's share; proofs only, a ``rewrite`` certificate naming the reflection around the
    sub-goal's re-checked one."""
    name = "reflection"

    def applies(self, goal: Goal) -> bool:
        return bool(goal.extra) and any(isinstance(x, Const) and x.name == "pi"
                                        for r in goal.extra for x in r.unique_nodes())

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .reflect import reflected
        try:
            s = reflected(goal.a, goal.b, goal.domains, goal.extra)
        except ValueError:
            return None
        if s is None or budget.expired():
            return None
        a, b, doms, extra, names = s
        label = "after " + ", ".join(f"{n} = {c} - {t}" for n, (t, c) in names.items())
        assert budget.seconds is not None
        try:
            sub_d = goal.subgoals.open("relation")(a, goal.rel, b, doms, extra,
                                                   min(budget.seconds, max(0.5, budget.left())))
        except BoundcalcError:
            return None
        if sub_d.verdict is not Verdict.PROVED:
            if sub_d.layer is LayerName.BUDGET:
                goal.found.budget_hit.append("reflection")
            return None
        if not _recheck_all([sub_d.certificate]):
            return None
        head, _, how = _sub_text(sub_d).partition(", ")
        cert = None
        if sub_d.certificate is not None:
            from . import certificates as C
            cert = C.rewrite(C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra), label,
                             sub_d.certificate)
        return Decision(Verdict.PROVED, sub_d.layer, f"proved ({head}, {label}{'; ' + how if how else ''})",
                        detail=f"decided on {to_text_rel(a, goal.rel, b)} on "
                        + ", ".join(f"{t}: {doms[t].describe()}" for t, _ in names.values())
                        + " under " + ", ".join(map(str, extra))
                        + ("; " + sub_d.detail if sub_d.detail else ""), certificate=cert)


def to_text_rel(a: Node, rel: str, b: Node) -> str:
    from ..expr.printing import to_text
    return f"{to_text(a)} {rel} {to_text(b)}"


class Ends:
    """The ends layer (:mod:`.ends`) on the goal and its logarithmic forms: the ends of a
    one-variable domain (infinity, an open end, a touching end) cut off by derivative
    arguments, the middle piece decided as a "real" sub-goal."""
    name = "ends"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from ..expr.printing import to_text
        from . import rewrite as RW
        from .ends import applies as ends_apply
        from .ends import prove_ends
        op, domains, extra = goal.op, goal.domains, goal.extra
        # the logarithmic forms first (they turn products into sums, whose derivatives the layers
        # below decide), except where a side has a root, which a logarithm does not remove
        forms = [("after taking logarithms of both sides, ", c) for c in goal.found.candidates[1:]]
        forms = [("", goal.g)] + forms if RW.has_root(goal.a, goal.b) else forms + [("", goal.g)]
        ends_goals = [(pre + f"g = {_clip(to_text(c))}: ", c) for pre, c in forms
                      if ends_apply(c, op, domains, extra) and _hard_end(c, domains)]
        for pre, cand in ends_goals:
            if budget.expired():
                break
            pieces: list = []
            ends_how = prove_ends(cand, op, domains, extra, goal.subgoals.open("real"),
                                  seconds=min(budget.left(),
                                              max(0.6 * budget.total, 0.75 * budget.left()) / len(ends_goals)),
                                  pieces=pieces)
            if ends_how is not None:
                return verdict("proved", "ends", pre + ends_how, certificate=_ends_certificate(goal, cand, pieces)
                               if budget.certify else None)
        return None


def _ends_certificate(goal: Goal, cand: Node, pieces: list) -> dict | None:
    """An ``ends`` certificate of the ends layer's proof of ``cand op 0`` (the goal's
    difference, or a logarithmic form of it: then inside a ``rewrite`` naming it), its middle
    piece and each sign of g' certified by a second method (:func:`fact_certificate`); None
    when the checker does not accept it (the decision then gives a ``trusted`` one)."""
    from ..expr.printing import to_text
    from ..recheck import recheck
    from . import certificates as C
    (x,) = cand.symbols()
    zero = Num(Fraction(0))
    by, how = "the ends layer", "by the real layers"
    out = []
    try:
        for p in pieces:
            row = {"by": p.by, **C.interval(p.dom)}
            if p.by == "middle":
                row["proof"] = fact_certificate(cand, goal.op, zero, {x: p.dom}, [], by, "g on the middle piece " + how)
            elif p.by == "taylor":
                row.update(at=p.at, derivatives=[to_text(C.readable(t)) for t in p.ders[1:]])
            else:
                row.update(derivative=to_text(C.readable(p.ders[1])), direction=p.direction, strict=p.strict,
                           proof=fact_certificate(p.slope, ">" if p.strict else ">=", zero, {x: p.dom}, [], by,
                                                  "the sign of g' on the piece " + how))
                kind, *rest = p.least
                row["least"] = {"by": kind, **({"value": to_text(C.readable(rest[-1]))} if kind == "limit" else {})}
            out.append(row)
        if cand is goal.g:
            cert = C.ends(C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra), x, out)
        else:
            cert = C.rewrite(C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra),
                             "after taking logarithms of both sides (SymPy)",
                             C.ends(C.claim(cand, goal.op, zero, goal.domains, goal.extra), x, out))
    except (C.NameClash, ValueError, RecursionError):
        return None
    return cert if recheck(cert, solver=False).valid else None


def _recheck_all(certs: list) -> bool:
    """Whether every sub-proof's certificate (those that carry one) survives the checker."""
    from ..recheck import recheck
    return all(c is None or recheck(c).valid for c in certs)


def _sub_text(d: Decision) -> str:
    return d.text[len("proved ("):-1] if d.text.startswith("proved (") else d.text


class CaseSplit:
    """Case splits on a sign (:mod:`.cases`, its contract): a goal with ``abs`` decided on
    pieces (a symbol's domain cut at 0; ``|A| <= B`` as ``A <= B`` and ``-A <= B``) where the
    absolute values with a proved sign are gone, each piece a "relation" sub-goal on a share
    of the row's budget. Proved when every piece is (each piece's certificate re-checked, a
    ``trusted`` certificate naming the split around them); a piece's counterexample counts
    only once certified on the original relation."""
    name = "case split"

    def applies(self, goal: Goal) -> bool:
        from .cases import MAX_DEPTH, depth, has_abs
        return goal.rel != "==" and depth() < MAX_DEPTH and has_abs(goal.a, goal.b)

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from . import cases as CS
        from . import rewrite as RW
        if budget.expired():
            return None
        assert budget.seconds is not None
        ps = CS.pieces(goal.a, goal.rel, goal.b, goal.domains, goal.extra)
        if ps is None:
            return None
        stop = min(budget.deadline, clock() + budget.seconds)
        decide = goal.subgoals.open("relation")
        done: list[tuple] = []
        for i, p in enumerate(ps):
            share = max(0.0, stop - clock()) / (len(ps) - i)
            if share < 0.2 or budget.expired():
                goal.found.budget_hit.append("case split")
                return None
            try:
                with CS.nested():
                    d = decide(p.a, p.rel, p.b, dict(p.domains), list(p.extra), share)
            except BoundcalcError:
                return None
            if d.verdict is Verdict.DISPROVED and d.counterexample:
                env = RW.fill_point(d.counterexample, p.domains)
                if env is not None:
                    env = {n: (-x if n in p.flips else x) for n, x in env.items()}   # back from v -> -v
                ce = certify(goal, env) if env is not None else None
                return None if ce is None else verdict("disproved", "counterexample",
                                                       f"certified, found on the piece {p.label}", counterexample=ce)
            if d.verdict not in (Verdict.PROVED, Verdict.VACUOUS):
                return None
            done.append((p, d))
        if not _recheck_all([d.certificate for _, d in done]):
            return None
        how = "; ".join(f"{p.label}: {_sub_text(d)}" for p, d in done)
        from . import certificates as C
        claim = C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra)
        cert = (_cases_certificate(claim, goal, done) if budget.certify else None) or C.pieces(
            claim, "the case-split layer", how, [d.certificate for _, d in done if d.certificate is not None])
        return Decision(Verdict.PROVED, LayerName.CASES, f"proved (case split, {how})",
                        detail="pieces: " + "; ".join(f"{p.label}: {to_text_rel(p.a, p.rel, p.b)}" for p, _ in done),
                        certificate=cert)


def _reduction(goal: Goal, budget: Budget, prove, where) -> tuple:
    """A reduction layer's search (``prove``: :func:`.monotone.prove_monotone` or
    :func:`.order.prove_order`, with the goal's "real" and "relation" sub-goals) within the
    budget: ``(its result, None)`` when it proved the reduced goal, else ``(None, outcome)``
    -- nothing, or a counterexample it found on the face ``where(result)`` names, counted
    only once certified on the original relation."""
    from . import rewrite as RW
    if budget.expired():
        return None, None
    assert budget.seconds is not None
    r = prove(goal.a, goal.rel, goal.b, goal.domains, goal.extra, goal.subgoals.open("real"),
              goal.subgoals.open("relation"), seconds=min(budget.seconds, budget.left()))
    if r is None or r.point is None:
        return r, None
    env = RW.fill_point(r.point, goal.domains)
    ce = certify(goal, env) if env is not None else None
    return None, (None if ce is None else verdict("disproved", "counterexample", f"certified, found on {where(r)}",
                                                  counterexample=ce))


class Monotonicity:
    """Monotonicity in one variable (:mod:`.monotone`, its contract): a partial derivative's
    sign proved ("real" sub-goal), the goal reduced to the face where the difference is
    least ("relation" sub-goal, its certificate re-checked); a face's counterexample counts
    only once certified on the original relation."""
    name = "monotonicity"

    def applies(self, goal: Goal) -> bool:
        from .monotone import applies
        return applies(goal.a, goal.rel, goal.b, goal.domains, goal.extra)

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .monotone import prove_monotone
        m, out = _reduction(goal, budget, prove_monotone, lambda m: f"the face {m.var} = {m.at}")
        if m is None:
            return out
        if not _recheck_all([m.certificate]):
            return None
        from . import certificates as C
        claim = C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra)
        cert = (_monotone_certificate(claim, goal, m) if budget.certify else None) or C.pieces(
            claim, "the monotonicity layer", m.how, [m.certificate] if m.certificate is not None else [])
        return Decision(Verdict.PROVED, LayerName.MONOTONE, f"proved (monotonicity, {m.how})", certificate=cert)


class Order:
    """An order assumption ``x <= y`` (:mod:`.order`, its contract): a partial derivative's
    sign proved where the assumptions hold ("relation" sub-goal), the goal reduced to the
    diagonal ``x = y`` ("relation" sub-goal); a ``trusted`` certificate naming the argument
    with the sub-goals' re-checked ones under ``parts``; a diagonal counterexample counts
    only once certified on the original relation."""
    name = "order"

    def applies(self, goal: Goal) -> bool:
        from .order import applies
        return applies(goal.a, goal.rel, goal.b, goal.domains, goal.extra)

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .order import prove_order
        o, out = _reduction(goal, budget, prove_order, lambda o: "the diagonal")
        if o is None:
            return out
        if not _recheck_all(list(o.certificates)):
            return None
        from . import certificates as C
        claim = C.claim(goal.a, goal.rel, goal.b, goal.domains, goal.extra)
        cert = C.pieces(claim, "the order layer", o.how, [c for c in o.certificates if c is not None])
        return Decision(Verdict.PROVED, LayerName.ORDER, f"proved (order, {o.how})", certificate=cert)


def fact_certificate(a: Node, rel: str, b: Node, domains: dict[str, Domain], extra: list, by: str,
                     how: str) -> dict:
    """A certificate of a fact a layer proved on its way (the sign of an absolute value's
    argument, of a derivative), by a second method the checker replays: a polynomial
    identity or a plain box cover, else the claim's ``smt`` query (cvc5 re-proves it where
    the certificate is handed out), else ``trusted`` to ``by`` (``how``). Built after the
    proof, outside the work budget."""
    from . import certificates as C
    goal = Goal(a, rel, b, a, rel, domains, list(extra))
    claim = C.claim(a, rel, b, domains, extra)
    return proof_certificate(goal, ("exact", "boxes")) or C.smt(claim, by) or C.trusted(claim, by, how)


def _cases_certificate(claim: dict, goal: Goal, done: list) -> dict | None:
    """A ``cases`` certificate of the split ``done`` (pieces with their decisions), or None
    when a piece has no certificate (a vacuous one) or the checker does not accept it (its
    pieces not read as the split it re-derives): the caller then gives the ``trusted`` one."""
    from ..recheck import recheck
    from . import certificates as C
    if not done or any(d.certificate is None for _, d in done):
        return None
    cuts = [v for v, _ in done[0][0].halves]
    try:
        parts = [C.piece(p.halves, p.case, [(u, s, fact_certificate(
            u, ">=" if s > 0 else "<=", Num(Fraction(0)),
            p.domains, p.extra, "the case-split layer", "the sign of an absolute value's argument on the piece "
            "(its shape and arb enclosures, or z3)")) for u, s in p.signs], d.certificate) for p, d in done]
        cert = C.cases(claim, cuts, parts)
    except (C.NameClash, ValueError, RecursionError):
        return None
    return cert if recheck(cert, solver=False).valid else None


def _monotone_certificate(claim: dict, goal: Goal, m) -> dict | None:
    """A ``monotone`` certificate of the proof ``m`` (its derivative, the sign's certificate
    by a second method, the face's own), or None when it is not complete or the checker
    does not accept it: the caller then gives the ``trusted`` one."""
    from ..recheck import recheck
    from . import certificates as C
    if m.certificate is None or m.derivative is None:
        return None
    deriv = m.derivative if m.side == "lo" else Mul((Num(Fraction(-1)), m.derivative))
    try:
        sign = fact_certificate(deriv, ">=", Num(Fraction(0)), goal.domains, goal.extra, "the monotonicity layer",
                                "the sign of the partial derivative (its shape and arb enclosures, or the real "
                                "layers)")
        cert = C.monotone(claim, m.var, m.side, m.derivative, sign, m.certificate)
    except (C.NameClash, ValueError, RecursionError):
        return None
    return cert if recheck(cert, solver=False).valid else None


class Smt:
    """SMT again with the row's share per z3 call: the generalized goal, the goal, the
    rewritten goals (the runs z3 answered 'sat' in the quick pass are not re-run)."""
    name = "SMT"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .smt import decide_smt
        found = goal.found
        assert budget.seconds is not None
        found.runs += [SmtRun("after taking logarithms of both sides, ", c, goal.extra, goal.domains)
                       for c in found.candidates[1:]]
        for run in found.runs:
            if id(run.g) in found.settled:
                continue
            if budget.expired():
                found.budget_hit.append("SMT")
                break
            r = decide_smt(run.g, goal.op, run.domains, run.extra, timeout_ms=int(1000 * budget.seconds))
            if r.status is SmtStatus.PROVED:
                return verdict("proved", "SMT", _smt_how(run.prefix, r.named))
            if r.status is SmtStatus.SAT and r.model is not None and run.g is goal.g:
                ce = certify(goal, r.model)
                if ce is not None:
                    return verdict("disproved", "counterexample", "certified, from an SMT model",
                                   counterexample=ce)
            if "timeout" in r.reason or "canceled" in r.reason or "budget" in r.reason:
                found.budget_hit.append("SMT")
        return None


class Bracketing:
    """SMT with the special functions bracketed by the certified bounds of :mod:`.fbounds`,
    degree raised until proved or the calls run out (the row's share per z3 call); a "sat"
    of this relaxed problem proves nothing (it is never turned into a disproof)."""
    name = "SMT"

    def applies(self, goal: Goal) -> bool:
        return _bracketable(goal.g)

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .smt import BRACKET_CALLS, BRACKET_DEGREES, decide_smt
        assert budget.seconds is not None
        # budgeted in work (z3 calls of a fixed rlimit each), so that the machine's load does
        # not change the verdict; the decision's CPU deadline is only the safety net
        calls = 0
        # each degree on every candidate before the next degree: the cheap proofs first
        bruns = list(goal.found.runs)
        for run in goal.found.runs:
            merged = combine_logs(run.g)
            if merged is not None:
                bruns.append(SmtRun(run.prefix + "after merging logarithms, ", merged, run.extra, run.domains))
        dropped: set[int] = set()       # candidates z3 could not finish: higher degrees are harder
        for deg in BRACKET_DEGREES:
            for i, run in enumerate(bruns):
                if budget.expired() or calls >= BRACKET_CALLS:
                    break
                if i in dropped:
                    continue
                calls += 1
                r = decide_smt(run.g, goal.op, run.domains, run.extra, timeout_ms=int(1000 * budget.seconds),
                               want_model=False, bracket=deg)
                if r.status is SmtStatus.UNKNOWN:
                    dropped.add(i)
                if r.status is SmtStatus.PROVED:
                    return verdict("proved", "SMT", run.prefix + bracket_text(r.brackets, r.named),
                                   detail="the special functions replaced by certified polynomial or "
                                   "rational bounds (prover/fbounds.py): " + "; ".join(map(str, r.brackets)))
            else:
                continue
            goal.found.budget_hit.append("SMT bracketing")
            break
        return None


class Interval:
    """Interval branch-and-bound with Taylor models (:mod:`.interval`) on the row's share of
    boxes; its point is a counterexample only once certified."""
    name = "interval"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from .interval import prove_interval
        if budget.expired():
            goal.found.budget_hit.append("interval")
            return None
        assert budget.seconds is not None
        ivl = prove_interval(goal.g, goal.op, goal.domains, goal.extra, seconds=budget.seconds,
                             derivatives=goal.found.why is None,
                             max_boxes=int(INTERVAL_BOXES_PER_SECOND * budget.seconds))
        if ivl.status is IntervalStatus.PROVED:
            how = f"{ivl.boxes} boxes"
            if ivl.taylor:
                how += f", {ivl.taylor} closed by Taylor models"
            if ivl.touching:
                pts = ["(" + ", ".join(f"{k} = {sampling_str(v)}" for k, v in sorted(x0.items())) + ")"
                       for x0 in ivl.touching[:3]]
                how += "; touching at " + ", ".join(pts) + ", local minimum from the derivatives"
            return verdict("proved", "interval", how,
                           certificate=proof_certificate(goal, ("taylor",) if ivl.taylor or ivl.touching else ("boxes",))
                           if budget.certify else None)
        if ivl.status is IntervalStatus.DISPROVED:
            ce = certify(goal, ivl.point)
            if ce is not None:
                return verdict("disproved", "counterexample", "certified, found by interval search",
                               counterexample=ce)
        if ivl.status is IntervalStatus.BUDGET:
            goal.found.budget_hit.append("interval")
        return None


class DeepSearch:
    """A deeper counterexample search (a local search) up to the deadline."""
    name = "counterexample"

    def applies(self, goal: Goal) -> bool:
        return True

    def run(self, goal: Goal, budget: Budget) -> Outcome:
        from . import search
        ce = search.find(goal, samples=budget.samples, seed=budget.seed + 1, deadline=budget.deadline, deep=True)
        if ce is not None:
            return verdict("disproved", "counterexample", "certified",
                           counterexample=ce, detail="found by a local search, re-checked in ball arithmetic")
        return None


def side_has_root(goal: Goal) -> bool:
    """Whether a side of the goal's relation has a root (the rewrites then come before the
    ends layer, which proves the square)."""
    from . import rewrite as RW
    return RW.has_root(goal.a, goal.b)


def touches_face(goal: Goal) -> bool:
    """Whether the difference seems to vanish on a whole face of the domain (the
    monotonicity row's goals: branch-and-bound cannot close boxes along such a face)."""
    from .monotone import depth, touching_face
    return depth() > 0 or touching_face(goal.a, goal.rel, goal.b, goal.domains, goal.extra) is not None


def _int_goal(goal: Goal) -> bool:
    return goal.found.n_int is not None


def _special(goal: Goal) -> bool:
    return goal.found.special


def _rootless(goal: Goal) -> bool:
    return not side_has_root(goal)


REAL = frozenset({"real"})
RELATION = frozenset({"relation"})

# The order of the layers, as data: which layer, on which goals, with which share of the
# decision's seconds, and the sub-goals it may open. The first Decision a row returns is
# the answer; a row that does not admit the goal is skipped. The rewrites come before the
# ends layer where a side has a root (the square is what the ends layer then proves), after
# it otherwise: two rows of one layer.
STRATEGY: tuple[Row, ...] = (
    Row(Constant()),                                                    # a constant: ball arithmetic
    Row(QuickSearch(), share=Share(0.2, cap=2.0)),
    Row(PrePass(), share=Share(0.1, cap=1.0, floor=0.3)),
    Row(QuickSmt(), share=Share(0.12, cap=0.6, floor=0.2)),
    Row(Order(), share=Share(0.7, cap=10.0), opens=REAL | RELATION, live=True),
    Row(PiScaling(), share=Share(0.6, cap=9.0), opens=RELATION, live=True),
    Row(Reflection(), share=Share(0.4, cap=6.0), opens=RELATION, live=True),
    Row(CaseSplit(), share=Share(0.8, cap=12.0), opens=RELATION, live=True),
    Row(Monotonicity(), on=touches_face, share=Share(0.7, cap=8.0), opens=REAL | RELATION, live=True),
    Row(Convexity(), share=Share(0.35, cap=3.0), opens=REAL, live=True),
    Row(Identity(), on=_int_goal, share=Share(0.35, cap=3.0), opens=REAL, live=True),
    Row(Integers(), share=Share(0.35, cap=3.0), opens=REAL, live=True),
    Row(Exact(), share=Share(0.25, cap=2.5, floor=0.2)),
    Row(Identity(), on=_special, share=Share(0.35, cap=3.0), opens=REAL, live=True),
    Row(Rewrites(), on=side_has_root, share=Share(0.1, cap=1.0, floor=0.2), opens=RELATION),
    Row(Ends(), opens=REAL),
    Row(Rewrites(), on=_rootless, share=Share(0.1, cap=1.0, floor=0.2), opens=RELATION),
    Row(Smt(), share=Share(0.3, cap=3.0)),
    Row(Bracketing(), share=Share(0.04, cap=0.3), live=True),
    Row(Interval(), share=Share(0.3, cap=3.0)),
    Row(DeepSearch(), live=True),
)


# ----------------------------------------------------------------------------- helpers
def _hard_end(g: Node, domains: dict[str, Domain]) -> bool:
    """Whether the one symbol's domain has an end the interval layer cannot close alone: an
    infinite or open end, or a closed end where ``g`` is not certainly positive."""
    from ..backends import arb as A
    (name,) = g.symbols()
    d = domains[name]
    for e, closed in ((d.lo, d.lo_closed), (d.hi, d.hi_closed)):
        if e is None or not closed:
            return True
        try:
            if not A.enclose(g, {name: e}, prec=64).lower() > 0:
                return True
        except (A.Undefined, A.Unresolved, A.TooLarge):
            return True
    return False


def _bracketable(g: Node) -> bool:
    """Whether ``g`` has a term the SMT layer brackets (a named exp/log/tanh/atan/erf, or
    a power with a variable exponent, named as exp of a log)."""
    from .smt import BRACKETED
    return any((isinstance(n, Func) and n.name in BRACKETED) or (isinstance(n, Pow) and n.exp.symbols())
               for n in g.unique_nodes())


def _log_term(t: Node) -> tuple[int, Node] | None:
    """(c, u) for a term c*log(u) with a small integer c, else None."""
    if isinstance(t, Func) and t.name == "log" and len(t.args) == 1:
        return 1, t.args[0]
    if isinstance(t, Mul) and len(t.args) == 2 and isinstance(t.args[0], Num):
        c = t.args[0].value
        inner = _log_term(t.args[1])
        if inner is not None and c.denominator == 1 and 0 < abs(c) <= 3:
            return int(c) * inner[0], inner[1]
    return None


def combine_logs(g: Node) -> Node | None:
    """The top-level sum ``g`` with its terms ``c log(u)`` (small integers c, at least
    two of them) merged into one ``log(prod u**c)``, or None. Sound where the relation is
    decided: every ``log(u)`` is defined there, so every ``u > 0`` and the logarithm of the
    product is the sum of the logarithms. Bracketing then sees one argument near 1
    (``log(1 + 2x) - log(2x)``) instead of two large ones whose bounds cannot cancel."""
    if not isinstance(g, Add):
        return None
    logs: list[tuple[int, Node]] = []
    rest: list[Node] = []
    for t in g.args:
        lt = _log_term(t)
        if lt is not None:
            logs.append(lt)
        else:
            rest.append(t)
    if len(logs) < 2:
        return None
    factors = tuple(u if c == 1 else Pow(u, Num(Fraction(c))) for c, u in logs)
    return fold_constants(Add(tuple(rest) + (Func("log", (Mul(factors),)),)))


def bracket_text(entries, named) -> str:
    """'tanh bracketed by degree-5 Taylor' from the fbounds entries of an unsat core."""
    if not entries:
        return "after naming " + ", ".join(_short(named)) if named else "polynomial"
    by: dict[str, list] = {}
    for b in entries:
        by.setdefault(b.func, []).append(b)
    parts = []
    for func, bs in by.items():
        fams = sorted({_family(b) for b in bs})
        parts.append(f"{func} bracketed by degree-{max(b.degree for b in bs)} {' and '.join(fams)}")
    return ", ".join(parts)


def _family(b) -> str:
    src = b.source
    for key, name in (("atan(1/x)", "asymptotic (pi/2 - atan(1/x))"), ("Taylor truncation", "Taylor"),
                      ("Pade", "Pade"), ("Heron", "Heron"), ("tangent", "tangent"), ("int of exp", "Taylor")):
        if key in src:
            return name
    return src.split(";")[0]


def _short(labels: list[str], limit: int = 4) -> list[str]:
    out = [_clip(lb, 40) for lb in dict.fromkeys(labels)]
    return out[:limit] + ([f"{len(out) - limit} more"] if len(out) > limit else [])


_PAIRS = {"(": ")", "[": "]", "{": "}"}


def _clip(s: str, n: int = 120) -> str:
    """``s``, or when longer than ``n`` its first characters, ``...`` and the brackets they
    leave open closed (``sqrt((a + b...))``): a cut expression still reads as one, never as
    ``sqrt((a + b...`` or a power of nothing (``x**...``)."""
    if len(s) <= n:
        return s
    head = s[:n - 3].rstrip(" *+-/^,")
    depth: list[str] = []
    for ch in head:
        if ch in _PAIRS:
            depth.append(_PAIRS[ch])
        elif depth and ch == depth[-1]:
            depth.pop()
    return head + "..." + "".join(reversed(depth))
