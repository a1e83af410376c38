"""Declined index corners reported as unknown cards (vision.unread): the rule
on made-up corners, and on generated scenes whose staggered cards the reader
declines (each unknown must lie on a real card, never on the table or a hand)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import geometry as g
from vision.cards import inside
from vision.evaluate import score
from vision.fusion import Look
from vision.index_pairs import CARD_RANK_TOP, CARD_RANK_U, card_corner
from vision.pipeline import UNREAD_CONFIDENCE, VisionPipeline
from vision.scene import render_scene
from vision.unread import UnreadLook, anchor, glyph_centre, pair_looks, suit_shaped, unread_cards

W, H = g.CARD_W, g.CARD_H


def _look(corner: int, point, u=(1, 0), v=(0, 1)) -> Look:
    return Look(corner, np.array(point, float), np.array(u, float), np.array(v, float))


def _on_real_cards(sighting, truth) -> bool:
    """Whether every anchor of ``sighting`` lies on a card of the scene (never the table or a hand)."""
    return all(any(inside(a, c.corners_px) for c in truth.cards) for a in sighting.anchors_px)


def _square(x0, y0, x1, y1) -> np.ndarray:
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float)


def test_an_index_corner_declined_is_one_unknown_card_with_its_outline_and_anchor():
    (c,) = unread_cards([UnreadLook(_look(0, (100, 100)), True)], [])
    assert c.outline == pytest.approx(_square(100, 100, 100 + W, 100 + H))
    assert len(c.anchors) == 1 and c.anchors[0] == pytest.approx([105, 108])


def test_a_corner_without_an_index_layout_is_no_card():
    # a bare corner, a hand's edge: the reader cut no rank and suit there
    assert unread_cards([UnreadLook(_look(0, (100, 100)), False)], []) == []


def test_a_corner_whose_index_lies_on_a_card_found_is_that_card():
    # the bare corner of a card read at its other corner lies inside that card
    found = _square(90, 90, 90 + W, 90 + H)
    assert unread_cards([UnreadLook(_look(0, (100, 100)), True)], [found]) == []
    # an index near another's anchor is the same index (a card found with a placement of its own)
    assert unread_cards([UnreadLook(_look(0, (100, 100)), True)], [], [np.array([107.0, 110.0])]) == []


def test_a_staggered_card_under_a_card_found_is_still_reported():
    # the card above covers most of this one, but not its index corner
    above = _square(115, 20, 115 + W, 20 + H)
    (c,) = unread_cards([UnreadLook(_look(0, (100, 100)), True)], [above])
    assert c.anchors[0] == pytest.approx([105, 108])


def test_two_index_corners_of_one_card_make_one_unknown():
    tl = _look(0, (100, 100))
    br = _look(1, (100 + W, 100 + H), (-1, 0), (0, -1))
    (c,) = unread_cards([UnreadLook(tl, True), UnreadLook(br, True)], [])
    assert len(c.anchors) == 2


def test_of_a_corner_seen_both_ways_the_way_less_like_junk_counts():
    upright = _look(0, (100, 100), (1, 0), (0, 1))
    sideways = _look(0, (100, 100), (0, 1), (1, 0))
    (c,) = unread_cards([UnreadLook(sideways, True, junk=0.9), UnreadLook(upright, True, junk=0.1)], [])
    assert c.outline == pytest.approx(upright.outline())


def test_one_card_at_two_nearby_corners_is_reported_once():
    # a paper corner and a notched corner beside it, their outlines a few mm apart
    a, b = _look(0, (100, 100)), _look(1, (103, 102))
    assert len(unread_cards([UnreadLook(a, True), UnreadLook(b, True)], [])) == 1


def test_corners_that_are_not_numbers_are_skipped():
    bad = _look(0, (np.nan, 100))
    assert unread_cards([UnreadLook(bad, True)], []) == []
    assert unread_cards([], [_square(0, 0, 10, 10)]) == []


def test_anchor_is_where_a_reading_would_be_anchored():
    assert anchor(_look(0, (0, 0), (0, 1), (-1, 0))) == pytest.approx([-8, 5])


@pytest.mark.parametrize("seed", [14, 31, 35])
def test_generated_scenes_unknowns_lie_on_real_cards(seed, start_glyph_nets):
    """Scenes (seeds chosen where the reader declines staggered cards at 720p; seeds 14
    and 35 without a mat; 6 and 8 were, until the pip row beside the index read them,
    7 and 17 until the whole-patch network learnt from frames' patches, 94
    until it was widened in session 31, and 18 until session 54's second
    whole-patch network read its declined card;
    with the glyph networks of then, since the current ones read seed 35's)
    whose every unknown from declined corners lies on a card of the scene."""
    img, truth = render_scene(1280, 720, 4 + (seed % 9), seed=seed, mat=seed % 3 != 2)
    res = VisionPipeline().process(img)
    unread = [s for s in res.sightings if s.kind == "unknown" and s.confidence == UNREAD_CONFIDENCE]
    assert unread, "the scene was chosen for a declined card"
    for s in unread:
        assert _on_real_cards(s, truth)
        # not where a card was read
        for other in res.sightings:
            if other.kind == "card":
                assert min(np.linalg.norm(np.subtract(a, b)) for a in s.anchors_px for b in other.anchors_px) > 3.0


def test_a_way_whose_card_would_lie_over_bare_table_is_not_the_card():
    # the index at a pile's edge: one edge assignment puts the card under the pile,
    # the other over the table beside it (x < 100 here is table)
    under = _look(0, (100, 100), (1, 0), (0, 1))
    beside = _look(0, (100, 100), (-1, 0), (0, 1))

    def table(points: np.ndarray) -> float:
        return float(np.mean(points[:, 0] < 100))

    (c,) = unread_cards([UnreadLook(beside, True, junk=0.1), UnreadLook(under, True, junk=0.5)], [], table_share=table)
    assert c.outline == pytest.approx(under.outline())
    assert unread_cards([UnreadLook(beside, True)], [], table_share=table) == []


def test_an_index_found_by_its_ink_alone_is_looked_at_on_both_sides():
    # the card to the index's right as a read pair's is placed (its corner at (100, 100),
    # the rank's middle 5.5 mm in), and its mirror image about the rank's middle
    corner, u, v = np.array([100.0, 100.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0])
    right, left = pair_looks(-1, corner, u, v)
    assert right.corner == left.corner == -1  # one index: at most one card
    assert right.outline()[:, 0].min() == pytest.approx(100) and right.outline()[:, 0].max() == pytest.approx(100 + W)
    assert left.outline()[:, 0].max() == pytest.approx(111) and left.outline()[:, 0].min() == pytest.approx(111 - W)
    assert anchor(right) == pytest.approx([105, 108]) and anchor(left) == pytest.approx([106, 108])


def test_an_index_found_by_its_ink_alone_is_placed_as_a_read_pair_places_its_card():
    corner, u, v = np.array([100.0, 100.0]), np.array([0.0, 1.0]), np.array([-1.0, 0.0])
    rank_box = (8, 8, 12, 28)  # patch px, 4 px/mm: the rank's middle 3.5 and 5.5 mm in, 7 mm tall
    right, _left = pair_looks(-1, card_corner(corner, u, v, rank_box), u, v)
    rank_mid = corner + 3.5 * u + 5.5 * v
    assert right.point == pytest.approx(rank_mid - CARD_RANK_U * u - (CARD_RANK_TOP + 3.5) * v)


@pytest.mark.parametrize("table_side", ["left", "right"])
def test_an_index_found_by_its_ink_alone_is_the_card_on_the_side_that_is_not_table(table_side):
    corner, u, v = np.array([100.0, 100.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0])
    ways = pair_looks(-1, corner, u, v)
    # the card found on top of it, 15 mm lower (a stagger): either way lies partly under it
    above = np.array([[70.0, 115.0], [140.0, 115.0], [140.0, 203.0], [70.0, 203.0]])

    def table(points: np.ndarray) -> float:
        return float(np.mean(points[:, 0] < 105 if table_side == "left" else points[:, 0] > 105))

    (c,) = unread_cards([UnreadLook(w, True) for w in ways], [above], table_share=table)
    assert c.outline == pytest.approx(ways[0 if table_side == "left" else 1].outline())
    assert len(c.anchors) == 1


@pytest.mark.parametrize("seed", [59])
def test_a_card_shown_only_by_an_index_the_finder_declined_is_reported_unknown(seed):
    """720p scenes (seeds from session 39) where a card's index is seen, but no
    paper corner of its own, and the reader declines the patch the edge-free
    finder placed there: it was reported as nothing, and is now unknown at
    its index, on a real card.  Seed 89 was one until session 54's second
    whole-patch network read its card."""
    img, truth = render_scene(1280, 720, 4 + (seed % 9), seed=seed, mat=seed % 3 != 2)
    res = VisionPipeline().process(img)
    s = score(res, truth)
    assert s.reported_unknown >= 1 and s.false_cards == 0
    for sg in res.sightings:
        if sg.kind == "unknown":
            assert _on_real_cards(sg, truth)


def test_a_suit_glyph_must_be_about_as_wide_as_tall():
    # (x, y, w, h) in patch px: a blurred 720p spade, a wide heart; a sliver of a card's edge
    assert suit_shaped((12, 40, 10, 23)) and suit_shaped((10, 30, 25, 23))
    assert not suit_shaped((33, 14, 3, 10)) and not suit_shaped((19, 69, 3, 26))


def test_an_index_found_by_its_ink_alone_is_judged_at_its_glyphs_middle():
    # where the pipeline asks whether the index lies on a card found (the card itself is placed from its rank)
    # a patch at (100, 100) turned a quarter (u down, v left); glyphs 8-20 px across, 8-56 px down at 4 px/mm
    corner, u, v = np.array([100.0, 100.0]), np.array([0.0, 1.0]), np.array([-1.0, 0.0])
    at = glyph_centre(corner, u, v, (8, 8, 12, 20), (10, 32, 8, 24))
    assert at == pytest.approx([100 - 32 / 4, 100 + 14 / 4])


def test_a_page_of_print_filling_the_frame_gives_no_unknown_card_at_the_frames_corners():
    # the paper's corners there are where the view ends: each was a declined
    # corner with index-like ink (a "10" over a "7") before session 41
    import cv2

    page = np.full((720, 1280, 3), 235, np.uint8)
    for i in range(40):
        cv2.putText(page, "10 7 Q K A 9 8 " * 20, (5, 9 + 18 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (20, 20, 20), 1)
    result = VisionPipeline().process(page)
    frame_corners = np.array([(0, 0), (1279, 0), (0, 719), (1279, 719)], float)
    for s in result.sightings:
        assert s.kind != "card"
        near = np.linalg.norm(np.asarray(s.outline_px)[:, None] - frame_corners[None], axis=2).min()
        assert near > 10, (s.kind, s.outline_px)
