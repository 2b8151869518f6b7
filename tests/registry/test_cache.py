"""The registry cache (boundcalc.registry.cache): a hit gives the paper a miss gives, a stale or
corrupt entry is rebuilt, concurrent writers leave a valid entry, and a hit runs no parser."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from boundcalc.backends.arb import enclose
from boundcalc.expr.nodes import Rel
from boundcalc.registry import cache, loader
from boundcalc.registry.registry import Registry, _expand, packaged_dir

PAPERS = ("anon2025", "arda2026", "deora2023", "tarzanagh2023")
_CANDIDATES = [Fraction(3), Fraction(1, 2), Fraction(7, 3), Fraction(2), Fraction(1), Fraction(10),
               Fraction(-1, 2), Fraction(0)]


def _registry() -> Registry:
    return Registry(_expand([packaged_dir()]))


def _forbid_loader(monkeypatch):
    """Any use of the loader fails the test: what follows must come from the cache."""
    def boom(*a, **k):
        raise AssertionError("the loader ran: not a cache hit")
    monkeypatch.setattr(loader, "load_data", boom)
    monkeypatch.setattr(loader, "parse_toml", boom)


def _points(reg: Registry, fid: str, node) -> list[dict]:
    """Two points of the formula's symbols, each value the first (second) candidate inside
    the symbol's domain; one number for every component of an indexed symbol."""
    table = reg.symbol_table(fid)
    out = []
    for which in (0, 1):
        env = {}
        for name in node.symbols():
            dom = table[name].domain
            inside = [c for c in _CANDIDATES if dom.contains(c)] or [dom.lo or Fraction(1)]
            env[name] = inside[min(which, len(inside) - 1)]
        out.append(env)
    return out


def _value(node, env):
    """The arb enclosure at ``env`` (both sides of a relation), or the kind of error raised."""
    try:
        if isinstance(node, Rel):
            return (node.op, str(enclose(node.lhs, env, prec=80)), str(enclose(node.rhs, env, prec=80)))
        return str(enclose(node, env, prec=80))
    except Exception as e:  # the same error on both sides is the same answer
        return type(e).__name__


@pytest.fixture
def cache_folder(tmp_path, monkeypatch):
    folder = tmp_path / "registry-cache"
    monkeypatch.setenv(cache.ENV_VAR, str(folder))
    return folder


def test_a_hit_gives_every_formula_of_the_four_papers_as_a_miss_does(cache_folder, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, "0")
    plain = _registry()
    plain_papers = {k: plain.paper(k) for k in PAPERS}
    assert not cache_folder.exists()                       # off: nothing written
    monkeypatch.setenv(cache.ENV_VAR, str(cache_folder))
    miss = _registry()
    for k in PAPERS:
        miss.paper(k)                                     # loads, writes the entries
    assert sorted(p.name.split("-")[0] for p in cache_folder.glob("*.json")) == sorted(PAPERS)
    _forbid_loader(monkeypatch)
    hit = _registry()
    compared = 0
    for k in PAPERS:
        a, b = plain_papers[k], hit.paper(k)
        assert (a.key, a.title, a.authors, a.reference, a.text, a.results, a.refs, a.fail_on, a.path) == \
               (b.key, b.title, b.authors, b.reference, b.text, b.results, b.refs, b.fail_on, b.path)
        assert a.symbols == b.symbols and list(a.symbols) == list(b.symbols)
        assert a.formulas == b.formulas and list(a.formulas) == list(b.formulas)
        assert a.settings == b.settings and a.hypotheses == b.hypotheses
        for name in a.formulas:
            fid = f"{k}.{name}"
            ra, rb = plain.resolved(fid), hit.resolved(fid)
            assert ra == rb, fid
            for env in _points(plain, fid, ra):
                assert _value(ra, env) == _value(rb, env), (fid, env)
                compared += 1
    assert compared > 300                                  # every formula, two points each
    monkeypatch.undo()                                     # the checks are validated by the loader
    for k in PAPERS:
        assert [c.id for c in plain_papers[k].checks] == [c.id for c in hit.paper(k).checks]
        assert plain_papers[k].steps == hit.paper(k).steps


