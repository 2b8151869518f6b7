"""Sphinx configuration of boundcalc's documentation site (MyST Markdown, furo theme).

Built by tests/test_docs.py with warnings as errors (``sphinx-build -W``), so a broken
link, a missing page or an unreadable docstring fails CI.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import boundcalc

project = "boundcalc"
author = "the boundcalc authors"
copyright = "the boundcalc authors"
release = version = boundcalc.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    # napoleon reads Google/NumPy-style sections; boundcalc's docstrings have none today
    # (plain text, shown as written by _plain_docstring below), so it changes nothing yet
    "sphinx.ext.napoleon",
    "boundcalc_help",
    "layers_picture",
]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]
html_theme = "furo"
html_title = f"boundcalc {release}"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
# MyST reads the repository's own Markdown files (formulas/README.md, CONTRIBUTING.md)
# through {include}; their links to source files outside the site are plain links
suppress_warnings: list[str] = []

extensions.append("repo_links")


def _plain_docstring(app, what, name, obj, options, lines):
    """boundcalc's docstrings are plain text (``|x|`` is a norm, ``*`` a product, not RST
    markup): show each exactly as written, as a preformatted block, instead of letting
    reStructuredText misread it (an "undefined substitution" for every absolute value)."""
    if lines:
        body = [("    " + s) if s.strip() else "" for s in lines]
        lines[:] = ["::", "", *body, ""]


def setup(app):
    app.connect("autodoc-process-docstring", _plain_docstring, priority=900)
