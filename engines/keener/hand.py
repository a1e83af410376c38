"""Taking a card from the hand, in both deal modes.

Seeded deal: the engine dealt the cards, so the hand holds copy ids and a
move must name one of them (or a bare card id, meaning any copy of it held).

Physical deal: the deck was shuffled by hand, so the engine holds only
:data:`UNKNOWN` placeholders for the deck and hand, plus ``Side.unseen``, the
copies of the seat's decklist not yet seen anywhere.  A card played from the
hand uses up one placeholder and one unseen copy; naming a card none of whose
copies is unseen breaks card conservation (a card cannot be in two places)
and is refused.
"""

from __future__ import annotations

from dataclasses import replace

from engines.core import Reject
from engines.keener.catalog import CARDS
from engines.keener.ids import card_id
from engines.keener.snapshot import Side

UNKNOWN = "?"
"""A card the engine has not seen (physical deal): in a deck or a hand."""


def find_in_hand(side: Side, card: str, physical: bool, rule: str) -> str:
    """The copy id ``card`` names among the seat's hand; Reject naming why not."""
    if card_id(card) not in CARDS:
        raise Reject(rule, f"there is no card {card!r}", "name a card by its id, e.g. 'fighting-monk'")
    if not physical:
        if card in side.hand:
            return card
        if ":" not in card:
            for held in side.hand:
                if card_id(held) == card:
                    return held
        raise Reject(rule, f"{card} is not in your hand", "play a card you hold")
    if UNKNOWN not in side.hand:
        raise Reject(rule, "your hand is empty", "draw first")
    if card in side.unseen:
        return card
    if ":" not in card:
        for copy in side.unseen:
            if card_id(copy) == card:
                return copy
    raise Reject(rule, f"every {CARDS[card_id(card)].name} of your deck is already seen elsewhere, so {card} cannot "
                 "come from your hand", "check the card: it may belong to another deck")


def remove_from_hand(side: Side, copy: str, physical: bool) -> Side:
    if not physical:
        hand = list(side.hand)
        hand.remove(copy)
        return replace(side, hand=tuple(hand))
    hand = list(side.hand)
    hand.remove(UNKNOWN)
    return replace(side, hand=tuple(hand), unseen=tuple(c for c in side.unseen if c != copy))


def reveal_unseen(side: Side, card: str, rule: str) -> tuple[Side, str]:
    """Physical deal: a face-down card turned up becomes a known copy (card conservation checked)."""
    for copy in side.unseen:
        if card_id(copy) == card_id(card):
            return replace(side, unseen=tuple(c for c in side.unseen if c != copy)), copy
    raise Reject(rule, f"every {CARDS[card_id(card)].name} of your deck is already seen elsewhere",
                 "turn up the card you really played face down")
