"""Two guards against the 1080p misreads (#7): the face beside a number
card's index rules out ranks of another shape (vision.near_pip.contradicts_rank),
and a stacked index read from an ink spot must read the same from a patch
moved a little (pipeline.SIBLING_SURE).  Each test is a bench scene
(bench/vision.py's seeds at 1920x1080) that misread before, and fails with its
guard turned off."""

from __future__ import annotations

import dataclasses

import pytest

from vision import corner_index, glyph_model, near_pip, pip_check
from vision import pipeline as pl
from vision.evaluate import score
from vision.pipeline import VisionPipeline
from vision.scene import render_scene

needs_nets = pytest.mark.skipif(not glyph_model.available(), reason="glyph network weights missing")


def _bench_scene(seed: int):
    """bench/vision.py's scene ``seed`` at 1080p: (image, truth)."""
    return render_scene(1920, 1080, 4 + seed % 9, seed=seed, mat=seed % 3 != 2)


def _misread(seed: int) -> list[tuple[str, str]]:
    img, truth = _bench_scene(seed)
    return score(VisionPipeline().process(img), truth).misread


def _glyph_reader_alone() -> corner_index.Thresholds:
    """The reader's thresholds with the whole-patch network never reading alone or pooled."""
    return dataclasses.replace(corner_index.THRESHOLDS, patch_rank=1.01, patch_no_glyphs=1.01, patch_pooled=1.01)


def _no_layout_check(monkeypatch):
    monkeypatch.setattr(near_pip, "contradicts_rank", lambda *a, **k: False)


@needs_nets
@pytest.mark.parametrize(
    "seed,misread",
    [
        (187, ("6 diamonds", "8 diamonds")),  # a bare band under the first row: no 8
        # (scene 218's 5 of hearts read as an 8, the same rule, left this list in session 34:
        # read at the finer no-mat work copy, it is no longer misread with the guard off)
        (797, ("J clubs", "3 clubs")),  # a court card's picture on the column places: no 3
        (793, ("5 diamonds", "6 diamonds")),  # a pip on the middle line at mid-height: no 6
    ],
)
def test_the_face_beside_the_index_declines_a_rank_of_another_shape(seed, misread, monkeypatch, start_glyph_nets):
    # the glyph reader's misreads; the whole-patch network reading alone is
    # kept out (the one trained on more frames, beside these older glyph
    # networks, took scene 218's 5 of hearts for an 8 at a place this
    # guard does not look; with the shipped glyph networks it is read right)
    monkeypatch.setattr(corner_index, "THRESHOLDS", _glyph_reader_alone())
    # the whole face's count is another guard (since session 46 it sees scene 793's 5 of
    # diamonds lying whole, and declines its 6 too): this one is tested alone
    monkeypatch.setattr(pip_check, "contradicts", lambda *a, **k: False)
    assert misread not in _misread(seed)
    _no_layout_check(monkeypatch)
    assert misread in _misread(seed)


@needs_nets
def test_bare_paper_of_a_card_lying_on_it_rules_nothing_out(monkeypatch):
    """Scene 655: an 8 of spades under a 6 of spades, white on white (one paper
    region): the 8's band under its first row is the 6's bare paper, but the 6's
    index shows where no layout prints, so the 8 stands."""
    img, truth = _bench_scene(655)
    s = score(VisionPipeline().process(img), truth)
    assert s.misread == []
    found = s.found
    loose = dataclasses.replace(near_pip.NEAR_PIPS, stray=1.0)
    real = near_pip.contradicts_rank
    monkeypatch.setattr(near_pip, "contradicts_rank", lambda row, rank, t=loose: real(row, rank, t))
    assert score(VisionPipeline().process(img), truth).found < found


@needs_nets
@pytest.mark.parametrize("seed,misread", [(526, ("A diamonds", "4 diamonds")), (933, ("5 hearts", "6 hearts")), (942, ("A spades", "4 spades"))])
def test_a_stacked_index_read_unsure_must_read_again_the_same(seed, misread, monkeypatch, start_glyph_nets):
    # the glyph reader's rule; the whole-patch network reading alone is kept
    # out (scene 526's ace, upside down beside the corner it is sampled from,
    # is a 4 to it and to the glyph networks: docs/vision.md, known weaknesses)
    monkeypatch.setattr(corner_index, "THRESHOLDS", _glyph_reader_alone())
    assert misread not in _misread(seed)
    monkeypatch.setattr(pl, "SIBLING_SURE", 0.0)
    assert misread in _misread(seed)
