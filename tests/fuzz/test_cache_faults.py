"""The sweep cache under faults: corrupt entries of every kind, two sweeps sharing one
cache, a sweep killed part way, and an edit to the code (a temporary copy of the package)
that must recompute."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from boundcalc.runs import sweep

SRC = Path(sweep.__file__).resolve().parents[1]          # .../src/boundcalc

JOB = '''
import json, os, sys, time
def slow_square(config):
    """One line per call in config['log'] (the side channel counting calls)."""
    time.sleep(config.get("sleep", 0))
    with open(config["log"], "a") as fh:
        fh.write(json.dumps(config["x"]) + "\\n")
    return {"y": config["x"] ** 2, "v": VERSION}
VERSION = 1
'''


def _calls(log: Path) -> list:
    return [json.loads(s) for s in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture
def job(tmp_path):
    """A module-level function importable by worker processes (a module on PYTHONPATH)."""
    d = tmp_path / "jobmod"
    d.mkdir()
    (d / "fuzzjob.py").write_text(JOB)
    sys.path.insert(0, str(d))
    import importlib

    import fuzzjob
    importlib.reload(fuzzjob)
    yield fuzzjob, d
    sys.path.remove(str(d))
    sys.modules.pop("fuzzjob", None)


def _entries(cache: Path) -> list[Path]:
    return sorted((cache / "sweep").rglob("*.json"))


@pytest.mark.parametrize("corrupt, why", [
    ("{not json", "unreadable"),
    ("[1, 2, 3]", "expected form"),                                      # wrong type at the top
    ('{"fn": "x", "result": [1]}', "expected form"),                     # result of the wrong type
    ('{"fn": "x", "result": "9"}', "expected form"),
    (None, "non-finite"),                                                # NaN floats (was served as nan)
    ("", "unreadable"),
])
def test_bad_entries_are_recomputed_with_a_note(tmp_path, job, capsys, corrupt, why):
    mod, _ = job
    log, cache = tmp_path / "calls.log", tmp_path / "cache"
    cfg = [{"x": 3, "log": str(log)}]
    assert sweep.run(mod.slow_square, cfg, cache_dir=cache, progress=False) == [{"y": 9, "v": 1}]
    [entry] = _entries(cache)
    if corrupt is None:
        rec = json.loads(entry.read_text())
        rec["result"]["y"] = float("nan")
        entry.write_text(json.dumps(rec))                  # json writes NaN
    else:
        entry.write_text(corrupt)
    capsys.readouterr()
    assert sweep.run(mod.slow_square, cfg, cache_dir=cache, progress=False) == [{"y": 9, "v": 1}]
    assert len(_calls(log)) == 2                           # recomputed, not trusted
    err = capsys.readouterr().err
    assert "recomputed" in err and why in err and len(err.strip().splitlines()) == 1
    # and the entry is good again: a third run is a hit, silently
    assert sweep.run(mod.slow_square, cfg, cache_dir=cache, progress=False) == [{"y": 9, "v": 1}]
    assert len(_calls(log)) == 2 and capsys.readouterr().err == ""


def test_entry_for_another_config_is_not_served(tmp_path, job, capsys):
    mod, _ = job
    log, cache = tmp_path / "calls.log", tmp_path / "cache"
    sweep.run(mod.slow_square, [{"x": 3, "log": str(log)}], cache_dir=cache, progress=False)
    [entry] = _entries(cache)
    rec = json.loads(entry.read_text())
    rec["config"]["x"] = 4                                  # an entry swapped in from elsewhere
    entry.write_text(json.dumps(rec))
    assert sweep.run(mod.slow_square, [{"x": 3, "log": str(log)}], cache_dir=cache,
                     progress=False) == [{"y": 9, "v": 1}]
    assert "another configuration" in capsys.readouterr().err


def test_non_finite_results_are_never_cached(tmp_path):
    from boundcalc.engine import budget  # any importable module-level function will do
    cache = tmp_path / "cache"
    res = sweep.run(_nan_result, [{"x": 1}], cache_dir=cache, progress=False, backend="sequential")
    assert res[0]["y"] != res[0]["y"]            # nan returned as is ...
    assert _entries(cache) == []                 # ... but never cached
    assert budget is not None


def _nan_result(config):
    return {"y": float("nan")}


_nan_result.__module__ = sweep.__name__         # importable by name for fn_name (not pickled: sequential)
sweep._nan_result = _nan_result


def _sweep_script(d: Path, cache: Path, log: Path, n: int, sleep: float) -> list[str]:
    code = textwrap.dedent(f'''
        import sys; sys.path.insert(0, {str(d)!r})
        from boundcalc.runs.sweep import run
        from fuzzjob import slow_square
        res = run(slow_square, [{{"x": i, "log": {str(log)!r}, "sleep": {sleep}}} for i in range({n})],
                  cache_dir={str(cache)!r}, progress=False, backend="sequential")
        assert res == [{{"y": i * i, "v": 1}} for i in range({n})], res
        print("ok")
    ''')
    return [sys.executable, "-c", code]


def test_two_sweeps_against_one_cache(tmp_path, job):
    _, d = job
    cache, log = tmp_path / "cache", tmp_path / "calls.log"
    procs = [subprocess.Popen(_sweep_script(d, cache, log, 12, 0.02), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for p in procs:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0 and out.strip() == "ok", err
    files = _entries(cache)
    assert len(files) == 12                                   # one complete entry per config
    for f in files:
        rec = json.loads(f.read_text())
        assert rec["result"] == {"y": rec["config"]["x"] ** 2, "v": 1}
    assert not [p for p in (cache / "sweep").rglob("*") if p.is_file() and p.suffix != ".json"]
    n = len(_calls(log))
    assert 12 <= n <= 24
    out = subprocess.run(_sweep_script(d, cache, log, 12, 0.02), capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0 and len(_calls(log)) == n       # a third run: all hits


def test_killed_sweep_leaves_only_complete_entries(tmp_path, job):
    _, d = job
    cache, log = tmp_path / "cache", tmp_path / "calls.log"
    p = subprocess.Popen(_sweep_script(d, cache, log, 40, 0.05), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    t = time.monotonic()
    while len(_calls(log)) < 5 and time.monotonic() - t < 30:
        time.sleep(0.02)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=10)
    done = _entries(cache)
    assert 1 <= len(done) < 40
    for f in done:                                           # every entry on disk is complete and valid
        rec = json.loads(f.read_text())
        assert rec["result"]["y"] == rec["config"]["x"] ** 2
    before = len(_calls(log))
    out = subprocess.run(_sweep_script(d, cache, log, 40, 0.05), capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert len(_calls(log)) - before == 40 - len(done)        # only the missing ones are computed


def test_editing_the_code_recomputes(tmp_path):
    """Copy the package, run a sweep from the copy, edit a function's source in the copy:
    the rerun recomputes (the key hashes the package's source), and an unedited rerun
    does not."""
    root = tmp_path / "copy"
    shutil.copytree(SRC, root / "src" / "boundcalc", ignore=shutil.ignore_patterns("__pycache__"))
    if not (SRC / "formulas").is_dir():      # a source checkout keeps them beside src/ (an
        from boundcalc.registry.registry import packaged_dir  # installed wheel: inside the package)
        shutil.copytree(packaged_dir(), root / "formulas")
    probe = root / "src" / "boundcalc" / "engine" / "cacheprobe.py"
    probe.write_text('def f(config):\n    with open(config["log"], "a") as fh:\n        fh.write("1\\n")\n'
                     '    return {"value": 1}\n')
    cache, log = tmp_path / "cache", tmp_path / "calls.log"
    code = textwrap.dedent(f'''
        import json, sys; sys.path.insert(0, {str(root / "src")!r})
        import boundcalc
        assert boundcalc.__file__.startswith({str(root)!r}), boundcalc.__file__
        from boundcalc.runs.sweep import run
        from boundcalc.engine.cacheprobe import f
        print(json.dumps(run(f, [{{"x": 1, "log": {str(log)!r}}}], cache_dir={str(cache)!r},
                             progress=False, backend="sequential")))
    ''')

    def rerun():
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                             env={**os.environ, "PYTHONPATH": str(root / "src")}, check=False)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip(), out.stderr
        return json.loads(out.stdout.strip().splitlines()[-1])[0]["value"], len(_calls(log))

    assert rerun() == (1, 1)
    assert rerun() == (1, 1)                                  # unchanged code: a cache hit
    probe.write_text(probe.read_text().replace('{"value": 1}', '{"value": 2}'))    # edit the function
    assert rerun() == (2, 2)                                  # recomputed with the new code
    assert rerun() == (2, 2)
    ops = root / "src" / "boundcalc" / "engine" / "ops.py"    # an edit elsewhere in the package
    ops.write_text(ops.read_text() + "\n# edited\n")
    assert rerun() == (2, 3)
