"""Running the CLI for the fuzz suite: in-process (fast: the real ``boundcalc.cli.main``,
with its exception handling, under a CPU-time alarm: a busy machine slows a command down
but does not fail it) or as a real subprocess.

The guarantee checked everywhere (:func:`check_guarantee`): exit status 0 or 2, no
traceback anywhere, at most one line on stderr when the status is 2, within the time
limit (CPU seconds in process)."""
from __future__ import annotations

import contextlib
import io
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

EXE = Path(sys.executable).with_name("boundcalc")
TIME_LIMIT = 20.0          # CPU seconds per command (each case here takes well under 2 s)


class TimeLimit(Exception):
    pass


def _alarm(signum, frame):
    """Stop the command, but never inside an import (a module cut in the middle of its
    import stays half-initialised for every later test in this process: ``module 'sympy'
    has no attribute 'core'``, issue 37) nor a finalizer: look again a little later."""
    from boundcalc.prover.budget import _unsafe_to_interrupt
    if _unsafe_to_interrupt(frame):
        signal.setitimer(signal.ITIMER_PROF, 0.05)
        return
    raise TimeLimit("the command exceeded the time limit")


def run(args: list[str], *, env: dict | None = None, timeout: float = TIME_LIMIT) -> tuple[int, str, str]:
    """``boundcalc ARGS`` in this process: (exit status, stdout, stderr)."""
    from boundcalc.cli import main
    out, err = io.StringIO(), io.StringIO()
    saved_env = dict(os.environ)
    saved_argv = sys.argv
    os.environ.update(env or {})
    sys.argv = ["boundcalc", *args]
    old = signal.signal(signal.SIGPROF, _alarm)      # the process's CPU time, not the wall clock
    signal.setitimer(signal.ITIMER_PROF, timeout)
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        sys.argv = saved_argv
        os.environ.clear()
        os.environ.update(saved_env)
    return code, out.getvalue(), err.getvalue()


def run_subprocess(args: list[str], *, env: dict | None = None, timeout: float = 60,
                   memory: int = 3 << 30, cwd=None) -> tuple[int, str, str]:
    """``boundcalc ARGS`` as a real process (address space capped at ``memory`` bytes)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    full_env = {**os.environ, "COLUMNS": "200", **(env or {})}
    p = subprocess.run([str(EXE), *args], capture_output=True, text=True, timeout=timeout,
                       env=full_env, preexec_fn=limit, cwd=cwd, check=False)
    return p.returncode, p.stdout, p.stderr


def check_guarantee(args, code: int, out: str, err: str) -> None:
    shown = " ".join(map(str, args))[:300]
    assert "Traceback" not in err and "Traceback" not in out, f"traceback for {shown!r}:\n{err[-2000:]}"
    # 0 an answer, 2 bad input; 3 not monotone, 4 no / disproved, 5 unknown (README "Exit status")
    assert code in (0, 2, 3, 4, 5), f"exit {code} for {shown!r}: {err[-600:]}"
    if code == 2 or (code in (3, 4, 5) and err.strip()):
        lines = err.strip().splitlines()
        assert len(lines) == 1, f"{len(lines)} lines on stderr for {shown!r}:\n{err[:2000]}"
        assert lines[0].startswith("error: "), f"for {shown!r}: {lines[0]!r}"


def refused(args, *, env=None, contains=(), timeout: float = TIME_LIMIT, subprocess_: bool = False) -> str:
    """Run and assert: exit 2, one line naming every string of ``contains``; returns it."""
    t = _cpu()
    code, out, err = (run_subprocess if subprocess_ else run)(args, env=env, timeout=timeout)
    check_guarantee(args, code, out, err)
    assert code == 2, f"expected a refusal (exit 2) for {args!r}, got exit {code}: {out[:500]}"
    line = err.strip()
    for c in contains:
        assert c in line, f"{c!r} not in {line!r}"
    assert _cpu() - t < timeout
    return line


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (steady under load)."""
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime
