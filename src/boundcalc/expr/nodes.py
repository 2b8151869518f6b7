"""Expression tree nodes (immutable, hashable).

Numbers are exact rationals (:class:`fractions.Fraction`); subtraction is ``Add`` of a
``Mul`` by -1 and division is ``Mul`` by ``Pow(., -1)``, as in SymPy, so every back end
handles only these few node types.

Indexed symbols and big operators: :class:`Indexed` is one component ``s[i]`` of a symbol
whose value is a vector (or one number for every index), and :class:`BigOp` is
``sum/prod/max/min`` of a body over an integer index ``var = lo .. hi`` (both ends
included). The index variable is *bound*: it is no free symbol of the tree
(:meth:`Node.symbols`), :func:`substitute` never replaces it, and a back end evaluates a
big operator by :func:`expand` once ``lo`` and ``hi`` are concrete integers.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING


def _no_printer(node: Node) -> str:
    raise RuntimeError("no text printer registered: import boundcalc.expr.printing")


_text_printer: Callable[[Node], str] = _no_printer


def set_text_printer(printer: Callable[[Node], str]) -> None:
    """Install the function ``str(node)`` calls (done once, by :mod:`.printing`)."""
    global _text_printer
    _text_printer = printer


class Node:
    __slots__ = ()

    def __str__(self) -> str:
        """The expression in the formula syntax (:func:`boundcalc.expr.printing.to_text`,
        which registers itself here when ``boundcalc.expr`` is imported: the tree never
        imports its printer, so the two form no import cycle)."""
        return _text_printer(self)

    def children(self) -> tuple[Node, ...]:
        return ()

    def walk(self) -> Iterator[Node]:
        """Every node, pre-order (a shared subtree as often as it occurs); no recursion."""
        stack = [self]
        while stack:
            n = stack.pop()
            yield n
            stack.extend(reversed(n.children()))

    def unique_nodes(self) -> Iterator[Node]:
        """Each distinct node object once (inlined formulas share subtrees: a DAG)."""
        seen: set[int] = set()
        stack = [self]
        while stack:
            n = stack.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            yield n
            stack.extend(n.children())

    def symbols(self) -> set[str]:
        """The free symbols: every ``Sym`` not bound by an enclosing :class:`BigOp`, and
        the name of every :class:`Indexed` symbol."""
        if not any(isinstance(n, (BigOp, Indexed)) for n in self.unique_nodes()):
            return {n.name for n in self.unique_nodes() if isinstance(n, Sym)}
        return set(_free(self))

    def indexed(self) -> set[str]:
        """The names of the indexed symbols (``s`` of ``s[i]``)."""
        return {n.name for n in self.unique_nodes() if isinstance(n, Indexed)}

    def refs(self) -> set[tuple[str | None, str]]:
        return {(n.paper, n.name) for n in self.unique_nodes() if isinstance(n, Ref)}

    def map(self, f: Callable[[Node], Node | None], _memo: dict | None = None) -> Node:
        """Rebuild bottom-up; ``f`` may return a replacement for a node or None to keep it.
        Shared subtrees are rebuilt once and stay shared. No recursion: any depth."""
        memo = {} if _memo is None else _memo
        stack: list[tuple[Node, bool]] = [(self, False)]
        while stack:
            n, expanded = stack.pop()
            key = id(n)
            if key in memo:
                continue
            kids = n.children()
            if not expanded:
                rep = f(n)
                if rep is not None:
                    memo[key] = rep
                    continue
                pending = [c for c in kids if id(c) not in memo]
                if pending:
                    stack.append((n, True))
                    stack.extend((c, False) for c in reversed(pending))
                    continue
            new = tuple(memo[id(c)] for c in kids)
            memo[key] = n if all(a is b for a, b in zip(new, kids)) else n._rebuild(new)
        return memo[id(self)]

    def _rebuild(self, kids: tuple[Node, ...]) -> Node:
        return self


class _Fields(Node):
    """Immutable, hashable node whose fields are its ``__slots__`` (plain classes: much
    cheaper to define at import time than dataclasses, which matters for start-up).
    The hash is computed once, at construction, from the children's stored hashes, and
    equality is compared with an explicit stack: neither recurses, so a deep tree costs
    no Python stack."""
    __slots__ = ("_h",)
    _h: int

    def __init__(self, *args: object) -> None:
        if len(args) != len(self.__slots__):
            raise TypeError(f"{type(self).__name__} takes {len(self.__slots__)} arguments")
        for f, a in zip(self.__slots__, args):
            object.__setattr__(self, f, a)
        object.__setattr__(self, "_h", hash((type(self).__name__,) + args))

    def __setattr__(self, k, v):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other):
        stack = [(self, other)]
        while stack:
            a, b = stack.pop()
            if a is b:
                continue
            if type(a) is not type(b) or a._h != b._h:
                return False
            for f in a.__slots__:
                x, y = getattr(a, f), getattr(b, f)
                if isinstance(x, tuple) and isinstance(y, tuple):
                    if len(x) != len(y):
                        return False
                    stack.extend(zip(x, y))
                elif isinstance(x, Node) or isinstance(y, Node):
                    stack.append((x, y))
                elif x != y:
                    return False
        return True

    def __hash__(self):
        return self._h

    def __repr__(self):
        return f"{type(self).__name__}(" + ", ".join(repr(getattr(self, f)) for f in self.__slots__) + ")"


class Num(_Fields):
    """An exact rational number."""
    __slots__ = ("value",)
    value: Fraction

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, value: Fraction) -> None: ...


class Const(_Fields):
    """``pi`` or ``E``."""
    __slots__ = ("name",)
    name: str

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, name: str) -> None: ...


class Sym(_Fields):
    __slots__ = ("name",)
    name: str

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, name: str) -> None: ...


class Ref(_Fields):
    """A reference to another formula: bare (``paper`` None) or qualified."""
    __slots__ = ("paper", "name")
    paper: str | None
    name: str

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, paper: str | None, name: str) -> None: ...


class Add(_Fields):
    __slots__ = ("args",)
    args: tuple[Node, ...]

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, args: tuple[Node, ...]) -> None: ...

    def children(self) -> tuple[Node, ...]:
        return self.args

    def _rebuild(self, kids: tuple[Node, ...]) -> Node:     # an inlined sum joins the sum it stands in: no extra level
        return Add(_flat(Add, kids))


class Mul(_Fields):
    __slots__ = ("args",)
    args: tuple[Node, ...]

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, args: tuple[Node, ...]) -> None: ...

    def children(self) -> tuple[Node, ...]:
        return self.args

    def _rebuild(self, kids: tuple[Node, ...]) -> Node:
        return Mul(_flat(Mul, kids))


class Pow(_Fields):
    __slots__ = ("base", "exp")
    base: Node
    exp: Node

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, base: Node, exp: Node) -> None: ...

    def children(self) -> tuple[Node, ...]:
        return (self.base, self.exp)

    def _rebuild(self, kids: tuple[Node, ...]) -> Node:
        return Pow(kids[0], kids[1])


class Func(_Fields):
    __slots__ = ("name", "args")
    name: str
    args: tuple[Node, ...]

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, name: str, args: tuple[Node, ...]) -> None: ...

    def children(self) -> tuple[Node, ...]:
        return self.args

    def _rebuild(self, kids: tuple[Node, ...]) -> Node:
        return Func(self.name, kids)


class Indexed(_Fields):
    """``name[index]``: the component at ``index`` (an integer-valued tree, usually a bound
    index variable) of the indexed symbol ``name``."""
    __slots__ = ("name", "index")
    name: str
    index: Node

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, name: str, index: Node) -> None: ...

    def children(self) -> tuple[Node, ...]:
        return (self.index,)

    def _rebuild(self, kids: tuple[Node, ...]) -> Node:
        return Indexed(self.name, kids[0])


#: the big operators: formula syntax name -> what an empty range gives (None: undefined)
BIG_OPS = ("sum", "prod", "max", "min")


class BigOp(_Fields):
    """``op(body, var, lo, hi)``: the sum, product, maximum or minimum of ``body`` over the
    integers ``var = lo, lo + 1, ..., hi`` (``op`` in :data:`BIG_OPS`). ``var`` is bound in
    ``body`` only; an empty range gives 0 (sum), 1 (prod), and no value (max, min)."""
    __slots__ = ("op", "body", "var", "lo", "hi")
    op: str
    body: Node
    var: str
    lo: Node
    hi: Node

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, op: str, body: Node, var: str, lo: Node, hi: Node) -> None: ...

    def children(self) -> tuple[Node, ...]:
        return (self.body, self.lo, self.hi)

    def _rebuild(self, kids: tuple[Node, ...]) -> Node:
        return BigOp(self.op, kids[0], self.var, kids[1], kids[2])


#: the most terms :func:`expand` writes out (a sum over L = 10^6 layers is refused)
MAX_TERMS = 100_000


class EmptyRange(ValueError):
    """A max or min over an empty index range (it has no value)."""


def expand(node: BigOp, lo: int, hi: int) -> Node:
    """The big operator written out for the integer range ``lo .. hi``: the body with the
    index replaced by each integer, joined by ``Add``/``Mul``/``max``/``min``. An empty
    range gives 0 or 1 (sum, product) and raises :class:`EmptyRange` for max/min; more
    than :data:`MAX_TERMS` terms raises ``OverflowError``."""
    n = hi - lo + 1
    if n > MAX_TERMS:
        raise OverflowError(f"{node.op} over {n} indices; at most {MAX_TERMS} are written out")
    if n <= 0:
        if node.op in ("max", "min"):
            raise EmptyRange(f"{node.op} over the empty range {node.var} = {lo} .. {hi}")
        return Num(Fraction(0 if node.op == "sum" else 1))
    terms = tuple(substitute(node.body, {node.var: Num(Fraction(k))}) for k in range(lo, hi + 1))
    if n == 1:
        return terms[0]
    if node.op == "sum":
        return Add(_flat(Add, terms))
    if node.op == "prod":
        return Mul(_flat(Mul, terms))
    return Func(node.op, terms)


def _free(node: Node) -> frozenset[str]:
    """Free symbol names, scoped (a big operator's index is bound in its body); shared
    subtrees once; recursion only through nested big operators."""
    memo: dict[int, frozenset[str]] = {}
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        n, done = stack.pop()
        if id(n) in memo:
            continue
        if isinstance(n, Sym):
            memo[id(n)] = frozenset((n.name,))
            continue
        kids = n.children()
        if not done and kids:
            stack.append((n, True))
            stack.extend((c, False) for c in kids if id(c) not in memo)
            continue
        if isinstance(n, BigOp):
            out = (memo[id(n.body)] - {n.var}) | memo[id(n.lo)] | memo[id(n.hi)]
        else:
            out = frozenset().union(*(memo[id(c)] for c in kids)) if kids else frozenset()
            if isinstance(n, Indexed):
                out = out | {n.name}
        memo[id(n)] = out
    return memo[id(node)]


REL_OPS = ("<=", ">=", "<", ">", "==")


class Rel(_Fields):
    """``lhs OP rhs`` with OP in REL_OPS."""
    __slots__ = ("op", "lhs", "rhs")
    op: str
    lhs: Node
    rhs: Node

    if TYPE_CHECKING:             # the signature mypy sees; at run time _Fields.__init__
        def __init__(self, op: str, lhs: Node, rhs: Node) -> None: ...

    def children(self) -> tuple[Node, ...]:
        return (self.lhs, self.rhs)

    def _rebuild(self, kids: tuple[Node, ...]) -> Node:
        return Rel(self.op, kids[0], kids[1])


def _flat(kind: type[Add | Mul], kids: tuple[Node, ...]) -> tuple[Node, ...]:
    if not any(type(k) is kind for k in kids):
        return kids
    return tuple(x for k in kids for x in (k.args if type(k) is kind and isinstance(k, (Add, Mul)) else (k,)))


def depth(node: Node) -> int:
    """Levels of the tree (a leaf is 1), computed without recursion; shared subtrees once."""
    memo: dict[int, int] = {}
    stack: list[tuple[Node, bool]] = [(node, False)]
    while stack:
        n, done = stack.pop()
        if id(n) in memo:
            continue
        kids = n.children()
        if done or not kids:
            memo[id(n)] = 1 + max((memo[id(c)] for c in kids), default=0)
            continue
        stack.append((n, True))
        stack.extend((c, False) for c in kids if id(c) not in memo)
    return memo[id(node)]


def sub(a: Node, b: Node) -> Node:
    return Add((a, Mul((Num(Fraction(-1)), b))))


def substitute(node: Node, mapping: Mapping[str, Node]) -> Node:
    """Replace free symbols by expressions (a big operator's bound index is never
    replaced inside its body)."""
    def f(n: Node) -> Node | None:
        if isinstance(n, (Sym, Indexed)):         # a value for s: one number for every s[i]
            return mapping.get(n.name)
        if isinstance(n, BigOp) and n.var in mapping:
            inner = {k: v for k, v in mapping.items() if k != n.var}
            return BigOp(n.op, substitute(n.body, inner), n.var, substitute(n.lo, mapping),
                         substitute(n.hi, mapping))
        return None
    return node.map(f)
