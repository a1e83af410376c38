"""Which game prints what: its mat layout, its printed cards, its name."""

from __future__ import annotations

import importlib

from engines import registry
from engines.core import MatLayout

NO_PRINTED_CARDS: dict[str, str] = {
    "double-edge": "Double-Edge is played with any standard 52-card deck: nothing to print.",
    "gun-and-gun": "ガンナガン is played with the players' own cards (no proxies are printed); "
                   "register them with 'companion vision teach'.",
}
"""Games whose cards are not printed, and what to tell a player who asks."""


def title(game_id: str) -> str:
    return registry.get(game_id).title


def mat_layout(game_id: str, seats: int, variant: str | None) -> MatLayout:
    """The game's mat (``engines/<game>/mat.py``); ValueError for an unknown game, seat count or variant."""
    game = registry.get(game_id)
    module = importlib.import_module(registry.GAMES[game_id] + ".mat")
    return module.layout(seats, variant or game.variants[0])


def seat_facing(game_id: str, seats: int) -> dict[int | None, float]:
    """Degrees (anticlockwise on the page) that turn each seat's labels towards that seat;
    shared zones (seat None) read from the bottom edge."""
    module = importlib.import_module(registry.GAMES[game_id] + ".mat")
    return {None: 0.0, **{seat: float(module.facing(seats, seat)) for seat in range(seats)}}
