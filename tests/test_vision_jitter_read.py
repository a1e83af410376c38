"""Borderline index corners looked at again from jittered placements
(vision.jitter_read) and number-card readings checked against their pips
(vision.pip_check): the rules on made-up evidence, real corners of a
generated scene, and bad inputs."""

from __future__ import annotations

import numpy as np
import pytest

from tests.support.evidence import evidence, probs
from vision import cardart, glyph_model, jitter_read, pip_check, pips
from vision.cards import Plane, find_corners, sample_patch
from vision.corner_index import Evidence, builtin_references, read_patch, read_patch_evidence
from vision.glyph_model import RANK_CLASSES, SUIT_CLASSES
from vision.pipeline import VisionPipeline
from vision.scene import render_scene

needs_nets = pytest.mark.skipif(not glyph_model.available(), reason="glyph network weights missing")


def _ev(rank: dict, suit: dict, red: bool | None = False) -> Evidence:
    return evidence(rank, suit, red, complete=False)


def test_placement_moves_turns_and_scales_the_corner():
    p, u, v = np.array([10.0, 20.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0])
    q, qu, qv = jitter_read.placement(p, u, v, (0.0, 0.0, 0.0, 1.0))
    assert np.allclose(q, p) and np.allclose(qu, u) and np.allclose(qv, v)
    q, qu, qv = jitter_read.placement(p, u, v, (0.5, -0.5, 0.0, 1.0))
    assert np.allclose(q, [10.5, 19.5])
    q, qu, qv = jitter_read.placement(p, u, v, (0.0, 0.0, 90.0, 1.04))
    assert np.allclose(q, p) and np.allclose(qu, [0, 1.04]) and np.allclose(qv, [-1.04, 0])
    assert abs(float(np.dot(qu, qv))) < 1e-9


def test_near_miss_wants_a_sure_rank_and_a_suit_close_to_its_share():
    assert jitter_read.near_miss(_ev({"7": 0.95}, {"spades": 0.8, "clubs": 0.2}))
    assert not jitter_read.near_miss(_ev({"7": 0.3, "1": 0.6}, {"spades": 0.8, "clubs": 0.2}))  # half a 10
    assert not jitter_read.near_miss(_ev({"7": 0.4, "J": 0.4}, {"spades": 0.8, "clubs": 0.2}))  # rank unsure
    assert not jitter_read.near_miss(_ev({"7": 0.95}, {"spades": 0.5, "clubs": 0.5}))  # a coin toss
    assert not jitter_read.near_miss(_ev({"7": 0.95}, {"spades": 0.7, "junk": 0.3}))  # junk
    assert not jitter_read.near_miss(_ev({"7": 0.95}, {"spades": 0.8, "clubs": 0.2}, red=None))  # colour unknown
    assert not jitter_read.near_miss(None)


def test_combined_averages_the_looks_and_keeps_the_templates():
    ev = _ev({"7": 0.9}, {"spades": 0.9, "clubs": 0.1})
    look = (probs(RANK_CLASSES, **{"7": 0.9}), probs(SUIT_CLASSES, spades=0.99, clubs=0.01))
    c = jitter_read.combined(ev, [look])
    assert np.allclose(c.suit_p, (ev.suit_p + look[1]) / 2)
    assert c.template_rank == ev.template_rank and c.glyphs is ev.glyphs


def _scene_corners(seed: int):
    img, _ = render_scene(1280, 720, 8, seed=seed, mat=True)
    pipe = VisionPipeline()
    *_, plane, blobs = pipe._prepare(img)
    return img, plane, [c for bi, b in enumerate(blobs) for c in find_corners(bi, b, plane.metric)]


@needs_nets
def test_read_corner_reads_as_read_patch_except_borderline_patches():
    refs = builtin_references()
    img, plane, corners = _scene_corners(3)
    assert corners
    off = jitter_read.JitterRule(jitters=())
    for c in corners[:12]:
        for u, v in ((c.d1, c.d2), (c.d2, c.d1)):
            patch = sample_patch(img, plane, c.point, u, v)
            base = read_patch(patch, refs)
            r, p = jitter_read.read_corner(img, plane, c.point, u, v, refs)
            assert np.array_equal(p, patch)
            assert jitter_read.read_corner(img, plane, c.point, u, v, refs, off)[0] == base
            r2, ev = read_patch_evidence(patch, refs)
            assert r2 == base
            if base is None and not jitter_read.near_miss(ev):
                assert r is None  # only near misses are looked at again
            if base is not None and r is not None:
                assert (r.rank, r.suit) == (base.rank, base.suit)


