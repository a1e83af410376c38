"""Latency of the companion server: from a move applied to every client of its table having it.

    python -m bench.server                      # 1 table and 50 tables, 8 phones + 2 table pages each
    python -m bench.server --tables 50 --phones 2 --pages 1 --seconds 20 --rate 10
    python -m bench.server --client socketio    # python-socketio clients, as before (see below)

A server process (the real app: Flask-SocketIO, threading mode, SQLite WAL) hosts
the tables and plays random legal moves (``--rate`` moves per second over all
tables, so each table moves every tables/rate seconds) through the same
referee as phones: on each table's referee thread, a seat that may act plays
one of the moves it was last sent, as a phone picks from its list.  Client
processes hold the clients: per table ``--phones`` joined to seats (round-robin
when there are more phones than seats) and ``--pages`` table pages with the
display key.  Each client notes when each view arrived; the server stamps each
view with the time its move was appended to the record.  For every move the
latency is the slowest of its table's clients; the script prints p50, p99 and
max over all moves, the server's own share (append to the last emit call
returning) as p50/p99, and the CPU used by the server process and by all client
processes during the measurement (percent of one core).

Why two kinds of client: on the bench machine the clients share the server's
cores, which phones never do.  ``--client socketio`` runs one python-socketio
client per connection (two threads each; 500 clients cost as much CPU as the
server) and notes arrival when its handler finally runs, so its figure includes
the clients' own queueing.  ``--client light`` (the default) speaks just enough
Engine.IO/Socket.IO over raw WebSockets (wsproto), all of a process's clients on
one selector thread, and notes arrival when ``recv`` returns: closer to what the
server delivers.

Figures depend on the machine and its load; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------- server side
def serve(args) -> None:
    """Runs in the server process: open the tables, print them, play until told to stop."""
    import logging

    from werkzeug.serving import make_server

    from companion.app import create_app, server_of, settle
    from companion.config import Config, TableSpec
    from tests.support import toy_game

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    config = Config(host="127.0.0.1", port=args.port, db=Path(args.db), pin="1234", restore=False,
                    extra_games={"toy": toy_game.GAME}, rate=1000.0, burst=1000)
    app = create_app(config)
    server = server_of(app)
    spec = TableSpec(args.game, args.variant, args.seats, deal=1)
    tables = [server.create_table(spec) for _ in range(args.tables)]
    # The server's own share: from the append to the last emit call of that view returning.
    emitted: dict[tuple[str, int], float] = {}
    inner = server.hub._emit

    head = re.compile(r'"table":"([^"]+)","seq":(\d+),"t":([0-9.e+-]+)')

    def timed_emit(event, data, to):
        inner(event, data, to)
        if event == "view":
            if isinstance(data, str):  # companion.messages.Encoded: the JSON text, table/seq/t first
                table, seq, t = head.search(data, 0, 300).groups()
                emitted[(table, int(seq))] = time.time() - float(t)
            else:
                emitted[(data["table"], data["seq"])] = time.time() - data["t"]

    server.hub._emit = timed_emit
    http = make_server("127.0.0.1", args.port, app, threaded=True)
    settle()  # as companion.app.run does
    threading.Thread(target=http.serve_forever, daemon=True).start()
    print(json.dumps([{"table": t.id, "key": t.display_key, "tokens": [s.token for s in t.seats]} for t in tables]),
          flush=True)
    sys.stdin.readline()  # "go"
    cpu0 = time.process_time()
    stop = threading.Event()
    moves = [0]
    overloaded = [0]

    # A simulated phone picks one of the moves its seat was last sent (as a real phone does), instead of
    # the bench asking the engine for legal moves again inside the server process it measures.
    from companion.referee import Referee

    listed: dict[tuple[str, int], list | None] = {}
    moves_of = Referee.moves_of

    def remembered(self, seat):
        out = moves_of(self, seat)
        listed[(self.table.id, seat)] = out
        return out

    Referee.moves_of = remembered

    def pick(rng: random.Random, table, referee) -> bool:
        """On the table's referee thread: one seat that may act plays one of its listed moves."""
        seats = sorted(table.state.to_act())
        if not seats:
            return False
        seat = rng.choice(seats)
        options = listed.get((table.id, seat))
        if not options:  # not listed yet (or cannot be): ask the engine
            options = [m.to_json() for m in table.state.legal_moves(seat) or []]
        return bool(options) and referee.play(seat, "simulator", rng.choice(options))["ok"]

    def player(i: int, table) -> None:
        rng = random.Random(i)
        referee = server.hub.referee(table.id)
        stop.wait(rng.random() * args.pace)  # tables out of step, as real ones are
        while not stop.is_set():
            if table.over:
                return  # an 8-seat game lasts some 350 moves: longer than a run at the default rate
            try:
                if referee.run(pick, rng, table, referee, timeout=60):
                    moves[0] += 1
            except TimeoutError:
                overloaded[0] += 1
                continue
            stop.wait(args.pace)

    threads = [threading.Thread(target=player, args=(i, t), daemon=True) for i, t in enumerate(tables)]
    for t in threads:
        t.start()
    sys.stdin.readline()  # "stop"
    cpu = time.process_time() - cpu0
    stop.set()
    for t in threads:
        t.join(5)
    print(json.dumps({"moves": moves[0], "overloaded": overloaded[0], "cpu": cpu,
                      "server_ms": sorted(
        v * 1000 for v in emitted.values())}), flush=True)
    http.shutdown()


