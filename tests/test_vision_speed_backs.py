"""vision.backs' not-table test, rewritten for speed (buffers reused in
place), against the plain form it replaced: the same mask, pixel for pixel."""

import cv2
import numpy as np

from vision import backs
from vision.backs import BRIGHTER, DARKER, OFF_TABLE


def _off_table_plain(img: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """backs._off_table as it was before the rewrite (commit 43298ad)."""
    b, g, r = (c.astype(np.float32) for c in cv2.split(img))
    bb, bg_, br = cv2.split(bg)
    nn = np.maximum(bb * bb + bg_ * bg_ + br * br, 1.0)
    dot = b * bb + g * bg_ + r * br
    m = np.minimum(np.minimum(b, g), r)
    cb, cg, cr = b - m, g - m, r - m
    bm = np.minimum(np.minimum(bb, bg_), br)
    bcb, bcg, bcr = bb - bm, bg_ - bm, br - bm
    bnorm = np.sqrt(bcb * bcb + bcg * bcg + bcr * bcr)
    scale = np.where(bnorm > 10, 1.0 / np.maximum(bnorm, 1.0), 0).astype(np.float32)
    along = (cb * bcb + cg * bcg + cr * bcr) * scale
    off2 = cb * cb + cg * cg + cr * cr - along * along
    mask = (off2 > OFF_TABLE * OFF_TABLE) | (dot < DARKER * nn) | (dot > BRIGHTER * nn)
    return mask.astype(np.uint8) * 255


def test_off_table_matches_plain_form():
    rng = np.random.default_rng(7)
    for trial in range(60):
        h, w = int(rng.integers(1, 40)), int(rng.integers(1, 90))
        # a table colour per pixel: grey (no hue), coloured, dark, or bright, smoothly varying
        base = rng.uniform(0, 255, 3) if trial % 3 else np.full(3, rng.uniform(0, 255))
        bg = (base + rng.normal(0, 6 if trial % 2 else 0.5, (h, w, 3))).clip(0, 255).astype(np.float32)
        # pixels near the table's colour (the thresholds' edges) and anywhere
        near = (bg + rng.normal(0, 20, (h, w, 3))).clip(0, 255)
        anywhere = rng.uniform(0, 255, (h, w, 3))
        img = np.where(rng.random((h, w, 1)) < 0.7, near, anywhere).round().astype(np.uint8)
        assert np.array_equal(backs._off_table(img, bg), _off_table_plain(img, bg)), trial


def _strengths_plain(view: np.ndarray, horizontal: bool, lo: int, hi: int, a0: int, a1: int) -> np.ndarray:
    """backs._strengths as it was before the rewrite (commit 43298ad)."""
    half = int(round(1.5 * backs.VIEW_PPM))
    lo, hi = max(lo - half, 0), min(hi + half + 1, view.shape[0] if horizontal else view.shape[1])
    if hi - lo < 2 * half + 1:
        return np.zeros((3, 1), np.float32)
    bounds = np.linspace(a0, a1, 4).round().astype(int)
    band = view[lo:hi, bounds[0] : bounds[3]] if horizontal else view[bounds[0] : bounds[3], lo:hi].swapaxes(0, 1)
    prof = np.add.reduceat(band, bounds[:3] - bounds[0], axis=1, dtype=np.float32)
    prof = (prof / np.diff(bounds).astype(np.float32)[None, :, None]).swapaxes(0, 1)
    step = np.abs(prof[:, 2 * half :] - prof[:, : -2 * half]).max(axis=2)
    line = np.abs(prof[:, half:-half] - (prof[:, 2 * half :] + prof[:, : -2 * half]) / 2).max(axis=2)
    return np.maximum(step, line)


def test_strengths_match_plain_form():
    rng = np.random.default_rng(11)
    for trial in range(80):
        h, w = int(rng.integers(20, 200)), int(rng.integers(20, 200))
        view = rng.integers(0, 256, (h, w, 3)).astype(np.uint8)
        if trial % 2:  # a step and a line, as a card's edge makes
            view[:, w // 3 :] //= 3
            view[:, w // 2] = 255
        horizontal = bool(trial % 3)
        across, along = (h, w) if horizontal else (w, h)
        lo = int(rng.integers(0, across - 1))
        hi = int(rng.integers(lo, across))
        a0 = int(rng.integers(0, along // 2))
        a1 = int(rng.integers(a0 + 3, along + 1))
        got, want = backs._strengths(view, horizontal, lo, hi, a0, a1), _strengths_plain(view, horizontal, lo, hi, a0, a1)
        assert got.shape == want.shape and np.array_equal(got, want), trial
        if got.shape[1] >= 3:
            k = int(np.median(got.argmax(axis=1)))
            assert np.array_equal(backs._on_one_line(got), got[:, max(k - 1, 0) : k + 2].max(axis=1))


def test_outline_centre_is_the_outline_mean():
    from vision.cards import card_outline

    rng = np.random.default_rng(5)
    for _ in range(3000):
        p = rng.normal(0, 300, 2) * rng.choice([1e-3, 1.0, 1e3])
        u, v = rng.normal(size=2), rng.normal(size=2)
        assert np.array_equal(backs._outline_centre(p, u, v), card_outline(p, u, v).mean(axis=0))
    # other vectors than float64 pairs go the plain way
    p32 = np.float32([10.5, 3.25])
    assert np.array_equal(backs._outline_centre(p32, np.float32([1, 0]), np.float32([0, 1])), card_outline(p32, np.float32([1, 0]), np.float32([0, 1])).mean(axis=0))
