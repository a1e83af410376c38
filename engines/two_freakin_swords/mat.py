"""The Two Freakin' Swords playmat: two arm spots per fighter around a circle.

Pure data for the table adapter and for ``companion print mat``.  Millimetres
from the mat's top-left corner, y down.  Fighters sit round an ellipse,
clockwise seen from above (TFS-5.1): fighter 0 at the bottom edge, the next to
their left.  Facing the middle, a fighter's right arm points at the previous
seat and the left arm at the next, so each arm spot lies beside the spot of
the arm it fights: seat ``i``'s right arm next to seat ``i-1``'s left arm.  In
a duel the two pairs lie on the left and right of the mat (TFS-5.2).

A spot is where a card's centre goes (a card laid along the circle is turned,
so no upright rectangle holds all of it): card-shaped, as large as the seat
count allows without touching, from a card and a little (2-5 fighters) down to
about 58 x 42 mm (8 fighters).
"""

from __future__ import annotations

import bisect
import math

from engines.core import MatLayout, Zone

MAT_W = 594.0
MAT_H = 420.0
SEATS = (2, 3, 4, 5, 6, 7, 8)
VARIANTS = ("duel", "free-for-all", "teams")

_CX, _CY = MAT_W / 2, MAT_H / 2
_RX, _RY = 240.0, 145.0  # the ellipse the spot centres lie on
_GAP = 6.0  # at least this much between two spots
_EDGE_X, _EDGE_Y = 10.0, 15.0  # and between a spot and the mat's edges (printer margin, title)
_CORNER = 70.0  # corner squares kept clear for the calibration markers
_LONGEST = 92.0  # a spot is at most a card and a little
_ASPECT = 0.72  # a spot's short side over its long side, about a card's
_SAMPLES = 2880


def _centres(seats: int) -> list[tuple[int, str, float, float, bool]]:
    """(seat, arm, x, y, upright) of every arm spot, spread evenly along the ellipse.

    Seat 0 is at the bottom; seats follow clockwise on the page (y is down, so the
    angle grows clockwise).  A seat's right arm lies a quarter of a seat's share
    of the ellipse before it, the left arm a quarter after, so the two arms of a
    facing pair are as close together as two arms of one fighter.  ``upright``:
    the ellipse runs across the page there, so the spot stands like a card
    in front of a player at a long edge; otherwise it lies on its side.
    """
    ring = []
    for k in range(_SAMPLES + 1):
        t = math.radians(90.0 + 360.0 * k / _SAMPLES)
        ring.append((_CX + _RX * math.cos(t), _CY + _RY * math.sin(t)))
    arc = [0.0]
    for k in range(_SAMPLES):
        arc.append(arc[-1] + math.dist(ring[k], ring[k + 1]))
    perimeter = arc[-1]
    out = []
    for seat in range(seats):
        for arm, sign in (("right", -1), ("left", +1)):
            s = (seat + sign / 4) * perimeter / seats % perimeter
            k = min(bisect.bisect_left(arc, s), _SAMPLES - 1)
            (x, y), (x2, y2) = ring[k], ring[k + 1]
            out.append((seat, arm, x, y, abs(x2 - x) >= abs(y2 - y)))
    return out


def _rects(centres, longest: float) -> list[tuple[float, float, float, float]]:
    short = round(longest * _ASPECT, 1)
    rects = []
    for _, _, x, y, upright in centres:
        w, h = (short, longest) if upright else (longest, short)
        rects.append((round(x - w / 2, 1), round(y - h / 2, 1), w, h))
    return rects


def _fits(rects: list[tuple[float, float, float, float]]) -> bool:
    for i, (x, y, w, h) in enumerate(rects):
        if x < _EDGE_X or y < _EDGE_Y or x + w > MAT_W - _EDGE_X or y + h > MAT_H - _EDGE_Y:
            return False
        if (x < _CORNER or x + w > MAT_W - _CORNER) and (y < _CORNER or y + h > MAT_H - _CORNER):
            return False
        for x2, y2, w2, h2 in rects[i + 1:]:
            if x < x2 + w2 + _GAP and x2 < x + w + _GAP and y < y2 + h2 + _GAP and y2 < y + h + _GAP:
                return False
    return True


def facing(seats: int, seat: int) -> float:
    """Which way fighter ``seat`` faces, in degrees anticlockwise on the printed mat (0 = the
    bottom edge).  A label turned this way reads upright from that place at the table."""
    return -360.0 * seat / seats % 360


def layout(seats: int, variant: str) -> MatLayout:
    """The zones of a Two Freakin' Swords mat; ValueError for a seat count or variant the game lacks."""
    if seats not in SEATS:
        raise ValueError(f"Two Freakin' Swords is for 2 to 8 fighters, not {seats}")
    if variant not in VARIANTS:
        raise ValueError(f"Two Freakin' Swords has no variant {variant!r}; choose {', '.join(VARIANTS)}")
    if variant == "duel" and seats != 2:
        raise ValueError(f"a duel is for exactly 2 fighters, not {seats} (TFS-5.2)")
    if variant != "duel" and seats < 3:
        raise ValueError(f"{variant} is for 3 to 8 fighters; 2 fighters play a duel (TFS-5.3, TFS-5.4)")
    centres = _centres(seats)
    longest = _LONGEST
    while longest > 40.0 and not _fits(_rects(centres, longest)):
        longest -= 2.0
    zones = tuple(
        Zone(f"s{seat}.{arm}", f"{arm.capitalize()} arm", seat, x, y, w, h, "single")
        for (seat, arm, *_), (x, y, w, h) in zip(centres, _rects(centres, longest), strict=True)
    )
    return MatLayout(MAT_W, MAT_H, zones)
