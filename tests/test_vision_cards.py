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


def _card_blob(notch: bool, step: bool = False):
    """A 63 x 88 mm card (2 px/mm, top-left at 50, 30 mm) with ink from its
    top-left corner to its edges (an index printed up to a frame line) cut
    out of its paper, or with a second card stepped beside it."""
    from vision.cards import Plane, find_blobs

    mask = np.zeros((400, 500), np.uint8)
    cv2.rectangle(mask, (100, 60), (226, 236), 255, -1)
    if notch:
        mask[60:100, 100:112] = 0  # 6 x 20 mm of index ink reaching both edges
    if step:
        cv2.rectangle(mask, (112, 72), (238, 248), 255, -1)  # a card 6 mm over, 6 mm down: a step, no notch
        mask[60:72, 226:238] = 0
    plane = Plane(np.diag([0.5, 0.5, 1.0]), np.diag([2.0, 2.0, 1.0]), True)
    (blob,) = find_blobs(mask, plane, min_area_mm2=500)
    return blob


def test_a_corner_notched_by_ink_is_found_where_its_edges_meet_and_set_out():
    from vision.cards import NOTCH_OUTSET, find_notched_corners

    blob = _card_blob(notch=True)
    known = find_corners(0, blob, metric=True)
    assert not any(np.linalg.norm(c.point - (50, 30)) < 4 for c in known)  # the plain finder misses it
    found = find_notched_corners(0, blob, True, known, lambda pts: 0.0)
    assert len(found) == 1
    c = found[0]
    assert np.linalg.norm(c.point - (50 - NOTCH_OUTSET, 30 - NOTCH_OUTSET)) < 1.0
    assert abs(float(np.dot(c.d1, c.d2))) < 0.05
    assert sorted(np.round(np.abs(np.concatenate((c.d1, c.d2)))).tolist()) == [0, 0, 1, 1]
    # the same notch with table in it is a step between two regions, not a corner
    assert find_notched_corners(0, blob, True, known, lambda pts: 1.0) == []


def test_a_plain_card_or_a_step_between_cards_gives_no_notched_corner():
    from vision.cards import find_notched_corners

    plain = _card_blob(notch=False)
    assert find_notched_corners(0, plain, True, find_corners(0, plain, metric=True), lambda pts: 0.0) == []
    step = _card_blob(notch=False, step=True)
    assert find_notched_corners(0, step, True, find_corners(0, step, metric=True), lambda pts: 1.0) == []


def test_grey_paper_counts_on_a_tinted_table_but_not_on_a_grey_one():
    """A card's face in shade is grey, and grey paper is as bright as beige wood: over a table
    whose every tile is tinted (vision.cards.table_tinted) a neutral pixel not darker than the
    table is paper, however little brighter; over a grey table it must still stand out."""
    from vision.cards import paper_mask, table_tinted

    def scene(table):
        img = np.full((120, 160, 3), table, np.uint8)
        img[30:90, 40:100] = (166, 167, 165)  # shaded paper: neutral, 20 levels over the beige
        img[30:90, 110:150] = np.clip(np.array(table) * 0.8, 0, 255).astype(np.uint8)  # the table's shadow
        return img, np.full((3, 4, 3), table, np.uint8)

    beige, bg = scene((110, 130, 146))
    assert table_tinted(bg)
    mask = paper_mask(beige, bg)
    assert mask[35:85, 45:95].all()
    assert not mask[:, :35].any() and not mask[35:85, 115:145].any()  # table and its shadow are not paper
    grey, bg = scene((146, 146, 146))
    assert not table_tinted(bg)
    assert not paper_mask(grey, bg).any()
