"""``{boundcalc-layers}``: the import picture, drawn at build time from the import-linter
contracts in ``pyproject.toml`` (the ones ``lint-imports`` enforces, tests/test_layers.py),
so the picture on the site cannot drift from the rule CI applies."""
from __future__ import annotations

import textwrap
import tomllib
from pathlib import Path

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def contracts(pyproject: Path = PYPROJECT) -> dict[str, dict]:
    """The import-linter contracts of ``pyproject``, by id."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    return {c["id"]: c for c in data["tool"]["importlinter"]["contracts"]}


def _layer_lines(contract: dict) -> list[str]:
    """One line per layer, the top first: its modules joined by " | " (independent of one
    another) or " : " (may import one another), an arrow to the next layer down."""
    out = []
    for k, layer in enumerate(contract["layers"]):
        out += _fold("  " + " ".join(layer.split()))
        if k + 1 < len(contract["layers"]):
            out.append("    v")
    return out


# a layer's line longer than this folds after a separator, the rest on lines indented by
# CONTINUE (a literal block does not wrap; the site's code column is 80 characters)
WIDTH = 80
CONTINUE = "      "


def _fold(line: str) -> list[str]:
    """``line`` folded after a " : " or " | " so that no piece is wider than WIDTH; the
    continuation lines start with CONTINUE (joined back, they are the line)."""
    out: list[str] = []
    while len(line) > WIDTH:
        cut = max(line.rfind(" : ", 0, WIDTH - 1), line.rfind(" | ", 0, WIDTH - 1))
        if cut <= len(CONTINUE):
            break
        out.append(line[:cut + 2])
        line = CONTINUE + line[cut + 3:]
    return out + [line]


def _wrap(text: str, width: int = 78) -> list[str]:
    """Prose lines of the picture, at most ``width`` characters (a code block does not wrap)."""
    return textwrap.wrap(text, width, break_on_hyphens=False)


def picture(pyproject: Path = PYPROJECT) -> str:
    """The text picture of the layers contract (the package), the engine's two forbidden
    contracts, and the decision procedure's own layers contract."""
    cs = contracts(pyproject)
    top = cs["layers"]
    lines = _wrap(f"boundcalc ({'every module placed' if top.get('exhaustive') else 'listed modules'};"
                  " imports inside functions count). A layer imports only the layers below it;"
                  " 'a | b': a and b import neither each other, 'a : b': they may.") + [""]
    lines += _layer_lines(top)
    leaf = cs["engine-leaf"]
    barred = sorted(m.rsplit(".", 1)[-1] for m in leaf["forbidden_modules"])
    never = sorted(m.rsplit(".", 1)[-1] for m in cs["engine-consumers"]["source_modules"])
    lines += [""] + _wrap(f"beside the layers: {', '.join(s.rsplit('.', 1)[-1] for s in leaf['source_modules'])}"
                          f" -- a leaf that imports none of {', '.join(barred)}; never imported by "
                          f"{', '.join(never)}.")
    lines += ["", "boundcalc.prover (the decision procedure's own layers):", ""]
    lines += _layer_lines(cs["prover-layers"])
    if "acyclic" in cs:
        lines += ["", "and no import cycle between sibling modules, at any depth."]
    return "\n".join(lines) + "\n"


class BoundcalcLayers(SphinxDirective):
    """Insert :func:`picture` as a literal block."""

    def run(self):
        self.env.note_dependency(str(PYPROJECT))
        text = picture()
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app):
    app.add_directive("boundcalc-layers", BoundcalcLayers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
