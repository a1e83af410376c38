"""Checking a number card's index reading against its pips (#7).

At 720p an index's suit is 5-9 camera pixels tall: a spade and a club differ
there by a point or a lobe, and a 6, 8 and 9 by a stroke, so the glyph
networks can be sure and wrong.  A pip is about twice an index suit's size and
the pips' count is the rank, so where the card's face lies uncovered and its
pips pass every test of vision.pips (2-10 same-size pips of one colour,
centred, symmetric, nothing else on the face), a reading they contradict is
dropped: the count is not the rank, the pips' colour is not the suit's, or
the suit networks pooled over the pips give another suit of that colour
``suit_share`` or more of the share.  :func:`contradicts` only ever
declines; :func:`pip_suit` names the pips' suit where they agree with the
reading in all but the suit, as surely as a card read by its pips: at
720p most misreads are a spade read as a club or the reverse (session 61:
33 of 58), and a card the check turned unknown for its suit is read in the
pips' suit instead (720p seeds 0-999, session 62: 4 cards, all right)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .glyphs import NUMBER_RANKS, RED_SUITS, SUITS
from .pips import PIPS, PipFace, PipThresholds, layout_ok, sure_suit
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
    if not _says_something(face, rank, suit):
        return False
    if t.check_count and face.count != int(rank):
        return True
    if face.red != (suit in RED_SUITS):
        return True
    if face.suit_p is None or not np.all(np.isfinite(face.suit_p)):
        return False
    si, share = likeliest_suit(face.suit_p, face.red)
    return SUITS[si] != suit and share >= t.suit_share


def pip_suit(face: PipFace, rank: str, suit: str, t: PipThresholds = PIPS) -> str | None:
    """The suit a face's pips name instead of ``suit`` where they agree with
    the reading ``rank`` ``suit`` in all but the suit (the count is the rank,
    the colour the suit's), as surely as a card read by its pips must
    (vision.pips.sure_suit); else None.  At 720p the index's spade and
    club differ by a point or a lobe, the pips' by twice as many pixels."""
    if not _says_something(face, rank, suit):
        return None
    if face.suit_p is None or not np.all(np.isfinite(face.suit_p)):
        return None
    if face.count != int(rank) or face.red != (suit in RED_SUITS) or not layout_ok(face.pips, t.sym_mm, t.max_turn_deg):
        return None
    sure = sure_suit(face, t)
    return None if sure is None or SUITS[sure[0]] == suit else SUITS[sure[0]]


def _says_something(face: PipFace, rank: str, suit: str) -> bool:
    """Whether a face can be held against the reading ``rank`` ``suit``: it
    passed vision.pips' tests with pips of one colour, and the reading is a
    number card's."""
    return not face.why and bool(face.pips) and face.red is not None and rank in NUMBER_RANKS and suit in SUITS
