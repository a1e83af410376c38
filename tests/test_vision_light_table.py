"""Ink on a light neutral table: an index whose paper the paper mask misses
(in a hand's shade, a cream face hardly brighter than a white cloth) joins
the table, and only the table's light encloses it as an ink spot for the
edge-free finder and the stacked-index search (vision.pipeline.light_table_holes)."""

import cv2
import numpy as np

from vision import pipeline as pl
from vision.evaluate import score
from vision.pipeline import VisionPipeline, light_table_holes
from vision.scene import render_scene


def _frame(size=(200, 120), table=200):
    gray = np.full(size[::-1], table, np.uint8)
    mask = np.zeros_like(gray)
    cv2.rectangle(mask, (40, 20), (150, 100), 255, -1)  # a card's paper
    gray[30:60, 50:60] = 30  # a glyph inside the paper: a hole of the paper mask already
    gray[30:60, 145:160] = 30  # a glyph across the paper's edge: joined to the table
    mask[30:60, 50:60] = 0
    mask[30:60, 145:160] = 0
    bg = np.full((4, 6, 3), table, np.uint8)
    return gray, mask, bg


def test_only_ink_the_light_table_encloses_is_new():
    gray, mask, bg = _frame()
    own = VisionPipeline._holes(mask)
    assert len(own[0]) == 2  # the background row and the glyph inside the paper
    stats, cents, light = light_table_holes(mask, gray, bg, own)
    assert len(stats) == 1
    x, y, w, h, area = stats[0].tolist()
    assert (x, y, w, h, area) == (145, 30, 15, 30, 450)
    assert light[45, 170] == 255 and light[45, 150] == 0  # the table is light, the glyph is not


def test_shade_darker_than_the_share_is_no_light():
    gray, mask, bg = _frame()
    gray[25:65, 140:] = np.where(gray[25:65, 140:] == 30, 30, int(pl.LIGHT_TABLE_INK * 200) - 10)
    # the glyph lies in a shade (out to the frame's edge) too dark to count as light: still
    # joined to what is not paper, no spot
    stats, _, _ = light_table_holes(mask, gray, bg, VisionPipeline._holes(mask))
    assert len(stats) == 0


def test_cards_by_a_sleeve_on_a_light_table_are_found():
    # seed 809 (720p, no mat, a light grey table): the 5 of clubs and the 3 of hearts
    # lie by a sleeve in its shade; before, neither was found (6 of 11 cards, now 8)
    img, truth = render_scene(1280, 720, 4 + 809 % 9, seed=809, mat=False)
    result = VisionPipeline(reuse_static=False).process(img)
    read = {(s.rank, s.suit) for s in result.sightings if s.kind == "card"}
    assert {("5", "clubs"), ("3", "hearts")} <= read
    s = score(result, truth)
    assert s.found == s.read == 8 and not s.misread and s.false_cards == 0


def test_a_dark_table_gets_no_table_spots(monkeypatch):
    calls = []
    monkeypatch.setattr(pl, "light_table_holes", lambda *a: calls.append(a) or None)
    for seed in (2, 5):  # no mat: felt and wood tables
        img, truth = render_scene(1280, 720, 6, seed=seed, mat=False)
        assert truth.background in ("felt", "wood", "plaid")
        VisionPipeline(reuse_static=False).process(img)
    assert calls == []


def test_a_stacked_index_at_its_papers_edge_on_a_light_table_is_found():
    # seed 842 (720p, no mat, a light grey table): the 10 of clubs lies under another card
    # with its index at its paper's edge; the sibling-index search found it among the
    # table's spots (before: 4 of 7 cards found, now 5)
    img, truth = render_scene(1280, 720, 4 + 842 % 9, seed=842, mat=False)
    result = VisionPipeline(reuse_static=False).process(img)
    assert ("10", "clubs") in {(s.rank, s.suit) for s in result.sightings if s.kind == "card"}
    s = score(result, truth)
    assert s.found == s.read == 5 and not s.misread and s.false_cards == 0
