"""How long a failed sign-in takes with an unknown name and with a wrong password (issue 35.7: no
account enumeration by timing), through the real app at the server's default argon2id cost.

    .venv/bin/python bench/sign_in_timing.py [--rounds 30]

Prints each case's median and quartiles in milliseconds, alternating the two cases so that the
machine's load falls on both alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fastapi.testclient import TestClient  # noqa: E402

from machine_info import describe  # noqa: E402
from hippodrome.server import create_app  # noqa: E402
from hippodrome.server.accounts.limits import AccountLimits  # noqa: E402
from hippodrome.server.accounts.service import AccountSettings  # noqa: E402
from hippodrome.server.quota import Quota  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    rounds = parser.parse_args().rounds
    many = Quota(10 * rounds + 10, 3600)
    settings = AccountSettings(limits=AccountLimits(sign_ins=many, failures=many))
    with tempfile.TemporaryDirectory() as folder, \
            TestClient(create_app(f"{folder}/t.sqlite3", accounts=settings)) as client:
        client.post("/api/accounts", json={"name": "Ana", "password": "a long horse-race phrase 7"})
        client.delete("/api/session")
        times: dict[str, list[float]] = {"unknown name": [], "wrong password": []}
        for n in range(rounds):
            for case, name in (("unknown name", f"Nobody{n}"), ("wrong password", "Ana")):
                started = time.perf_counter()
                answer = client.post("/api/session", json={"name": name, "password": "not the password at all"})
                times[case].append((time.perf_counter() - started) * 1000)
                assert answer.status_code == 401, answer.text
    print(f"{rounds} sign-ins of each kind, default argon2id cost, {describe()}")
    for case, values in times.items():
        q1, median, q3 = statistics.quantiles(values, n=4)
        print(f"  {case:15} median {median:6.1f} ms  (quartiles {q1:6.1f} - {q3:6.1f})")


if __name__ == "__main__":
    main()