# --------------------------------------------------------------------------- client side
VIEW_HEAD = re.compile(r'^42\["view",\{"table":"([^"]+)","seq":(\d+),"t":([0-9.e+-]+)')


class LightSocket:
    """One Socket.IO client over a raw WebSocket (wsproto): just enough protocol to join and listen.

    Engine.IO 4 / Socket.IO 5 text frames: ``0{…}`` open, ``40`` namespace
    connect, ``2``/``3`` ping/pong, ``42[…]`` events, ``43<id>[…]`` acks.
    """

    def __init__(self, host: str, port: int):
        from wsproto import ConnectionType, WSConnection
        from wsproto.events import Request

        self.sock = socket.create_connection((host, port), timeout=30)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.partial = ""
        self.sock.sendall(self.ws.send(Request(host=f"{host}:{port}", target="/socket.io/?EIO=4&transport=websocket")))
        self.wait(lambda m: m.startswith("0{"))
        self.send("40")
        self.wait(lambda m: m.startswith("40"))

    def send(self, text: str) -> None:
        from wsproto.events import TextMessage

        self.sock.sendall(self.ws.send(TextMessage(data=text)))

    def messages(self, data: bytes) -> list[str]:
        """The complete text messages in ``data`` (answering pings on the way)."""
        from wsproto.events import AcceptConnection, Ping, TextMessage

        self.ws.receive_data(data)
        out = []
        for event in self.ws.events():
            if isinstance(event, TextMessage):
                self.partial += event.data
                if event.message_finished:
                    text, self.partial = self.partial, ""
                    if text == "2":
                        self.send("3")
                    else:
                        out.append(text)
            elif isinstance(event, Ping):
                self.sock.sendall(self.ws.send(event.response()))
            elif not isinstance(event, AcceptConnection):
                pass
        return out

    def wait(self, predicate) -> str:
        while True:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionError("closed during the handshake")
            for text in self.messages(data):
                if predicate(text):
                    return text

    def call(self, event: str, payload: dict) -> dict:
        self.send("421" + json.dumps([event, payload]))
        return json.loads(self.wait(lambda m: m.startswith("431["))[3:])[0]


