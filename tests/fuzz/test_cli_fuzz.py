"""A hypothesis-driven fuzzer over the CLI's argument grammar: numbers, names (flags and
formula ids), expressions (in a user formula file), paths (formula files and outputs).

Every case must end with exit 0 or 2, no traceback, at most one line on stderr when the
status is 2, and within the time limit (fuzzsupport.TIME_LIMIT). Derandomised, so CI
runs the same cases every time; the example counts keep the suite's time well under a
minute. Locally: BOUNDCALC_FUZZ_EXAMPLES=500 (more cases), BOUNDCALC_FUZZ_RANDOM=1 (new ones)."""
from __future__ import annotations

import itertools
import os
import string

import pytest
from fuzzsupport import check_guarantee, run, run_subprocess
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=int(os.environ.get("BOUNDCALC_FUZZ_EXAMPLES", "40")), deadline=None,
                derandomize=not os.environ.get("BOUNDCALC_FUZZ_RANDOM"), database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.filter_too_much])

# ---------------------------------------------------------------------------- numbers
EDGE_NUMBERS = ["1e999999999", "-1e999999999", "1e-999999999", "1e4000", "1e4001", "1e-4001", "0", "-0",
                "1/0", "0/0", "2/3", "-7/2", "10**5000", "10**10**10", "2**-100000", "2**4000", "nan", "inf",
                "-inf", "NaN", "1e", "e5", ".", "-", "+", "1..2", "0x10", "1_000", "\uff11\uff12", "sqrt(2)",
                "sqrt(4)", "log(0)", "exp(1000)", "exp(exp(exp(10)))", "9" * 5000, "(((1)))", "1" * 50,
                "1e+", "--5", "1/3/5", "1e400", "1e-300", "(1e400)**(1e400)", "x", "__import__('os')",
                "().__class__", "lambda: 0", "'1'", "1 if 1 else 2", "[1]", "{1}", "1;2", "\x00", " ", ""]
numbers = st.one_of(
    st.sampled_from(EDGE_NUMBERS),
    st.integers(-10 ** 30, 10 ** 30).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.builds(lambda m, e: f"{m}e{e}", st.integers(0, 10 ** 6), st.integers(-10 ** 12, 10 ** 12)),
    st.builds(lambda a, b: f"{a}/{b}", st.integers(-10 ** 6, 10 ** 6), st.integers(-3, 10 ** 6)),
    st.text(alphabet="0123456789.eE+-/*() x", max_size=24),
)

# ---------------------------------------------------------------------------- names
HEAD_FLAGS = ["d", "T", "K", "zeta", "n1", "n", "C", "gamma-star", "theta-2inf", "dist0", "R", "H", "delta",
              "C-P", "bogus", "x" * 60, "d_", "-d", "theorem", "target"]
flag_names = st.one_of(st.sampled_from(HEAD_FLAGS),
                       st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=12))
FORMULA_IDS = ["deora2023.beta2", "deora2023.heads_cor2", "deora2023.gen_gap_cor2", "anon2025", "deora2023.",
               ".beta2", "deora2023.bta2", "nosuch.thing", "deora2023.beta2.x", "../../etc/passwd", "", " "]
formula_ids = st.one_of(st.sampled_from(FORMULA_IDS),
                        st.text(alphabet=string.ascii_letters + "._-/", min_size=1, max_size=20))
BETA2_SYMBOLS = ["T", "d", "theta_2inf", "H", "R"]


@FUZZ
@given(values=st.lists(st.tuples(flag_names, numbers), min_size=1, max_size=3))
def test_require_heads_numbers_and_names(values):
    args = ["require-heads"]
    for name, v in values:
        args += [f"--{name}", v]
    code, out, err = run(args)
    check_guarantee(args, code, out, err)


@FUZZ
@given(fid=formula_ids, vals=st.lists(numbers, min_size=5, max_size=5), digits=st.one_of(
    st.none(), st.sampled_from(["0", "1", "15", "10000", "10001", "-1", "abc", "1e3", str(10 ** 30)])))
def test_eval_numbers_ids_digits(fid, vals, digits):
    args = ["eval", fid] + [x for s, v in zip(BETA2_SYMBOLS, vals) for x in ("--set", f"{s}={v}")]
    if digits is not None:
        args += ["--digits", digits]
    code, out, err = run(args)
    check_guarantee(args, code, out, err)


