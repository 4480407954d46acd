"""People who come back (issue 35): accounts, sessions, ratings, their games and replays.

* :mod:`.store`: the rows, in SQLite and PostgreSQL alike (through ``Storage.write`` / ``read``);
* :mod:`.passwords`: argon2id hashes, the names and passwords an account takes;
* :mod:`.sessions`: the signed session cookie;
* :mod:`.limits`: how often one address, and one name, may try to sign in;
* :mod:`.routes`: the API (``/api/accounts``, ``/api/session``, ``/api/me``).

docs/accounts.md says what a person sees and what the server promises.
"""
