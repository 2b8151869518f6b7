"""ruff and mypy at the settings of pyproject.toml (issues 23 and 32, "Hygiene").

ruff must be clean on ``src`` and on ``tests``: every rule of its default set that is off
is off in pyproject.toml with a reason, and a finding left in place carries a ``noqa`` with
one. The default set changes between ruff's minor versions, so the version is pinned
(``ruff>=0.17,<0.18`` in the test extra) and checked here. mypy runs with
``check_untyped_defs`` (pyproject.toml) and must report nothing.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# mypy: 546 errors before the issue-23 merges, 1 after them (default settings); 18 with
# --check-untyped-defs when issue 32 turned it on (2026-12-02), 0 since.
RUFF_VERSION = (0, 17)


def _run(args: list[str], timeout: float) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, check=False)


def test_ruff_is_the_pinned_version():
    r = _run(["ruff", "--version"], 60)
    m = re.search(r"ruff (\d+)\.(\d+)\.", r.stdout)
    assert m and (int(m.group(1)), int(m.group(2))) == RUFF_VERSION, (r.stdout + r.stderr,
                                                                    "pip install '.[test]' (ruff>=0.17,<0.18)")


@pytest.mark.parametrize("where", ["src", "tests"])
def test_ruff_is_clean(where):
    r = _run(["ruff", "check", "--no-cache", "--output-format", "concise", where], 300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_ruff_would_fail_on_a_finding(tmp_path):
    # the check above can fail: the same settings flag an unused import
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n", encoding="utf-8")
    r = _run(["ruff", "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), str(bad)], 120)
    assert r.returncode == 1 and "F401" in r.stdout, r.stdout + r.stderr


def test_mypy_is_clean(tmp_path):
    # the settings are pyproject.toml's [tool.mypy] (check_untyped_defs among them); a
    # finding fails the test with mypy's own lines
    r = _run(["mypy", "--cache-dir", str(tmp_path / "cache")], 900)
    assert "Success: no issues found" in r.stdout and r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]


def test_mypy_would_fail_on_a_finding(tmp_path):
    # the check above can fail: at the project's settings an unannotated function is
    # checked too (check_untyped_defs), so a wrong attribute in one is an error
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    return (1).no_such_attribute\n", encoding="utf-8")
    r = _run(["mypy", "--cache-dir", str(tmp_path / "cache"), "--config-file", str(ROOT / "pyproject.toml"),
              str(bad)], 300)
    assert r.returncode == 1 and "no_such_attribute" in r.stdout, r.stdout + r.stderr


def _packages() -> list[str]:
    src = ROOT / "src"
    return sorted(".".join(p.parent.relative_to(src).parts) for p in (src / "boundcalc").rglob("__init__.py"))


# Packages that other issue-23 branches are rewriting get their __all__ there; the test
# fails once one has it, so that the entry is removed.
PENDING_ALL: dict[str, str] = {}


def test_every_package_declares_all_and_each_name_exists():
    import importlib
    packages = _packages()
    assert "boundcalc.expr" in packages and "boundcalc.services.check" in packages
    missing, broken, stale = [], [], []
    for name in packages:
        mod = importlib.import_module(name)
        has_all = isinstance(getattr(mod, "__all__", None), (list, tuple))
        if name in PENDING_ALL:
            if has_all:
                stale.append(name)
            continue
        if not has_all:
            missing.append(name)
            continue
        broken += [f"{name}.{n}" for n in mod.__all__ if not hasattr(mod, n)]
    assert not missing, f"packages without __all__: {missing}"
    assert not broken, f"__all__ names that do not exist: {broken}"
    assert not stale, f"these have an __all__ now: remove them from PENDING_ALL: {stale}"


ENTRY_POINTS = [
    "boundcalc.api:formula", "boundcalc.api:formulas", "boundcalc.api:papers", "boundcalc.api:paper",
    "boundcalc.api:symbols", "boundcalc.api:Formula", "boundcalc.cli:main",
    "boundcalc.services.verify:verify", "boundcalc.services.verify:VerifyResult",
    "boundcalc.services.require:require", "boundcalc.services.require:RequireResult",
    "boundcalc.services.monotone:monotone", "boundcalc.services.monotone:MonotoneResult",
    "boundcalc.services.asymptotic:asymptotic", "boundcalc.services.asymptotic:AsymptoticResult",
    "boundcalc.prover.decide:decide_relation", "boundcalc.prover.decide:Decision",
    "boundcalc.prover.budget:time_limit", "boundcalc.prover.budget:sympy_safe",
    "boundcalc.registry:get_registry", "boundcalc.registry:Registry",
    "boundcalc.expr.domains:Domain.default_range", "boundcalc.expr.domains:Domain.check_nonempty",
]


def test_public_entry_points_have_docstrings():
    import importlib
    missing = []
    for target in ENTRY_POINTS:
        mod, _, attr = target.partition(":")
        obj = importlib.import_module(mod)
        for part in attr.split("."):
            obj = getattr(obj, part)
        doc = (obj.__doc__ or "").strip()
        # a dataclass without a docstring gets its signature, "Decision(verdict: str, ...)"
        if not doc or (isinstance(obj, type) and doc.startswith(obj.__name__ + "(")):
            missing.append(target)
    assert not missing, f"no docstring: {missing}"


# ---------------------------------------------------------------------------------------
# tests/ mirrors src/ (issue 23, "Hygiene")
#
# src/boundcalc/a/b.py is tested in tests/a/test_b.py, and a package src/boundcalc/a/p/ (its
# __init__) in tests/a/test_p.py, as if it were a module. The per-paper packages below are one
# model or one paper's experiments split into modules by concept; their test file exercises
# them through the names the package re-exports, so it covers their modules too.
PACKAGES_TESTED_WHOLE = {
    "boundcalc.engine.arda2026", "boundcalc.engine.deora2023", "boundcalc.engine.tarzanagh2023",
    "boundcalc.experiments.anon2025", "boundcalc.experiments.arda2026",
    "boundcalc.experiments.deora2023", "boundcalc.experiments.tarzanagh2023",
    "boundcalc.services.monotone",      # one entry point (monotone); tests/services/test_monotone.py
}

# Modules with no test module of their own, each with where it is exercised today. The test
# fails on a module missing from both, and on an entry whose test module now exists (remove
# it then). Add a test module rather than an entry.
UNTESTED_MODULES: dict[str, str] = {
    # entry points and plumbing, run by every CLI test
    "boundcalc": "the public names; tests/test_api.py",
    "boundcalc.__main__": "`python -m boundcalc`, two lines",
    "boundcalc.cli": "main(); every run of tests/cli/test_app.py (tests/support.py cli calls it in process)",
    "boundcalc.cli.__main__": "`python -m boundcalc.cli`, two lines",
    "boundcalc.cli.docs": "the help pages, through the commands of tests/cli/test_app.py",
    "boundcalc.cli.output": "tests/cli/test_app.py, tests/reports/test_printers.py",
    "boundcalc.cli.render": "tests/cli/test_app.py (rich output of every command)",
    "boundcalc.cli.state": "the invocation's global options, through tests/cli/test_app.py",
    "boundcalc._version": "the version string; tests/cli/test_app.py (--version) and the page footer",
    "boundcalc.runs": "a package docstring; its modules have tests/runs/",
    "boundcalc.services.formula": "the Formula object behind boundcalc.formula: tests/test_api.py",
    "boundcalc.expr._record": "the record base class; every service test",
    "boundcalc.errors": "the error classes; every refusal test",
    "boundcalc.mpctx": "per-thread mpmath contexts, through reports/numfmt and expr/numbers",
    "boundcalc.paths": "user paths, through the CLI's --output files (tests/cli/test_app.py)",
    "boundcalc.suggest": "'did you mean', through the refusals of the loader, registry and require",
    "boundcalc.registry.values": "tests/test_api.py, tests/fuzz/test_regressions.py",
    # back ends: the cross-back-end agreement tests cover them together
    "boundcalc.expr.exact": "tests/test_backends.py, tests/services/test_require.py",
    "boundcalc.backends.limits": "three precision constants, re-exported by backends/arb and mp",
    "boundcalc.backends.mp": "tests/test_backends.py, tests/backends/test_arb.py",
    "boundcalc.backends.np": "tests/test_backends.py (NumPy grids against mpmath)",
    "boundcalc.backends.sym": "tests/expr/test_printing.py, tests/expr/test_latex_in.py",
    # engine and experiments
    "boundcalc.engine": "the package; tests/engine/",
    "boundcalc.engine.data": "the package; tests/engine/data/",
    "boundcalc.engine.budget": "tests/engine/test_deora2023.py, tests/reports/test_sweep.py",
    "boundcalc.engine.measurements": "`measured` checks; tests/formulas/test_proof_steps.py",
    "boundcalc.experiments": "the paper list and Reproduction; tests/cli/test_reports.py",
    "boundcalc.experiments.paper_vs_ours": "the rows of every reproduction: tests/experiments/",
    "boundcalc.experiments.precision": "the float32 checks of the reproductions: tests/experiments/",
    "boundcalc.experiments.settings": "setting refusals and seeds: tests/experiments/",
    # expression language
    "boundcalc.expr": "the package; tests/expr/",
    "boundcalc.expr.nodes": "tests/expr/test_parser.py, tests/expr/test_visitor.py",
    "boundcalc.expr.numbers": "tests/services/test_require.py, tests/fuzz/test_regressions.py",
    # decision procedure
    "boundcalc.prover.closing": "every decision's certificate and its recheck: tests/prover/test_certificates.py "
                                "(a rejected one makes the verdict unknown), tests/test_recheck.py",
    "boundcalc.prover.fold": "fold_constants, re-exported by prover/decide: tests/expr/test_visitor.py, "
                             "tests/prover/test_prepass.py",
    "boundcalc.prover.signs": "structural_sign, re-exported by prover/decide: tests/expr/test_visitor.py, "
                              "tests/services/test_continuity.py",
    "boundcalc.prover.statement": "definedness (re-exported by prover/decide): tests/services/test_continuity.py; "
                                  "absorb_bounds: tests/prover/test_fbounds.py; narrow: tests/services/test_verify.py",
    # registry
    "boundcalc.registry": "the package; tests/registry/",
    "boundcalc.registry.model": "the records of a formula file, built by every load (tests/registry/)",
    "boundcalc.registry.steps": "tests/services/check/test_steps.py",
    "boundcalc.registry.template": "`boundcalc new`; tests/cli/test_app.py",
    # reports
    "boundcalc.reports": "the package; tests/reports/",
    "boundcalc.reports.latex": "tests/reports/test_sheet.py, tests/reports/test_table.py",
    "boundcalc.reports.names": "the notation context the LaTeX reader reads: tests/reports/test_latex_output.py, tests/reports/test_text_scan.py",
    "boundcalc.reports.latex_table": "a shim: names moved to printers/latex and numfmt stay importable",
    "boundcalc.reports.printers.base": "the dispatch every printer uses; tests/reports/test_printers.py",
    "boundcalc.reports.printers.cells": "table cells, through the text/markdown/html printers' tests",
    "boundcalc.reports.printers.csv": "tests/reports/test_printers.py",
    "boundcalc.reports.printers.json": "tests/reports/test_printers.py",
    "boundcalc.reports.printers.latex": "tests/reports/test_printers.py, tests/reports/test_table.py",
    "boundcalc.reports.printers.markdown": "tests/reports/test_printers.py",
    "boundcalc.reports.printers.rich": "tests/reports/test_printers.py",
    "boundcalc.reports.printers.text": "tests/reports/test_printers.py",
    # services
    "boundcalc.services": "the package; tests/services/",
    "boundcalc.services.solve": "tests/services/test_require.py, tests/fuzz/test_require_fuzz.py",
    "boundcalc.services.trend": "the direction from the tree: tests/expr/test_visitor.py, tests/fuzz/test_require_fuzz.py",
    # the decision procedure (prover/): its tests are by behaviour, not by layer
    "boundcalc.prover": "the package; tests/prover/",
    "boundcalc.prover.decide": "tests/prover/test_relations.py, tests/prover/test_decide_threads.py",
    "boundcalc.prover.exact_layer": "the first layer of decide: tests/prover/test_relations.py",
    "boundcalc.prover.sampling": "through monotone and decide: tests/services/test_monotone.py, tests/fuzz/",
    "boundcalc.prover.smt": "a layer of decide: tests/prover/test_relations.py, tests/test_verdicts.py",
    "boundcalc.prover.symbolic": "SymPy bridges, through monotone, simplify, asymptotic and decide",
    "boundcalc.services.check.common": "tests/services/check/test_steps.py, tests/test_verdicts.py",
    "boundcalc.services.check.derivation": "tests/services/check/test_hypotheses.py",
    "boundcalc.services.check.growth": "tests/services/test_check.py",
    "boundcalc.services.check.identity": "tests/services/test_check.py",
    "boundcalc.services.check.measured": "tests/services/test_check.py",
    "boundcalc.services.check.relations": "the relation and monotone checks of tests/services/test_check.py",
    "boundcalc.services.check.strength": "tests/services/test_check.py (check --strength)",
}


def expected_test_module(module: str) -> Path:
    """Where the test module of ``module`` lives: boundcalc.a.b -> tests/a/test_b.py."""
    parts = module.split(".")[1:]
    if not parts:
        return ROOT / "tests" / "test_boundcalc.py"
    return ROOT / "tests" / Path(*parts[:-1]) / f"test_{parts[-1]}.py"


def modules_without_a_test_module() -> list[str]:
    src = ROOT / "src"
    out = []
    for path in sorted((src / "boundcalc").rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        module = ".".join(parts)
        if expected_test_module(module).exists():
            continue
        package = module.rpartition(".")[0]
        if package in PACKAGES_TESTED_WHOLE and expected_test_module(package).exists():
            continue
        out.append(module)
    return out


def test_every_src_module_has_a_test_module_or_a_reason():
    missing = modules_without_a_test_module()
    unexplained = [m for m in missing if m not in UNTESTED_MODULES]
    stale = sorted(set(UNTESTED_MODULES) - set(missing))
    assert not unexplained, ("src modules without a test module (add tests/<path>/test_<name>.py, or an "
                             f"entry in UNTESTED_MODULES saying where they are tested): {unexplained}")
    assert not stale, f"these have a test module now (or are gone): remove them from UNTESTED_MODULES: {stale}"


def test_the_mirror_check_can_fail():
    # mpctx has no tests/test_mpctx.py: it is reported (and then excused by its entry), while
    # a module with its test module, or inside a package tested whole, is not
    missing = modules_without_a_test_module()
    assert "boundcalc.mpctx" in missing
    assert "boundcalc.verdicts" not in missing and "boundcalc.backends.arb" not in missing
    assert "boundcalc.engine.deora2023.kernels" not in missing


def test_no_test_module_sets_mpmath_precision_at_import():
    """A module-level ``mpmath.mp.dps = 50`` runs at collection and changes the precision of
    every test collected after it (values built at import, e.g. tests/reports/test_table.py's
    HUGE, then differ by the order of collection); use ``mpmath.workdps`` in a fixture."""
    bad = []
    for f in sorted((ROOT / "tests").rglob("*.py")):
        for k, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if re.match(r"(mpmath\.)?mp\.(dps|prec)\s*=", line):
                bad.append(f"{f.relative_to(ROOT)}:{k}: {line.strip()}")
    assert not bad, "\n".join(bad)
