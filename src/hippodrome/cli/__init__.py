"""The ``hippodrome`` command."""
