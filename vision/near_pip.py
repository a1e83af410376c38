"""A number card's suit from the pips beside its index, where the index's
own suit glyph is too small to tell (#7).

At 720p the commonest decline is a number card whose rank the reader is
sure of but whose suit glyph (3-5 mm, 4-9 camera pixels) is split between
spades and clubs, or hearts and diamonds.  Every French or English deck
prints a number card's first row of pips just beside and below the index
(centres about 12-25 mm from the card's top edge), two to three times the
index suit's size.  :mod:`vision.pips` reads a face only when all of it
lies uncovered; a card in a pile or under a hand often shows its index and
that first row but not the rest.  Here only that row is looked at:

* the ink must lie on the index corner's own paper region with paper all
  round it (no other card's edge or a hand between), outside the index's
  zone, pip-sized (5.5-20 mm), all of one size, of the index ink's colour;
* the rank must be one the reader is sure of (its own rank rules) and a
  number (aces and court cards print no pip row there), and the row must
  lie as that rank's first row does; or, where the reader is unsure, the
  networks' likeliest rank with the templates agreeing when the row's
  layout rules out every other rank they hold plausible (:func:`layout_rank`);
* the pips' suit, read upright by the suit networks and pooled, must be
  sure within the ink's colour, and the index's own suit networks must not
  rule it out.  Where the index ink measured the other colour (a handful
  of pixels), its networks must see the pips' suit.

Pure functions: the pipeline gives the frame, the corner and its paper."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import cv2
import numpy as np

from . import glyph_model
from .cards import Plane
from .corner_index import THRESHOLDS, Evidence, Glyphs, Thresholds
from .glyphs import NUMBER_RANKS, RED_SUITS, SUITS
from .pips import (
    FACE_PPM,
    components,
    cumulative,
    face_ink,
    face_size,
    in_labels,
    ink_is_red,
    percentiles,
    pip_glyph,
    sample_face,
)
from .suit_decision import likeliest_suit, suit_share


@dataclass(frozen=True)
class NearPipThresholds:
    """Where a first row of pips may lie and how sure it must be.  The
    values were chosen from the generator's and the installed third-party
    decks' layouts (bench.vision_near_pip --decks), not fitted to the
    benchmark's scenes; figures for each rule are in docs/vision.md, step 7."""

    #: where a first-row pip's centre may lie, card mm from the index corner (x0, y0, x1, y1)
    window: tuple[float, float, float, float] = (11.0, 8.0, 52.0, 36.0)
    #: the first row's column places (x0, y0, x1, y1 card mm), left and right: a 2's or 3's
    #: are bare paper, a 4's to 10's hold a pip, a court card's its picture
    columns: tuple[tuple[float, float, float, float], ...] = ((13.0, 10.0, 25.0, 30.0), (38.0, 10.0, 50.0, 30.0))
    #: the band under a two-pip first row: from this far below its centres (mm: past the
    #: pips' own ink) down to ``below_to`` mm, across the columns; at least ``below_min`` tall
    below_from: float = 7.0
    below_to: float = 33.0
    below_min: float = 6.0
    #: a 2 or 3 is contradicted by ink on both column places of at least this share; a 4-10 by
    #: none over this on either; an 8 or 10 by a band under its first row with none over this
    columns_inked: float = 0.15
    columns_bare: float = 0.01
    below_bare: float = 0.005
    #: a place counts only where the face looked at (``stray_box``, card mm, less
    #: ``index_box`` and ``layout_strips``, the columns' and the middle line's, all the way down) holds no
    #: more ink than this share: in a staggered pile white on white, another card's index,
    #: pips or edge there shows that the paper, bare or inked, may be that card's
    stray_box: tuple[float, float, float, float] = (0.0, 0.0, 60.0, 44.0)
    index_box: tuple[float, float] = (13.0, 32.0)
    layout_strips: tuple[tuple[float, float], ...] = ((11.0, 27.0), (24.0, 39.0), (36.0, 52.0))
    stray: float = 0.002
    #: the middle row's places: mm down (from, to), and across (left column, middle line, right
    #: column): a 5's, 9's (and 3's) pip on the middle line, a 6's two in the columns, a 4's none
    middle_row: tuple[float, float] = (39.0, 49.0)
    middle_row_x: tuple[tuple[float, float], ...] = ((13.0, 25.0), (26.0, 37.0), (38.0, 50.0))
    #: how much of the face is looked at (mm down the long edge)
    depth_mm: float = 46.0
    min_pip_mm: float = 5.5
    max_pip_mm: float = 20.0
    #: the pips differ in height by at most this share of their median
    size_spread: float = 0.25
    #: paper of the corner's own region all round a pip, mm
    paper_mm: float = 1.5
    #: the pooled pip suit's share among the suits of the ink's colour, and its most junk
    suit: float = 0.9
    junk: float = 0.2
    #: the index suit networks' share of the pip suit (not ruled out by the index)
    index_suit: float = 0.1
    #: the top row's centre, mm below the card's top edge; pips this close in height are one row
    first_row: tuple[float, float] = (10.0, 26.0)
    row_tol: float = 3.0
    #: the columns' distance from the middle line (mm), and how far a row may lie off (mm)
    column: float = 12.5
    centre_tol: float = 5.0
    #: where a 7's, 8's or 10's pip on the middle line lies below the first row: (y0, y1), (x0, x1) card mm
    middle: tuple[tuple[float, float], tuple[float, float]] = ((22.0, 40.0), (25.0, 38.0))
    #: a rank the reader's rules leave unsure is named when the templates agree, its network
    #: probability is at least ``layout_rank`` and the row's layout rules out every other rank
    #: the networks give ``layout_other`` or more (vision.near_pip.layout_rank)
    layout_rank: float = 0.4
    layout_other: float = 0.1
    #: where the index ink measured the other colour than the pips: the index networks' probability of the pips' suit at least
    colour_override: float = 0.5
    #: the templates' suit split may veto the pips' suit (as it does the index's)
    template_veto: bool = False
    #: a reading is contradicted by a row whose pooled suit of the same colour is this sure of another suit
    contradict: float = 0.75


