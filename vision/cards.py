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

from dataclasses import dataclass

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


def background_colour(work: np.ndarray, tiles: tuple[int, int] = (4, 3)) -> np.ndarray:
    """Per-tile most common colour (the table), as a small BGR image of tiles.
    ``work`` may be any reduced copy of the frame (the pipeline passes the
    quarter-size one: shrinking that is far cheaper than the whole frame)."""
    small = cv2.resize(work, (tiles[0] * 24, tiles[1] * 24), interpolation=cv2.INTER_AREA)
    q = (small // 32).astype(np.int32)
    codes = q[..., 0] * 64 + q[..., 1] * 8 + q[..., 2]
    out = np.zeros((tiles[1], tiles[0], 3), np.uint8)
    for ty in range(tiles[1]):
        for tx in range(tiles[0]):
            c = codes[ty * 24 : (ty + 1) * 24, tx * 24 : (tx + 1) * 24].ravel()
            mode = np.bincount(c, minlength=512).argmax()
            sel = small[ty * 24 : (ty + 1) * 24, tx * 24 : (tx + 1) * 24].reshape(-1, 3)[c == mode]
            out[ty, tx] = np.median(sel, axis=0)
    return out


def paper_mask(work: np.ndarray, bg_tiles: np.ndarray) -> np.ndarray:
    """Pixels that look like card paper: unsaturated and clearly brighter than
    the table around them (so light tables and lamp gradients still work)."""
    hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)
    s, v = hsv[..., 1], hsv[..., 2]
    bgv = cv2.resize(bg_tiles.max(axis=2).astype(np.float32), (work.shape[1], work.shape[0]), interpolation=cv2.INTER_LINEAR)
    thr = np.maximum(bgv + 28, 90).astype(np.uint8)
    # cv2 compares instead of numpy boolean arrays: the same mask, a few times faster
    mask = cv2.bitwise_and(cv2.compare(s, 75, cv2.CMP_LT), cv2.compare(v, thr, cv2.CMP_GT))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask


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
    smooth = cv2.GaussianBlur(work_gray, (3, 3), 0.8)
    lines = cv2.morphologyEx(smooth, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    strong = (lines > 18).astype(np.uint8) * 255  # glyph strokes, strong edges
    near_ink = cv2.dilate(strong, np.ones((5, 5), np.uint8))
    faint = (cv2.blur(lines, (3, 3)) > line_contrast).astype(np.uint8) * 255
    faint &= cv2.bitwise_not(near_ink)
    # JPEG blocks break a faint edge line into dashes: close gaps along 4
    # directions (away from glyphs, which would otherwise join the card edge)
    closed = faint.copy()
    for k in _LINE_KERNELS:
        closed |= cv2.morphologyEx(faint, cv2.MORPH_CLOSE, k)
    cuts = closed | strong | cv2.Canny(smooth, 40, 90)
    cuts = cv2.dilate(cuts, np.ones((2, 2), np.uint8))
    return cv2.bitwise_and(mask, cv2.bitwise_not(cuts))


def quarter(work: np.ndarray) -> np.ndarray:
    """The work copy at quarter size (table colour and bare-table mask are made from it)."""
    return cv2.resize(work, (work.shape[1] // 4, work.shape[0] // 4), interpolation=cv2.INTER_AREA)


def clear_mask(small: np.ndarray, bg_tiles: np.ndarray) -> np.ndarray:
    """Mask of pixels of ``small`` (the :func:`quarter` copy) that look like the bare table."""
    bg = cv2.resize(bg_tiles, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_LINEAR)
    # distance < 45 <=> squared distance < 2025 (integers: exact, and no float norm)
    diff = cv2.absdiff(small, bg).astype(np.int32)
    d2 = (diff * diff).sum(axis=2)
    return (d2 < 45 * 45).astype(np.uint8)


def find_blobs(mask: np.ndarray, plane: Plane, min_area_mm2: float) -> list[Blob]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    blobs = []
    for c in contours:
        if len(c) < 20:
            continue
        cp = plane.to_plane(c.reshape(-1, 2).astype(np.float32))
        area = abs(cv2.contourArea(cp))
        if area < min_area_mm2:
            continue
        rect = cv2.minAreaRect(cp)
        ra = rect[1][0] * rect[1][1]
        blobs.append(Blob(c.reshape(-1, 2), cp, area, rect, area / ra if ra > 0 else 0))
    return blobs


def _fit_edge(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    if len(pts) < 4:
        return None
    n = len(pts)
    core = pts[n // 5 : n - n // 5] if n >= 10 else pts
    vx, vy, x0, y0 = cv2.fitLine(core.astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0]), np.array([vx, vy])


def _intersect(p1, d1, p2, d2) -> np.ndarray | None:
    A = np.array([d1, -d2]).T
    if abs(np.linalg.det(A)) < 1e-6:
        return None
    t = np.linalg.solve(A, p2 - p1)
    return p1 + t[0] * d1


def find_corners(blob_id: int, blob: Blob, metric: bool, min_edge: float = 9.0, max_gap: float = 9.0) -> list[Corner]:
    """Outer corners of a blob: two straight edges of at least ``min_edge`` mm
    that meet (across a rounded corner of up to ``max_gap`` mm) at about a right
    angle (wider tolerance without a mat, where perspective bends angles)."""
    cp = blob.contour_plane
    N = len(cp)
    approx = cv2.approxPolyDP(cp.reshape(-1, 1, 2), 1.2, True).reshape(-1, 2)
    n = len(approx)
    if n < 3:
        return []
    # contour index of each vertex (approxPolyDP keeps original points, in order)
    d = np.abs(cp[None, :, 0] - approx[:, None, 0]) + np.abs(cp[None, :, 1] - approx[:, None, 1])
    idx = d.argmin(axis=1).tolist()
    orient = np.sign(cv2.contourArea(cp.reshape(-1, 1, 2), oriented=True))
    lo, hi = (72, 108) if metric else (55, 125)
    lengths = np.linalg.norm(np.roll(approx, -1, axis=0) - approx, axis=1)
    long_edges = [k for k in range(n) if lengths[k] >= min_edge]
    if len(long_edges) < 2:
        return []
    fits = {}
    for k in long_edges:
        i0, i1 = idx[k], idx[(k + 1) % n]
        seg = cp[np.arange(i0, i1 + (N if i1 < i0 else 0)) % N]
        f = _fit_edge(seg)
        if f is None:
            f = (approx[k].astype(np.float64), (approx[(k + 1) % n] - approx[k]) / lengths[k])
        d = f[1] if np.dot(f[1], approx[(k + 1) % n] - approx[k]) > 0 else -f[1]
        fits[k] = (np.asarray(f[0], np.float64), np.asarray(d, np.float64))
    out = []
    m = len(long_edges)
    for a in range(m):
        i, j = long_edges[a], long_edges[(a + 1) % m]
        gap = sum(lengths[k % n] for k in range(i + 1, j + (n if j <= i else 0)))
        if gap > max_gap:
            continue
        (p1, t1), (p2, t2) = fits[i], fits[j]
        cross = t1[0] * t2[1] - t1[1] * t2[0]
        if cross == 0 or np.sign(cross) != orient:  # turning the wrong way: concave
            continue
        ang = np.degrees(np.arccos(np.clip(np.dot(-t1, t2), -1, 1)))
        if not lo <= ang <= hi:
            continue
        point = _intersect(p1, t1, p2, t2)
        if point is None or np.linalg.norm(point - approx[(i + 1) % n]) > max_gap + 3:
            continue
        out.append(Corner(blob_id, point, -t1, t2, float(lengths[i]), float(lengths[j])))
    return out


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
    if u[0] * v[1] - u[1] * v[0] < 0:
        patch = patch[:, ::-1]
    return patch


def card_outline(point: np.ndarray, u: np.ndarray, v: np.ndarray, w: float = g.CARD_W, h: float = g.CARD_H) -> np.ndarray:
    """The whole card, in plane mm, from one corner and its inward edge directions."""
    return np.array([point, point + w * u, point + w * u + h * v, point + h * v], np.float64)


def rect_outline(rect) -> np.ndarray:
    return cv2.boxPoints(rect).astype(np.float64)


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
    quads = []
    for c in contours:
        if len(c) < 8:
            continue
        x, y, w, h = cv2.boundingRect(c)
        if w * h < 50:
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
