"""User-given paths: ``~`` expanded like a shell does, never an exception."""
from __future__ import annotations

from pathlib import Path


def user_path(p) -> Path:
    """``Path(p).expanduser()``, except that a ``~user`` that cannot be expanded (an
    unknown user, no home directory) stays literal, as in a shell."""
    try:
        return Path(p).expanduser()
    except (RuntimeError, KeyError, OSError):
        return Path(p)
