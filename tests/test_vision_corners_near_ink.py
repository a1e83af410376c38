"""vision.cards: corners whose index ink reaches (nearly) to the card's edge.

Where an index is printed close to the edge, the paper mask keeps no corner
there, or only a broken sliver of paper along the edge, and the plain corner
finder sees none (or one at the index's inner side).  These masks are drawn
at 2 px/mm with a card 63 x 88 mm whose top-left corner is at (50, 30) mm.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards import NOTCH_OUTSET, Plane, find_blobs, find_corners, find_notched_corners

CORNER = np.array([50.0, 30.0])
PLANE = Plane(np.diag([0.5, 0.5, 1.0]), np.diag([2.0, 2.0, 1.0]), True)


def _card() -> np.ndarray:
    mask = np.zeros((400, 500), np.uint8)
    mask[60:236, 100:226] = 255
    return mask


def _blob(mask: np.ndarray):
    (blob,) = find_blobs(mask, PLANE, min_area_mm2=500)
    return blob


def _all_corners(blob, table: float = 0.0):
    known = find_corners(0, blob, metric=True)
    return known, find_notched_corners(0, blob, True, known, lambda pts: table)


def _near(corners, point, r: float = 2.0):
    return [c for c in corners if np.linalg.norm(c.point - point) < r]


def _is_the_corner(c) -> None:
    assert np.linalg.norm(c.point - (CORNER - NOTCH_OUTSET)) < 1.0
    assert abs(float(np.dot(c.d1, c.d2))) < 0.05
    assert sorted(np.round(np.abs(np.concatenate((c.d1, c.d2)))).tolist()) == [0, 0, 1, 1]


@pytest.mark.parametrize(
    "ink",
    [
        (slice(62, 100), slice(100, 112)),  # reaching the side, 1 mm below the top
        (slice(60, 100), slice(102, 112)),  # reaching the top, 1 mm in from the side
    ],
)
def test_an_index_touching_one_edge_gives_its_corner(ink):
    mask = _card()
    mask[ink] = 0
    known, notched = _all_corners(_blob(mask))
    assert not _near(known, CORNER, 4.0)  # the plain finder misses it
    (c,) = _near(notched, CORNER)
    _is_the_corner(c)


def test_a_broken_sliver_of_paper_between_index_and_edge_does_not_hide_the_corner():
    mask = _card()
    mask[61:100, 101:112] = 0  # ink 0.5 mm from both edges: a one-pixel sliver...
    mask[60:61, 106:108] = 0  # ...broken along the top
    known, notched = _all_corners(_blob(mask))
    assert not _near(known, CORNER, 4.0)
    (c,) = _near(notched, CORNER)
    _is_the_corner(c)


def test_a_notch_of_table_is_no_corner():
    mask = _card()
    mask[62:100, 100:112] = 0
    _, notched = _all_corners(_blob(mask), table=1.0)
    assert notched == []


def _stagger(ink: bool, down: int = 6) -> np.ndarray:
    """Card A (the test card) under card B, which lies 20 mm to its right and
    ``down`` mm lower, parted from A by a cut line; with ``ink``, A's index at
    its bottom-left corner reaches both of its edges."""
    mask = _card()
    y0 = 60 + 2 * down
    mask[y0 : y0 + 176, 140:266] = 255
    mask[y0 : y0 + 176, 138:140] = 0  # the cut along B's left edge
    mask[y0 - 2 : y0, 140:266] = 0  # and along its top edge
    if ink:
        mask[196:236, 100:112] = 0  # 6 x 20 mm of ink in A's bottom-left corner
    return mask


def test_a_card_under_a_stagger_shows_its_notched_corner_beside_a_short_stub_of_edge():
    known, notched = _all_corners(_blob(_stagger(ink=True)))
    at = np.array([50.0, 118.0])  # A's bottom-left corner
    assert not _near(known, at, 4.0)
    (c,) = _near(notched, at + (-NOTCH_OUTSET, NOTCH_OUTSET))
    assert abs(float(np.dot(c.d1, c.d2))) < 0.05


@pytest.mark.parametrize("down", [6, 12])
def test_a_stagger_without_ink_gives_no_notched_corner(down):
    # the step between the cards cuts off table
    _, notched = _all_corners(_blob(_stagger(ink=False, down=down)), table=1.0)
    assert notched == []


def test_a_plain_card_gives_no_notched_corner():
    known, notched = _all_corners(_blob(_card()))
    assert len(known) == 4 and notched == []


def test_the_kde_standard_six_of_spades_has_paper_corners_at_both_indices():
    """The case of issue #7: kde/standard's index starts 2 mm from the side,
    and its ink notched the paper at exactly its two index corners."""
    from tests.support.decks import installed_deck
    from vision.cards import table_share_fn
    from vision.pipeline import VisionPipeline
    from vision.scene import render_scene

    deck = installed_deck("kde/standard")
    img, truth = render_scene(1280, 720, 8, seed=4, mat=True, faces=deck)
    (six,) = [c for c in truth.cards if (c.rank, c.suit) == ("6", "spades")]
    pipe = VisionPipeline()
    *_, bg, _mask, plane, blobs = pipe._prepare(img)
    share = table_share_fn(img, plane, bg)
    corners = []
    for bi, b in enumerate(blobs):
        known = find_corners(bi, b, plane.metric)
        corners += known + find_notched_corners(bi, b, plane.metric, known, share)
    px = plane.to_frame(np.array([c.point for c in corners]))
    for k in (0, 2):  # its index corners
        assert np.linalg.norm(px - np.asarray(six.corners_px[k]), axis=1).min() < 6.0
