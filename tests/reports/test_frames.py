"""DataFrames: formulas, papers, comparison tables, check reports, sweeps; notebook reprs."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

import mpmath
import pandas as pd
import pytest

import boundcalc
from boundcalc.reports.table import Row, Table
from boundcalc.services.check import Finding, Report


# ---------------------------------------------------------------------------- by hand
def beta1(T, R, th):
    """Deora et al., Cor. 1 eq. (1): beta_1 = sqrt(T) R (2 R^2 ||theta||_{2,inf} + 1)."""
    return mpmath.sqrt(T) * R * (2 * R ** 2 * th + 1)


def beta2(T, d, R, th, H):
    """Cor. 1 eq. (2)-(3): beta_3 / sqrt(H) + beta_1^2 / 4 with
    beta_3 = 2 R^3 sqrt(T) d (3 R^2 sqrt(d) th + 1)."""
    beta3 = 2 * R ** 3 * mpmath.sqrt(T) * d * (3 * R ** 2 * mpmath.sqrt(d) * th + 1)
    return beta3 / mpmath.sqrt(H) + beta1(T, R, th) ** 2 / 4


def test_hand_formulas_agree_with_the_formula_files():
    with mpmath.workdps(40):
        v = boundcalc.formula("deora2023.beta2").evaluate(T=8, d=16, R=3, theta_2inf=2, H=64, digits=30)
        assert abs(v.mpf - beta2(8, 16, 3, 2, 64)) < mpmath.mpf(10) ** -25 * v.mpf


def make_table() -> tuple[Table, dict]:
    """Rows whose exact values are known by hand: 3 sqrt 2 (irrational), 6 (an exact
    double), 18134244923697980226 (an int past 2**53) and beta_2 at R = 1e100 (past the
    double range)."""
    f1 = boundcalc.formula("deora2023.beta1")
    f2 = boundcalc.formula("deora2023.beta2")
    irr = f1.evaluate(T=2, R=1, theta_2inf=1, digits=30)                    # 3 sqrt 2
    six = f1.evaluate(T=4, R=1, theta_2inf=1, digits=30)                    # 6
    huge = f2.evaluate(T=8, d=16, R="1e100", theta_2inf=2, H=64, digits=30)  # 3.2e601
    big = 18134244923697980226
    with mpmath.workdps(60):
        expected = {"irr": 3 * mpmath.sqrt(2), "six": mpmath.mpf(6), "big": mpmath.mpf(big),
                    "huge": beta2(8, 16, mpmath.mpf(10) ** 100, 2, 64)}
    t = Table("deora2023", "demo", {"T": 2}, 1, [
        Row("beta_1 at T=2", "Cor. 1", bound=irr, measured=4.0, formula="deora2023.beta1"),
        Row("beta_1 at T=4", "Cor. 1", bound=six, measured=6.5, formula="deora2023.beta1"),
        Row("heads", "Cor. 2", bound=big, measured=32, kind="condition"),
        Row("beta_2 at R=1e100", "Cor. 1", bound=huge, measured=None, kind="info"),
    ])
    return t, expected


def test_table_frame_dtypes_and_values():
    t, ex = make_table()
    df = t.to_frame()
    assert list(df.index) == [0, 1, 2, 3] and len(df) == len(t.rows)
    assert str(df["bound"].dtype) == "float64" and str(df["measured"].dtype) == "float64"
    assert str(df["ratio"].dtype) == "float64"
    assert str(df["holds"].dtype) == "boolean" and str(df["hypotheses_met"].dtype) == "boolean"
    # floats: the nearest double of each exact value
    assert df["bound"][0] == float(ex["irr"]) and df["bound"][1] == 6.0
    assert df["bound"][2] == float(ex["big"]) and df["bound"][3] == float("inf")
    assert df["ratio"][0] == pytest.approx(float(ex["irr"]) / 4.0, rel=1e-15)
    assert pd.isna(df["measured"][3]) and pd.isna(df["ratio"][3])
    # exact values where the float is not exact, None where it is
    with mpmath.workdps(60):
        assert abs(mpmath.mpf(df["bound_exact"][0]) - ex["irr"]) < mpmath.mpf(10) ** -25
        assert df["bound_exact"][1] is None and df["measured_exact"][0] is None
        assert df["bound_exact"][2] == "18134244923697980226"
        assert abs(mpmath.mpf(df["bound_exact"][3]) / ex["huge"] - 1) < mpmath.mpf(10) ** -25
    # holds: 3 sqrt 2 >= 4 (upper), 6 < 6.5 fails, 32 heads < required
    assert [None if pd.isna(x) else bool(x) for x in df["holds"]] == [True, False, False, None]
    assert df.attrs["paper"] == "deora2023" and df.attrs["seed"] == 1


def test_table_html_and_markdown_go_through_pandas():
    t, _ = make_table()
    h = t._repr_html_()
    assert h.count("<tr") == len(t.rows) + 1 and "deora2023: demo" in h
    assert re.search(r"<mn>3.20</mn>.*<mn>601</mn>", h)          # 3.20e601 as MathML (issue 34)
    md = t.to_markdown()
    assert md.count("\n|") == 2 + len(t.rows) and "| quantity" in md


def test_formulas_and_papers_frames():
    fs = boundcalc.formulas(paper="arda2026")
    assert isinstance(fs, list) and all(isinstance(f, boundcalc.Formula) for f in fs)
    df = fs.to_frame()
    assert list(df["id"]) == [f.id for f in fs] and set(df["paper"]) == {"arda2026"}
    assert list(df["source"]) == [f.source for f in fs] and list(df["status"]) == [f.status for f in fs]
    assert {"kind", "expression", "latex", "symbols", "constants", "note"} <= set(df.columns)
    ps = boundcalc.papers()
    assert all(len(repr(p)) < 250 for p in ps) and repr(ps[0]).startswith("<Paper ")
    pf = ps.to_frame()
    assert list(pf["key"]) == [p.key for p in ps] and str(pf["formulas"].dtype) == "int64"
    assert list(pf["formulas"]) == [len(p.formulas) for p in ps]
    row = pf.set_index("key").loc["deora2023"]
    assert row["arxiv"] == "2310.12680" and row["year"] == "2024"
    assert pd.isna(pf.set_index("key").loc["anon2025", "arxiv"])    # anonymous: no identifier


def test_repr_latex_is_a_definition():
    b2 = boundcalc.formula("deora2023.beta2")
    tex = b2._repr_latex_()
    assert tex.startswith(r"$\beta_2(\tilde\theta) := ") and tex.endswith("$")
    assert b2.latex() in tex
    bound = boundcalc.formula("deora2023.train_loss_cor2")._repr_latex_()
    assert bound.startswith(r"$\widehat L(\tilde\theta^{(K)}) \leq ")
    # "=:" names the right side: ||p|| <= ... =: P defines P
    assert boundcalc.formula("deora2023.P_lemma2")._repr_latex_().startswith("$P := ")


def test_check_report_frame_and_html():
    rep = Report(["demo"], [
        Finding("demo", "c1", "derivation", "ok", "Cor. 1", "matches"),
        Finding("demo", "c2", "order", "error", "Thm. 2", "stated O(n) but is O(n^2) <x>"),
        Finding("demo", "c3", "vacuity", "note", "Cor. 2", "vacuous at the paper's setting"),
    ], 0.5)
    df = rep.to_frame()
    assert list(df["check"]) == ["c1", "c2", "c3"] and list(df["severity"]) == ["ok", "error", "note"]
    assert list(df["severity"].cat.categories) == ["error", "warning", "note", "cannot fail", "identity", "conditional",
                                                      "ok"]
    assert list(rep.to_frame(passed=False)["check"]) == ["c2", "c3"]
    h = rep._repr_html_()
    assert "3 checks run: 1 error, 0 warning, 1 note, 1 ok" in h
    assert "&lt;x&gt;" in h and h.index("c2") < h.index("c3") and "c1" not in h.split("</p>", 1)[1]


def double(config: dict) -> dict:
    return {"y": 2 * config["x"], "info": {"half": config["x"] / 2}}


def test_sweep_results_frame():
    from boundcalc.runs import sweep
    res = sweep.run(double, [{"x": 1, "tag": "a"}, {"x": 3, "tag": "b"}], cache_dir=False, progress=False)
    assert res == [{"y": 2, "info": {"half": 0.5}}, {"y": 6, "info": {"half": 1.5}}]   # still a list
    df = res.to_frame()
    assert list(df.columns) == ["x", "tag", "y", "info.half"]
    assert list(df["y"]) == [2, 6] and list(df["info.half"]) == [0.5, 1.5] and list(df["tag"]) == ["a", "b"]


def test_fast_paths_do_not_import_pandas():
    code = ("import sys, io, contextlib\nsys.argv=['boundcalc','eval','deora2023.beta1','--set','T=4',"
            "'--set','R=1','--set','theta_2inf=1']\nfrom boundcalc.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n  try: main()\n  except SystemExit: pass\n"
            "import boundcalc; boundcalc.formulas(); boundcalc.papers()\n"
            "print('pandas' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert p.stdout.strip() == "False", p.stdout + p.stderr


# ---------------------------------------------------------------------------- tidy frames
def _toml(key):
    import tomllib
    from pathlib import Path
    return tomllib.loads((Path(__file__).resolve().parents[2] / "formulas" / f"{key}.toml").read_text())


def test_formula_frame_keeps_lists_as_lists():
    df = boundcalc.formulas(paper="deora2023").to_frame().set_index("id")
    # beta_1 = sqrt(T) R (2 R^2 ||theta||_{2,inf} + 1): three symbols, no constant
    assert df.loc["deora2023.beta1", "symbols"] == ["R", "T", "theta_2inf"]
    assert df.loc["deora2023.beta1", "constants"] == []
    assert all(isinstance(x, list) for x in df["symbols"]) and all(isinstance(x, list) for x in df["constants"])
    exploded = df["symbols"].explode()
    assert set(exploded.dropna()) <= set(_toml("deora2023")["symbols"])


def test_paper_frame_lists_results_and_setting_names():
    pf = boundcalc.papers().to_frame().set_index("key")
    for key in ("deora2023", "arda2026"):
        data = _toml(key)
        assert pf.loc[key, "results"] == data["paper"]["results"]
        assert pf.loc[key, "setting_names"] == list(data.get("settings", {}))
        assert pf.loc[key, "settings"] == len(data.get("settings", {}))


def test_symbols_frame_one_row_per_symbol():
    from fractions import Fraction
    sf = boundcalc.symbols("deora2023").to_frame()
    data = _toml("deora2023")["symbols"]
    assert list(sf.columns) == ["paper", "name", "description", "domain", "default", "default_exact", "role",
                                "latex"]
    assert sf["default"].dtype == "float64"           # issue 34 (9): numbers, not Fraction objects
    assert list(sf["name"]) == list(data) and set(sf["paper"]) == {"deora2023"}
    for r in sf.to_dict("records"):
        t = data[r["name"]]
        assert r["description"] == t["description"] and r["role"] == t.get("role", "input")
        assert r["latex"] == t.get("latex", r["name"]) and isinstance(r["domain"], str)
        want = t.get("default")
        if want is None:
            assert pd.isna(r["default"]) and pd.isna(r["default_exact"])
        else:
            assert Fraction(r["default_exact"]) == Fraction(str(want)) and r["default"] == float(Fraction(str(want)))
    every = boundcalc.symbols().to_frame()
    assert len(every) == sum(len(_toml(k)["symbols"]) for k in ("deora2023", "anon2025", "tarzanagh2023",
                                                                 "arda2026"))
    assert not every.duplicated(["paper", "name"]).any()
    with pytest.raises(boundcalc.BoundcalcError, match="unknown paper"):
        boundcalc.symbols("nope")


def test_table_frame_has_settings_as_columns():
    t, _ = make_table()
    df = t.to_frame()
    assert list(df["settings.T"]) == [2] * len(t.rows) and df.attrs["settings"] == {"T": 2}
    t2 = Table("deora2023", "demo", {"T": 4}, 1, [Row("x", "s", bound=1, measured=2)])
    both = pd.concat([df, t2.to_frame()], ignore_index=True)
    assert list(both["settings.T"]) == [2] * len(t.rows) + [4]
    # issue 34 (9): a setting that is a number is a numeric column (it was object dtype)
    t3 = Table("deora2023", "demo", {"T": 4, "eta": 0.5, "causal": True, "name": "x"}, 1,
               [Row("x", "s", bound=1, measured=2)])
    f3 = t3.to_frame()
    assert [str(f3[f"settings.{k}"].dtype) for k in ("T", "eta", "causal", "name")] == \
        ["int64", "float64", "boolean", "object"]
    assert str(both["settings.T"].dtype) == "int64"


# ---------------------------------------------------------------------------- LaTeX (issue 34 (9))
def _compile_frame(body: str, folder, name: str) -> dict:
    """``body`` in an article with exactly the packages its ``% requires`` line names, two
    pdflatex passes (it is a longtable); the second pass's errors and overfull boxes."""
    line = body.splitlines()[0]
    assert line.startswith("% requires ") and "two pdflatex passes" in line, line
    uses = []
    for p in re.split(r",\s*(?![^()]*\))", line[len("% requires "):].split(";")[0]):
        p = re.sub(r"\s*\(not with \w+[^)]*\)", "", p).strip()
        uses.append(p if p.startswith("\\usepackage") else f"\\usepackage{{{p}}}")
    tex = "\n".join(["\\documentclass{article}", *uses, "\\begin{document}", body, "\\end{document}"])
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.tex").write_text(tex, encoding="utf-8")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=nonstopmode", f"{name}.tex"], cwd=folder,
                       capture_output=True, timeout=300, check=False)
    log = (folder / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    return {"pdf": (folder / f"{name}.pdf").exists(), "errors": re.findall(r"(?m)^! .*$", log),
            "overfull": re.findall(r"(?m)^Overfull \\[hv]box.*$", log)}


def test_to_latex_types_each_column():
    """boundcalc.to_latex(df): numbers in S columns (table-format from the data, the one number
    style), booleans yes/no, missing values --, text escaped by the one escaper (breakable
    after _), words with math read by the one reading; wide when it fits, else stacked."""
    df = pd.DataFrame({"name": ["theta_2inf", "a_b"], "value": [0.0248, -2.72],
                       "n": pd.array([32, None], dtype="Int64"), "holds": pd.array([True, None], dtype="boolean"),
                       "note": ["||p|| <= P", None]})
    tex = boundcalc.to_latex(df)
    assert "\\begin{xltabular}{\\linewidth}" in tex and "S[table-format=-1.4]" in tex and "S[table-format=2.0]" in tex
    row1, row2 = (ln for ln in tex.splitlines() if ln.startswith(("theta", "a\\_")))
    assert row1 == ("theta\\_\\allowbreak{}2inf & 0.0248 & 32 & yes & "
                    "\\ensuremath{\\| p \\| \\leq P} \\\\"), row1
    assert row2 == "a\\_\\allowbreak{}b & -2.72 & {--} & -- & -- \\\\", row2
    wide = pd.DataFrame({f"column_{i}": ["a rather long text that wraps" * 2] for i in range(8)})
    st = boundcalc.to_latex(wide)
    assert "{@{}l>{\\raggedright\\arraybackslash}X@{}}" in st and st.count(" \\\\*") == 8     # stacked
    assert boundcalc.to_latex(wide, layout="wide").count("X") >= 8
    with pytest.raises(boundcalc.BoundcalcError, match="layout"):
        boundcalc.to_latex(df, layout="tall")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not on PATH")
def test_to_latex_of_every_frame_compiles(tmp_path):
    """Issue 34 (9): pandas' df.to_latex() of these frames gives pdflatex errors (Unicode,
    underscores; 101 for the symbols); boundcalc.to_latex(df) compiles with 0 errors and 0
    overfull boxes for the symbols, formulas and papers frames, a comparison table's frame with
    its settings columns and a check report's frame."""
    t, _ = make_table()
    report = Report(["deora2023"], [Finding("deora2023", "c_1", "order", "error", "Thm. 1 (rho <~ d^{3/2})",
                                            "stated O(d**(3/2)) disagrees; ||theta||^2 <= 1")], 1.0)
    frames = {"symbols": boundcalc.symbols().to_frame(), "formulas": boundcalc.formulas().to_frame(),
              "papers": boundcalc.papers().to_frame(), "table": t.to_frame(), "report": report.to_frame(),
              "narrow": boundcalc.symbols("deora2023").to_frame()[["name", "default", "role"]]}
    body = "\n".join(boundcalc.to_latex(df) for df in frames.values())
    c = _compile_frame(body, tmp_path, "frames")
    assert c["pdf"] and (c["errors"], c["overfull"]) == ([], []), c
    plain = _compile_frame(FRAME_HEAD + frames["symbols"].to_latex(), tmp_path, "pandas")
    assert plain["errors"], "pandas' own to_latex compiled: the reason for boundcalc.to_latex is gone"


FRAME_HEAD = "% requires booktabs; two pdflatex passes\n"
