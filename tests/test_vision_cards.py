"""vision.cards: the whole-frame steps that the speed work changed keep what they compute."""

import cv2
import numpy as np

from vision.cards import edge_cuts, find_corners, paper_tiles, quarter, split_on_edges
from vision.scene import render_scene


def test_quarter_is_a_4x4_average_to_within_one_grey_level():
    img, _ = render_scene(1280, 720, 8, seed=3, mat=True)
    q = quarter(img)
    ref = cv2.resize(img, (320, 180), interpolation=cv2.INTER_AREA)
    assert q.shape == ref.shape
    assert int(cv2.absdiff(q, ref).max()) <= 1


def test_quarter_of_an_odd_size_has_the_floor_of_a_quarter_of_each_side():
    assert quarter(np.zeros((203, 301, 3), np.uint8)).shape == (50, 75, 3)


def test_split_removes_exactly_the_cuts_from_the_mask():
    img, _ = render_scene(640, 360, 6, seed=5, mat=True)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    mask = np.full(gray.shape, 255, np.uint8)
    mask[:, :50] = 0
    cuts = edge_cuts(gray)
    assert set(np.unique(cuts).tolist()) <= {0, 255}
    assert np.array_equal(split_on_edges(mask, gray), cv2.bitwise_and(mask, cv2.bitwise_not(cuts)))


def test_paper_tiles_of_a_ring_of_paper_do_not_overlap_and_hold_it():
    small = np.full((180, 320, 3), 40, np.uint8)  # a dark table (the quarter copy of 1280x720)
    cv2.rectangle(small, (10, 10), (310, 170), (230, 230, 230), 6)  # a ring of white paper
    bg = np.full((3, 4, 3), 40, np.uint8)
    boxes = paper_tiles(small, bg)
    cover = np.zeros((720, 1280), np.uint8)
    for x0, y0, x1, y1 in boxes:
        assert not cover[y0:y1, x0:x1].any()  # no two boxes overlap
        cover[y0:y1, x0:x1] = 1
    paper = cv2.resize(small, (1280, 720), interpolation=cv2.INTER_NEAREST)[..., 0] > 200
    assert cover[paper].all()
    assert cover.sum() < 0.6 * cover.size  # the hollow middle is left out


def test_a_card_shaped_blob_has_four_right_angled_corners():
    from vision.cards import Plane, find_blobs

    mask = np.zeros((300, 400), np.uint8)
    cv2.rectangle(mask, (100, 60), (226, 236), 255, -1)  # 63 x 88 mm at 2 px/mm
    plane = Plane(np.diag([0.5, 0.5, 1.0]), np.diag([2.0, 2.0, 1.0]), True)
    (blob,) = find_blobs(mask, plane, min_area_mm2=500)
    corners = find_corners(0, blob, metric=True)
    assert len(corners) == 4
    for c in corners:
        assert abs(float(np.dot(c.d1, c.d2))) < 0.05