# ---------------------------------------------------------------------------- expressions
ATOMS = st.one_of(st.sampled_from(["x", "x", "pi", "E", "1e300", "1e-300", "0", "2", "1e4000", "-1", "10**400"]),
                  st.integers(-1000, 1000).map(str))


def _expr(children):
    return st.one_of(
        st.builds(lambda a, op, b: f"({a}){op}({b})", children, st.sampled_from(["+", "-", "*", "/", "**"]),
                  children),
        st.builds(lambda f, a: f"{f}({a})", st.sampled_from(["exp", "log", "sqrt", "sin", "tanh", "atan", "erf",
                                                             "abs", "floor", "ceil", "cos"]), children),
        st.builds(lambda a, b: f"max({a}, {b})", children, children),
        st.builds(lambda a: f"-({a})", children),
    )


expressions = st.one_of(st.recursive(ATOMS, _expr, max_leaves=6),
                        st.sampled_from(["exp(exp(exp(x)))", "x**x**x", "(x**x)**(x**x)", "log(log(log(x)))",
                                         "sin(10**4000*x)", "floor(x**1000)", "1/(x-x)", "sqrt(-x)", "log(x-x)",
                                         "__import__('os').system('true')", "x.__class__", "x[0]", "x if x else 1",
                                         "'a'*10**9", "(" * 200 + "x" + ")" * 200, "x" + "+x" * 1500]))
_counter = itertools.count()


@FUZZ
@given(expr=expressions, x=st.sampled_from(["10", "100", "1e300", "-5", "0", "1e-300", "0.5", "1e4000", "3"]))
def test_expressions_in_a_user_formula_file(tmp_path_factory, expr, x):
    d = tmp_path_factory.mktemp("expr")
    key = f"fz{next(_counter)}"
    body = expr.replace("\\", "\\\\").replace('"', '\\"')
    (d / f"{key}.toml").write_text(
        f'[paper]\nkey = "{key}"\ntitle = "fuzz"\n\n[symbols.x]\ndescription = "x"\ndomain = "real"\n\n'
        f'[formulas.f]\nname = "f"\nkind = "definition"\nexpr = "{body}"\nsource = "s"\nstatus = "as printed"\n',
        encoding="utf-8")
    args = ["--formulas", str(d / f"{key}.toml"), "eval", f"{key}.f", "--x", x]
    code, out, err = run(args)
    check_guarantee(args, code, out, err)


# ---------------------------------------------------------------------------- paths
@pytest.fixture(scope="module")
def zoo(tmp_path_factory):
    """Paths of every kind: folders, a FIFO, devices, a file under a file, binary and random files."""
    z = tmp_path_factory.mktemp("zoo")
    (z / "dir").mkdir()
    (z / "afile").write_text("x")
    os.mkfifo(z / "fifo.toml")
    (z / "dev.toml").symlink_to("/dev/zero")
    (z / "loop.toml").symlink_to(z / "loop.toml")
    (z / "bin.toml").write_bytes(b"\x00\xff" * 10)
    return z


def _path(z, kind: str, junk: str) -> str:
    return {"dir": str(z / "dir"), "dir/": str(z / "dir") + "/", "file": str(z / "afile"),
            "under_file": str(z / "afile" / "sub.md"), "fifo": str(z / "fifo.toml"), "dev": str(z / "dev.toml"),
            "loop": str(z / "loop.toml"), "bin": str(z / "bin.toml"), "devnull": "/dev/null",
            "proc": "/proc/x", "missing": str(z / "nope" / "deeper" / f"{junk}.md"), "new": str(z / f"{junk}.md"),
            "empty": "", "dash": "-", "junk": junk}[kind]


PATH_KINDS = ["dir", "dir/", "file", "under_file", "fifo", "dev", "loop", "bin", "devnull", "proc", "missing",
              "new", "empty", "dash", "junk"]
junk_names = st.text(alphabet=string.ascii_letters + string.digits + "._-~ é", min_size=1, max_size=12)


@FUZZ
@given(kind=st.sampled_from(PATH_KINDS), junk=junk_names, content=st.one_of(st.none(), st.binary(max_size=200),
                                                                            st.text(max_size=200)))