def light_clients(url: str, tables: list[dict], phones: int, pages: int, ready, go, done, out) -> None:
    """Runs in a client process: raw WebSocket clients on one selector thread, arrival noted at recv."""
    import selectors
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    conns: list[LightSocket] = []
    for info in tables:
        for i in range(phones):
            c = LightSocket(parts.hostname, parts.port)
            c.call("join", {"table": info["table"], "token": info["tokens"][i % len(info["tokens"])]})
            conns.append(c)
        for _ in range(pages):
            c = LightSocket(parts.hostname, parts.port)
            c.call("watch", {"table": info["table"], "key": info["key"]})
            conns.append(c)
    sel = selectors.DefaultSelector()
    for c in conns:
        c.sock.setblocking(False)
        sel.register(c.sock, selectors.EVENT_READ, c)
    got: list[tuple[str, int, float, float]] = []
    ready.set()
    go.wait()
    cpu0 = time.process_time()
    cpu = None
    finish = None
    while finish is None or time.time() < finish:
        if finish is None and done.is_set():
            cpu = time.process_time() - cpu0
            finish = time.time() + 1.0  # let the last views land
        for key, _ in sel.select(timeout=0.2):
            c = key.data
            try:
                data = c.sock.recv(262144)
            except BlockingIOError:
                continue
            now = time.time()
            if not data:
                sel.unregister(c.sock)
                continue
            c.sock.setblocking(True)
            for text in c.messages(data):
                m = VIEW_HEAD.match(text)
                if m:
                    got.append((m.group(1), int(m.group(2)), float(m.group(3)), now))
            c.sock.setblocking(False)
    out.put((got, cpu))
    for c in conns:
        c.sock.close()


