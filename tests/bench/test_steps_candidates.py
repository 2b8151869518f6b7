"""bench/steps_candidates.py: every candidate of a displayed step that the script finds in the
shipped paper texts is listed in that paper's [[steps]] or excluded with a reason
(bench/steps_excluded.toml), and no exclusion is stale. The texts are read from
../shared/papers beside the repository (or $BOUNDCALC_PAPERS); without them the comparison is
skipped, saying so. The scanner itself is tested on hand-written text."""
import tomllib

import pytest
from support import load_bench

sc = load_bench("steps_candidates")
PAPERS = ("deora2023", "anon2025", "tarzanagh2023", "arda2026")


def test_scanner_finds_displays_and_results_by_hand():
    text = ("L(p) <= C/sqrt(n). (12)\nas in (12) and Eq. (3a); see 68(12):8139 and f(2) and\n"
            "Lemma 4 (Descent). By Prop. 2 and Thm. 10, Cor. 1 and Lemma 3.2 of [5].")
    got = {c.label: c.kind for c in sc.candidates(text)}
    assert got == {"(12)": "display", "(3a)": "display", "Lemma 4": "result",
                   "Proposition 2": "result", "Theorem 10": "result", "Corollary 1": "result"}
    assert [c.line for c in sc.candidates(text) if c.label == "(12)"] == [1]   # first occurrence


def test_labels_of_a_place_expand_ranges():
    assert sc.labels_in("Proof of Lemma 7, (37)-(39)") == {"(37)", "(38)", "(39)", "Lemma 7"}
    assert sc.labels_in("Prop. 4 with (18); (31a), (31b)") == {"Proposition 4", "(18)", "(31a)", "(31b)"}
    assert sc.labels_in("(40)-(2)") == {"(40)", "(2)"}            # not a range: nothing filled in


def test_exclusions_have_reasons():
    data = tomllib.loads(sc.EXCLUDED.read_text(encoding="utf-8"))
    assert set(data) <= set(PAPERS)
    for paper, rows in data.items():
        for label, reason in rows.items():
            assert isinstance(reason, str) and len(reason) > 20, (paper, label)


@pytest.mark.parametrize("paper", PAPERS)
def test_every_candidate_listed_or_excluded(paper):
    if not (sc.PAPERS / "README.md").is_file():
        pytest.skip(f"paper texts not found at {sc.PAPERS} (CI keeps shared/ beside the clone; "
                    "set BOUNDCALC_PAPERS in a worktree)")
    r = sc.compare(paper)
    assert r["candidates"], paper
    assert not r["missing"], [(c.label, c.line, c.excerpt) for c in r["missing"]]
    assert not r["stale"], r["stale"]
