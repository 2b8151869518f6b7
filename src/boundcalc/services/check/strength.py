"""``check --strength``: can a passing check fail?  Mutation testing of the claim, the
premise and the encoding.

A check that passes is evidence only if it would fail had the paper printed something
else. Each passing check is re-run on mutants; a mutant is *caught* (killed) when the
re-run grades it (error, or a warning that names a difference: looser constant, polylog
factor, ...). A mutant whose re-run is undecided (or only sampled) is not caught.

Each mutant is of one **side** (:data:`SIDES`):

- ``form`` — the claim's form: the relation flipped (``<=`` <-> ``>=``, upper <-> lower,
  increasing <-> decreasing), the whole claim scaled by 2 and by 1/2, raised to 3/2 or 1/2.
  These die even for ``x - x = 0`` (a claim that cannot fail), so they are shown but **do not
  count**;
- ``paper`` — the paper's side: an exponent of the claim moved by +-1/2, and a negative one
  negated (a denominator printed as a numerator) (the first :data:`MAX_POW` powers with a
  number exponent; for an order check the stated rate's exponent in its variable), a term
  of a sum dropped (at most :data:`MAX_DROP`) or its sign flipped (:data:`MAX_SIGN`), a
  numeric constant doubled and halved (:data:`MAX_CONST`; not an exponent, not the
  coefficient of the whole claim — that rescales the claim: its form), one factor with
  symbols of a product dropped (:data:`MAX_FACTOR`), the argument of a function of one
  argument (exp, log, sqrt, ...) doubled and halved (:data:`MAX_FUNC`), at most
  :data:`MAX_MUTANTS` per role in a fixed pre-order (the report is the same for any
  ``--jobs``); the same
  inside each formula the claim inlines (the first :data:`MAX_REFS` in pre-order: the paper
  printing that formula otherwise, wherever the check uses it); the **premise**: a
  derivation's premise formula (a restatement's side ``b``) mutated in the same ways and
  scaled, a quoted hypothesis the check inherits dropped or its bound doubled or halved
  (the first :data:`MAX_HYPS`);
- ``encoding`` — our encoding: two values of a substitution swapped, a number substituted
  for a symbol doubled, an ``assume`` entry dropped. Shown, not counted: the encoding is
  not the paper.

A pass **can fail** only if a mutant of the paper's side is caught; one that catches
none is graded ``cannot fail`` and is not counted as a pass, and the mutants caught are
listed (``strength["caught"]``, of which ``strength["paper_caught"]`` count).

A sign flipped at a node two roles share (a formula both sides inline) changes both sides
alike and dies by making that formula negative (``F <= 2 F``, true for every ``F >= 0``):
it tests the claim's form, not the formula, so it is of the ``form`` side, labelled "(in a
formula both sides use)". (The other operators keep a formula of positive terms positive.)

A mutation replaces its subterm **everywhere in the check**: wherever the same formula is
inlined (every side, the premise, the other formula of a restatement), and any whole side
written the same as the mutated one. A check whose reference is built from the claim
itself (a restatement compared with its own definition, the same expression on both
sides, a radius defined to satisfy the inequality it is checked against) does not see the
mutation, and catches nothing. Subterms that merely look alike in independently written
expressions (a ``sqrt(n)`` in a bound and in its stated order) are not tied together.

Budget: each decision of a mutant's re-run is capped at :data:`MUTANT_SECONDS` (an
``unknown`` is "not caught"). Checks graded ``identity`` (marked ``identity = true``, or a
tautology of the encoding: :mod:`.premises`) are not mutated.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ...expr.nodes import Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym
from ...expr.visitor import Visitor, handles
from ...verdicts import Grade

MUTANT_SECONDS = 1.0
MAX_POW = 2
MAX_DROP = 2
MAX_SIGN = 2          # terms of the first sum whose sign is flipped
MAX_CONST = 2         # numeric constants doubled / halved, the first in pre-order
MAX_FACTOR = 4        # factors of a product dropped, over the products in pre-order
MAX_FUNC = 1          # functions of one argument whose argument is doubled / halved
MAX_MUTANTS = 32      # mutants of one role's claim and its formulas, the first in the fixed order
MAX_REFS = 2          # referenced formulas mutated inside, the first in the claim's pre-order
MAX_HYPS = 3          # quoted hypotheses dropped / moved, the first in the check's order
MAX_ENCODING = 2      # substitutions moved, assumptions dropped
SIDES = ("paper", "form", "encoding")
# the role of each kind's claim (the node the paper asserts), passed through common.claim
CLAIM_ROLES = {"compare": ("lhs", "rhs"), "derivation": ("claim",), "restatement": ("a",),
               "order": ("order",), "identity": ("derivative",), "vacuity": ("formula",),
               "measured": ("expected",), "transcription": ("ours",), "monotone": ("formula",)}
# the premise of a kind (the other formula of the paper the claim is compared with): all
# of its mutants, its scaling included, are of the paper's side
PREMISE_ROLES = {"derivation": ("premise",), "restatement": ("b",)}
# labels of the claim's own mutants that change only its form (they die even for x - x = 0)
FORM = ("scale by 2", "scale by 1/2", "exponent 1 -> 3/2", "exponent 1 -> 1/2")


@dataclass(frozen=True)
class Mutant:
    label: str
    spec: Any                 # the check's typed spec, mutated (boundcalc.registry.checks)
    hook: object              # the claim hook (:func:`replacer`), or None
    side: str                 # one of SIDES
    hyp_hook: object = None   # a rewrite of the hypotheses (:data:`.hypotheses.HYP_HOOK`), or None
FLIPS = {"compare": ("rel", {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}),
         "derivation": ("direction", {"upper": "lower", "lower": "upper"}),
         "vacuity": ("direction", {"upper": "lower", "lower": "upper"}),
         "order": ("relation", {"O": "Omega", "Omega": "O"}),
         "monotone": ("claim", {"increasing": "decreasing", "decreasing": "increasing",
                                "nondecreasing": "nonincreasing", "nonincreasing": "nondecreasing"})}
# a re-run graded for one of these reasons has not told the mutant apart
NOT_KILLED = ("", "undecided", "sampled only")


class _Keys(Visitor[int]):
    """Structural keys of nodes (equal trees, equal keys), memoized by object: linear in
    the size of a DAG, and iterative (no Python stack for deep trees). One instance keeps
    its nodes alive, so their ids stay valid."""

    def __init__(self) -> None:
        super().__init__()
        self.table: dict[tuple, int] = {}

    @handles(Num, Const, Sym, Ref, Add, Mul, Pow, Func, Rel, Indexed, BigOp)
    def _key(self, n: Node, kids: list[int]) -> int:
        fields: tuple[str, ...] = n.__slots__
        own = tuple(getattr(n, f) for f in fields
                    if f not in ("args", "base", "exp", "lhs", "rhs", "index", "body", "lo", "hi"))
        return self.table.setdefault((type(n).__name__, own, tuple(kids)), len(self.table))


def _preorder(node: Node):
    seen, stack = set(), [node]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        yield n
        stack.extend(reversed(n.children()))


def _number(node: Node) -> Fraction | None:
    """The value of a constant rational subtree (``-1/2`` parses as a product), or None."""
    if node.symbols():
        return None
    from ...expr.exact import NotExact, evaluate_exact
    try:
        v = evaluate_exact(node, {})
    except (NotExact, ZeroDivisionError, ValueError, OverflowError):
        return None
    return v if isinstance(v, Fraction) else None


def tree_mutants(node: Node, scale: bool = True, constants: bool = True) -> list[tuple[str, Node, Node]]:
    """(label, site, replacement) for one claim node, in a fixed order (``scale=False``:
    without the two scalings and the implicit exponent, for a formula inside a claim;
    ``constants=False``: without the constants' mutants, for a rate up to constants): the
    operators of :data:`TREE_OPERATORS`, each in turn."""
    top = node.rhs if isinstance(node, Rel) else node
    out: list[tuple[str, Node, Node]] = []
    for operator in TREE_OPERATORS:
        out += operator(node, top, scale, constants)
    return out


def _scale_mutants(node: Node, top: Node, scale: bool, constants: bool) -> list[tuple[str, Node, Node]]:
    """The whole claim (the right side of a relation) scaled by 2 and by 1/2 (its form)."""
    if not scale:
        return []
    return [("scale by 2", top, Mul((Num(Fraction(2)), top))),
            ("scale by 1/2", top, Mul((Num(Fraction(1, 2)), top)))]


def _powers(node: Node) -> list[tuple[Pow, Fraction]]:
    """The first :data:`MAX_POW` powers of a base with symbols and a number exponent, in
    pre-order, with their exponents."""
    pows: list[tuple[Pow, Fraction]] = []
    for n in _preorder(node):
        if isinstance(n, Pow) and n.base.symbols():
            e = _number(n.exp)
            if e is not None:
                pows.append((n, e))
        if len(pows) == MAX_POW:
            break
    return pows


def _exponent_mutants(node: Node, top: Node, scale: bool, constants: bool) -> list[tuple[str, Node, Node]]:
    """Each exponent of :func:`_powers` moved by +-1/2, a negative one negated (a
    denominator printed as a numerator); with no such power (and ``scale``), the implicit
    exponent 1 of the claim raised to 3/2 and 1/2 (its form)."""
    pows = _powers(node)
    out: list[tuple[str, Node, Node]] = []
    for i, (p, e0) in enumerate(pows):
        for d in (Fraction(1, 2), Fraction(-1, 2)):
            e = e0 + d
            rep = p.base if e == 1 else Pow(p.base, Num(e))
            out.append((f"exponent {e0} -> {e} (power {i + 1})", p, rep))
        if e0 < 0:                                   # a ratio inverted: the denominator printed as a numerator
            out.append((f"exponent {e0} -> {-e0} (power {i + 1})", p, p.base if e0 == -1 else Pow(p.base, Num(-e0))))
    if scale and not pows and top.symbols():         # the implicit exponent 1 of the claim
        for e in (Fraction(3, 2), Fraction(1, 2)):
            out.append((f"exponent 1 -> {e}", top, Pow(top, Num(e))))
    return out


def _sum_mutants(node: Node, top: Node, scale: bool, constants: bool) -> list[tuple[str, Node, Node]]:
    """In the first sum of two terms or more (pre-order): a term dropped (the first
    :data:`MAX_DROP`), then a term's sign flipped (the first :data:`MAX_SIGN`)."""
    add = next((n for n in _preorder(node) if isinstance(n, Add) and len(n.args) >= 2), None)
    if add is None:
        return []
    out: list[tuple[str, Node, Node]] = []
    for i in range(min(MAX_DROP, len(add.args))):
        rest = add.args[:i] + add.args[i + 1:]
        out.append((f"drop term {i + 1} of a sum", add, rest[0] if len(rest) == 1 else Add(rest)))
    for i in range(min(MAX_SIGN, len(add.args))):
        flipped = add.args[:i] + (_negated(add.args[i]),) + add.args[i + 1:]
        out.append((f"sign of term {i + 1} of a sum flipped", add, Add(flipped)))
    return out


def _constant_mutants(node: Node, top: Node, scale: bool, constants: bool) -> list[tuple[str, Node, Node]]:
    """Each numeric constant of the claim (a maximal subtree without symbols: ``1/8`` in
    ``x/8``, ``sqrt(2)``) doubled and halved, the first :data:`MAX_CONST` in pre-order: the
    paper misprinting a constant (none when ``constants`` is false). Left out: an exponent
    of a power of a symbol (moved by the exponent mutants), a coefficient of the whole claim
    (that is the claim rescaled, a mutant of its form), and 0 and +-1 except as a term of a
    sum (a ``-1`` is a subtraction's sign: the sign mutants move it)."""
    if not constants:
        return []
    out: list[tuple[str, Node, Node]] = []
    for c in _constants(node, top):
        v = _number(c)
        for k, word in ((Fraction(2), "doubled"), (Fraction(1, 2), "halved")):
            rep = Num(k * v) if v is not None else Mul((Num(k), c))
            what = f"{v} {word} (-> {k * v})" if v is not None else f"{c} {word}"
            out.append((f"constant {what}", c, rep))
    return out


def _constants(node: Node, top: Node) -> list[Node]:
    """The constants :func:`_constant_mutants` moves, the first :data:`MAX_CONST` in pre-order."""
    skip = {id(a) for a in top.args} if isinstance(top, Mul) else set()
    found: list[Node] = []
    seen: set[int] = set()
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack and len(found) < MAX_CONST:
        n, in_sum = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if not n.symbols():
            if id(n) not in skip and _is_constant(n, in_sum):
                found.append(n)
            continue                                   # a constant's parts are not constants of the claim
        kids = n.children()
        if isinstance(n, Pow) and n.base.symbols():
            kids = (n.base,)                           # the exponent: the exponent mutants
        stack.extend((k, isinstance(n, Add)) for k in reversed(kids))
    return found


def _is_constant(n: Node, in_sum: bool) -> bool:
    """A subtree without symbols that is a constant of the claim: a number, power, product
    or function value, not 0 nor +-1 unless it is a (non-zero) term of a sum."""
    v = _number(n)
    return isinstance(n, (Num, Pow, Mul, Func)) and (v is None or v not in (0, 1, -1) or in_sum and v != 0)


def _factor_mutants(node: Node, top: Node, scale: bool, constants: bool) -> list[tuple[str, Node, Node]]:
    """One factor with symbols of a product dropped, each in turn (a denominator among
    them), over the products of the claim in pre-order, the first :data:`MAX_FACTOR`: the
    paper misprinting a product (``2 Gamma A`` printed ``2 A``)."""
    out: list[tuple[str, Node, Node]] = []
    for n in _preorder(node):
        if not isinstance(n, Mul):
            continue
        symbolic = [i for i, a in enumerate(n.args) if a.symbols()]
        if len(symbolic) < 2:
            continue
        for i in symbolic:
            rest = n.args[:i] + n.args[i + 1:]
            out.append((f"factor {n.args[i]} of a product dropped", n, rest[0] if len(rest) == 1 else Mul(rest)))
            if len(out) == MAX_FACTOR:
                return out
    return out


def _argument_mutants(node: Node, top: Node, scale: bool, constants: bool) -> list[tuple[str, Node, Node]]:
    """The argument of a function of one argument with symbols (exp, log, sqrt, ...)
    doubled and halved, the first :data:`MAX_FUNC` functions in pre-order."""
    funcs = [n for n in _preorder(node) if isinstance(n, Func) and len(n.args) == 1 and n.args[0].symbols()]
    out: list[tuple[str, Node, Node]] = []
    for f in funcs[:MAX_FUNC]:
        for k, word in ((Fraction(2), "doubled"), (Fraction(1, 2), "halved")):
            out.append((f"argument of {f.name} {word}", f, Func(f.name, (Mul((Num(k), f.args[0])),))))
    return out


# the operators of :func:`tree_mutants`, in their order: each takes (node, top, scale,
# constants) and returns its (label, site, replacement) rows
TREE_OPERATORS = (_scale_mutants, _exponent_mutants, _sum_mutants, _constant_mutants, _factor_mutants,
                  _argument_mutants)


def _negated(term: Node) -> Node:
    """``-term``, a leading numeric coefficient's sign changed rather than a -1 prefixed."""
    if isinstance(term, Num):
        return Num(-term.value)
    if isinstance(term, Mul) and isinstance(term.args[0], Num):
        c = -term.args[0].value
        rest = term.args[1:]
        if c == 1:
            return rest[0] if len(rest) == 1 else Mul(rest)
        return Mul((Num(c),) + rest)
    return Mul((Num(Fraction(-1)), term))


def replacer(site: Node, rep: Node, role: str | None = None, index: int | None = None):
    """The claim hook of one mutant: ``site`` becomes ``rep`` wherever it occurs in any role
    of the check — the same node object (a formula is resolved once and shared by every
    expression that inlines it, and substitutions keep the subtrees they do not touch), or a
    whole side equal to ``site`` (the same expression written twice). A check's own
    expressions are parsed afresh on every run: in the claim's ``role`` the site is also
    found by its place (``index`` in pre-order) in the new tree. Two formulas the paper
    prints separately are not tied, even when they agree term for term: had the paper
    printed one of them otherwise, the check would see it."""
    keys = _Keys()
    want = keys(site)

    def hook(r, node):
        if keys(node) == want:
            return rep
        target = site
        if r == role and index is not None:
            nodes = list(_preorder(node))
            if index < len(nodes) and keys(nodes[index]) == want:
                target = nodes[index]
        return node.map(lambda n: rep if n is site or n is target else None)
    return hook


def recorder(store: dict):
    def hook(role, node):
        store.setdefault(role, node)
        return node
    return hook


def mutants(kind: str, spec, claims: dict, refs: dict | None = None,
            hyps: list[dict] | tuple = ()) -> list[Mutant]:
    """The mutants of a passing check of ``kind`` whose claim nodes (role -> node) were
    recorded during its run; ``refs``: formula name -> its resolved node, for the mutants
    inside the formulas a claim inlines (:data:`MAX_REFS` of them); ``hyps``: the
    hypotheses the pass ran under (its evidence's ``hypotheses`` rows). In this order: the
    relation flipped, an order's exponent moved, the claims' own mutants, the premise's,
    the encoding's."""
    out = _flip_mutants(kind, spec)
    out += _order_mutants(kind, spec, claims)
    out += _claim_mutants(kind, spec, claims, refs or {})
    out += _premise_mutants(spec, hyps)
    out += _encoding_mutants(spec)
    return out


def _flip_mutants(kind: str, spec) -> list[Mutant]:
    """The claim's relation flipped (:data:`FLIPS`): a mutant of its form."""
    if kind not in FLIPS:
        return []
    key, table = FLIPS[kind]
    was = getattr(spec, key)
    if was not in table:
        return []
    return [Mutant(f"flip {was} -> {table[was]}", replace(spec, **{key: table[was]}), None, "form")]


def _order_mutants(kind: str, spec, claims: dict) -> list[Mutant]:
    """The stated rate's exponent in the variable, moved by +-1/2 (an order "1" has no
    exponent of its own to move)."""
    if kind != "order" or "order" not in claims:
        return []
    var = spec.var                        # an order check always names its variable
    var = var[0] if isinstance(var, list) else var
    top = claims["order"]
    out: list[Mutant] = []
    for d in (Fraction(1, 2), Fraction(-1, 2)):
        moved = Mul((top, Pow(Sym(var), Num(d))))
        out.append(Mutant(f"order: exponent of {var} {'+' if d > 0 else '-'}1/2", spec,
                          replacer(top, moved, "order", 0), "paper"))
    return out


def _claim_mutants(kind: str, spec, claims: dict, refs: dict) -> list[Mutant]:
    """The tree mutants (:func:`tree_mutants`) of each recorded claim role of ``kind``
    (:data:`CLAIM_ROLES`, then :data:`PREMISE_ROLES`) and of the formulas it inlines."""
    premise = PREMISE_ROLES.get(kind, ())
    roles = [r for r in CLAIM_ROLES.get(kind, ()) + premise if r in claims]
    # nodes two roles share (a formula both sides inline): a sign flipped there changes both
    # sides alike and dies by making the formula negative (F <= 2 F at F = x^2 - d y): the
    # claim's form (F <= 2 F holds for every F >= 0), not the formula, is what it tests
    ids = [{id(n) for n in _preorder(claims[r])} for r in roles]
    shared = {i for k, a in enumerate(ids) for b in ids[k + 1:] for i in a & b}
    out: list[Mutant] = []
    for role in roles:
        out += _role_mutants(spec, role, claims[role], refs, role in premise, shared)
    return out


def _role_mutants(spec, role: str, claim: Node, refs: dict, is_premise: bool, shared: set[int]) -> list[Mutant]:
    """The claim's own mutants, then those inside each formula it references (inlined: the
    same node object wherever the formula is used, so a mutant there is the paper printing
    that formula otherwise, in every place the check uses it); distinct, at most
    :data:`MAX_MUTANTS`."""
    where = {id(n): i for i, n in enumerate(_preorder(claim))}
    tops: list[tuple[str, Node]] = [("", claim)]
    tops += [(f"in {name}: ", node) for name, node in _inlined(claim, where, refs)]
    seen = set()
    out: list[Mutant] = []
    for prefix, top in tops:
        for label, site, rep in tree_mutants(top, scale=not prefix, constants=role != "order"):
            k = (id(site), repr(rep)[:2000])
            if k in seen:
                continue
            if len(out) == MAX_MUTANTS:
                return out
            seen.add(k)
            side, label = _side(label, prefix, is_premise, id(site) in shared)
            out.append(Mutant(f"{role}: {prefix}{label}", spec, replacer(site, rep, role, where.get(id(site))),
                              side))
    return out


def _inlined(claim: Node, where: dict[int, int], refs: dict) -> list[tuple[str, Node]]:
    """The referenced formulas (name, node) with symbols the claim inlines, other than the
    whole claim, the first :data:`MAX_REFS` in the claim's pre-order."""
    placed = sorted(((where[id(node)], name, node) for name, node in sorted(refs.items())
                     if id(node) in where and node is not claim and node.symbols()),
                    key=lambda x: x[0])
    return [(name, node) for _, name, node in placed[:MAX_REFS]]


def _side(label: str, prefix: str, is_premise: bool, shared: bool) -> tuple[str, str]:
    """The side of a tree mutant and its label: the claim's own scalings and implicit
    exponent are of its form (not a formula inside it, not the premise); a sign flipped in a
    formula both sides use, too (labelled so); every other, of the paper."""
    if shared and label.startswith("sign of"):
        return "form", f"{label} (in a formula both sides use)"
    return ("form" if (not prefix and not is_premise and label in FORM) else "paper"), label


def _premise_mutants(spec, hyps) -> list[Mutant]:
    """A quoted hypothesis the pass ran under dropped, or its bound (the right side)
    doubled or halved: the paper stating its premise otherwise."""
    out: list[Mutant] = []
    quoted = [h["hypothesis"] for h in hyps if isinstance(h, dict) and h.get("from") != "added by the check"]
    for text in list(dict.fromkeys(quoted))[:MAX_HYPS]:
        out.append(Mutant(f"premise: drop '{text}'", spec, None, "paper",
                          lambda hs, t=text: [h for h in hs if h.text != t]))
        for k, word in ((Fraction(2), "doubled"), (Fraction(1, 2), "halved")):
            def moved(hs, t=text, k=k):
                return [_scaled(h, k) if h.text == t else h for h in hs]
            out.append(Mutant(f"premise: '{text}' with its right side {word}", spec, None, "paper", moved))
    return out


def _scaled(h, k: Fraction):
    if h.rel.op == "==" or not h.rel.rhs.symbols() and _number(h.rel.rhs) == 0:
        return replace(h, rel=Rel(h.rel.op, h.rel.lhs, Add((h.rel.rhs, Num(k - 1)))))   # a 0 bound: moved by k - 1
    return replace(h, rel=Rel(h.rel.op, h.rel.lhs, Mul((Num(k), h.rel.rhs))))


def _encoding_mutants(spec) -> list[Mutant]:
    """Our encoding changed: two values of a substitution swapped, a number substituted for
    a symbol doubled, an ``assume`` entry dropped (each shown, none counted)."""
    out: list[Mutant] = []
    for key, table in spec.substitutions().items():
        sub = dict(table)
        names = list(sub)
        if len(names) >= 2:
            a, b = names[0], names[1]
            out.append(Mutant(f"encoding: {key} values of {a} and {b} swapped",
                              replace(spec, **{key: {**sub, a: sub[b], b: sub[a]}}), None, "encoding"))
        nums = [(n, v) for n in names if (v := _plain_number(sub[n])) is not None][:MAX_ENCODING]
        for n, v in nums:
            out.append(Mutant(f"encoding: {key} {n} = {sub[n]} doubled",
                              replace(spec, **{key: {**sub, n: str(2 * v)}}), None, "encoding"))
    for i, a in enumerate(spec.assumptions[:MAX_ENCODING]):
        rest = tuple(x for j, x in enumerate(spec.assumptions) if j != i)
        out.append(Mutant(f"encoding: drop the assumption '{a.expr}'", replace(spec, assume=rest), None,
                          "encoding"))
    return out


def _plain_number(text) -> Fraction | None:
    try:
        return Fraction(str(text))
    except (ValueError, ZeroDivisionError):
        return None


def killed_by(finding) -> bool:
    return finding.severity is not Grade.OK and finding.reason not in NOT_KILLED