def clients(url: str, tables: list[dict], phones: int, pages: int, ready, go, done, out) -> None:
    """Runs in a client process: python-socketio clients (threads per client), note arrival times."""
    import socketio

    got: list[tuple[str, int, float, float]] = []  # table, seq, applied, arrived
    lock = threading.Lock()
    conns = []

    def on_view(data):
        now = time.time()
        with lock:
            got.append((data["table"], data["seq"], data["t"], now))

    for info in tables:
        for i in range(phones):
            c = socketio.Client(reconnection=False)
            c.on("view", on_view)
            c.connect(url, transports=["websocket"], wait_timeout=30)
            token = info["tokens"][i % len(info["tokens"])]
            c.call("join", {"table": info["table"], "token": token}, timeout=30)
            conns.append(c)
        for _ in range(pages):
            c = socketio.Client(reconnection=False)
            c.on("view", on_view)
            c.connect(url, transports=["websocket"], wait_timeout=30)
            c.call("watch", {"table": info["table"], "key": info["key"]}, timeout=30)
            conns.append(c)
    ready.set()
    go.wait()
    cpu0 = time.process_time()
    done.wait()
    cpu = time.process_time() - cpu0
    time.sleep(1.0)  # let the last views land
    with lock:
        out.put((list(got), cpu))
    for c in conns:
        try:
            c.disconnect()
        except Exception:
            pass


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def run_case(args, n_tables: int) -> dict:
    port = free_port()
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    pace = n_tables / args.rate
    cmd = [sys.executable, __file__, "--serve", "--port", str(port), "--db", str(db), "--tables", str(n_tables),
           "--game", args.game, "--pace", str(pace)]
    if args.variant:
        cmd += ["--variant", args.variant]
    if args.seats:
        cmd += ["--seats", str(args.seats)]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
                            env=dict(os.environ, PYTHONUNBUFFERED="1"))
    tables = json.loads(proc.stdout.readline())
    url = f"http://127.0.0.1:{port}"
    workers = max(1, min(args.client_processes, n_tables))
    ctx = mp.get_context("spawn")
    go, done = ctx.Event(), ctx.Event()
    out = ctx.Queue()
    readies, procs = [], []
    for w in range(workers):
        ready = ctx.Event()
        share = tables[w::workers]
        p = ctx.Process(target=light_clients if args.client == "light" else clients, args=(url, share, args.phones, args.pages, ready, go, done, out), daemon=True)
        p.start()
        readies.append(ready)
        procs.append(p)
    for r in readies:
        r.wait(300)
    proc.stdin.write("go\n")
    proc.stdin.flush()
    go.set()
    started = time.time()
    time.sleep(args.seconds)
    proc.stdin.write("stop\n")
    proc.stdin.flush()
    summary = json.loads(proc.stdout.readline())
    done.set()
    got = []
    client_cpu = 0.0
    for _ in procs:
        views, cpu = out.get(timeout=120)
        got.extend(views)
        client_cpu += cpu
    for p in procs:
        p.join(30)
    proc.wait(30)
    per_client = args.phones + args.pages
    arrivals: dict[tuple[str, int], list[float]] = {}
    for table, seq, applied, arrived in got:
        if applied >= started:
            arrivals.setdefault((table, seq), []).append(arrived - applied)
    complete = [max(v) * 1000 for v in arrivals.values() if len(v) == per_client]
    server_ms = summary["server_ms"]
    return {"tables": n_tables, "clients": n_tables * per_client, "moves": summary["moves"], "pace": pace,
            "server_p50": percentile(server_ms, 50) if server_ms else float("nan"),
            "server_p99": percentile(server_ms, 99) if server_ms else float("nan"),
            "overloaded": summary["overloaded"],
            "server_cpu": summary["cpu"] / args.seconds, "client_cpu": client_cpu / args.seconds,
            "views": len(arrivals), "complete": len(complete),
            "p50": percentile(complete, 50) if complete else float("nan"),
            "p99": percentile(complete, 99) if complete else float("nan"),
            "max": max(complete) if complete else float("nan"),
            "mean": statistics.fmean(complete) if complete else float("nan")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--db", default="", help=argparse.SUPPRESS)
    parser.add_argument("--tables", type=int, default=None, help="only this many tables (default: 1, then 50)")
    parser.add_argument("--game", default="two-freakin-swords")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--seats", type=int, default=None)
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--rate", type=float, default=10.0,
                        help="moves per second over all tables (each table moves every tables/rate seconds)")
    parser.add_argument("--pace", type=float, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=15.0, help="how long to measure each case")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--client", choices=("light", "socketio"), default="light",
                        help="light: raw WebSocket clients on one thread per process, arrival noted when recv "
                             "returns; socketio: python-socketio clients (two threads each, competing with the "
                             "server for the same cores)")
    args = parser.parse_args()
    if args.serve:
        serve(args)
        return
    if args.game == "two-freakin-swords" and args.seats is None:
        args.seats, args.variant = 8, args.variant or "free-for-all"
    cases = [args.tables] if args.tables else [1, 50]
    print(f"game {args.game} ({args.variant or 'standard'}), {args.seats or 'min'} seats, "
          f"{args.phones} phones + {args.pages} table pages per table, {args.rate:g} moves/s over all tables, "
          f"{args.seconds:g} s per case, {args.client} clients in {args.client_processes} processes")
    print(f"{'tables':>6} {'clients':>7} {'s/move':>7} {'moves':>6} {'views':>6} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'max ms':>8} {'server p50/p99 ms':>18} {'CPU server/clients':>18}")
    for n in cases:
        r = run_case(args, n)
        print(f"{r['tables']:>6} {r['clients']:>7} {r['pace']:>7.2f} {r['moves']:>6} {r['complete']:>6} "
              f"{r['p50']:>8.1f} {r['p99']:>8.1f} {r['max']:>8.1f} {r['server_p50']:>8.1f}/{r['server_p99']:<8.1f}"
              f" {r['server_cpu']:>8.0%}/{r['client_cpu']:<8.0%}"
              + (f"  ({r['overloaded']} moves waited over 60 s: overloaded)" if r["overloaded"] else ""), flush=True)


if __name__ == "__main__":
    main()