NEAR_PIPS = NearPipThresholds()
#: face pixels of the corner's own paper (FACE_PPM) the row's depth must hold for it to be read
MIN_ROW_PAPER = 50


@dataclass(frozen=True)
class PipRow:
    """The pips found beside an index: their suit probabilities (pooled), colour, count."""

    suit_p: np.ndarray | None
    red: bool | None
    count: int = 0
    why: str = ""
    #: the pips' centres, card mm from the index corner (x across, y down)
    centres: tuple[tuple[float, float], ...] = ()
    #: whether the middle line below the first row lies wholly on the card's own paper
    middle_clear: bool = False
    #: ink share of the first row's two column places (left, right), where both lie on the
    #: card's own paper, else None (:func:`contradicts_rank`)
    columns_ink: tuple[float, float] | None = None
    #: ink share between a two-pip first row and the places of an 8's or 10's next pips,
    #: where that band lies on the card's own paper, else None (:func:`contradicts_rank`)
    below_ink: float | None = None
    #: ink share of the face looked at outside the places any standard layout prints (the
    #: index, the columns, the middle line: ``layout_strips``): another card's index or edge over this one
    stray_ink: float | None = None
    #: ink shares of the middle row's places (left column, middle line, right column), where
    #: they lie on the card's own paper and nothing is printed beside them, else None
    middle_row: tuple[float, float, float] | None = None


def may_be_number(gl: Glyphs, t: NearPipThresholds = NEAR_PIPS, rt: Thresholds = THRESHOLDS) -> bool:
    """Whether the rank network may give a number rank enough for this
    module (:func:`candidate_rank`): cheap, as the network stops early when
    no rank can reach it."""
    pr = glyph_model.rank_probs(gl.rank_ink, gl.rank_view, min(t.layout_rank, rt.net_rank_low), rt.net_junk)
    return pr is not None and glyph_model.RANK_CLASSES[int(np.argmax(pr))] in NUMBER_RANKS


def candidate_rank(ev: Evidence, t: NearPipThresholds = NEAR_PIPS, rt: Thresholds = THRESHOLDS) -> str | None:
    """The rank a pip row may confirm: the reader's sure number rank, or its
    likeliest number rank at ``t.layout_rank`` with the templates agreeing
    (for :func:`layout_rank`)."""
    rank = sure_number_rank(ev, rt)
    if rank is not None or ev.rank_p is None:
        return rank
    r = int(np.argmax(ev.rank_p))
    rank = glyph_model.RANK_CLASSES[r]
    ok = rank in NUMBER_RANKS and ev.rank_p[r] >= t.layout_rank and ev.template_rank == rank and ev.rank_p[-1] <= rt.net_junk
    return rank if ok else None


