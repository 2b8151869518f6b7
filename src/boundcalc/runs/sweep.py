"""Run a function over many configurations: in parallel, on a Dask cluster, cached on disk.

>>> from boundcalc.runs.sweep import run
>>> run(my_experiment, [{"n": 8, "seed": s} for s in range(5)], jobs=2)   # doctest: +SKIP

``fn(config) -> dict`` must be a module-level function (the worker processes import it by
name); configs and results must be JSON-serialisable. Results come back in config
order.

Cache: one JSON file per entry under ``cache_dir/sweep/<function>/``; ``cache_dir``
defaults to ``$BOUNDCALC_CACHE`` or ``~/.cache/boundcalc``, and ``cache_dir=False``
disables caching. The key is the SHA-256 of the function's qualified name, the full
config (sorted keys, seed included), ``boundcalc.__version__`` (single-sourced) and a hash
of the *code*: every ``.py`` file of the installed package and every packaged formula
file (:func:`code_hash`). So a rerun is instant, changing one setting recomputes only the
configs that changed, and any edit to the code or the formulas recomputes everything.
Each entry is validated when it is read (its schema, its function and config, finite
numbers only); a bad one is recomputed and a note says so on stderr. Results with
non-finite numbers are returned but never cached. Entries are written atomically
(temporary file + rename), so a killed sweep or two sweeps sharing a cache leave only
complete entries. Fresh results are passed through JSON exactly as cached ones are, so
a result is the same object whether it was computed now or read back.

Backends: ``"loky"`` (processes, joblib's default), ``"threading"``, ``"sequential"``, or
``"dask"`` with ``scheduler="tcp://host:port"`` (joblib's Dask backend over a
``distributed.Client``; the workers need boundcalc installed). The address is parsed and the
scheduler asked who it is, under a 5 s deadline, before any work is submitted
(:func:`check_scheduler`). ``jobs`` goes through :func:`boundcalc.parallel.worker_count`
(capped at the cores), and the worker processes are closed when the sweep ends, however
it ends.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import BoundcalcError
from ..parallel import closing_pools, worker_count
from ..paths import user_path

BACKENDS = ("loky", "threading", "multiprocessing", "sequential", "dask")
PROGRESS_AFTER = 2.0   # seconds: show a progress bar only for work longer than this
CONNECT_TIMEOUT = 5.0   # seconds: to reach a Dask scheduler and hear it answer as one
_ADDRESS = re.compile(r"(?:tcp://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?):([0-9]{1,5})")


class SweepResults(list):
    """The results of a sweep, in config order (a list of dicts), with their configs."""

    def __init__(self, results, configs):
        super().__init__(results)
        self.configs = list(configs)

    def to_frame(self):
        """One row per configuration: the config's keys, then the result's (nested
        dicts flattened to ``a.b``; a result key that is also a config key is suffixed
        ``_result``)."""
        import pandas as pd
        cfg = pd.json_normalize(self.configs) if self.configs else pd.DataFrame()
        res = pd.json_normalize(list(self)) if len(self) else pd.DataFrame()
        res = res.rename(columns={c: f"{c}_result" for c in res.columns if c in cfg.columns})
        return pd.concat([cfg.reset_index(drop=True), res.reset_index(drop=True)], axis=1)


def default_cache_dir() -> Path:
    env = os.environ.get("BOUNDCALC_CACHE")
    return user_path(env) if env else Path.home() / ".cache" / "boundcalc"


def resolve_cache_dir(cache_dir) -> Path | None:
    """``None`` -> the default, ``False`` -> no cache, else that folder."""
    if cache_dir is False:
        return None
    if cache_dir is None or cache_dir is True:
        return default_cache_dir()
    return user_path(cache_dir)


def fn_name(fn: Callable) -> str:
    mod = getattr(fn, "__module__", None)
    qual = getattr(fn, "__qualname__", None)
    if not mod or not qual:
        raise BoundcalcError(f"sweep: {fn!r} is not a function with a module and a name")
    if "<lambda>" in qual or "<locals>" in qual:
        raise BoundcalcError(f"sweep: {mod}.{qual} must be a module-level function "
                             "(workers import it by name and the cache is keyed by it)")
    return f"{mod}.{qual}"


def _version() -> str:
    from .._version import __version__
    return __version__


_CODE_HASH: dict[str, str] = {}


_TALLY = {"computed": 0, "from_cache": 0}


def tally() -> dict:
    """How many sweep points this process has computed and read from the cache so far (what
    ``experiments.record`` reports beside a wall time: a cache hit costs no time)."""
    return dict(_TALLY)


def code_hash() -> str:
    """SHA-256 over the package's source files and its packaged formula files (path and
    content), computed once per process."""
    from ..registry.registry import packaged_dir
    pkg = Path(__file__).resolve().parents[1]            # the boundcalc package
    key = str(pkg)
    if key not in _CODE_HASH:
        h = hashlib.sha256()
        files = sorted(pkg.rglob("*.py")) + sorted(Path(packaged_dir()).glob("*.toml"))
        for f in files:
            if "__pycache__" in f.parts:
                continue
            rel = f.relative_to(pkg) if f.is_relative_to(pkg) else Path("formulas") / f.name
            h.update(str(rel).encode() + b"\0")
            h.update(f.read_bytes())
            h.update(b"\0")
        _CODE_HASH[key] = h.hexdigest()
    return _CODE_HASH[key]


def check_cache_dir(root: Path | None) -> Path | None:
    """One clear error, before any work, if the cache folder cannot be used (a file, /proc,
    read-only): names the folder and $BOUNDCALC_CACHE when it came from there."""
    if root is None:
        return None
    env = os.environ.get("BOUNDCALC_CACHE")
    what = f"cache folder {str(root)!r}" + (" ($BOUNDCALC_CACHE)" if env and user_path(env) == root
                                             else "")
    anc = root
    while not os.path.lexists(anc) and anc != anc.parent:
        anc = anc.parent
    if not anc.is_dir():
        raise BoundcalcError(f"{what}: {str(anc)!r} is not a folder; point BOUNDCALC_CACHE at a "
                             "folder or use --no-cache")
    try:
        probe = root / "sweep"
        probe.mkdir(parents=True, exist_ok=True)
        fd, tmp = __import__("tempfile").mkstemp(dir=probe, prefix=".probe")
        os.close(fd)
        os.unlink(tmp)
    except OSError as e:
        raise BoundcalcError(f"{what} cannot be written ({e.strerror}); point BOUNDCALC_CACHE at a "
                             "writable folder or use --no-cache") from None
    return root


def _canonical(config, where: str) -> str:
    try:
        return json.dumps(config, sort_keys=True, separators=(",", ":"), allow_nan=True)
    except (TypeError, ValueError) as e:
        raise BoundcalcError(f"sweep: {where} is not JSON-serialisable ({e})") from None


def cache_key(name: str, config: dict, version: str | None = None, code: str | None = None) -> str:
    payload = _canonical({"fn": name, "config": config, "version": version or _version(),
                          "code": code or code_hash()}, "config")
    return hashlib.sha256(payload.encode()).hexdigest()


def _cache_path(root: Path, name: str, key: str) -> Path:
    return root / "sweep" / name / f"{key}.json"


def _nonfinite(x, where: str = "result") -> str | None:
    """Where the first non-finite float of a JSON value is, or None."""
    import math
    if isinstance(x, float):
        return None if math.isfinite(x) else where
    if isinstance(x, dict):
        for k, v in x.items():
            w = _nonfinite(v, f"{where}[{k!r}]")
            if w:
                return w
    elif isinstance(x, list):
        for i, v in enumerate(x):
            w = _nonfinite(v, f"{where}[{i}]")
            if w:
                return w
    return None


def _read(path: Path, name: str | None = None, config: dict | None = None):
    """(result, None) for a valid entry; (None, None) when there is none; (None, why)
    for an entry that exists but cannot be trusted."""
    try:
        with path.open(encoding="utf-8") as fh:
            rec = json.load(fh)
    except FileNotFoundError:
        return None, None
    except (OSError, ValueError, RecursionError) as e:
        return None, f"unreadable ({type(e).__name__})"
    if not isinstance(rec, dict) or not isinstance(rec.get("result"), dict):
        return None, "not an entry of the expected form (a dict with a dict 'result')"
    if name is not None and rec.get("fn") != name:
        return None, f"written for another function ({rec.get('fn')!r})"
    if config is not None and _canonical(rec.get("config"), "cached config") != _canonical(config, "config"):
        return None, "written for another configuration"
    bad = _nonfinite(rec["result"])
    if bad:
        return None, f"a non-finite number at {bad}"
    return rec["result"], None


def _write(path: Path, name: str, config: dict, result_json: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    text = ('{"fn": ' + json.dumps(name) + ', "version": ' + json.dumps(_version()) + ', "code": '
            + json.dumps(code_hash()) + ', "config": ' + _canonical(config, "config") + ', "result": '
            + result_json + "}\n")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _roundtrip(result, name: str, i: int) -> tuple[object, str]:
    if not isinstance(result, dict):
        raise BoundcalcError(f"sweep: {name} returned {type(result).__name__} for config #{i}; "
                             "it must return a dict")
    text = _canonical(result, f"the result of {name} for config #{i}")
    return json.loads(text), text


def _call(fn, config):
    """One sweep point, on one BLAS thread: the points themselves are the parallelism (one
    process per job), and a multithreaded BLAS on shared cores only adds synchronisation
    (a 24 x 500 by 500 x 500 GEMM took 70 ms on 2 threads of a loaded 2-core machine,
    3 ms on one)."""
    from ..engine.budget import Divergence
    from ..engine.ops import single_threaded_blas
    try:
        with single_threaded_blas():
            return fn(config)
    except Divergence as e:         # name the configuration that diverged (seed, sizes, step)
        if e.where:
            raise
        shown = ", ".join(f"{k}={v}" for k, v in config.items() if not isinstance(v, (list, dict)))
        raise Divergence(e.step, e.what, f"({shown})") from None


class _Progress:
    """A rich progress bar on stderr that appears only once the work has lasted
    ``PROGRESS_AFTER`` seconds."""

    def __init__(self, enabled: bool, total: int, desc: str):
        self.enabled, self.total, self.desc = enabled, total, desc
        self.t0 = time.monotonic()
        self.done = 0
        self.bar: Any = None            # a rich Progress while shown
        self.task: Any = None

    def advance(self):
        self.done += 1
        if not self.enabled:
            return
        if self.bar is None and time.monotonic() - self.t0 > PROGRESS_AFTER and self.done < self.total:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
            self.bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                TimeElapsedColumn(), TimeRemainingColumn(),
                                console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.desc or "sweep", total=self.total, completed=self.done)
        elif self.bar is not None:
            self.bar.update(self.task, completed=self.done)

    def close(self):
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def run(fn, configs: list[dict], *, jobs: int = 1, backend: str = "loky", scheduler: str | None = None,
        cache_dir=None, progress: bool = True, desc: str = "") -> list[dict]:
    """``[fn(c) for c in configs]``, in parallel and cached (see the module docstring); the
    list has ``.to_frame()`` (configs and results side by side, a pandas DataFrame)."""
    name = fn_name(fn)
    if not isinstance(configs, (list, tuple)):
        raise BoundcalcError(f"sweep: configs must be a list of dicts, got {type(configs).__name__}")
    for i, c in enumerate(configs):
        if not isinstance(c, dict):
            raise BoundcalcError(f"sweep: config #{i} must be a dict, got {type(c).__name__}")
        _canonical(c, f"config #{i}")
    if backend not in BACKENDS:
        raise BoundcalcError(f"sweep: unknown backend {backend!r}; use one of {', '.join(BACKENDS)}")
    if backend == "dask" and not scheduler:
        raise BoundcalcError("sweep: backend 'dask' needs scheduler='tcp://HOST:PORT'")
    if backend == "dask":
        parse_scheduler(scheduler, "sweep: scheduler")       # reached only if there is work to submit
    jobs = worker_count(jobs, "sweep: jobs")

    root = check_cache_dir(resolve_cache_dir(cache_dir))
    version = _version()
    code = code_hash() if root is not None else ""
    results: list = [None] * len(configs)
    todo: list[int] = []
    paths: dict[int, Path] = {}
    for i, c in enumerate(configs):
        if root is not None:
            paths[i] = _cache_path(root, name, cache_key(name, c, version, code))
            hit, why = _read(paths[i], name, c)
            if hit is not None:
                results[i] = hit
                continue
            if why:
                import sys
                print(f"note: cache entry {paths[i].name[:12]} of {name.rsplit('.', 1)[-1]} (config #{i}) "
                      f"is bad ({why}); recomputed", file=sys.stderr)
        todo.append(i)
    _TALLY["from_cache"] += len(configs) - len(todo)
    if not todo:
        return SweepResults(results, configs)

    bar = _Progress(progress, len(todo), desc or name.rsplit(".", 1)[-1])

    def store(i, raw):
        res, text = _roundtrip(raw, name, i)
        if root is not None and _nonfinite(res) is None:     # non-finite results are never cached
            try:
                _write(paths[i], name, configs[i], text)
            except OSError as e:
                raise BoundcalcError(f"cache folder {str(root)!r}: cannot write an entry ({e.strerror}); "
                                     "use --no-cache or another BOUNDCALC_CACHE") from None
        results[i] = res
        _TALLY["computed"] += 1
        bar.advance()

    try:
        if backend == "dask":
            _run_dask(fn, configs, todo, scheduler, store)
        elif jobs == 1 or len(todo) == 1 or backend == "sequential":
            for i in todo:
                store(i, _call(fn, configs[i]))
        else:
            from joblib import Parallel, delayed
            par = Parallel(n_jobs=jobs, backend=backend, return_as="generator")
            with closing_pools():
                for i, raw in zip(todo, par(delayed(_call)(fn, configs[i]) for i in todo)):
                    store(i, raw)
    finally:
        bar.close()
    return SweepResults(results, configs)


def parse_scheduler(address, what: str = "--scheduler") -> str:
    """``tcp://HOST:PORT`` (or ``HOST:PORT``) as the canonical ``tcp://HOST:PORT``; anything
    else (another scheme, no port, a port outside 1..65535, spaces) is one line naming it.
    Only ``tcp://`` is accepted: a ``tls://`` scheduler needs a security configuration that
    boundcalc does not pass."""
    m = _ADDRESS.fullmatch(address) if isinstance(address, str) else None
    if m is None or not 1 <= int(m.group(2)) <= 65535:
        raise BoundcalcError(f"{what} {address!r} is not a Dask scheduler address; give tcp://HOST:PORT "
                             "(PORT 1..65535)")
    return f"tcp://{m.group(1)}:{int(m.group(2))}"


def check_scheduler(address, timeout: float = CONNECT_TIMEOUT, what: str = "--scheduler") -> str:
    """The scheduler at ``address`` is reached and answers as a Dask scheduler within
    ``timeout`` seconds, or one line saying why not (:class:`BoundcalcError`), before any work
    is submitted. The probe speaks Dask's protocol itself under one deadline (connect,
    handshake, an ``identity`` request): a server that is not Dask's (an HTTP server, whose
    reply Dask would read as the length of a 3 EiB frame, or one that never answers) is
    refused instead of exhausting memory or hanging. Returns the canonical address."""
    addr = parse_scheduler(address, what)
    import socket
    host, _, port = addr[len("tcp://"):].rpartition(":")
    try:                                    # a refused or unroutable address fails here, at once
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except TimeoutError:
        raise BoundcalcError(f"{what} {addr}: no Dask scheduler answers within {timeout:g} s") from None
    except OSError as e:
        raise BoundcalcError(f"{what} {addr}: cannot connect to a Dask scheduler there "
                             f"({e.strerror or e})") from None
    try:
        from distributed.comm import connect
    except ImportError:
        raise BoundcalcError("backend 'dask' needs dask.distributed (pip install 'dask[distributed]')") from None
    import asyncio

    async def probe():
        comm = await connect(addr, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    async def bounded():
        return await asyncio.wait_for(probe(), timeout)

    try:
        answer = asyncio.run(bounded())
    except TimeoutError:           # (asyncio's is the builtin since Python 3.11)
        raise BoundcalcError(f"{what} {addr}: no answer from a Dask scheduler within {timeout:g} s") from None
    except OSError:            # the TCP connection was made above: the peer hung up on Dask's handshake
        raise BoundcalcError(f"{what} {addr}: not a Dask scheduler (it closed the connection on "
                             "Dask's handshake)") from None
    except Exception as e:     # whatever a non-Dask peer makes the protocol raise
        raise BoundcalcError(f"{what} {addr}: not a Dask scheduler (its answer cannot be read as Dask's "
                             f"protocol: {type(e).__name__})") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        raise BoundcalcError(f"{what} {addr}: answers, but not as a Dask scheduler")
    return addr


def _run_dask(fn, configs, todo, scheduler, store):
    addr = check_scheduler(scheduler, what="sweep: scheduler")
    import joblib
    from distributed import Client
    try:
        client = Client(addr, timeout=f"{CONNECT_TIMEOUT:g}s")
    except (OSError, TimeoutError) as e:
        raise BoundcalcError(f"sweep: cannot connect to the Dask scheduler {addr!r} ({e})") from None
    try:
        with joblib.parallel_config(backend="dask", wait_for_workers_timeout=30):
            par = joblib.Parallel(n_jobs=-1, return_as="generator")
            for i, raw in zip(todo, par(joblib.delayed(_call)(fn, configs[i]) for i in todo)):
                store(i, raw)
    finally:
        client.close()
