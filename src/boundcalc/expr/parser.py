"""Whitelist parser: text -> expression tree, without ever executing anything.

The text is parsed by :func:`ast.parse` (which only builds a syntax tree) and every
node of that tree is checked against a short whitelist; anything else -- calls of
unknown functions, attributes, subscripts of anything but a symbol name, strings,
lambdas, keywords -- is rejected with an error naming what was found and where.
"""
from __future__ import annotations

import ast
import math
import re
from fractions import Fraction

from ..errors import ExpressionError
from .nodes import BIG_OPS, Add, BigOp, Const, Func, Indexed, Mul, Node, Num, Pow, Ref, Rel, Sym, depth
from .numbers import check_budget, decimal

#: function name -> allowed argument counts (None: any count >= 2)
FUNCTIONS: dict[str, tuple[int, ...] | None] = {
    "sqrt": (1,), "exp": (1,), "log": (1, 2), "min": None, "max": None, "abs": (1,),
    "floor": (1,), "ceil": (1,), "sin": (1,), "cos": (1,), "tan": (1,), "tanh": (1,),
    "atan": (1,), "erf": (1,), "factorial": (1,), "gamma": (1,), "binomial": (2,),
    "sum": (4,), "prod": (4,),
}
#: function names that may also name a symbol (a bare ``gamma`` is a symbol, ``gamma(x)``
#: the function: the parser tells them apart by the call; deora2023's margin is ``gamma``)
ALSO_SYMBOLS = {"gamma"}
CONSTANTS = {"pi", "E"}
MAX_LENGTH = 4000
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def reserved(name: str) -> str | None:
    """Why ``name`` cannot name a symbol or a formula (the parser would not read it as
    one), or None: the constants, the function names and Python's keywords."""
    import keyword
    if name in CONSTANTS:
        return f"{name!r} is reserved: it is the constant {name} of the expression language"
    if name in FUNCTIONS and name not in ALSO_SYMBOLS:
        return f"{name!r} is reserved: it is the function {name}() of the expression language"
    if keyword.iskeyword(name):
        return f"{name!r} is reserved: it is a Python keyword, which an expression cannot use as a name"
    return None