def sure_number_rank(ev: Evidence, t: Thresholds = THRESHOLDS) -> str | None:
    """The rank the reader's own rank rules accept from ``ev`` (complete
    evidence), when it is a number rank; else None."""
    if not ev.complete or ev.rank_p is None:
        return None
    pr = ev.rank_p
    r = int(np.argmax(pr))
    rank = glyph_model.RANK_CLASSES[r]
    if rank not in NUMBER_RANKS or pr[r] < t.net_rank_low or pr[-1] > t.net_junk:
        return None
    return rank if t.rank_stands(ev, rank, pr[r]) else None


def own_paper(contour_plane: np.ndarray, point: np.ndarray, u: np.ndarray, v: np.ndarray, size: tuple[int, int], ppm: float = FACE_PPM) -> np.ndarray:
    """A mask over the face sampled at ``point`` (as :func:`vision.pips.sample_face`
    samples it, ``size`` (w, h) px) of where the paper region ``contour_plane``
    (plane mm) lies."""
    basis = np.array([u, v], np.float64).T
    if not np.isfinite(basis).all() or abs(np.linalg.det(basis)) < 1e-6:
        return np.zeros(size[::-1], np.uint8)
    xy = (np.linalg.inv(basis) @ (np.asarray(contour_plane, np.float64).reshape(-1, 2) - point).T).T * ppm
    if not np.isfinite(xy).all():
        return np.zeros(size[::-1], np.uint8)
    if u[0] * v[1] - u[1] * v[0] < 0:
        xy[:, 0] = size[0] - 1 - xy[:, 0]
    mask = np.zeros(size[::-1], np.uint8)
    cv2.fillPoly(mask, [np.round(xy).astype(np.int32).reshape(-1, 1, 2)], 1)
    return mask


def paper_from_mask(mask: np.ndarray, work_to_plane: np.ndarray, point, u, v, size: tuple[int, int], ppm: float = FACE_PPM) -> np.ndarray:
    """As :func:`own_paper` for an index found without its card's outline (an
    ink pair, vision.index_pairs): the paper ``mask`` (work px) sampled over
    the face, the region that holds the most paper beside the index, its
    holes (the glyphs and pips) filled."""
    basis = np.array([u, v], np.float64).T
    if not np.isfinite(basis).all() or abs(np.linalg.det(basis)) < 1e-6:
        return np.zeros(size[::-1], np.uint8)
    face_to_plane = np.array([[u[0] / ppm, v[0] / ppm, point[0]], [u[1] / ppm, v[1] / ppm, point[1]], [0, 0, 1]])
    M = np.linalg.inv(work_to_plane) @ face_to_plane
    paper = cv2.warpPerspective(mask, M, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP, borderValue=0)
    if u[0] * v[1] - u[1] * v[0] < 0:
        paper = paper[:, ::-1]
    n, labels = cv2.connectedComponents((paper > 0).view(np.uint8), connectivity=4)
    if n < 2:
        return np.zeros(size[::-1], np.uint8)
    zone = labels[: int(30 * ppm), : int(12 * ppm)]
    counts = np.bincount(zone.ravel(), minlength=n)
    counts[0] = 0
    if counts.max() == 0:
        return np.zeros(size[::-1], np.uint8)
    region = (labels == int(counts.argmax())).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros(size[::-1], np.uint8)
    cv2.drawContours(out, contours, -1, 1, -1)
    return out


