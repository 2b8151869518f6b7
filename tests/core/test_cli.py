"""End-to-end CLI tests (subprocesses: what a user types)."""
import json
import os
import subprocess
import sys

import pytest

ENV = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDCALC")}


def run(*args, check=True):
    p = subprocess.run([sys.executable, "-m", "boundcalc.cli", *args], capture_output=True, text=True, env=ENV,
                       timeout=120)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def test_require_heads_shows_every_default_and_json():
    p = run("require-heads", "--d", "16", "--T", "8", "--explain")
    for name in ("S", "zeta", "M", "Z_mu", "Z_nu", "n1", "delta", "K", "C", "C_P"):
        assert f"\n│ {name} " in p.stdout or f"│ {name} " in p.stdout, name
    assert "binding: heads_thm1_sketch" in p.stdout and "up to the absolute constant" in p.stdout
    data = json.loads(run("require-heads", "--d", "16", "--T", "8", "--json").stdout)
    assert isinstance(data["H"], int) and data["binding"].startswith("deora2023.heads_")
    assert data["inputs"]["S"]["from"] == "default" and data["inputs"]["d"]["from"] == "user"
    assert {r["id"] for r in data["requirements"]} == {"deora2023.heads_cor2", "deora2023.heads_prop2",
                                                       "deora2023.heads_thm1_sketch"}


def test_require_heads_thm1_exact_rational_input():
    data = json.loads(run("require-heads", "--theorem", "thm1", "--d", "16", "--T", "8", "--R", "1.5",
                          "--theta-2inf", "1", "--dist0", "1", "--json").stdout)
    byid = {r["id"]: r["H"] for r in data["requirements"]}
    assert byid["deora2023.heads_thm1"] == 118098


def test_eval_json_and_huge_values():
    d = json.loads(run("eval", "deora2023.beta1", "--set", "T=4", "--set", "R=1e200", "--set", "theta_2inf=1",
                       "--json", "--digits", "20").stdout)
    assert d["float"] is None and d["value"].startswith("4.0000000000000000000e+600")
    d = json.loads(run("eval", "deora2023.beta1", "--set", "T=4", "--set", "R=1", "--set", "theta_2inf=1",
                       "--json").stdout)
    assert d["float"] == 6.0 and d["qualifier"] == "exact constant"


@pytest.mark.parametrize("args,needle", [
    (("eval", "deora2023.nope"), "unknown formula"),
    (("eval", "deora2023.beta1", "--set", "T=4"), "missing value for symbol"),
    (("eval", "deora2023.beta1", "--set", "T=4", "--set", "R=0.5", "--set", "theta_2inf=1"), "outside its domain"),
    (("eval", "deora2023.beta1", "--set", "Q=1"), "unknown symbol 'Q'"),
    (("require-heads", "--d", "16", "--T", "8", "--Z-mu", "0.4", "--Z-nu", "0.4"), "no H can work"),
    (("require-heads", "--d", "16"), "missing input"),
    (("monotone", "deora2023.beta1", "--var", "q"), "not a symbol"),
    (("verify", "x", "=>", "y"), "REL must be"),
    (("--formulas", "/nonexistent.toml", "list"), "does not exist"),
])
def test_bad_input_one_line_exit_2_no_traceback(args, needle):
    p = run(*args, check=False)
    assert p.returncode == 2
    assert needle in p.stderr
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1


def test_malicious_user_file_via_cli(tmp_path):
    sentinel = tmp_path / "pwned"
    f = tmp_path / "evil.toml"
    f.write_text(f'''[paper]\nkey = "evil"\ntitle = "t"\n[symbols.x]\ndescription = "x"\ndomain = "real"\n
[formulas.f]\nname = "f"\nkind = "definition"\nsource = "s"\nexpr = "__import__('os').system('touch {sentinel}')"\n''')
    p = run("--formulas", str(f), "list", check=False)
    assert p.returncode == 2 and "not allowed" in p.stderr
    assert not sentinel.exists()


def test_monotone_asymptotic_verify_cli():
    d = json.loads(run("monotone", "deora2023.beta1", "--var", "R", "--json").stdout)
    assert (d["verdict"], d["evidence"]) == ("increasing", "proved")
    d = json.loads(run("asymptotic", "deora2023.heads_cor2", "--var", "K", "--json").stdout)
    assert d["order"] == "Theta(log(K)**6)"
    d = json.loads(run("verify", "x**2", ">=", "x", "--json").stdout)
    assert d["verdict"] == "disproved" and "x" in d["counterexample"]
    d = json.loads(run("verify", "x**2", ">=", "x", "--assume", "x>=1", "--json").stdout)
    assert d["verdict"] == "proved"


def test_list_show_simplify():
    assert "deora2023.gamma_star" in run("list", "--paper", "deora2023").stdout
    d = json.loads(run("show", "deora2023.beta2", "--json").stdout)
    assert d["uses"] == ["deora2023.beta1", "deora2023.beta3"] and d["source"] == "Cor. 1, eq. (2)"
    assert "latex" in run("simplify", "deora2023.beta2").stdout


def test_numeric_commands_do_not_import_sympy_or_pandas():
    code = ("import sys; sys.argv=['boundcalc','require-heads','--d','16','--T','8','--json'];"
            "import io, contextlib\nfrom boundcalc.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "  try: main()\n  except SystemExit: pass\n"
            "print(sorted(m for m in ('sympy','pandas','numpy','scipy') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    assert p.stdout.strip() == "[]", p.stdout + p.stderr
