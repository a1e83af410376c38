"""Printed Double Side Play cards: which card a printed card's marker names.

``companion print cards double-side-play`` prints the 48 cards in index order
and gives card ``index`` the marker ``first + index`` of the game's marker
range; companion turns a seen marker into ``Sighting.card = "printed:<index>"``
(docs/printing.md).  Index ``12 k + n - 1`` is the card of the ``k``-th colour
(red, blue, green, yellow on the printed deck, DSP-1.3) with astronaut number
``n``.  A table that renames its colours keeps the printed cards: the first
colour name goes with the red cards, and so on.
"""

from __future__ import annotations

from engines.double_side_play.cards import DEFAULT_COLOURS, NUMBERS, Deck

PREFIX = "printed:"
COUNT = 4 * len(NUMBERS)
"""How many different printed cards there are (48)."""

_DEFAULT = Deck(DEFAULT_COLOURS)


def card_of(index: int, deck: Deck = _DEFAULT) -> str:
    """The card id (``"R7"``) of printed card ``index``; ValueError outside 0-47."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < COUNT:
        raise ValueError(f"a printed Double Side Play card has an index from 0 to {COUNT - 1}, not {index!r}")
    colour, number = divmod(index, len(NUMBERS))
    return f"{deck.initials[colour]}{number + 1}"


def index_of(card: str, deck: Deck = _DEFAULT) -> int:
    """The printed index of a card id; ValueError for an id that is not a card of ``deck``."""
    if not deck.is_card(card):
        raise ValueError(f"{card!r} is not a card of this deck (DSP-1.1)")
    return deck.initials.index(card[0]) * len(NUMBERS) + int(card[1:]) - 1


def from_sighting(card: str, deck: Deck = _DEFAULT) -> str | None:
    """The card id behind ``Sighting.card``: ``"printed:6"`` -> ``"R7"``; None if it names no printed card."""
    if not card.startswith(PREFIX) or not card[len(PREFIX):].isdigit():
        return None
    index = int(card[len(PREFIX):])
    return card_of(index, deck) if index < COUNT else None
