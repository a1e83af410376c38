"""vision.card_scale: a card's size from the corners of cards that do not lie whole."""

from __future__ import annotations

import numpy as np
import pytest

from vision.card_scale import card_scale, facing_pairs
from vision.cards import Corner
from vision.geometry import CARD_H, CARD_W


def _rect_corners(blob: int, origin, s: float, angle: float = 0.0, which=(0, 1, 2, 3), top_only_len: float | None = None):
    """Corners of a card ``s`` plane units per mm, turned ``angle`` degrees,
    top-left at ``origin``; ``which`` of them (0 top-left, clockwise).  Each
    corner's edges point along the card's sides; ``top_only_len`` shortens
    the side edges (a card under a stagger shows only a stub of them)."""
    a = np.radians(angle)
    ex, ey = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    w, h = CARD_W * s, CARD_H * s
    o = np.asarray(origin, float)
    pts = [o, o + w * ex, o + w * ex + h * ey, o + h * ey]
    dirs = [(ex, ey), (-ex, ey), (-ex, -ey), (ex, -ey)]
    lens = [(w, h), (w, h), (w, h), (w, h)]
    out = []
    for k in which:
        d1, d2 = dirs[k]
        l1, l2 = lens[k]
        if top_only_len is not None:
            l2 = top_only_len
        out.append(Corner(blob, pts[k], d1, d2, l1, l2))
    return out


@pytest.mark.parametrize("s", [0.45, 1.0, 1.7, 3.2])
def test_a_whole_card_says_its_scale(s):
    got = card_scale(_rect_corners(0, (10, 20), s, angle=17))
    assert got == pytest.approx(s, rel=0.01)


def test_a_staggered_row_with_no_card_lying_whole_says_its_scale():
    """Four cards each 22 mm below the last: every card's top edge runs whole
    from one visible corner to the next; the side edges show only a stub."""
    s = 0.8
    corners = []
    for i in range(4):
        corners += _rect_corners(0, (100, 100 + 22 * s * i), s, which=(0, 1), top_only_len=22 * s)
    assert len(facing_pairs(corners)) == 4
    assert card_scale(corners) == pytest.approx(s, rel=0.01)


def test_widths_alone_are_read_as_widths_near_the_guess():
    """63 units apart, nothing longer: a width at scale 1 or a length at
    0.716; the one nearer the plane's guess wins."""
    corners = []
    for i in range(3):
        corners += _rect_corners(0, (0, 30 * i), 1.0, which=(0, 1), top_only_len=20)
    assert card_scale(corners, prior=1.0) == pytest.approx(1.0, rel=0.01)
    assert card_scale(corners, prior=0.7) == pytest.approx(CARD_W / CARD_H, rel=0.01)


def test_a_pair_with_a_longer_edge_across_is_a_width():
    """A corner whose other edge runs 80 units while the pair is 63 apart:
    the pair cannot be a card's 88 mm length, whatever the prior."""
    corners = _rect_corners(0, (0, 0), 1.0, which=(0, 1), top_only_len=80) + _rect_corners(0, (0, 100), 1.0, which=(0, 1), top_only_len=80)
    assert card_scale(corners, prior=0.7) == pytest.approx(1.0, rel=0.01)


def test_corners_of_different_regions_or_too_few_pairs_say_nothing():
    one = _rect_corners(0, (0, 0), 1.0, which=(0,))
    other = _rect_corners(1, (0, 0), 1.0, which=(1,))
    assert facing_pairs(one + other) == []
    assert card_scale(one + other) is None
    assert card_scale([]) is None
    # one pair alone is not believed
    assert card_scale(_rect_corners(0, (0, 0), 1.0, which=(0, 1), top_only_len=10)) is None


def test_stagger_offsets_do_not_outvote_the_card_sides():
    """Offsets of a stagger (22 mm) between corners facing each other do not
    make a scale: they agree with no card side at the scale the sides give."""
    s = 1.3
    corners = _rect_corners(0, (0, 0), s)
    # two stubs 22 mm apart along a common line, facing each other
    a = Corner(0, np.array([300.0, 0.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 22 * s, 5.0)
    b = Corner(0, np.array([300.0 + 22 * s, 0.0]), np.array([-1.0, 0.0]), np.array([0.0, 1.0]), 22 * s, 5.0)
    assert card_scale(corners + [a, b]) == pytest.approx(s, rel=0.01)


def test_a_photo_with_no_card_lying_whole_takes_its_scale_from_the_cards_edges():
    """A 12-megapixel photo without a mat (generated, seed 1007): no card lies
    whole, and the frame-size guess and its multiples read as many cards at a
    wrong scale as at the right one (one of them a 6 of hearts read as an 8
    of clubs).  The scale the cards' edges give wins that tie: every readable
    card read right, nothing misread."""
    from vision.evaluate import score
    from vision.pipeline import VisionPipeline
    from vision.scene import render_scene

    img, truth = render_scene(4000, 3000, 9, seed=1007, mat=False)
    result = VisionPipeline(use_mat=False, full_marker_scan=True).process(img)
    s = score(result, truth)
    assert s.misread == []
    assert s.read == s.expected == 6


def test_corners_at_one_point_or_not_a_number_say_nothing():
    nan = Corner(0, np.array([np.nan, 0.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0]), 10.0, 10.0)
    same = _rect_corners(0, (0, 0), 1.0, which=(0,)) * 2
    assert facing_pairs([nan, *same]) == []
    assert card_scale([nan, *same]) is None


def test_a_720p_frame_of_stacks_with_no_card_lying_whole_is_also_read_as_spanning_930_mm():
    """720p without a mat (benchmark scene 827, plaid): 11 cards in stacks,
    none lying whole, at 1.2 px/mm, and the cards' edges give no scale.  The
    frame-size guess (700 mm, 1.83 px/mm) read 8 of them; read as spanning
    930 mm too (pipeline.FARTHER), the search keeps that scale, and all 11
    are read right."""
    from vision.evaluate import score
    from vision.pipeline import FARTHER, VisionPipeline, guessed_scale
    from vision.scene import render_scene

    img, truth = render_scene(1280, 720, 4 + 827 % 9, seed=827, mat=False)
    pipe = VisionPipeline()
    s = score(pipe.process(img), truth)
    assert s.misread == []
    assert s.read >= 10 and s.expected == 11
    assert pipe._scale == pytest.approx(guessed_scale(img.shape, 1.0) * FARTHER[0])
