"""The four cards, their sides, card ids and decks (rules TFS-1, TFS-2).

A card id is ``"<kind>#<n>"`` (``"strike#12"``): the number makes every card
of a game distinct, so the leak check on views means something, and tells
which deck a card belongs to when every fighter brings their own (40 cards per
deck: cards 1-40 are seat 1's, 41-80 seat 2's, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

KINDS: tuple[str, ...] = ("strike", "fake", "block", "parry")
SIDES: tuple[str, ...] = ("striking", "defending")
SIDE_OF_KIND: dict[str, str] = {"strike": "striking", "fake": "striking", "block": "defending", "parry": "defending"}

DECK_SIZE = 40
MIN_EACH = 8
HAND_SIZE = 4
STANDARD: dict[str, int] = {kind: 10 for kind in KINDS}


def card_id(kind: str, number: int) -> str:
    return f"{kind}#{number}"


def kind_of(card: str) -> str:
    """The kind of a card id (``"strike#12"`` -> ``"strike"``); a bare kind is its own kind."""
    return card.partition("#")[0]


def number_of(card: str) -> int:
    return int(card.partition("#")[2])


def side_of(card: str) -> str:
    """What the back of this card shows: ``"striking"`` or ``"defending"``."""
    return SIDE_OF_KIND[kind_of(card)]


def is_card(text: Any) -> bool:
    return isinstance(text, str) and kind_of(text) in SIDE_OF_KIND and text.partition("#")[2].isdigit()


def validate_deck(counts: Any, owner: str = "a custom deck") -> dict[str, int]:
    """A deck list ``{"strike": 10, ...}`` checked against TFS-2.2; ValueError says what to change."""
    if not isinstance(counts, Mapping):
        raise ValueError(f"{owner} must be an object like {{\"strike\": 10, \"fake\": 10, \"block\": 10, \"parry\": 10}}")
    unknown = [k for k in counts if k not in KINDS]
    if unknown:
        raise ValueError(f"{owner} names unknown cards {unknown}; the cards are {', '.join(KINDS)} (TFS-2.2)")
    out: dict[str, int] = {}
    for kind in KINDS:
        n = counts.get(kind, 0)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"{owner}: the number of {kind} cards must be a whole number, not {n!r} (TFS-2.2)")
        out[kind] = n
    short = [f"{out[k]} {k}" for k in KINDS if out[k] < MIN_EACH]
    if short:
        raise ValueError(f"{owner} has only {', '.join(short)}; a custom deck needs at least {MIN_EACH} of each "
                         "card (TFS-2.2)")
    total = sum(out.values())
    if total != DECK_SIZE:
        raise ValueError(f"{owner} has {total} cards; a deck has exactly {DECK_SIZE} (TFS-2.2): "
                         f"{'remove' if total > DECK_SIZE else 'add'} {abs(total - DECK_SIZE)}")
    return out


def build_deck(counts: Mapping[str, int], first_number: int) -> tuple[str, ...]:
    """Card ids of one deck, numbered from ``first_number``, in kind order (unshuffled)."""
    cards: list[str] = []
    n = first_number
    for kind in KINDS:
        for _ in range(counts[kind]):
            cards.append(card_id(kind, n))
            n += 1
    return tuple(cards)


def count_kinds(cards: tuple[str, ...] | list[str]) -> dict[str, int]:
    out = dict.fromkeys(KINDS, 0)
    for card in cards:
        out[kind_of(card)] += 1
    return out
