"""Card corners from edge segments, for a table nearly as bright as the cards (#7).

Paper is found by being brighter than the table (vision.cards.paper_mask).
On a white table nearly as bright as the cards' paper that fails: the
paper is hardly above the table, and what shows a card is its edge and
the shadow it casts.  Here straight edge segments (Canny, then a
probabilistic Hough transform) are paired where two of them, each at
least ``MIN_EDGE_MM`` long, end near one point at about a right angle:
a card corner, rounded off between their ends.  The reader is the
judge: a corner whose patch reads as an index is a card, anything else
(a court card's inner frame, two cards' edges crossing) reads as nothing.

On a light, neutral table (``light_neutral_table``) finding paper fails,
and the corners are searched whenever a frame is read without a mat.  On
other tables they are searched only in the final reading of a frame (not
in the scale search, where they cost a close-up photo twice its time):
there they find cards whose paper corner a dark rim or an index printed
to the edge notches (kde/penguins on a black cloth)."""

from __future__ import annotations

import cv2
import numpy as np

from .cards import Corner, Plane, table_tinted

#: an edge segment at least this long (plane mm) may be one side of a card corner
MIN_EDGE_MM = 9.0
#: the corner's point (the two edges' crossing) lies at most this far from each
#: segment's near end (mm): a card's rounded corner cuts off about 3-4 mm
CORNER_GAP_MM = 6.0
#: the two edges meet at a right angle within this (degrees; perspective bends it)
ANGLE_TOLERANCE = 20.0
#: a table whose brightness (the median tile's brightest channel) is at least this,
#: and not tinted (vision.cards.table_tinted), is light and neutral
LIGHT_TABLE = 150
#: at most this many corners a frame (each read both ways round on a light table, unmirrored elsewhere)
MAX_CORNERS = 40
#: a reading at an edge corner counts only when its rank's top lies at most
#: this far (mm) from the corner along the long edge: every paper corner read
#: on the third-party decks' photos (black cloth and random tables) had it
#: within 7.2 mm (1182 readings), but 3 of 21 edge-corner readings there had
#: it at 17-27 mm, a patch reaching past a stagger's narrow strip to another
#: index.  A guard: it changed no total of those benches
MAX_RANK_TOP_MM = 10.0
#: on a table that is not light and neutral (where the paper is found and an
#: edge corner only adds a card whose paper corner is notched) a frame
#: without a mat looks for corners everywhere, and reads them, only where it
#: gives at least this many px per mm: at 720p without a mat (about 1.5
#: px/mm) such corners read 3 cards right and 2 wrong in 1000 scenes (both
#: at confidence under 0.7), a corner placed a pixel off being a millimetre
#: off there.  Any other frame looks only along the paper's outline
#: (PAPER_BAND_MM)
NOTCHED_MIN_PX_PER_MM = 2.0
#: off a light table, below NOTCHED_MIN_PX_PER_MM or with a mat, edges count
#: only this far outside and inside the paper mask's outline (mm): the card
#: edges wanted are those of a paper corner an index or a dark border line
#: notches (the Paris decks print the rank 2.2 mm from the edge, inside a
#: black line), and a checked or grained table's own edges, everywhere
#: else, gave the frame's MAX_CORNERS and cost a 12-card 720p frame 1.46
#: times its CPU.  With the band: 720p seeds 0-999 5424 / 5357 / 67 ->
#: 5429 / 5362 / 67 (found / right / misread), aisleriot/paris 29 -> 34
#: and kde/gm-paris 27 -> 32 of 62 (bench/vision_decks.py's 10 scenes)
PAPER_BAND_MM = (4.0, 2.0)


def light_neutral_table(bg_tiles: np.ndarray) -> bool:
    """Whether the table (:func:`vision.cards.background_colour`'s tiles) is
    light and neutral: a white or light grey cloth or table, under a lamp's
    fall-off too."""
    return bool(bg_tiles.size) and float(np.median(bg_tiles.max(axis=2))) >= LIGHT_TABLE and not table_tinted(bg_tiles)


