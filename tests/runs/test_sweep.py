"""runs.sweep: cache hits, partial recomputation, determinism across jobs, Dask."""
from __future__ import annotations

import json
import sys
from pathlib import Path

# Worker processes (loky) and Dask workers cannot import this test module by name
# (pytest imports it with --import-mode=importlib): ship its functions by value.
import cloudpickle
import numpy as np
import pytest

from boundcalc.errors import BoundcalcError
from boundcalc.runs import sweep

cloudpickle.register_pickle_by_value(sys.modules[__name__])


def logged_square(config: dict) -> dict:
    """Append one line per call to config["log"] (the side channel counting calls)."""
    with open(config["log"], "a", encoding="utf-8") as fh:
        fh.write(json.dumps(config["x"]) + "\n")
    return {"y": config["x"] ** 2 * config.get("scale", 1)}


def seeded_numpy(config: dict) -> dict:
    rng = np.random.default_rng(config["seed"])
    a = rng.standard_normal((config["n"], config["n"]))
    return {"eig": sorted(np.linalg.eigvalsh(a + a.T).tolist()), "mean": float(a.mean()),
            "seed": config["seed"]}


def calls(log: Path) -> list:
    return [json.loads(s) for s in log.read_text().splitlines()] if log.exists() else []


def test_cache_hit_and_partial_recompute(tmp_path):
    log = tmp_path / "calls.log"
    cache = tmp_path / "cache"
    configs = [{"x": x, "seed": 0, "log": str(log)} for x in (1, 2, 3)]
    r1 = sweep.run(logged_square, configs, cache_dir=cache, progress=False)
    assert r1 == [{"y": 1}, {"y": 4}, {"y": 9}]
    assert sorted(calls(log)) == [1, 2, 3]
    # rerun: served from the cache, the function is not called again
    r2 = sweep.run(logged_square, configs, cache_dir=cache, progress=False)
    assert r2 == r1 and len(calls(log)) == 3
    # change one setting of one config: only that one is recomputed
    configs[1] = dict(configs[1], scale=10)
    r3 = sweep.run(logged_square, configs, cache_dir=cache, progress=False)
    assert r3 == [{"y": 1}, {"y": 40}, {"y": 9}]
    assert calls(log) == [1, 2, 3, 2]
    # one JSON file per config, with the function, version and config recorded
    files = sorted((cache / "sweep").rglob("*.json"))
    assert len(files) == 4
    rec = json.loads(files[0].read_text())
    assert rec["fn"].endswith("logged_square") and rec["version"] and "x" in rec["config"]
    # cache disabled: always calls
    sweep.run(logged_square, configs[:1], cache_dir=False, progress=False)
    assert len(calls(log)) == 5


def test_env_cache_dir_and_corrupt_entry(tmp_path, monkeypatch):
    monkeypatch.setenv("BOUNDCALC_CACHE", str(tmp_path / "envcache"))
    log = tmp_path / "calls.log"
    cfg = [{"x": 5, "seed": 0, "log": str(log)}]
    assert sweep.run(logged_square, cfg, progress=False) == [{"y": 25}]
    files = list((tmp_path / "envcache" / "sweep").rglob("*.json"))
    assert len(files) == 1
    files[0].write_text("{not json")          # a corrupt entry is recomputed, not trusted
    assert sweep.run(logged_square, cfg, progress=False) == [{"y": 25}]
    assert len(calls(log)) == 2


def test_bit_identical_across_jobs(tmp_path):
    configs = [{"n": 6, "seed": s} for s in range(4)]
    one = sweep.run(seeded_numpy, configs, jobs=1, cache_dir=False, progress=False)
    two = sweep.run(seeded_numpy, configs, jobs=2, cache_dir=False, progress=False)
    assert json.dumps(one) == json.dumps(two)          # same bits, same order
    assert [r["seed"] for r in two] == [0, 1, 2, 3]
    # and equal to a direct computation
    direct = seeded_numpy({"n": 6, "seed": 2})
    assert two[2]["eig"] == direct["eig"] and two[2]["mean"] == direct["mean"]
    # cached results read back are the same bits as fresh ones
    sweep.run(seeded_numpy, configs, jobs=2, cache_dir=tmp_path, progress=False)
    again = sweep.run(seeded_numpy, configs, jobs=1, cache_dir=tmp_path, progress=False)
    assert json.dumps(again) == json.dumps(one)


def test_bad_input():
    with pytest.raises(BoundcalcError, match="module-level"):
        sweep.run(lambda c: c, [{"seed": 0}], cache_dir=False)
    with pytest.raises(BoundcalcError, match="config #1"):
        sweep.run(seeded_numpy, [{"seed": 0, "n": 2}, {"seed": object()}], cache_dir=False)
    with pytest.raises(BoundcalcError, match="backend"):
        sweep.run(seeded_numpy, [{"seed": 0, "n": 2}], backend="mpi", cache_dir=False)
    with pytest.raises(BoundcalcError, match="scheduler"):
        sweep.run(seeded_numpy, [{"seed": 0, "n": 2}], backend="dask", cache_dir=False)
    with pytest.raises(BoundcalcError, match="jobs"):
        sweep.run(seeded_numpy, [{"seed": 0, "n": 2}], jobs=0, cache_dir=False)


def not_a_dict(config):
    return [config["seed"]]


def test_result_must_be_dict():
    with pytest.raises(BoundcalcError, match="must return a dict"):
        sweep.run(not_a_dict, [{"seed": 0}], cache_dir=False)


