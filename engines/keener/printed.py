"""Printed Keener cards: which card, and which copy, a printed card's marker names.

Every printed copy has its own marker (vision tells two Bear Traps apart), and
the numbering must not move when a set gains cards, or printed decks would
change meaning.  So :data:`PRINT_ORDER` lists card ids in a fixed order (a new
card is appended, never inserted), and each card owns :data:`COPIES` indices:
printed card ``index`` is copy ``index % 4 + 1`` of ``PRINT_ORDER[index // 4]``.
Copies 1-2 are *set A* (one player's box), 3-4 *set B* (the other player's),
since a deck holds at most two copies of a card (KN-2.3).

``companion print cards keener`` gives printed card ``index`` the marker
``first + index`` of the game's marker range and companion turns a seen marker
into ``Sighting.card = "printed:<index>"`` (docs/printing.md).
"""

from __future__ import annotations

from engines.keener.catalog import CARDS

PREFIX = "printed:"
COPIES = 4
"""Indices per card: copies 1-2 are set A, 3-4 set B."""
RANGE_SIZE = 300
"""Marker ids reserved for Keener's printed cards (vision's range 100-399)."""

PRINT_ORDER: tuple[str, ...] = (
    # set core, as the rulebook names them
    "saga", "ferra", "lumberjack", "merchant", "the-abomination", "fighting-monk", "common-mercenary",
    "master-assassin", "bear-trap", "wooden-fence", "dreadsteel-sword", "shore-up", "lullaby",
    "loose-change", "lightning-strike",
    # set house
    "stonecutter", "iron-miner", "forester", "trader", "village-guard", "pikeman", "stone-golem",
    "iron-knight", "hill-giant", "stone-wall", "watchtower", "iron-gate", "ironwood-spear",
    "stone-plating", "rockslide", "ore-cart",
)
"""Card ids in print order.  Append new cards at the end: never reorder or remove."""

_POSITION = {card: i for i, card in enumerate(PRINT_ORDER)}


def card_of(index: int) -> tuple[str, int]:
    """(card id, copy 1-4) of printed card ``index``; ValueError for an index that names no card."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < COPIES * len(PRINT_ORDER):
        raise ValueError(f"a printed Keener card has an index from 0 to {COPIES * len(PRINT_ORDER) - 1}, not {index!r}")
    position, copy = divmod(index, COPIES)
    return PRINT_ORDER[position], copy + 1


def index_of(card: str, copy: int = 1) -> int:
    """The printed index of ``copy`` (1-4) of a card id; ValueError for an unknown card or copy."""
    if card not in _POSITION:
        raise ValueError(f"there is no card {card!r} in the printed Keener cards (KN-1.3)")
    if isinstance(copy, bool) or not isinstance(copy, int) or not 1 <= copy <= COPIES:
        raise ValueError(f"a printed copy is numbered 1 to {COPIES}, not {copy!r}")
    return _POSITION[card] * COPIES + copy - 1


def instance_of(index: int, seat: int) -> str:
    """The engine's id of printed card ``index`` when ``seat`` (from 0) plays it.

    Set A's copy 2 and set B's copy 4 are both the seat's second copy
    (``"1:bear-trap#2"``); a Commander has no copy number (``"2:ferra"``).
    """
    card, copy = card_of(index)
    if card in CARDS and CARDS[card].type == "commander":
        return f"{seat + 1}:{card}"
    return f"{seat + 1}:{card}#{(copy - 1) % 2 + 1}"


def from_sighting(card: str) -> tuple[str, int] | None:
    """(card id, copy) behind ``Sighting.card`` (``"printed:33"`` -> ``("bear-trap", 2)``); None if no printed card."""
    if not card.startswith(PREFIX) or not card[len(PREFIX):].isdigit():
        return None
    index = int(card[len(PREFIX):])
    return card_of(index) if index < COPIES * len(PRINT_ORDER) else None
