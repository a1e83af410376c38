"""A 3 whose top is a straight bar (as many real decks print it) is a 3,
not a 5: the reader must not take it for a 5 (where the rank networks do,
the templates disagree and it declines), and rank networks trained on
typefaces that draw one (vision.glyph_train's docstring) read it."""

import cv2
import numpy as np
import pytest

from vision import glyph_model
from vision.corner_index import PATCH_H, PATCH_PPM, PATCH_W, extract_glyphs, read_patch
from vision.glyph_train import draw_glyphs, training_fonts
from vision.glyphs import draw_suit

_UP = 8  # drawn this many times finer than the patch, then shrunk (anti-aliased)


def _flat_three_patch(width_mm: float, height_mm: float, stroke_mm: float, ppm: float = PATCH_PPM) -> np.ndarray:
    """An upright corner patch (BGR, PATCH_W x PATCH_H at ``ppm`` px/mm
    sampled back to PATCH_PPM) with a flat-topped 3 over a heart, drawn by
    hand (no typeface): a top bar, a diagonal down to the middle, a bowl."""
    s = ppm * _UP
    big = np.full((int(PATCH_H / PATCH_PPM * s), int(PATCH_W / PATCH_PPM * s), 3), 238, np.uint8)
    red, t = (30, 30, 190), max(1, int(stroke_mm * s))
    x0, y0 = 5.5 - width_mm / 2, 3.0
    w, h = width_mm, height_mm

    def p(x: float, y: float) -> tuple[int, int]:
        return int((x0 + x) * s), int((y0 + y) * s)

    cv2.line(big, p(0.05 * w, 0), p(0.95 * w, 0), red, t)
    cv2.line(big, p(0.95 * w, 0), p(0.4 * w, 0.42 * h), red, t)
    centre, axes = p(0.47 * w, 0.69 * h), (int(0.5 * w * s), int(0.3 * h * s))
    cv2.ellipse(big, centre, axes, 0, -100, 150, red, t)
    suit = np.zeros(big.shape[:2], np.uint8)
    from PIL import Image, ImageDraw

    img = Image.fromarray(suit)
    draw_suit(ImageDraw.Draw(img), "hearts", int(5.5 * s), int((y0 + h + 3.2) * s), int(4.5 * s), 255)
    big[np.asarray(img) > 0] = red
    small = cv2.resize(big, (int(PATCH_W / PATCH_PPM * ppm), int(PATCH_H / PATCH_PPM * ppm)), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (PATCH_W, PATCH_H), interpolation=cv2.INTER_LINEAR)


SHAPES = [(w, h, t, ppm) for w, h in ((3.6, 5.5), (4.2, 6.5), (3.0, 6.0)) for t in (0.55, 0.9) for ppm in (2.0, 4.0)]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_flat_top_three_is_never_read_as_a_five(shape):
    r = read_patch(_flat_three_patch(*shape))
    assert r is None or (r.rank, r.suit) == ("3", "hearts")


def test_the_rank_networks_take_a_flat_top_three_for_a_three():
    tops = []
    for shape in SHAPES:
        gl = extract_glyphs(_flat_three_patch(*shape))
        assert gl is not None
        tops.append(glyph_model.classify_rank(gl.rank_ink, gl.rank_view)[0])
    assert tops.count("3") >= len(SHAPES) - 2, tops
    assert "5" not in tops, tops


def test_training_fonts_can_leave_out_the_machines(tmp_path):
    assert training_fonts((str(tmp_path),), machine=False) == []
    with pytest.raises(ValueError):
        draw_glyphs(3, 1, font_dirs=(str(tmp_path),), machine=False)


def test_draw_glyphs_can_draw_only_some_ranks():
    from vision.glyph_model import RANK_CLASSES

    drawn = draw_glyphs(6, 2, ranks=("J",))
    assert drawn and {RANK_CLASSES[g[3]] for g in drawn} <= {"J", "junk"}
