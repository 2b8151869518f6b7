"""The command line: a thin typer layer over the Python API (see ``app``).

Whatever goes wrong ends as ONE line on stderr, never a traceback: a
:class:`~boundcalc.errors.BoundcalcError` (bad input) or a usage error exits 2; running
out of memory or recursion depth exits 2 with what happened; anything else is a bug in
boundcalc and exits 1 with its type and message (``BOUNDCALC_DEBUG=1`` shows the
traceback).

Ctrl-C (SIGINT) prints ``error: interrupted`` and exits 130. A closed pipe on standard
output (``boundcalc show ID | head -1``) ends quietly with status 141 = 128 + SIGPIPE, what
``cat``, ``grep`` or ``yes`` give in the same pipeline (as the Python docs recommend,
standard output is pointed at /dev/null so that the interpreter's final flush is silent).
"""
from __future__ import annotations

import os
import sys

__all__ = ["EXIT_BROKEN_PIPE", "EXIT_INTERRUPTED", "main"]


def _one_line(msg: object, limit: int = 600) -> str:
    """The message on one line of at most ``limit`` characters, its control characters shown
    as text (a file's text never drives the terminal); a longer one loses its middle (a long
    path it names), not its end (the reason: "File name too long")."""
    from ..reports.escape import terminal
    s = " ".join(terminal(msg, markup=False).split())
    if len(s) <= limit:
        return s
    head = (limit - 3) * 2 // 3
    return s[:head] + "..." + s[len(s) - (limit - 3 - head):]


EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141          # 128 + SIGPIPE


def _stdout_to_devnull() -> None:
    """After a broken pipe: further writes (the final flush) go to /dev/null (Python docs,
    'Note on SIGPIPE')."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _catch_sigint():
    """Record a SIGINT before Python turns it into KeyboardInterrupt (typer turns that into a
    silent exit 130; the record lets main say so). Not installed where SIGINT is ignored.
    Returns (the record, a function restoring the previous handler)."""
    import signal
    seen: list = []
    try:
        prev = signal.getsignal(signal.SIGINT)
        if prev is signal.default_int_handler:
            def on_sigint(signum, frame):
                seen.append(signum)
                signal.default_int_handler(signum, frame)
            signal.signal(signal.SIGINT, on_sigint)
            return seen, lambda: signal.signal(signal.SIGINT, prev)
    except (ValueError, OSError):      # not the main thread: leave the handler alone
        pass
    return seen, lambda: None


def main() -> None:
    """The ``boundcalc`` command (the entry point of pyproject.toml's scripts)."""
    interrupted, restore = _catch_sigint()
    try:
        _main(interrupted)
    except KeyboardInterrupt:         # before or after the command ran (imports, exit)
        print("error: interrupted", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    finally:
        restore()


_FROZEN: list = []


def _imports_without_gc():
    """The command line's modules, imported with the cyclic garbage collector paused; what
    they created is then moved out of its generations (:func:`gc.freeze`, once per process),
    so the collections the command itself triggers do not re-scan every module object
    (a tenth of ``require-heads``' CPU time). The collector runs as usual afterwards."""
    import gc
    paused = gc.isenabled() and not _FROZEN
    if paused:
        gc.disable()
    try:
        from typer._click.exceptions import UsageError

        from .app import app, hoist_global_options, usage_error
    finally:
        if paused:
            gc.freeze()
            _FROZEN.append(True)
            gc.enable()
    return UsageError, app, hoist_global_options, usage_error


def _main(interrupted: list) -> None:
    UsageError, app, hoist_global_options, usage_error = _imports_without_gc()

    from ..errors import BoundcalcError
    from .output import ascii_fallback
    ascii_fallback()                  # a non-UTF-8 stdout/stderr spells symbols out (<=, theta, sqrt)
    debug = os.environ.get("BOUNDCALC_DEBUG", "") not in ("", "0")
    try:
        rv = app(args=hoist_global_options(sys.argv[1:]), standalone_mode=False)
        sys.stdout.flush()            # a closed pipe shows here, not in the interpreter's exit
    except BrokenPipeError:
        _stdout_to_devnull()
        sys.exit(EXIT_BROKEN_PIPE)
    except BoundcalcError as e:
        print(f"error: {_one_line(e)}", file=sys.stderr)
        sys.exit(2)
    except UsageError as e:           # typer's usage errors: one line, exit 2 (not a 5-line box)
        sys.exit(usage_error(e))
    except KeyboardInterrupt:
        interrupted.append(True)
        rv = EXIT_INTERRUPTED
    except MemoryError as e:
        if debug:
            raise
        print(f"error: out of memory ({_one_line(e) or 'MemoryError'}); use smaller sizes or see "
              "--max-memory", file=sys.stderr)
        sys.exit(2)
    except RecursionError:
        if debug:
            raise
        print("error: the input is nested too deeply to process", file=sys.stderr)
        sys.exit(2)
    except SystemExit:
        from typer._click.utils import PacifyFlushWrapper
        if isinstance(sys.stdout, PacifyFlushWrapper):   # typer's own broken-pipe exit (status 1)
            _stdout_to_devnull()
            sys.exit(EXIT_BROKEN_PIPE)
        raise
    except Exception as e:            # a bug: still one line (BOUNDCALC_DEBUG=1 for the traceback)
        if debug:
            raise
        print(f"error: internal error, a bug in boundcalc ({type(e).__name__}: {_one_line(e, 300)}); "
              "rerun with BOUNDCALC_DEBUG=1 for the traceback", file=sys.stderr)
        sys.exit(1)
    if interrupted:
        print("error: interrupted", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    if isinstance(rv, int) and rv:
        sys.exit(rv)