def test_a_cached_value_agrees_with_the_paper(cache_folder):
    """beta1 = sqrt(T) R (2 R^2 theta + 1) (deora2023, Cor. 1): 6 at T = 4, R = theta = 1."""
    _registry().paper("deora2023")
    reg = _registry()
    node = reg.resolved("deora2023.beta1")
    assert str(enclose(node, {"T": Fraction(4), "R": Fraction(1), "theta_2inf": Fraction(1)}, prec=64)) == "6.00000000000000"


def _copy(tmp_path: Path, key: str) -> Path:
    d = tmp_path / "formulas"
    d.mkdir(exist_ok=True)
    return Path(shutil.copy(packaged_dir() / f"{key}.toml", d / f"{key}.toml"))


def test_an_edited_formula_file_rebuilds_its_entry(tmp_path, cache_folder):
    f = _copy(tmp_path, "deora2023")
    assert Registry([f]).spec("deora2023.beta1").text == "sqrt(T)*R*(2*R**2*theta_2inf + 1)"
    entry = cache.entry_path(cache_folder, f)
    old = json.loads(entry.read_text())["key"]["sha256"]
    text = f.read_text()
    f.write_text(text.replace('expr = "sqrt(T)*R*(2*R**2*theta_2inf + 1)"',
                              'expr = "sqrt(T)*R*(3*R**2*theta_2inf + 1)"'), encoding="utf-8")
    reg = Registry([f])
    assert reg.spec("deora2023.beta1").text == "sqrt(T)*R*(3*R**2*theta_2inf + 1)"
    env = {"T": Fraction(4), "R": Fraction(1), "theta_2inf": Fraction(1)}
    assert str(enclose(reg.resolved("deora2023.beta1"), env, prec=64)) == "8.00000000000000"
    new = json.loads(entry.read_text())["key"]["sha256"]
    assert new != old
    import hashlib
    assert new == hashlib.sha256(f.read_bytes()).hexdigest()


def test_an_entry_of_another_version_or_loader_is_not_used(tmp_path, cache_folder, monkeypatch):
    f = _copy(tmp_path, "deora2023")
    Registry([f]).paper("deora2023")
    entry = cache.entry_path(cache_folder, f)
    doc = json.loads(entry.read_text())
    doc["paper"]["title"] = "NOT THE TITLE"
    for field in ("version", "code", "format", "path"):
        forged = dict(doc, key=dict(doc["key"], **{field: "other"}))
        entry.write_text(json.dumps(forged))
        assert Registry([f]).paper("deora2023").title != "NOT THE TITLE", field
    entry.write_text(json.dumps(doc))                     # the key holds: served as stored
    assert Registry([f]).paper("deora2023").title == "NOT THE TITLE"


@pytest.mark.parametrize("damage", ["truncated", "not json", "wrong shape", "forward node", "bad tag",
                                    "empty"])
def test_a_corrupt_entry_is_ignored_and_rewritten(tmp_path, cache_folder, damage):
    f = _copy(tmp_path, "tarzanagh2023")
    good = Registry([f]).paper("tarzanagh2023")
    entry = cache.entry_path(cache_folder, f)
    raw = entry.read_text()
    doc = json.loads(raw)
    if damage == "truncated":
        bad = raw[: len(raw) // 2]
    elif damage == "not json":
        bad = "\x00\x01 garbage"
    elif damage == "wrong shape":
        bad = json.dumps(dict(doc, paper=[1, 2, 3]))
    elif damage == "forward node":
        nodes = doc["nodes"]
        i = next(i for i, e in enumerate(nodes) if e[0] == "+")
        nodes[i] = ["+", [len(nodes) + 5]]
        bad = json.dumps(doc)
    elif damage == "bad tag":
        doc["nodes"][0] = ["exec", "print(1)"]
        bad = json.dumps(doc)
    else:
        bad = ""
    entry.write_text(bad)
    again = Registry([f]).paper("tarzanagh2023")
    assert again.formulas == good.formulas and again.symbols == good.symbols
    rewritten = json.loads(entry.read_text())             # valid again, with the right key
    assert rewritten["key"] == cache._key(f, f.read_text(encoding="utf-8"))
    assert rewritten == json.loads(raw)


def test_a_file_that_fails_to_load_is_never_cached(tmp_path, cache_folder, write_formula_file):
    p = write_formula_file("badx", '[symbols.x]\ndescription = "x"\ndomain = "positive"\n\n'
                                   '[formulas.f]\nname = "f"\nkind = "definition"\nexpr = "2*y"\nsource = "s"\n')
    from boundcalc.errors import FormulaFileError
    for _ in range(2):
        with pytest.raises(FormulaFileError, match="unknown name 'y'"):
            Registry([p]).paper("badx")
    assert not cache.entry_path(cache_folder, p).exists()


def test_the_cache_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.ENV_VAR, "off")
    assert cache.cache_dir() is None
    monkeypatch.setenv(cache.ENV_VAR, "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "boundcalc" / "registry"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/xdg")          # not absolute: ignored, as the spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "boundcalc" / "registry"