@needs_nets
def test_read_corner_on_bad_frames_declines():
    plane = Plane(np.eye(3), np.eye(3), True)
    for frame in (np.zeros((40, 40, 3), np.uint8), np.full((720, 1280, 3), 255, np.uint8)):
        for point in (np.array([0.0, 0.0]), np.array([-50.0, 1e4]), np.array([20.0, 20.0])):
            for s in (0.01, 1.0, 50.0):
                r, patch = jitter_read.read_corner(frame, plane, point, np.array([s, 0.0]), np.array([0.0, s]))
                assert r is None and patch.shape[2] == 3


def _face(rank: str, suit: str) -> pips.PipFace:
    import cv2

    from vision import geometry as g

    art = cardart.card_face(rank, suit, cardart.deck_styles()[0])
    a = art[:, :, 3:4].astype(np.float32) / 255
    bgr = (art[:, :, :3].astype(np.float32) * a + 235 * (1 - a)).astype(np.uint8)
    small = cv2.resize(bgr, (round(g.CARD_W * pips.FACE_PPM), round(g.CARD_H * pips.FACE_PPM)), interpolation=cv2.INTER_AREA)
    return pips.read_face(cv2.GaussianBlur(small, (0, 0), 0.8))


@needs_nets
@pytest.mark.parametrize("rank,suit,other", [("6", "spades", "clubs"), ("8", "diamonds", "hearts"), ("3", "clubs", "spades")])
def test_pips_contradict_a_wrong_count_colour_or_suit_only(rank, suit, other):
    face = _face(rank, suit)
    assert face.why == ""
    assert not pip_check.contradicts(face, rank, suit)
    assert pip_check.contradicts(face, "9" if rank != "9" else "6", suit)  # count
    assert pip_check.contradicts(face, rank, "hearts" if suit in ("spades", "clubs") else "spades")  # colour
    assert pip_check.contradicts(face, rank, other)  # the suit networks pooled over the pips
    assert not pip_check.contradicts(face, "Q", other)  # court cards have no pips to count


@needs_nets
@pytest.mark.parametrize("rank,suit,other", [("6", "spades", "clubs"), ("8", "diamonds", "hearts"), ("3", "clubs", "spades")])
def test_pips_name_their_suit_only_where_the_reading_is_wrong_in_its_suit_alone(rank, suit, other):
    face = _face(rank, suit)
    assert pip_check.pip_suit(face, rank, other) == suit  # the other suit of the colour: the pips' instead
    assert pip_check.pip_suit(face, rank, suit) is None  # nothing wrong
    assert pip_check.pip_suit(face, "9" if rank != "9" else "6", other) is None  # the count is wrong too
    assert pip_check.pip_suit(face, rank, "hearts" if suit in ("spades", "clubs") else "spades") is None  # the colour
    assert pip_check.pip_suit(face, "Q", other) is None


def test_a_face_that_failed_the_pip_tests_says_nothing():
    assert not pip_check.contradicts(pips.PipFace(why="no pips"), "6", "spades")
    assert not pip_check.contradicts(pips.PipFace(), "6", "spades")
    nan = pips.PipFace(pips=tuple(pips.Pip(0, 0, 8, 8, np.zeros(5)) for _ in range(6)), red=False, suit_p=np.full(5, np.nan))
    assert not pip_check.contradicts(nan, "6", "spades")
    assert not pip_check.contradicts(nan, "6", "nonsense")
    assert pip_check.pip_suit(pips.PipFace(why="no pips"), "6", "clubs") is None
    assert pip_check.pip_suit(nan, "6", "clubs") is None
    assert pip_check.pip_suit(nan, "6", "nonsense") is None


def _read_at(point, u, v, rank: str, suit: str):
    from vision.cards import Corner
    from vision.corner_index import IndexReading

    p, u, v = np.asarray(point, float), np.asarray(u, float), np.asarray(v, float)
    return (Corner(0, p, u, v, 63.0, 88.0), IndexReading(rank, suit, 0.9, (0, 0, 1, 1), (0, 0, 1, 1)), u, v)


def test_one_card_read_as_two_of_one_colour_at_its_corners_is_dropped():
    from vision import geometry as g
    from vision.pipeline import _conflicting

    top = _read_at([100, 100], [1, 0], [0, 1], "8", "spades")
    far = [100 + g.CARD_W, 100 + g.CARD_H]
    bottom_club = _read_at(far, [-1, 0], [0, -1], "8", "clubs")
    bottom_spade = _read_at(far, [-1, 0], [0, -1], "8", "spades")
    bottom_heart = _read_at(far, [-1, 0], [0, -1], "8", "hearts")
    assert [x is top or x is bottom_club for x in _conflicting([top, bottom_club])] == [True, True]
    assert _conflicting([top, bottom_spade]) == []  # the same card twice
    assert _conflicting([top, bottom_heart]) == []  # another colour: two cards lying as one (not this rule's)
    # a card beside it, its outline elsewhere
    beside = _read_at([100 + g.CARD_W + 2, 100], [1, 0], [0, 1], "8", "clubs")
    assert _conflicting([top, beside]) == []
    assert _conflicting([]) == []
    nan = _read_at([np.nan, np.nan], [1, 0], [0, 1], "8", "clubs")
    assert _conflicting([top, nan]) == []


