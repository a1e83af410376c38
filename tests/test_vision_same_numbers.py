"""The reader's and the backs finder's shortcuts (#7, speed) give the very numbers
of the plain computations they replace, on random and awkward inputs."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import backs, corner_index, glyph_model
from vision import geometry as g


def _plain_best(refs: corner_index.References, ink: np.ndarray) -> tuple[str, float, float]:
    f = corner_index.feature(ink)
    return refs._best(refs._R, refs._Ra, refs._Rl, f, ink.shape[1] / ink.shape[0])


@pytest.fixture(scope="module")
def refs() -> corner_index.References:
    return corner_index.builtin_references()


def test_bounded_rank_scores_give_the_full_search_answer(refs):
    rng = np.random.default_rng(7)
    inks = [rng.random((int(rng.integers(1, 60)), int(rng.integers(1, 40)))).astype(np.float32) * 255 for _ in range(150)]
    # awkward glyphs: blank, one pixel, a bar, a block, a drawn rank
    inks += [np.zeros((12, 9), np.float32), np.ones((1, 1), np.float32), np.ones((40, 2), np.float32), np.full((9, 30), 200, np.float32)]
    img = np.zeros((40, 30), np.uint8)
    cv2.putText(img, "7", (4, 34), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 255, 3)
    inks.append(img.astype(np.float32))
    for ink in inks:
        assert refs.rank(ink) == _plain_best(refs, ink)


def test_small_template_sets_are_searched_in_full():
    refs = corner_index.References()
    rng = np.random.default_rng(1)
    for label in ("A", "K"):
        refs.add_rank(label, rng.random((20, 14)) * 255)
        refs.add_suit("spades", rng.random((12, 12)) * 255)
    refs.freeze()
    assert refs._bound is None
    ink = rng.random((20, 14)).astype(np.float32)
    assert refs.rank(ink) == _plain_best(refs, ink)


def test_levels_from_one_histogram_are_the_percentiles_asked_apart():
    rng = np.random.default_rng(3)
    for shape in ((1, 1), (3, 200), (120, 52)):
        ink = rng.integers(0, 256, shape, dtype=np.uint8)
        cum = corner_index._cumulative(ink)
        hist = np.cumsum(cv2.calcHist([ink], [0], None, [256], [0, 256]).ravel())
        for fr in ((0.2, 0.99), (0.2, 0.4), (0.0, 1.0)):
            assert corner_index._levels_of(cum, fr) == [float(np.searchsorted(hist, f * hist[-1])) for f in fr]


@pytest.mark.parametrize("n", [1, 2, 3, 4, 9, 10, 257])
def test_median_colour_is_numpys(n):
    rng = np.random.default_rng(n)
    for pixels in (rng.integers(0, 256, (n, 3), dtype=np.uint8), np.full((n, 3), 255, np.uint8), np.zeros((n, 3), np.uint8)):
        want = np.median(pixels.astype(np.float32), axis=0)
        got = corner_index._median_colour(pixels)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def test_glyph_mean_is_numpys():
    rng = np.random.default_rng(5)
    for size in (1, 2, 320, 1001):
        f = ((rng.random(size) - 0.3) * rng.choice([1e-4, 1.0, 1e4])).astype(np.float32)
        assert glyph_model._mean(f) == f.mean() and glyph_model._mean(f).dtype == np.float32


def test_spread_points_are_the_loop_s():
    rng = np.random.default_rng(2)
    for dtype in (np.float64, np.float32):
        for _ in range(50):
            p, u, v = ((rng.normal(size=2) * 300).astype(dtype) for _ in range(3))
            t = np.linspace(0.2, 0.8, 5) * rng.random()
            want = np.array([p + a * g.CARD_W * u + b * g.CARD_H * v for a in t for b in t])
            got = backs._spread(p, u, v, t)
            assert got.dtype == want.dtype and np.array_equal(got, want)


def test_within_keeps_the_outlines_one_by_one_would():
    rng = np.random.default_rng(4)
    middle = np.array([10.0, -5.0])
    assert backs._within([], middle, 150.0) == []
    for k in (1, 2, 12):
        outlines = [(rng.normal(size=(4, 2)) * 200).astype(rng.choice([np.float32, np.float64])) for _ in range(k)]
        want = [c for c in outlines if np.linalg.norm(np.asarray(c) - middle, axis=1).min() < 150.0]
        got = backs._within(outlines, middle, 150.0)
        assert len(got) == len(want) and all(a is b for a, b in zip(got, want, strict=True))
    mixed = [np.zeros((4, 2)), np.ones((5, 2)) * 500]  # outlines of different shapes: one by one
    assert len(backs._within(mixed, middle, 150.0)) == 1


def test_reader_handles_blank_and_tiny_patches():
    blank = np.full((corner_index.PATCH_H, corner_index.PATCH_W, 3), 255, np.uint8)
    assert corner_index.read_patch(blank) is None
    assert corner_index.extract_glyphs(np.zeros((3, 3, 3), np.uint8)) is None
