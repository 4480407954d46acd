"""``hippodrome``: one command, a sub-command per game and one for the server.

A game's command group is found through its entry point in the ``hippodrome.commands`` group
(pyproject.toml), so a new game brings its commands without touching this frame.
Exit status 2 means the input was refused (the message says why and what is right).
"""

from __future__ import annotations

from importlib.metadata import entry_points

import typer

from hippodrome.cli.click_i18n import install as install_typer_translations
from hippodrome.cli.serve import serve
from hippodrome.core.registry import COMMANDS_GROUP
from hippodrome.i18n import help_text

install_typer_translations()  # Typer's own words ("Usage:", "Options", usage errors) in the help language
app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help=help_text("Horse-racing board games: play them with friends and bots, in the terminal or the browser."))
for entry in sorted(entry_points(group=COMMANDS_GROUP), key=lambda entry: entry.name):
    app.add_typer(entry.load(), name=entry.name)
app.command("serve")(serve)


if __name__ == "__main__":  # pragma: no cover
    app()
