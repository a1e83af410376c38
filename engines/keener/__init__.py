"""Keener: a two-player commander card game (rules: docs/rules/keener.md).

Public API: ``GAME`` (the :class:`~engines.core.Game`), the card database
``CARDS``, deck building (``deck_problems``, ``make_deck``, ``SAMPLE_DECKS``),
the moves, and ``commit`` for sealing a cloaked card on a phone.
"""

from engines.keener.catalog import CARDS, Card, CatalogError
from engines.keener.cloak import commit
from engines.keener.decks import SAMPLE_DECKS, Deck, DeckError, deck_problems, make_deck
from engines.keener.moves import AssignDamage, Attack, Block, Cloak, Deploy, Kill, Pass, PlayGenerator, Uncloak
from engines.keener.state import GAME, KeenerGame, KeenerState

__all__ = [
    "CARDS", "Card", "CatalogError", "commit", "SAMPLE_DECKS", "Deck", "DeckError", "deck_problems", "make_deck",
    "AssignDamage", "Attack", "Block", "Cloak", "Deploy", "Kill", "Pass", "PlayGenerator", "Uncloak",
    "GAME", "KeenerGame", "KeenerState",
]
