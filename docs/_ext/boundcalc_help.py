"""``{boundcalc-help} COMMAND``: the command's ``--help``, rendered at build time from the
typer app itself (plain click formatting), so a command page cannot drift from the CLI."""
from __future__ import annotations

import click
import typer.main
from docutils import nodes
from sphinx.util.docutils import SphinxDirective


def command_help(name: str) -> str:
    """The plain-text ``--help`` of ``boundcalc NAME`` ("" for the top level)."""
    from boundcalc.cli.app import app
    group = typer.main.get_command(app)
    root = click.Context(group, info_name="boundcalc", terminal_width=88, max_content_width=88)
    cmd = group if not name else group.commands[name]
    cmd.rich_markup_mode = None                       # click's own formatter: text, no boxes
    ctx = root if not name else click.Context(cmd, info_name=name, parent=root,
                                              terminal_width=88, max_content_width=88)
    return cmd.get_help(ctx)


def command_names() -> list[str]:
    """Every command of the CLI, in the order of ``boundcalc --help``."""
    from boundcalc.cli.app import app
    return list(typer.main.get_command(app).commands)


class BoundcalcHelp(SphinxDirective):
    """Insert ``boundcalc COMMAND --help`` as a literal block."""
    optional_arguments = 1

    def run(self):
        name = self.arguments[0] if self.arguments else ""
        if name and name not in command_names():
            raise self.error(f"boundcalc has no command {name!r}")
        text = command_help(name)
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app):
    app.add_directive("boundcalc-help", BoundcalcHelp)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
