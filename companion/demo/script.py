"""What a game's script provides to the demo driver (one module per game)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.demo.render import Placed
from engines.core import Move, State


@dataclass(frozen=True)
class Illegal:
    """A scripted illegal physical move: the table as the players wrongly make it, and the rule it breaks."""

    table: tuple[Placed, ...]
    rules: tuple[str, ...]
    what: str


@dataclass
class Script:
    """One game as the demo plays it on the mat.

    ``table_of(state)``: the mat tidied to the engine's position.  ``camera(state, move,
    table)``: the mat after a player makes ``move`` by hand, for moves the camera sees
    (None: the move is made on a phone).  ``choose(state, rng)``: the move the script
    makes now.  ``illegal(state, table, rng)``: an illegal physical move to try first, or None.
    """

    game: str
    variant: str
    seats: int
    options: dict[str, Any]
    art: Callable[[str], dict]
    table_of: Callable[[State], list[Placed]]
    camera: Callable[[State, Move, list[Placed]], list[Placed] | None]
    choose: Callable[[State, random.Random], Move]
    illegal: Callable[[State, list[Placed], random.Random], Illegal | None]
    width: int = 640
    height: int = 360
    pile_shown: int = 1
    effects: bool = True
    max_tilt: float = 10.0
    settle: dict[str, Any] = field(default_factory=dict)
    deal: Any = None
    """The table's deal: None for a seeded deal, "physical" when the players shuffle and deal by hand
    (the server never knows a hidden card, as at a real table)."""
