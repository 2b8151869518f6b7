import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # tests/support.py

# Tests use the packaged formula files only, whatever the developer's environment says.
os.environ.pop("BOUNDCALC_FORMULAS", None)
os.environ.pop("BOUNDCALC_BUILTIN", None)


@pytest.fixture
def write_formula_file(tmp_path):
    """Write a formula file named after its paper key and return its path."""
    def write(key: str, body: str):
        p = tmp_path / f"{key}.toml"
        p.write_text(f'[paper]\nkey = "{key}"\ntitle = "test paper"\n\n' + body, encoding="utf-8")
        return p
    return write


@pytest.fixture(autouse=True)
def _restore_mpmath_precision():
    """A test that changes mpmath's global precision must not change the next test's."""
    import mpmath
    prec = mpmath.mp.prec
    yield
    mpmath.mp.prec = prec
