"""The ガンナガン playmat: each player's two gun decks and what is loaded in each gun,
the cards played from the hand, set responses, the voltage area and the trash.

Pure data for the table adapter and for ``companion print mat``.  Millimetres
from the mat's top-left corner, y down.  Zones follow GG-1.4: the hand stays
in the hand (no zone); guns are 0 and 1 as in the moves (GG-1.2).  Seat 0 sits
at the bottom edge, seat 1 at the top; seat 1's zones are seat 0's turned half
a turn about the mat centre.  The four 70 mm corner squares are kept clear for
the calibration markers.  The players' own cards are used, so the zones are
sized for standard cards.
"""

from __future__ import annotations

from engines.core import MatLayout
from engines.mat_sides import MAT_H, MAT_W, ZoneRow, facing, two_sided  # noqa: F401  (MAT_*, facing: this game's mat API)

SEATS = (2,)
VARIANTS = ("standard", "double-edge")

# Seat 0, left to right as the player sees it: (key, label, x, y, w, h, kind).
# Front row (towards the opponent): cards played from the hand; back row: the guns.
_SEAT0: tuple[ZoneRow, ...] = (
    ("action", "Action played (行動)", 20, 216, 90, 92, "single"),
    ("function", "Function area (機能)", 120, 216, 170, 92, "spread"),
    ("response", "Set responses, face down (対応, at most 2)", 300, 216, 150, 92, "spread"),
    ("trash", "Trash", 460, 216, 110, 92, "pile"),
    ("deck0", "Gun 0 deck", 75, 313, 68, 92, "pile"),
    ("loaded0", "Gun 0 loaded (装填)", 149, 313, 84, 92, "stack"),
    ("voltage", "Voltage area (ボルテージ)", 239, 313, 116, 92, "spread"),
    ("loaded1", "Gun 1 loaded (装填)", 361, 313, 84, 92, "stack"),
    ("deck1", "Gun 1 deck", 451, 313, 68, 92, "pile"),
)


def layout(seats: int, variant: str) -> MatLayout:
    """The zones of a ガンナガン mat; ValueError for a seat count or variant the game lacks."""
    if seats not in SEATS:
        raise ValueError(f"ガンナガン is for exactly 2 players, not {seats}")
    if variant not in VARIANTS:
        raise ValueError(f"ガンナガン has no variant {variant!r}; choose {', '.join(VARIANTS)}")
    return two_sided([], _SEAT0, seats)
