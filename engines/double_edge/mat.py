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

from dataclasses import replace

from engines.core import MatLayout, Zone

MAT_W = 594.0
MAT_H = 420.0
SEATS = (2,)
VARIANTS = ("standard", "azbar", "extra-turn")

# Seat 0, left to right as the player sees it.  The Base is a staggered stack of
# three (it grows in the azbar variant), so its zone is tall; the Striker zone is
# as tall because an azbar Gambit spreads several cards there.
_SEAT0: tuple[tuple[str, str, float, float, float, float, str], ...] = (
    ("discard", "Discard pile", 80, 309, 70, 96, "pile"),
    ("base", "Base (staggered stack)", 170, 263, 70, 142, "stack"),
    ("striker", "Striker", 262, 263, 70, 142, "spread"),
    ("support", "Support", 352, 309, 70, 96, "single"),
    ("indicator", "Indicator", 442, 309, 70, 96, "single"),
)


def _half_turn(zone: Zone) -> Zone:
    return replace(zone, x=MAT_W - zone.x - zone.w, y=MAT_H - zone.y - zone.h)


def facing(seats: int, seat: int) -> float:
    """Which way seat ``seat`` faces, in degrees anticlockwise on the printed mat: 0 for the
    bottom edge, 180 for the top.  A label turned this way reads upright from that chair."""
    return 180.0 * seat


def layout(seats: int, variant: str) -> MatLayout:
    """The zones of a Double-Edge mat; ValueError for a seat count or variant the game lacks."""
    if seats not in SEATS:
        raise ValueError(f"Double-Edge is for exactly 2 players, not {seats}")
    if variant not in VARIANTS:
        raise ValueError(f"Double-Edge has no variant {variant!r}; choose {', '.join(VARIANTS)}")
    zones = [Zone("deck", "Shared deck", None, 262, 164, 70, 92, "pile")]
    for seat in range(seats):
        for key, label, x, y, w, h, kind in _SEAT0:
            zone = Zone(f"s{seat}.{key}", label, seat, x, y, w, h, kind)  # type: ignore[arg-type]
            zones.append(zone if seat == 0 else _half_turn(zone))
    return MatLayout(MAT_W, MAT_H, tuple(zones))
