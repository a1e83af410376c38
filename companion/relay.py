"""Seats that join through a server process that does not host their table.

With ``--message-queue redis://…`` several processes (or hosts) share one
Redis.  Flask-SocketIO's queue already carries every emit to every process,
so a socket in a room hears that room whichever process it is connected to.
What it does not carry is the other direction: a phone's ``join`` or ``play``
reaching the one process whose referee owns the table.  This module does that
over the same Redis:

* each process registers the tables it hosts (``table-companion:hosts``, table
  id -> process id) and listens on its own channel;
* a process that is asked about a table it does not host sends the request to
  the host's channel and waits for the answer on its own;
* the host checks the seat token itself (the forwarding process never sees a
  seat's secret state, only the token the phone showed), remembers the remote
  socket as ``<process>:<sid>`` among the seat's connections, and answers; its
  views then reach the phone through the queue like any emit.

A request names the remote socket, never a seat: the host looks the socket up
among its seats' connections, so a kicked phone (dropped from them) is refused
even if the forwarding process still thinks it is seated.  A kick also tells
the forwarding process to take the socket out of the seat's room.

Why forward rather than redirect the phone to the host's address: behind one
public address (a load balancer, a single ``.local`` name) the phone cannot be
sent elsewhere, and a redirect would also move the cookie's origin.  Forwarding
costs one Redis round trip per intent (well under a millisecond on a LAN).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

log = logging.getLogger(__name__)
PREFIX = "table-companion"
HOSTS = f"{PREFIX}:hosts"
TIMEOUT = 10.0


class NoHost(Exception):
    """No running process hosts this table."""


class Relay:
    """One process's end: forwards requests for tables hosted elsewhere, serves requests for its own."""

    def __init__(self, url: str, serve: Callable[[str, str, dict], dict], drop: Callable[[str], None]):
        import redis

        self.id = secrets.token_hex(8)
        self._serve = serve
        self._drop = drop
        self._redis = redis.Redis.from_url(url)
        self._pending: dict[str, Future] = {}
        self._lock = threading.Lock()
        self._hosted: set[str] = set()
        self._pool = ThreadPoolExecutor(max_workers=8, thread_name_prefix="relay")
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        self._pubsub.subscribe(**{self.channel(self.id): self._on_message})
        self._thread = self._pubsub.run_in_thread(sleep_time=1.0, daemon=True)

    @staticmethod
    def channel(process: str) -> str:
        return f"{PREFIX}:process:{process}"

    def key(self, sid: str) -> str:
        """How the host knows a socket of this process: ``<process>:<sid>``."""
        return f"{self.id}:{sid}"

    # ---- hosting ------------------------------------------------------------
    def host(self, table_id: str) -> None:
        self._hosted.add(table_id)
        self._redis.hset(HOSTS, table_id, self.id)

    def hosts(self, table_id: str) -> bool:
        """Does some running process host this table (as far as Redis knows)?"""
        return self._redis.hget(HOSTS, table_id) is not None

    def close(self) -> None:
        for table_id in list(self._hosted):
            try:  # only if still ours: a restarted process may have taken the table over
                if self._redis.hget(HOSTS, table_id) == self.id.encode():
                    self._redis.hdel(HOSTS, table_id)
            except Exception:  # Redis gone: nothing to clean
                pass
        self._thread.stop()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._redis.close()

    # ---- asking the host ------------------------------------------------------
    def request(self, table_id: str, op: str, **args: Any) -> dict:
        """Run ``op`` at the process hosting ``table_id`` and return its answer; NoHost when none runs."""
        host = self._redis.hget(HOSTS, table_id)
        if host is None:
            raise NoHost(table_id)
        rid = secrets.token_hex(8)
        fut: Future = Future()
        with self._lock:
            self._pending[rid] = fut
        try:
            message = {"kind": "request", "id": rid, "from": self.id, "table": table_id, "op": op, "args": args}
            if self._redis.publish(self.channel(host.decode()), json.dumps(message)) == 0:
                raise NoHost(table_id)  # registered, but its process is gone
            return fut.result(TIMEOUT)
        finally:
            with self._lock:
                self._pending.pop(rid, None)

    def tell(self, table_id: str, op: str, **args: Any) -> None:
        """Like :meth:`request`, without waiting for (or needing) an answer."""
        host = self._redis.hget(HOSTS, table_id)
        if host is not None:
            message = {"kind": "request", "id": None, "from": self.id, "table": table_id, "op": op, "args": args}
            self._redis.publish(self.channel(host.decode()), json.dumps(message))

    def drop(self, key: str) -> None:
        """Tell the process holding remote socket ``key`` that it lost its seat (a kick)."""
        process, _, sid = key.partition(":")
        self._redis.publish(self.channel(process), json.dumps({"kind": "drop", "sid": sid}))

    # ---- listening ------------------------------------------------------------
    def _on_message(self, message: dict) -> None:
        try:
            data = json.loads(message["data"])
        except (TypeError, ValueError):
            log.warning("relay: unreadable message ignored")
            return
        kind = data.get("kind")
        if kind == "reply":
            with self._lock:
                fut = self._pending.get(data.get("id"))
            if fut is not None and not fut.done():
                fut.set_result(data.get("answer"))
        elif kind == "request":
            self._pool.submit(self._answer, data)
        elif kind == "drop":
            self._pool.submit(self._drop, str(data.get("sid")))

    def _answer(self, data: dict) -> None:
        try:
            answer = self._serve(str(data["table"]), str(data["op"]), dict(data.get("args") or {}))
        except Exception:
            log.exception("relay: request %s for table %s failed", data.get("op"), data.get("table"))
            answer = {"ok": False, "code": "server", "message": "the table's server failed to answer"}
        if data.get("id") is not None:
            reply = {"kind": "reply", "id": data["id"], "answer": answer}
            self._redis.publish(self.channel(str(data["from"])), json.dumps(reply))
