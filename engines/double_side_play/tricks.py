"""Following and winning a trick (DSP-7.3, DSP-7.5, DSP-6.3)."""

from __future__ import annotations

from collections.abc import Sequence

from engines.double_side_play.cards import Deck


def playable(deck: Deck, hand: Sequence[str], lead_colour: str | None) -> list[str]:
    """Cards of ``hand`` that may be played: the lead colour when held (must-follow), else any."""
    if lead_colour is None:
        return list(hand)
    follow = [c for c in hand if deck.colour(c) == lead_colour]
    return follow or list(hand)


def winner(deck: Deck, plays: Sequence[tuple[int, str]], half: int, trump: str = "") -> tuple[int, str, bool]:
    """(seat, card, by_trump) of the trick's winner.

    With a trump colour and at least one trump played, the highest trump wins
    (DSP-6.3); otherwise the highest card of the lead colour (DSP-7.5).  Numbers
    are those of the half in force; cards of one colour never share a number,
    so there are no ties.
    """
    colour = deck.colour(plays[0][1])
    by_trump = False
    if trump and any(deck.colour(c) == trump for _, c in plays):
        colour, by_trump = trump, True
    best = max((p for p in plays if deck.colour(p[1]) == colour), key=lambda p: deck.number(p[1], half))
    return best[0], best[1], by_trump
