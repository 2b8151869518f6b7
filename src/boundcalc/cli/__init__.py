"""The command line: a thin typer layer over the Python API (see ``app``)."""
from __future__ import annotations

import sys


def main() -> None:
    from ..errors import BoundcalcError
    from .app import app, hoist_global_options, usage_error
    from typer._click.exceptions import UsageError
    try:
        rv = app(args=hoist_global_options(sys.argv[1:]), standalone_mode=False)
    except BoundcalcError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
    except UsageError as e:           # typer's usage errors: one line, exit 2 (not a 5-line box)
        sys.exit(usage_error(e))
    if isinstance(rv, int) and rv:
        sys.exit(rv)