def read_row(
    face: np.ndarray, paper: np.ndarray, ppm: float = FACE_PPM, t: NearPipThresholds = NEAR_PIPS, rank: str | None = None, layout_only: bool = False
) -> PipRow:
    """The first-row pips of an upright face (its index corner top left) that
    lie on ``paper`` (the corner's own region) with paper round them.  With
    ``rank``, a row that does not lie as that rank's (:func:`fits_rank`) is
    not read (the suit networks are the costly part); ``layout_only``: only
    where the pips lie (no colour, no suit: :func:`contradicts_rank`)."""
    rows, deep_rows = _depths(ppm, t)
    deep_face, deep_paper = face[:deep_rows], paper[:deep_rows].astype(bool)
    face, paper = face[:rows], deep_paper[:rows]
    if np.count_nonzero(paper) < MIN_ROW_PAPER:
        return PipRow(None, None, why="no paper")
    (ya, yb), (xa, xb) = (np.asarray(r) * ppm for r in t.middle)
    middle_clear = bool(paper[int(ya) : int(np.ceil(yb)), int(xa) : int(np.ceil(xb))].all())
    deep_ink = face_ink(deep_face)
    ink = deep_ink[:rows]
    # not bare paper (the 25th percentile), for the layout's places: a light court picture counts
    # (it would not as a pip's ink); on a bare face the threshold stays above the paper's grain.
    # np.percentile's values from the ink's histogram on the paper (vision.pips.percentiles)
    if ink.dtype == np.uint8:
        lo, hi, bare = percentiles(cumulative(ink, paper.view(np.uint8)), (50, 99.5, 25))
    else:
        vals = ink[paper]
        lo, hi = (float(q) for q in np.percentile(vals, (50, 99.5)))
        bare = float(np.percentile(vals, 25))
    deep = deep_ink > bare + 0.3 * max(hi - bare, 80.0)
    inked = deep[:rows]
    columns = [_share(inked, paper, box, ppm) for box in t.columns]
    columns_ink = (columns[0], columns[1]) if None not in columns else None
    # the middle row (a 5's, 6's, 9's pips at mid-height), below the row's own window
    (ma, mb), (xs, m0, m1) = t.middle_row, t.middle_row_x
    middle = [_share(deep, deep_paper, (x0, ma, x1, mb), ppm) for x0, x1 in (xs, m0, m1)]
    middle_row = (middle[0], middle[1], middle[2]) if None not in middle else None
    stray_ink = None
    if columns_ink is not None or middle_row is not None:
        # the paper a millimetre in from its edge (whose rim is dark), once for both looks: the
        # first row's box ends 2 mm above the row's depth, so it erodes the same either way
        inner = cv2.erode(deep_paper.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=max(1, int(round(ppm)))).astype(bool)
        stray_ink = _stray(inked, inner, ppm, t) if columns_ink is not None else None
        if middle_row is not None and _stray(deep, inner, ppm, t, t.middle_row[1]) > t.stray:
            middle_row = None  # bare paper there may be another card's
    laid0 = {"columns_ink": columns_ink, "stray_ink": stray_ink, "middle_row": middle_row}
    if hi - lo < 50:
        return PipRow(None, None, why="no ink", middle_clear=middle_clear, **laid0)
    binary = ((ink > lo + 0.45 * (hi - lo)) & paper).astype(np.uint8)
    x0, y0, x1, y1 = t.window
    n, labels, stats = components(binary)
    pad = int(np.ceil(t.paper_mm * ppm))
    H, W = binary.shape
    cands = []
    # the boxes as Python ints at once (not int() of each numpy field)
    for i, (x, y, w, h, _area) in enumerate(stats.tolist()[1:], 1):
        cx, cy = (x + w / 2) / ppm, (y + h / 2) / ppm
        if not (x0 <= cx <= x1 and y0 <= cy <= y1):
            continue
        if not (t.min_pip_mm * ppm <= h <= t.max_pip_mm * ppm and 0.4 * h <= w <= 1.6 * h):
            continue
        ya, yb, xa, xb = y - pad, y + h + pad, x - pad, x + w + pad
        if ya < 0 or xa < 0 or yb > H or xb > W or not paper[ya:yb, xa:xb].all():
            return PipRow(None, None, why="pip off paper", **laid0)  # another card or a hand beside it
        cands.append((i, x, y, w, h))
    if not cands:
        return PipRow(None, None, why="no pips", middle_clear=middle_clear, **laid0)
    med = float(statistics.median([c[4] for c in cands]))  # np.median's value, exact for integer heights
    if any(abs(c[4] - med) > t.size_spread * med for c in cands):
        return PipRow(None, None, len(cands), "sizes", **laid0)
    centres = tuple(((x + w / 2) / ppm, (y + h / 2) / ppm) for _, x, y, w, h in cands)
    below_ink = None
    if fits_rank(centres, "8", t):
        top = min(y for _, y in centres) + t.below_from
        if t.below_to - top >= t.below_min:
            below_ink = _share(inked, paper, (t.columns[0][0], top, t.columns[1][2], t.below_to), ppm)
    laid = {"centres": centres, "middle_clear": middle_clear, "below_ink": below_ink, **laid0}
    if layout_only or (rank is not None and not fits_rank(centres, rank, t)):
        return PipRow(None, None, len(cands), "" if layout_only else "not the rank's row", **laid)
    sel = in_labels(labels, n, [c[0] for c in cands])
    red = ink_is_red(face, sel, paper & (labels == 0) & (ink <= lo + 0.2 * (hi - lo)))
    if red is None:
        return PipRow(None, None, len(cands), "colour unsure", **laid)
    if not glyph_model.available():
        return PipRow(None, red, len(cands), "no suit network", **laid)
    raw = np.maximum(ink.astype(np.float32) - (lo + 0.1 * (hi - lo)), 0)
    ps = []
    for i, x, y, w, h in cands:
        glyph, view = pip_glyph(raw, labels, i, x, y, w, h)
        ps.append(glyph_model.suit_probs(np.ascontiguousarray(glyph), np.ascontiguousarray(view)))
    return PipRow(np.mean(ps, axis=0), red, len(cands), **laid)


