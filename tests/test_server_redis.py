"""Two server processes on one Redis message queue: an emit from the process that hosts
a table reaches a client connected to the other process."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest

from tests.support.server import Phone, ProcessServer, free_port

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


@pytest.fixture
def redis_url(tmp_path):
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


def test_an_emit_from_one_process_reaches_a_client_of_another(tmp_path, redis_url):
    a = ProcessServer(tmp_path / "a.sqlite3", seats=2, extra=["--message-queue", redis_url], wait=False)
    b = ProcessServer(tmp_path / "b.sqlite3", game=None, extra=["--message-queue", redis_url], wait=False)
    clients = []
    try:
        a.wait_ready()
        b.wait_ready()
        (info,) = a.tables()
        table_id = info["table"]
        assert b.tables() == []  # the table lives in process A only
        watcher = Phone(b.url)
        clients.append(watcher)
        ack = watcher.call("watch", {"table": table_id})
        assert ack["ok"] and ack["role"] == "remote"
        player = Phone(a.url)
        clients.append(player)
        token = a.seat_tokens()[0]
        hand = player.call("join", {"table": table_id, "token": token})["view"]["hand"]
        ack = player.call("play", {"table": table_id, "move": {"type": "pick", "card": hand[0]}})
        assert ack["ok"]
        _, view = watcher.wait_for(lambda e, d: e == "view" and d["seq"] >= ack["seq"])
        assert view["table"] == table_id and view["seat"] is None and view["view"]["picked"] == [True, False]
        assert "hand" not in view["view"]
    finally:
        for c in clients:
            c.close()
        a.stop()
        b.stop()