def _segments(work_gray: np.ndarray, plane: Plane, paper: np.ndarray | None = None) -> np.ndarray:
    """Straight edge segments of the work copy, as plane-mm end points (n, 2, 2);
    with ``paper`` (its paper mask) only of the edges within
    :data:`PAPER_BAND_MM` of the paper's outline."""
    # the plane's scale at the middle of the work copy: px per plane mm
    h, w = work_gray.shape
    mid = np.array([[w / 2, h / 2], [w / 2 + 10, h / 2]], np.float32)
    pm = plane.to_plane(mid)
    px_per_mm = 10 / max(float(np.linalg.norm(pm[1] - pm[0])), 1e-6)
    edges = cv2.Canny(cv2.GaussianBlur(work_gray, (5, 5), 1.2), 20, 50)
    if paper is not None:
        outside, inside = (max(3, int(2 * mm * px_per_mm) | 1) for mm in PAPER_BAND_MM)
        band = cv2.subtract(cv2.dilate(paper, np.ones((outside, outside), np.uint8)), cv2.erode(paper, np.ones((inside, inside), np.uint8)))
        edges = cv2.bitwise_and(edges, band)
    min_len = max(8, int(MIN_EDGE_MM * px_per_mm))
    lines = cv2.HoughLinesP(edges, 1, np.pi / 180, threshold=max(8, min_len // 2), minLineLength=min_len, maxLineGap=max(2, int(1.5 * px_per_mm)))
    if lines is None:
        return np.zeros((0, 2, 2), np.float32)
    ends = lines.reshape(-1, 2, 2).astype(np.float32)
    return plane.to_plane(ends.reshape(-1, 2)).reshape(-1, 2, 2)


def find_edge_corners(work_gray: np.ndarray, plane: Plane, known: list[np.ndarray], near_known_mm: float = 8.0, paper: np.ndarray | None = None) -> list[Corner]:
    """Card corners where two straight edge segments meet at about a right
    angle (plane mm), away from ``known`` points (corners already read or
    tried) by ``near_known_mm``; the ones with the longest edges first.
    ``paper``: the paper mask, off a light table, to look only along its
    outline (:data:`PAPER_BAND_MM`)."""
    segs = _segments(work_gray, plane, paper)
    n = len(segs)
    if n < 2:
        return []
    a, b = segs[:, 0].astype(np.float64), segs[:, 1].astype(np.float64)
    d = b - a
    unit = d / np.maximum(np.linalg.norm(d, axis=1), 1e-6)[:, None]
    # pairs near a right angle, all at once (a loop over them cost 100+ ms on a busy frame)
    ii, jj = np.nonzero(np.triu(np.abs(unit @ unit.T) < np.sin(np.radians(ANGLE_TOLERANCE)), 1))
    p, r, q, sv = a[ii], unit[ii], a[jj], unit[jj]
    den = r[:, 0] * sv[:, 1] - r[:, 1] * sv[:, 0]
    qp = q - p
    t = (qp[:, 0] * sv[:, 1] - qp[:, 1] * sv[:, 0]) / np.where(np.abs(den) < 1e-6, np.nan, den)
    x = p + t[:, None] * r  # the two lines' crossing
    # each segment ends near the crossing and runs away from it
    dia, dib = np.linalg.norm(a[ii] - x, axis=1), np.linalg.norm(b[ii] - x, axis=1)
    dja, djb = np.linalg.norm(a[jj] - x, axis=1), np.linalg.norm(b[jj] - x, axis=1)
    far_i = np.where((dib > dia)[:, None], b[ii], a[ii])
    far_j = np.where((djb > dja)[:, None], b[jj], a[jj])
    u, v = far_i - x, far_j - x
    lu, lv = np.linalg.norm(u, axis=1), np.linalg.norm(v, axis=1)
    ok = (np.minimum(dia, dib) <= CORNER_GAP_MM) & (np.minimum(dja, djb) <= CORNER_GAP_MM)
    ok &= (lu >= MIN_EDGE_MM) & (lv >= MIN_EDGE_MM)
    if known:
        k = np.asarray(known, np.float64).reshape(-1, 2)
        ok &= np.sqrt(((x[:, None, :] - k[None, :, :]) ** 2).sum(axis=2)).min(axis=1) >= near_known_mm
    out: list[tuple[float, Corner]] = [
        (float(min(lu[m], lv[m])), Corner(-1, x[m], u[m] / lu[m], v[m] / lv[m], float(lu[m]), float(lv[m])))
        for m in np.flatnonzero(ok).tolist()
    ]
    out.sort(key=lambda e: -e[0])
    kept: list[Corner] = []
    for _, c in out:
        # one corner per place: the first (longest edges) of several segments' pairings
        if any(float(np.linalg.norm(c.point - k.point)) < near_known_mm for k in kept):
            continue
        kept.append(c)
        if len(kept) >= MAX_CORNERS:
            break
    return kept
