"""End-to-end CLI tests (subprocesses: what a user types)."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import mpmath
import pytest

ROOT = Path(__file__).resolve().parents[2]

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
    """require-heads (text and JSON) pays for none of SymPy, pandas, NumPy, SciPy, z3 or
    mpmath: its certificates are arb balls and exact rationals."""
    for extra in ([], ["--json"], ["--explain"]):
        code = (f"import sys; sys.argv=['boundcalc','require-heads','--d','16','--T','8',*{extra!r}];"
                "import io, contextlib\nfrom boundcalc.cli import main\n"
                "with contextlib.redirect_stdout(io.StringIO()):\n"
                "  try: main()\n  except SystemExit: pass\n"
                "print(sorted(m for m in ('sympy','pandas','numpy','scipy','z3','mpmath') if m in sys.modules))")
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
        assert p.stdout.strip() == "[]", (extra, p.stdout + p.stderr)


# ---------------------------------------------------------------------------- issue 11: the desk
def run80(*args, check=True):
    env = dict(ENV, COLUMNS="80")
    p = subprocess.run([sys.executable, "-m", "boundcalc.cli", *args], capture_output=True, text=True, env=env,
                       timeout=120)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def _dm1_values(**over):
    """Deora et al.'s DM1 quantities, by hand (mpmath), at the dm1 setting's defaults."""
    mp = mpmath
    v = dict(S=1, zeta="0.5", M=2, Z="0.1", Z_mu="0.01", Z_nu="0.01", n1="1e8", n=1000, delta="0.01", K=1000,
             T=8, d=16, C_P=1)
    v.update(over)
    S, zeta, M, Z, Zmu, Znu, n1, n, delta, K, T, d, CP = (mp.mpf(str(v[k])) for k in
                                                          ("S", "zeta", "M", "Z", "Z_mu", "Z_nu", "n1", "n",
                                                           "delta", "K", "T", "d", "C_P"))
    R = mp.sqrt(S ** 2 + Z ** 2 + 2 * Znu / M)
    P = CP * (2 * S + Z) * (mp.sqrt(d / n1) + mp.sqrt(mp.log(1 / delta) / n1))
    Zb = max(Zmu, Znu)
    gs = (T * (1 - zeta) * zeta * (zeta * S ** 4 - 7 * Zb * S ** 2 - 12 * Zb ** 2 - 16 * Zb ** 3 / S ** 2)
          / (4 * mp.sqrt(2 * (M + 1))) - P * T ** mp.mpf(2.5) * (S + Z) ** 3
          + S * mp.sqrt(T) * (zeta - 2 * (1 - zeta) * Zmu / S ** 2) / mp.sqrt(2))
    BP = T * R * (S + P) * mp.sqrt(2 * mp.log(n / delta))
    return dict(R=R, P=P, gamma=gs / 2, B_Phi=BP, K=K, n=n)


def test_require_heads_answer_first_at_80_columns():
    p = run80("require-heads", "--d", "16", "--T", "8")
    lines = p.stdout.splitlines()
    assert lines[0].startswith("least H = 847212966632809542363248 ")       # value of test_services' check
    assert "heads_thm1_sketch" in lines[0] and "derived" in lines[0]
    assert "up to the absolute constant(s) C_P" in " ".join(x.strip() for x in lines[:2])
    assert all(len(line) <= 80 for line in lines), [len(x) for x in lines]
    assert len(lines) <= 12
    # the table: one row per condition, the binding one first
    rows = [x.split() for x in lines if x[:1].isdigit()]
    assert [r[0] for r in rows] == ["847212966632809542363248", "18134244923697980226", "2795"]
    # --explain: every input, derived value and certificate
    e = run80("require-heads", "--d", "16", "--T", "8", "--explain").stdout
    assert "derived quantities" in e and "fails_at: 2794" in e and "n1" in e


def test_require_heads_holds_at_one_returns_at_once_and_huge_answers_print():
    t = time.perf_counter()
    d = json.loads(run("require-heads", "--d", "16", "--T", "8", "--C", "1e-300", "--json").stdout)
    assert time.perf_counter() - t < 20          # was ~60 s (probing up to 2^400000)
    byid = {r["id"]: r for r in d["requirements"]}
    assert byid["deora2023.heads_cor2"]["H"] == 1 and byid["deora2023.heads_cor2"]["certificate"]["fails_at"] is None
    # C = 10^2200 multiplies Cor. 2's threshold sqrt(H) >= C*... by 10^2200: H ~ 1.8134e19 * 10^4400
    d = json.loads(run("require-heads", "--d", "16", "--T", "8", "--C", "1e2200", "--json").stdout)
    h = {r["id"]: r["H"] for r in d["requirements"]}["deora2023.heads_cor2"]
    assert h.startswith("1.81342449236979e+4419") and h.endswith("(4420 digits)")
    # 10^8019: beyond the default certification precision; certified with more bits, no crash
    d = json.loads(run("require-heads", "--d", "16", "--T", "8", "--C", "1e4000", "--json").stdout)
    r = {r["id"]: r for r in d["requirements"]}["deora2023.heads_cor2"]
    assert r["H"].startswith("1.81342449236979e+8019") and r["certificate"]["fails_at"].endswith("(8020 digits)")


@pytest.mark.parametrize("args,needle", [
    (("eval",), "Missing argument 'ID'"),
    (("requre-heads",), "did you mean require-heads"),
    (("eval", "deora2023.beta1", "--digits", "many"), "many"),
    (("show", "deora2023.beta2", "extra"), "extra"),
    (("eval", "deora2023.bta2"), "did you mean deora2023.beta2"),
    (("eval", "deora2023.beta1", "--set", "thta_2inf=1"), "did you mean theta_2inf"),
    (("require-heads", "--theorem", "tmh1"), "did you mean thm1"),
    (("require-heads", "--paper", "deora2032"), "did you mean deora2023"),
    (("require-heads", "--d", "16", "--T", "8", "--zeta", "-0.5"), "outside its domain"),
    (("require", "n", "--setting", "dm1", "--target", "gen_gap_cor2", "--d", "16", "--T", "8"), "REL"),
    (("require", "n", "--setting", "nosuch"), "unknown setting"),
    (("require", "n", "--setting", "dm1", "--target", "gen_gap_cor2 <= 0", "--d", "16", "--T", "8",
      "--eta", "1"), "no n in its domain satisfies"),
])
def test_usage_and_input_errors_are_one_line_exit_2(args, needle):
    p = run(*args, check=False)
    assert p.returncode == 2, p.stdout + p.stderr
    assert needle in p.stderr and "Traceback" not in p.stderr and "╭" not in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_version_and_honesty_labels_survive():
    import boundcalc
    assert run("--version").stdout.strip() == f"boundcalc {boundcalc.__version__}"
    out = run("eval", "deora2023.beta2", "--set", "T=8", "--set", "d=16", "--set", "R=1e100",
              "--set", "theta_2inf=2", "--set", "H=64", "--digits", "25").stdout
    assert "[exact constant; as printed; 25 certified digits]" in out
    out = run("eval", "deora2023.heads_cor2", "--H", "4", "--C", "2", "--d", "16", "--T", "8", "--R", "1",
              "--B_2", "1", "--B_Phi", "1", "--K", "10", "--gamma", "1").stdout
    assert "up to the absolute constant" in out and "does NOT hold" in out


def test_one_value_syntax_everywhere():
    a = json.loads(run("require-heads", "--set", "d=16", "--set", "T=8", "--json").stdout)
    b = json.loads(run("require-heads", "--d", "16", "--T=8", "--json").stdout)
    assert a["H"] == b["H"] == 847212966632809542363248
    a = json.loads(run("eval", "deora2023.beta1", "--T", "4", "--R", "1", "--theta-2inf", "1", "--json").stdout)
    assert a["float"] == 6.0                     # 3 T R^2 theta... = 6 at T = 4 (test_eval_json_and_huge_values)
    a = json.loads(run("monotone", "deora2023.beta1", "--var", "R", "--T", "4", "--json").stdout)
    assert a["verdict"] == "increasing"
    d = json.loads(run("require", "--setting", "fig1", "--set", "delta=0.05", "--epsilon", "1", "--json").stdout)
    with mpmath.workdps(40):
        assert d["m"] == int(mpmath.ceil(648 * mpmath.log(200000)))


def test_negative_numbers_are_values():
    d = json.loads(run("verify", "x", ">=", "-5", "--json").stdout)
    assert d["verdict"] == "proved"
    p = run("eval", "deora2023.beta1", "--set", "T=4", "--set", "R=1", "--theta-2inf", "-1", check=False)
    assert p.returncode == 2 and "theta_2inf = -1" in p.stderr     # read as the value -1, then refused


def test_help_lists_the_inputs_of_each_setting():
    out = run80("require-heads", "--help").stdout
    for needle in ("--zeta (0.5)", "--n1 (100000000)", "--theta_2inf", "thm1"):
        assert needle in out, needle
    out = run80("require", "--help").stdout
    for needle in ("arda2026 --setting fig1", "--tau (4000)", "tarzanagh2023 --setting fig1a", "mnist_width_N400"):
        assert needle in out, needle


# ---------------------------------------------------------------------------- inverse queries
def test_least_n_for_cor2_generalization_gap():
    d = json.loads(run("require", "n", "--paper", "deora2023", "--setting", "dm1", "--target",
                       "gen_gap_cor2 <= 0.05", "--d", "16", "--T", "8", "--eta", "0.5", "--json").stdout)
    n = d["n"]
    assert d["direction"] == "least" and d["requirements"][0]["certificate"] == {"holds_at": str(n),
                                                                                 "fails_at": str(n - 1)}
    with mpmath.workdps(50):
        def gap(n):   # Cor. 2: 17 (2 B_Phi + log K)^2 / (gamma^2 eta n), B_Phi depends on n too
            v = _dm1_values(n=n)
            return 17 * (2 * v["B_Phi"] + mpmath.log(v["K"])) ** 2 / (v["gamma"] ** 2 * mpmath.mpf("0.5") * n)
        assert gap(n) <= mpmath.mpf("0.05") < gap(n - 1)
        assert gap(n + 1) <= mpmath.mpf("0.05")


def test_least_K_for_cor2_training_loss():
    d = json.loads(run("require", "K", "--setting", "dm1", "--target", "train_loss_cor2 <= 0.1",
                       "--d", "16", "--T", "8", "--eta", "0.5", "--json").stdout)
    K = d["K"]
    with mpmath.workdps(50):
        def loss(K):   # Cor. 2: 2/K + 5 (2 B_Phi + log K)^2 / (4 gamma^2 eta K)
            v = _dm1_values(K=K)
            return 2 / mpmath.mpf(K) + 5 * (2 * v["B_Phi"] + mpmath.log(K)) ** 2 / (
                4 * v["gamma"] ** 2 * mpmath.mpf("0.5") * K)
        assert loss(K) <= mpmath.mpf("0.1") < loss(K - 1) and loss(K + 1) <= mpmath.mpf("0.1")
    how = d["requirements"][0]["monotone"]      # evidence for 'least': a proof, or certified below K
    assert how.endswith(": proved") or "covers every K below the answer" in how, how


def test_width_m_at_which_arda_bound_drops_below_target():
    d = json.loads(run("require", "m", "--setting", "fig1", "--delta", "0.05", "--target", "B_app <= 0.5",
                       "--json").stdout)
    m = d["m"]
    with mpmath.workdps(50):
        def b_app(m):   # Lemma 5 (v1): 2 (sigma_0 nu_c + sigma_1 nu_u + sigma_1 nu_w) sqrt(2 log(2n/delta)/m)
            return 2 * 9 * mpmath.sqrt(2 * mpmath.log(2 * 5000 / mpmath.mpf("0.05")) / m)
        assert b_app(m) <= mpmath.mpf("0.5") < b_app(m - 1)


def test_largest_step_size_tarzanagh_and_deora():
    d = json.loads(run("require", "eta", "--paper", "tarzanagh2023", "--setting", "fig9", "--json").stdout)
    r = d["requirements"][0]
    assert d["direction"] == "greatest"
    with mpmath.workdps(80):
        T = mpmath.mpf(6)
        eta = 1 / (T ** 2 / 4 + 3 * T ** mpmath.mpf(1.5))     # 1/L_p with ||X_i||^2 <= T (Fig. 9 setting)
        assert mpmath.mpf(r["certificate"]["holds_at"]) <= eta < mpmath.mpf(r["certificate"]["fails_at"])
    # Deora et al. Thm. 1's step-size condition as a target at a given H
    d = json.loads(run("require", "eta", "--paper", "deora2023", "--setting", "thm1", "--target", "eta_thm1",
                       "--d", "4", "--T", "4", "--theta-2inf", "1", "--dist0", "1", "--H", "16", "--K", "10",
                       "--L_hat", "0.1", "--L_hat0", "0.7", "--json").stdout)
    with mpmath.workdps(50):
        alpha = 3 * 2 * (3 * 2 * (3 + 1) + 2 * 2)           # test_deora2023_values.test_step_size_conditions
        rho = (2 * 2 * 4 / mpmath.mpf(4) + mpmath.mpf(4) / 4) * alpha ** 2
        bound = min(1, 1 / rho, 1 / (10 * mpmath.mpf("0.1")), 1 / mpmath.mpf("0.7"))
        got = mpmath.mpf(d["requirements"][0]["certificate"]["holds_at"])
        assert got <= bound and abs(got - bound) <= bound * mpmath.mpf(10) ** -50


def test_least_width_anon2025_and_heads_thm1():
    d = json.loads(run("require", "d_m", "--setting", "mnist_width_N1200", "--json").stdout)
    assert d["d_m"] == 1200 ** 3 and d["requirements"][0]["certificate"]["fails_at"] == str(1200 ** 3 - 1)
    d = json.loads(run("require", "H", "--paper", "deora2023", "--setting", "thm1", "--d", "16", "--T", "8",
                       "--R", "1.5", "--theta-2inf", "1", "--dist0", "1", "--json").stdout)
    assert {r["id"]: r["H"] for r in d["requirements"]}["deora2023.heads_thm1"] == 118098   # (16 (3/2)^5)^2 8


def test_not_monotone_and_no_solution_are_said():
    p = run("require", "zeta", "--setting", "dm1", "--target", "zeta*(1 - zeta) >= 0.1",
            "--d", "16", "--T", "8", "--json", check=False)
    d = json.loads(p.stdout)
    r = d["requirements"][0]
    assert d["zeta"] is None and r["result"] == "not monotone" and r["certificate"]["counterexample"]
    # not an answer: exit status 3 and the reason on one line of stderr
    assert p.returncode == 3 and len(p.stderr.strip().splitlines()) == 1 and "not monotone in zeta" in p.stderr
    p = run80("require", "zeta", "--setting", "dm1", "--target", "zeta*(1 - zeta) >= 0.1", "--d", "16", "--T", "8",
              check=False)
    assert p.returncode == 3 and p.stdout.startswith("no least zeta") and "not monotone" in p.stdout
    # a window: (n - 5000)^2 <= 10^6 holds on [4000, 6000] only, so it is no up- or down-set in n
    # and neither a least nor a largest n answers it; the pair shown is checked here by hand
    p = run("require", "n", "--setting", "dm1", "--target", "(n - 5000)**2 <= 1e6",
            "--d", "16", "--T", "8", "--json", check=False)
    ce = json.loads(p.stdout)["requirements"][0]["certificate"]["counterexample"]
    h, f = int(ce["holds_at"]), int(ce["fails_at"])
    assert p.returncode == 3 and (h - 5000) ** 2 <= 10 ** 6 < (f - 5000) ** 2 and "not monotone in n" in p.stderr


def test_require_fast_path_stays_free_of_sympy_for_structural_relations():
    code = ("import sys\nfrom boundcalc.services.require import require\n"
            "require('arda2026', 'fig1', {'delta': '0.05', 'epsilon': '0.1'})\n"
            "require('tarzanagh2023', 'fig1a', {}, var='eta')\n"
            "require('deora2023', None, {'d': '16', 'T': '8', 'C': '1e-300'})\n"
            "print(sorted(m for m in ('sympy','pandas','numpy','scipy') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV)
    assert p.stdout.strip() == "[]", p.stdout + p.stderr


def test_template_paper_checks_with_formulas_after_the_command():
    tpl = str(ROOT / "examples" / "my_paper.toml")
    p = run("check", "--formulas", tpl, "my_paper")
    assert "3 passed" in p.stdout and "0 error(s)" in p.stdout
    d = json.loads(run("--formulas", tpl, "require", "n", "--setting", "toy", "--epsilon", "0.1", "--json").stdout)
    with mpmath.workdps(40):   # n >= (C B sqrt(d) + sqrt(log(1/delta)/2))^2 / eps^2 at d = 100, B = C = 1
        want = int(mpmath.ceil((10 + mpmath.sqrt(mpmath.log(20) / 2)) ** 2 / mpmath.mpf("0.01")))
    assert d["n"] == want


def test_documents_exist_and_citation_is_valid_cff():
    yaml = pytest.importorskip("yaml")
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    import boundcalc
    assert cff["cff-version"] == "1.2.0" and cff["version"] == boundcalc.__version__
    assert isinstance(cff["message"], str) and isinstance(cff["title"], str) and cff["license"] == "MIT"
    assert cff["authors"] and all(("name" in a) or ("family-names" in a) for a in cff["authors"])
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert "## Add your own paper" in contributing and "examples/my_paper.toml" in contributing
    assert "## Add an engine model" in contributing and "## Add a comparison" in contributing
    assert f"## {boundcalc.__version__}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_largest_R_at_given_heads_thm1():
    # the example: `require R ... --setting thm1` used to ask for --H and then reject it
    d = json.loads(run("require", "R", "--paper", "deora2023", "--setting", "thm1", "--d", "16", "--T", "8",
                       "--theta-2inf", "1", "--dist0", "1", "--H", "1e30", "--json").stdout)
    r = {r["id"]: r for r in d["requirements"]}["deora2023.heads_thm1"]
    assert r["direction"] == "greatest"
    with mpmath.workdps(120):   # (3): sqrt(H) >= C d sqrt(T) R^5 theta dist0^3, C = theta = dist0 = 1
        R = (mpmath.mpf(10) ** 15 / (16 * mpmath.sqrt(8))) ** (mpmath.mpf(1) / 5)
        assert mpmath.mpf(r["certificate"]["holds_at"]) <= R < mpmath.mpf(r["certificate"]["fails_at"])