def _depths(ppm: float, t: NearPipThresholds) -> tuple[int, int]:
    """The face's rows :func:`read_row` looks at (px): the row's own depth, and the depth
    down to the middle row's places, below it (their ink is taken down to them once)."""
    rows = int(round(t.depth_mm * ppm))
    return rows, max(rows, int(round(t.middle_row[1] * ppm)))


def fits_rank(centres, rank: str, t: NearPipThresholds = NEAR_PIPS) -> bool:
    """Whether the top row of pips lies where a ``rank``'s does in French and
    English decks: 12 mm or so below the card's top edge (``t.first_row``), a
    2's and 3's single pip on the middle line, the others' in the two
    columns a card's width apart.  A pip row shifted from there is another
    card's: the card above in a staggered pile, its edge unseen."""
    if not centres:
        return False
    y0 = min(y for _, y in centres)
    lo, hi = t.first_row
    if not lo <= y0 <= hi:
        return False
    top = [x for x, y in centres if y <= y0 + t.row_tol]
    mid = 31.5
    if rank in ("2", "3"):
        return len(top) == 1 and abs(top[0] - mid) <= t.centre_tol
    if len(top) > 2 or any(abs(abs(x - mid) - t.column) > t.centre_tol for x in top):
        return False
    return len(top) == 1 or abs((top[0] + top[1]) / 2 - mid) <= t.centre_tol


def sample_row(
    frame: np.ndarray,
    plane: Plane,
    point,
    u,
    v,
    *,
    contour=None,
    mask=None,
    rank: str | None = None,
    layout_only: bool = False,
    under=(),
    ppm: float = FACE_PPM,
) -> PipRow:
    """:func:`read_row` (for ``rank``) on the face sampled from ``frame`` at a
    card corner, its own paper from its region's ``contour`` (plane mm) or
    else from the paper ``mask`` (work px)."""
    if not np.isfinite(np.concatenate([np.ravel(point), np.ravel(u), np.ravel(v)])).all():
        return PipRow(None, None, why="corner not finite")
    size = face_size(ppm)
    if contour is not None:
        paper = own_paper(contour, point, u, v, size, ppm)
        for outline in under:
            # another card's outline (plane mm) over the face: not this card's paper to look at
            paper &= 1 - own_paper(outline, point, u, v, size, ppm)
    elif mask is not None:
        paper = paper_from_mask(mask, plane.work_to_plane, point, u, v, size, ppm)
        for outline in under:
            paper &= 1 - own_paper(outline, point, u, v, size, ppm)
    else:
        return PipRow(None, None, why="no paper")
    rows, deep_rows = _depths(ppm, NEAR_PIPS)
    if np.count_nonzero(paper[:rows]) < MIN_ROW_PAPER:
        # read_row's first answer, before the face is sampled (a quarter of the rows a frame
        # looks at: a corner's paper cut off beside its index)
        return PipRow(None, None, why="no paper")
    # only the rows read_row looks at (98 of 176: the warp ~0.09 -> ~0.06 ms)
    face = sample_face(frame, plane, point, u, v, ppm, rows=deep_rows)
    return read_row(face, paper, ppm, rank=rank, layout_only=layout_only)


#: ranks whose face shows a pip on the middle line between the first row and the middle
#: (every French and English deck): the 8's and 10's seen from either index corner,
#: the 7's from its top one only (its extra pip lies in the top half)
MIDDLE_PIP = ("8", "10")
MIDDLE_PIP_ONE_END = ("7",)
#: ranks with a second pair of column pips within the row's window (four pips a column)
SECOND_ROW = ("9", "10")


