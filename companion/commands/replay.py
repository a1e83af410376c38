"""``companion replay``: rebuild a game from its record and print every verdict."""

from __future__ import annotations

import json

from companion.record import RecordError, read_record, replay


def register(sub) -> None:
    p = sub.add_parser("replay", help="replay a game record, checking every verdict and the hash chain")
    p.add_argument("record", metavar="RECORD.jsonl")
    p.add_argument("--at", type=int, default=None, metavar="SEQ", help="stop after this entry")
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.add_argument("--json", action="store_true", help="print the final public view as JSON")
    p.set_defaults(func=run)


def describe(entry: dict) -> str:
    move = entry.get("move") or {}
    fields = ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in move.items() if k not in ("type", "seat"))
    who = "chance" if entry.get("seat") is None else f"seat {entry['seat'] + 1}"
    if entry["kind"] != "move":
        return f"{entry['kind']} {json.dumps(entry.get('data'), ensure_ascii=False)}"
    return f"{who} [{entry['source']}] {move.get('type')} {fields}".rstrip()


def run(args) -> int:
    try:
        record = read_record(args.record)
    except (OSError, RecordError) as exc:
        print(f"companion replay: {exc}")
        return 2
    try:
        state, steps = replay(record, at=args.at)
    except ValueError as exc:
        print(f"companion replay: {exc}")
        return 2
    h = record.header
    print(f"{h['game']} ({h['variant']}), {h['seats']} seats, deal {h['deal']}, started {h.get('started')}")
    disagreements = 0
    for step in steps:
        v = step.verdict
        mark = "ok" if v.ok else f"REJECTED {v.rule}: {v.message}"
        if not step.agrees:
            disagreements += 1
            mark += "  <-- the record says otherwise"
        if not args.quiet:
            print(f"{step.entry['seq']:5d}  {describe(step.entry)}  -> {mark}")
    outcome = state.outcome
    print(f"{len(steps)} entries replayed, {disagreements} verdict(s) differ from the record")
    if outcome is None:
        print("the game is not over")
    elif outcome.tie:
        print(f"outcome: tie between seats {', '.join(str(w + 1) for w in outcome.winners)} ({outcome.reason})")
    else:
        print(f"outcome: seat(s) {', '.join(str(w + 1) for w in outcome.winners)} won ({outcome.reason})")
    if args.json:
        print(json.dumps(state.view(None), ensure_ascii=False, indent=2))
    return 1 if disagreements else 0
