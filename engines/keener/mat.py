"""The Keener playmat: each player's Commander, Generators, Fighters, Defenses, deck
and discard pile, and the middle where attacks and blocks are made.

Pure data for the table adapter and for ``companion print mat``.  Millimetres
from the mat's top-left corner, y down.  Seat 0 sits at the bottom edge, seat 1
at the top; seat 1's zones are seat 0's turned half a turn about the mat
centre.  The front row (Fighters, Defenses) faces the middle; attacking
Fighters move into the middle zone and blockers are put there facing them
(KN-7), so the middle is shared and the adapter tells the two apart by owner.
An A2 mat is 420 mm high: rows are under 80 mm, so a card's ends overhang its row a
little; a card belongs to the zone that holds its centre.  The four 70 mm
corner squares are kept clear for the calibration markers.
"""

from __future__ import annotations

from engines.core import MatLayout, Zone
from engines.mat_sides import MAT_H, MAT_W, ZoneRow, facing, two_sided  # noqa: F401  (MAT_*, facing: this game's mat API)

SEATS = (2,)
VARIANTS = ("standard",)

# Seat 0, left to right as the player sees it: (key, label, x, y, w, h, kind).
_SEAT0: tuple[ZoneRow, ...] = (
    ("fighters", "Fighters", 75, 247, 270, 76, "spread"),
    ("defenses", "Defenses", 355, 247, 164, 76, "spread"),
    ("generators", "Resource Generators", 75, 328, 200, 77, "spread"),
    ("commander", "Commander", 283, 328, 70, 77, "single"),
    ("deck", "Deck", 363, 328, 70, 77, "pile"),
    ("discard", "Discard pile", 443, 328, 76, 77, "pile"),
)


def layout(seats: int, variant: str) -> MatLayout:
    """The zones of a Keener mat; ValueError for a seat count or variant the game lacks."""
    if seats not in SEATS:
        raise ValueError(f"Keener is for exactly 2 players, not {seats}")
    if variant not in VARIANTS:
        raise ValueError(f"Keener has no variant {variant!r}; choose {', '.join(VARIANTS)}")
    return two_sided([Zone("attack", "Attack: attackers and the blockers facing them", None, 75, 178, 444, 64, "spread")], _SEAT0, seats)
