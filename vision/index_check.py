"""Checking that a known card's corner index shows in a patch.

Reading an index means choosing one of 52 cards, and the reader declines
whenever its two readers are not both sure.  Checking asks less: the card is
already known (read at another corner), and the question is only whether
*its* index is visible at this corner or something else lies there (another
card's body, a hand, the table).  Used for stack order, where a card read only
at its far corner would otherwise have no evidence of lying on the card under
its near corner."""

from __future__ import annotations

import numpy as np

from . import glyph_model
from .corner_index import References, evidence, extract_glyphs
from .glyphs import RED_SUITS, SUITS
from .suit_decision import suit_share

#: the network's probability of the card's own rank (or the templates' score
#: when they pick it), and its share of the suit among suits of the ink's
#: colour, for the index to count as that card's (the suit's share 0.85:
#: the suit network fine-tuned on frames' glyphs gives a clear Q of hearts
#: of tests/test_vision_index_check.py 0.898, where 0.9 had been chosen;
#: at 942b784 the benchmark reads alike at 0.9 and 0.85: 720p seeds 0-299
#: 1471 found / 23 misread, 1080p seeds 500-649 871 / 0, both times)
RANK_AT_LEAST = 0.3
TEMPLATE_RANK_AT_LEAST = 0.8
SUIT_SHARE_AT_LEAST = 0.85


def shows_index_of(patch: np.ndarray, rank: str, suit: str, refs: References) -> bool:
    """True when the upright corner ``patch`` holds an index whose colour is the
    suit's, whose suit glyph the network takes for ``suit`` and whose rank
    glyph the network or the templates take for ``rank``."""
    gl = extract_glyphs(patch)
    if gl is None or gl.red is None or gl.red != (suit in RED_SUITS) or not glyph_model.available():
        return False
    ev = evidence(gl, refs, full=True)
    if not ev.complete or suit_share(ev.suit_p, gl.red, SUITS.index(suit)) < SUIT_SHARE_AT_LEAST:
        return False
    p_rank = float(ev.rank_p[glyph_model.RANK_CLASSES.index(rank)])
    return p_rank >= RANK_AT_LEAST or (ev.template_rank == rank and ev.rank_score >= TEMPLATE_RANK_AT_LEAST)
