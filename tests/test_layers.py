"""The layers contract (issue 32): ``lint-imports`` (import-linter, on grimp's import graph)
with the contracts of pyproject.toml passes on boundcalc, and it would fail on an upward
import, one inside a function included. It replaces the hand-written import-graph test: the
``layers`` contract ranks the packages, ``prover-layers`` the decision procedure's modules
(PROVER_LAYERS there), ``engine-leaf``/``engine-consumers`` keep the engine a leaf, and
``acyclic`` forbids an import cycle between sibling modules at any depth.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"]

pytest.importorskip("importlinter", reason="import-linter is in the test extra: pip install -e '.[test]'")


def _lint(cwd: Path, *args: str, pythonpath: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(pythonpath)}
    return subprocess.run([*LINT, "--no-cache", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300, check=False)


def _contracts() -> dict[str, dict]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in data["tool"]["importlinter"]["contracts"]}


def test_boundcalc_keeps_every_contract():
    r = _lint(ROOT, pythonpath=ROOT / "src")
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    kept = r.stdout.count(" KEPT")
    assert kept == len(_contracts()) >= 5, r.stdout


def test_the_contracts_have_no_exceptions_and_place_every_module():
    cs = _contracts()
    assert not any("ignore_imports" in c for c in cs.values())
    assert cs["layers"]["exhaustive"] and cs["prover-layers"]["exhaustive"]
    assert [layer.split()[0] for layer in cs["layers"]["layers"]] == [
        "cli", "api", "experiments", "reports", "services", "prover", "recheck", "registry", "backends", "expr",
        "errors"]
    # the certificate checker trusts nothing above the expression language and the back ends
    assert {"boundcalc.prover", "boundcalc.services", "boundcalc.registry"} <= set(
        cs["recheck-independent"]["forbidden_modules"])
    # the engine is no layer: a leaf beside them (its own two contracts)
    assert cs["layers"]["exhaustive_ignores"] == ["engine", "__main__"]
    assert cs["engine-leaf"]["source_modules"] == ["boundcalc.engine"]


# -------------------------------------------------------------------- the check can fail
_CONFIG = """
[tool.importlinter]
root_package = "pk"

[[tool.importlinter.contracts]]
id = "layers"
name = "pk layers"
type = "layers"
containers = ["pk"]
layers = ["top", "low"]

[[tool.importlinter.contracts]]
id = "acyclic"
name = "pk acyclic"
type = "acyclic_siblings"
ancestors = ["pk"]
"""


def _package(tmp_path: Path, low: str, top: str = "from . import low\n") -> Path:
    (tmp_path / "pk").mkdir()
    (tmp_path / "pk" / "__init__.py").write_text("")
    (tmp_path / "pk" / "top.py").write_text(top)
    (tmp_path / "pk" / "low.py").write_text(low)
    (tmp_path / "pyproject.toml").write_text(_CONFIG)
    return tmp_path


def test_a_downward_package_passes(tmp_path):
    root = _package(tmp_path, "import os\n")
    r = _lint(root, pythonpath=root)
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("low", [
    "from . import top\n",                                        # at module level
    "def f():\n    from .top import g\n    return g\n",             # inside a function
    "class C:\n    def m(self):\n        import pk.top\n",          # inside a method
])
def test_an_upward_import_breaks_the_layers_wherever_it_stands(tmp_path, low):
    root = _package(tmp_path, low, top="def g():\n    return 1\n")
    r = _lint(root, pythonpath=root)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "pk.low is not allowed to import pk.top" in r.stdout, r.stdout


def test_a_cycle_between_siblings_inside_functions_breaks_acyclic(tmp_path):
    root = _package(tmp_path, "import os\n", top="def g():\n    from . import low\n")
    (root / "pk" / "a.py").write_text("def f():\n    from . import b\n")
    (root / "pk" / "b.py").write_text("def f():\n    from . import a\n")
    (root / "pyproject.toml").write_text(_CONFIG.replace('layers = ["top", "low"]', 'layers = ["top", "low"]\n'))
    r = _lint(root, pythonpath=root)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "pk acyclic BROKEN" in r.stdout, r.stdout


# -------------------------------------------------------------------- the docs' picture
def test_the_docs_picture_is_drawn_from_the_contracts():
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    try:
        import layers_picture
    finally:
        sys.path.pop(0)
    text = layers_picture.picture(ROOT / "pyproject.toml")
    # a layer folded over several lines (layers_picture._fold) read back as one
    unfolded = text.replace("\n" + layers_picture.CONTINUE, " ")
    cs = _contracts()
    for cid in ("layers", "prover-layers"):
        rows = [" ".join(layer.split()) for layer in cs[cid]["layers"]]
        positions = [unfolded.index("  " + row + "\n") for row in rows]
        assert positions == sorted(positions), (cid, rows)
    assert "engine" in text and "no import cycle" in text
    # a literal block does not wrap: every line fits the page's code column (80 characters)
    assert max(len(line) for line in text.splitlines()) <= 80, text
    page = (ROOT / "docs" / "explanation" / "layers.md").read_text(encoding="utf-8")
    assert "```{boundcalc-layers}" in page
