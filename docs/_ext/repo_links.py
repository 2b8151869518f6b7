"""Links to the repository's own files, in the pages and in the Markdown files they include
(README sections, formulas/README.md, CONTRIBUTING.md), are written relative to the
repository root as on GitHub. This rewrites them for the site: a Markdown file that is a
page becomes a link to that page, an image stays an image, any other file becomes a
download (copied into the site), and a link to a file that does not exist is a warning,
so that ``sphinx-build -W`` fails on it."""
from __future__ import annotations

import os
import re
from pathlib import Path

from sphinx.util import logging

logger = logging.getLogger(__name__)
DOCS = Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
PAGES = {"README.md": "index.md", "CONTRIBUTING.md": "howto/contributing.md",
         "formulas/README.md": "reference/formula-files.md"}
LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(([^()\s]+)\)")
ROOTS = ("examples/", "formulas/", "src/", "tests/", "bench/", "CONTRIBUTING.md", "README.md",
         "CHANGELOG.md", "LICENSE", "pyproject.toml", ".ci/")


def rewrite(text: str, docname: str, source: Path, included: bool = False) -> str:
    """``text`` (Markdown of ``source``, shown on page ``docname``) with its repository links
    rewritten for the site."""
    here = (DOCS / docname).parent

    def one(m: re.Match) -> str:
        bang, label, target = m.groups()
        path, _, frag = target.partition("#")
        if not path.startswith(ROOTS):
            return m.group(0)
        file = ROOT / path
        if not file.exists():
            logger.warning("%s: link to %s, which is not in the repository", source, path)
            return m.group(0)
        rel = os.path.relpath(file, here)
        if bang:
            return f"{bang}[{label}]({rel})"
        if path in PAGES:
            page = "/" + PAGES[path]                  # "/": from the site's root
            return f"[{label}]({page}{'#' + frag if frag else ''})"
        if included:                                  # MyST resolves these from the site's root
            rel = "/" + os.path.relpath(file, DOCS)
        return f"[{label}](<path:{rel}>)"

    out, fence = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fence = not fence
        out.append(line if fence else LINK.sub(one, line))
    return "\n".join(out)


def _source_read(app, docname, content):
    content[0] = rewrite(content[0], docname, DOCS / docname)


def _include_read(app, relative_path, parent_docname, content):
    content[0] = rewrite(content[0], parent_docname, Path(relative_path), included=True)


def setup(app):
    app.connect("source-read", _source_read)
    app.connect("include-read", _include_read)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
