"""``companion verify``: recompute every die, coin and shuffle of a record from its revealed seed."""

from __future__ import annotations

import importlib

from companion.fairness import check_record
from companion.record import RecordError, read_record


def register(sub) -> None:
    p = sub.add_parser("verify", help="check that every die and coin of a game record follows from its revealed seed")
    p.add_argument("record", metavar="RECORD.jsonl")
    p.add_argument("--quiet", action="store_true", help="print only mismatches and the summary")
    p.add_argument("--game-module", metavar="MODULE", default=None,
                   help="take the game from this Python module's GAME (a game not in the registry)")
    p.set_defaults(func=run)


def run(args, game=None) -> int:
    """Exit 0 when every chance value matches; 1 on any mismatch, a missing reveal or a broken
    hash chain; 2 when the file cannot be read."""
    try:
        record = read_record(args.record)
    except OSError as exc:
        print(f"companion verify: {exc}")
        return 2
    except RecordError as exc:
        print(f"companion verify: {exc}")
        print("NOT verified: the record itself cannot be trusted")
        return 1
    if game is None and args.game_module:
        try:
            game = importlib.import_module(args.game_module).GAME
        except (ImportError, AttributeError) as exc:
            print(f"companion verify: no game in {args.game_module!r} ({exc})")
            return 2
    report = check_record(record, game)
    h = record.header
    print(f"{h.get('game')} ({h.get('variant')}), table {h.get('table_id', '')!r}, "
          f"commitment {report.commitment or 'none'}")
    if report.revealed:
        print(f"revealed seed {report.revealed}")
    for check in report.checks:
        if args.quiet and check.ok:
            continue
        mark = "ok" if check.ok else f"MISMATCH: {check.problem}"
        print(f"{check.seq:5d}  {check.describe()}  -> {mark}")
    for note in report.notes:
        print(f"note: {note}")
    for mismatch in report.mismatches:
        if mismatch.seq is None:
            print(f"MISMATCH: {mismatch.message}")
    bad = sum(1 for c in report.checks if not c.ok)
    print(f"{len(report.checks)} chance value(s) checked, {bad} do not match"
          + ("" if report.ok else f"; {len(report.mismatches)} problem(s) in all"))
    print("verified: every die and coin follows from the committed seed" if report.ok else "NOT verified")
    return 0 if report.ok else 1
