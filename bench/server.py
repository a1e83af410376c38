"""Latency of the companion server: from a move applied to every client of its table having it.

    python bench/server.py                      # 1 table and 50 tables, 8 phones + 2 table pages each
    python bench/server.py --tables 50 --phones 2 --pages 1 --seconds 20 --rate 10

A server process (the real app: Flask-SocketIO, threading mode, SQLite WAL) hosts
the tables and plays random legal moves (``--rate`` moves per second over all
tables, so each table moves every tables/rate seconds) through the same
referee as phones.  Client processes hold real python-socketio clients: per
table ``--phones`` joined to seats (round-robin when there are more phones than
seats) and ``--pages`` table pages with the display key.  Each client notes when
each view arrived; the server stamps each view with the time its move was
appended to the record.  For every move the latency is the slowest of its
table's clients; the script prints p50, p99 and max over all moves, and the
server's own share (append to the last emit call returning) as p50/p99.

Figures depend on the machine and its load; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
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

    from companion.app import create_app, server_of
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

    def timed_emit(event, data, to):
        inner(event, data, to)
        if event == "view":
            emitted[(data["table"], data["seq"])] = time.time() - data["t"]

    server.hub._emit = timed_emit
    http = make_server("127.0.0.1", args.port, app, threaded=True)
    threading.Thread(target=http.serve_forever, daemon=True).start()
    print(json.dumps([{"table": t.id, "key": t.display_key, "tokens": [s.token for s in t.seats]} for t in tables]),
          flush=True)
    sys.stdin.readline()  # "go"
    stop = threading.Event()
    moves = [0]
    overloaded = [0]

    def player(i: int, table) -> None:
        rng = random.Random(i)
        referee = server.hub.referee(table.id)
        time.sleep(rng.random() * args.pace)  # tables out of step, as real ones are
        while not stop.is_set():
            if table.over:
                return  # an 8-seat game lasts some 350 moves: longer than a run at the default rate
            seats = sorted(table.state.to_act())
            if not seats:
                time.sleep(0.001)
                continue
            seat = rng.choice(seats)
            move = rng.choice(table.state.legal_moves(seat) or [None])
            if move is not None:
                try:
                    referee.run(referee.play, seat, "simulator", move.to_json(), timeout=60)
                except TimeoutError:
                    overloaded[0] += 1
                    continue
                moves[0] += 1
            stop.wait(args.pace)

    threads = [threading.Thread(target=player, args=(i, t), daemon=True) for i, t in enumerate(tables)]
    for t in threads:
        t.start()
    sys.stdin.readline()  # "stop"
    stop.set()
    for t in threads:
        t.join(5)
    print(json.dumps({"moves": moves[0], "overloaded": overloaded[0], "server_ms": sorted(
        v * 1000 for v in emitted.values())}), flush=True)
    http.shutdown()


# --------------------------------------------------------------------------- client side
def clients(url: str, tables: list[dict], phones: int, pages: int, ready, go, done, out) -> None:
    """Runs in a client process: connect, note arrival times, hand them back."""
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
    done.wait()
    time.sleep(1.0)  # let the last views land
    with lock:
        out.put(list(got))
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
        p = ctx.Process(target=clients, args=(url, share, args.phones, args.pages, ready, go, done, out), daemon=True)
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
    for _ in procs:
        got.extend(out.get(timeout=120))
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
    args = parser.parse_args()
    if args.serve:
        serve(args)
        return
    if args.game == "two-freakin-swords" and args.seats is None:
        args.seats, args.variant = 8, args.variant or "free-for-all"
    cases = [args.tables] if args.tables else [1, 50]
    print(f"game {args.game} ({args.variant or 'standard'}), {args.seats or 'min'} seats, "
          f"{args.phones} phones + {args.pages} table pages per table, {args.rate:g} moves/s over all tables, "
          f"{args.seconds:g} s per case")
    print(f"{'tables':>6} {'clients':>7} {'s/move':>7} {'moves':>6} {'views':>6} {'p50 ms':>8} {'p99 ms':>8} "
          f"{'max ms':>8} {'server p50/p99 ms':>18}")
    for n in cases:
        r = run_case(args, n)
        print(f"{r['tables']:>6} {r['clients']:>7} {r['pace']:>7.2f} {r['moves']:>6} {r['complete']:>6} "
              f"{r['p50']:>8.1f} {r['p99']:>8.1f} {r['max']:>8.1f} {r['server_p50']:>8.1f}/{r['server_p99']:<8.1f}"
              + (f"  ({r['overloaded']} moves waited over 60 s: overloaded)" if r["overloaded"] else ""), flush=True)


if __name__ == "__main__":
    main()
