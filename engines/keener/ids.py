"""Names of physical cards: every copy on the table has its own id.

``"1:bear-trap#2"`` is the second Bear Trap of seat 1 (seats count from 1 in
ids, as players say them); ``"2:ferra"`` is seat 2's Commander; a face-down
card is known to the table only by its slot, ``"1:cloak#3"``, which says
nothing about what it is.  Two copies are told apart, so a leak of one copy's
identity is caught even when its twin is face up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engines.keener.catalog import CARDS, Card


def copy_ids(seat: int, cards: Iterable[str]) -> tuple[str, ...]:
    """Ids for a seat's cards in order: ``"1:fighting-monk#1"``, ``"1:fighting-monk#2"`` ..."""
    seen: Counter[str] = Counter()
    out = []
    for card in cards:
        seen[card] += 1
        out.append(f"{seat + 1}:{card}#{seen[card]}")
    return tuple(out)


def commander_id(seat: int, card: str) -> str:
    return f"{seat + 1}:{card}"


def slot_id(seat: int, number: int) -> str:
    return f"{seat + 1}:cloak#{number}"


def card_id(instance: str) -> str:
    """``"1:bear-trap#2"`` -> ``"bear-trap"``; a bare card id is returned as it is."""
    if ":" in instance:
        instance = instance.partition(":")[2]
    return instance.partition("#")[0]


def card_of(instance: str) -> Card:
    """The printed card behind a copy id; KeyError for ids that name no card."""
    return CARDS[card_id(instance)]


def owner(instance: str) -> int:
    """The seat (from 0) a copy or slot id belongs to."""
    return int(instance.partition(":")[0]) - 1
