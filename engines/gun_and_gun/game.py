"""The ガンナガン (GUN AND GUN) game object: metadata, variants and the factory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import PHYSICAL, Game
from engines.gun_and_gun.cards import CARD_SET
from engines.gun_and_gun.moves import MOVE_TYPES
from engines.gun_and_gun.snapshot import build_table, new_snap
from engines.gun_and_gun.state import DoubleEdgeState, GunAndGunState

DEFAULT_GUNNERS = ("raven", "gina")

STATES: dict[str, type[GunAndGunState]] = {"standard": GunAndGunState, "double-edge": DoubleEdgeState}


class GunAndGunGame(Game):
    id = "gun-and-gun"
    title = "ガンナガン (GUN AND GUN)"
    players = (2,)
    variants = ("standard", "double-edge")
    move_types = MOVE_TYPES
    rules_doc = "docs/rules/gun-and-gun.md"

    def new(self, seats: int, variant: str | None = None, deal: Any = 0,
            options: Mapping[str, Any] | None = None) -> GunAndGunState:
        """Options: ``gunners``, two gunner keys of cards.json (default raven, gina); ``life``, the
        starting life of both gunners (1 to the card set's 30; fewer for a short demonstration, ruling GG-R13)."""
        variant = variant or self.variants[0]
        self.validate_setup(seats, variant, deal)
        options = dict(options or {})
        unknown = set(options) - {"gunners", "life"}
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(sorted(unknown))}; known: gunners, life")
        life = options.get("life", CARD_SET.life)
        if type(life) is not int or not 1 <= life <= CARD_SET.life:
            raise ValueError(f"life must be a whole number from 1 to {CARD_SET.life}, not {life!r}")
        gunners = options.get("gunners", list(DEFAULT_GUNNERS))
        if not (isinstance(gunners, list | tuple) and len(gunners) == seats
                and all(isinstance(g, str) and g in CARD_SET.gunners for g in gunners)):
            raise ValueError(f"gunners must name {seats} of {', '.join(CARD_SET.gunners)}")
        table = build_table(CARD_SET, tuple(gunners))
        physical = deal == PHYSICAL
        state = STATES[variant](self, seats, variant, deal, new_snap(table, life, physical), options)
        state.table = table
        if physical:  # the players shuffled by hand: no shuffle to draw, the opening hands are dealt (GG-P1)
            state._s, _ = state._opening(state._s)
        return state


GAME = GunAndGunGame()
