"""The suit decision per ink colour (vision.suit_decision, corner_index.decide):
on red ink the red pair's split alone, junk judged apart, and only where the
networks saw a red suit's shape; on black ink the black suits' share of them
and junk, as before."""

from __future__ import annotations

import dataclasses

import numpy as np

from tests.support.evidence import evidence, probs
from vision import corner_index
from vision.glyph_model import SUIT_CLASSES
from vision.glyphs import SUITS
from vision.suit_decision import COLOUR_SUITS, colour_split, suit_verdict

#: the reader's thresholds with the red pair asked alone (off by default, see corner_index.Thresholds)
BY_PAIR = dataclasses.replace(corner_index.THRESHOLDS, red_by_pair=True)


def _sure(ev, suit: str):
    """Evidence whose templates agree with the rank and name ``suit``."""
    rank = corner_index.glyph_model.RANK_CLASSES[int(np.argmax(ev.rank_p))]
    return dataclasses.replace(ev, template_rank=rank, rank_score=0.9, template_suit=suit, suit_score=0.8, suit_split=0.3)


def test_the_red_split_leaves_out_junk_and_the_other_colour():
    si, share = colour_split(probs(SUIT_CLASSES, hearts=0.82, junk=0.17), True)
    assert SUITS[si] == "hearts" and share > 0.99
    # the black suits are left out of the split (suit_verdict asks them apart)
    si, share = colour_split(probs(SUIT_CLASSES, clubs=0.96, diamonds=0.036, hearts=0.002), True)
    assert SUITS[si] == "diamonds" and 0.9 < share < 0.96
    assert not suit_verdict(probs(SUIT_CLASSES, clubs=0.96, diamonds=0.036, hearts=0.002), True, 0.95, 0.9, 0.5)[1]
    si, share = colour_split(probs(SUIT_CLASSES, spades=0.6, clubs=0.4), False)
    assert SUITS[si] == "spades" and abs(share - 0.6) < 0.01


def test_bad_probabilities_never_read():
    bad = (np.full(5, np.nan), np.zeros(5), np.array([np.inf, 0, 0, 0, 0]), np.array([0.5, np.nan, 0.2, 0.1, 0.2]))
    for ps in bad:
        for red in (True, False):
            si, share = colour_split(ps, red)
            assert si in COLOUR_SUITS[red] and share == 0.0
            (si, share), enough = suit_verdict(ps, red, 0.01, 0.01, 0.01)
            assert si in COLOUR_SUITS[red] and not enough
    assert suit_verdict(probs(SUIT_CLASSES, spades=0.99), False, 0.95, 0.9, 0.5)[1]
    assert suit_verdict(probs(SUIT_CLASSES, hearts=0.91, diamonds=0.09), True, 0.95, 0.9, 0.5)[1]


def test_junk_on_a_red_suit_glyph_no_longer_thins_a_clear_suit():
    """A 7 of hearts at hearts 0.82 / junk 0.17 was declined (share 0.82)."""
    t = BY_PAIR
    ev = _sure(evidence({"7": 0.95}, {"hearts": 0.82, "junk": 0.17}, red=True), "hearts")
    r = corner_index.decide(ev, t)
    assert r is not None and (r.rank, r.suit) == ("7", "hearts")
    # junk still has its own ceiling
    ev = _sure(evidence({"7": 0.95}, {"hearts": 0.6, "junk": 0.4}, red=True), "hearts")
    assert corner_index.decide(ev, t) is None
    assert corner_index.decide(dataclasses.replace(ev, suit_p=np.full(5, np.nan)), t) is None


def test_a_red_pair_may_split_less_surely_than_a_black_one():
    t = BY_PAIR
    red = _sure(evidence({"9": 0.95}, {"hearts": 0.92, "diamonds": 0.08}, red=True), "hearts")
    black = _sure(evidence({"9": 0.95}, {"spades": 0.92, "clubs": 0.08}, red=False), "spades")
    r = corner_index.decide(red, t)
    assert r is not None and (r.rank, r.suit) == ("9", "hearts")
    assert corner_index.decide(black, t) is None
    # junk still counts against a black suit (clubs 0.82 / junk 0.18 was a spade on a third-party deck)
    assert corner_index.decide(_sure(evidence({"5": 0.99}, {"clubs": 0.82, "junk": 0.18}, red=False), "clubs"), t) is None
    assert corner_index.decide(red, dataclasses.replace(t, net_suit_red=0.95)) is None
    assert corner_index.decide(red, dataclasses.replace(t, red_by_pair=False)) is None  # off: red asked as black is


def test_a_red_glyph_the_networks_take_for_a_black_suit_is_not_read():
    """The ink says red, but the networks saw a club's shape: their split
    between hearts and diamonds is no evidence (a German jack's diamond)."""
    t = BY_PAIR
    blob = evidence({"4": 0.95}, {"clubs": 0.96, "diamonds": 0.036, "hearts": 0.002}, red=True)
    assert corner_index.decide(_sure(blob, "diamonds"), t) is None
    mostly_red = evidence({"4": 0.95}, {"clubs": 0.3, "diamonds": 0.69, "hearts": 0.005}, red=True)
    r = corner_index.decide(_sure(mostly_red, "diamonds"), t)
    assert r is not None and (r.rank, r.suit) == ("4", "diamonds")
    assert corner_index.decide(_sure(mostly_red, "hearts"), t) is None  # templates clearly say the other red suit
    # ink of unknown colour is still not read
    unknown = dataclasses.replace(_sure(mostly_red, "diamonds"), glyphs=dataclasses.replace(mostly_red.glyphs, red=None))
    assert corner_index.decide(unknown, t) is None


def test_off_the_red_pair_is_asked_as_the_black_one():
    """Without red_by_pair (the default), both colours' suits need net_suit
    of their pair's and junk's probability, as before."""
    for red, pair in ((True, ("hearts", "diamonds")), (False, ("spades", "clubs"))):
        for p, junk in ((0.96, 0.01), (0.93, 0.01), (0.9, 0.07)):
            ps = probs(SUIT_CLASSES, **{pair[0]: p, pair[1]: 1 - p - junk, "junk": junk})
            (si, share), enough = suit_verdict(ps, red, 0.95, 0.9, 0.5, by_colour=False)
            assert SUITS[si] == pair[0] and abs(share - ps[si] / (ps[SUITS.index(pair[0])] + ps[SUITS.index(pair[1])] + ps[-1])) < 1e-9
            assert enough == (share >= 0.95)
    for ps in (np.full(5, np.nan), np.zeros(5)):
        assert not suit_verdict(ps, True, 0.5, 0.5, 0.5, by_colour=False)[1]