def test_formula_paths(zoo, kind, junk, content):
    path = _path(zoo, kind, junk)
    if content is not None and kind in ("new", "junk"):
        return                                         # random content: below, in a file of its own
    code, out, err = run(["--formulas", path, "list"])
    check_guarantee(["--formulas", path, "list"], code, out, err)
    if content is not None:
        f = zoo / f"rnd{next(_counter)}.toml"
        f.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8", "surrogatepass"))
        args = ["--formulas", str(f), "eval", "deora2023.beta2", "--set", "T=8", "--set", "d=16",
                "--set", "theta_2inf=2", "--set", "H=64", "--set", "R=2"]
        code, out, err = run(args)
        check_guarantee(args, code, out, err)


@FUZZ
@given(paper=st.sampled_from(["tarzanagh2023", "deora2023", "arda2026", "anon2025", "nosuch"]),
       out_kind=st.sampled_from(PATH_KINDS + ["none"]), plot_kind=st.sampled_from(PATH_KINDS + ["none", "same"]),
       junk=junk_names, force=st.booleans(), cache_kind=st.sampled_from(["ok", "file", "proc", "none"]))
def test_compare_output_paths(zoo, tmp_path_factory, paper, out_kind, plot_kind, junk, force, cache_kind):
    """Outputs of every kind; --max-memory 1 makes any run that gets past the checks stop at
    the memory budget, so no case computes anything."""
    args = ["compare", paper, "--max-memory", "1"]
    out_path = None if out_kind == "none" else _path(zoo, out_kind, junk)
    if out_path is not None:
        args += ["--output", out_path]
    if plot_kind == "same":
        args += ["--plot", out_path or "x.png"]
    elif plot_kind != "none":
        args += ["--plot", _path(zoo, plot_kind, junk + "p")]
    if force:
        args.append("--force")
    env = {"ok": {"BOUNDCALC_CACHE": str(tmp_path_factory.mktemp("cache"))},
           "file": {"BOUNDCALC_CACHE": str(zoo / "afile")}, "proc": {"BOUNDCALC_CACHE": "/proc/x"},
           "none": {}}[cache_kind]
    code, out, err = run(args, env=env)
    check_guarantee(args, code, out, err)
    assert code == 2                                  # never computes: refused somewhere


# ---------------------------------------------------------------------------- real processes
@pytest.mark.parametrize("args", [
    ["eval", "deora2023.beta2", "--set", "T=8", "--set", "d=16", "--set", "theta_2inf=2", "--set", "H=64",
     "--set", "R=1e999999999"],
    ["require-heads", "--d", "1/0", "--T", "8"],
    ["compare", "tarzanagh2023", "--steps", "1000000000000"],
    ["--formulas", "/dev/null", "list"],
])
def test_real_subprocess(args):
    code, out, err = run_subprocess(args, timeout=60)
    check_guarantee(args, code, out, err)
    assert code == 2


# ---------------------------------------------------------------------------- inverse queries, lookups
VARS = ["H", "n", "K", "m", "eta", "d_m", "alpha", "x", "", "nosuch"]
TARGETS = ["gen_gap_cor2 <= 0.05", "gen_gap_cor2 <= 1e-4000", "gen_gap_cor2 <= -1", "gen_gap_cor2 <= 1e999999",
           "gen_gap_cor2 >= 0", "beta2 <= 1/0", "nosuch <= 1", "gen_gap_cor2", "<= 1", "gen_gap_cor2 <= x",
           "__import__('os') <= 1", "gen_gap_cor2 == 0.1"]


@FUZZ
@given(var=st.sampled_from(VARS), paper=st.sampled_from(["deora2023", "anon2025", "arda2026", "nosuch", None]),
       target=st.one_of(st.none(), st.sampled_from(TARGETS)),
       values=st.lists(st.tuples(flag_names, numbers), max_size=2))
def test_require_inverse_queries(var, paper, target, values):
    args = ["require"] + ([var] if var else [])
    if paper:
        args += ["--paper", paper]
    if target:
        args += ["--target", target]
    for name, v in values:
        args += ["--set", f"{name}={v}"]
    code, out, err = run(args)
    check_guarantee(args, code, out, err)


@FUZZ
@given(cmd=st.sampled_from([["show"], ["list", "--paper"], ["cite"], ["show", "--json"]]), name=formula_ids)
def test_lookups_by_name(cmd, name):
    args = [*cmd, name]
    code, out, err = run(args)
    check_guarantee(args, code, out, err)
