"""Indices of other deck designs that the edge-free finder used to miss:
glyphs joined to the card's edge or a frame line at 720p (vision.index_pairs.sealed_holes)."""

import cv2
import numpy as np

from vision.cards import Plane
from vision.index_pairs import find_index_pairs, sealed_holes


def _plane(px_per_mm: float, work_f: float = 1.0) -> Plane:
    """Work px -> plane mm at ``px_per_mm`` work px per mm; frame = work / ``work_f``."""
    s = px_per_mm
    return Plane(np.diag([1 / s, 1 / s, 1.0]), np.diag([s / work_f, s / work_f, 1.0]), False)


def _card_with_glyph_on_edge(h: int = 300, w: int = 400):
    """A white card on a green table whose black glyph (8 x 12 px) touches the card's left edge."""
    frame = np.full((h, w, 3), (40, 110, 40), np.uint8)
    frame[50:250, 100:300] = 235
    frame[80:92, 100:108] = 20  # the glyph, joined to the table through the edge
    mask = np.zeros((h, w), np.uint8)
    mask[50:250, 100:300] = 255
    mask[80:92, 100:108] = 0
    return frame, mask


def test_a_glyph_joined_to_the_edge_becomes_a_spot():
    frame, mask = _card_with_glyph_on_edge()
    stats, cents, sealed = sealed_holes(mask, _plane(2.0), frame)
    assert len(stats) == 2
    x, y, w, h, area = stats[1]
    assert 99 <= x <= 103 and 79 <= y <= 81 and 4 <= w <= 9 and 11 <= h <= 13
    assert abs(cents[1][1] - 86) < 1.5
    # in the sealed mask the glyph is enclosed (a hole of the card region)
    n, labels = cv2.connectedComponents(cv2.bitwise_not(sealed), connectivity=8)
    assert labels[86, 103] != labels[5, 5]


def test_table_between_two_cards_is_no_spot():
    frame = np.full((300, 400, 3), (40, 110, 40), np.uint8)
    mask = np.zeros((300, 400), np.uint8)
    # two cards 6 px apart: the closing bridges the gap, which is table
    for x0, x1 in ((60, 197), (203, 340)):
        frame[50:250, x0:x1] = 235
        mask[50:250, x0:x1] = 255
    # one card reaches a little further: the gap is a notch in the outline of neither card alone
    stats, _, _ = sealed_holes(mask, _plane(2.0), frame)
    assert len(stats) == 1


def test_sealed_holes_take_bad_input():
    frame, mask = _card_with_glyph_on_edge()
    empty = np.zeros_like(mask)
    assert len(sealed_holes(empty, _plane(2.0), frame)[0]) == 1
    assert len(sealed_holes(mask[:2, :2], _plane(2.0), frame[:2, :2])[0]) == 1
    nan = Plane(np.full((3, 3), np.nan), np.eye(3), False)
    assert len(sealed_holes(mask, nan, frame)[0]) == 1
    # a huge or tiny scale: no closing is tried
    assert len(sealed_holes(mask, _plane(50.0), frame)[0]) == 1
    assert len(sealed_holes(mask, _plane(0.01), frame)[0]) == 1


def test_the_finder_takes_an_empty_frame():
    frame = np.zeros((720, 1280, 3), np.uint8)
    mask = np.zeros((720, 1280), np.uint8)
    holes = (np.zeros((1, 5), np.int32), np.zeros((1, 2)))
    assert find_index_pairs(frame, _plane(2.0), holes, mask, mask) == []