def fits_layout(row: PipRow, rank: str, t: NearPipThresholds = NEAR_PIPS) -> bool:
    """:func:`fits_rank`, and every other pip of the row explained by the
    rank's layout: a pip on the middle line just below the first row
    exactly when ``rank`` has one (7, 8, 10; a 7 seen from its bottom
    corner shows none), column pips below the first row only for a 9 or
    10.  A missing middle pip counts only where that place lies on the
    card's own paper."""
    if not fits_rank(row.centres, rank, t):
        return False
    y0 = min(y for _, y in row.centres)
    (ya, yb), (xa, xb) = t.middle
    mid = 31.5
    middles = columns = others = 0
    for x, y in row.centres:
        if y <= y0 + t.row_tol:
            continue  # the first row, checked by fits_rank
        if xa <= x <= xb and ya <= y <= yb:
            middles += 1
        elif abs(abs(x - mid) - t.column) <= t.centre_tol:
            columns += 1
        else:
            others += 1
    if others or (columns and rank not in SECOND_ROW) or middles > 1:
        return False
    if rank in MIDDLE_PIP:
        return middles == 1
    if rank in MIDDLE_PIP_ONE_END:
        return middles == 1 or row.middle_clear
    return middles == 0 and row.middle_clear


def layout_rank(ev: Evidence, row: PipRow, t: NearPipThresholds = NEAR_PIPS, rt: Thresholds = THRESHOLDS) -> str | None:
    """The index networks' likeliest rank where the reader's rules leave it
    unsure, when the templates agree and the pip row lies as that rank's
    and as no other rank's the networks hold plausible: a 6 against an 8
    (no middle pip), a 3 against an 8 (one pip on the middle line).  A
    plausible rank the face's layout rules out (:func:`contradicts_rank`:
    a 5 against a 6 by their pips at mid-height, which the first row shares)
    is no rival; the likeliest must not be ruled out itself."""
    if not ev.complete or ev.rank_p is None or ev.rank_p[-1] > rt.net_junk or ev.rank_score < rt.min_template_rank:
        return None
    pr = ev.rank_p
    r = int(np.argmax(pr))
    rank = glyph_model.RANK_CLASSES[r]
    if rank not in NUMBER_RANKS or pr[r] < t.layout_rank or ev.template_rank != rank or not fits_layout(row, rank, t):
        return None
    if contradicts_rank(row, rank, t):
        return None
    others = [glyph_model.RANK_CLASSES[i] for i in np.flatnonzero(pr[:-1] >= t.layout_other) if i != r]
    if any(q not in NUMBER_RANKS or (fits_layout(row, q, t) and not contradicts_rank(row, q, t)) for q in others):
        return None
    return rank


def decide(ev: Evidence, row: PipRow, t: NearPipThresholds = NEAR_PIPS, rt: Thresholds = THRESHOLDS) -> tuple[str, str, float] | None:
    """(rank, suit, confidence) of a declined index ``ev`` from its pip row, or None."""
    if row.why or row.suit_p is None or row.red is None or ev.glyphs.red is None:
        return None
    if ev.suit_p is None:
        return None
    rank = sure_number_rank(ev, rt)
    if rank is not None and not fits_rank(row.centres, rank, t):
        return None
    rank = rank or layout_rank(ev, row, t, rt)
    if rank is None:
        return None
    si, share = likeliest_suit(row.suit_p, row.red)
    if share < t.suit or row.suit_p[-1] > t.junk:
        return None
    suit = SUITS[si]
    if (suit in RED_SUITS) != row.red:
        return None
    if ev.glyphs.red != row.red:
        # the index's few ink pixels measured the other colour: only if its networks see the pips' suit
        return (rank, suit, float(0.5 * share)) if ev.suit_p[si] >= t.colour_override else None
    if suit_share(ev.suit_p, row.red, si) < t.index_suit:
        return None
    if t.template_veto and ev.template_suit and ev.template_suit != suit and ev.suit_split >= rt.suit_veto:
        return None
    return rank, suit, float(0.55 * share)


def contradicts(row: PipRow, rank: str, suit: str, t: NearPipThresholds = NEAR_PIPS) -> bool:
    """Whether a number card's pip row says a reading's suit is wrong: the
    pips, of the reading's colour, are surely of the other suit of that colour."""
    if row.why or row.suit_p is None or row.red is None or rank not in NUMBER_RANKS or suit not in SUITS:
        return False
    if row.red != (suit in RED_SUITS) or not fits_rank(row.centres, rank, t):
        return False
    si, share = likeliest_suit(row.suit_p, row.red)
    return SUITS[si] != suit and share >= t.contradict and row.suit_p[-1] <= t.junk


