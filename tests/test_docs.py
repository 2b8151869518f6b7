"""The documentation site (docs/, Sphinx + MyST, issue 32) builds with warnings as errors,
its internal links and anchors resolve, every command has a page, and every code block of
it (and of README.md) runs: each ``boundcalc ...`` line of a ``bash`` or ``console`` block and each ``python``
block is executed (a ``console`` block's printed output is compared with what the command
prints at 80 columns), except the few lines listed in SLOW, which take minutes; those are
parsed by the CLI itself (an unknown option or command fails) instead of run.

The tools (sphinx, myst-parser, furo) are in the ``test`` extra, so CI builds the site."""
from __future__ import annotations

import html.parser
import os
import re
import shlex
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
ENV = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDCALC") or k == "BOUNDCALC_REGISTRY_CACHE"}
ENV.update(COLUMNS="80", LINES="50", NO_COLOR="1", TERM="dumb", PYTHONIOENCODING="utf-8")
ENV["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), ENV.get("PYTHONPATH", "")])

# commands shown in the docs that take minutes (training runs, the full audit, mutation testing):
# parsed by the CLI, not run. A prefix match on the command line after "boundcalc ".
SLOW = {
    "check": "the full audit of four papers (~30 s CPU per paper)",
    "compare": "trains the paper's model",
    "reproduce": "re-runs a paper's experiments (minutes to hours)",
}
# fast, so they run: one finding, the toy paper, and a comparison of the user's CSV (no training)
FAST_CHECK = ("check deora2023 --only ", "check my_paper ")
RUN_ANYWAY = ("--formulas examples/my_paper.toml compare",)


# exit statuses the pages state in prose rather than beside the command (cli/exits.py)
STATUS = {
    "boundcalc check deora2023 --only lemma2_first_phase_coefficient": 1,   # the finding is an error
    "boundcalc require-heads --d 16 --T 8 --Z-mu 0.4 --Z-nu 0.4": 4,        # no H can work
}


def pages() -> list[Path]:
    """The site's pages, and README.md (its quickstart's commands must work too)."""
    return [ROOT / "README.md", *sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)]


def code_blocks() -> list[tuple[Path, str, str]]:
    """(page, language, body) of every fenced code block of the docs' own pages and README."""
    out = []
    for page in pages():
        for m in re.finditer(r"^```([\w{}-]*)[^\n]*\n(.*?)^```", page.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL):
            out.append((page, m.group(1), m.group(2)))
    return out


def commands() -> list[tuple[Path, str, list[str] | None, int]]:
    """(page, command line, expected output lines or None, expected exit status)."""
    out = []
    for page, lang, body in code_blocks():
        if lang == "console":
            for chunk in re.split(r"^\$ ", body, flags=re.MULTILINE)[1:]:
                first, *rest = chunk.rstrip("\n").split("\n")
                line = first.split("  #")[0].strip()
                status = 2 if rest and rest[0].startswith("error:") else 0
                out.append((page, line, rest, status))
        elif lang == "bash":
            for raw in body.splitlines():
                if raw.strip().startswith("boundcalc "):
                    line, _, comment = raw.partition(" #")
                    status = 4 if "DISPROVED" in comment else 3 if comment.strip().startswith("neither") else 0
                    out.append((page, line.strip(), None, status))
    seen: set[str] = set()                               # a line shown twice (README, a page) runs once
    uniq = [c for c in out if c[2] or not (c[1] in seen or seen.add(c[1]))]
    return [(p, line, e, STATUS.get(line, st)) for p, line, e, st in uniq]


def is_slow(line: str) -> bool:
    rest = line[len("boundcalc "):]
    if rest.startswith(FAST_CHECK) or rest.startswith(RUN_ANYWAY):
        return False
    return any(rest.startswith(p) for p in SLOW)


def test_every_command_has_a_page():
    from boundcalc_help import command_names
    have = {p.stem for p in (DOCS / "reference" / "commands").glob("*.md")} - {"index"}
    assert have == set(command_names())