def test_two_concurrent_writers_leave_a_valid_entry(tmp_path, cache_folder):
    """Two processes rewrite the entry 40 times each while this one reads it: every read is
    a whole entry (a hit equal to the paper), and the last entry is valid."""
    f = _copy(tmp_path, "deora2023")
    good = Registry([f]).paper("deora2023")
    entry = cache.entry_path(cache_folder, f)
    writer = textwrap.dedent(f"""
        from pathlib import Path
        from boundcalc.registry import cache, loader
        f = Path({str(f)!r})
        text = f.read_text(encoding="utf-8")
        data = loader.parse_toml(f, text)
        paper = loader.load_data(f, data, lazy_checks=True)
        key = cache._key(f, text)
        print("ready", flush=True)
        for _ in range(40):
            cache._write(cache.entry_path(cache.cache_dir(), f), key, paper, data)
        """)
    procs = [subprocess.Popen([sys.executable, "-c", writer], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    key = cache._key(f, f.read_text(encoding="utf-8"))
    reads = 0
    while any(p.poll() is None for p in procs) or reads < 5:
        got = cache._read(entry, key, f)
        assert got is not None and got.formulas == good.formulas   # os.replace: never a partial entry
        reads += 1
    assert [p.wait() for p in procs] == [0, 0]
    assert cache._read(entry, key, f).formulas == good.formulas
    assert not list(cache_folder.glob(".*.tmp"))           # no temporary file left behind


def test_a_hit_runs_neither_toml_nor_the_expression_parser(tmp_path):
    """With a warm cache, require-heads imports neither the loader nor tomllib and calls
    ast.parse (the whitelist parser's first step) zero times; nor does it import what only
    a write (tempfile) or typeset text (the LaTeX reader, boundcalc.reports.latex) needs."""
    code = textwrap.dedent("""
        import ast, io, sys, contextlib
        calls = []
        real = ast.parse
        ast.parse = lambda *a, **k: calls.append(1) or real(*a, **k)
        sys.argv = ['boundcalc', 'require-heads', '--d', '16', '--T', '8']
        from boundcalc.cli import main
        with contextlib.redirect_stdout(io.StringIO()):
            try: main()
            except SystemExit: pass
        print(len(calls), sorted(m for m in ('tomllib', 'boundcalc.registry.loader', 'boundcalc.registry.checks',
                                             'tempfile', 'boundcalc.reports.latex', 'boundcalc.expr.latex_tokens')
                                 if m in sys.modules))
        """)
    import os
    env = dict(os.environ, BOUNDCALC_REGISTRY_CACHE=str(tmp_path / "c"))
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert first.stdout.split()[0] != "0"                 # the miss parses (the test can fail)
    second = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert second.stdout.strip() == "0 []", second.stdout + second.stderr


def test_a_formulas_status_comes_back_from_the_cache_as_its_enum(cache_folder, monkeypatch):
    # before: FormulaStatus (a str enum) was stored as a bare string, so a cache hit gave 'corrected'
    # where a miss gave FormulaStatus.CORRECTED (tests/test_verdicts.py failed in CI after a hit)
    from boundcalc.registry.registry import packaged_dir
    from boundcalc.verdicts import FormulaStatus
    path = packaged_dir() / "deora2023.toml"
    miss = cache.load_cached(path)                     # writes the entry
    _forbid_loader(monkeypatch)
    hit = cache.load_cached(path)
    got = {k: f.status for k, f in hit.formulas.items()}
    assert all(type(s) is FormulaStatus for s in got.values()), got
    assert got == {k: f.status for k, f in miss.formulas.items()}
    assert FormulaStatus.CORRECTED in got.values()
