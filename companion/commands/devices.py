"""``companion devices``: the LED boards.  ``simulate`` runs virtual boards on ptys;
``list`` finds boards and shows what each can do (``--test`` lights them)."""

from __future__ import annotations

import sys
import threading
import time

from devices.manager import DeviceManager
from devices.simulator import HELP, Simulator, interact


def register(sub) -> None:
    p = sub.add_parser("devices", help="USB LED boards: list them, or simulate them on pseudo-terminals")
    dsub = p.add_subparsers(dest="devices_command", metavar="ACTION")
    s = dsub.add_parser("simulate", help="run virtual boards (the real firmware core) and print their pty paths")
    s.add_argument("--only", action="append", default=[], metavar="BOARD",
                   help="run only this board: sim-coins, sim-dice or sim-toss (repeatable)")
    s.add_argument("--for", dest="seconds", type=float, default=None, metavar="SECONDS",
                   help="stop after this long (default: until Ctrl-C, or 'quit' on stdin)")
    s.set_defaults(func=simulate)
    ls = dsub.add_parser("list", help="find boards and show their status")
    ls.add_argument("--serial", default="auto", metavar="SPEC", help="auto (default), sim, none, or port paths joined by commas")
    ls.add_argument("--wait", type=float, default=2.0, metavar="SECONDS", help="how long to look for boards")
    ls.add_argument("--test", action="store_true", help="light every coin, die face and arrow, then clear")
    ls.add_argument("--step", type=float, default=0.2, metavar="SECONDS", help="how long --test shows each step")
    ls.set_defaults(func=list_boards)
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])


def simulate(args) -> int:
    sim = Simulator()
    if args.only:
        known = {b.board_id for b in sim.boards}
        unknown = set(args.only) - known
        if unknown:
            print(f"companion devices simulate: no board {', '.join(sorted(unknown))}; choose from {', '.join(sorted(known))}")
            return 2
        sim.boards = [b for b in sim.boards if b.board_id in args.only]
    paths = sim.start()
    try:
        for board in sim.boards:
            print(f"{board.board_id}  {board.path}  ({board.core.led_count()} LEDs, {len(board.buttons)} button(s))")
        print(f"start the server with: --serial {','.join(paths)}")
        print(HELP, flush=True)
        if args.seconds is not None:
            time.sleep(args.seconds)
        elif not interact(sim, sys.stdin):
            threading.Event().wait()  # stdin closed: keep serving until interrupted
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0


def list_boards(args) -> int:
    with DeviceManager(args.serial) as manager:
        deadline = time.monotonic() + args.wait
        while time.monotonic() < deadline:
            time.sleep(0.1)
        statuses = manager.status()
        if not statuses:
            print("no boards found" + (" (spec 'none')" if args.serial == "none" else
                                       ": plug one in, or try --serial sim"))
            return 1
        for s in statuses:
            state = "online " if s.online else "offline"
            rtt = f"{s.round_trip_ms:.2f} ms" if s.round_trip_ms is not None else "-"
            print(f"{s.board_id:20s} {state} {s.port or '-':16s} firmware {s.firmware:8s} round trip {rtt:>9s}  "
                  f"{'; '.join(s.capabilities)}")
            if s.last_error and not s.online:
                print(f"{'':20s} last error: {s.last_error}")
        if args.test:
            light_everything(manager, args.step)
            print("test done: every coin, die face and arrow was lit")
    return 0


def light_everything(manager: DeviceManager, step: float = 0.2) -> None:
    """Walk every LED group once, so a builder can see each is soldered right."""
    for seat in range(8):
        for arm in ("left", "right"):
            manager.set_aggression_coins({(seat, arm): True})
            manager.wait_idle(2)
            time.sleep(step)
    for face in range(1, 7):
        for seat in range(8):
            manager.show_dice(seat, (face, 7 - face), roll_animation=False)
        manager.wait_idle(2)
        time.sleep(step)
    for seat in range(2):
        for faces in ("player", "opponent"):
            manager.show_coin_toss(seat, faces, animate=False)
            manager.wait_idle(2)
            time.sleep(step)
    manager.clear()
    manager.wait_idle(2)
