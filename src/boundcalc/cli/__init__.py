"""The command line: a thin typer layer over the Python API (see ``app``).

Whatever goes wrong ends as ONE line on stderr, never a traceback: a
:class:`~boundcalc.errors.BoundcalcError` (bad input) or a usage error exits 2; running
out of memory or recursion depth exits 2 with what happened; anything else is a bug in
boundcalc and exits 1 with its type and message (``BOUNDCALC_DEBUG=1`` shows the
traceback).
"""
from __future__ import annotations

import os
import sys


def _one_line(msg: str, limit: int = 600) -> str:
    s = " ".join(str(msg).split())
    return s if len(s) <= limit else s[:limit - 3] + "..."


def main() -> None:
    from ..errors import BoundcalcError
    from .app import app, hoist_global_options, usage_error
    from typer._click.exceptions import UsageError
    from .output import ascii_fallback
    ascii_fallback()                  # a non-UTF-8 stdout/stderr spells symbols out (<=, theta, sqrt)
    debug = os.environ.get("BOUNDCALC_DEBUG", "") not in ("", "0")
    try:
        rv = app(args=hoist_global_options(sys.argv[1:]), standalone_mode=False)
    except BoundcalcError as e:
        print(f"error: {_one_line(e)}", file=sys.stderr)
        sys.exit(2)
    except UsageError as e:           # typer's usage errors: one line, exit 2 (not a 5-line box)
        sys.exit(usage_error(e))
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)
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
        raise
    except Exception as e:            # a bug: still one line (BOUNDCALC_DEBUG=1 for the traceback)
        if debug:
            raise
        print(f"error: internal error, a bug in boundcalc ({type(e).__name__}: {_one_line(e, 300)}); "
              "rerun with BOUNDCALC_DEBUG=1 for the traceback", file=sys.stderr)
        sys.exit(1)
    if isinstance(rv, int) and rv:
        sys.exit(rv)
