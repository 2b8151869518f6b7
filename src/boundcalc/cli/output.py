"""Printing helpers: JSON for scripts, rich for people."""
from __future__ import annotations

import json
import os
import sys

from ..paths import user_path


def _default(o):
    """json.dumps's fallback (:func:`boundcalc.reports.printers.json.default`), imported on use."""
    from ..reports.printers.json import default
    return default(o)


# ---------------------------------------------------------------------------- non-UTF-8 streams
# Symbols with a usual ASCII spelling; every other character: its LaTeX macro name from
# reports.latex.UNICODE_MATH (theta, Sigma, otimes ...), or its NFKD letters (e, 2), or "<U+" and its
# four-digit hex code point.
_ASCII = {"≤": "<=", "≥": ">=", "≠": "!=", "≈": "~=", "≲": "<~", "≳": ">~", "≪": "<<", "≫": ">>",
          "∼": "~", "≃": "~=", "≡": "==", "×": "x", "·": "*", "∘": "o", "−": "-", "±": "+/-",
          "∓": "-/+", "÷": "/", "∞": "inf", "√": "sqrt", "→": "->", "←": "<-", "↦": "|->",
          "⇒": "=>", "⇔": "<=>", "‖": "||", "∥": "||", "⟨": "<", "⟩": ">", "…": "...", "⋯": "...",
          "—": "--", "–": "-", "“": '"', "”": '"', "‘": "'", "’": "'", "′": "'", "•": "*", "★": "*",
          "⋆": "*", "◀": "<", "▶": ">", "§": "Sec.", "°": "deg", "\u00a0": " ", "\u200b": "",
          "\ufeff": "", "ᵀ": "^T", "⁻": "^-", "⁺": "^+", "²": "^2", "³": "^3", "¹": "^1", "⁴": "^4",
          "€": "EUR", "ℝ": "R", "ℕ": "N", "ℤ": "Z", "ℚ": "Q", "\u0304": "-bar", "\u0305": "-bar",
          "\u0303": "-tilde", "\u0302": "-hat"}


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-")


def to_ascii(text: str) -> str:
    """``text`` in ASCII, every symbol spelled out (``θ ≤ √2`` -> ``theta <= sqrt2``): what
    a non-UTF-8 stream (``PYTHONIOENCODING=ascii``, a C locale) prints instead of failing."""
    import re
    import unicodedata
    # a run of superscripts is one exponent: 10¹² -> 10^12 (char by char it read 10^1^2, and
    # NFKD turned 10⁵ into 105)
    text = re.sub("[⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻]+", lambda m: "^" + m.group().translate(_SUPERSCRIPTS), str(text))
    out = []
    for ch in text:
        if ord(ch) < 128:
            out.append(ch)
        elif ch in _ASCII:
            out.append(_ASCII[ch])
        else:
            from ..reports.latex import UNICODE_MATH
            if ch in UNICODE_MATH and UNICODE_MATH[ch].lstrip("\\").isalpha():
                out.append(UNICODE_MATH[ch].lstrip("\\"))
                continue
            plain = "".join(c for c in unicodedata.normalize("NFKD", ch)
                            if ord(c) < 128 and not unicodedata.combining(c))
            out.append(plain or f"<U+{ord(ch):04X}>")
    return "".join(out)


def _ascii_errors(exc):
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    return to_ascii(exc.object[exc.start:exc.end]), exc.end


