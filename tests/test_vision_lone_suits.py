"""A suit spot with no rank spot over it (vision.lone_suits): the rank's thin
strokes, which the paper mask kept as paper, are found fainter beside it, and
the index is read after every other step (vision.index_pairs.read_lone_suits)."""

import cv2
import numpy as np

import vision.index_pairs as ip
from vision.cards import Plane
from vision.evaluate import _index_spots
from vision.index_pairs import Spots, read_lone_suits
from vision.lone_suits import lone_suit_candidates
from vision.pipeline import VisionPipeline
from vision.scene import render_scene

PX_PER_MM = 1.4  # a 720p frame of the A2 mat


def _page(stroke: bool):
    """White paper (grey 250) with a filled suit (grey 60, 4 mm) and, when
    ``stroke``, a thin rank over it: a 1 px stroke of grey 170 (a blurred
    red J, which the mask keeps as paper), 7 mm tall, ending 1 mm above the suit."""
    gray = np.full((120, 120), 250, np.uint8)
    cv2.circle(gray, (60, 70), 3, 60, -1)
    if stroke:
        cv2.line(gray, (61, 55), (61, 64), 170, 1)
        cv2.line(gray, (61, 64), (57, 65), 170, 1)
    mask = np.where(gray > 120, 255, 0).astype(np.uint8)
    plane = Plane(np.diag([1 / PX_PER_MM, 1 / PX_PER_MM, 1.0]), np.diag([PX_PER_MM, PX_PER_MM, 1.0]), True)
    box = np.array([[57, 67, 7, 7, 45]])
    side = 7 / PX_PER_MM
    spots = Spots(np.array([1]), np.array([[60.5 / PX_PER_MM, 70.5 / PX_PER_MM]]), np.array([[side, 0.0]]), np.array([[0.0, side]]), box)
    return gray, mask, plane, spots


def test_a_suit_whose_rank_the_mask_kept_as_paper_gets_it_found_fainter():
    gray, mask, plane, spots = _page(stroke=True)
    assert mask[55:65, 61].all()  # the stroke is paper to the mask: no spot, no pair
    (k, top, v), *_ = lone_suit_candidates(spots, np.array([True]), gray, mask, plane)
    assert k == 0
    assert np.allclose(v, [0, 1], atol=0.15)  # rank -> suit: down the page
    assert abs(top[1] - 55 / PX_PER_MM) < 1.5  # the patch is placed from the stroke's top


def test_a_suit_with_nothing_faint_beside_it_gives_no_candidate():
    gray, mask, plane, spots = _page(stroke=False)
    assert lone_suit_candidates(spots, np.array([True]), gray, mask, plane) == []


def test_a_lone_suit_where_a_found_card_has_its_index_is_not_read():
    tried = []

    def read_at(corner, u, v):
        tried.append(corner)
        return None, None

    top, v, suit = np.array([50.0, 40.0]), np.array([0.0, 1.0]), np.array([50.0, 47.0])
    plane = Plane(np.eye(3), np.eye(3), True)
    assert read_lone_suits(None, plane, [(top, v, suit)], anchors=[suit + [0.0, 3.0]], read_at=read_at) == []
    assert tried == []
    read_lone_suits(None, plane, [(top, v, suit)], anchors=[suit + [30.0, 0.0]], read_at=read_at)
    assert len(tried) == 1


def _card_read(img, truth, ci) -> bool:
    """Whether a sighting names card ``ci`` at one of its index places (as bench/vision.py scores)."""
    card = truth.cards[ci]
    places = _index_spots(card, truth.homography)
    res = VisionPipeline().process(img)
    return any(
        s.kind == "card" and (s.rank, s.suit) == (card.rank, card.suit) and np.linalg.norm(places[None] - np.array(s.anchors_px)[:, None], axis=2).min() < 9 * 1.4
        for s in res.sightings
    )


def test_a_thin_jack_with_no_paper_corner_is_read_from_its_suit(monkeypatch):
    # 720p bench scene 42: the jack of hearts lies by the table's edge with no
    # right-angled paper corner, and its J (a thin red stroke) is paper to the
    # mask; its heart is a spot no pair takes
    img, truth = render_scene(1280, 720, 4 + 42 % 9, seed=42, mat=True)
    card = truth.cards[5]
    assert (card.rank, card.suit) == ("J", "hearts")
    assert _card_read(img, truth, 5)
    monkeypatch.setattr(ip, "lone_suit_candidates", lambda *a, **k: [])
    assert not _card_read(img, truth, 5)
