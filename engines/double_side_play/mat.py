"""The Double Side Play playmat: each seat's played card and tricks won, and the trick.

Pure data for the table adapter and for ``companion print mat``.  Millimetres
from the mat's top-left corner, y down.  Seats go clockwise seen from above
(DSP-2.1): seat 0 at the bottom edge, seat 1 at the left, then the top (4
players) and the right.  Every seat's zones are seat 0's turned about the mat
centre by a quarter turn per side, so each player sees the same arrangement;
all of seat 0's zones lie in the centre 420 mm square, so the turned copies
stay on the mat and clear of the 70 mm marker corners.
"""

from __future__ import annotations

from engines.core import MatLayout, Zone

MAT_W = 594.0
MAT_H = 420.0
SEATS = (3, 4)
VARIANTS = ("standard", "trump")

_CX, _CY = MAT_W / 2, MAT_H / 2
# Seat 0 as offsets from the mat centre: (key, label, dx, dy, w, h, kind).
# The played card lies just in front of the trick; the tricks won to the player's right.
_SEAT0 = (
    ("played", "Play your card here", -35.0, 60.0, 70.0, 96.0, "single"),
    ("tricks", "Tricks won (face down)", 123.0, 96.0, 70.0, 96.0, "pile"),
)
# Quarter turns (clockwise seen from above) from the bottom edge to each side.
_SIDES = {3: (0, 1, 3), 4: (0, 1, 2, 3)}


def _turn(dx: float, dy: float, w: float, h: float, quarters: int) -> tuple[float, float, float, float]:
    """A rectangle given by its top-left offset and size, turned ``quarters`` clockwise about the centre."""
    for _ in range(quarters % 4):
        # (x, y) -> (-y, x) on the rectangle's corners: the new top-left is (-(dy + h), dx).
        dx, dy, w, h = -(dy + h), dx, h, w
    return dx, dy, w, h


def facing(seats: int, seat: int) -> float:
    """Which way seat ``seat`` faces, in degrees anticlockwise on the printed mat (0 = the
    bottom edge, 270 = the left edge).  A label turned this way reads upright from that chair."""
    return -90.0 * _SIDES[seats][seat] % 360


def layout(seats: int, variant: str) -> MatLayout:
    """The zones of a Double Side Play mat; ValueError for a seat count or variant the game lacks."""
    if seats not in SEATS:
        raise ValueError(f"Double Side Play is for 3 or 4 players, not {seats}")
    if variant not in VARIANTS:
        raise ValueError(f"Double Side Play has no variant {variant!r}; choose {', '.join(VARIANTS)}")
    zones = [Zone("trick", "Trick: the winner takes it", None, _CX - 50, _CY - 50, 100, 100, "spread")]
    for seat, quarters in enumerate(_SIDES[seats]):
        for key, label, dx, dy, w, h, kind in _SEAT0:
            tx, ty, tw, th = _turn(dx, dy, w, h, quarters)
            zones.append(Zone(f"s{seat}.{key}", label, seat, _CX + tx, _CY + ty, tw, th, kind))  # type: ignore[arg-type]
    return MatLayout(MAT_W, MAT_H, tuple(zones))
