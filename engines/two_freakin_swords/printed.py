"""Printed Two Freakin' Swords cards: which card a printed card's marker names.

``companion print cards two-freakin-swords`` prints standard decks (TFS-2.1)
and gives card ``index`` the marker ``first + index`` of the game's marker
range; companion turns a seen face marker into ``Sighting.card =
"printed:<index>"`` and a back marker into ``Sighting.back`` ("striking" or
"defending"), see docs/printing.md.

Printed card ``index`` is the engine's card ``"<kind>#<index + 1>"``: printed
deck ``d`` (from 0) holds indices ``40 d`` to ``40 d + 39``, in the order
:func:`~engines.two_freakin_swords.cards.build_deck` numbers a standard deck
(10 Strikes, 10 Fakes, 10 Blocks, 10 Parries).  So printed deck 1 is seat 1's
own deck (ids 1-40), deck 2 seat 2's (41-80), and decks 1 and 2 together are
the community deck (TFS-2.3).  The marker ranges hold :data:`DECKS` decks, one
per fighter of the largest table (vision's ids 400-599 for decks 1-5, then
800-919 for decks 6-8; companion counts the index on across the two ranges).
"""

from __future__ import annotations

from engines.two_freakin_swords.cards import DECK_SIZE, KINDS, STANDARD, card_id, is_card, number_of

PREFIX = "printed:"
RANGE_SIZE = 320
"""Marker ids reserved for this game's printed cards (vision's ranges 400-599 and 800-919)."""
DECKS = RANGE_SIZE // DECK_SIZE
"""How many distinct standard decks can be printed (8: one per fighter at the largest table)."""
COUNT = DECKS * DECK_SIZE


def card_of(index: int) -> str:
    """The card id (``"fake#12"``) of printed card ``index``; ValueError outside the range."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < COUNT:
        raise ValueError(f"a printed Two Freakin' Swords card has an index from 0 to {COUNT - 1}, not {index!r}")
    within = index % DECK_SIZE
    for kind in KINDS:
        if within < STANDARD[kind]:
            return card_id(kind, index + 1)
        within -= STANDARD[kind]
    raise AssertionError("a standard deck has DECK_SIZE cards")  # pragma: no cover


def index_of(card: str) -> int:
    """The printed index of a card id; ValueError for an id no printed standard deck holds."""
    if not is_card(card) or not 1 <= number_of(card) <= COUNT or card_of(number_of(card) - 1) != card:
        raise ValueError(f"{card!r} is not a card of a printed standard deck (TFS-2.1)")
    return number_of(card) - 1


def deck_of(index: int) -> int:
    """Which printed deck (from 0) card ``index`` belongs to."""
    card_of(index)
    return index // DECK_SIZE


def from_sighting(card: str) -> str | None:
    """The card id behind ``Sighting.card``: ``"printed:10"`` -> ``"fake#11"``; None if it names no printed card."""
    if not card.startswith(PREFIX) or not card[len(PREFIX):].isdigit():
        return None
    index = int(card[len(PREFIX):])
    return card_of(index) if index < COUNT else None
