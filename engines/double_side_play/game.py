"""The Double Side Play game: metadata, options and the factory of states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import Deal, Game
from engines.double_side_play.cards import Deck
from engines.double_side_play.moves import MOVE_TYPES
from engines.double_side_play.state import REVOKE_RULINGS, DoubleSidePlayState

OPTIONS = ("colours", "revoke")
"""``colours``: four colour names (DSP-1.3).  ``revoke``: the ruling on a
revoke found in a physical deal, one of :data:`REVOKE_RULINGS` (DSP-9.4)."""


class DoubleSidePlay(Game):
    id = "double-side-play"
    title = "Double Side Play"
    players = (3, 4)
    variants = ("standard", "trump")
    move_types = MOVE_TYPES
    rules_doc = "docs/rules/double-side-play.md"

    def new(self, seats: int, variant: str | None = None, deal: Deal = 0,
            options: Mapping[str, Any] | None = None) -> DoubleSidePlayState:
        variant = variant or self.variants[0]
        self.validate_setup(seats, variant, deal)
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"{self.title} has no option {', '.join(map(repr, unknown))}; known: {', '.join(OPTIONS)}")
        deck = Deck.from_option(options.get("colours"))
        ruling = options.get("revoke", REVOKE_RULINGS[0])
        if ruling not in REVOKE_RULINGS:
            raise ValueError(f"option 'revoke' must be one of {', '.join(REVOKE_RULINGS)}, not {ruling!r}")
        state = DoubleSidePlayState(self, seats, variant, deal, None, options)  # type: ignore[arg-type]
        state.deck = deck
        state.revoke_ruling = ruling
        state._s = state.fresh_round(1, (0,) * seats, ())
        return state

    def setups(self) -> list[tuple[int, str, dict[str, Any]]]:
        """3 and 4 seats, with and without trumps (the conformance test plays each).

        Colour names and the revoke ruling do not change a seeded random game's
        shape; tests/test_double_side_play_*.py cover them, which keeps the
        conformance run within its time budget."""
        return [(n, v, {}) for n in self.players for v in self.variants]


GAME = DoubleSidePlay()

