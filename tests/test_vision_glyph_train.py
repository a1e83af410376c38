"""Drawing training corners for the glyph networks (vision.glyph_train)."""

import numpy as np

from vision import glyph_model
from vision.corner_index import PATCH_H, PATCH_W
from vision.glyph_train import (
    COLOUR_SUITS,
    _corner_tile,
    _photograph,
    _random_style,
    colour_inputs,
    draw_glyphs,
    training_fonts,
)


def test_a_colour_draws_only_its_suits_labelled_in_its_classes():
    glyphs = draw_glyphs(40, 3, colour="red")
    assert glyphs
    assert {glyph_model.SUIT_CLASSES[g[4]] for g in glyphs} <= {"hearts", "diamonds", "junk"}
    X, A, y = colour_inputs(glyphs, True)
    assert len(X) == len(A) == len(y) == sum(g[2] is True for g in glyphs)
    assert set(y.tolist()) <= set(range(len(COLOUR_SUITS[True])))
    # a suit whose ink was taken for the other colour is junk to that colour's network
    black = [(*g[:2], True, g[3], glyph_model.SUIT_CLASSES.index("spades"), *g[5:]) for g in glyphs[:3]]
    assert colour_inputs(black, True)[2].tolist() == [COLOUR_SUITS[True].index("junk")] * 3
    assert len(colour_inputs([], False)[2]) == 0


def test_black_draws_only_black_suits_and_far_ones_still_cut():
    glyphs = draw_glyphs(30, 6, colour="black", low=(1.0, 0.9))
    assert len(glyphs) >= 15
    assert {glyph_model.SUIT_CLASSES[g[4]] for g in glyphs} <= {"spades", "clubs", "junk"}


def test_far_photographs_are_patches_of_the_patch_size():
    rng = np.random.default_rng(2)
    style = _random_style(rng, training_fonts())
    tile = _corner_tile(rng, "Q", "diamonds", style)
    for low in ((1.0, 0.9), (0.0, 0.9), (1.0, 2.0)):
        p = _photograph(rng, tile, low=low)
        assert p.shape == (PATCH_H, PATCH_W, 3) and p.dtype == np.uint8
