"""The edge-free index finder on index layouts other decks use (issue #7):
a turned rank whose box overstates its height, a condensed rank whose thin
strokes the paper mask lost, and light four-colour inks."""

import cv2
import numpy as np

import vision.index_pairs as ip
from tests.test_vision_index_pairs import _spots
from vision.cards import Plane
from vision.index_pairs import Spots, candidate_pairs, colour_contrast, ink_spots, spot_points


def _turned_rect(centre, h: float, w: float, angle: float, ppm: float = 4.0) -> np.ndarray:
    """Pixel centres (in mm) of an h x w mm glyph (h along y) turned by ``angle`` degrees."""
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    g = np.mgrid[-h / 2 : h / 2 : 1 / ppm, -w / 2 : w / 2 : 1 / ppm].reshape(2, -1).T[:, ::-1]  # (x, y)
    return np.asarray(centre) + g @ rot.T


def _spots_of(glyphs) -> Spots:
    """Spots whose boxes are the axis-aligned boxes of these point sets."""
    c = np.array([g.mean(axis=0) for g in glyphs])
    lo = np.array([g.min(axis=0) for g in glyphs])
    hi = np.array([g.max(axis=0) for g in glyphs]) + 0.25
    ex = np.stack((hi[:, 0] - lo[:, 0], np.zeros(len(glyphs))), axis=1)
    ey = np.stack((np.zeros(len(glyphs)), hi[:, 1] - lo[:, 1]), axis=1)
    return Spots(np.arange(1, len(glyphs) + 1), c, ex, ey, np.zeros((len(glyphs), 5), np.int64))


def test_a_tall_rank_turned_45_degrees_pairs_when_measured_from_its_pixels():
    # a condensed rank 10 mm tall and 4.5 mm wide, its suit 5 mm below it, turned
    # 45 degrees: its box is about 14 mm along the card, over RANK_H's 11
    angle = 45.0
    a = np.radians(angle)
    v = np.array([-np.sin(a), np.cos(a)])
    rank = _turned_rect((20.0, 20.0), 10.0, 4.5, angle)
    suit = _turned_rect(np.array([20.0, 20.0]) + 8.0 * v, 5.0, 4.5, angle)
    spots = _spots_of([rank, suit])
    assert spots.extent(0, v) > ip.RANK_H[1]
    assert candidate_pairs(spots, np.zeros(2, bool)) == []
    pts = {0: (rank, 0.25), 1: (suit, 0.25)}
    pairs = candidate_pairs(spots, np.zeros(2, bool), lambda k: pts[k])
    assert pairs and pairs[0][1] == (0,) and pairs[0][2] == 1
    assert np.allclose(pairs[0][4], v, atol=0.05)


def test_measuring_from_pixels_never_makes_a_pip_column_an_index():
    # two 10 mm pips turned 45 degrees, 20 mm apart along the card
    a = np.radians(45.0)
    v = np.array([-np.sin(a), np.cos(a)])
    p1 = _turned_rect((30.0, 30.0), 10.0, 8.0, 45.0)
    p2 = _turned_rect(np.array([30.0, 30.0]) + 20.0 * v, 10.0, 8.0, 45.0)
    spots = _spots_of([p1, p2])
    pts = {0: (p1, 0.25), 1: (p2, 0.25)}
    assert candidate_pairs(spots, np.zeros(2, bool), lambda k: pts[k]) == []


def test_a_rank_part_over_a_taller_suit_is_a_pair():
    # what the paper mask left of a thin condensed rank: 3.8 mm of it, then a
    # 5.5 mm suit 2.5 mm lower (the rank's lost strokes between them)
    spots = _spots([(10, 10, 3.0, 3.8), (10, 17.15, 5.0, 5.5)])
    pairs = candidate_pairs(spots, np.zeros(2, bool))
    assert any(p[1] == (0,) and p[2] == 1 and np.allclose(p[4], [0, 1]) for p in pairs)
    # farther than an index's gap, or a suit over twice its height, is not
    assert candidate_pairs(_spots([(10, 10, 3.0, 3.8), (10, 20.0, 5.0, 5.5)]), np.zeros(2, bool)) == []
    big = candidate_pairs(_spots([(10, 10, 3.0, 3.6), (10, 17.5, 6.5, 7.5)]), np.zeros(2, bool))
    assert all(p[1] != (0,) for p in big)  # (read upwards, the big one is a rank over a small suit)


def test_spot_points_are_the_spots_own_pixels_in_plane_mm():
    mask = np.full((40, 60), 255, np.uint8)
    mask[10:20, 30:34] = 0  # the spot: 4 x 10 work px
    mask[12:14, 36:38] = 0  # another spot inside its grown box is not it
    plane = Plane(np.diag([0.5, 0.5, 1.0]), np.eye(3), True)  # 2 work px per mm
    pts, px = spot_points(mask, plane, (30, 10, 4, 10, 40))
    assert len(pts) == 40 and abs(px - 0.5) < 1e-6
    assert np.isclose(np.ptp(pts[:, 1]) + px, 5.0) and np.isclose(np.ptp(pts[:, 0]) + px, 2.0)


def test_a_yellow_glyph_is_ink_and_a_grey_shadow_is_not():
    frame = np.full((60, 120, 3), 235, np.uint8)
    frame[20:30, 20:28] = (40, 215, 235)  # yellow (BGR): nearly paper in grey
    frame[20:30, 80:88] = (200, 200, 200)  # a soft shadow: every channel a little darker
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    assert int(gray[25, 24]) > 235 - ip.MIN_INK_CONTRAST
    assert colour_contrast(frame, np.eye(3), (20, 20, 8, 10)) >= ip.MIN_INK_CONTRAST
    assert colour_contrast(frame, np.eye(3), (80, 20, 8, 10)) < ip.MIN_INK_CONTRAST
    # as the finder's spot test: holes of both, only the yellow one kept with the frame
    stats = np.array([[0, 0, 120, 60, 0], [20, 20, 8, 10, 80], [80, 20, 8, 10, 80]], np.int32)
    cents = np.array([[60.0, 30.0], [23.5, 24.5], [83.5, 24.5]])
    plane = Plane(np.diag([0.5, 0.5, 1.0]), np.diag([2.0, 2.0, 1.0]), True)
    assert len(ink_spots((stats, cents), plane, gray).centres) == 0
    kept = ink_spots((stats, cents), plane, gray, frame=frame)
    assert kept.labels.tolist() == [1]


def test_two_pips_of_a_column_4_mm_apart_are_no_index():
    # a deck whose pips sit 4.3 mm apart: a 9 mm pip over a 10 mm one (paired,
    # its patch read the neighbouring card's 6 of diamonds on a 9 of clubs)
    spots = _spots([(20, 20, 7.9, 8.8), (20, 33.7, 9.5, 10.0)])
    assert candidate_pairs(spots, np.zeros(2, bool)) == []
