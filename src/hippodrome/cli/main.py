"""``hippodrome``: one command, a sub-command per game and one for the server.

Exit status 2 means the input was refused (the message says why and what is right).
"""

from __future__ import annotations

import typer

from hippodrome.cli.click_i18n import install as install_typer_translations
from hippodrome.cli.readysetbet import app as readysetbet_app
from hippodrome.cli.serve import serve
from hippodrome.cli.turfmaster import app as turfmaster_app
from hippodrome.i18n import help_text

install_typer_translations()  # Typer's own words ("Usage:", "Options", usage errors) in the help language
app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help=help_text("Horse-racing board games: TurfMaster and Ready Set Bet."))
app.add_typer(turfmaster_app, name="turfmaster")
app.add_typer(readysetbet_app, name="readysetbet")
app.command("serve")(serve)


if __name__ == "__main__":  # pragma: no cover
    app()
