"""``companion simulate``: random legal playouts, for finding engine bugs and measuring speed."""

from __future__ import annotations

import json
import random
import time
from collections import Counter

from companion.record import RecordWriter, make_header
from engines import registry
from engines.core import Verdict
from engines.playout import random_steps


def register(sub) -> None:
    p = sub.add_parser("simulate", help="play random legal games and report results and speed")
    p.add_argument("game", help=f"game id ({', '.join(registry.GAMES)})")
    p.add_argument("--variant", default=None, help="rule set (default: the game's first)")
    p.add_argument("--seats", type=int, default=None, help="number of seats (default: the game's smallest)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option, value as JSON when it parses (repeatable)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    p.add_argument("--max-moves", type=int, default=5000, help="length cap per game")
    p.add_argument("--record", metavar="FILE", help="write the first game's record here")
    p.set_defaults(func=run)


def parse_options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option needs KEY=VALUE, got {pair!r}")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def run(args) -> int:
    try:
        game = registry.get(args.game)
    except ValueError as exc:
        print(f"companion simulate: {exc}")
        return 2
    variant = args.variant or game.variants[0]
    seats = args.seats or min(game.players)
    options = parse_options(args.option)
    try:
        game.validate_setup(seats, variant, args.seed)
    except ValueError as exc:
        print(f"companion simulate: {exc}")
        return 2
    wins: Counter[int] = Counter()
    ties = capped = moves = 0
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        state = game.new(seats, variant, deal=seed, options=options)
        rng = random.Random(seed)
        writer = None
        if args.record and i == 0:
            writer = RecordWriter(args.record, make_header(game.id, variant, seats, seed, options=options))
        try:
            for step in random_steps(state, rng, args.max_moves):
                moves += 1
                if writer:
                    writer.append(seat=step.move.actor, source="simulator", move=step.move.to_json(),
                                  verdict=Verdict.accept())
        finally:
            if writer:
                writer.close()
        outcome = state.outcome
        if outcome is None:
            capped += 1
        elif outcome.tie:
            ties += 1
        else:
            wins.update(outcome.winners)
    elapsed = time.perf_counter() - started
    print(f"{game.title} ({game.id}), variant {variant}, {seats} seats, {args.games} games from seed {args.seed}")
    for seat in range(seats):
        print(f"  seat {seat + 1} won {wins[seat]}")
    print(f"  ties {ties}")
    print(f"  hit the cap of {args.max_moves} moves: {capped}")
    print(f"  {moves} moves in {elapsed:.2f} s: {moves / elapsed:,.0f} moves/s, {args.games / elapsed:,.1f} games/s")
    if args.record:
        print(f"  record of the first game: {args.record}")
    return 0
