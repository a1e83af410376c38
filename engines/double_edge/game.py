"""The Double-Edge game object: metadata and the factory of states."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.core import PHYSICAL, Deal, Game
from engines.double_edge.moves import MOVE_TYPES
from engines.double_edge.snapshot import Snap
from engines.double_edge.state import BASE_SIZE, OPENING_HAND, DoubleEdgeState
from engines.double_edge.variants import AzbarState, ExtraTurnState

STATES: dict[str, type[DoubleEdgeState]] = {
    "standard": DoubleEdgeState,
    "azbar": AzbarState,
    "extra-turn": ExtraTurnState,
}


class DoubleEdgeGame(Game):
    id = "double-edge"
    title = "Double-Edge"
    players = (2,)
    variants = ("standard", "azbar", "extra-turn")
    move_types = MOVE_TYPES
    rules_doc = "docs/rules/double-edge.md"

    def new(self, seats: int, variant: str | None = None, deal: Deal = 0,
            options: Mapping[str, Any] | None = None) -> DoubleEdgeState:
        """A new game.  Options: ``max_rounds`` (int >= 1, default 100; ruling DE-R8)."""
        variant = variant or self.variants[0]
        self.validate_setup(seats, variant, deal)
        options = dict(options or {})
        unknown = set(options) - {"max_rounds"}
        if unknown:
            raise ValueError(f"Double-Edge has no option {', '.join(sorted(unknown))}; known: max_rounds")
        rounds = options.get("max_rounds", 1)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise ValueError("max_rounds must be a whole number of rounds, 1 or more")
        if deal == PHYSICAL:
            # A real deck was shuffled and dealt by hand: seven unseen cards each, the rest in the deck.
            snap = Snap("build", hand_unknown=(OPENING_HAND, OPENING_HAND),
                        deck_unknown=48 - 2 * OPENING_HAND)
        else:
            snap = Snap("shuffle")
        assert BASE_SIZE == 3
        return STATES[variant](self, seats, variant, deal, snap, options)
