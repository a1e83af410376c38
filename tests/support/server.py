"""Real servers for tests: in a thread (fast) or in a subprocess (for kill -9), on 127.0.0.1.

Both listen on a free port and are reached by real python-socketio clients
over WebSocket.  :class:`Phone` wraps a client and keeps every message it
received, so a test can check what each seat was ever told.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import socketio
from werkzeug.serving import make_server

from companion.app import create_app, server_of
from companion.config import Config, TableSpec
from tests.support import toy_game

ROOT = Path(__file__).resolve().parents[2]
PIN = "4321"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThreadServer:
    """create_app + werkzeug in a daemon thread; ``.server`` is companion.app.Server."""

    def __init__(self, config: Config):
        self.config = config
        self.app = create_app(config)
        self.server = server_of(app=self.app)
        self.http = make_server(config.host, config.port, self.app, threaded=True)
        self.thread = threading.Thread(target=self.http.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.config.port}"

    def stop(self) -> None:
        self.http.shutdown()
        self.server.close()


def toy_config(tmp_path: Path, **kwargs: Any) -> Config:
    defaults: dict[str, Any] = dict(host="127.0.0.1", port=free_port(), db=tmp_path / "companion.sqlite3", pin=PIN,
                                    extra_games={"toy": toy_game.GAME}, rate=1000.0, burst=1000)
    defaults.update(kwargs)
    return Config(**defaults)


@contextmanager
def thread_server(tmp_path: Path, tables: list[TableSpec] | None = None, **kwargs: Any) -> Iterator[ThreadServer]:
    """With ``serial="sim"``, the simulated boards are online before the test starts: they come up on
    their own threads, and under load a test's first moves could otherwise meet no board (the server then
    rightly shows dice and coins on screen only, and a test of the boards would fail for nothing)."""
    srv = ThreadServer(toy_config(tmp_path, tables=tables or [], **kwargs))
    try:
        if kwargs.get("serial") == "sim":
            wait_boards_online(srv)
        yield srv
    finally:
        srv.stop()


def wait_boards_online(srv: ThreadServer, timeout: float = 60) -> None:
    """Every simulated board (dice, coins, coin toss) online, or the test fails saying which are not."""
    manager = srv.server.devices.manager
    deadline = time.monotonic() + timeout
    while True:
        statuses = manager.status()
        if len(statuses) >= len(manager.simulator.boards) and all(s.online for s in statuses):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"simulated boards not online within {timeout} s: {statuses}")
        time.sleep(0.02)


@contextmanager
def physical_table_phones(tmp_path: Path, game: str, variant: str) -> Iterator[tuple[Any, int, list[Phone], list[dict]]]:
    """A physical-deal two-seat table of ``game`` on a real server, a phone joined at each seat:
    (the table, the seat to act, the phones, their join acks).  The phones are closed afterwards."""
    with thread_server(tmp_path, [TableSpec(game, variant, seats=2, deal="physical")]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        assert table.state.snapshot.physical
        seat = next(iter(table.state.to_act()))
        phones = [Phone(srv.url), Phone(srv.url)]
        try:
            acks = [p.call("join", {"table": table.id, "token": table.seats[i].token}) for i, p in enumerate(phones)]
            assert all(a["ok"] for a in acks), acks
            yield table, seat, phones, acks
        finally:
            for p in phones:
                p.close()


class Phone:
    """A real Socket.IO client that keeps every message it received."""

    def __init__(self, url: str, cookie: str | None = None):
        self.client = socketio.Client(reconnection=False)
        self.messages: list[tuple[str, Any]] = []
        self.cond = threading.Condition()
        self.client.on("*", self._any)
        headers = {"Cookie": cookie} if cookie else {}
        self.client.connect(url, transports=["websocket"], headers=headers, wait_timeout=10)

    def _any(self, event: str, data: Any = None) -> None:
        with self.cond:
            self.messages.append((event, data))
            self.cond.notify_all()

    def call(self, event: str, data: Any, timeout: float = 15) -> Any:
        return self.client.call(event, data, timeout=timeout)

    def views(self) -> list[dict]:
        with self.cond:
            return [d for e, d in self.messages if e == "view"]

    def wait_for(self, predicate, timeout: float = 15) -> Any:
        """The first message (event, data) satisfying ``predicate``; fails the test after ``timeout``."""
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for msg in self.messages:
                    if predicate(*msg):
                        return msg
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no such message within {timeout} s; got {[e for e, _ in self.messages]}")
                self.cond.wait(left)

    def wait_seq(self, seq: int, timeout: float = 15) -> dict:
        return self.wait_for(lambda e, d: e == "view" and d["seq"] >= seq, timeout)[1]

    def close(self) -> None:
        self.client.disconnect()


class ProcessServer:
    """``companion serve`` in a subprocess: the real command line, killable with SIGKILL."""

    def __init__(self, db: Path, port: int | None = None, game: str | None = "toy", seats: int = 2,
                 extra: list[str] | None = None, wait: bool = True):
        self.db, self.port = db, port or free_port()
        cmd = [sys.executable, "-m", "companion.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port),
               "--db", str(db), "--pin", PIN, "--extra-game", "tests.support.toy_game", "--quiet"]
        if game:
            cmd += ["--game", game, "--seats", str(seats), "--deal", "7"]
        cmd += extra or []
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env=env)
        self.output: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if wait:
            self.wait_ready()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("server exited:\n" + "".join(self.output))
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1) as resp:
                    if resp.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("server did not start:\n" + "".join(self.output))

    def tables(self) -> list[dict]:
        with urllib.request.urlopen(self.url + "/api/tables", timeout=5) as resp:
            return json.load(resp)["tables"]

    def seat_tokens(self) -> list[str]:
        return [m.group(1) for m in re.finditer(r"seat \d+: \S+/j/(\S+)", "".join(self.output))]

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
