"""/healthz, /readyz and Prometheus's /metrics (issue 37.5): alive, ready only while storage (and
in a cluster the bus and the leases) answer, and the measurements move as tables are played."""

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from hippodrome.server import create_app
from tests.server.conftest import act, join, make_table, receive, seated
from tests.server.services import postgres_url, redis_url  # noqa: F401 (fixtures)
from tests.server.test_server_durable import fail_writes, wait_until


def scrape(client) -> dict[tuple[str, tuple], float]:
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.text) for sample in family.samples}


def test_alive_and_ready_then_not_ready_while_saving_fails_or_storage_is_gone(client):
    assert client.get("/healthz").json() == {"status": "alive"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["checks"] == {"draining": "ok", "storage": "ok", "saving": "ok"}
    table = make_table(client, start=False)
    room, disk = fail_writes(client, table)
    with seated(client, table["id"], table["seats"][0]["token"]) as (ws, _state):
        disk.fail()
        ws.send_json({"v": 1, "type": "ready"})
        receive(ws, kind="storage")
        answer = client.get("/readyz")
        assert answer.status_code == 503 and answer.json()["checks"]["saving"] == "saving fails for 1 tables"
        disk.failing.clear()
        receive(ws, kind="storage", predicate=lambda m: m["saving"] == "ok")
    assert client.get("/readyz").status_code == 200
    client.app.state.hub.storage._reader.close()   # the database cannot be read any more
    answer = client.get("/readyz")
    assert answer.status_code == 503 and answer.json()["checks"]["storage"].startswith("ProgrammingError")
    assert client.get("/healthz").status_code == 200   # alive all the same


def test_the_measurements_follow_the_tables(client):
    before = scrape(client)
    table = make_table(client, seats=[{"name": "Ana"}, {"name": "Bo", "kind": "bot", "level": "random"}])
    acts = 0
    with client.websocket_connect(f"/ws/tables/{table['id']}") as spectator, \
            seated(client, table["id"], table["seats"][0]["token"]) as (ws, state):
        join(spectator)
        while acts < 3 and state["status"] == "playing":
            options = (state["decision"] or {}).get("options")
            if options and state["decision"]["seat"] == 0:
                state = act(ws, state, options[0])
                acts += 1
                receive(spectator, predicate=lambda m, n=state["state_id"]: m["state_id"] >= n)
            else:
                state = receive(ws, predicate=lambda m, n=state["state_id"]: m["state_id"] > n)
        after = scrape(client)
        assert after[("hippodrome_connections", ())] == 2
    assert after[("hippodrome_tables", (("status", "playing"),))] >= 1
    gained = {name: after.get((name, ()), 0) - before.get((name, ()), 0) for name in (
        "hippodrome_act_to_spectator_seconds_count", "hippodrome_commit_seconds_count",
        "hippodrome_bot_think_seconds_count")}
    assert acts == 3 and gained["hippodrome_act_to_spectator_seconds_count"] == 3, gained
    assert gained["hippodrome_commit_seconds_count"] >= 3 and gained["hippodrome_bot_think_seconds_count"] >= 1
    failures = scrape(client).get(("hippodrome_storage_failures_total", ()), 0)
    table = make_table(client, start=False)
    room, disk = fail_writes(client, table)
    with seated(client, table["id"], table["seats"][0]["token"]) as (ws, _state):
        disk.fail()
        ws.send_json({"v": 1, "type": "ready"})
        wait_until(lambda: disk.failures >= 2)
        disk.failing.clear()
        receive(ws, kind="storage", predicate=lambda m: m["saving"] == "ok")
    assert scrape(client)[("hippodrome_storage_failures_total", ())] - failures == disk.failures


def test_a_cluster_process_is_ready_while_its_bus_and_leases_answer(postgres_url, redis_url):  # noqa: F811
    with TestClient(create_app(postgres_url, bot_delay=0, bus=redis_url)) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.json()
        assert ready.json()["checks"] == {"draining": "ok", "storage": "ok", "saving": "ok", "bus": "ok", "leases": "ok"}
        hub = client.app.state.hub
        hub.cluster.renewer.renewed_at -= hub.cluster.leases.ttl   # as if the database had not answered for a lease's life
        assert client.get("/readyz").json()["checks"]["leases"].startswith("leases last renewed")
