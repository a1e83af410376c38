"""Which suit a corner's suit glyph is, from the glyph networks' probabilities
and the measured ink colour (#7).

The ink colour is measured on the paper (vision.corner_index._colour_of)
and narrows the suit to a pair: hearts/diamonds or spades/clubs.  What is left
for the networks is the split inside that pair, asked differently per colour:

* **black ink**: the likeliest black suit must hold ``black`` (0.95) of what
  both black suits and junk (an index seen sideways or upside down) hold.
  Spades and clubs differ only in the top lobes, which blur alike at 720p;
  a network unsure of the shape puts probability on junk, and a club at
  0.82 / junk 0.18 was a spade more than once on third-party decks;
* **red ink**: the likeliest red suit must hold ``red`` (0.9) of what the two
  red suits alone hold.  Hearts and diamonds differ in their whole outline
  (a notched round top against a point), and junk is judged apart (its own
  ceiling in corner_index.decide): counted in the share as well, it declined
  a 7 of hearts at hearts 0.82 / junk 0.17.  The red suits must still hold
  a part of the four suits' probability (``red_shape``, 0.2): where the
  grey-ink networks give them next to nothing (a red diamond blurred into a
  round blob at 1.3 px/mm is clubs 0.96-1.0 to them) they saw no red suit's
  shape, and their split between the two red suits is no evidence.  Read
  anyway (red_shape 0), such corners brought in a German deck's jack "B" as
  an 8 of diamonds and a 9 of diamonds as an 8 (red pair 0.03 and 0.10).
  At 0.5 (the red pair more likely than the black) the reader read 9 fewer
  of 300 scenes' cards than at 0.2, with as many misreads.

Measured with corner_index.Thresholds.red_by_pair on (the default), against
it off (the black rule for both colours): figures in corner_index.Thresholds.
"""

from __future__ import annotations

import numpy as np

from .glyphs import RED_SUITS, SUITS

#: indices into SUITS (and the networks' SUIT_CLASSES) of each ink colour's suits
COLOUR_SUITS = {
    True: tuple(i for i, s in enumerate(SUITS) if s in RED_SUITS),
    False: tuple(i for i, s in enumerate(SUITS) if s not in RED_SUITS),
}


def suit_share(ps: np.ndarray, red: bool, si: int) -> float:
    """The share of suit ``si`` (an index into SUITS) in the probability that
    the suits of the ink's colour and junk hold (so that doubt about the
    colour does not count twice)."""
    same = COLOUR_SUITS[bool(red)]
    return float(ps[si] / (sum(ps[i] for i in same) + ps[-1]))


def likeliest_suit(ps: np.ndarray, red: bool) -> tuple[int, float]:
    """The network's suit among the suits of the ink's colour, and its share (suit_share)."""
    si = max(COLOUR_SUITS[bool(red)], key=lambda i: ps[i])
    return si, suit_share(ps, red, si)


def colour_split(ps: np.ndarray, red: bool) -> tuple[int, float]:
    """The likeliest suit of the ink's colour (an index into SUITS) and its
    share of that colour's two suits alone, from the networks' probabilities
    ``ps`` (SUIT_CLASSES: the four suits, then junk).  Probabilities that are
    not all finite, or a pair both at zero, give share 0."""
    pair = COLOUR_SUITS[bool(red)]
    ps = np.asarray(ps, np.float64)
    if not np.all(np.isfinite(ps)):
        return pair[0], 0.0
    p = ps[list(pair)]
    j = int(np.argmax(p))
    total = float(p.sum())
    return pair[j], float(p[j] / total) if total > 0 else 0.0


def suit_verdict(
    ps: np.ndarray, red: bool, black: float, red_share: float, red_shape: float, by_colour: bool = True
) -> tuple[tuple[int, float], bool]:
    """((suit index, its share), whether that share is enough) for the ink's
    colour, as the module's docstring says: ``black`` and ``red_share`` are
    the shares each colour's suit needs, ``red_shape`` the part of the four
    suits' probability the red pair must hold.  Without ``by_colour`` red ink
    is asked as black is (the black suits' rule for the red pair, ``black``
    share).  Probabilities that are not all finite, or all zero, never
    suffice."""
    ps = np.asarray(ps, np.float64)
    if red and by_colour:
        si, share = colour_split(ps, True)
        pair, suits = ps[list(COLOUR_SUITS[True])].sum(), ps[: len(SUITS)].sum()
        if not pair >= red_shape * suits:
            return (si, share), False
    elif not (np.all(np.isfinite(ps)) and ps[list(COLOUR_SUITS[bool(red)])].sum() + ps[-1] > 0):
        si, share = COLOUR_SUITS[bool(red)][0], 0.0
    else:
        si, share = likeliest_suit(ps, bool(red))
    return (si, share), bool(share >= (red_share if red and by_colour else black))