def test_two_cards_square_on_each_other_each_read_twice_both_stand():
    """1080p scene 119: a four-index 2 of hearts under a jack of hearts, their outlines one,
    each read at two corners; one reading against two is still one card read two ways."""
    from vision import geometry as g
    from vision.pipeline import _conflicting

    far = [100 + g.CARD_W, 100 + g.CARD_H]
    two = [_read_at([100, 100], [1, 0], [0, 1], "2", "hearts"), _read_at(far, [-1, 0], [0, -1], "2", "hearts")]
    jack = [_read_at([101, 101], [1, 0], [0, 1], "J", "hearts"), _read_at(far, [-1, 0], [0, -1], "J", "hearts")]
    assert _conflicting(two + jack) == []
    # a seven of hearts read as diamonds at two corners and as hearts at a third (720p scene 621)
    sevens = [_read_at([100, 100], [1, 0], [0, 1], "7", "diamonds"), _read_at(far, [-1, 0], [0, -1], "7", "diamonds"),
              _read_at([101, 100], [1, 0], [0, 1], "7", "hearts")]
    assert len(_conflicting(sevens)) == 3


def _sighting(point, u, v, rank: str, suit: str, confidence: float):
    from vision.cards import card_outline
    from vision.pipeline import _Found
    from vision.unread import index_anchor

    p, u, v = np.asarray(point, float), np.asarray(u, float), np.asarray(v, float)
    return _Found("card", card_outline(p, u, v), [index_anchor(p, u, v)], confidence, rank, suit)


@pytest.mark.parametrize("px_per_mm", [1.4, 2.4])
def test_one_card_read_as_a_spade_and_as_a_club_is_kept_once_where_the_glyphs_are_small(px_per_mm):
    """720p scenes 86, 419, 518, 527, 602, 813 and 864: a card's two index corners (or two
    routes to one corner) read as a spade and as a club, reported as two cards.  The surer
    reading stays with both places; at 1080p's scale the two readings stand (two cards)."""
    from vision import geometry as g
    from vision.pipeline import _one_card_spade_and_club

    plane = Plane(np.eye(3), np.diag([px_per_mm, px_per_mm, 1.0]), False)
    far = [100 + g.CARD_W, 100 + g.CARD_H]
    small = px_per_mm < 2.0
    # the two diagonal corners of one card
    top = _sighting([100, 100], [1, 0], [0, 1], "8", "clubs", 0.9)
    bottom = _sighting(far, [-1, 0], [0, -1], "8", "spades", 0.6)
    kept = _one_card_spade_and_club([top, bottom], plane)
    assert [x is top for x in kept] == ([True] if small else [True, False])
    assert len(top.anchors) == (2 if small else 1)
    # the same corner read by two routes
    a, b = _sighting([100, 100], [1, 0], [0, 1], "A", "spades", 0.7), _sighting([101, 101], [1, 0], [0, 1], "A", "clubs", 0.8)
    assert [x is b for x in _one_card_spade_and_club([a, b], plane)] == ([True] if small else [False, True])
    # two cards laid almost square on each other: their indices a few millimetres apart
    under = _sighting([100, 100], [1, 0], [0, 1], "3", "clubs", 0.9)
    over = _sighting([107, 110], [1, 0], [0, 1], "3", "spades", 0.9)
    assert len(_one_card_spade_and_club([under, over], plane)) == 2
    # red suits, other ranks, a card beside: not this rule's
    hearts, diamonds = _sighting([100, 100], [1, 0], [0, 1], "8", "hearts", 0.9), _sighting(far, [-1, 0], [0, -1], "8", "diamonds", 0.6)
    assert len(_one_card_spade_and_club([hearts, diamonds], plane)) == 2
    nine = _sighting(far, [-1, 0], [0, -1], "9", "spades", 0.6)
    assert len(_one_card_spade_and_club([_sighting([100, 100], [1, 0], [0, 1], "8", "clubs", 0.9), nine], plane)) == 2
    beside = _sighting([100 + g.CARD_W + 2, 100], [1, 0], [0, 1], "8", "spades", 0.6)
    assert len(_one_card_spade_and_club([_sighting([100, 100], [1, 0], [0, 1], "8", "clubs", 0.9), beside], plane)) == 2
    assert _one_card_spade_and_club([], plane) == []
