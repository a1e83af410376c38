"""White-bordered backs found as card-sized rings of paper (vision.ringed_backs, #7)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from bench.vision_backs import back_scene
from vision import geometry as g
from vision.cards import Plane
from vision.pipeline import VisionPipeline
from vision.ringed_backs import find_ringed_backs

PPM = 4.0  # work px per mm in the synthetic masks
PLANE = Plane(np.diag([1 / PPM, 1 / PPM, 1.0]), np.diag([PPM, PPM, 1.0]), True)


def _card(mask: np.ndarray, x: float, y: float, border: float = 4.0, hole=None, angle: float = 0.0) -> None:
    """A white-bordered back at (x, y) mm (its top-left corner before turning), drawn into ``mask``."""
    w, h = hole or (g.CARD_W - 2 * border, g.CARD_H - 2 * border)
    centre = (PPM * (x + g.CARD_W / 2), PPM * (y + g.CARD_H / 2))
    outer = cv2.boxPoints((centre, (PPM * g.CARD_W, PPM * g.CARD_H), angle))
    inner = cv2.boxPoints((centre, (PPM * w, PPM * h), angle))
    cv2.fillPoly(mask, [np.int32(np.round(outer))], 255)
    cv2.fillPoly(mask, [np.int32(np.round(inner))], 0)


def _blank() -> np.ndarray:
    return np.zeros((int(300 * PPM), int(400 * PPM)), np.uint8)


def test_a_white_bordered_back_is_one_card_sized_outline():
    for angle in (0.0, 17.0, 90.0):
        mask = _blank()
        _card(mask, 100, 80, angle=angle)
        found = find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask))
        assert len(found) == 1
        sides = sorted(np.hypot(*(found[0] - np.roll(found[0], -1, axis=0)).T))
        assert sides[0] == pytest.approx(g.CARD_W, abs=1.5) and sides[-1] == pytest.approx(g.CARD_H, abs=1.5)
        assert found[0].mean(axis=0) == pytest.approx((100 + g.CARD_W / 2, 80 + g.CARD_H / 2), abs=1.0)


def test_a_marked_back_whose_marker_is_not_read_is_still_a_back():
    # the quiet zone round a marked back's centre marker is paper inside its design, the marker
    # (and its own white cells) inside that
    mask = _blank()
    _card(mask, 100, 80)
    cx, cy = int(PPM * (100 + g.CARD_W / 2)), int(PPM * (80 + g.CARD_H / 2))
    q, m = int(PPM * 17), int(PPM * 14)
    cv2.rectangle(mask, (cx - q, cy - q), (cx + q, cy + q), 255, -1)
    cv2.rectangle(mask, (cx - m, cy - m), (cx + m, cy + m), 0, -1)
    cv2.rectangle(mask, (cx - 20, cy - 12), (cx - 4, cy + 4), 255, -1)
    assert len(find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask))) == 1


def test_backs_touching_edge_to_edge_are_told_apart():
    mask = _blank()
    _card(mask, 100, 80)
    _card(mask, 100 + g.CARD_W, 80)  # their borders run together: one paper region, two holes
    found = sorted(find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask)), key=lambda o: o.mean(axis=0)[0])
    assert len(found) == 2
    assert found[1].mean(axis=0)[0] - found[0].mean(axis=0)[0] == pytest.approx(g.CARD_W, abs=1.5)


def test_rings_that_are_no_back_are_not_taken_for_one():
    # ink in the border (an index corner): a face
    mask = _blank()
    _card(mask, 100, 80)
    cv2.rectangle(mask, (int(PPM * 100.8), int(PPM * 80.8)), (int(PPM * 103), int(PPM * 84)), 0, -1)
    assert find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask)) == []
    # a court card's framed picture (44x70 of 63x88): its margin is no back's border
    mask = _blank()
    _card(mask, 100, 80, hole=(44, 70))
    assert find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask)) == []
    # a face whose framed panel of colour holds its pips as paper (KDE's oxygen deck)
    mask = _blank()
    _card(mask, 100, 80, border=3.0)
    for px, py in ((118, 100), (145, 100), (118, 150), (145, 150)):
        cv2.circle(mask, (int(PPM * px), int(PPM * py)), int(PPM * 4), 255, -1)
    assert find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask)) == []
    # a printed card's square marker
    mask = _blank()
    _card(mask, 100, 80, hole=(40, 40))
    assert find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask)) == []
    # a number card's face: paper between its pips
    mask = _blank()
    cv2.rectangle(mask, (int(PPM * 100), int(PPM * 80)), (int(PPM * (100 + g.CARD_W)), int(PPM * (80 + g.CARD_H))), 255, -1)
    for px, py in ((118, 100), (145, 100), (118, 150), (145, 150), (131, 125)):
        cv2.circle(mask, (int(PPM * px), int(PPM * py)), int(PPM * 4), 0, -1)
    assert find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask)) == []
    # an empty zone a printed mat outlines (a 0.8 mm line, blurred to a few pixels), card-sized
    for line_px in (3, 5):
        mask = _blank()
        cv2.rectangle(mask, (int(PPM * 100), int(PPM * 80)), (int(PPM * 168), int(PPM * 173)), 255, line_px)
        assert find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask)) == []
    # a back cut off by the frame's edge, and one whose border a card or hand breaks
    mask = _blank()
    _card(mask, -10, 80)
    _card(mask, 200, 80)
    cv2.rectangle(mask, (int(PPM * 225), 0), (int(PPM * 240), int(PPM * 90)), 0, -1)
    assert find_ringed_backs(mask, PLANE, VisionPipeline._holes(mask)) == []


def test_backs_of_the_tables_own_colour_are_found_by_their_border():
    # bench.vision_backs scene 37: green white-bordered backs on a green plaid, no mat; the
    # backs finder, which looks for what is not the table, found none of the three loose ones
    img, truth, _ = back_scene(37)
    res = VisionPipeline().process(img)
    ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
    downs = [np.array(s.centre_px) for s in res.sightings if s.kind == "face_down"]
    shown = [c for c in truth.cards if c.kind == "back" and c.visible_fraction > 0.8]
    assert len(shown) >= 3
    for card in shown:
        assert any(np.linalg.norm(d - card.corners_px.mean(axis=0)) < 13.5 * ppm for d in downs)
    # and none on a face
    for card in truth.cards:
        if card.kind == "face":
            assert not any(cv2.pointPolygonTest(np.float32(card.corners_px).reshape(-1, 1, 2), (float(d[0]), float(d[1])), False) >= 0 for d in downs)
