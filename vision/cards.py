"""Finding cards: card-paper regions, their right-angled outer corners, and
card-shaped outlines (for backs and for faces whose index is hidden).

Works on a reduced "work" copy of the frame; geometry is done on the table
plane: mat millimetres when the mat is calibrated, otherwise image pixels
scaled so that a card is about 63 mm wide ("pseudo-millimetres").  Only the
outer corners of paper regions are used to read indices, so touching,
overlapping and staggered cards (whose region is one blob with a stepped
outline) still show one corner per visible index.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from . import geometry as g
from .corner_index import PATCH_H, PATCH_PPM, PATCH_W


@dataclass
class Plane:
    """Work pixels <-> plane mm <-> frame pixels."""

    work_to_plane: np.ndarray  # 3x3
    plane_to_frame: np.ndarray  # 3x3
    metric: bool  # True: real mat millimetres

    def to_plane(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), self.work_to_plane).reshape(-1, 2)

    def to_frame(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), self.plane_to_frame).reshape(-1, 2)


@dataclass
class Corner:
    """An outer, roughly right-angled corner of a paper region, in plane mm.
    ``d1``/``d2``: unit vectors along the two edges, pointing into the card."""

    blob: int
    point: np.ndarray
    d1: np.ndarray
    d2: np.ndarray
    len1: float
    len2: float


@dataclass
class Blob:
    """One connected paper region."""

    contour_work: np.ndarray
    contour_plane: np.ndarray
    area: float  # plane mm^2
    rect: tuple  # cv2.minAreaRect in plane mm
    rectangularity: float
    # the simplified outline (see simplified()), worked out once for find_corners and find_notched_corners
    _simple: tuple[np.ndarray, list[int]] | None = field(default=None, repr=False, compare=False)

    def simplified(self) -> tuple[np.ndarray, list[int]]:
        """The outline simplified to within 1.2 mm (its vertices, and their
        indices in ``contour_plane``)."""
        if self._simple is None:
            approx = cv2.approxPolyDP(self.contour_plane.reshape(-1, 1, 2), 1.2, True).reshape(-1, 2)
            self._simple = (approx, _vertex_indices(self.contour_plane, approx) if len(approx) >= 3 else [])
        return self._simple


def background_colour(work: np.ndarray, tiles: tuple[int, int] = (4, 3)) -> np.ndarray:
    """Per-tile most common colour (the table), as a small BGR image of tiles.
    ``work`` may be any reduced copy of the frame (the pipeline passes the
    quarter-size one: shrinking that is far cheaper than the whole frame)."""
    tx, ty = tiles
    small = cv2.resize(work, (tx * 24, ty * 24), interpolation=cv2.INTER_AREA)
    # pixels grouped tile by tile: (tiles, 576, 3)
    px = small.reshape(ty, 24, tx, 24, 3).transpose(0, 2, 1, 3, 4).reshape(ty * tx, 576, 3)
    q = (px >> 5).astype(np.int32)
    codes = q[..., 0] * 64 + q[..., 1] * 8 + q[..., 2]
    # every tile's colour histogram in one bincount
    hist = np.bincount((codes + 512 * np.arange(ty * tx)[:, None]).ravel(), minlength=512 * ty * tx).reshape(ty * tx, 512)
    modes = hist.argmax(axis=1)
    # the median colour of each tile's pixels in its most common bin, all tiles
    # at once: the others sort last, then the middle one (or two, averaged
    # and rounded down, as np.median and a uint8 result give) of each tile
    chosen = codes == modes[:, None]
    vals = np.where(chosen[..., None], px.astype(np.int16), np.int16(256))
    vals.sort(axis=1)
    k = chosen.sum(axis=1)
    rows = np.arange(ty * tx)
    lo, hi = vals[rows, (k - 1) // 2], vals[rows, k // 2]
    return ((lo + hi) // 2).astype(np.uint8).reshape(ty, tx, 3)


def paper_mask(work: np.ndarray, bg_tiles: np.ndarray, *, shape: tuple[int, int] | None = None, origin: tuple[int, int] = (0, 0), smooth: bool = True) -> np.ndarray:
    """Pixels that look like card paper: unsaturated and clearly brighter than
    the table around them (so light tables and lamp gradients still work).

    ``work`` may be a crop of a larger image of ``shape`` (h, w) whose top-left
    is at ``origin`` (x, y): the table brightness is then interpolated for the
    crop as for the whole image.  ``smooth``: remove specks (a 3x3 opening)."""
    h, w = work.shape[:2]
    fh, fw = shape if shape is not None else (h, w)
    return _paper_mask_at(work, _bg_level(bg_tiles.max(axis=2).astype(np.float32), (fh, fw), origin, (h, w)), smooth, table_tinted(bg_tiles))


#: paper is at least this much brighter than the table (grey levels) ...
PAPER_MARGIN = 28.0
#: ... or, where the table is lighter than 115, this share of the levels left above it: 28 over a
#: white cloth (about 210) left paper under a lamp's fall-off too little room.  Chosen on seeds
#: 0-59 on a white cloth and 0-199 of bench/vision.py (0.12, 0.2, 0.3, 0.45, 0.6 tried); held out,
#: 720p seeds 500-699 found 896 -> 903 cards (misread 14 -> 17), white cloth 500-559 186 -> 214
#: (4 -> 4), 1080p seeds 0-99 516 -> 526 (3 -> 2)
PAPER_HEADROOM = 0.2


#: paper is less saturated than this (HSV S).  A red rank's thin strokes, blurred into the
#: paper round them, are pink at about 60-75 and count as paper, so the rank is no ink spot
#: (1080p: of 12 cards missed in seeds 0-149, 9 red).  60 read 2 more cards right in 1080p
#: seeds 0-249 (2 fewer misreads), but 22 fewer in 720p seeds 0-999 (6 more misreads): at
#: 720p the strokes it gives back are fragments, or run into the suit.  Red hues alone held
#: to 40 or 50 lost 12 and 2 cards at 1080p (docs/vision.md, session 58)
PAPER_MAX_SAT = 75


#: where every tile of the table is at least this saturated (HSV S: beige, wood, felt; not a
#: white or grey cloth, nor the mat) ...
TINTED_TABLE_SAT = 30
#: ... a pixel this neutral (HSV S under it) that is not darker than the table is paper too,
#: however little brighter: a card's face in shade (a lamp's fall-off, the photographer's
#: shadow, a face printed with a grey gradient) on a light wooden or beige table is grey,
#: and grey paper is as bright as beige wood.  Chosen on bench.vision_decks_photo's
#: kde/tigullio-international (a face shaded grey towards one side: 5 -> 9 of 15 cards
#: found at 4000x3000 on a beige table); 15 / 40 found the same there
NEUTRAL_PAPER_SAT = 20


def table_tinted(bg_tiles: np.ndarray) -> bool:
    """Whether every tile's table colour (:func:`background_colour`) is
    saturated at least :data:`TINTED_TABLE_SAT`: only then does a neutral
    pixel tell paper from the table by its colour alone."""
    t = bg_tiles.reshape(-1, 3).astype(np.float32)
    hi, lo = t.max(axis=1), t.min(axis=1)
    return bool(t.size) and float((255 * (hi - lo) / np.maximum(hi, 1)).min()) >= TINTED_TABLE_SAT


def _paper_mask_at(work: np.ndarray, bgv: np.ndarray, smooth: bool = True, tinted: bool = False) -> np.ndarray:
    """:func:`paper_mask` given the table's brightness ``bgv`` (float32, overwritten) at every
    pixel of ``work``; over a ``tinted`` table (:func:`table_tinted`) neutral pixels at least
    as bright as the table count too (:data:`NEUTRAL_PAPER_SAT`)."""
    hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)
    s, v = hsv[..., 1], hsv[..., 2]
    neutral = None
    if tinted:  # before bgv is raised to the threshold below: "not darker than the table itself"
        neutral = cv2.bitwise_and(cv2.compare(s, NEUTRAL_PAPER_SAT, cv2.CMP_LT), cv2.compare(v, bgv.astype(np.uint8), cv2.CMP_GT))
    # the threshold: max(table + margin, 90), in place (bgv is this call's own)
    if float(bgv.max()) > 255 - PAPER_MARGIN / PAPER_HEADROOM:  # a light table somewhere in the crop
        np.add(bgv, np.minimum(PAPER_MARGIN, PAPER_HEADROOM * (255 - bgv)), out=bgv)
    else:
        np.add(bgv, PAPER_MARGIN, out=bgv)
    thr = np.maximum(bgv, 90, out=bgv).astype(np.uint8)
    # cv2 compares instead of numpy boolean arrays: the same mask, a few times faster
    mask = cv2.bitwise_and(cv2.compare(s, PAPER_MAX_SAT, cv2.CMP_LT), cv2.compare(v, thr, cv2.CMP_GT))
    if neutral is not None:
        mask = cv2.bitwise_or(mask, neutral)
    if smooth:
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask


@functools.lru_cache(maxsize=16)
def _linear_weights(n_dst: int, n_src: int) -> np.ndarray:
    """The matrix (n_dst x n_src) that cv2.resize (INTER_LINEAR) applies along
    one axis from ``n_src`` to ``n_dst`` samples."""
    x = (np.arange(n_dst) + 0.5) * (n_src / n_dst) - 0.5
    x0 = np.floor(x)
    fx = x - x0
    x0 = x0.astype(np.int64)
    fx[x0 < 0] = 0
    x0[x0 < 0] = 0
    over = x0 >= n_src - 1
    x0[over] = n_src - 1
    fx[over] = 0
    W = np.zeros((n_dst, n_src), np.float32)
    rows = np.arange(n_dst)
    W[rows, x0] += 1 - fx
    W[rows, np.minimum(x0 + 1, n_src - 1)] += fx
    W.setflags(write=False)
    return W


def _bg_level(tiles: np.ndarray, shape: tuple[int, int], origin: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    """The tile levels resized (bilinear, as cv2.resize) to ``shape``, only in
    the box at ``origin`` of ``size``: two small matrix products instead of a
    whole-frame resize."""
    (fh, fw), (x0, y0), (h, w) = shape, origin, size
    wy = _linear_weights(fh, tiles.shape[0])[y0 : y0 + h]
    wx = _linear_weights(fw, tiles.shape[1])[x0 : x0 + w]
    # cv2.gemm, not numpy's matmul: a threaded BLAS on a busy machine is many times slower here
    return cv2.gemm(np.einsum("ik,kl->il", wy, tiles), wx, 1.0, None, 0.0, flags=cv2.GEMM_2_T)


#: side of the square tiles (work pixels) in which paper is looked for
TILE = 64
#: context around a tile that the edge cuts' filters reach (about 15 px)
CUT_PAD = 16


def paper_tiles(small: np.ndarray, bg_tiles: np.ndarray, allowed: np.ndarray | None = None) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the work copy that may hold card paper: the
    :data:`TILE`-pixel tiles that the paper mask of the :func:`quarter` copy
    touches (``allowed``: a quarter-size mask of where paper counts, e.g. the
    mat), joined into runs along each row of tiles and runs of equal extent
    down the rows.  The boxes do not overlap.  The per-pixel steps (paper mask,
    edge cuts) then run only there: an empty table costs little."""
    coarse = paper_mask(small, bg_tiles, smooth=False)
    if allowed is not None:
        coarse = cv2.bitwise_and(coarse, allowed)
    # grown by one quarter pixel: paper at a region's edge, averaged with the table, still counts
    coarse = cv2.dilate(coarse, np.ones((3, 3), np.uint8))
    q = TILE // 4
    h, w = coarse.shape
    ny, nx = -(-h // q), -(-w // q)
    padded = np.zeros((ny * q, nx * q), np.uint8)
    padded[:h, :w] = coarse
    active = padded.reshape(ny, q, nx, q).max(axis=(1, 3)) > 0
    H, W = 4 * h, 4 * w
    boxes = []
    n, labels, stats, _ = cv2.connectedComponentsWithStats(active.astype(np.uint8), connectivity=8)
    for i in range(1, n):
        x, y, bw, bh, count = stats[i]
        if count >= 0.6 * bw * bh:  # mostly active: one box (fewer calls beats a few idle tiles)
            boxes.append((x, x + bw, y, y + bh))
            continue
        # a sprawling region (a table edge, a ring of cards): runs along the rows,
        # joined down the rows while their extent stays the same
        # where each row's runs start and end, all rows at once
        padded = np.zeros((bh, bw + 2), np.int8)
        padded[:, 1:-1] = labels[y : y + bh, x : x + bw] == i
        ys, xs = np.nonzero(np.diff(padded, axis=1))
        ends = np.searchsorted(ys, np.arange(bh + 1)).tolist()
        xs = xs.tolist()
        open_runs: dict[tuple[int, int], list[int]] = {}
        for ty in range(bh):
            edges = xs[ends[ty] : ends[ty + 1]]
            now = {}
            for a, b in zip(edges[::2], edges[1::2], strict=True):
                r = open_runs.get((a, b))
                if r is None:
                    r = [x + a, x + b, y + ty, y + ty + 1]
                    boxes.append(r)
                else:
                    r[3] += 1
                now[(a, b)] = r
            open_runs = now
    return [(int(a) * TILE, int(c) * TILE, min(int(b) * TILE, W), min(int(d) * TILE, H)) for a, b, c, d in boxes]


def _grow(box, pad: int, shape) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return max(x0 - pad, 0), max(y0 - pad, 0), min(x1 + pad, shape[1]), min(y1 + pad, shape[0])


def paper_mask_in(work: np.ndarray, bg_tiles: np.ndarray, boxes) -> np.ndarray:
    """:func:`paper_mask` of the whole work copy, computed only in ``boxes`` (zero elsewhere)."""
    mask = np.zeros(work.shape[:2], np.uint8)
    if not boxes:
        return mask
    # the table brightness (as paper_mask interpolates it) along the rows
    # once; each box then takes one small product
    levels = bg_tiles.max(axis=2).astype(np.float32)
    rows = np.einsum("ik,kl->il", _linear_weights(mask.shape[0], levels.shape[0]), levels)
    cols = _linear_weights(mask.shape[1], levels.shape[1])
    tinted = table_tinted(bg_tiles)
    for box in boxes:
        x0, y0, x1, y1 = box
        gx0, gy0, gx1, gy1 = _grow(box, 2, mask.shape)  # the opening's reach
        bgv = cv2.gemm(rows[gy0:gy1], cols[gx0:gx1], 1.0, None, 0.0, flags=cv2.GEMM_2_T)
        m = _paper_mask_at(work[gy0:gy1, gx0:gx1], bgv, tinted=tinted)
        mask[y0:y1, x0:x1] = m[y0 - gy0 : y1 - gy0, x0 - gx0 : x1 - gx0]
    return mask


def split_on_edges_in(mask: np.ndarray, work_gray: np.ndarray, boxes) -> np.ndarray:
    """:func:`split_on_edges` of the whole work copy, computed only in ``boxes``
    (the mask is zero elsewhere), each cut down to the box of its paper pixels
    first (a tile box holds about three times its paper)."""
    out = np.zeros_like(mask)
    for box in boxes:
        bx0, by0, bx1, by1 = box
        x, y, w, h = cv2.boundingRect(mask[by0:by1, bx0:bx1])
        if w == 0:
            continue
        x0, y0, x1, y1 = bx0 + x, by0 + y, bx0 + x + w, by0 + y + h
        gx0, gy0, gx1, gy1 = _grow((x0, y0, x1, y1), CUT_PAD, mask.shape)
        cuts = edge_cuts(work_gray[gy0:gy1, gx0:gx1])[y0 - gy0 : y1 - gy0, x0 - gx0 : x1 - gx0]
        # mask and not cuts (both 0/255): one saturating subtraction
        out[y0:y1, x0:x1] = cv2.subtract(mask[y0:y1, x0:x1], cuts)
    return out


_ELLIPSE5 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
_ONES5 = np.ones((5, 5), np.uint8)
_ONES2 = np.ones((2, 2), np.uint8)
_LINE_KERNELS = [
    np.ones((1, 9), np.uint8),
    np.ones((9, 1), np.uint8),
    np.eye(7, dtype=np.uint8),
    np.eye(7, dtype=np.uint8)[::-1].copy(),
]


def split_on_edges(mask: np.ndarray, work_gray: np.ndarray, line_contrast: int = 3) -> np.ndarray:
    """Cut paper regions along visible edges: the thin dark line (edge and
    shadow) where one card lies on another, and any strong step.  Then a card
    partly covered by another white card becomes its own region with its own
    corners."""
    return cv2.subtract(mask, edge_cuts(work_gray, line_contrast))  # mask and not cuts (both 0/255)


def edge_cuts(work_gray: np.ndarray, line_contrast: int = 3) -> np.ndarray:
    """The cuts :func:`split_on_edges` makes: thin dark lines and strong edges."""
    smooth = cv2.GaussianBlur(work_gray, (3, 3), 0.8)
    lines = cv2.morphologyEx(smooth, cv2.MORPH_BLACKHAT, _ELLIPSE5)
    # cv2.threshold and bitwise calls, not numpy: the same masks, several times faster
    strong = cv2.threshold(lines, 18, 255, cv2.THRESH_BINARY)[1]  # glyph strokes, strong edges
    near_ink = cv2.dilate(strong, _ONES5)
    faint = cv2.threshold(cv2.blur(lines, (3, 3)), line_contrast, 255, cv2.THRESH_BINARY)[1]
    faint = cv2.subtract(faint, near_ink)  # faint and not near ink (both 0/255)
    # JPEG blocks break a faint edge line into dashes: close gaps along 4
    # directions (away from glyphs, which would otherwise join the card edge);
    # each closing holds the faint line itself (its kernel holds its centre)
    closed = cv2.morphologyEx(faint, cv2.MORPH_CLOSE, _LINE_KERNELS[0])
    for k in _LINE_KERNELS[1:]:
        closed = cv2.bitwise_or(closed, cv2.morphologyEx(faint, cv2.MORPH_CLOSE, k))
    cuts = cv2.bitwise_or(cv2.bitwise_or(closed, strong), cv2.Canny(smooth, 40, 90))
    return cv2.dilate(cuts, _ONES2)


def quarter(work: np.ndarray) -> np.ndarray:
    """The work copy at quarter size (table colour and bare-table mask are made from it).

    Halved twice: each halving is OpenCV's fast 2x2 average, and the two cost
    a fifth of one 4x4 average (1280x720: 0.4 against 2.1 ms); a pixel may
    differ from the 4x4 average by one grey level (rounded twice)."""
    h, w = work.shape[:2]
    half = cv2.resize(work, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return cv2.resize(half, (w // 4, h // 4), interpolation=cv2.INTER_AREA)


def clear_mask(small: np.ndarray, bg_tiles: np.ndarray) -> np.ndarray:
    """Mask of pixels of ``small`` (the :func:`quarter` copy) that look like the bare table."""
    bg = cv2.resize(bg_tiles, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_LINEAR)
    # distance < 45 <=> squared distance < 2025 (whole numbers below 2**24: exact in float32)
    diff = cv2.absdiff(small, bg).astype(np.float32)
    d2 = cv2.transform(cv2.multiply(diff, diff), np.ones((1, 3), np.float32))
    return cv2.compare(d2, 45 * 45, cv2.CMP_LT) // 255


def _area_scales(H: np.ndarray, shape) -> tuple[float, float]:
    """Smallest and largest plane area per image pixel that the homography
    ``H`` (image -> plane) gives anywhere in an image of ``shape``: the area
    scale is |det H| / |w|^3, and w is linear, so the extremes are at the
    image corners (0 and inf when the horizon crosses the image)."""
    h, w = shape[:2]
    ws = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64) @ H[2]
    if not (np.all(ws > 0) or np.all(ws < 0)):
        return 0.0, float("inf")
    scales = abs(np.linalg.det(H)) / np.abs(ws) ** 3
    return float(scales.min()), float(scales.max())


def find_blobs(mask: np.ndarray, plane: Plane, min_area_mm2: float) -> list[Blob]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    # regions too small anywhere in the frame are passed over before their mapping
    min_px = 0.95 * min_area_mm2 / _area_scales(plane.work_to_plane, mask.shape)[1]
    blobs = []
    for c in contours:
        if len(c) < 20 or cv2.contourArea(c) < min_px:
            continue
        cp = plane.to_plane(c.reshape(-1, 2).astype(np.float32))
        area = abs(cv2.contourArea(cp))
        if area < min_area_mm2:
            continue
        rect = cv2.minAreaRect(cp)
        ra = rect[1][0] * rect[1][1]
        blobs.append(Blob(c.reshape(-1, 2), cp, area, rect, area / ra if ra > 0 else 0))
    return blobs


def _fit_edge(pts: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """A line through an edge's middle points: (point, direction) as floats."""
    if len(pts) < 4:
        return None
    n = len(pts)
    core = pts[n // 5 : n - n // 5] if n >= 10 else pts
    vx, vy, x0, y0 = cv2.fitLine(core, cv2.DIST_L2, 0, 0.01, 0.01).ravel().tolist()
    return (x0, y0), (vx, vy)


def _intersect(p1, d1, p2, d2) -> tuple[float, float] | None:
    """Where the lines p1 + t d1 and p2 + s d2 meet (Cramer's rule).  Plain
    floats: find_corners calls it for every pair of edges, where numpy's
    per-call cost on two-element arrays was most of the work."""
    det = d1[1] * d2[0] - d1[0] * d2[1]  # of [d1, -d2] as columns
    if abs(det) < 1e-6:
        return None
    bx, by = p2[0] - p1[0], p2[1] - p1[1]
    t = (by * d2[0] - bx * d2[1]) / det
    return p1[0] + t * d1[0], p1[1] + t * d1[1]


def _vertex_indices(cp: np.ndarray, approx: np.ndarray) -> list[int]:
    """Contour index of each vertex of ``approxPolyDP(cp)``, which keeps original
    points: each vertex's first exact occurrence in the contour, found by
    sorting the points' bit patterns (a vertex x contour distance table cost
    about a millisecond per large blob)."""
    keys = np.ascontiguousarray(cp, np.float32).view(np.int64).ravel()
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    want = np.ascontiguousarray(approx, np.float32).view(np.int64).ravel()
    pos = np.minimum(np.searchsorted(sorted_keys, want), len(keys) - 1)
    return order[pos].tolist()


def find_corners(blob_id: int, blob: Blob, metric: bool, min_edge: float = 9.0, max_gap: float = 9.0) -> list[Corner]:
    """Outer corners of a blob: two straight edges of at least ``min_edge`` mm
    that meet (across a rounded corner of up to ``max_gap`` mm) at about a right
    angle (wider tolerance without a mat, where perspective bends angles)."""
    cp = blob.contour_plane
    approx, idx = blob.simplified()
    n = len(approx)
    if n < 3:
        return []
    orient = np.sign(cv2.contourArea(cp.reshape(-1, 1, 2), oriented=True))
    lo, hi = (72, 108) if metric else (55, 125)
    chords = np.concatenate((approx[1:], approx[:1])) - approx  # float32, as the edge tests below take them
    lengths = np.linalg.norm(chords, axis=1)
    long_edges = np.flatnonzero(lengths >= min_edge).tolist()
    if len(long_edges) < 2:
        return []
    chords_l, lengths_l, approx_l = chords.tolist(), lengths.tolist(), approx.tolist()
    fits: dict[int, tuple[tuple[float, float], tuple[float, float]]] = {}

    def fit(k: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The line along edge ``k``, fitted to its contour points (only for edges that may make a corner)."""
        if k not in fits:
            i0, i1 = idx[k], idx[(k + 1) % n]
            seg = cp[i0:i1] if i1 >= i0 else np.concatenate((cp[i0:], cp[:i1]))
            f = _fit_edge(seg)
            cx, cy = chords_l[k]
            if f is None:  # too few points: the chord itself (float32, as it was computed)
                d = (chords[k] / lengths[k]).astype(np.float64)
                f = (tuple(approx[k].astype(np.float64).tolist()), (d[0], d[1]))
                dot = float(np.float32(f[1][0]) * chords[k][0] + np.float32(f[1][1]) * chords[k][1])
            else:
                dot = f[1][0] * cx + f[1][1] * cy
            (px, py), (dx, dy) = f
            fits[k] = ((float(px), float(py)), (float(dx), float(dy)) if dot > 0 else (-float(dx), -float(dy)))
        return fits[k]

    # the length of the contour between two vertices, by cumulative sums
    before = [0.0, *np.cumsum(lengths).tolist()]
    total = before[-1]
    out = []
    m = len(long_edges)
    for a in range(m):
        i, j = long_edges[a], long_edges[(a + 1) % m]
        gap = before[j] - before[i + 1] if j > i else total - before[i + 1] + before[j]
        if gap > max_gap:
            continue
        (p1, t1), (p2, t2) = fit(i), fit(j)
        cross = t1[0] * t2[1] - t1[1] * t2[0]
        if cross == 0 or (1.0 if cross > 0 else -1.0) != orient:  # turning the wrong way: concave
            continue
        ang = math.degrees(math.acos(min(max(-(t1[0] * t2[0] + t1[1] * t2[1]), -1.0), 1.0)))
        if not lo <= ang <= hi:
            continue
        point = _intersect(p1, t1, p2, t2)
        if point is None:
            continue
        vx, vy = approx_l[(i + 1) % n]
        if math.hypot(point[0] - vx, point[1] - vy) > max_gap + 3:
            continue
        out.append(Corner(blob_id, np.array(point), np.array([-t1[0], -t1[1]]), np.array(t2), lengths_l[i], lengths_l[j]))
    return out


#: how far (mm) a notched corner may lie beyond the straight edges that make it:
#: a corner index is at most about 11 x 24 mm
NOTCH_REACH = 26.0
#: share of a notched corner's cut-off triangle that may look like the table
NOTCH_TABLE = 0.25
#: mm a notched corner is set out along both edges (see find_notched_corners)
NOTCH_OUTSET = 1.0
#: mm from a card's corner within which its rounding (and blur) leaves the edge's line
ROUNDING = 4.5


def find_notched_corners(
    blob_id: int,
    blob: Blob,
    metric: bool,
    known: list[Corner],
    table_share: Callable[[np.ndarray], float],
    min_edge: float = 12.0,
) -> list[Corner]:
    """Outer corners that :func:`find_corners` cannot see because ink reaches
    (or nearly reaches) the card's edge there: an index printed up to the
    edge, or a frame line drawn round the face that the index touches, leaves
    the paper region notched, with no paper at the corner itself or only a
    broken sliver of it along the edge, so the outline there is no pair of
    straight runs.  Consecutive straight edges of the region's convex hull
    that the outline follows (not hull chords that bridge a gap), about at a
    right angle, whose lines meet within :data:`NOTCH_REACH` mm of both, make
    a corner when what they cut off beyond the hull is not table
    (``table_share(points in plane mm)`` says what share of the points look
    like the table: a notch filled with ink is a card, a step between two
    cards is table).  Between the two edges there may be any hull chords
    across the notch (together at most 1.5 x :data:`NOTCH_REACH`), or none,
    when a sliver of paper along the edge carries the hull to the corner.
    Each edge's line is fitted to the outline points on it only (not the
    notch's), so ink beside the edge does not tilt it.  Then the same between
    straight runs of the outline itself (:func:`_run_corners`).  Corners
    within 3 mm of ``known`` ones are not repeated; a region that is one
    rectangle with all four corners known has none."""
    cp = blob.contour_plane
    if len(cp) < 8 or _whole_card(blob, known):
        return []
    orient = float(np.sign(cv2.contourArea(cp.reshape(-1, 1, 2), oriented=True)))
    angles = (72.0, 108.0) if metric else (55.0, 125.0)
    hull = _hull_corners(blob_id, blob, orient, angles, known, table_share, min_edge)
    if not known and not hull:
        return []  # no card corner at all (a hand, a lamp's glare): its outline's runs are no card's edges
    return hull + _run_corners(blob_id, blob, orient, angles, [*known, *hull], table_share)


def _hull_corners(
    blob_id: int,
    blob: Blob,
    orient: float,
    angles: tuple[float, float],
    known: list[Corner],
    table_share: Callable[[np.ndarray], float],
    min_edge: float,
) -> list[Corner]:
    """:func:`find_notched_corners` between straight edges of the region's convex hull."""
    cp = blob.contour_plane
    hull = cv2.convexHull(cp.reshape(-1, 1, 2), returnPoints=False).ravel()
    if len(hull) < 3:
        return []
    hull = np.sort(hull)  # contour order (the hull of a contour keeps its points' order, either way round)
    pts = cp[hull]
    # merge nearly collinear hull vertices: the simplified hull's vertices, as contour indices
    approx = cv2.approxPolyDP(pts.reshape(-1, 1, 2), 1.0, True).reshape(-1, 2)
    keep = hull[_vertex_indices(pts, approx)] if len(approx) >= 3 else hull
    keep = np.sort(np.unique(keep)).tolist()
    m = len(keep)
    if m < 3:
        return []
    ends = cp[keep[1:] + keep[:1]] - cp[keep]
    chords = np.sqrt(ends[:, 0] * ends[:, 0] + ends[:, 1] * ends[:, 1]).tolist()
    ends_l = ends.tolist()

    def straight(k: int) -> bool:
        """Whether hull edge ``k`` is long and the outline follows it."""
        i0, i1 = keep[k], keep[(k + 1) % m]
        return chords[k] >= min_edge and _follows(_contour_run(cp, i0, i1), cp[i0], cp[i1], chords[k])

    # each straight edge with the next one, across any chords between them
    lines = [k for k in range(m) if straight(k)]
    pairs = [(ka, lines[(s + 1) % len(lines)]) for s, ka in enumerate(lines)] if len(lines) >= 2 else []
    fits: dict[int, tuple[tuple[float, float], tuple[float, float]] | None] = {}

    def fit(k: int):
        """Edge ``k``'s line (point, direction along the hull) from its own outline points, or None."""
        if k not in fits:
            i0, i1 = keep[k], keep[(k + 1) % m]
            f = _fit_straight(_contour_run(cp, i0, i1), cp[i0], cp[i1], chords[k])
            fits[k] = None if f is None else (f[0], _toward(f[1], cp[i1] - cp[i0]))
        return fits[k]

    out: list[Corner] = []
    known_at = _points(known)
    for ka, kb in pairs:
        between = [(ka + 1 + j) % m for j in range((kb - ka - 1) % m)]
        if sum(chords[j] for j in between) > NOTCH_REACH * 1.5:
            continue
        met = _lines_meet(
            (ends_l[ka], chords[ka], cp[keep[ka]].tolist()), (ends_l[kb], chords[kb], cp[keep[kb]].tolist()), orient, angles, known_at, fit, ka, kb
        )
        if met is None:
            continue
        fa, fb, point = met
        ta, tb = fa[1], fb[1]
        if _near(known_at, point, 3.0) or _known_at(out, point, 3.0):
            continue  # a corner found already
        end_a, start_b = cp[keep[(ka + 1) % m]].astype(np.float64), cp[keep[kb]].astype(np.float64)
        da, db = float(np.dot(point - end_a, ta)), float(np.dot(start_b - point, tb))
        if not (-1.0 < da < NOTCH_REACH and -1.0 < db < NOTCH_REACH):
            continue
        # what is cut off beyond the hull (the corner and the hull's vertices from one edge to the
        # other, a fan of triangles; nothing when the hull reaches the corner), and the notch
        # inside it (between each edge's line and the outline where it leaves the line near the
        # corner), each sampled inside
        chain = [end_a, *(cp[keep[(j + 1) % m]].astype(np.float64) for j in between)]
        if len(chain) > 1 and max(da, db) >= 2.0:
            tri = np.concatenate([point + _TRIANGLE[:, :1] * (q - point) + _TRIANGLE[:, 1:] * (r - point) for q, r in zip(chain, chain[1:], strict=False)])
            if table_share(tri) > NOTCH_TABLE:
                continue
        notch = np.concatenate([_notch_samples(_contour_run(cp, keep[k], keep[(k + 1) % m]), f, point) for k, f in ((ka, fa), (kb, fb))])
        if len(notch) and table_share(notch) > NOTCH_TABLE:
            continue
        d1, d2 = -np.asarray(ta), np.asarray(tb)
        # set out by NOTCH_OUTSET: the paper edge runs inside the card's edge
        # where a frame line is printed round the face (and blur eats into
        # it), and an index that reaches the edge must not touch the patch's border
        point = point - NOTCH_OUTSET * (d1 + d2)
        out.append(Corner(blob_id, point, d1, d2, chords[ka] + max(da, 0.0), chords[kb] + max(db, 0.0)))
    return out


#: longest outline path (mm) round a notch between two straight runs: in and
#: out along an index of at most about 11 x 24 mm
NOTCH_PATH = 60.0
#: shortest straight run of the outline (mm) that may make a notched corner
#: (a card's edge showing between its index and the next card of a stagger)
RUN_MIN = 7.0


def _run_corners(
    blob_id: int,
    blob: Blob,
    orient: float,
    angles: tuple[float, float],
    known: list[Corner],
    table_share: Callable[[np.ndarray], float],
) -> list[Corner]:
    """Notched corners between straight runs of the outline itself rather
    than of its hull: where a card lies under the next one of a stagger, only
    a short stub of its edge shows beyond its index, and the hull bridges the
    whole staircase.  Two straight runs (at least :data:`RUN_MIN` mm) with at
    most :data:`NOTCH_PATH` mm of outline between them, turning outward at
    about a right angle, make a corner where their lines meet when that point
    lies within :data:`NOTCH_REACH` mm beyond both runs, the outline between
    them stays on the card's side of both lines (the notch is cut into the
    card, not something beyond it), and what it cuts off is not table."""
    cp = blob.contour_plane
    approx, idx = blob.simplified()
    n = len(approx)
    if n < 4:
        return []
    seg = np.concatenate((approx[1:], approx[:1])) - approx
    lengths = np.sqrt(seg[:, 0] * seg[:, 0] + seg[:, 1] * seg[:, 1]).tolist()
    runs = np.flatnonzero(np.asarray(lengths) >= RUN_MIN).tolist()
    if len(runs) < 2:
        return []
    # every pair of runs with a short enough path between them: a notch's own walls are runs too
    # the outline's length from vertex 0 to each vertex (twice round, for paths across vertex 0)
    at = np.concatenate(([0.0], np.cumsum(lengths + lengths))).tolist()
    pairs = []
    for s, ka in enumerate(runs):
        for t in range(1, len(runs)):
            kb = runs[(s + t) % len(runs)]
            between = (kb - ka - 1) % n
            if at[ka + 1 + between] - at[ka + 1] > NOTCH_PATH:
                break
            if between:  # adjacent runs are find_corners' corners
                pairs.append((ka, kb))
    fits: dict[int, tuple[tuple[float, float], tuple[float, float]] | None] = {}

    def fit(k: int):
        """Run ``k``'s line (point, direction along the run), or None (fitted only where needed)."""
        if k not in fits:
            f = _fit_edge(_contour_run(cp, idx[k], idx[(k + 1) % n]))
            fits[k] = None if f is None else (f[0], _toward(f[1], seg[k]))
        return fits[k]

    seg_l, approx_l = seg.tolist(), approx.tolist()
    out: list[Corner] = []
    known_at = _points(known)
    for ka, kb in _chords_may_meet(seg, lengths, pairs, orient, angles):
        # the chords first (turning outward, roughly square): most pairs end here, unfitted
        met = _lines_meet((seg_l[ka], lengths[ka], approx_l[ka]), (seg_l[kb], lengths[kb], approx_l[kb]), orient, angles, known_at, fit, ka, kb)
        if met is None:
            continue
        fa, fb, point = met
        ta, tb = fa[1], fb[1]
        end_a, start_b = approx[(ka + 1) % n].astype(np.float64), approx[kb].astype(np.float64)
        da, db = float(np.dot(point - end_a, ta)), float(np.dot(start_b - point, tb))
        if not (-1.0 < da < NOTCH_REACH and -1.0 < db < NOTCH_REACH) or max(da, db) < 2.0:
            continue
        if _near(known_at, point, 3.0) or _known_at(out, point, 3.0):
            continue
        if _near(known_at, end_a) and _near(known_at, start_b):
            continue  # a corner where each run ends: a step between two cards, not a notch
        d1, d2 = -np.asarray(ta), np.asarray(tb)
        path = _contour_run(cp, idx[(ka + 1) % n], idx[kb]).astype(np.float64)
        rel = path - point
        if (rel @ d1).min() < -1.0 or (rel @ d2).min() < -1.0:
            continue  # the outline between leaves the card's quadrant: not a notch in it
        # the notch (the corner and the outline between), sampled as a fan of triangles from the corner
        verts = np.concatenate((path[:: max(1, len(path) // 12)], path[-1:])) - point
        # every triangle (corner, vertex, next vertex) at once: (triangles, samples, 2)
        tri = point + _TRIANGLE[None, :, :1] * verts[:-1, None] + _TRIANGLE[None, :, 1:] * verts[1:, None]
        if table_share(tri.reshape(-1, 2)) > NOTCH_TABLE:
            continue
        out.append(Corner(blob_id, point - NOTCH_OUTSET * (d1 + d2), d1, d2, lengths[ka] + max(da, 0.0), lengths[kb] + max(db, 0.0)))
    return out


def _chords_may_meet(seg: np.ndarray, lengths: list[float], pairs: list[tuple[int, int]], orient: float, angles: tuple[float, float]) -> list[tuple[int, int]]:
    """The pairs of edges (``seg``: their chords, ``lengths`` theirs) that may
    pass :func:`_lines_meet`'s chord tests, all tested at once: its turn
    (the same products in float64, so the same sign) and its angle with a
    millionth of a degree to spare (numpy's arccos may differ from math.acos
    in the last bit), so that no pair it would take is left out; the pairs
    kept are tested again there, exactly."""
    if len(pairs) < 8:
        return pairs
    pa = np.array(pairs)
    a, b = seg[pa[:, 0]].astype(np.float64), seg[pa[:, 1]].astype(np.float64)
    ln = np.array(lengths, np.float64)
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    turn = np.where(cross > 0, 1.0, -1.0)
    cos = -(a[:, 0] * b[:, 0] + a[:, 1] * b[:, 1]) / (ln[pa[:, 0]] * ln[pa[:, 1]])
    ang = np.degrees(np.arccos(np.clip(cos, -1.0, 1.0)))
    lo, hi = angles
    keep = (cross != 0) & (turn == orient) & (ang >= lo - 15 - 1e-6) & (ang <= hi + 15 + 1e-6)
    return [pairs[i] for i in np.flatnonzero(keep).tolist()]


def _whole_card(blob: Blob, known: list[Corner]) -> bool:
    """Whether ``blob`` is one rectangle with a known corner at each of its
    four corners: nothing is notched."""
    if len(known) < 4 or blob.rectangularity < 0.9:
        return False
    return all(_known_at(known, p, 3.0) for p in cv2.boxPoints(blob.rect))


def _lines_meet(a, b, orient: float, angles: tuple[float, float], known: list[tuple[float, float]], fit, ka: int, kb: int):
    """Where edges ``ka`` and ``kb`` of an outline meet as a card corner: (fitted
    line a, fitted line b, the point), or None.  ``a``/``b``: each edge's chord
    (vector, length, start).  The chords are tested first (turning the
    outline's way, ``orient``, within 15 degrees of ``angles``; their lines
    not meeting at a corner found already), as most pairs end there before
    any line is fitted; then the lines ``fit(k)`` gives must turn the same
    way within ``angles`` and meet."""
    lo, hi = angles
    ((ax, ay), la, a_at), ((bx, by), lb, b_at) = a, b
    cross = ax * by - ay * bx
    if cross == 0 or (1.0 if cross > 0 else -1.0) != orient:
        return None
    if not lo - 15 <= math.degrees(math.acos(min(max(-(ax * bx + ay * by) / (la * lb), -1.0), 1.0))) <= hi + 15:
        return None
    guess = _intersect(a_at, (ax, ay), b_at, (bx, by))
    if guess is None or _near(known, guess, 2.0):
        return None  # a corner found already (the chords' lines meet there): not fitted again
    fa, fb = fit(ka), fit(kb)
    if fa is None or fb is None:
        return None
    ta, tb = fa[1], fb[1]
    cross = ta[0] * tb[1] - ta[1] * tb[0]
    if cross == 0 or (1.0 if cross > 0 else -1.0) != orient:
        return None
    if not lo <= math.degrees(math.acos(min(max(-(ta[0] * tb[0] + ta[1] * tb[1]), -1.0), 1.0))) <= hi:
        return None
    p = _intersect(fa[0], ta, fb[0], tb)
    return None if p is None else (fa, fb, np.array(p))


def _known_at(known: list[Corner], p: np.ndarray, r: float = 2.5) -> bool:
    """Whether a corner of ``known`` lies within ``r`` mm of ``p``."""
    return _near(_points(known), p, r)


def _points(known: list[Corner]) -> list[tuple[float, float]]:
    """The corners' points as floats (for :func:`_near`, converted once for many questions)."""
    return [(float(c.point[0]), float(c.point[1])) for c in known]


def _near(points: list[tuple[float, float]], p, r: float = 2.5) -> bool:
    """Whether one of ``points`` lies within ``r`` mm of ``p``."""
    x, y = float(p[0]), float(p[1])
    return any(math.hypot(kx - x, ky - y) < r for kx, ky in points)


def _notch_samples(run: np.ndarray, line: tuple[tuple[float, float], tuple[float, float]], corner: np.ndarray, most: int = 40) -> np.ndarray:
    """Points inside the notch that ink cuts into a straight edge near its
    corner: halfway between each outline point of ``run`` off the edge's
    ``line`` (by 0.8 mm or more) and its foot on the line, for feet from
    :data:`ROUNDING` to :data:`NOTCH_REACH` mm from ``corner`` (at most
    ``most`` of them; the card's rounded corner, table outside it, is no
    notch)."""
    (px, py), (dx, dy) = line
    rel = run - (px, py)
    t = rel[:, 0] * dx + rel[:, 1] * dy
    feet = np.stack((px + t * dx, py + t * dy), axis=1)
    off = np.abs(rel[:, 0] * dy - rel[:, 1] * dx)
    along = np.hypot(feet[:, 0] - corner[0], feet[:, 1] - corner[1])
    near = (along > ROUNDING) & (along < NOTCH_REACH)
    sel = np.flatnonzero((off >= 0.8) & near)
    sel = sel[:: max(1, len(sel) // most)]
    return (run[sel] + feet[sel]) / 2


def _fit_straight(run: np.ndarray, a: np.ndarray, b: np.ndarray, chord: float, near: float = 0.8) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The line of a straight edge from ``a`` to ``b`` fitted to the points
    of the outline ``run`` that lie on it (within ``near`` mm of the chord,
    then of the first fit): a notch's points, which the run also holds when
    ink cuts into the edge, would tilt a fit to all of them."""
    d = (b - a) / chord
    rel = run - a
    on = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0]) < near
    if np.count_nonzero(on) < 4:
        return None
    vx, vy, x0, y0 = cv2.fitLine(run[on], cv2.DIST_L2, 0, 0.01, 0.01).ravel().tolist()
    on = np.abs((run[:, 0] - x0) * vy - (run[:, 1] - y0) * vx) < 0.6 * near
    if np.count_nonzero(on) >= 4:
        vx, vy, x0, y0 = cv2.fitLine(run[on], cv2.DIST_L2, 0, 0.01, 0.01).ravel().tolist()
    return (x0, y0), (vx, vy)


def _follows(run: np.ndarray, a: np.ndarray, b: np.ndarray, chord: float, near: float = 0.8, share: float = 0.7) -> bool:
    """Whether the outline ``run`` from ``a`` to ``b`` lies along the chord
    between them for at least ``share`` of its length (a straight edge with
    glyph nicks, not a hull chord bridging a gap)."""
    d = (b - a) / chord
    rel = run - a
    t = rel @ d
    off = np.abs(rel[:, 0] * d[1] - rel[:, 1] * d[0])
    k = (t[off < near] * (40 / chord)).astype(np.int64)
    bins = np.zeros(40, bool)
    bins[np.minimum(np.maximum(k, 0, out=k), 39, out=k)] = True
    return int(np.count_nonzero(bins)) >= share * 40


#: barycentric sample points inside a triangle (weights of its second and third corner)
_TRIANGLE = np.array([(x, y) for x in np.linspace(0.1, 0.9, 5) for y in np.linspace(0.1, 0.9, 5) if x + y <= 1.0])


def _contour_run(cp: np.ndarray, i0: int, i1: int) -> np.ndarray:
    return cp[i0 : i1 + 1] if i1 >= i0 else np.concatenate((cp[i0:], cp[: i1 + 1]))


def _toward(d: tuple[float, float], chord: np.ndarray) -> tuple[float, float]:
    """``d`` turned to run the way of ``chord``."""
    return d if d[0] * chord[0] + d[1] * chord[1] > 0 else (-d[0], -d[1])


#: colour distance within which a frame pixel looks like the table colour of its tile
TABLE_NEAR = 45.0


def table_share_fn(frame: np.ndarray, plane: Plane, bg_tiles: np.ndarray, near: float = TABLE_NEAR) -> Callable[[np.ndarray], float]:
    """``share(points in plane mm)``: the share of the points whose frame
    pixel is within ``near`` (colour distance) of the table colour of its tile."""
    h, w = frame.shape[:2]
    ty, tx = bg_tiles.shape[:2]
    tiles = bg_tiles.astype(np.float32)

    def share(points: np.ndarray) -> float:
        px = plane.to_frame(np.asarray(points, np.float32))
        x = np.clip(px[:, 0], 0, w - 1).astype(np.int64)
        y = np.clip(px[:, 1], 0, h - 1).astype(np.int64)
        col = frame[y, x].astype(np.float32)
        bg = tiles[np.minimum(y * ty // h, ty - 1), np.minimum(x * tx // w, tx - 1)]
        return float(np.mean(np.linalg.norm(col - bg, axis=1) < near))

    return share


def patch_homography(plane: Plane, point: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Patch pixels -> frame pixels, for a patch whose x runs along ``u`` and y along ``v``."""
    s = 1.0 / PATCH_PPM
    A = np.array([[u[0] * s, v[0] * s, point[0]], [u[1] * s, v[1] * s, point[1]], [0, 0, 1]])
    return plane.plane_to_frame @ A


def sample_patch(frame: np.ndarray, plane: Plane, point: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The upright index patch at a corner: ``u`` along the short edge, ``v`` along
    the long edge.  Mirror-image frames (corner on the right) are flipped."""
    M = patch_homography(plane, point, u, v)
    patch = cv2.warpPerspective(frame, M, (PATCH_W, PATCH_H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    if mirrored(u, v):
        patch = patch[:, ::-1]
    return patch


def mirrored(u: np.ndarray, v: np.ndarray) -> bool:
    """Whether a corner frame (``u`` across, ``v`` down) is the mirror image of
    a face-up card's own index corner: ``u`` does not turn into ``v`` as the
    plane's x axis turns into its y axis (a four-index deck's other corners)."""
    return bool(u[0] * v[1] - u[1] * v[0] < 0)


def inside(p, poly) -> bool:
    """Whether point ``p`` lies in polygon ``poly`` or on its edge (any
    units, the same for both)."""
    return cv2.pointPolygonTest(np.float32(poly).reshape(-1, 1, 2), (float(p[0]), float(p[1])), False) >= 0


def card_outline(point: np.ndarray, u: np.ndarray, v: np.ndarray, w: float = g.CARD_W, h: float = g.CARD_H) -> np.ndarray:
    """The whole card, in plane mm, from one corner and its inward edge directions."""
    return np.array([point, point + w * u, point + w * u + h * v, point + h * v], np.float64)


def rect_outline(rect) -> np.ndarray:
    return cv2.boxPoints(rect).astype(np.float64)


def overlap_area(a: np.ndarray, b: np.ndarray) -> float:
    """Area shared by two convex outlines, either winding (an outline built
    from a corner with its edges swapped runs the other way round)."""
    ha = cv2.convexHull(np.float32(a).reshape(-1, 1, 2))
    hb = cv2.convexHull(np.float32(b).reshape(-1, 1, 2))
    inter, _ = cv2.intersectConvexConvex(ha, hb)
    return float(inter)


def find_quads(work_gray: np.ndarray, plane: Plane, card_area: float) -> list[np.ndarray]:
    """Card-sized convex quadrilaterals from edges (full-bleed backs, cards on
    light cloth), as plane-mm outlines."""
    # half size: a card is still 60+ px wide there, and Canny and the contour
    # search cost a quarter as much
    half = cv2.resize(work_gray, (work_gray.shape[1] // 2, work_gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
    plane = Plane(plane.work_to_plane @ np.diag([2.0, 2.0, 1.0]), plane.plane_to_frame, plane.metric)
    edges = cv2.Canny(half, 40, 120)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    # contours that cannot be card-sized anywhere are passed over before their (costly) mapping
    smin, smax = _area_scales(plane.work_to_plane, half.shape)
    lo_px = 0.7 * card_area / (1.05 * smax)
    hi_px = 1.35 * card_area / (0.95 * smin) if smin > 0 else np.inf
    quads = []
    for c in contours:
        if len(c) < 8:
            continue
        x, y, w, h = cv2.boundingRect(c)
        if w * h < 50 or w * h < lo_px:  # the box holds at least the contour's area
            continue
        if not lo_px < cv2.contourArea(c) < hi_px:
            continue
        cp = plane.to_plane(c.reshape(-1, 2).astype(np.float32))
        area = abs(cv2.contourArea(cp))
        if not 0.7 * card_area < area < 1.35 * card_area:
            continue
        hull = cv2.convexHull(cp.reshape(-1, 1, 2))
        ap = cv2.approxPolyDP(hull, 3.0, True).reshape(-1, 2)
        if len(ap) != 4:
            rect = cv2.minAreaRect(cp)
            if area / max(rect[1][0] * rect[1][1], 1) < 0.9:
                continue
            ap = cv2.boxPoints(rect)
        sides = sorted(np.linalg.norm(ap - np.roll(ap, 1, axis=0), axis=1))
        aspect = (sides[0] + sides[1]) / (sides[2] + sides[3])
        if not 0.6 < aspect < 0.85:
            continue
        quads.append(ap.astype(np.float64))
    return quads
