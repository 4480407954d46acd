"""``python -m hippodrome`` is the ``hippodrome`` command."""

from hippodrome.cli.main import app

if __name__ == "__main__":  # not when a worker process (the bots', spawned) imports the main module
    app()
