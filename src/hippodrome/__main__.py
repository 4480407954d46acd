"""``python -m hippodrome`` is the ``hippodrome`` command."""

from hippodrome.cli.main import app

app()
