"""Whitelist parser: text -> expression tree, without ever executing anything.

The text is parsed by :func:`ast.parse` (which only builds a syntax tree) and every
node of that tree is checked against a short whitelist; anything else -- calls of
unknown functions, attributes, subscripts, strings, lambdas, keywords -- is
rejected with an error naming what was found and where.
"""
from __future__ import annotations

import ast
import re
from fractions import Fraction

from ..errors import ExpressionError
from .nodes import Add, Const, Func, Mul, Node, Num, Pow, Ref, Rel, Sym
from .numbers import check_budget, decimal

#: function name -> allowed argument counts (None: any count >= 2)
FUNCTIONS: dict[str, tuple[int, ...] | None] = {
    "sqrt": (1,), "exp": (1,), "log": (1, 2), "min": None, "max": None, "abs": (1,),
    "floor": (1,), "ceil": (1,), "sin": (1,), "cos": (1,), "tan": (1,), "tanh": (1,),
    "atan": (1,), "erf": (1,),
}
CONSTANTS = {"pi", "E"}
MAX_LENGTH = 4000
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def reserved(name: str) -> str | None:
    """Why ``name`` cannot name a symbol or a formula (the parser would not read it as
    one), or None: the constants, the function names and Python's keywords."""
    import keyword
    if name in CONSTANTS:
        return f"{name!r} is reserved: it is the constant {name} of the expression language"
    if name in FUNCTIONS:
        return f"{name!r} is reserved: it is the function {name}() of the expression language"
    if keyword.iskeyword(name):
        return f"{name!r} is reserved: it is a Python keyword, which an expression cannot use as a name"
    return None
_CMP = {ast.LtE: "<=", ast.GtE: ">=", ast.Lt: "<", ast.Gt: ">", ast.Eq: "=="}
_NUMBER = re.compile(r"^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def parse(text: str, *, allow_relation: bool = True, where: str = "expression") -> Node:
    """Parse ``text`` into a :class:`Node`; raise :class:`ExpressionError` naming ``where``."""
    if not isinstance(text, str):
        raise ExpressionError(f"{where}: expected a string expression, got {type(text).__name__}")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"{where}: expression longer than {MAX_LENGTH} characters")
    if "^" in text:
        raise ExpressionError(f"{where}: '^' is not allowed; write powers as '**'")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as e:
        raise ExpressionError(f"{where}: syntax error in {text!r}: {e.msg}") from None
    except (RecursionError, MemoryError, ValueError):
        raise ExpressionError(f"{where}: expression too deeply nested or invalid: {text!r}") from None
    conv = _Converter(text, where)
    try:
        node = conv.convert(tree.body, top=True)
    except RecursionError:
        raise ExpressionError(f"{where}: expression too deeply nested") from None
    if isinstance(node, Rel) and not allow_relation:
        raise ExpressionError(f"{where}: a value was expected, not a relation: {text!r}")
    return node


class _Converter:
    def __init__(self, text: str, where: str):
        self.text = text
        self.where = where

    def fail(self, node: ast.AST, what: str) -> ExpressionError:
        seg = ast.get_source_segment(self.text.strip(), node) or ""
        return ExpressionError(f"{self.where}: {what} is not allowed in a formula ({seg!r} in {self.text!r})")

    def convert(self, n: ast.AST, top: bool = False) -> Node:
        if isinstance(n, ast.Compare):
            if not top:
                raise self.fail(n, "a comparison inside an expression")
            if len(n.ops) != 1 or type(n.ops[0]) not in _CMP:
                raise self.fail(n, "a chained or non-numeric comparison")
            return Rel(_CMP[type(n.ops[0])], self.convert(n.left), self.convert(n.comparators[0]))
        if isinstance(n, ast.BinOp):
            a, b = self.convert(n.left), self.convert(n.right)
            op = type(n.op)
            if op is ast.Add:
                return Add((a, b))
            if op is ast.Sub:
                return Add((a, Mul((Num(Fraction(-1)), b))))
            if op is ast.Mult:
                return Mul((a, b))
            if op is ast.Div:
                return Mul((a, Pow(b, Num(Fraction(-1)))))
            if op is ast.Pow:
                return Pow(a, b)
            raise self.fail(n, f"the operator {op.__name__}")
        if isinstance(n, ast.UnaryOp):
            if isinstance(n.op, ast.USub):
                inner = self.convert(n.operand)
                if isinstance(inner, Num):
                    return Num(-inner.value)
                return Mul((Num(Fraction(-1)), inner))
            if isinstance(n.op, ast.UAdd):
                return self.convert(n.operand)
            raise self.fail(n, f"the operator {type(n.op).__name__}")
        if isinstance(n, ast.Constant):
            if isinstance(n.value, bool) or not isinstance(n.value, (int, float)):
                raise self.fail(n, f"a {type(n.value).__name__} literal")
            seg = ast.get_source_segment(self.text.strip(), n) or repr(n.value)
            if not _NUMBER.match(seg):
                raise self.fail(n, "this number format")
            return Num(decimal(seg, where=self.where))
        if isinstance(n, ast.Name):
            if n.id in CONSTANTS:
                return Const(n.id)
            if n.id in FUNCTIONS:
                raise self.fail(n, f"the function name {n.id!r} used as a value")
            return Sym(n.id)
        if isinstance(n, ast.Attribute):
            if isinstance(n.value, ast.Name) and _NAME.match(n.attr) and not n.attr.startswith("_"):
                return Ref(n.value.id, n.attr)
            raise self.fail(n, "attribute access")
        if isinstance(n, ast.Call):
            if not isinstance(n.func, ast.Name) or n.func.id not in FUNCTIONS:
                raise self.fail(n, "calling anything but " + ", ".join(sorted(FUNCTIONS)))
            if n.keywords or any(isinstance(a, ast.Starred) for a in n.args):
                raise self.fail(n, "keyword or starred arguments")
            allowed = FUNCTIONS[n.func.id]
            k = len(n.args)
            if (allowed is None and k < 1) or (allowed is not None and k not in allowed):
                raise self.fail(n, f"{n.func.id} with {k} argument(s)")
            return Func(n.func.id, tuple(self.convert(a) for a in n.args))
        raise self.fail(n, type(n).__name__)


def parse_number(text: str | int | float | Fraction, *, where: str = "value") -> Fraction:
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
        if text != text or text in (float("inf"), float("-inf")):
            raise ExpressionError(f"{where}: expected a finite number, got {text!r}")
        return decimal(repr(text), where=where)
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
    from ..backends.exact import evaluate_exact, NotExact
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
