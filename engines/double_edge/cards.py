"""Card ids, values and the three properties every Double-Edge rule reads (DE-1).

A card id is rank + suit letter, exactly as vision reports it: ``"2C"`` ..
``"10C"``, ``"JC"``, ``"QC"``, ``"KC"``, ``"AC"``; suits C D H S.
"""

from __future__ import annotations

from functools import cache

SUITS = ("C", "D", "H", "S")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_VALUES = {**{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 1}
RED_SUITS = frozenset("DH")

ACES: tuple[tuple[str, str], tuple[str, str]] = (("AH", "AS"), ("AD", "AC"))
"""(red ace, black ace) held by each seat for the whole game (ruling DE-R2)."""

ALL_ACES = frozenset(a for pair in ACES for a in pair)

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 48 cards left when the aces leave the deck (DE-2.1), in a fixed order the shuffle permutes."""

KNOWN = frozenset(DECK) | ALL_ACES


def is_card(card: object) -> bool:
    return isinstance(card, str) and card in KNOWN


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> str:
    return card[:-1]


@cache
def value(card: str) -> int:
    """Printed value: A 1, 2..10, J 11, Q 12, K 13 (DE-1.2)."""
    return _VALUES[rank(card)]


def is_red(card: str) -> bool:
    return suit(card) in RED_SUITS


def is_ace(card: str) -> bool:
    return rank(card) == "A"


@cache
def props(card: str) -> tuple[int, int, int]:
    """(colour, parity, size) as 0/1: red, odd, big (> 7) are 1 (DE-1.3)."""
    v = value(card)
    return (1 if is_red(card) else 0, v % 2, 1 if v > 7 else 0)


def group(card: str) -> int:
    """One of the eight colour/parity/size groups, as a 3-bit number."""
    c, p, s = props(card)
    return c << 2 | p << 1 | s


def owner_of_ace(card: str) -> int | None:
    for seat, pair in enumerate(ACES):
        if card in pair:
            return seat
    return None
