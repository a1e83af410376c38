"""Checking a number card's index reading against its pips (#7).

At 720p an index's suit is 5-9 camera pixels tall: a spade and a club differ
there by a point or a lobe, and a 6, 8 and 9 by a stroke, so the glyph
networks can be sure and wrong.  A pip is about twice an index suit's size and
the pips' count is the rank, so where the card's face lies uncovered and its
pips pass every test of vision.pips (2-10 same-size pips of one colour,
centred, symmetric, nothing else on the face), a reading they contradict is
dropped: the count is not the rank, the pips' colour is not the suit's, or
the suit networks pooled over the pips give another suit of that colour
``suit_share`` or more of the share.  It only ever declines."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .glyphs import NUMBER_RANKS, RED_SUITS, SUITS
from .pips import PipFace
from .suit_decision import likeliest_suit


@dataclass(frozen=True)
class PipCheck:
    #: the pooled pip suit must hold this share to overrule the index's suit
    suit_share: float = 0.8
    #: whether a count other than the rank overrules it
    check_count: bool = True


PIP_CHECK = PipCheck()


def contradicts(face: PipFace, rank: str, suit: str, t: PipCheck = PIP_CHECK) -> bool:
    """Whether the pips of a face that passed vision.pips' tests (no ``why``)
    say the index reading ``rank`` ``suit`` is wrong.  A face that failed
    them says nothing."""
    if face.why or not face.pips or face.red is None or rank not in NUMBER_RANKS or suit not in SUITS:
        return False
    if t.check_count and face.count != int(rank):
        return True
    if face.red != (suit in RED_SUITS):
        return True
    if face.suit_p is None or not np.all(np.isfinite(face.suit_p)):
        return False
    si, share = likeliest_suit(face.suit_p, face.red)
    return SUITS[si] != suit and share >= t.suit_share
