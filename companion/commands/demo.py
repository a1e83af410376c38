"""``companion demo``: a DEMO table the computer plays at a watchable pace.

It starts the real server (simulated LED boards when the devices package is
there, never a real port), opens a seeded game of a built engine, prints the
table page and the seat links, and plays random legal moves step by step
through the same referee as real phones, so the pages, the record and the
boards all behave as in a real game.  ``--once`` plays one game to its end
and exits (the test uses it); otherwise a new game starts after each one until
Ctrl-C.  Everything is labelled DEMO.
"""

from __future__ import annotations

import logging
import random
import sys
import threading
import time

from companion.commands.serve import add_server_options, config_from, print_tables
from companion.config import TableSpec


def register(sub) -> None:
    p = sub.add_parser("demo", help="start a DEMO table played by the computer (open the printed table page)")
    add_server_options(p)
    p.set_defaults(serial="sim", port=8080)
    p.add_argument("--pace", type=float, default=1.5, help="seconds between moves (default 1.5)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal and of the demo players")
    p.add_argument("--once", action="store_true", help="play one game to the end, then exit")
    p.add_argument("--max-moves", type=int, default=2000)
    p.set_defaults(func=run)


def _choose_game(args, server) -> str | None:
    if args.game:
        return args.game
    games = server.hub.games()
    return games[0] if games else None


def play_one(server, table, rng: random.Random, pace: float, max_moves: int, stop: threading.Event) -> bool:
    """Random legal moves for whichever seat must act, until the game ends; True when it did."""
    referee = server.hub.referee(table.id)
    for _ in range(max_moves):
        if stop.is_set():
            return False
        if table.over:
            return True
        seats = sorted(table.state.to_act())
        if not seats:
            time.sleep(0.05)  # chance is being served, or the table is paused for a dispute
            if table.state.pending_chance() is not None or table.paused:
                continue
            return table.over
        seat = rng.choice(seats)
        moves = table.state.legal_moves(seat) or []
        if not moves:
            return False
        move = rng.choice(moves)
        referee.run(referee.play, seat, "simulator", move.to_json())
        if pace:
            stop.wait(pace)
    return table.over


def run(args) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from companion.app import create_app, http_server, server_of

    args.demo = True
    for name, default in (("pace", 1.5), ("seed", None), ("once", False), ("max_moves", 2000)):
        if not hasattr(args, name):  # ``companion serve --demo`` has none of the demo's own options
            setattr(args, name, default)
    config = config_from(args)
    config.demo = True
    config.tables = []
    config.restore = False
    app = create_app(config)
    server = server_of(app)
    game_id = _choose_game(args, server)
    if game_id is None:
        print("companion demo: no game is built yet (engines.registry.available() is empty)", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    stop = threading.Event()

    def new_table():
        return server.create_table(TableSpec(game_id, args.variant, args.seats, deal=rng.randrange(1 << 30),
                                             demo=True))

    table = new_table()
    http = http_server(app)
    thread = threading.Thread(target=http.serve_forever, name="http", daemon=True)
    thread.start()
    boards = "simulated boards" if server.devices is not None else "dice and coins on screen"
    print(f"=== DEMO === {table.game.title}: the computer plays every seat ({boards}, seed {seed})", flush=True)
    print_tables(server, show_qr=not args.quiet)
    try:
        while True:
            finished = play_one(server, table, rng, args.pace, args.max_moves, stop)
            outcome = table.state.outcome
            if outcome is not None:
                won = ", ".join(f"seat {w + 1}" for w in outcome.winners) or "nobody"
                print(f"=== DEMO === game over after {table.seq} entries: {won} "
                      f"{'tie' if outcome.tie else 'won'} ({outcome.reason})", flush=True)
            if args.once:
                return 0 if finished else 1
            time.sleep(max(args.pace * 3, 1.0))
            server.hub.referee(table.id).run(table.close)
            table = new_table()
            print(f"=== DEMO === new game: {table.game.title}", flush=True)
            print_tables(server, show_qr=False)
    except KeyboardInterrupt:
        return 130
    finally:
        stop.set()
        http.shutdown()
        server.close()
