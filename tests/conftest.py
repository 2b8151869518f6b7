import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))   # tests/support.py

# Tests use the packaged formula files only, whatever the developer's environment says.
os.environ.pop("BOUNDCALC_FORMULAS", None)
os.environ.pop("BOUNDCALC_BUILTIN", None)

# The registry cache (boundcalc.registry.cache) in a folder of this session, removed at exit:
# tests never read or fill the developer's ~/.cache, and each xdist worker has its own.
import atexit
import shutil
import tempfile

_REGISTRY_CACHE = tempfile.mkdtemp(prefix="boundcalc-test-registry-cache-")
os.environ["BOUNDCALC_REGISTRY_CACHE"] = _REGISTRY_CACHE
atexit.register(shutil.rmtree, _REGISTRY_CACHE, True)

# Hypothesis: no verdict on the wall clock (no per-example deadline: a busy machine slows an
# example down, it does not make it wrong), the same examples on every run (derandomize: a
# failure in CI is a failure on the developer's machine), and no example database written
# into the work tree by parallel workers. Each property test keeps its own max_examples
# (what it needs to find what it tests); HYPOTHESIS_PROFILE=explore draws fresh random
# examples on each run instead.
from hypothesis import settings

settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", deadline=None, derandomize=False, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


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
