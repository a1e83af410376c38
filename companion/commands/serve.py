"""``companion serve``: run a table server (headless under systemd is fine; see docs/server.md)."""

from __future__ import annotations

import importlib
import logging
import os
import sys
from pathlib import Path

from companion.config import DEFAULT_PORT, Config, TableSpec


def add_server_options(p) -> None:
    p.add_argument("--game", help="open a table for this game at start")
    p.add_argument("--variant", default=None, help="rule set (default: the game's first)")
    p.add_argument("--seats", type=int, default=None, help="number of seats (default: the game's smallest)")
    p.add_argument("--deal", default=None,
                   help="'physical' for a hand-shuffled deck, or an integer seed (default: a random seed)")
    p.add_argument("--camera", default="auto", metavar="auto|SRC|none|sim",
                   help="camera: 'auto' (default) uses the first video device found, else manual entry; a device "
                        "(/dev/video0 or 0), a video file, 'sim' (simulated), 'none' (manual entry)")
    p.add_argument("--serial", default="auto", metavar="auto|sim|none|PATH",
                   help="LED boards: 'auto' (default) finds them, else dice and coins are shown on screen; "
                        "'sim' simulates them, 'none' never looks")
    p.add_argument("--db", type=Path, default=None, help="SQLite file (default: in the user data directory)")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--public-url", default=None,
                   help="the address phones use, e.g. http://table.local:8080 (default: this host's LAN address)")
    p.add_argument("--message-queue", default=None, metavar="redis://HOST:PORT/0",
                   help="share emits with other server processes through Redis")
    p.add_argument("--pin", default=os.environ.get("COMPANION_PIN") or None,
                   help="host PIN (default: $COMPANION_PIN, else a random one, printed once)")
    p.add_argument("--no-restore", action="store_true", help="do not reopen unfinished tables from the database")
    p.add_argument("--extra-game", action="append", default=[], metavar="MODULE",
                   help="also host the game a module exposes as GAME (development and tests)")
    p.add_argument("--quiet", action="store_true", help="no QR codes in the terminal")


def register(sub) -> None:
    p = sub.add_parser("serve", help="run a table server: phones join by QR, the referee keeps the record")
    add_server_options(p)
    p.add_argument("--demo", action="store_true", help="open a DEMO table played by the computer (see 'companion demo')")
    p.set_defaults(func=run)


def config_from(args) -> Config:
    extra = {}
    for name in args.extra_game:
        game = importlib.import_module(name).GAME
        extra[game.id] = game
    deal: int | str | None = None
    if args.deal is not None:
        deal = "physical" if args.deal == "physical" else int(args.deal)
    tables = [TableSpec(args.game, args.variant, args.seats, deal)] if args.game else []
    return Config(host=args.host, port=args.port, db=args.db, public_url=args.public_url,
                  message_queue=args.message_queue, pin=args.pin, camera=args.camera, serial=args.serial,
                  tables=tables, extra_games=extra, restore=not args.no_restore, quiet=args.quiet,
                  demo=getattr(args, "demo", False))


def print_tables(server, out=sys.stdout, show_qr: bool = True, show_pin: bool = True) -> None:
    """Table URL, spectator link, each seat's join URL, typed code and text QR; the host PIN once."""
    from companion import qr
    from companion.seats import format_code

    base = server.base_url or qr.base_url(None, server.config.port, server.config.host)
    for table in server.hub.tables.values():
        label = " — DEMO" if table.demo else ""
        print(f"\n{table.game.title} ({table.state.variant}), {len(table.seats)} seats{label}", file=out)
        print(f"  table page:  {qr.table_url(base, table.id, table.display_key)}", file=out)
        print(f"  spectators:  {qr.watch_url(base, table.id)}", file=out)
        for seat in table.seats:
            url = qr.join_url(base, seat.token)
            print(f"  seat {seat.index + 1}: {url}   code {format_code(seat.code)} at {base}/join", file=out)
            if show_qr:
                print(qr.text(url), file=out)
    if show_pin:
        print(f"\nhost PIN: {server.pin}  (shown once; needed to kick a phone, reissue a seat, pause and rule on "
              "disputes)", file=out)
    out.flush()


def run(args) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if args.demo:
        from companion.commands import demo

        return demo.run(args)
    from companion.app import create_app, server_of
    from companion.app import run as run_app

    try:
        config = config_from(args)
        app = create_app(config)
    except ValueError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    server = server_of(app)
    mode = []
    mode.append("camera: " + ("manual entry" if server.camera is None else config.camera))
    mode.append("boards: " + ("dice and coins on screen" if server.devices is None else config.serial))
    print(f"Table Companion on port {config.port} ({'; '.join(mode)})", flush=True)
    print_tables(server, show_qr=not args.quiet)
    run_app(app)
    return 0