_CMP = {ast.LtE: "<=", ast.GtE: ">=", ast.Lt: "<", ast.Gt: ">", ast.Eq: "=="}
_NUMBER = re.compile(r"^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


#: the deepest expression tree (in nodes, after inlining references) accepted: the
#: expression layer (nodes, registry) has no depth limit, and the numeric and interval back
#: ends and z3 walk 200 levels within Python's default recursion limit (SymPy's own
#: algorithms, e.g. diff, may give up earlier: the CLI then says the input is nested too
#: deeply). Flat sums and products are one level (``x+x+...+x`` of any length within
#: MAX_LENGTH), so only genuine nesting counts: parentheses (Python's parser allows 200),
#: function calls, powers, divisions.
MAX_DEPTH = 200


def parse(text: str, *, allow_relation: bool = True, where: str = "expression") -> Node:
    """Parse ``text`` into a :class:`Node`; raise :class:`ExpressionError` naming ``where``.
    Every message gives its reason first and echoes the input shortened (:func:`_short`)."""
    if not isinstance(text, str):
        raise ExpressionError(f"{where}: expected a string expression, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"{where}: expression longer than {MAX_LENGTH} characters ({len(text)})")
    if "^" in text:
        raise ExpressionError(f"{where}: '^' is not allowed; write powers as '**'")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        hint = " (Python's parser allows at most 200)" if "too many nested parentheses" in e.msg else ""
        raise ExpressionError(f"{where}: syntax error: {e.msg}{hint}, in {_short(text)}") from None
    except (RecursionError, MemoryError, ValueError) as e:
        raise ExpressionError(f"{where}: Python's parser refuses the expression ({type(e).__name__}), "
                              f"in {_short(text)}") from None
    node = _Converter(text, where).convert(tree.body)
    d = depth(node)
    if d > MAX_DEPTH:
        raise ExpressionError(f"{where}: expression nested {d} levels deep; the limit is {MAX_DEPTH} "
                              f"(flat sums and products count as one level), in {_short(text)}")
    if isinstance(node, Rel) and not allow_relation:
        raise ExpressionError(f"{where}: a value was expected, not a relation: {_short(text)}")
    return node


_NEG = Num(Fraction(-1))


class _Converter:
    """Python syntax tree -> :class:`Node`, without recursion (an explicit stack), so the
    length of a flat sum or product costs nothing: a chain ``a + b - c + ...`` (or
    ``a * b / c ...``, or ``- - x``) is collected along its spine into one n-ary node."""

    def __init__(self, text: str, where: str):
        self.text = text
        self.where = where

    def fail(self, node: ast.AST, what: str) -> ExpressionError:
        seg = ast.get_source_segment(self.text.strip(), node) or ""
        return ExpressionError(f"{self.where}: {what} is not allowed in a formula ({_short(seg)} in "
                               f"{_short(self.text)})")

    def convert(self, root: ast.AST) -> Node:
        out: list[Node] = []
        todo: list = [(root, True)]
        while todo:
            item = todo.pop()
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], ast.AST):
                n, top = item
                kids, build = self.plan(n, top)
                todo.append((build, len(kids)))
                todo.extend((k, False) for k in reversed(kids))
            else:
                build, k = item
                args = out[len(out) - k:] if k else []
                del out[len(out) - k:]
                out.append(build(args))
        return out[0]

    def plan(self, n: ast.AST, top: bool):
        """The children of ``n`` to convert, and how to build ``n``'s node from them."""
        if isinstance(n, ast.Compare):
            return self._plan_compare(n, top)
        if isinstance(n, ast.BinOp):
            return self._plan_binop(n)
        if isinstance(n, ast.UnaryOp):
            return self._plan_unary(n)
        if isinstance(n, ast.Call):
            return self._plan_call(n)
        if isinstance(n, ast.Subscript):
            return self._plan_subscript(n)
        leaf = self.leaf(n)
        return [], lambda a: leaf

    def _plan_compare(self, n: ast.Compare, top: bool):
        if not top:
            raise self.fail(n, "a comparison inside an expression")
        if len(n.ops) != 1 or type(n.ops[0]) not in _CMP:
            raise self.fail(n, "a chained or non-numeric comparison")
        op = _CMP[type(n.ops[0])]
        return [n.left, n.comparators[0]], lambda a: Rel(op, a[0], a[1])

    def _plan_binop(self, n: ast.BinOp):
        kind = type(n.op)
        if kind in (ast.Add, ast.Sub):
            return self._chain(n, (ast.Add, ast.Sub), ast.Sub,
                               lambda a, neg: Add(tuple(Mul((_NEG, x)) if m else x for x, m in zip(a, neg))))
        if kind in (ast.Mult, ast.Div):
            return self._chain(n, (ast.Mult, ast.Div), ast.Div,
                               lambda a, inv: Mul(tuple(Pow(x, _NEG) if m else x for x, m in zip(a, inv))))
        if kind is ast.Pow:
            return [n.left, n.right], lambda a: Pow(a[0], a[1])
        raise self.fail(n, f"the operator {kind.__name__}")

    def _plan_unary(self, n: ast.UnaryOp):
        negative = False
        inner: ast.expr = n
        while isinstance(inner, ast.UnaryOp):
            if isinstance(inner.op, ast.USub):
                negative = not negative
            elif not isinstance(inner.op, ast.UAdd):
                raise self.fail(inner, f"the operator {type(inner.op).__name__}")
            inner = inner.operand

        def neg(a):
            if not negative:
                return a[0]
            return Num(-a[0].value) if isinstance(a[0], Num) else Mul((_NEG, a[0]))
        return [inner], neg

    def _plan_call(self, n: ast.Call):
        if not isinstance(n.func, ast.Name) or n.func.id not in FUNCTIONS:
            raise self.fail(n, "calling anything but " + ", ".join(sorted(FUNCTIONS)))
        if n.keywords or any(isinstance(a, ast.Starred) for a in n.args):
            raise self.fail(n, "keyword or starred arguments")
        name, allowed, k = n.func.id, FUNCTIONS[n.func.id], len(n.args)
        if self._big(n):
            return self._plan_big(n)
        if name in ("sum", "prod"):
            raise self.fail(n, f"{name} with {k} argument(s) (write {name}(expr, i, lo, hi))")
        if (allowed is None and k < 1) or (allowed is not None and k not in allowed):
            raise self.fail(n, f"{name} with {k} argument(s)")
        return list(n.args), lambda a: Func(name, tuple(a))

    def _plan_subscript(self, n: ast.Subscript):
        if not isinstance(n.value, ast.Name) or n.value.id in CONSTANTS or n.value.id in FUNCTIONS:
            raise self.fail(n, "a subscript of anything but a symbol name")
        if isinstance(n.slice, (ast.Slice, ast.Tuple)):
            raise self.fail(n, "a slice or several indices")
        base = n.value.id
        return [n.slice], lambda a: Indexed(base, a[0])

    @staticmethod
    def _big(n: ast.Call) -> bool:
        """``sum/prod(expr, i, lo, hi)`` always; ``max/min(expr, i, lo, hi)`` when the
        second argument is a bare name that occurs in the first (else it is the maximum of
        four values)."""
        assert isinstance(n.func, ast.Name)
        if n.func.id not in BIG_OPS or len(n.args) != 4 or not isinstance(n.args[1], ast.Name):
            return False
        if n.func.id in ("sum", "prod"):
            return True
        var = n.args[1].id
        return any(isinstance(x, ast.Name) and x.id == var for x in ast.walk(n.args[0]))

    def _plan_big(self, n: ast.Call):
        assert isinstance(n.func, ast.Name)
        op, ix = n.func.id, n.args[1]
        assert isinstance(ix, ast.Name)
        var = ix.id
        if var in CONSTANTS or var in FUNCTIONS or not _NAME.match(var):
            raise self.fail(ix, f"the index name {var!r}")
        for bound in n.args[2:]:
            if any(isinstance(x, ast.Name) and x.id == var for x in ast.walk(bound)):
                raise self.fail(bound, f"a range of {var} that mentions {var} itself")
        return [n.args[0], n.args[2], n.args[3]], lambda a: BigOp(op, a[0], var, a[1], a[2])

    def _chain(self, n: ast.expr, ops: tuple, inverse: type, build):
        """The operands of a left-associated chain of ``ops`` (its spine walked in a loop),
        each marked if it follows the ``inverse`` operator (- or /)."""
        terms, marks = [], []
        while isinstance(n, ast.BinOp) and type(n.op) in ops:
            terms.append(n.right)
            marks.append(type(n.op) is inverse)
            n = n.left
        terms.append(n)
        marks.append(False)
        terms.reverse()
        marks.reverse()
        return terms, lambda a: build(a, marks)

    def leaf(self, n: ast.AST) -> Node:
        if isinstance(n, ast.Constant):
            if isinstance(n.value, bool) or not isinstance(n.value, (int, float)):
                raise self.fail(n, f"a {type(n.value).__name__} literal")
            seg = ast.get_source_segment(self.text.strip(), n) or repr(n.value)
            value = decimal(seg, where=self.where) if _NUMBER.match(seg) else None
            if value is None:
                raise self.fail(n, "this number format")
            return Num(value)
        if isinstance(n, ast.Name):
            if n.id in CONSTANTS:
                return Const(n.id)
            if n.id in FUNCTIONS and n.id not in ALSO_SYMBOLS:
                raise self.fail(n, f"the function name {n.id!r} used as a value")
            return Sym(n.id)
        if isinstance(n, ast.Attribute):
            if isinstance(n.value, ast.Name) and _NAME.match(n.attr) and not n.attr.startswith("_"):
                return Ref(n.value.id, n.attr)
            raise self.fail(n, "attribute access")
        raise self.fail(n, type(n).__name__)