def ascii_fallback(*streams) -> None:
    """Make ``streams`` (default stdout and stderr) spell out, as :func:`to_ascii` does,
    every character their encoding cannot encode, instead of raising UnicodeEncodeError.
    Installed once by the CLI's ``main``; rich writes through these streams (and draws its
    tables with ASCII borders on a non-UTF-8 one)."""
    import codecs
    try:
        codecs.lookup_error("boundcalc-ascii")
    except LookupError:
        codecs.register_error("boundcalc-ascii", _ascii_errors)
    for stream in streams or (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(errors="boundcalc-ascii")
            except (ValueError, OSError):      # a closed or detached stream: leave it
                pass


def emit_json(data) -> None:
    sys.stdout.write(json.dumps(data, indent=2, default=_default) + "\n")


def console():
    """A rich console; when output is not a terminal (a pipe, a file), a wide fixed
    width so that tables are not folded for scripts and logs."""
    from rich.console import Console

    class _Console(Console):
        def on_broken_pipe(self) -> None:      # rich exits 1; the CLI's main decides (141)
            self.quiet = True
            raise BrokenPipeError("standard output was closed")

        def _render_buffer(self, buffer) -> str:
            # the last line of defence: text that reached a renderable unescaped still shows its
            # control characters (ESC, BEL, CR, C1) as visible escapes; rich's own styling
            # and cursor codes are added after this, and its control segments pass
            from rich.segment import Segment

            from ..reports.escape import visible_controls
            return super()._render_buffer(
                s if s.control else Segment(visible_controls(s.text), s.style, s.control) for s in buffer)
    width = None if sys.stdout.isatty() else 200
    cols = os.environ.get("COLUMNS", "")
    if cols.isdigit() and 20 <= int(cols) <= 1000:    # an explicit width wins (COLUMNS=80 ...)
        width = int(cols)
    return _Console(highlight=False, soft_wrap=True, width=width)


def table(title: str, columns: list[str]):
    """A rich table with a left-justified title (:func:`..reports.printers.rich.simple_table`)."""
    from ..reports.printers.rich import simple_table
    return simple_table(title, columns)


# ---------------------------------------------------------------------------- output paths
def refuse_stdout_figures(flag: str, p) -> None:
    """Figures are files (PNG and PDF): ``-`` means standard output only for --output."""
    if p is not None and is_stdout(p):
        from ..errors import BoundcalcError
        raise BoundcalcError(f"{flag} -: figures are written as PNG and PDF files and cannot go to "
                             "standard output; give a file name")


def check_outputs(outputs: list[tuple[str, object]], *, force: bool = False) -> list:
    """Validate every output path of one run BEFORE any work starts.

    ``outputs`` is ``[(flag, path), ...]`` (a path may be None: skipped). For each: the
    nearest existing ancestor is a folder we can create files in (a missing parent is
    created when written), an existing target is a regular file and is only replaced
    with ``force``, a new target can really be created (probed by creating and removing
    it: /proc, read-only mounts ...), and no two outputs of the run name the same file.
    ``-`` is standard output (:func:`write_output`) and is not checked.
    Returns the resolved paths; raises one BoundcalcError naming the flag and the path."""
    import stat
    from pathlib import Path

    from ..errors import BoundcalcError
    seen: dict = {}
    out, existing = [], []
    for flag, p in outputs:
        if p is None or is_stdout(p):
            continue
        path = user_path(p)
        if str(p).endswith(("/", os.sep)) or path.name in ("", ".", ".."):
            raise BoundcalcError(f"{flag} {str(p)!r} names a folder; give a file name")
        real = Path(os.path.abspath(path))
        try:
            real = real.parent.resolve() / real.name
        except OSError:
            pass
        if real in seen:
            raise BoundcalcError(f"{flag} {str(p)!r} is the same file as {seen[real]} of this run; "
                                 "give each output its own file")
        seen[real] = f"{flag} {str(p)!r}"
        anc = real.parent
        while not os.path.lexists(anc) and anc != anc.parent:
            anc = anc.parent
        if not anc.is_dir():
            raise BoundcalcError(f"{flag} {str(p)!r}: {str(anc)!r} is not a folder")
        if not os.access(anc, os.W_OK | os.X_OK):
            raise BoundcalcError(f"{flag} {str(p)!r}: folder {str(anc)!r} is not writable")
        if os.path.lexists(real):
            try:
                st = os.stat(real)
            except OSError as e:
                raise BoundcalcError(f"{flag} {str(p)!r}: {e.strerror}") from None
            if stat.S_ISDIR(st.st_mode):
                raise BoundcalcError(f"{flag} {str(p)!r} is a folder; give a file name")
            if not stat.S_ISREG(st.st_mode):
                from ..registry.files import file_kind
                raise BoundcalcError(f"{flag} {str(p)!r} is {file_kind(st.st_mode)}, not a regular file")
            if not force:
                existing.append((flag, str(p)))
            elif not os.access(real, os.W_OK):
                raise BoundcalcError(f"{flag} file {str(p)!r} is not writable")
        elif anc == real.parent:
            try:                                  # the real test: can the file be created here?
                fd = os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                os.close(fd)
                os.unlink(real)
            except OSError as e:
                raise BoundcalcError(f"{flag} {str(p)!r} cannot be created: {e.strerror}") from None
        else:                                     # a missing parent: can it be created?
            first = real.parent
            while first.parent != anc:
                first = first.parent
            try:
                os.mkdir(first)
                os.rmdir(first)
            except OSError as e:
                raise BoundcalcError(f"{flag} {str(p)!r}: folder {str(first)!r} cannot be created: "
                                     f"{e.strerror}") from None
        out.append(real)
    if existing:
        names = ", ".join(f"{f} {p!r}" for f, p in existing)
        raise BoundcalcError(f"{names} already exist{'s' if len(existing) == 1 else ''}; "
                             "use --force to overwrite")
    return out


STDOUT = "-"


def is_stdout(path) -> bool:
    """``--output -`` means standard output (the usual convention), for every command."""
    return isinstance(path, str) and path.strip() == STDOUT


def write_output(output, text: str, *, what: str = "output") -> None:
    """Write ``text`` to the --output path (validated by :func:`check_outputs` before the
    work), to standard output for ``-``, and say where on stderr."""
    if output is None or is_stdout(output):
        sys.stdout.write(text)
        return
    out = user_path(output)
    write_text(out, text)
    print(f"{what} written: {out}", file=sys.stderr)


def write_text(path, text: str) -> None:
    """Write a validated output (creating missing parent folders)."""
    from pathlib import Path
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
