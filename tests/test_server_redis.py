"""Two server processes on one Redis message queue: an emit from the process that hosts
a table reaches a client connected to the other process."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from tests.support.server import PIN, Phone, ProcessServer, free_port

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("redis")
    if not shutil.which(REDIS):
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen([REDIS, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(10)


@pytest.fixture(scope="module")
def processes(tmp_path_factory, redis_url):
    """Process A hosts the tables; process B hosts nothing; both on one Redis (started once per module)."""
    tmp_path = tmp_path_factory.mktemp("servers")
    a = ProcessServer(tmp_path / "a.sqlite3", seats=2, extra=["--message-queue", redis_url], wait=False)
    b = ProcessServer(tmp_path / "b.sqlite3", game=None, extra=["--message-queue", redis_url], wait=False)
    try:
        a.wait_ready()
        b.wait_ready()
        yield a, b
    finally:
        a.stop()
        b.stop()


@pytest.fixture
def two_processes(processes):
    """The two processes, a fresh 2-seat table on A (id, seat tokens), and phones closed afterwards."""
    a, b = processes
    req = urllib.request.Request(f"{a.url}/api/tables", data=json.dumps({"pin": PIN, "game": "toy", "seats": 2}).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=10) as resp:
        body = json.load(resp)
    table = (body["table"], [seat["url"].rsplit("/", 1)[1] for seat in body["seats"]])
    clients: list[Phone] = []

    def phone(server) -> Phone:
        p = Phone(server.url)
        clients.append(p)
        return p

    yield a, b, table, phone
    for c in clients:
        try:
            c.close()
        except Exception:
            pass


def test_an_emit_from_one_process_reaches_a_client_of_another(two_processes):
    a, b, (table_id, tokens), phone = two_processes
    (info,) = [t for t in a.tables() if t["table"] == table_id]
    assert b.tables() == []  # the table lives in process A only
    watcher = phone(b)
    ack = watcher.call("watch", {"table": table_id})
    assert ack["ok"] and ack["role"] == "remote" and ack["seq"] == info["seq"]  # its view, asked of A
    player = phone(a)
    token = tokens[0]
    hand = player.call("join", {"table": table_id, "token": token})["view"]["hand"]
    ack = player.call("play", {"table": table_id, "move": {"type": "pick", "card": hand[0]}})
    assert ack["ok"]
    _, view = watcher.wait_for(lambda e, d: e == "view" and d["seq"] >= ack["seq"])
    assert view["table"] == table_id and view["seat"] is None and view["view"]["picked"] == [True, False]
    assert "hand" not in view["view"]
    assert watcher.call("watch", {"table": "nosuchtable"})["code"] == "unknown-table"


def test_a_seat_joins_and_plays_through_the_process_that_does_not_host_it(two_processes):
    a, b, (table_id, tokens), phone = two_processes
    # Seat 2 joins through B: A checks the token and answers with seat 2's private view.
    remote = phone(b)
    assert remote.call("join", {"table": table_id, "token": "x" * 32})["code"] == "refused"
    joined = remote.call("join", {"table": table_id, "token": tokens[1]})
    assert joined["ok"] and joined["seat"] == 1 and len(joined["view"]["hand"]) > 0
    assert remote.call("join", {"table": table_id, "token": tokens[1]})["seat"] == 1  # joining again keeps it
    local = phone(a)
    hand_a = local.call("join", {"table": table_id, "token": tokens[0]})["view"]["hand"]
    assert local.call("play", {"table": table_id, "move": {"type": "pick", "card": hand_a[0]}})["ok"]
    # A's emit to seat 2's room reaches the phone on B; its moves are played by A's referee.
    seq = remote.wait_for(lambda e, d: e == "view" and d["seat"] == 1 and d["view"]["picked"][0])[1]["seq"]
    hand_b = joined["view"]["hand"]
    assert not remote.call("play", {"table": table_id, "move": {"type": "pick", "card": 99}})["ok"]
    assert remote.wait_for(lambda e, d: e == "rejected")[1]["verdict"]["rule"]
    assert remote.call("play", {"table": table_id, "move": {"type": "pick", "card": hand_b[0], "seat": 0}}
                       )["code"] == "unauthorised"
    ack = remote.call("play", {"table": table_id, "move": {"type": "pick", "card": hand_b[0]}})
    assert ack["ok"] and ack["seq"] > seq
    view = local.wait_for(lambda e, d: e == "view" and d["seq"] >= ack["seq"])[1]
    assert view["seat"] == 0 and hand_b[0] not in view["view"]["hand"]
    step = remote.call("record", {"table": table_id, "seq": ack["seq"]})
    assert step["ok"] and step["entry"]["move"]["card"] == hand_b[0]  # its own move, in full
    # The host (on A) kicks seat 2: the phone on B is told and refused from then on.
    host = phone(a)
    assert host.call("host_auth", {"table": table_id, "pin": PIN})["ok"]
    assert host.call("host", {"table": table_id, "action": "kick", "seat": 1})["ok"]
    remote.wait_for(lambda e, d: e == "kicked")
    again = phone(b)
    assert again.call("join", {"table": table_id, "token": tokens[1]})["code"] == "refused"
