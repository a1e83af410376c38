"""The Double-Edge playmat: where each card of the game lies on the printed A2 mat.

Pure data for the table adapter and for ``companion print mat``.  Millimetres
from the mat's top-left corner, y down.  Seat 0 sits at the bottom edge, seat 1
at the top; seat 1's zones are seat 0's turned half a turn about the mat
centre, so both players see the same arrangement from their chair.  The four
70 mm corner squares are kept clear: they hold the calibration markers; zones
keep 10 mm from the left and right edges and 15 mm from the top and bottom
(docs/printing.md: the printer's margin and the title).
"""

from __future__ import annotations

from engines.core import MatLayout, Zone
from engines.mat_sides import MAT_H, MAT_W, ZoneRow, facing, two_sided  # noqa: F401  (MAT_*, facing: this game's mat API)

SEATS = (2,)
VARIANTS = ("standard", "azbar", "extra-turn")

# Seat 0, left to right as the player sees it.  The Base is a staggered stack of
# three (it grows in the azbar variant), so its zone is tall; the Striker zone is
# as tall because an azbar Gambit spreads several cards there.
_SEAT0: tuple[ZoneRow, ...] = (
    ("discard", "Discard pile", 80, 309, 70, 96, "pile"),
    ("base", "Base (staggered stack)", 170, 263, 70, 142, "stack"),
    ("striker", "Striker", 262, 263, 70, 142, "spread"),
    ("support", "Support", 352, 309, 70, 96, "single"),
    ("indicator", "Indicator", 442, 309, 70, 96, "single"),
)


def layout(seats: int, variant: str) -> MatLayout:
    """The zones of a Double-Edge mat; ValueError for a seat count or variant the game lacks."""
    if seats not in SEATS:
        raise ValueError(f"Double-Edge is for exactly 2 players, not {seats}")
    if variant not in VARIANTS:
        raise ValueError(f"Double-Edge has no variant {variant!r}; choose {', '.join(VARIANTS)}")
    return two_sided([Zone("deck", "Shared deck", None, 262, 164, 70, 92, "pile")], _SEAT0, seats)