def parse_number(text: str | float | Fraction, *, where: str = "value") -> Fraction:
    """An exact rational from user input: ``"1.5"`` is 3/2, ``"1e400"`` is exact, ``"2/3"`` too.

    Floats are converted by their shortest decimal repr (``0.1`` means 1/10). Every
    number is held to the budget of :mod:`boundcalc.expr.numbers` (digits, exponent
    size, magnitude) *before* it is converted; a number outside it is refused in one
    line naming ``where``.
    """
    if isinstance(text, bool):
        raise ExpressionError(f"{where}: expected a number, got {text!r}")
    if type(text).__module__ == "numpy" and hasattr(text, "item"):   # NumPy scalars
        text = text.item()
    if isinstance(text, Fraction):
        return check_budget(text, where=where)
    if isinstance(text, int):
        return check_budget(Fraction(text), where=where)
    if isinstance(text, float):
        if not math.isfinite(text):
            raise ExpressionError(f"{where}: expected a finite number, got {text!r}")
        value = decimal(repr(text), where=where)
        assert value is not None, text           # repr of a finite float is a decimal literal
        return value
    if not isinstance(text, str):
        raise ExpressionError(f"{where}: expected a number, got a {type(text).__name__}")
    s = text.strip()
    if not s:
        raise ExpressionError(f"{where}: expected a number, got an empty string")
    x = decimal(s, where=where)
    if x is not None:
        return x
    m = _RATIO.match(s)
    if m:
        num, den = decimal(m.group(1), where=where), decimal(m.group(2), where=where)
        if num is None or den is None:
            raise ExpressionError(f"{where}: {_short(text)} is not a number")
        if den == 0:
            raise ExpressionError(f"{where}: {text!r} divides by zero")
        return check_budget(num / den, where=where, text=s)
    # allow a constant expression such as "2**100" or "sqrt(2)" only if rational-exact
    from .exact import NotExact, evaluate_exact
    try:
        node = parse(s, allow_relation=False, where=where)
    except ExpressionError as e:
        if "far outside" in str(e) or "digits; the limit" in str(e) or "far too large" in str(e):
            raise
        raise ExpressionError(f"{where}: {_short(text)} is not a number") from None
    if node.symbols() or node.refs():
        raise ExpressionError(f"{where}: {_short(text)} is not a number")
    try:
        return check_budget(evaluate_exact(node, {}), where=where, text=s)
    except NotExact:
        raise ExpressionError(f"{where}: {_short(text)} is not an exact rational number") from None
    except ZeroDivisionError:
        raise ExpressionError(f"{where}: {_short(text)} divides by zero") from None
    except (OverflowError, MemoryError, ValueError) as e:
        raise ExpressionError(f"{where}: {_short(text)} is too large to evaluate exactly "
                              f"({type(e).__name__})") from None


_RATIO = re.compile(r"^\s*([+-]?[0-9.]+(?:[eE][+-]?\d+)?)\s*/\s*([+-]?[0-9.]+(?:[eE][+-]?\d+)?)\s*$")


def _short(text) -> str:
    s = str(text)
    return repr(s) if len(s) <= 60 else repr(s[:40] + "...") + f" ({len(s)} characters)"
