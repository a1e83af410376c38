"""Physical sizes, in millimetres, that vision relies on: the card, the mat, the
printed-card layout.  One place, so the generator, the reader and docs agree."""

from __future__ import annotations

# A standard (poker size) playing card.  Bridge cards (57 mm) read too: the
# reader measures the index, not the width.
CARD_W = 63.0
CARD_H = 88.0
CARD_RADIUS = 3.0

# The corner index sits within this box from a card corner (short side x, long side y).
INDEX_BOX_W = 13.0
INDEX_BOX_H = 30.0

# The playmat: A2 landscape, four 50 mm markers whose centres are 40 mm in from
# each corner, ids 0 (top-left), 1 (top-right), 2 (bottom-right), 3 (bottom-left).
MAT_W = 594.0
MAT_H = 420.0
MAT_MARKER = 50.0
MAT_MARKER_INSET = 40.0

# A printed card: one marker in the centre and the same id, smaller, in the
# top-left and (rotated half a turn) bottom-right corner, so the card still reads
# when most of it is covered.
PRINTED_CENTRE_MARKER = 30.0
PRINTED_CORNER_MARKER = 14.0
PRINTED_CORNER_OFFSET = 11.0  # corner marker centre, from both card edges


def mat_marker_centres() -> dict[int, tuple[float, float]]:
    """Centre of each mat marker in mat millimetres (origin top-left, y down)."""
    i = MAT_MARKER_INSET
    return {0: (i, i), 1: (MAT_W - i, i), 2: (MAT_W - i, MAT_H - i), 3: (i, MAT_H - i)}


def mat_marker_corners() -> dict[int, list[tuple[float, float]]]:
    """The 4 corners (marker's own TL, TR, BR, BL) of each mat marker in mat mm.
    The markers are printed upright on the mat."""
    h = MAT_MARKER / 2
    return {k: [(x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)] for k, (x, y) in mat_marker_centres().items()}
