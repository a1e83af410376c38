"""The playmat's size and the layout of two-player mats, shared by every game's ``mat.py``.

The mat is A2 (594 x 420 mm), the size vision calibrates against (vision/geometry.py
holds the same numbers; engines do not import vision).  Two-player games seat
seat 0 at the bottom edge and seat 1 at the top, with seat 1's zones those of
seat 0 turned half a turn about the mat's centre, so both players see the
same mat from their chair.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from engines.core import MatLayout, Zone

MAT_W = 594.0
MAT_H = 420.0

ZoneRow = tuple[str, str, float, float, float, float, str]
"""(key, label, x, y, w, h, kind) of one of seat 0's zones; its id becomes ``s<seat>.<key>``."""


def half_turn(zone: Zone) -> Zone:
    """The zone turned half a turn about the mat's centre (seat 1's copy of a seat 0 zone)."""
    return replace(zone, x=MAT_W - zone.x - zone.w, y=MAT_H - zone.y - zone.h)


def facing(seats: int, seat: int) -> float:
    """Which way seat ``seat`` faces, in degrees anticlockwise on the printed mat: 0 for the
    bottom edge, 180 for the top.  A label turned this way reads upright from that chair."""
    return 180.0 * seat


def two_sided(shared: Iterable[Zone], seat0: Iterable[ZoneRow], seats: int = 2) -> MatLayout:
    """The shared zones plus seat 0's rows and seat 1's half-turned copies of them."""
    zones = list(shared)
    rows = tuple(seat0)
    for seat in range(seats):
        for key, label, x, y, w, h, kind in rows:
            zone = Zone(f"s{seat}.{key}", label, seat, x, y, w, h, kind)  # type: ignore[arg-type]
            zones.append(zone if seat == 0 else half_turn(zone))
    return MatLayout(MAT_W, MAT_H, tuple(zones))
