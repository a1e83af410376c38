"""Two looks at one card (vision.fusion): the pooling rule on made-up evidence,
and on a generated scene whose card the reader declines at every corner alone."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import corner_index, patch_model
from vision import geometry as g
from vision.corner_index import Evidence, Glyphs
from vision.evaluate import _index_spots
from vision.fusion import FUSION, Look, card_groups, fuse, pooled, same_card
from vision.glyph_model import RANK_CLASSES, SUIT_CLASSES
from vision.pipeline import VisionPipeline
from vision.scene import render_scene

W, H = g.CARD_W, g.CARD_H
#: the glyph networks and templates alone (the whole-patch network not asked)
GLYPHS_ONLY = dataclasses.replace(FUSION, whole_min=0.0, whole_weight=0.0)


def _probs(classes, **p) -> np.ndarray:
    out = np.full(len(classes), 1e-4)
    for k, v in p.items():
        out[classes.index(k)] = v
    return out / out.sum()


def _ev(
    rank: dict, suit: dict, red: bool | None = False, template_rank: str = "5", template_suit: str = "spades", split: float = 0.05, whole=None
) -> Evidence:
    gl = Glyphs(np.ones((8, 6), np.float32), np.ones((6, 6), np.float32), red, (2, 2, 6, 8), (2, 12, 6, 6))
    return Evidence(gl, _probs(RANK_CLASSES, **rank), _probs(SUIT_CLASSES, **suit), template_rank, 0.85, template_suit, 0.8, split, complete=True, whole=whole)


def _whole(rank: dict, suit: dict):
    return _probs(patch_model.RANK_CLASSES, **rank), _probs(patch_model.SUIT_CLASSES, **suit)


def _look(corner: int, point, u, v) -> Look:
    return Look(corner, np.array(point, float), np.array(u, float), np.array(v, float))


def test_pooled_is_the_renormalised_product():
    p = pooled([np.array([0.6, 0.4]), np.array([0.6, 0.4])])
    assert p == pytest.approx([0.36 / 0.52, 0.16 / 0.52])


def test_diagonal_corners_are_one_card_only_the_way_that_turns_both_upright():
    tl = _look(0, (100, 100), (1, 0), (0, 1))
    br = _look(1, (100 + W, 100 + H), (-1, 0), (0, -1))
    assert same_card(tl, br)
    # the same corner with its edges swapped implies a card lying the other way
    assert not same_card(tl, _look(1, (100 + W, 100 + H), (0, -1), (-1, 0)))
    # a corner of another card, a card's width along
    assert not same_card(tl, _look(1, (100 + W, 100), (1, 0), (0, 1)))


def test_four_index_neighbours_are_one_card_and_a_corner_joins_once():
    tl = _look(0, (0, 0), (1, 0), (0, 1))
    tr = _look(1, (W, 0), (-1, 0), (0, 1))
    tr_swapped = _look(1, (W, 0), (0, 1), (-1, 0))
    bl = _look(2, (0, H), (1, 0), (0, -1))
    groups = card_groups([tl, tr, tr_swapped, bl])
    assert groups == [[0, 1, 3]]


def test_corners_that_lean_the_same_way_read_together():
    # seed 29's five of spades: each corner alone is split between spades and clubs
    evs = [_ev({"5": 0.99}, {"spades": p, "clubs": 1 - p}) for p in (0.94, 0.6, 0.6, 0.37)]
    r = fuse(evs, GLYPHS_ONLY)
    assert (r.rank, r.suit) == ("5", "spades")
    # a fused reading says it is less sure than a sure single read (decide's 0.7 and more)
    assert r.confidence < 0.6


def test_corners_that_disagree_are_declined():
    a = _ev({"5": 0.99}, {"spades": 0.9, "clubs": 0.1})
    b = _ev({"5": 0.93}, {"spades": 0.26, "clubs": 0.74})
    assert fuse([a, b], GLYPHS_ONLY) is None
    # another rank seen outright at one corner vetoes, however sure the other is
    assert fuse([_ev({"8": 0.99}, {"spades": 0.99}), _ev({"6": 0.9, "8": 0.1}, {"spades": 0.99})], GLYPHS_ONLY) is None


def test_ink_colour_must_agree_and_be_known():
    a = _ev({"5": 0.99}, {"hearts": 0.85, "diamonds": 0.15}, red=True, template_suit="hearts")
    assert fuse([a, dataclasses.replace(a, glyphs=dataclasses.replace(a.glyphs, red=False))], GLYPHS_ONLY) is None
    unknown = dataclasses.replace(a, glyphs=dataclasses.replace(a.glyphs, red=None))
    assert fuse([unknown, unknown], GLYPHS_ONLY) is None
    assert fuse([a, a], GLYPHS_ONLY) is not None


def test_templates_may_veto_the_suit_and_must_find_the_rank():
    evs = [_ev({"5": 0.99}, {"spades": 0.8, "clubs": 0.2}, template_suit="clubs", split=0.3)] * 2
    assert fuse(evs, GLYPHS_ONLY) is None
    evs = [_ev({"5": 0.99}, {"spades": 0.8, "clubs": 0.2}, template_rank="6")] * 2
    assert fuse(evs, GLYPHS_ONLY) is None
    assert fuse([_ev({"5": 0.99}, {"spades": 0.99})], GLYPHS_ONLY) is None  # one look is the reader's business


def test_the_whole_patch_network_must_see_the_same_card():
    # seed 60's seven of clubs: both corners and the templates lean to spades; the
    # whole-patch network does not (its suit share under 0.8), so nothing is read
    evs = [_ev({"7": 0.99}, {"spades": p, "clubs": 1 - p}, template_rank="7", whole=_whole({"7": 0.9}, {"spades": 0.45, "clubs": 0.55})) for p in (0.79, 0.88)]
    assert fuse(evs, GLYPHS_ONLY) is not None
    assert fuse(evs) is None
    sure = [dataclasses.replace(e, whole=_whole({"7": 0.95}, {"spades": 0.9, "clubs": 0.1})) for e in evs]
    assert (fuse(sure).rank, fuse(sure).suit) == ("7", "spades")
    # without its looks nothing is read while it is asked
    assert fuse([dataclasses.replace(e, whole=None) for e in sure]) is None


def test_a_card_declined_at_every_corner_is_read_from_all_of_them(monkeypatch):
    # bench/vision.py's scene 188 (4 cards on the mat): the three of spades shows
    # index corners that are each declined alone
    img, truth = render_scene(1280, 720, 4, seed=188, mat=True)
    card = next(c for c in truth.cards if (c.rank, c.suit) == ("3", "spades"))
    spots = _index_spots(card, truth.homography)  # where a reading of each index corner is placed

    def sightings(pipe):
        return [s for s in pipe.process(img).sightings if s.kind == "card" and (s.rank, s.suit) == ("3", "spades")]

    # the whole-patch network reads one of its corners alone since it learnt
    # from frames' patches too; kept out here, fusion is what this asks
    (alone,) = sightings(VisionPipeline(fusion=None))
    assert alone.confidence >= 0.6  # over any fused reading's
    monkeypatch.setattr(corner_index, "THRESHOLDS", dataclasses.replace(corner_index.THRESHOLDS, patch_rank=1.01, patch_pooled=1.01))
    # (its first row of pips shows too: vision.near_pip reads it without fusion)
    with monkeypatch.context() as m:
        m.setattr(VisionPipeline, "_near_pip_cards", lambda *a, **k: [])
        assert sightings(VisionPipeline(fusion=None)) == []
    (s,) = sightings(VisionPipeline())
    assert s.confidence < 0.6
    # one sighting with its anchors at the corners it was read from
    assert len(s.anchors_px) >= 2
    for a in s.anchors_px:
        assert np.min(np.linalg.norm(spots - np.array(a), axis=1)) < 15
