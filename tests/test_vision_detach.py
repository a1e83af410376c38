"""Index glyphs joined to the table beyond the card's edge: the component
touches the patch's border with the table and was never a glyph to the
reader (vision.corner_index._detached cuts it loose when no index layout was
found otherwise)."""

import numpy as np

from vision import corner_index as ci
from vision.evaluate import score
from vision.pipeline import VisionPipeline
from vision.scene import render_scene


def _binary():
    """A patch's ink: the table reaching in along the left border, a rank's
    stroke touching it, a suit glyph below with paper all round."""
    b = np.zeros((ci.PATCH_H, ci.PATCH_W), np.uint8)
    b[:, :8] = 1  # the table beyond the card's edge, 2 mm wide
    b[10:40, 12:15] = 1  # a stroke 3 px wide,
    b[10:13, 8:12] = 1  # touching it at its top
    b[50:70, 20:40] = 1  # a solid suit, wider than the opening
    return b


def test_a_stroke_is_cut_loose_from_the_table():
    out = ci._detached(_binary())
    assert out is not None
    assert not out[:, :8].any()  # the table is gone
    assert out[10:40, 12:15].all() and not out[10:13, 8].any()  # the stroke stays, but not the pixel by the table
    assert (out[50:70, 20:40] == 1).all()  # the suit's solid middle does not reach the border: kept


def test_nothing_reaches_in_from_the_border():
    b = _binary()
    b[:, :8] = 0
    assert ci._detached(b) is None


def test_a_thin_line_at_the_border_is_no_region():
    # a hairline (the card's own edge, 1 px) is thinner than the opening: nothing to detach
    b = np.zeros((ci.PATCH_H, ci.PATCH_W), np.uint8)
    b[:, 0] = 1
    b[10:40, 1:4] = 1  # a stroke along it
    assert ci._detached(b) is None


def test_a_three_by_the_table_is_read():
    # 1080p scene 103: the 3 of clubs lies under the 2 of clubs, its index against the table's
    # edge; the 3's top joined the blue table in the patch the edge-free finder placed, so no
    # index layout was cut and it was not found (6 of 7 cards, now 7)
    img, truth = render_scene(1920, 1080, 4 + 103 % 9, seed=103, mat=103 % 3 != 2)
    result = VisionPipeline(reuse_static=False).process(img)
    assert ("3", "clubs") in {(s.rank, s.suit) for s in result.sightings if s.kind == "card"}
    s = score(result, truth)
    assert s.found == s.read == s.expected == 7 and not s.misread and s.false_cards == 0
