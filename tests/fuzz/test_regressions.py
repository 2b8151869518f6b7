"""Issue 9: one regression test per reported case (huge numbers, files, outputs, cache,
sizes, divergence). Each asserts the new behaviour: a result, or ONE line on stderr
that names the culprit, exit 2 -- never a hang, a traceback or a silent wrong value."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from fuzzsupport import check_guarantee, refused, run

BETA2 = ["eval", "deora2023.beta2", "--set", "T=8", "--set", "d=16", "--set", "theta_2inf=2",
         "--set", "H=64"]
HEADS = ["require-heads", "--d", "16", "--T", "8"]
SCI = re.compile(r"(\d)\.(\d{14})e\+(\d+) \((\d+) digits\)")


def _formula_file(path: Path, key: str, domain: str = "real", expr: str = "x", extra: str = "") -> Path:
    f = path / f"{key}.toml"
    f.write_text(f'[paper]\nkey = "{key}"\ntitle = "t"\n{extra}\n[symbols.x]\ndescription = "x"\n'
                 f'domain = "{domain}"\n\n[formulas.f]\nname = "f"\nkind = "definition"\nexpr = "{expr}"\n'
                 'source = "s"\nstatus = "as printed"\n', encoding="utf-8")
    return f


# ------------------------------------------------------------------ 1. huge numbers
@pytest.mark.parametrize("args, flag", [
    (BETA2 + ["--set", "R=1e999999999"], "value of R"),                  # hung in Fraction('1e999999999')
    (HEADS + ["--K", "1e99999999"], "--K"),                                # hung
    (HEADS + ["--zeta", "1e5000"], "--zeta"),                              # 4300-digit traceback
    (HEADS + ["--n1", "1e5000"], "--n1"),                                  # 4300-digit traceback
    (["asymptotic", "deora2023.heads_cor2", "--var", "K", "--set", "K=10**5000"], "K"),
    (HEADS[:1] + ["--T", "8", "--d", "1/0"], "--d"),                       # ZeroDivisionError traceback
])
def test_huge_numbers_refused_naming_the_flag(args, flag):
    line = refused(args, contains=[flag])
    assert "divides by zero" in line or "far" in line


def test_number_budget_message_names_the_budget():
    line = refused(HEADS + ["--zeta", "1e5000"])
    assert "1e5000" in line and "1e4000" in line          # the value and the budget


def test_huge_domain_bound_in_a_file(tmp_path):
    f = _formula_file(tmp_path, "domhuge", domain="real >= 1e999999999")
    line = refused(["--formulas", str(f), "eval", "domhuge.f", "--x", "5"], contains=["1e999999999"])
    assert "domain" in line


@pytest.mark.parametrize("args, digits", [
    (["require-heads", "--theorem", "thm1", "--d", "1e400", "--T", "1e400", "--theta-2inf", "1e400",
      "--dist0", "1e400"], None),
    (HEADS + ["--gamma-star", "1e-2200"], None),
])
def test_least_H_beyond_4300_digits_prints_in_scientific_form(args, digits):
    code, out, err = run(args)
    check_guarantee(args, code, out, err)
    assert code == 0
    m = SCI.search(out)
    assert m, out[:500]
    # the digit count agrees with the exponent (D digits <=> 10^(D-1) <= H < 10^D), and it is past 4300
    assert int(m.group(4)) == int(m.group(3)) + 1 > 4300


def test_requirement_met_at_H_1_is_fast():
    import time
    t = time.process_time()                    # CPU seconds: steady on a busy machine
    code, out, err = run(HEADS + ["--C", "1e-300"])
    check_guarantee(HEADS, code, out, err)
    assert code == 0 and "least H" in out
    assert time.process_time() - t < 10        # was 46-67 s (probing up to 2^400000)


@pytest.mark.parametrize("x", ["10", "100"])
def test_exp_exp_exp_refused_not_hung(tmp_path, x):
    f = _formula_file(tmp_path, "eee", expr="exp(exp(exp(x)))")
    refused(["--formulas", str(f), "eval", "eee.f", "--x", x], contains=["eee.f"])


def test_digits_accepts_exactly_what_it_delivers():
    code, out, err = run(BETA2 + ["--set", "R=2", "--digits", "10000"])
    check_guarantee(BETA2, code, out, err)
    assert code == 0
    value = out.split("=", 1)[1].split()[0]
    assert len(value.replace(".", "").lstrip("0")) == 10000           # 10000 digits printed
    refused(BETA2 + ["--set", "R=2", "--digits", "10001"], contains=["10001"])
    refused(BETA2 + ["--set", "R=2", "--digits", "0"], contains=["digits"])


def test_5000_digit_toml_integer(tmp_path):
    f = _formula_file(tmp_path, "bignum", extra="big = " + "9" * 5000)
    refused(["--formulas", str(f), "list"], contains=["bignum.toml", "4300 digits"])


def test_number_parser_budget_directly():
    from fractions import Fraction

    from boundcalc.errors import BoundcalcError
    from boundcalc.expr.parser import parse_number
    assert parse_number("1e400") == Fraction(10) ** 400
    assert parse_number("-2.5e-3") == Fraction(-1, 400)
    assert parse_number("2/3") == Fraction(2, 3)
    assert parse_number("2**100") == 2 ** 100
    assert parse_number("1e4000") == Fraction(10) ** 4000
    for bad in ("1e4001", "1e-4002", "1e999999999999", "9" * 4001, "1/0", "10**10**10", "nan", "inf", ""):
        with pytest.raises(BoundcalcError):
            parse_number(bad, where="--x")


def test_exact_integers_of_any_size_print_with_digit_count():
    from fractions import Fraction

    from boundcalc.expr.numbers import exact_digits, fmt_int
    from boundcalc.registry.values import fmt_fraction
    n = 7 * 10 ** 5000 + 3
    assert fmt_fraction(Fraction(n)) == "7.00000000000000e+5000 (5001 digits)"
    assert fmt_int(-(10 ** 45)) == "-1.00000000000000e+45 (46 digits)"
    assert fmt_int(123) == "123"
    digits = exact_digits(n)                        # all digits on request, past the int/str limit
    assert len(digits) == 5001 and digits[0] == "7" and digits[-1] == "3" and set(digits[1:-1]) == {"0"}


# ------------------------------------------------------------------ 2. files
def test_fifo_in_formula_folder_is_refused_not_hung(tmp_path):
    d = tmp_path / "fifodir"
    d.mkdir()
    os.mkfifo(d / "x.toml")
    line = refused(["--formulas", str(d), "list"], contains=["x.toml", "FIFO"], subprocess_=True, timeout=30)
    assert "not a regular file" in line


def test_symlink_to_dev_zero_is_refused(tmp_path):
    d = tmp_path / "zerodir"
    d.mkdir()
    (d / "z.toml").symlink_to("/dev/zero")
    refused(["--formulas", str(d), "list"], contains=["z.toml", "character device"], subprocess_=True,
            timeout=30)


def test_52_mb_formula_file_is_refused_by_size(tmp_path):
    f = tmp_path / "huge52.toml"
    with open(f, "wb") as fh:                       # sparse: 52 MB without writing them
        fh.truncate(52 * 1024 * 1024)
    refused(["--formulas", str(f), "list"], contains=["huge52.toml", "52.0 MB", "2.0 MB limit"])


def test_dev_null_is_reported_as_what_it_is():
    refused(["--formulas", "/dev/null", "list"], contains=["/dev/null", "character device"])


@pytest.mark.parametrize("kind", ["malformed", "binary", "cyclic"])
def test_bad_user_file_refused_even_when_the_command_does_not_touch_it(tmp_path, kind):
    if kind == "malformed":
        f = tmp_path / "malformed.toml"
        f.write_text('[paper\nkey = "malformed"\n', encoding="utf-8")
    elif kind == "binary":
        f = tmp_path / "binary.toml"
        f.write_bytes(b"\x00\x01\x02binary\xff")
    else:
        f = tmp_path / "cyclic.toml"
        f.write_text('[paper]\nkey = "cyclic"\ntitle = "t"\n\n[formulas.f]\nname = "f"\nkind = "definition"\n'
                     'expr = "cyclic.g"\nsource = "s"\nstatus = "as printed"\n\n[formulas.g]\nname = "g"\n'
                     'kind = "definition"\nexpr = "cyclic.f"\nsource = "s"\nstatus = "as printed"\n',
                     encoding="utf-8")
    refused(["--formulas", str(f)] + BETA2 + ["--set", "R=2"], contains=[f.name])
    # the same through the environment
    refused(BETA2 + ["--set", "R=2"], env={"BOUNDCALC_FORMULAS": str(f)}, contains=[f.name])


# ------------------------------------------------------------------ 3. outputs (refused before any work)
needs_proc = pytest.mark.skipif(not Path("/proc/self").exists(),
                                reason="needs /proc")


@pytest.fixture
def no_experiments(monkeypatch):
    """Fail if an experiment module is even loaded: outputs are checked before any work."""
    import boundcalc.experiments as ex

    def boom(*a, **k):
        raise AssertionError("work started before the outputs were validated")
    monkeypatch.setattr(ex, "experiment_module", boom)


@needs_proc
@pytest.mark.parametrize("extra, contains", [
    (["--output", "/proc/x"], ["--output", "/proc/x"]),
    (["--plot", "/proc/x.png"], ["--plot", "/proc/x.png"]),
])
def test_unwritable_outputs(extra, contains, no_experiments):
    refused(["compare", "tarzanagh2023"] + extra, contains=contains)


def test_output_folder_even_with_force(tmp_path, no_experiments):
    refused(["compare", "tarzanagh2023", "--output", str(tmp_path), "--force"], contains=["is a folder"])


def test_output_under_a_file(tmp_path, no_experiments):
    (tmp_path / "file").write_text("x")
    refused(["compare", "tarzanagh2023", "--output", str(tmp_path / "file" / "sub.md")],
            contains=["is not a folder"])


def test_output_and_plot_collide(tmp_path, no_experiments):
    p = str(tmp_path / "plt" / "same.png")
    refused(["compare", "tarzanagh2023", "--output", p, "--plot", p], contains=["same file", "same.png"])
    assert not (tmp_path / "plt").exists()


@pytest.mark.parametrize("where", ["file", "proc"])
def test_cache_env_pointing_at_a_file_or_proc(tmp_path, where, no_experiments):
    target = tmp_path / "afile" if where == "file" else Path("/proc/x")
    if where == "file":
        target.write_text("x")
    refused(["compare", "tarzanagh2023"], env={"BOUNDCALC_CACHE": str(target)},
            contains=["BOUNDCALC_CACHE", str(target)])


# ------------------------------------------------------------------ 5. sizes and divergence
@pytest.mark.parametrize("args, size", [
    (["compare", "tarzanagh2023", "--steps", "1000000000000"], "7.3 TiB"),   # 8 bytes x (1e12 + 1)
    (["compare", "deora2023", "--n", "1000000000"], "PiB"),
    (["compare", "deora2023", "--T", "100000", "--d", "100000"], "PiB"),    # 2200 x 1e10 x 16 bytes + ...
    (["compare", "arda2026", "--widths", "100000000"], "TiB"),            # 8 x 1e8 x 64 x 8 bytes + ...
    (["compare", "anon2025", "--epochs", "1000000000000"], "TiB"),        # the per-epoch history
])
def test_sizes_refused_before_allocating(args, size):
    line = refused(args, contains=["needs about", size, "budget"])
    assert "--max-memory" in line


def test_max_memory_option(monkeypatch):
    refused(["compare", "deora2023", "--max-memory", "1M"], contains=["1.0 MiB", "--max-memory 1M"])
    refused(["compare", "deora2023", "--max-memory", "lots"], contains=["--max-memory", "lots"])


@pytest.mark.parametrize("args", [
    ["compare", "tarzanagh2023", "--lr", "1e300", "--normalized", "false", "--steps", "50", "--no-cache"],
    ["compare", "deora2023", "--eta", "1e300", "--K", "20", "--n1", "60", "--n", "60", "--n-test", "60",
     "--no-cache", "--format", "csv"],
    ["compare", "anon2025", "--lr", "1e300", "--epochs", "5", "--no-cache", "--format", "markdown"],
])
def test_divergence_is_reported_not_inf(args):
    code, out, err = run(args)
    check_guarantee(args, code, out, err)
    assert code == 0
    assert re.search(r"diverged at step \d+", out)
    assert "inf" not in out.replace("info", "").lower()
    assert "RuntimeWarning" not in err and "Warning:" not in err


def test_divergence_unit():
    import numpy as np

    from boundcalc.engine.budget import Divergence, check_finite, numpy_quiet
    check_finite(3, loss=1.0, p=np.ones(3))
    with pytest.raises(Divergence) as e:
        check_finite(7, loss=float("nan"))
    assert e.value.step == 7 and "diverged at step 7" in str(e.value)
    with numpy_quiet() as w:
        np.exp(np.array([1000.0]))
    assert "overflow" in w.summary() and "x1" in w.summary()
