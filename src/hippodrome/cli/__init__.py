"""The ``hippodrome`` command."""

from hippodrome.cli.rich_wrap import keep_no_break_spaces

keep_no_break_spaces()
