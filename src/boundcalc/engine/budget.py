"""Guards for the NumPy engine: a memory budget, divergence, and NumPy's warnings.

- **Memory.** Each engine model estimates the bytes a configuration needs
  (``memory_estimate(config)`` in the paper's engine module) and calls
  :func:`check_memory` before it allocates; ``compare`` and every reproduction do. The budget is half the machine's available
  memory (``MemAvailable``), or ``--max-memory`` / ``$BOUNDCALC_MAX_MEMORY`` (``512M``,
  ``4G``, a number of bytes). A configuration over it is refused in one line that names
  both sizes.
- **Divergence.** A training loop calls :func:`check_finite` on its loss/iterate; a
  non-finite value raises :class:`Divergence` carrying the step, and the experiment
  shows "diverged at step k" instead of ``inf``.
- **Warnings.** :func:`numpy_quiet` runs a block with NumPy's floating-point warnings
  captured; :func:`warning_summary` gives one line about them (never printed raw).
"""
from __future__ import annotations

import contextlib
import os
import re

from ..errors import BoundcalcError

ENV_VAR = "BOUNDCALC_MAX_MEMORY"
_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}


def parse_size(text, *, where: str = "--max-memory") -> int:
    """``'512M'``, ``'4G'``, ``'1.5g'``, ``'1000000'`` -> bytes (positive)."""
    m = re.fullmatch(r"\s*(\d{1,15}(?:\.\d{1,6})?)\s*([kmgt]?)(?:i?b)?\s*", str(text).lower())
    if not m:
        raise BoundcalcError(f"{where}: expected a size such as 512M, 4G or a number of bytes, got {text!r}")
    n = int(float(m.group(1)) * _UNITS[m.group(2)])
    if n <= 0:
        raise BoundcalcError(f"{where}: the size must be positive, got {text!r}")
    return n


def fmt_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB"):
        if abs(n) < 1024 or unit == "PiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} EiB"


def available_memory() -> int:
    """Bytes of available memory (MemAvailable on Linux; physical pages elsewhere)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 4 * 1024 ** 3


def memory_budget() -> tuple[int, str]:
    """(bytes, where it comes from)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return parse_size(env, where=f"--max-memory (${ENV_VAR})"), f"--max-memory {env}"
    return available_memory() // 2, "half the available memory; --max-memory to change"


def check_memory(nbytes: float, what: str) -> None:
    """Refuse ``what`` if it needs more than the budget, in one line naming both sizes."""
    budget, src = memory_budget()
    if nbytes > budget:
        raise BoundcalcError(f"{what} needs about {fmt_bytes(nbytes)} of memory, above the budget of "
                             f"{fmt_bytes(budget)} ({src}); use smaller sizes")


class Divergence(Exception):
    """A training run produced a non-finite loss or iterate at ``step``; ``where`` names the
    run (a sweep adds its configuration).  Pickles with its fields, so a worker process's
    divergence reaches the parent intact."""

    def __init__(self, step: int, what: str = "loss", where: str = ""):
        super().__init__(f"{where + ' ' if where else ''}diverged at step {step} (non-finite {what})")
        self.step = step
        self.what = what
        self.where = where

    def __reduce__(self):
        return (type(self), (self.step, self.what, self.where))


def check_finite(step: int, **values) -> None:
    """Raise :class:`Divergence` if any of ``values`` (numbers or arrays) is not finite."""
    import numpy as np
    for name, v in values.items():
        if not np.all(np.isfinite(v)):
            raise Divergence(step, name)


class _Caught:
    def __init__(self):
        self.counts: dict[str, int] = {}

    def add(self, w) -> None:
        key = f"{w.category.__name__}: {str(w.message).split(' encountered')[0]}"
        self.counts[key] = self.counts.get(key, 0) + 1

    def summary(self) -> str:
        if not self.counts:
            return ""
        parts = [f"{msg} (x{n})" for msg, n in sorted(self.counts.items())]
        return "NumPy reported " + "; ".join(parts)


@contextlib.contextmanager
def numpy_quiet():
    """Capture NumPy's floating-point RuntimeWarnings inside the block; the yielded
    object's ``summary()`` is one line about them ('' when there were none)."""
    import warnings
    caught = _Caught()
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always", RuntimeWarning)
        try:
            yield caught
        finally:
            for w in ws:
                if issubclass(w.category, RuntimeWarning):
                    caught.add(w)
                else:
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