def test_dask_backend(tmp_path):
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]')")
    configs = [{"n": 5, "seed": s} for s in range(3)]
    expected = sweep.run(seeded_numpy, configs, jobs=1, cache_dir=False, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  protocol="tcp", host="127.0.0.1", dashboard_address=None) as cluster:
        got = sweep.run(seeded_numpy, configs, backend="dask", scheduler=cluster.scheduler_address,
                        cache_dir=tmp_path, progress=False)
    assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
    assert json.dumps(got) == json.dumps(expected)
    # the results were cached: rerun without any cluster
    assert sweep.run(seeded_numpy, configs, backend="dask", scheduler="tcp://127.0.0.1:1",
                     cache_dir=tmp_path, progress=False) == got


def test_dask_unreachable_scheduler(monkeypatch):
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    monkeypatch.setattr(sweep, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(BoundcalcError, match="Dask scheduler"):
        sweep.run(seeded_numpy, [{"n": 2, "seed": 0}], backend="dask", scheduler="tcp://127.0.0.1:1",
                  cache_dir=False, progress=False)


def test_progress_bar_appears_for_slow_work(monkeypatch, capsys):
    monkeypatch.setattr(sweep, "PROGRESS_AFTER", 0.0)
    configs = [{"n": 3, "seed": s} for s in range(3)]
    out = sweep.run(seeded_numpy, configs, cache_dir=False, progress=True, desc="demo")
    assert len(out) == 3


def diverging(config: dict) -> dict:
    from boundcalc.engine.budget import Divergence
    if config["eta"] > 1:
        raise Divergence(17, "iterate")
    return {"ok": config["eta"]}


@pytest.mark.parametrize("jobs", [1, 2])
def test_divergence_names_its_configuration_across_processes(jobs):
    # In a worker process the exception is pickled back to the parent: before __reduce__ the
    # message came back nested ("diverged at step diverged at step 17 ...") and lost its fields.
    from boundcalc.engine.budget import Divergence
    cfgs = [{"eta": 0.5, "seed": 0}, {"eta": 2.0, "seed": 3}]
    with pytest.raises(Divergence) as e:
        sweep.run(diverging, cfgs, jobs=jobs, cache_dir=False, progress=False)
    assert str(e.value) == "(eta=2.0, seed=3) diverged at step 17 (non-finite iterate)"
    assert (e.value.step, e.value.what) == (17, "iterate")


# --- the Dask scheduler is parsed and asked who it is before any work (issue 30) ---

@pytest.mark.parametrize("bad", ["garbage address", "garbage", "tcp://127.0.0.1", "tcp://127.0.0.1:0",
                                 "tcp://127.0.0.1:99999", "tls://127.0.0.1:8786", "http://127.0.0.1:80",
                                 "tcp://host name:1", "", 8786])
def test_a_garbage_scheduler_address_is_one_line(bad):
    with pytest.raises(BoundcalcError, match="not a Dask scheduler address"):
        sweep.parse_scheduler(bad)


def test_a_scheduler_address_in_its_canonical_form():
    assert sweep.parse_scheduler("127.0.0.1:8786") == "tcp://127.0.0.1:8786"
    assert sweep.parse_scheduler("tcp://localhost:08786") == "tcp://localhost:8786"
    assert sweep.parse_scheduler("tcp://[::1]:8786") == "tcp://[::1]:8786"


def _serve(handler):
    """A TCP server on loopback calling ``handler(conn)`` for each connection, in a thread;
    returns (address, stop)."""
    import socket
    import threading
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    srv.settimeout(0.2)
    done = threading.Event()
    conns = []

    def loop():
        while not done.is_set():
            try:
                c, _ = srv.accept()
            except OSError:
                continue
            conns.append(c)
            handler(c)

    t = threading.Thread(target=loop, daemon=True)
    t.start()

    def stop():
        done.set()
        t.join()
        for c in conns:
            c.close()
        srv.close()
    return f"tcp://127.0.0.1:{srv.getsockname()[1]}", stop


@pytest.mark.parametrize("handler", [
    lambda c: c.sendall(b"HTTP/1.0 400 Bad Request\r\nContent-Length: 0\r\n\r\n"),  # read as a 3 EiB frame
    lambda c: None,                                                                # accepts, never answers
    lambda c: c.close(),                                                           # hangs up at once
], ids=["http-reply", "silent", "hang-up"])
def test_a_non_dask_endpoint_is_one_line_within_the_timeout(handler):
    import time
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    addr, stop = _serve(handler)
    try:
        t = time.monotonic()
        with pytest.raises(BoundcalcError, match=r"not a Dask scheduler|no answer from a Dask scheduler"):
            sweep.check_scheduler(addr)
        assert time.monotonic() - t < sweep.CONNECT_TIMEOUT + 1.5
        with pytest.raises(BoundcalcError):         # and sweep.run says so before computing anything
            sweep.run(seeded_numpy, [{"n": 2, "seed": 0}], backend="dask", scheduler=addr,
                      cache_dir=False, progress=False)
    finally:
        stop()


def test_a_real_scheduler_passes_the_probe():
    distributed = pytest.importorskip("distributed", reason="dask.distributed is not installed")
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert sweep.check_scheduler(cluster.scheduler_address) == cluster.scheduler_address


def test_a_refused_port_is_one_line_at_once():
    import time
    t = time.monotonic()
    with pytest.raises(BoundcalcError, match="cannot connect to a Dask scheduler there"):
        sweep.check_scheduler("tcp://127.0.0.1:1")
    assert time.monotonic() - t < 2
