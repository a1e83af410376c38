"""The places of cards missing from a staggered stack's run of indices (#7).

A Double-Edge Base is a column of cards each laid a step further along the
one below, so that only a band at each card's end shows, with its index.
Where a card's index ink runs into something dark (its court picture's
frame, the edge of the card above, a pip of the card below), no ink spot
marks it, and neither the sibling step nor the edge-free finder
(vision.index_pairs) ever places a patch there; yet the cards read above
and below it say where it lies: the run's steps are about even, and a gap
of two steps between two cards read is a card not read.

Pure geometry: the pipeline gives the cards read (corner and inward edge
directions, plane mm) and reads the places returned."""

from __future__ import annotations

import numpy as np

#: two cards lie the same way when their edges' directions agree this well (cosine)
SAME_WAY = 0.995
#: a card lies on the run's line this far off it at most (mm, plus LINE_SLOPE of the distance along it)
LINE_MM = 4.0
LINE_SLOPE = 0.15
#: a stack's step along the run, mm: shorter than an index, the next card covers it;
#: longer than most of a card, there is no run
STEP_MM = (10.0, 60.0)
#: a gap is this many steps when it is within this share of a step of the whole number
#: (steps laid by hand are uneven: in the photo bench's scene 1000 a gap of two steps
#: measured 2.33 of the shortest)
STEP_SLACK = 0.35
#: the places tried for each missing card, mm along the run from the even step's place
TRY_MM = (0.0, -2.0, 2.0)
#: the most cards a gap may be missing
MAX_MISSING = 3

#: a card's index corner and its inward edge directions (u along the short edge), plane mm
Place = tuple[np.ndarray, np.ndarray, np.ndarray]


def gap_corners(cards: list[Place]) -> list[list[Place]]:
    """Where the cards missing from runs of ``cards`` (the places they were
    read at) would have their index corner, with their edge directions: in a run of
    three or more cards lying the same way along one edge, each gap that is
    a whole number (2 or more) of the run's shortest step holds that many
    less one cards, evenly spaced.  Each missing card gets its places to
    try, the even step's first (:data:`TRY_MM`)."""
    out: list[list[Place]] = []
    for axis in (1, 0):  # a column along the long edge, then a row along the short one
        for run in runs(cards, axis):
            _, u, v = cards[run[0]]
            e = v if axis else u
            run.sort(key=lambda k: float(cards[k][0] @ e))
            corners = [cards[k][0] for k in run]
            gaps = [float((q - p) @ e) for p, q in zip(corners, corners[1:], strict=False)]
            steps = [s for s in gaps if STEP_MM[0] <= s <= STEP_MM[1]]
            if not steps:
                continue
            step = min(steps)
            for p, q, gap in zip(corners, corners[1:], gaps, strict=False):
                k = round(gap / step)
                if 2 <= k <= MAX_MISSING + 1 and abs(gap / step - k) <= STEP_SLACK:
                    out += [[(p + (q - p) * m / k + t * e, u, v) for t in TRY_MM] for m in range(1, k)]
    return out


def runs(cards: list[Place], axis: int) -> list[list[int]]:
    """The runs of three or more ``cards`` (as gap_corners takes them) lying
    the same way with their corners on one line along their long edge
    (``axis`` 1) or short edge (0): groups of card positions, each joined to
    the group by one card at least."""
    n = len(cards)
    parent = list(range(n))
    for i in range(n):
        p, u, v = cards[i]
        for j in range(i + 1, n):
            q, u2, v2 = cards[j]
            if float(u @ u2) < SAME_WAY or float(v @ v2) < SAME_WAY:
                continue
            d = q - p
            along, across = (float(d @ v), float(d @ u)) if axis else (float(d @ u), float(d @ v))
            if abs(across) <= LINE_MM + LINE_SLOPE * abs(along):
                parent[_root(parent, j)] = _root(parent, i)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(_root(parent, i), []).append(i)
    return [g for g in groups.values() if len(g) >= 3]


def _root(parent: list[int], i: int) -> int:
    """The representative of ``i``'s group (union-find, paths halved)."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i