def test_the_docs_show_commands_and_python():
    cmds = commands()
    assert len(cmds) >= 30 and sum(1 for c in cmds if not is_slow(c[1])) >= 25
    assert sum(1 for _, lang, _ in code_blocks() if lang == "python") >= 1


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A scratch folder with the example files the commands name (outputs land here)."""
    d = tmp_path_factory.mktemp("docs-run")
    (d / "examples").mkdir()
    for name in ("my_paper.toml", "my_paper_runs.csv", "my_paper_seeds.csv", "bft2017.toml", "bft2017_runs.csv"):
        (d / "examples" / name).write_bytes((ROOT / "examples" / name).read_bytes())
    (d / "my_paper.toml").write_bytes((ROOT / "examples" / "my_paper.toml").read_bytes())
    return d


def _run(line: str, cwd: Path):
    """The command line in this process (tests/support.py's ``cli``: the real entry point, the
    page's environment and folder); the python blocks below and tests/cli/test_app.py's
    end-to-end tests start real processes."""
    from support import cli
    argv = shlex.split(line)
    assert argv[0] == "boundcalc"
    return cli(argv[1:], cwd=cwd, env=ENV)


def _check(item, workdir: Path, group) -> str | None:
    page, line, expected, status = item
    where = f"{page.relative_to(ROOT)}: {line}"
    if is_slow(line):
        args = shlex.split(line)[1:]
        ctx = group.make_context("boundcalc", args)
        name, cmd, rest = group.resolve_command(ctx, [*getattr(ctx, "_protected_args", []), *ctx.args])
        cmd.make_context(name, rest, parent=ctx)         # raises on an unknown option
        return None
    cwd = workdir
    if line.startswith("boundcalc new "):                # `new` never overwrites: a folder of its own
        import tempfile
        cwd = Path(tempfile.mkdtemp(dir=workdir, prefix="new-"))
    r = _run(line, cwd)
    if "Traceback" in r.stderr or r.returncode != status:
        return f"{where}: exit {r.returncode} (expected {status}): {r.stderr.strip()[-300:]}"
    if expected:
        got = [s.rstrip() for s in (r.stdout + r.stderr).rstrip("\n").split("\n")]
        want = [s.rstrip() for s in expected]
        if got != want:
            return f"{where}: printed\n" + "\n".join(got) + "\nbut the page shows\n" + "\n".join(want)
    return None


def test_every_command_of_the_docs_runs(workdir):

    from typer.main import get_command

    from boundcalc.cli.app import app
    group = get_command(app)
    t0 = time.perf_counter()
    items = commands()
    failures = [f for f in (_check(it, workdir, group) for it in items) if f]   # in process: one at a time
    assert not failures, "\n\n".join(failures)
    print(f"{sum(not is_slow(i[1]) for i in items)} commands run, "
          f"{sum(is_slow(i[1]) for i in items)} parsed, in {time.perf_counter() - t0:.1f} s")


@pytest.mark.parametrize("i", range(sum(1 for _, lang, _ in code_blocks() if lang == "python")))
def test_python_blocks_run(i):
    page, _, body = [b for b in code_blocks() if b[1] == "python"][i]
    r = subprocess.run([sys.executable, "-c", body], cwd=ROOT, env=ENV, capture_output=True, text=True, check=False, timeout=300)
    assert r.returncode == 0, f"{page}: {r.stderr[-2000:]}"


def test_toml_blocks_parse():
    blocks = [b for _, lang, b in code_blocks() if lang == "toml"]
    assert blocks
    for b in blocks:
        tomllib.loads(b)


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key) and tag in ("a", "img", "link", "script"):
                self.links.append(a[key])


def test_site_builds_with_warnings_as_errors_and_links_resolve(tmp_path):
    out = tmp_path / "html"
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-E", "-q", "-b", "html",
                        str(DOCS), str(out)], env=ENV, capture_output=True, text=True, check=False, timeout=600)
    assert r.returncode == 0, r.stderr[-4000:]
    print(f"site built in {time.perf_counter() - t0:.1f} s")
    parsed = {}
    for f in out.rglob("*.html"):
        p = _Links()
        p.feed(f.read_text(encoding="utf-8"))
        parsed[f.resolve()] = p
    bad = []
    for f, p in parsed.items():
        for link in p.links:
            u = urlsplit(link)
            if u.scheme or u.netloc or link.startswith("mailto:"):
                continue                                  # external: not fetched (no internet)
            target = (f.parent / unquote(u.path)).resolve() if u.path else f
            if not target.exists():
                bad.append(f"{f.relative_to(out)}: {link}")
            elif u.fragment and target in parsed and u.fragment not in parsed[target].ids:
                bad.append(f"{f.relative_to(out)}: {link} (no such anchor)")
    assert not bad, "\n".join(bad)
    for page in ("reference/commands/require-heads.html", "reference/api/boundcalc.api.html",
                 "explanation/decision-procedure.html", "reference/formula-files.html"):
        assert (out / page).exists(), page
    text = (out / "reference/commands/require-heads.html").read_text(encoding="utf-8")
    assert "--theorem" in text and "--explain" in text       # the help itself, not a stub


def test_readme_links_resolve():
    """README.md links the site's pages by their sources (docs/...md) and repository files."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    links = [t for t in re.findall(r"\]\(([^()\s]+)\)", text) if not urlsplit(t).scheme]
    assert links
    missing = [t for t in links if not (ROOT / t.partition("#")[0]).exists()]
    assert not missing, missing
