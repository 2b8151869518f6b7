"""Which displayed steps of a paper does its ``[[steps]]`` list? (issue 35, "every displayed
step listed")

Scans a paper's text (``shared/papers/*.txt``, named in that folder's README) for the
*candidates* of a displayed step: every numbered display ``(12)`` / ``(28a)`` (a number in
parentheses not glued to a word or a digit, e.g. not ``68(12)``), every "Eq. (12)" it
refers to, every unnumbered LaTeX display ``$$ ... $$`` (label ``display@N``, N the line of
the text where it opens: anon2025 numbers none of its displays), and every numbered result
``Lemma 4``, ``Proposition 2``, ``Corollary 1``, ``Theorem 5`` (also ``Prop.``, ``Cor.``,
``Thm.``). A script finds them; a person decides, and the decision is data in the paper's
formula file (formulas/README.md, ``[step_candidates]``): each candidate is either *listed*
(a ``[[steps]]`` entry names it in its ``place`` or ``result``, ranges ``(37)-(39)``
included, or ``[step_candidates]`` maps it to steps: ``"display@159" = { steps = ["id"] }``)
or *excluded* with the reason (``"(1)" = { excluded = "definition, no algebra" }``: a
definition, an enumeration item, a result of another paper ...). Nothing here judges whether
a step is checked: that is ``boundcalc check PAPER`` (step coverage).

    python bench/steps_candidates.py [PAPER ...] [--papers DIR]

(``--papers`` default: ``$BOUNDCALC_PAPERS``, else ``../shared/papers`` beside the repository)

prints, per paper, the candidates that are neither listed nor excluded (and decisions for
labels that are no candidate, or excluded labels a step lists: stale), and exits 1 if there
are any. ``tests/bench/test_steps_candidates.py`` runs the same comparison.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tomllib
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
# CI: a copy of shared/ beside the clone; BOUNDCALC_PAPERS names another place (a git worktree)
PAPERS = Path(os.environ.get("BOUNDCALC_PAPERS") or ROOT.parent / "shared" / "papers")

_KINDS = {"lemma": "Lemma", "lem": "Lemma", "proposition": "Proposition", "prop": "Proposition",
          "corollary": "Corollary", "cor": "Corollary", "theorem": "Theorem", "thm": "Theorem"}
_RESULT = re.compile(r"\b(Lemma|Lem\.|Proposition|Prop\.|Corollary|Cor\.|Theorem|Thm\.)\s*(\d+)(?![\d.]*\d)",
                     re.IGNORECASE)
# a number in parentheses, not glued to a letter or digit before it ("68(12)", "f(2)") nor after
_DISPLAY = re.compile(r"(?<![\w)])\((\d{1,3}[a-z]?)\)(?!\w)")
_BLOCK = re.compile(r"\$\$(.+?)\$\$", re.DOTALL)       # a LaTeX display
_RANGE = re.compile(r"\((\d{1,3})[a-z]?\)\s*[-–]\s*\((\d{1,3})[a-z]?\)")


class Candidate(NamedTuple):
    """One candidate step: its label (``(12)``, ``Lemma 4``), its kind and where it first
    occurs (line number, a short excerpt)."""
    label: str
    kind: str          # "display" | "result"
    line: int
    excerpt: str


def paper_files(papers: Path = PAPERS) -> dict[str, Path]:
    """Paper key -> its text, from the table of ``papers/README.md`` (| `key` | `file` | ...)."""
    out = {}
    for row in (papers / "README.md").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\|\s*`(\w+)`\s*\|\s*`([^`]+\.txt)`", row)
        if m:
            out[m.group(1)] = papers / m.group(2)
    return out


def _result_label(kind: str, num: str) -> str:
    return f"{_KINDS[kind.lower().rstrip('.')]} {int(num)}"


def labels_in(text: str) -> set[str]:
    """The labels a piece of text names: ``(N)`` (ranges expanded) and ``Kind N``."""
    out = {f"({a})" for a in _DISPLAY.findall(text)}
    for a, b in _RANGE.findall(text):
        if int(a) < int(b) <= int(a) + 40:
            out |= {f"({n})" for n in range(int(a), int(b) + 1)}
    out |= {_result_label(k, n) for k, n in _RESULT.findall(text)}
    return out


def candidates(text: str) -> list[Candidate]:
    """Every candidate of a displayed step in a paper's text, by first occurrence; then the
    unnumbered ``$$ ... $$`` displays (``display@LINE``), in order."""
    seen: dict[str, Candidate] = {}
    for i, line in enumerate(text.splitlines(), 1):
        for pat, kind in ((_DISPLAY, "display"), (_RESULT, "result")):
            for m in pat.finditer(line):
                lab = f"({m.group(1)})" if kind == "display" else _result_label(*m.groups())
                if lab not in seen:
                    seen[lab] = Candidate(lab, kind, i, line[max(0, m.start() - 60):m.end() + 40].strip())
    for m in _BLOCK.finditer(text):
        if not _DISPLAY.search(m.group(1)):            # a numbered display is its "(n)"
            line = text.count("\n", 0, m.start()) + 1
            lab = f"display@{line}"
            seen[lab] = Candidate(lab, "unnumbered", line, " ".join(m.group(1).split())[:100])
    return list(seen.values())


def _formula_file(paper: str) -> dict:
    return tomllib.loads((ROOT / "formulas" / f"{paper}.toml").read_text(encoding="utf-8"))


def listed(paper: str) -> set[str]:
    """The labels the paper's ``[[steps]]`` name (``place`` and ``result``), and those its
    ``[step_candidates]`` maps to steps."""
    data = _formula_file(paper)
    out: set[str] = set()
    for s in data.get("steps", []):
        out |= labels_in(f"{s.get('place', '')} ; {s.get('result', '')}")
    return out | {k for k, v in data.get("step_candidates", {}).items() if "steps" in v}


def excluded(paper: str) -> dict[str, str]:
    """Candidate label -> the reason it is not a displayed step with algebra
    (``[step_candidates]`` of the paper's formula file)."""
    return {k: v["excluded"] for k, v in _formula_file(paper).get("step_candidates", {}).items()
            if "excluded" in v}


def compare(paper: str, papers: Path = PAPERS) -> dict:
    """``{candidates, listed, excluded, missing, stale}`` for one paper: ``missing`` are
    candidates neither listed nor excluded, ``stale`` excluded labels that are no candidate
    (or that are listed too), and labels mapped to steps that are no candidate."""
    cands = candidates(paper_files(papers)[paper].read_text(encoding="utf-8"))
    lab, exc = listed(paper), excluded(paper)
    mapped = {k for k, v in _formula_file(paper).get("step_candidates", {}).items() if "steps" in v}
    names = {c.label for c in cands}
    return {"candidates": cands,
            "listed": [c for c in cands if c.label in lab],
            "excluded": [c for c in cands if c.label in exc and c.label not in lab],
            "missing": [c for c in cands if c.label not in lab and c.label not in exc],
            "stale": sorted(k for k in exc.keys() | mapped if k not in names or (k in exc and k in lab))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paper", nargs="*")
    ap.add_argument("--papers", type=Path, default=PAPERS)
    a = ap.parse_args(argv)
    if not (a.papers / "README.md").is_file():
        print(f"no paper texts at {a.papers}", file=sys.stderr)
        return 2
    bad = 0
    for p in a.paper or sorted(paper_files(a.papers)):
        r = compare(p, a.papers)
        print(f"{p}: {len(r['candidates'])} candidates, {len(r['listed'])} listed in [[steps]], "
              f"{len(r['excluded'])} excluded, {len(r['missing'])} neither, {len(r['stale'])} stale exclusions")
        for c in r["missing"]:
            print(f"  missing {c.label:14} line {c.line}: {c.excerpt}")
        for k in r["stale"]:
            print(f"  stale exclusion {k}")
        bad += len(r["missing"]) + len(r["stale"])
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
