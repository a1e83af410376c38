"""The accuracy scorer (vision.evaluate.score) that bench/vision.py's figures come from.

A reading counts for a card only where that card carries an index; a reading
beside one of its bare corners belongs to a neighbour (a staggered stack puts
one card's index right beside the next card's bare corner)."""

from __future__ import annotations

import dataclasses

import numpy as np

from vision import geometry as g
from vision.evaluate import _index_spots, score
from vision.results import FrameResult, Sighting
from vision.scene import CardTruth, SceneTruth

PPM = 2.0  # image px per mm


def _truth(four_index: bool = False) -> SceneTruth:
    H = np.diag([PPM, PPM, 1.0])
    mm = np.float32([[100, 100], [100 + g.CARD_W, 100], [100 + g.CARD_W, 100 + g.CARD_H], [100, 100 + g.CARD_H]])
    px = mm * PPM
    which = [0, 2] + ([1, 3] if four_index else [])
    card = CardTruth("face", "Q", "hearts", None, 0, mm, px, [px[c] for c in which], [True] * len(which))
    return SceneTruth((800, 600), True, H, [card], np.zeros((600, 800), bool), "wood")


def _reading(at, rank="Q", suit="hearts") -> FrameResult:
    x, y = at
    sg = Sighting(0, "card", 0.9, ((x - 10, y - 10), (x + 100, y - 10), (x + 100, y + 150), (x - 10, y + 150)),
                  anchors_px=((float(x), float(y)),), rank=rank, suit=suit)
    return FrameResult([sg], (800, 600))


def test_a_reading_at_an_index_corner_is_found_and_read():
    truth = _truth()
    for spot in _index_spots(truth.cards[0], truth.homography):
        s = score(_reading(spot), truth)
        assert (s.expected, s.found, s.read, s.misread) == (1, 1, 1, [])


def test_a_reading_beside_a_bare_corner_is_not_this_card():
    truth = _truth()
    card = truth.cards[0]
    bare = np.float32([card.corners_mm[1] + (-5, 8), card.corners_mm[3] + (5, -8)]) * PPM  # top-right, bottom-left
    for spot in bare:
        s = score(_reading(spot, "J", "spades"), truth)
        assert (s.found, s.misread) == (0, []), spot


def test_a_four_index_card_is_read_at_any_corner():
    truth = _truth(four_index=True)
    spots = _index_spots(truth.cards[0], truth.homography)
    assert len(spots) == 4
    assert all(score(_reading(spot), truth).read == 1 for spot in spots)


def test_an_unknown_at_an_index_is_reported_unknown_not_found():
    truth = _truth()
    spot = _index_spots(truth.cards[0], truth.homography)[0]
    x, y = spot
    sg = Sighting(0, "unknown", 0.3, ((x - 10, y - 10), (x + 100, y - 10), (x + 100, y + 150), (x - 10, y + 150)), anchors_px=((float(x), float(y)),))
    s = score(FrameResult([sg], (800, 600)), truth)
    assert (s.found, s.read, s.reported_unknown, s.false_cards) == (0, 0, 1, 0)
    # a card read is not also reported unknown
    s = score(FrameResult([_reading(spot).sightings[0], dataclasses.replace(sg, id=1)], (800, 600)), truth)
    assert (s.found, s.reported_unknown) == (1, 0)


def test_a_reading_at_an_uncovered_index_is_that_card_not_the_one_under_it():
    """A card laid square on another puts its index over the other's, a pixel or two apart (bench
    scene 258 at 1080p: a 7 of clubs on an 8 of hearts).  The reading there is the top card's; it
    was paired with the card underneath, the nearer by a pixel, and counted as a misread of it."""
    truth = _truth()
    top = truth.cards[0]
    under = dataclasses.replace(top, rank="8", suit="clubs", z=-1, index_visible=[False, True],
                                corners_mm=top.corners_mm + 1.0, corners_px=top.corners_px + PPM)
    truth = dataclasses.replace(truth, cards=[under, top])
    spot = _index_spots(top, truth.homography)[0]
    s = score(_reading(spot + 1.5), truth)  # nearer the covered index of the card underneath
    assert (s.expected, s.found, s.read, s.misread) == (2, 1, 1, [])


def test_each_card_outcome_carries_its_scale():
    """bench/vision.py's found-by-scale table: each expected card with its px per mm, found, read."""
    truth = _truth()
    spot = _index_spots(truth.cards[0], truth.homography)[0]
    ((px, found, read),) = score(_reading(spot, "J", "spades"), truth).outcomes
    assert abs(px - PPM) < 1e-3 and found and not read
    total = score(_reading(spot), truth)
    total.add(score(FrameResult([], (800, 600)), truth))
    assert [(f, r) for _, f, r in total.outcomes] == [(True, True), (False, False)]
