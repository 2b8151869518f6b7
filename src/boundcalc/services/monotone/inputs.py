"""The input of :func:`boundcalc.services.monotone.monotone`, checked before anything is
proved: ``--set`` values and ``--box`` ranges (one-line errors naming the culprit)."""
from __future__ import annotations

import math

from ...errors import BoundcalcError
from ...expr.nodes import BigOp, Indexed, Node
from ...expr.parser import parse_number


def _fixed_values(given: dict, table: dict, fid: str) -> dict:
    """``--set`` values: exact numbers, or for an indexed symbol a list (``s=1,2,0.5``), each
    in its symbol's domain, the lists as long as their ranges (one-line errors)."""
    from ...registry.indexed import check_lengths
    from ...registry.values import is_vector, vector_value
    out: dict = {}
    for k, v in given.items():
        if k not in table:
            raise BoundcalcError(f"unknown symbol {k!r} for {fid}")
        if table[k].is_indexed and is_vector(v):
            out[k] = vector_value(table[k], k, v)
            for x in out[k].values:
                table[k].domain.check(k, x)
        else:
            out[k] = parse_number(v, where=f"--set {k}")
            table[k].domain.check(k, out[k])
    check_lengths(table, out)
    return out


def _has_big(node: Node) -> bool:
    return any(isinstance(n, (BigOp, Indexed)) for n in node.unique_nodes())


def _check_box(box, table, fixed, symbols) -> dict:
    """Validate --box before anything is proved: unknown names, garbage, reversed or empty
    ranges and ranges outside the symbol's domain are errors."""
    out = {}
    for n, v in (box or {}).items():
        if n not in table or n not in symbols:
            raise BoundcalcError(f"--box {n}: {n!r} is not a symbol of this formula")
        if n in fixed:
            raise BoundcalcError(f"--box {n}: {n} is also fixed by --set")
        a, b = (parse_number(x, where=f"--box {n}") for x in v)
        if a > b:
            raise BoundcalcError(f"--box {n}: reversed range [{a}, {b}] (lo must be <= hi)")
        for x in (a, b):
            if not table[n].domain.contains(x):
                raise BoundcalcError(f"--box {n}: {x} is outside the domain of {n} ({n} {table[n].domain.describe()})")
        if table[n].domain.integer and math.floor(b) < math.ceil(a):
            raise BoundcalcError(f"--box {n}: [{a}, {b}] contains no integer, but {n} is an integer")
        out[n] = (a, b)
    return out
