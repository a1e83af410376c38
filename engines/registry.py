"""Where each game lives.  Imported lazily so one broken game never hides the others."""

from __future__ import annotations

import importlib

from engines.core import Game, TableAdapter

GAMES: dict[str, str] = {
    "double-edge": "engines.double_edge",
    "double-side-play": "engines.double_side_play",
    "two-freakin-swords": "engines.two_freakin_swords",
    "keener": "engines.keener",
    "gun-and-gun": "engines.gun_and_gun",
}
"""Game id -> package.  Each package exposes ``GAME`` (a :class:`Game`) and,
once it can be played on a mat, ``table.ADAPTER`` (a :class:`TableAdapter`)."""


def get(game_id: str) -> Game:
    """The game with this id; ValueError naming the known ids otherwise."""
    module = GAMES.get(game_id)
    if module is None:
        raise ValueError(f"unknown game {game_id!r}; known: {', '.join(GAMES)}")
    try:
        return importlib.import_module(module).GAME
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            raise ValueError(f"game {game_id!r} is not built yet") from None
        raise


def adapter(game_id: str) -> TableAdapter:
    """The game's table adapter (engines/<game>/table.py)."""
    get(game_id)
    try:
        return importlib.import_module(GAMES[game_id] + ".table").ADAPTER
    except ModuleNotFoundError as exc:
        raise ValueError(f"{game_id!r} cannot be played on a mat yet") from exc


def available() -> list[str]:
    """Ids of the games that are built."""
    out = []
    for game_id in GAMES:
        try:
            get(game_id)
        except ValueError:
            continue
        out.append(game_id)
    return out
