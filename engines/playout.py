"""Random legal playouts: the simulator, the conformance test and the benchmarks.

Chance is resolved with the ``random.Random`` handed in, so a seed reproduces a
game; the record of moves (chance included) reproduces it without the seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from engines.core import ChanceMove, ChanceRequest, Event, Game, Move, State


def sample_chance(request: ChanceRequest, rng: random.Random) -> ChanceMove:
    return ChanceMove(tuple(rng.randrange(r) for r in request.ranges))


@dataclass(frozen=True)
class Step:
    move: Move
    events: tuple[Event, ...]


@dataclass
class Playout:
    state: State
    steps: list[Step]
    capped: bool


def random_steps(state: State, rng: random.Random, max_moves: int,
                 choose: Callable[[State, int, list[Move], random.Random], Move] | None = None) -> Iterator[Step]:
    """Yield random legal steps until the game ends or ``max_moves`` were made.

    In simultaneous phases a random seat of those to act moves first, so every
    order of submission gets exercised.
    """
    for _ in range(max_moves):
        if state.outcome is not None:
            return
        request = state.pending_chance()
        if request is not None:
            move: Move = sample_chance(request, rng)
        else:
            seats = sorted(state.to_act())
            if not seats:
                raise RuntimeError(f"{state.game.id}: nobody to act, no chance pending, no outcome")
            seat = rng.choice(seats)
            moves = state.legal_moves(seat)
            if not moves:
                raise RuntimeError(f"{state.game.id}: seat {seat} must act but has no legal move")
            move = choose(state, seat, moves, rng) if choose else rng.choice(moves)
        events = state.apply(move)
        yield Step(move, tuple(events))


def playout(game: Game, seats: int, variant: str, seed: int, max_moves: int = 5000) -> Playout:
    """One random game from seed ``seed`` (the seed also drives the deal)."""
    rng = random.Random(seed)
    state = game.new(seats, variant, deal=seed)
    steps = list(random_steps(state, rng, max_moves))
    return Playout(state, steps, capped=state.outcome is None)
