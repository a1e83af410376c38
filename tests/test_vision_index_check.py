"""Checking that a known card's index shows at a corner (vision.index_check),
the cue that puts a card read only at its far corner on top of the card under
its near corner."""

import numpy as np

from vision.corner_index import PATCH_H, PATCH_W, builtin_references, read_patch
from vision.index_check import shows_index_of
from vision.pipeline import VisionPipeline
from vision.scene import render_scene


def _readable_patches(rank: str, suit: str, seed: int):
    layout = [{"cx": 250, "cy": 200, "angle": 15, "rank": rank, "suit": suit}]
    img, _ = render_scene(1920, 1080, seed=seed, layout=layout, occluders=0, max_tilt=10)
    refs = builtin_references()
    return [p for _, p in VisionPipeline().corner_patches(img) if (r := read_patch(p, refs)) is not None and (r.rank, r.suit) == (rank, suit)]


def test_a_cards_own_index_shows_and_no_other_card_does():
    refs = builtin_references()
    for rank, suit, other in (("Q", "hearts", ("Q", "spades")), ("7", "clubs", ("4", "clubs")), ("K", "diamonds", ("K", "clubs"))):
        patches = _readable_patches(rank, suit, seed=21)
        assert patches, f"{rank} {suit} was not read at any corner"
        for p in patches:
            assert shows_index_of(p, rank, suit, refs)
            assert not shows_index_of(p, *other, refs)  # another colour, or another rank


def test_a_patch_without_an_index_shows_no_card():
    blank = np.full((PATCH_H, PATCH_W, 3), 235, np.uint8)
    assert not shows_index_of(blank, "A", "spades", builtin_references())
