"""Opening a formula file: only a regular file within the size cap, read as UTF-8 text.

Kept apart from :mod:`.loader` (which parses and validates) so that the registry can check
and read a file -- and hash it, for its cache (:mod:`.cache`) -- without importing the
parser and the validators.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import FormulaFileError

__all__ = ["MAX_FILE_BYTES", "check_formula_file", "file_kind", "read_formula_text"]

#: the largest formula file read (the packaged ones are under 100 kB)
MAX_FILE_BYTES = 2 * 1024 * 1024
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def file_kind(mode: int) -> str:
    """What a path that is not a regular file is (``a folder``, ``a socket``), for messages."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB"


def check_formula_file(path: str | Path) -> Path:
    """``path`` if it is a regular file (symlinks followed) of at most MAX_FILE_BYTES;
    otherwise one error naming the file and what it is. Nothing is opened."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise FormulaFileError(f"formula file {str(path)!r} does not exist") from None
    except OSError as e:
        raise FormulaFileError(f"formula file {str(path)!r} cannot be read: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        raise FormulaFileError(f"formula file {str(path)!r} is {file_kind(st.st_mode)}, not a regular file")
    if st.st_size > MAX_FILE_BYTES:
        raise FormulaFileError(f"formula file {str(path)!r} is {_mb(st.st_size)}, above the "
                               f"{_mb(MAX_FILE_BYTES)} limit for formula files")
    return path


def read_formula_text(path: Path) -> str:
    """The text of a formula file: only a regular file is opened (non-blocking, so a
    FIFO swapped in after the check cannot hang), and at most MAX_FILE_BYTES are read."""
    check_formula_file(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise FormulaFileError(f"cannot read formula file {path}: {e.strerror}") from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FormulaFileError(f"formula file {str(path)!r} is not a regular file")
        raw = fh.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise FormulaFileError(f"formula file {str(path)!r} is larger than the "
                               f"{_mb(MAX_FILE_BYTES)} limit for formula files")
    if b"\x00" in raw:
        raise FormulaFileError(f"{path.name}: a binary file (NUL bytes), not a TOML text file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FormulaFileError(f"{path.name}: not a UTF-8 text file") from None