def _stray(inked: np.ndarray, inner: np.ndarray, ppm: float, t: NearPipThresholds, down_to: float | None = None) -> float:
    """The share of ``inked`` on ``inner`` (the card's paper a millimetre in from its
    edge, whose rim is dark) in ``t.stray_box`` (down to ``down_to`` mm, when given)
    outside every place a standard layout prints."""
    x0, y0, x1, y1 = (int(round(b * ppm)) for b in t.stray_box[:3] + (down_to or t.stray_box[3],))
    where = inner[y0:y1, x0:x1].copy()
    ix, iy = (int(round(b * ppm)) for b in t.index_box)
    where[:iy, :ix] = False
    for a, b in t.layout_strips:
        where[:, int(round(a * ppm)) : int(round(b * ppm))] = False
    n = int(np.count_nonzero(where))
    return float(np.count_nonzero(inked[y0:y1, x0:x1] & where)) / n if n else 1.0


def _share(inked: np.ndarray, paper: np.ndarray, box: tuple[float, float, float, float], ppm: float) -> float | None:
    """The share of ``inked`` in ``box`` (card mm), None unless all of the box lies on ``paper``."""
    x0, y0, x1, y1 = (int(round(b * ppm)) for b in box)
    if x0 < 0 or y0 < 0 or y1 > paper.shape[0] or x1 > paper.shape[1] or x1 <= x0 or y1 <= y0:
        return None
    area = (x1 - x0) * (y1 - y0)
    if np.count_nonzero(paper[y0:y1, x0:x1]) != area:  # not all of it (a count: no reduction's overhead)
        return None
    return float(np.count_nonzero(inked[y0:y1, x0:x1])) / area


def contradicts_rank(row: PipRow, rank: str, t: NearPipThresholds = NEAR_PIPS) -> bool:
    """Whether the face beside an index says a number reading's rank is
    wrong (#7: at 1080p most misreads are ranks of one shape at a blurred
    index, a 6 read as an 8, a J as a 3, an ace as a 4).  Only what every
    French and English deck shares is asked, and only of places that lie
    wholly on the card's own paper:

    * a 2 or 3 prints its pips on the middle line only, so ink on both of
      the first row's column places (a 4-10's pips, a court card's picture)
      rules it out;
    * a 4 to 10 prints a pip on both, so two bare column places (an ace, a
      2 or a 3) rule it out;
    * an 8 or 10 prints pips within a few mm under its first row (a pip on
      the middle line, or the columns' second pips), a 4, 5 or 6 nothing
      until the middle, so a bare band there rules the 8 or 10 out;
    * at mid-height (39-49 mm down) a 5 prints one pip on the middle line, a
      6 two in the columns, a 4 nothing: the other pattern rules each out.

    Measured on every installed third-party deck's faces and the
    generator's (docs/vision.md, step 4; ``bench.vision_near_pip --decks``);
    a 7's and 9's layouts vary too much between decks to say anything of
    them.  It only ever declines."""
    if rank not in NUMBER_RANKS or row.why in ("no paper", "corner not finite"):
        return False
    if row.columns_ink is None:
        return False
    if row.stray_ink is None or row.stray_ink > t.stray:
        return False  # bare paper here may be another card's, and ink another card's
    if rank in ("2", "3"):
        return min(row.columns_ink) >= t.columns_inked
    if max(row.columns_ink) <= t.columns_bare:
        return True
    if rank in ("8", "10") and row.below_ink is not None and row.below_ink <= t.below_bare:
        return True
    if row.middle_row is None:
        return False
    left, mid, right = row.middle_row
    columns_inked, columns_bare = min(left, right) >= t.columns_inked, max(left, right) <= t.columns_bare
    mid_inked, mid_bare = mid >= t.columns_inked, mid <= t.columns_bare
    if rank == "5":
        return columns_inked and mid_bare  # a 6's (or 7's, 8's) middle row, no 5's centre pip
    if rank == "6":
        return mid_inked and columns_bare  # a 5's or 9's centre pip, no 6's middle row
    return rank == "4" and (mid_inked or columns_inked)  # a 4 prints nothing at mid-height
