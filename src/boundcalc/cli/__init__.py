"""The command line: a thin typer layer over the Python API (see ``app``)."""
from __future__ import annotations

import sys


def main() -> None:
    from ..errors import BoundcalcError
    from .app import app
    try:
        app()
    except BoundcalcError as e:
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
