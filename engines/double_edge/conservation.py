"""Where a card is, for card conservation in a physical deal (DE-15.2).

In a physical deal the engine never sees the deck or the unseen part of a
hand, but every card that was ever seen face up (and every sealed card a phone
reported) has exactly one known place.  A card reported somewhere new while it
still sits in another known place is an error that names both places.
"""

from __future__ import annotations

from engines.core import Reject
from engines.double_edge.cards import owner_of_ace
from engines.double_edge.snapshot import Table


def _seat(n: int) -> str:
    return f"seat {n + 1}"


def locate(t: Table, card: str) -> str | None:
    """The known place of ``card`` as a phrase ("seat 2's discard pile"), or None."""
    ace = owner_of_ace(card)
    if ace is not None and card not in t.indicators:
        return f"{_seat(ace)}'s aces"
    for seat in (0, 1):
        who = f"{_seat(seat)}'s"
        if card in t.hands[seat]:
            return f"{who} hand"
        if card in t.bases[seat]:
            return f"{who} Base"
        if card in t.sealed_bases[seat]:
            return f"{who} sealed Base"
        if t.strikers[seat] == card:
            return f"{who} Striker"
        if card in t.middles[seat]:
            return f"{who} Gambit"
        if t.supports[seat] == card:
            return f"{who} Support"
        if t.indicators[seat] == card:
            return f"{who} indicator"
        if card in t.discards[seat]:
            return f"{who} discard pile"
    return None


def claim_unseen(t: Table, card: str, seat: int, destination: str) -> None:
    """Take ``card`` from the unseen part of ``seat``'s hand, refusing a card known elsewhere."""
    place = locate(t, card)
    if place is not None:
        raise Reject("DE-15.2", f"{card} is already in {place}; it cannot also be {_seat(seat)}'s {destination}",
                     "one card, one place: check which of the two the camera or phone got wrong")
    if t.hand_unknown[seat] <= 0:
        raise Reject("DE-6.5", f"{card} is not in {_seat(seat)}'s hand", "play a card you hold")
    t.hand_unknown[seat] -= 1
