"""Full random games per second for every registered game and table format.

    python -m bench.engines [--games N]     (as a module: a script named engines.py would shadow the package)

Prints one line per (game, seats, variant, options): games/s, moves/s, mean
moves per game, games that hit the length cap.
"""

from __future__ import annotations

import argparse
import random
import time

from engines import registry
from engines.playout import random_steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--max-moves", type=int, default=5000)
    args = parser.parse_args()
    print(f"{'game':20} {'seats':>5} {'variant/options':32} {'games/s':>9} {'moves/s':>10} {'moves/game':>10} {'capped':>6}")
    for game_id in registry.available():
        game = registry.get(game_id)
        for seats, variant, options in game.setups():
            moves = capped = 0
            start = time.perf_counter()
            for seed in range(args.games):
                state = game.new(seats, variant, deal=seed, options=options)
                for _ in random_steps(state, random.Random(seed), args.max_moves):
                    moves += 1
                capped += state.outcome is None
            elapsed = time.perf_counter() - start
            label = variant + ("" if not options else " " + ",".join(f"{k}={v}" for k, v in options.items()))
            print(f"{game_id:20} {seats:5d} {label:32} {args.games / elapsed:9.1f} {moves / elapsed:10.0f} "
                  f"{moves / args.games:10.1f} {capped:6d}")


if __name__ == "__main__":
    main()
