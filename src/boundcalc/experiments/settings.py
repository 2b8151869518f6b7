"""Experiment settings as given on the command line (strings) or from Python: conversion
to the defaults' types, validation, and errors that name the option (``--name``)."""
from __future__ import annotations

import math
from typing import NoReturn

import numpy as np

from ..errors import BoundcalcError


def option(name: str) -> str:
    return "--" + name.replace("_", "-")


def bad(name: str, msg: str) -> NoReturn:
    raise BoundcalcError(f"option {option(name)}: {msg}")


def as_int(name: str, v) -> int:
    if isinstance(v, bool):
        bad(name, f"expected an integer, got {v!r}")
    try:
        f = float(v.strip() if isinstance(v, str) else v)
    except (TypeError, ValueError):
        bad(name, f"expected an integer, got {v!r}")
    if not math.isfinite(f) or f != int(f):
        bad(name, f"expected an integer, got {v!r}")
    return int(f)


def as_int_list(name: str, v) -> list[int]:
    """Integers from a sequence or from a comma-separated string ('8,16,32', from the CLI)."""
    if isinstance(v, str):
        v = [t for t in v.replace(" ", "").split(",") if t]
    try:
        out = [as_int(name, t) for t in v]
    except TypeError:
        bad(name, f"expected a comma-separated list of integers, got {v!r}")
    if not out:
        bad(name, "expected a non-empty comma-separated list of integers")
    return out


def as_float(name: str, v) -> float:
    if isinstance(v, bool):
        bad(name, f"expected a number, got {v!r}")
    try:
        f = float(v.strip() if isinstance(v, str) else v)
    except (TypeError, ValueError):
        bad(name, f"expected a number, got {v!r}")
    if not math.isfinite(f):
        bad(name, f"expected a finite number, got {v!r}")
    return f


def as_bool(name: str, v) -> bool:
    if isinstance(v, bool):
        return v
    s = str(v).strip().lower()
    if s in ("1", "true", "yes", "on"):
        return True
    if s in ("0", "false", "no", "off"):
        return False
    bad(name, f"expected true/false, got {v!r}")


def convert(name: str, raw, default):
    """``raw`` converted to the type of ``default`` (bool, int, float; else str)."""
    if isinstance(default, bool):
        return as_bool(name, raw)
    if isinstance(default, int):
        return as_int(name, raw)
    if isinstance(default, float):
        return as_float(name, raw)
    return str(raw)


def check_known(settings: dict, known: dict, what: str) -> None:
    for k in settings:
        if k.replace("-", "_") not in known:
            raise BoundcalcError(f"unknown option {option(k)} for {what}; options are: "
                                 + ", ".join(option(s) for s in known))


def parse(spec: dict, settings: dict, what: str = "this experiment") -> dict:
    """Defaults of ``spec`` (name -> (default, help)) overridden by ``settings`` (names may
    use hyphens), each converted to its default's type."""
    check_known(settings, spec, what)
    out = {k: v[0] for k, v in spec.items()}
    for key, raw in settings.items():
        name = key.replace("-", "_")
        out[name] = convert(name, raw, spec[name][0])
    return out


def require(cond: bool, name: str, what: str, value) -> None:
    if not cond:
        bad(name, f"must be {what}, got {value!r}")


def derive_seed(*parts: int) -> int:
    """A 32-bit seed derived from integers (SeedSequence: distinct parts, independent streams)."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0])


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise BoundcalcError(f"option --seed: must be a non-negative integer, got {seed!r}")
    return int(seed)
