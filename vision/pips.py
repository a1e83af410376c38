"""A number card read from its face: the count, layout and suit of its pips.

At 720p a corner index is small (rank glyphs 6-9 px, the suit 5-9 px) and the
reader declines many: the rank is sure but the suit is split between spades
and clubs (or hearts and diamonds), or a small rank between 6 and 8.  The
same card's pips are about twice the index suit's size, and every French or
English deck lays a number card's pips out the same way: 2-10 pips of one
size and colour, symmetric left to right, and (but for the 7's extra pip)
symmetric under a half turn, upright in the top half and turned in the
bottom half.  So where the card's face lies uncovered on its own paper
region, its pips are counted and their suit read by the suit networks
(their input is scale-normalised), pooled over the pips.

Neither is trusted alone: the count names a rank only when the index's own
networks put it among their two likeliest, and the pooled pip suit must be
of the index ink's colour and not ruled out by the index.  Aces and court
cards are not read here (an ace's one pip is drawn differently in every
deck; a court card's picture holds no count).

Pure functions: the pipeline picks the corners and gives their evidence."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

import cv2
import numpy as np

from . import geometry as g
from . import glyph_model
from .cards import Plane
from .corner_index import Evidence, redness_says
from .glyphs import RANKS, RED_SUITS, SUITS
from .suit_decision import likeliest_suit, suit_share

#: face sampling, pixels per mm: a 10 mm pip is 20 px, about what the suit
#: networks see of an index suit at 4 px/mm (12-20 px)
FACE_PPM = 2.0
#: the pips' least span (centre to centre, mm) across and along the card (across: 4 pips or more)
MIN_SPAN_MM = (15.0, 38.0)
#: margin of a pip's grey view around its box (as corner_index.VIEW_PAD)
VIEW_PAD = 3
#: how far (mm) the card outline's corners are moved towards its centre before its
#: share on the paper is measured, leaving out a rim 2.9 mm wide along the long edges
#: and 4 mm at the ends: the paper region's edge runs 1-2 mm inside the card's (its
#: rounded corners, the mask's blur), and no pip lies in that rim (the generator's
#: pips lie 13 mm or more inside the edge; 41 third-party decks' 9.5 mm from the long
#: edges, 5.4 mm from the ends).  At 2 mm, 720p bench cards lying whole measured
#: 0.95-0.96 and were not read by their pips
COVER_MARGIN_MM = 5.0


@dataclass(frozen=True)
class PipThresholds:
    #: the card outline's share (its corners COVER_MARGIN_MM in) that must lie on the corner's paper region
    cover: float = 0.97
    #: pip height, mm (a 720p pip is 12-20 px; the index suit is 3-5 mm)
    min_pip_mm: float = 5.5
    max_pip_mm: float = 20.0
    #: pips of one card differ in height by at most this share of their median
    size_spread: float = 0.2
    #: ink larger than this (mm, either side) is a picture, a frame or an occluder: no count
    max_ink_mm: float = 24.0
    #: symmetry tolerance, mm
    sym_mm: float = 2.5
    #: the middle of the pips' span at most this far from the sampled card's centre, mm
    off_centre_mm: float = 6.0
    #: the pips may lie turned this much (degrees) against the sampled card
    max_turn_deg: float = 4.0
    #: the pooled pip suit's share among the suits of the ink's colour
    suit: float = 0.9
    #: the share of pips whose own likeliest suit is the pooled one
    suit_agree: float = 0.75
    #: the index networks' (averaged over its looks) probability of the counted rank
    index_rank: float = 0.05
    #: the index networks' share of the pip suit (not ruled out by the index)
    index_suit: float = 0.1


PIPS = PipThresholds()


@dataclass(frozen=True)
class Pip:
    x: float  # mm from the middle of the pips' span, along the card's short edge
    y: float  # mm from it along the long edge (down: the index's corner is up-left)
    w: float
    h: float
    suit_p: np.ndarray  # glyph_model.SUIT_CLASSES, the pip turned upright


@dataclass(frozen=True)
class PipFace:
    """What a face shows: its pips (the largest group of one size and colour),
    their colour, and why a count is not made (``why``, empty when it is)."""

    pips: tuple[Pip, ...] = ()
    red: bool | None = None
    why: str = ""
    others: int = 0  # pip-sized ink outside the group (unexplained)
    suit_p: np.ndarray | None = field(default=None, compare=False)  # pooled (mean) over the pips

    @property
    def count(self) -> int:
        return len(self.pips)


@dataclass(frozen=True)
class PipReading:
    rank: str
    suit: str
    confidence: float


def face_cover(outline: np.ndarray, contour: np.ndarray, shrink: float = COVER_MARGIN_MM, quick: bool = True) -> float:
    """The share of the card ``outline`` (plane mm, 4 corners), its corners
    moved ``shrink`` mm towards its centre, that lies inside the paper region ``contour``
    (plane mm): 1 when no other card or hand covers the face.  Rasterised at
    1 px/mm over the outline's box; with ``quick``, 0 at once when a corner of the shrunk
    outline lies more than 5 mm off the paper (a caller asking for nearly all
    of the face needs no count then; one that allows a finger over a corner does)."""
    outline = np.asarray(outline, np.float64)
    contour = np.asarray(contour, np.float64).reshape(-1, 2)
    if outline.shape != (4, 2) or len(contour) < 3 or not (np.isfinite(outline).all() and np.isfinite(contour).all()):
        return 0.0
    c = outline.mean(axis=0)
    d = outline - c
    n = np.linalg.norm(d, axis=1, keepdims=True)
    if n.min() <= shrink:
        return 0.0
    inner = c + d * (1 - shrink / n)
    poly = contour.astype(np.float32).reshape(-1, 1, 2)
    # quick: a corner more than 5 mm off the paper leaves much of the face off it
    if quick and any(cv2.pointPolygonTest(poly, (x, y), True) < -5.0 for x, y in inner.tolist()):
        return 0.0
    x0, y0 = np.floor(inner.min(axis=0)) - 1
    x1, y1 = np.ceil(inner.max(axis=0)) + 1
    w, h = int(x1 - x0), int(y1 - y0)
    if w <= 0 or h <= 0 or w * h > 4e6:
        return 0.0
    card = np.zeros((h, w), np.uint8)
    cv2.fillPoly(card, [np.round(inner - (x0, y0)).astype(np.int32)], 1)
    paper = np.zeros((h, w), np.uint8)
    cv2.fillPoly(paper, [np.round(contour - (x0, y0)).astype(np.int32)], 1)
    # 0/1 masks: their counts are their sums
    total = cv2.countNonZero(card)
    return float(cv2.countNonZero(card & paper) / total) if total else 0.0


def face_size(ppm: float = FACE_PPM) -> tuple[int, int]:
    """The (width, height) px of a face :func:`sample_face` samples at ``ppm``."""
    return int(round(g.CARD_W * ppm)), int(round(g.CARD_H * ppm))


def sample_face(
    frame: np.ndarray, plane: Plane, point: np.ndarray, u: np.ndarray, v: np.ndarray, ppm: float = FACE_PPM, rows: int | None = None
) -> np.ndarray:
    """The whole card face, upright (its index corner ``point`` at the top
    left, ``u`` along the short edge), at ``ppm`` px/mm from the full-resolution
    frame.  Mirror-image frames are flipped, as corner patches are.  ``rows``:
    only the face's top rows (the warp maps each pixel on its own, so they are
    the whole face's first rows: vision.near_pip looks at little over half)."""
    s = 1.0 / ppm
    A = np.array([[u[0] * s, v[0] * s, point[0]], [u[1] * s, v[1] * s, point[1]], [0, 0, 1]])
    M = plane.plane_to_frame @ A
    size = face_size(ppm)
    if rows is not None:
        size = (size[0], min(size[1], rows))
    face = cv2.warpPerspective(frame, M, size, flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    if u[0] * v[1] - u[1] * v[0] < 0:
        # face[:, ::-1] laid out afresh: OpenCV copies a reversed view at every call it is
        # given to (a mirrored face's read_row took ~0.3 ms more than an upright one's)
        face = cv2.flip(face, 1)
    return face


def _in_index_zone(x: float, y: float) -> bool:
    """Card mm from the top-left: where some corner's index sits (all four
    corners: four-index decks), not where pips are."""
    side = x < 11.0 or x > g.CARD_W - 11.0
    end = y < 30.0 or y > g.CARD_H - 30.0
    return side and end


def face_ink(face: np.ndarray) -> np.ndarray:
    """Ink strength of a BGR face: dark or coloured on light paper -> high."""
    return cv2.bitwise_not(cv2.min(cv2.min(face[:, :, 0], face[:, :, 1]), face[:, :, 2]))


def pip_glyph(raw: np.ndarray, labels: np.ndarray, i: int, x: int, y: int, w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """The suit networks' two inputs for the pip labelled ``i`` in box (x, y,
    w, h): its own ink (the component grown a pixel, so its blurred rim
    counts) and the ink of the box with VIEW_PAD px round it."""
    own = cv2.dilate((labels[y : y + h, x : x + w] == i).view(np.uint8), np.ones((3, 3), np.uint8))
    H, W = raw.shape[:2]
    view = raw[max(y - VIEW_PAD, 0) : min(y + h + VIEW_PAD, H), max(x - VIEW_PAD, 0) : min(x + w + VIEW_PAD, W)]
    return raw[y : y + h, x : x + w] * own, view


def components(binary: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats(binary, connectivity=8)``'s count, labels
    and stats, by the block-based decision table algorithm (BBDT) rather than the
    default (Spaghetti): both label 2x2 blocks in raster order and number the
    components alike, and gave the same labels, stats and centroids on 60000
    random images, 1 and 2 threads (tests/test_vision_pip_speed_same.py); on a
    sparse face it takes a third to half the time (a 176x126 face's ink ~170 ->
    ~55 us, a pip row's ~90 -> ~30 us)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(binary, 8, cv2.CV_32S, cv2.CCL_BBDT)
    return n, labels, stats


def in_labels(labels: np.ndarray, n: int, keep: list[int]) -> np.ndarray:
    """``np.isin(labels, keep)`` for component labels below ``n``: a lookup table
    indexed by the labels, not a sort (a 176x126 face: ~0.08-0.2 -> ~0.05 ms)."""
    table = np.zeros(n, bool)
    table[keep] = True
    return table[labels]


def ink_is_red(face: np.ndarray, sel: np.ndarray, paper: np.ndarray) -> bool | None:
    """True if the ink under ``sel`` is red, False if black or blue, None if unsure
    (as corner_index's test: the ink's colour white-balanced on the paper).
    ``sel`` and ``paper``: boolean masks over the face."""
    if face.dtype != np.uint8 or sel.dtype != bool or paper.dtype != bool:
        return _ink_is_red_sorted(face, sel, paper)
    n_ink, n_paper = np.count_nonzero(sel), np.count_nonzero(paper)
    if n_ink < 4 or n_paper < 10:
        return None
    # each channel's median from its histogram under the mask: the same float32 values as
    # np.median of the gathered pixels (_ink_is_red_sorted), without gathering a 3-channel
    # face under a mask nor sorting it (a face's pips and paper: ~1.5 ms -> ~0.2-0.3 ms)
    c = channel_medians(face, sel, n_ink) / (channel_medians(face, paper, n_paper) + 1)
    return redness_says(c[2] - max(c[0], c[1]))


def _ink_is_red_sorted(face: np.ndarray, sel: np.ndarray, paper: np.ndarray) -> bool | None:
    """:func:`ink_is_red` by sorting the pixels gathered (a face not uint8, masks not boolean)."""
    ink = face[sel].astype(np.float32)
    pp = face[paper].astype(np.float32)
    if len(ink) < 4 or len(pp) < 10:
        return None
    c = np.median(ink, axis=0) / (np.median(pp, axis=0) + 1)
    return redness_says(c[2] - max(c[0], c[1]))


def cumulative(img: np.ndarray, mask: np.ndarray | None = None, channel: int = 0) -> np.ndarray:
    """The cumulative histogram (int64 counts) of a uint8 image's ``channel``, of
    the pixels where the uint8 ``mask`` is nonzero when it is given."""
    return np.cumsum(cv2.calcHist([img], [channel], mask, [256], [0, 256]).ravel().astype(np.int64))


def percentiles(cum: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """``np.percentile(values, q)`` for each ``q`` (its default, linear method) of the
    uint8 values counted by ``cum`` (:func:`cumulative`; at least one value): the same
    two order statistics interpolated by the same float64 steps as numpy's ``_lerp``,
    so equal to the last bit (tests/test_vision_pip_speed_same.py), from a histogram
    instead of a partial sort of the values gathered (one 126x92 face: ~0.3 -> ~0.04 ms)."""
    n = int(cum[-1])
    if n < 1:
        return [math.nan for _ in qs]
    spots = []
    for q in qs:
        at = (n - 1) * (q / 100)
        spots.append((at, n - 1 if at >= n - 1 else math.floor(at)))
    ranks = [i for _, i in spots] + [min(i + 1, n - 1) for _, i in spots]
    order = np.searchsorted(cum, ranks, side="right").tolist()
    out = []
    for (at, i), a, b in zip(spots, order[: len(spots)], order[len(spots) :], strict=True):
        t = at - i
        d = b - a
        out.append(float(b - d * (1 - t)) if t >= 0.5 else float(a + d * t))
    return out


def channel_medians(face: np.ndarray, mask: np.ndarray, n: int) -> np.ndarray:
    """``np.median(face[mask].astype(np.float32), axis=0)`` of a 3-channel uint8
    ``face`` under the boolean ``mask`` (``n`` pixels, at least one): the middle
    order statistic or the mean of the two (a half integer, exact in float32) of
    each channel's histogram."""
    m = mask.view(np.uint8) if mask.flags.c_contiguous else np.ascontiguousarray(mask).view(np.uint8)
    k = n // 2
    ranks = [k] if n % 2 else [k - 1, k]
    out = []
    for ch in range(3):
        vals = np.searchsorted(cumulative(face, m, ch), ranks, side="right").tolist()
        out.append(vals[0] if n % 2 else (vals[0] + vals[1]) / 2)
    return np.array(out, np.float32)


def read_face(face: np.ndarray, ppm: float = FACE_PPM, t: PipThresholds = PIPS) -> PipFace:
    """The pips of an upright face (see :func:`sample_face`), with the suit
    networks' reading of each: a PipFace whose ``why`` says what failed."""
    if face is None or face.ndim != 3 or face.shape[2] != 3 or min(face.shape[:2]) < 8 or ppm <= 0:
        return PipFace(why="no face")
    face = np.ascontiguousarray(face)
    if face.dtype != np.uint8:
        face = np.clip(np.nan_to_num(face.astype(np.float64)), 0, 255).astype(np.uint8)
    ink = face_ink(face)
    hist = np.cumsum(cv2.calcHist([ink], [0], None, [256], [0, 256]).ravel())
    lo, hi = (float(np.searchsorted(hist, f * hist[-1])) for f in (0.5, 0.995))
    if hi - lo < 50:
        return PipFace(why="no ink")
    binary = (ink > lo + 0.45 * (hi - lo)).astype(np.uint8)
    n, labels, stats = components(binary)
    H, W = binary.shape
    border = int(round(1.5 * ppm))
    cands = []
    # the boxes as Python ints at once (not int() of each numpy field: ~15 components a face)
    for i, (x, y, w, h, _area) in enumerate(stats.tolist()[1:], 1):
        wm, hm = w / ppm, h / ppm
        if x <= border or y <= border or x + w >= W - border or y + h >= H - border:
            cx, cy = (x + w / 2) / ppm, (y + h / 2) / ppm
            if 0.6 * t.min_pip_mm <= min(wm, hm) and max(wm, hm) <= t.max_pip_mm and not _in_index_zone(cx, cy):
                # a pip cut by the sampled face's edge: the face is not the card
                # (a corner placed wrong, or without a mat a scale a little off)
                return PipFace(why="cut pip")
            continue  # the card's edge, the table or a shadow just beyond it
        if max(wm, hm) > t.max_ink_mm:
            return PipFace(why="large ink")
        if hm < 0.6 * t.min_pip_mm:
            continue
        cx, cy = (x + w / 2) / ppm, (y + h / 2) / ppm
        if _in_index_zone(cx, cy):
            continue
        cands.append((i, x, y, w, h, cx, cy))
    pipsized = [c for c in cands if t.min_pip_mm * ppm <= c[4] <= t.max_pip_mm * ppm]
    if len(pipsized) < 2:
        return PipFace(why="no pips")
    # the largest group of one height
    hs = np.array([c[4] for c in pipsized], np.float64)
    best: list = []
    for h0 in hs:
        grp = [c for c in pipsized if abs(c[4] - h0) <= t.size_spread * h0]
        if len(grp) > len(best):
            best = grp
    # np.median's value for a few integer heights (exact either way), without its overhead
    med = float(statistics.median([c[4] for c in best]))
    group = [c for c in pipsized if abs(c[4] - med) <= t.size_spread * med]
    others = sum(1 for c in cands if c not in group and c[4] >= 0.6 * med)
    # the layout's own centre (the middle of the pips' span): a corner placed
    # a millimetre or two off moves the sampled face, not the pips' symmetry
    cxs, cys = [c[5] for c in group], [c[6] for c in group]
    mx, my = (min(cxs) + max(cxs)) / 2, (min(cys) + max(cys)) / 2
    if abs(mx - g.CARD_W / 2) > t.off_centre_mm or abs(my - g.CARD_H / 2) > t.off_centre_mm:
        return PipFace(why="off centre")  # says nothing of the colour: not measured
    paper = (labels == 0) & (ink <= lo + 0.2 * (hi - lo))
    red = ink_is_red(face, in_labels(labels, n, [c[0] for c in group]), paper)
    # the suit networks (the costly part) only for pips that lie as a number card's
    where = [Pip(cx - mx, cy - my, w / ppm, h / ppm, np.zeros(0)) for _, x, y, w, h, cx, cy in group]
    if others:
        return PipFace(tuple(where), red, "others", others)
    if red is None:
        return PipFace(tuple(where), red, "colour unsure")
    if not layout_ok(where, t.sym_mm, t.max_turn_deg):
        return PipFace(tuple(where), red, "layout")
    # the pips' grey ink, only for a face whose pips the suit networks read
    raw = np.maximum(ink.astype(np.float32) - (lo + 0.1 * (hi - lo)), 0)
    pips = []
    for i, x, y, w, h, cx, cy in group:
        glyph, view = pip_glyph(raw, labels, i, x, y, w, h)
        dy = cy - my
        if dy > 0.1 * h / ppm:  # the bottom half's pips are printed turned
            glyph, view = glyph[::-1, ::-1], view[::-1, ::-1]
        p = glyph_model.suit_probs(np.ascontiguousarray(glyph), np.ascontiguousarray(view)) if glyph_model.available() else None
        if p is None:
            return PipFace(why="no suit network")
        pips.append(Pip(cx - mx, dy, w / ppm, h / ppm, p))
    pooled = np.mean([p.suit_p for p in pips], axis=0)
    return PipFace(tuple(pips), red, "", others, pooled)


def layout_ok(pips: tuple[Pip, ...] | list[Pip], tol: float = PIPS.sym_mm, max_turn: float = PIPS.max_turn_deg) -> bool:
    """Whether pips lie as a number card's do: 2-10 of them, symmetric left to
    right, and under a half turn about their middle but for at most one
    (the 7's), which then lies on the middle line in the top half.  The face may be turned
    up to ``max_turn`` degrees against the sampled card (a corner's edge a
    little off): the smallest turn that makes them symmetric counts."""
    n = len(pips)
    if not 2 <= n <= 10:
        return False
    xy0 = np.array([(p.x, p.y) for p in pips], np.float64)
    if not np.isfinite(xy0).all():
        return False
    span = xy0.max(axis=0) - xy0.min(axis=0)
    # every layout runs from near the top to near the bottom, a number card's
    # from four up in two columns: a few pips of a card mostly covered do not
    if span[1] < MIN_SPAN_MM[1] or (n >= 4 and span[0] < MIN_SPAN_MM[0]):
        return False
    for deg in sorted(np.arange(-max_turn, max_turn + 0.5, 1.0), key=abs):
        a = np.radians(deg)
        xy = xy0 @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
        xy -= (xy.min(axis=0) + xy.max(axis=0)) / 2
        if _symmetric(xy, tol, n):
            return True
    return False


def _symmetric(xy: np.ndarray, tol: float, n: int) -> bool:
    def matched(q: np.ndarray) -> np.ndarray:
        d = np.linalg.norm(xy[:, None, :] - q[None, :, :], axis=2)
        return d.min(axis=0) <= tol

    if not matched(xy * (-1, 1)).all():
        return False
    turned = ~matched(-xy)
    if turned.sum() == 0:
        return True
    # the 7's extra pip: on the middle line, in the top half (every standard deck)
    odd = xy[turned]
    return n == 7 and len(odd) == 1 and abs(odd[0][0]) <= tol and odd[0][1] < -tol


def index_rank_probs(evs: list[Evidence]) -> np.ndarray | None:
    """The index glyph networks' rank probabilities averaged over its looks."""
    ps = [e.rank_p for e in evs if e.rank_p is not None]
    return np.mean(ps, axis=0) if ps else None


def index_suit_probs(evs: list[Evidence]) -> np.ndarray | None:
    ps = [e.suit_p for e in evs if e.suit_p is not None]
    return np.mean(ps, axis=0) if ps else None


def decide(face: PipFace, evs: list[Evidence], t: PipThresholds = PIPS) -> PipReading | None:
    """A number card's reading from its pips and its index's evidence
    (``evs``: each declined look at its index whose glyphs were cut), or None.
    The count names the rank only if the index networks put it among their
    two likeliest ranks (at ``t.index_rank`` or more); the pooled pip suit
    must be sure, agreed by most pips, of the ink's colour (pips and index
    alike) and not ruled out by the index's suit networks."""
    if face.why or face.red is None or face.others or face.suit_p is None or not evs:
        return None
    if not layout_ok(face.pips, t.sym_mm, t.max_turn_deg):
        return None
    if any(e.glyphs.red is not None and e.glyphs.red != face.red for e in evs):
        return None
    rank = str(face.count)
    if rank not in RANKS:
        return None
    ri = glyph_model.RANK_CLASSES.index(rank)
    pr = index_rank_probs(evs)
    if pr is None or pr[ri] < t.index_rank or ri not in np.argsort(-pr)[:2]:
        return None
    sure = sure_suit(face, t)
    if sure is None:
        return None
    si, share = sure
    ps = index_suit_probs(evs)
    if ps is None or suit_share(ps, face.red, si) < t.index_suit:
        return None
    suit = SUITS[si]
    if (suit in RED_SUITS) != face.red:
        return None
    return PipReading(rank, suit, float(0.55 * share))


def sure_suit(face: PipFace, t: PipThresholds = PIPS) -> tuple[int, float] | None:
    """The pooled pip suit (its SUITS index and share of the ink colour's)
    where it is sure enough to read a card by: ``t.suit`` of the share,
    little junk, and ``t.suit_agree`` of the pips' own likeliest suits the
    same; else None.  A face with pips, of a colour, with suit
    probabilities."""
    si, share = likeliest_suit(face.suit_p, face.red)
    if share < t.suit or face.suit_p[-1] > 0.2:
        return None
    if sum(likeliest_suit(p.suit_p, face.red)[0] == si for p in face.pips) < t.suit_agree * face.count:
        return None
    return si, share
