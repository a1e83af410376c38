"""``companion demo``: a DEMO table the computer plays at a watchable pace.

It starts the real server (simulated LED boards, never a real port), opens a
seeded game, prints the table page and the seat links, and plays a scripted
game: for Double-Edge (the default) and every game with a script in
``companion/demo/<game>.py`` (``--game double-side-play`` ...) every card is
laid on a rendered mat that vision's real pipeline reads frame by frame into
the referee (``companion.demo``), while
simulated phones make the phone moves over Socket.IO; now and then a scripted
illegal move is flagged and put right.  A game without a script is
played by random legal moves through the referee.
``--once`` plays one game to its end and exits (``--fast`` without pauses, for
tests); otherwise a new game starts after each one until Ctrl-C.  Everything
is labelled DEMO.
"""

from __future__ import annotations

import importlib
import inspect
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
    p.set_defaults(serial="sim", camera="sim", port=8080)
    p.add_argument("--pace", type=float, default=1.5, help="seconds between moves (default 1.5)")
    p.add_argument("--seed", type=int, default=None, help="seed of the deal and of the demo players")
    p.add_argument("--once", action="store_true", help="play one game to the end, then exit")
    p.add_argument("--max-moves", type=int, default=2000)
    p.add_argument("--fast", action="store_true", help="no pauses and few camera frames per step (tests)")
    p.set_defaults(func=run)


def _choose_game(args, server) -> str | None:
    if args.game:
        return args.game
    games = server.hub.games()
    if "double-edge" in games:
        return "double-edge"
    return games[0] if games else None


def _script(game_id: str, args):
    """The rendered-camera script of ``game_id``, or None (no adapter, or the camera turned off)."""
    if getattr(args, "camera", "none") not in ("none", "sim") or getattr(args, "camera_off", False):
        return None
    try:
        from engines import registry

        registry.adapter(game_id)
        # Each game with a rendered-camera script has companion/demo/<game_module>.py exposing script(...).
        module = importlib.import_module(f"companion.demo.{game_id.replace('-', '_')}")
        accepted = inspect.signature(module.script).parameters
        options = {"seats": args.seats, "variant": args.variant}
        return module.script(**{k: v for k, v in options.items() if v and k in accepted})
    except (ImportError, ValueError) as exc:
        logging.getLogger(__name__).warning("no rendered camera for %s (%s): random legal moves", game_id, exc)
    return None


def play_scripted(server, table, script, url: str, seed: int, args, stop: threading.Event) -> bool:
    """The scripted game through the rendered camera and simulated phones; True when it ended."""
    from companion.demo.driver import Demo

    frames = 2 if args.fast else 3
    pace = 0.0 if args.fast else args.pace
    demo = Demo(server, table, script, url, seed=seed, frames=frames, hand_every=0 if args.fast else 7,
                pace=pace, say=lambda text: print(f"  DEMO  {text}", flush=True), stop=stop)
    # A game played with the players' own commercial cards (ガンナガン) needs them taught to the camera;
    # the demo brings stand-in cards, taught in memory, unless real ones were taught (companion vision teach).
    stand_ins = getattr(importlib.import_module(f"companion.demo.{script.game.replace('-', '_')}"), "stand_ins", None)
    if stand_ins is not None and demo.reader.taught is None:
        demo.reader.taught = stand_ins()
    try:
        finished = demo.play(args.max_moves)
    finally:
        demo.close()
    t = demo.tally
    print(f"=== DEMO === camera: {t.camera_moves} moves read, {t.entered_by_hand} entered on a phone after the "
          f"camera asked, {getattr(t, 'sealed', 0)} sealed on a phone; phones: {t.phone_moves} moves; illegal: {len(t.flagged)} of {len(t.illegal_tried)} "
          f"flagged and put right; {t.frames} frames, {t.hands} with a hand over the mat", flush=True)
    return finished


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
    for name, default in (("pace", 1.5), ("seed", None), ("once", False), ("max_moves", 2000), ("fast", False)):
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

    script = _script(game_id, args)

    def new_table():
        if script is not None:
            # A script may ask for a physical deal (hands shuffled at the table, unknown to the server).
            deal = getattr(script, "deal", None)
            deal = deal if deal is not None else rng.randrange(1 << 30)
            return server.create_table(TableSpec(game_id, script.variant, script.seats, deal=deal,
                                                 options=script.options, demo=True))
        return server.create_table(TableSpec(game_id, args.variant, args.seats, deal=rng.randrange(1 << 30),
                                             demo=True))

    table = new_table()
    http = http_server(app)
    thread = threading.Thread(target=http.serve_forever, name="http", daemon=True)
    thread.start()
    boards = "simulated boards" if server.devices is not None else "dice and coins on screen"
    camera = "a rendered camera read by vision" if script is not None else "no camera: random legal moves"
    print(f"=== DEMO === {table.game.title}: the computer plays every seat ({camera}; {boards}; seed {seed})",
          flush=True)
    print_tables(server, show_qr=not args.quiet)
    try:
        while True:
            if script is not None:
                url = f"http://127.0.0.1:{server.config.port}"
                finished = play_scripted(server, table, script, url, rng.randrange(1 << 30), args, stop)
            else:
                finished = play_one(server, table, rng, 0.0 if args.fast else args.pace, args.max_moves, stop)
            outcome = table.state.outcome
            if outcome is not None:
                won = ", ".join(f"seat {w + 1}" for w in outcome.winners) or "nobody"
                print(f"=== DEMO === game over after {table.seq} entries: {won} "
                      f"{'tie' if outcome.tie else 'won'} ({outcome.reason})", flush=True)
            if args.once:
                return 0 if finished else 1
            stop.wait(max(args.pace * 3, 1.0))
            server.hub.referee(table.id).run(table.close)
            table = new_table()
            print(f"=== DEMO === new game: {table.game.title}", flush=True)
            print_tables(server, show_qr=False, show_pin=False)  # the PIN was shown once, at start
    except KeyboardInterrupt:
        return 130
    finally:
        stop.set()
        http.shutdown()
        server.close()
