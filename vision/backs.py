"""Face-down cards: card-sized rectangles that are not the table and not card
paper inside, found from the corners of everything that differs from the
table and checked against the picture.

A back may be any colour or picture (white-bordered line patterns, full-bleed
photographs, plain dark colours), so nothing here knows a design.  What every
back shares is the card's size and shape, so a back is looked for as:

1. *not table* (:func:`not_table_mask`): pixels whose hue is not the table's
   (the table colour per tile, from the mat alone when there is one), or
   whose brightness is far from it; a lamp, wood grain, a plaid's darker
   squares or a glare do not count.  Worked out in full only round the
   regions an eighth-size copy shows, and not round those the cards already
   read explain (:func:`not_table_regions`): on a bare table a 160x90 mask
   (at 720p) instead of a 640x360 one;
2. right-angled corners of those regions (cards touching or overlapping make
   one region, whose outer corners are still card corners), each the corner of
   a card lying one way or the other;
3. each such card checked in a rectified view of the frame (:func:`judge`):
   not table inside and at each corner (a palm has no corners), an edge (a
   step, or the thin line of a seam) along its sides where they are found
   near the card's size (sides under a card already read are not asked
   for), its two halves alike (a back's design is the same turned half
   round; a hand over part of it is not), and neither paper-white in its
   middle nor where a face keeps its index (that is a face);
4. the best supported of overlapping candidates wins, and a back found makes
   its neighbours in a row (same orientation, one card along) candidates too:
   the middle card of a row of touching backs has no corner of its own.

Unsure means no back: the caller reports unreadable card-shaped paper as
unknown.  All functions are pure; geometry is in plane millimetres (see
:class:`vision.cards.Plane`)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry as g
from .cards import Blob, Corner, Plane, card_outline, find_blobs, find_corners, overlap_area

CARD_AREA = g.CARD_W * g.CARD_H
#: rectified view: pixels per mm, and mm of margin round the card
VIEW_PPM = 2.0
VIEW_MARGIN = 6.0
#: colour off the table's brightness line (grey levels) that counts as not table
OFF_TABLE = 24.0
#: brightness relative to the table outside which a pixel is not table
DARKER, BRIGHTER = 0.45, 1.9
#: grey levels of a side's averaged step or line for it to count as a card edge
EDGE_LEVELS = 14.0
#: share of a card's sides (segments not under a card already read) that must show an edge
SIDE_SUPPORT = 0.75
#: mm from a card's middle beyond which nothing is in its rectified view (the
#: view reaches SLACK times the card's size plus its margin: ~75 mm)
REACH = 150.0
#: share of 25 points over a candidate's middle that, paper-white, make it a
#: face before it is judged (judged in full, such a candidate came out a face:
#: the same backs on 250 scenes as judging it)
PAPER_FIRST = 0.6


@dataclass(frozen=True)
class BackCandidate:
    """A card-shaped outline found: ``outline`` (plane mm, corner ``point`` first),
    ``face_down`` (False: card-shaped and not the table, but paper-white inside
    or unsure), and the share of its sides that show an edge."""

    outline: np.ndarray
    face_down: bool
    support: float


def not_table_mask(img: np.ndarray, bg_tiles: np.ndarray) -> np.ndarray:
    """Pixels of ``img`` (BGR, any size) that are not the table: 255 where the
    colour's hue leaves the table's (``OFF_TABLE``) or its brightness is far
    from the table's.  The hue is compared as each colour less its smallest
    channel, which neither a lamp (a factor) nor a glare (white added) turns;
    on a grey table any colour leaves it.  ``bg_tiles``: per-tile table colours
    (:func:`table_colours`)."""
    h, w = img.shape[:2]
    bg = cv2.resize(bg_tiles.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return _not_table_in(img, bg, (0, 0, w, h))


def _not_table_in(img, bg: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """:func:`not_table_mask` of ``img`` within ``box`` (x0, y0, x1, y1), the
    same there as of the whole image: worked out on the box and 4 pixels round
    it (the blur and the opening reach 3).  ``bg``: the table's colour per
    pixel of ``img``; ``img``: an image, or a function giving the part
    (x0, y0, x1, y1) of one the size of ``bg``."""
    x0, y0, x1, y1 = box
    h, w = bg.shape[:2]
    p = 4
    a0, b0, a1, b1 = max(x0 - p, 0), max(y0 - p, 0), min(x1 + p, w), min(y1 + p, h)
    part = img(a0, b0, a1, b1) if callable(img) else img[b0:b1, a0:a1]
    blurred = cv2.blur(part, (3, 3))
    out = np.empty(blurred.shape[:2], np.uint8)
    # bands of rows: the dozen float planes of a band stay in the cache (on a
    # whole 640x360 image they did not, and the mask cost 4x what a quarter's did)
    step = max(8, 16384 // max(a1 - a0, 1))
    for r in range(0, b1 - b0, step):
        out[r : r + step] = _off_table(blurred[r : r + step], bg[b0 + r : min(b0 + r + step, b1), a0:a1])
    out = cv2.morphologyEx(out, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return out[y0 - b0 : y1 - b0, x0 - a0 : x1 - a0]


def _off_table(img: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """255 where ``img`` (blurred BGR) is not the table colour ``bg`` (float BGR, same size), 0 elsewhere."""
    # channel planes, not (h, w, 3) arrays reduced over their last axis: the
    # same sums, about 8x cheaper; squared lengths spare the square roots.
    # Each sum is taken in the order written out in the comments, into buffers
    # reused in place (the same float32 values as fresh arrays, at 0.4x the
    # cost on recorded frames: the band's planes stay in the cache)
    b, g, r = cv2.split(img.astype(np.float32))
    bb, bg_, br = cv2.split(bg)
    nn = bb * bb  # nn = max(bb*bb + bg*bg + br*br, 1): the brightness ratio is dot / nn
    nn += bg_ * bg_
    nn += br * br
    np.maximum(nn, 1.0, out=nn)
    dot = b * bb  # dot = b*bb + g*bg + r*br
    dot += g * bg_
    dot += r * br
    m = np.minimum(b, g)  # each colour less its smallest channel
    np.minimum(m, r, out=m)
    b -= m
    g -= m
    r -= m
    bm = np.minimum(bb, bg_, out=m)  # the table's colour likewise
    np.minimum(bm, br, out=bm)
    bcb, bcg, bcr = bb - bm, bg_ - bm, br - bm
    bnorm = bcb * bcb  # bnorm = sqrt(bcb*bcb + bcg*bcg + bcr*bcr)
    bnorm += bcg * bcg
    bnorm += bcr * bcr
    np.sqrt(bnorm, out=bnorm)
    hued = bnorm > 10
    scale = np.maximum(bnorm, 1.0, out=bm)  # 1 / max(bnorm, 1) where bnorm > 10, else 0
    np.divide(1.0, scale, out=scale)
    scale[~hued] = 0
    along = b * bcb  # along = (b*bcb + g*bcg + r*bcr) * scale
    along += g * bcg
    along += r * bcr
    along *= scale
    off2 = np.multiply(b, b, out=bcb)  # off2 = b*b + g*g + r*r - along*along
    off2 += np.multiply(g, g, out=bcg)
    off2 += np.multiply(r, r, out=bcr)
    off2 -= np.multiply(along, along, out=along)
    mask = off2 > OFF_TABLE * OFF_TABLE
    mask |= dot < np.multiply(nn, DARKER, out=bnorm)
    mask |= dot > np.multiply(nn, BRIGHTER, out=bnorm)
    return mask.view(np.uint8) * np.uint8(255)


def table_colours(small: np.ndarray, region: np.ndarray | None, tiles: tuple[int, int] = (4, 3)) -> np.ndarray:
    """The table's colour per tile (a small BGR image, ``tiles`` wide and high):
    the median of the pixels in each tile's most common colour bin, counting
    only pixels in ``region`` (the mat, when there is one: a tile at the mat's
    edge must not take the floor beyond it for the table).  A tile with too
    few such pixels takes the most common colour of the whole region."""
    tx, ty = tiles
    s = 24
    img = cv2.resize(small, (tx * s, ty * s), interpolation=cv2.INTER_AREA)
    inside = np.ones((ty * s, tx * s), bool) if region is None else cv2.resize(region, (tx * s, ty * s), interpolation=cv2.INTER_NEAREST) > 0
    q = (img >> 5).astype(np.int32)
    codes = q[..., 0] * 64 + q[..., 1] * 8 + q[..., 2]
    # per tile (tile-major): its pixels, colour codes and whether they count
    by_tile = lambda a: a.reshape(ty, s, tx, s, -1).swapaxes(1, 2).reshape(tx * ty, s * s, -1)  # noqa: E731
    t_img, t_codes, t_in = by_tile(img), by_tile(codes)[..., 0], by_tile(inside)[..., 0]
    counts = np.bincount((np.arange(tx * ty)[:, None] * 512 + t_codes)[t_in], minlength=tx * ty * 512).reshape(tx * ty, 512)
    n = counts.sum(axis=1)
    best = counts.argmax(axis=1)

    total = counts.sum(axis=0)
    if total.sum() >= 40:
        overall = np.median(t_img[t_in & (t_codes == total.argmax())], axis=0)
    else:
        overall = np.median(img.reshape(-1, 3), axis=0)
    unit = overall / max(float(np.linalg.norm(overall)), 1.0)
    # every tile's median at once: its pixels in its most common bin sorted
    # first (the rest set past white), the middle one or two of them taken
    sel = t_in & (t_codes == best[:, None])
    srt = np.sort(np.where(sel[..., None], t_img.astype(np.int16), 256), axis=1)
    k = np.arange(tx * ty)
    ns = np.maximum(sel.sum(axis=1), 1)
    med = (srt[k, (ns - 1) // 2].astype(np.float64) + srt[k, ns // 2]) / 2
    # a tile mostly covered by one card takes that card's colour: the
    # table is one colour under different light, so a tile whose colour
    # is off the whole table's (not just darker or lighter) is not trusted
    off = np.linalg.norm(med - (med @ unit)[:, None] * unit, axis=1)
    good = (n >= 40) & (off <= OFF_TABLE / 2)
    return np.where(good[:, None], med, overall).reshape(ty, tx, 3).astype(np.float32)


#: a region of the quarter-size copy this big (a share of a card) or more is looked at in full
SEED_AREA = 0.1
#: unless less than this share of a card of it lies off everything already
#: found (grown by ``KNOWN_RIM`` mm): no back could be judged there (a back
#: must be 40 % free of read cards, see :func:`judge`)
UNEXPLAINED = 0.25
KNOWN_RIM = 2.0


def not_table_regions(
    half,
    half_shape: tuple[int, int],
    small: np.ndarray,
    tiles: np.ndarray,
    region: np.ndarray | None,
    small_region: np.ndarray | None,
    small_to_plane: np.ndarray,
    allowed=None,
    known: list[np.ndarray] = (),
) -> np.ndarray:
    """:func:`not_table_mask` of ``half`` (within ``region``, a mask of it, if
    given), worked out only round the regions that are not the table in a
    half-size copy of the quarter-size ``small`` (``small_region`` the same
    region there; ``small_to_plane`` maps its pixels to plane mm), at least
    :data:`SEED_AREA` of a card, not all where no card may lie (``allowed``)
    and not explained by what is ``known`` already (outlines, plane mm): each
    such region's box in ``half``, grown until no part of the mask there
    touches its side, so that every region found is whole and the same as in
    the mask of the whole image.  A bare table costs a mask of 160x90 pixels
    (at 720p) where one of 640x360 cost ~10 ms.  ``half``: the image, or a
    function giving its part (x0, y0, x1, y1); ``half_shape``: its (height, width)."""
    hh, hw = half_shape
    # the seeds at an eighth of the work copy (160x90 at 720p, a card still ~10x14 px): a quarter of the quarter's cost
    sh, sw = small.shape[0] // 2, small.shape[1] // 2
    small_to_plane = small_to_plane @ np.diag([2.0, 2.0, 1.0])
    if small_region is not None:
        small_region = cv2.resize(small_region, (sw, sh), interpolation=cv2.INTER_NEAREST)
    small = cv2.resize(small, (sw, sh), interpolation=cv2.INTER_AREA)
    seeds = not_table_mask(small, tiles)
    if small_region is not None:
        seeds = cv2.bitwise_and(seeds, small_region)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(seeds, connectivity=8)
    # what is already found (read cards, printed ones) explains its own region
    found = np.zeros((sh, sw), np.uint8)
    to_small = np.linalg.inv(small_to_plane)
    for q in known:
        pts = cv2.perspectiveTransform(np.float32(_shrink(np.asarray(q, np.float64), -KNOWN_RIM)).reshape(-1, 1, 2), to_small)
        cv2.fillConvexPoly(found, np.round(pts.reshape(-1, 2)).astype(np.int32), 255)
    ws = np.array([[0, 0, 1], [sw, 0, 1], [0, sh, 1], [sw, sh, 1]], np.float64) @ small_to_plane[2]
    mm2_per_px = float((abs(np.linalg.det(small_to_plane)) / np.abs(ws) ** 3).max())
    fx, fy = hw / sw, hh / sh
    pad = 12  # half-size pixels round a region's box: the region is larger there (finer, and unopened at quarter size)
    boxes = []
    for i, (x, y, bw, bh, area) in enumerate(stats[1:], 1):
        if area * mm2_per_px < SEED_AREA * CARD_AREA:
            continue
        if known:
            own = labels[y : y + bh, x : x + bw] == i
            if np.count_nonzero(own & (found[y : y + bh, x : x + bw] == 0)) * mm2_per_px < UNEXPLAINED * CARD_AREA:
                continue
        if allowed is not None:  # no card may lie anywhere on it (the mat's own marker squares)
            ys, xs = np.nonzero(labels[y : y + bh, x : x + bw] == i)
            pick = np.linspace(0, len(xs) - 1, min(len(xs), 5)).astype(int)
            pts = cv2.perspectiveTransform(np.float32(np.c_[xs[pick] + x, ys[pick] + y]).reshape(-1, 1, 2), small_to_plane).reshape(-1, 2)
            if not any(allowed(p) for p in pts):
                continue
        boxes.append([max(int(x * fx) - pad, 0), max(int(y * fy) - pad, 0), min(int(np.ceil((x + bw) * fx)) + pad, hw), min(int(np.ceil((y + bh) * fy)) + pad, hh)])
    nt = np.zeros((hh, hw), np.uint8)
    if not boxes:
        return nt
    bg = cv2.resize(tiles.astype(np.float32), (hw, hh), interpolation=cv2.INTER_LINEAR)
    def part(box: tuple[int, int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = box
        m = _not_table_in(half, bg, box)
        return m if region is None else cv2.bitwise_and(m, region[y0:y1, x0:x1])

    done: list[list[int]] = []
    for box in _merged(boxes):
        if any(d[0] <= box[0] and d[1] <= box[1] and d[2] >= box[2] and d[3] >= box[3] for d in done):
            continue
        m = part(tuple(box))
        while True:
            x0, y0, x1, y1 = box
            # a side the mask touches (not the image's own) moves out
            grow = (x0 > 0 and m[:, 0].any(), y0 > 0 and m[0].any(), x1 < hw and m[:, -1].any(), y1 < hh and m[-1].any())
            if not any(grow):
                break
            dx, dy = max(32, (x1 - x0) // 2), max(32, (y1 - y0) // 2)
            nx0, ny0, nx1, ny1 = max(x0 - dx * grow[0], 0), max(y0 - dy * grow[1], 0), min(x1 + dx * grow[2], hw), min(y1 + dy * grow[3], hh)
            grown = np.empty((ny1 - ny0, nx1 - nx0), np.uint8)
            grown[y0 - ny0 : y1 - ny0, x0 - nx0 : x1 - nx0] = m
            # only what the box gained is worked out: rows above and below it, columns beside the old box
            for p0, q0, p1, q1 in ((nx0, ny0, nx1, y0), (nx0, y1, nx1, ny1), (nx0, y0, x0, y1), (x1, y0, nx1, y1)):
                if p1 > p0 and q1 > q0:
                    grown[q0 - ny0 : q1 - ny0, p0 - nx0 : p1 - nx0] = part((p0, q0, p1, q1))
            box, m = [nx0, ny0, nx1, ny1], grown
        x0, y0, x1, y1 = box
        done.append(box)
        nt[y0:y1, x0:x1] |= m
    return nt


def _merged(boxes: list[list[int]]) -> list[list[int]]:
    """Boxes (x0, y0, x1, y1), those that overlap joined into their common box."""
    boxes = [list(b) for b in boxes]
    merged = True
    while merged:
        merged = False
        out: list[list[int]] = []
        for b in boxes:
            for o in out:
                if b[0] < o[2] and o[0] < b[2] and b[1] < o[3] and o[1] < b[3]:
                    o[:] = [min(o[0], b[0]), min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3])]
                    merged = True
                    break
            else:
                out.append(b)
        boxes = out
    return boxes



def _view_homography(plane: Plane, point: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """View pixels -> plane mm for the card at ``point`` along ``u`` (63 mm) and ``v`` (88 mm)."""
    s, m = 1.0 / VIEW_PPM, VIEW_MARGIN
    o = point - m * u - m * v
    return np.array([[u[0] * s, v[0] * s, o[0]], [u[1] * s, v[1] * s, o[1]], [0, 0, 1]])


#: the card's size may be this much larger than nominal in the view: without a
#: mat, plane "millimetres" are scaled from the cards seen (a few, perhaps
#: partly covered) and a tilted camera squashes one direction, so a card's
#: sides there may measure 0.6-1.4 times their nominal length
SLACK = 1.45
VIEW_W = int(round((g.CARD_W * SLACK + 2 * VIEW_MARGIN) * VIEW_PPM))
VIEW_H = int(round((g.CARD_H * SLACK + 2 * VIEW_MARGIN) * VIEW_PPM))


def _warp(img: np.ndarray, to_img: np.ndarray, nearest: bool = False, size: tuple[int, int] = (VIEW_W, VIEW_H)) -> np.ndarray:
    """The rectified view of ``img`` (a mask: nearest pixel, zero beyond the
    image; a picture: the image's edge repeated, so that it makes no edge),
    ``size`` (width, height) pixels of it from its top left (each pixel the
    same as in the whole view)."""
    flags = (cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR) | cv2.WARP_INVERSE_MAP
    border = cv2.BORDER_CONSTANT if nearest else cv2.BORDER_REPLICATE
    return cv2.warpPerspective(img, to_img, size, flags=flags, borderMode=border, borderValue=0)


def _strengths(view: np.ndarray, horizontal: bool, lo: int, hi: int, a0: int, a1: int) -> np.ndarray:
    """Edge strength of a side of the card in a rectified view, per segment
    (three along ``a0..a1``) and per place across (``lo..hi``, view pixels): the
    largest colour step over 3 mm, or thin line, across it, averaged along the
    segment (a pattern averages out, a straight edge does not)."""
    half = int(round(1.5 * VIEW_PPM))
    lo, hi = max(lo - half, 0), min(hi + half + 1, view.shape[0] if horizontal else view.shape[1])
    if hi - lo < 2 * half + 1:
        return np.zeros((3, 1), np.float32)
    # the segments' ends as np.linspace(a0, a1, 4).round() gives them (the same
    # float sums, rounded half to even), without its overhead
    third = (a1 - a0) / 3
    b0, b1, b2, b3 = a0, round(a0 + third), round(a0 + 2 * third), a1
    band = view[lo:hi, b0:b3] if horizontal else view[b0:b3, lo:hi].swapaxes(0, 1)
    # the three segments' means in one pass (sums of whole grey levels in
    # float32 are exact: the same means as summing each segment apart)
    prof = np.add.reduceat(band, np.array((0, b1 - b0, b2 - b0)), axis=1, dtype=np.float32)
    prof /= np.array((b1 - b0, b2 - b1, b3 - b2), np.float32)[None, :, None]
    # prof is (across, segment, channel): the step and the line across, each
    # the largest over the channels (a max of the three planes: the same
    # numbers as .max(axis=2), cheaper on so short an axis)
    far, near = prof[2 * half :], prof[: -2 * half]
    d = np.abs(far - near)
    step = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    d = far + near
    d /= 2
    np.subtract(prof[half:-half], d, out=d)
    np.abs(d, out=d)
    line = np.maximum(np.maximum(d[..., 0], d[..., 1]), d[..., 2])
    return np.ascontiguousarray(np.maximum(step, line).T)


def _on_one_line(st: np.ndarray) -> np.ndarray:
    """Per segment, the edge strength on the one line across which the
    segments' strongest places agree best (their median, give or take a
    pixel): a card's side is straight, a hand's outline bends away."""
    if st.shape[1] < 3:
        return st.max(axis=1)
    best = st.argmax(axis=1).tolist()
    # the median of the three segments' places (np.median's, without its overhead)
    k = sorted(best)[1] if len(best) == 3 else int(np.median(best))
    return st[:, max(k - 1, 0) : k + 2].max(axis=1)


def _corner_fill(nt_view: np.ndarray, covered: np.ndarray, w: float, h: float) -> float:
    """The least share, over the card's four corners in a rectified view, of
    the square 3-9 mm in from both sides that is not table or is covered."""
    r, m = VIEW_PPM, VIEW_MARGIN
    a, b = 3.0, 9.0
    out = 1.0
    for xa, xb in ((a, b), (w - b, w - a)):
        for ya, yb in ((a, b), (h - b, h - a)):
            box = (slice(int((m + ya) * r), int((m + yb) * r)), slice(int((m + xa) * r), int((m + xb) * r)))
            out = min(out, _share((nt_view[box] > 0) | (covered[box] > 0)))
    return out


def _share(mask: np.ndarray) -> float:
    """``float(mask.mean())`` of a boolean array (its count over its size, the
    same float), without np.mean's overhead; nan when it is empty, as np.mean."""
    return np.count_nonzero(mask) / mask.size if mask.size else float("nan")


def _segment_points(point: np.ndarray, u: np.ndarray, v: np.ndarray, w: float, h: float, span: float) -> list[list[np.ndarray]]:
    """The middle of each side's three segments (plane mm), as :func:`_strengths`
    cuts them: sides in the order top, right (at ``w``), bottom (at ``h``),
    left, each from 6 mm to ``span`` of its nominal length less 6 mm."""
    sides = []
    for start, along, length in ((point, u, g.CARD_W), (point + w * u, v, g.CARD_H), (point + h * v, u, g.CARD_W), (point, v, g.CARD_H)):
        a0, a1 = 6.0, span * length - 6.0
        sides.append([start + along * (a0 + (a1 - a0) * (k + 0.5) / 3) for k in range(3)])
    return sides


def _within(outlines: list[np.ndarray], point: np.ndarray, reach: float) -> list[np.ndarray]:
    """The outlines with a corner nearer ``point`` than ``reach`` (plane mm):
    outlines of one shape measured together (the same distances as one by one)."""
    if len(outlines) > 1 and len({np.shape(c) for c in outlines}) == 1:
        near = np.linalg.norm(np.asarray(outlines) - point, axis=2).min(axis=1) < reach
        return [c for c, ok in zip(outlines, near, strict=True) if ok]
    return [c for c in outlines if np.linalg.norm(np.asarray(c) - point, axis=1).min() < reach]


def _shrink(outline: np.ndarray, mm: float) -> np.ndarray:
    c = outline.mean(axis=0)
    d = outline - c
    n = np.linalg.norm(d, axis=1, keepdims=True)
    return c + d * np.maximum(n - mm, 0) / np.maximum(n, 1e-6)


#: where over a card's middle :func:`judge` first looks for paper (shares of its sides)
_MIDDLE = np.linspace(0.2, 0.8, 5)


def judge(
    frame: np.ndarray,
    plane: Plane,
    paper: np.ndarray,
    not_table: np.ndarray,
    half_to_plane: np.ndarray,
    point: np.ndarray,
    u: np.ndarray,
    v: np.ndarray,
    covers: list[np.ndarray],
    trace: list | None = None,
    beside: np.ndarray | None = None,
) -> BackCandidate | None:
    """The card with its corner at ``point`` (``u`` along its 63 mm side, ``v``
    along its 88 mm side), checked in a rectified view: None when it is not a
    card there (table inside, or too few of its sides show an edge).  Its far
    sides are looked for near the card's size (farther off without a mat,
    whose "millimetres" a tilted camera bends) and the outline returned is
    where they were found.  ``paper``: the work copy's paper mask;
    ``not_table``: :func:`not_table_mask` of a copy whose pixels map to plane
    mm by ``half_to_plane``; ``covers``: outlines of cards already found,
    which may lie on this one (their sides there are not asked for);
    ``beside``: the outline of a card found touching this one, whose shared
    side is not asked for either (two backs of one deck edge to edge may show
    no seam at all).  ``trace``: a list that gets a dict of what was measured (diagnostics)."""
    info: dict = {"point": point, "u": u, "v": v}
    if trace is not None:
        trace.append(info)
    # paper-white over most of its middle: a face (whose index the reader did
    # not read), dropped before anything is warped.  Not kept as a face
    # candidate (which may win its place from a back): the same backs either way
    t = _MIDDLE * (1.0 if plane.metric else 0.6)
    mids = _spread(point, u, v, t)
    to_work = np.linalg.inv(plane.work_to_plane)
    ij = np.round(cv2.perspectiveTransform(np.float32(mids).reshape(-1, 1, 2), to_work).reshape(-1, 2)).astype(int)
    ph, pw = paper.shape[:2]
    ok = (ij[:, 0] >= 0) & (ij[:, 0] < pw) & (ij[:, 1] >= 0) & (ij[:, 1] < ph)
    if ok.all() and np.count_nonzero(paper[ij[:, 1], ij[:, 0]]) >= PAPER_FIRST * len(ij):
        info["fate"] = "face"
        return None
    A = _view_homography(plane, point, u, v)
    r, m = VIEW_PPM, VIEW_MARGIN
    # the card's nominal extent first: is it the table there, or all covered?
    span = 1.0 if plane.metric else 0.6  # the share of each side sure to lie on the card
    # on the mat, a bridge card (57 mm) or a poker card; without one, see SLACK
    lo_f, hi_f = (0.88, 1.1) if plane.metric else (0.6, SLACK - 0.03)
    # the view only as far as the far sides are looked for (and the 3 px a side's step reaches beyond)
    size = (min(int(round((m + hi_f * g.CARD_W) * r)) + 4, VIEW_W), min(int(round((m + hi_f * g.CARD_H) * r)) + 4, VIEW_H))
    nt = _warp(not_table, np.linalg.inv(half_to_plane) @ A, nearest=True, size=size)
    covered = np.zeros(size[::-1], np.uint8)
    inv = np.linalg.inv(A)
    # only cards that can reach the view (it spans under 150 mm from the card's middle)
    middle = point + 0.5 * SLACK * (g.CARD_W * u + g.CARD_H * v)
    covers = _within(covers, middle, REACH)
    for c in covers:
        pts = cv2.perspectiveTransform(np.float32(c).reshape(-1, 1, 2), inv).reshape(-1, 2)
        cv2.fillConvexPoly(covered, np.round(pts).astype(np.int32), 255)
    core = (slice(int((m + 3) * r), int((m + span * g.CARD_H - 3) * r)), slice(int((m + 3) * r), int((m + span * g.CARD_W - 3) * r)))
    free = covered[core] == 0
    free_share = _share(free)
    body = _share((nt[core] > 0) | ~free) if covers else float(np.count_nonzero(nt[core])) / nt[core].size
    info["free"], info["body"] = free_share, body
    if free_share < 0.4 or body < 0.9:
        info["fate"] = "table_inside"
        return None
    # grey levels as they are (uint8): the means taken of them are the same as of floats
    view = _warp(frame, plane.plane_to_frame @ A, size=size)
    x0, y0 = int(round(m * r)), int(round(m * r))
    near = int(round(2.5 * r))
    aw, ah = int(round((m + span * g.CARD_W - 6) * r)), int(round((m + span * g.CARD_H - 6) * r))
    ax0 = int(round((m + 6) * r))
    # the far sides: places within the size range where as many of their
    # segments show an edge as anywhere; of those, the pair nearest a card's
    # shape (the end of the card beyond, or a pattern's inner edge, shows too)
    options = []
    for horizontal, nominal, a1 in ((False, g.CARD_W, ah), (True, g.CARD_H, aw)):
        lo, hi = int(round((m + lo_f * nominal) * r)), int(round((m + hi_f * nominal) * r))
        st = _strengths(view, horizontal, lo, hi, ax0, a1)
        count = (st >= EDGE_LEVELS).sum(axis=0)
        score = np.minimum(st, 3 * EDGE_LEVELS).sum(axis=0)
        before, after = np.concatenate((score[:1], score[:-1])), np.concatenate((score[1:], score[-1:]))
        best = count == count.max()
        picks = np.flatnonzero(best & (score >= before) & (score >= after))
        if not len(picks):
            picks = np.array([int(np.argmax(np.where(best, score, -1)))])
        options.append((st, picks, (lo + picks) / r - m))
    # the pair of far sides nearest a card's size (on the mat) or shape (the
    # first such pair, as the product of the two lists would list them)
    (st_r, picks_r, ws), (st_b, picks_b, hs) = options
    if plane.metric:
        cost = np.abs(ws - g.CARD_W)[:, None] + np.abs(hs - g.CARD_H)[None, :]
    else:
        cost = np.abs(ws[:, None] / hs[None, :] - g.CARD_W / g.CARD_H)
    i, j = np.unravel_index(int(np.argmin(cost)), cost.shape)
    kr, kb = int(picks_r[i]), int(picks_b[j])
    w, h = float(ws[i]), float(hs[j])
    right, bottom = st_r[:, max(kr - 2, 0) : kr + 3].max(axis=1), st_b[:, max(kb - 2, 0) : kb + 3].max(axis=1)
    info.update(w=w, h=h)
    if not plane.metric and not 0.55 < w / h < 0.9:  # the far sides found are not one card's
        info["fate"] = "shape"
        return None
    top = _on_one_line(_strengths(view, True, y0 - near, y0 + near, ax0, aw))
    left = _on_one_line(_strengths(view, False, x0 - near, x0 + near, ax0, ah))
    outline = card_outline(point, u, v, w, h)
    shrunk = [np.float32(_shrink(c, 3.0)).reshape(-1, 1, 2) for c in covers]
    shrunk += [np.float32(_shrink(beside, -4.0)).reshape(-1, 1, 2)] if beside is not None else []
    asked = shown = 0
    # each corner filled: a card's corners are square (3 mm round), a palm's are not there
    info["corners"] = fill = _corner_fill(nt, covered, w, h)
    if fill < 0.75:
        info["fate"] = "corners"
        return None
    bare_side = False  # a side that shows no edge at all (a hand's outline is not straight)
    for segs, pts in zip((top, right, bottom, left), _segment_points(point, u, v, w, h, span), strict=True):
        side_asked = side_shown = 0
        for e, p in zip(segs, pts, strict=True):
            if any(cv2.pointPolygonTest(q, (float(p[0]), float(p[1])), False) > 0 for q in shrunk):
                continue
            side_asked += 1
            side_shown += bool(e >= EDGE_LEVELS)
        asked, shown = asked + side_asked, shown + side_shown
        bare_side |= side_asked >= 2 and side_shown == 0
    info.update(sides=[top, right, bottom, left], asked=asked, shown=shown)
    if asked < 6 or shown < SIDE_SUPPORT * asked or bare_side:
        info["fate"] = "sides"
        return None
    # a back's design is the same turned half round (nearly every deck's is,
    # so that a back tells nothing of which way up its face is): opposite
    # borders look alike.  A hand or another thing over part of it does not
    info["asymmetry"] = asym = _asymmetry(view, covered, w, h)
    if asym > ASYMMETRY:
        info["fate"] = "asymmetry"
        return None
    pp = _warp(paper, to_work @ A, nearest=True, size=size)
    mid = (slice(int((m + 0.2 * h) * r), int((m + 0.8 * h) * r)), slice(int((m + 0.2 * w) * r), int((m + 0.8 * w) * r)))
    mid_free = covered[mid] == 0
    paper_share = _share((pp[mid] > 0)[mid_free]) if mid_free.any() else 1.0
    info["paper"] = paper_share
    margins = _index_margins(pp, covered, w, h)
    info["margins"] = margins
    info["fate"] = "back" if paper_share < 0.3 and margins == 0 else "face"
    return BackCandidate(outline, paper_share < 0.3 and margins == 0, shown / asked)


#: grey levels by which the mean colours of a card's opposite border strips may differ
ASYMMETRY = 25.0


def _asymmetry(view: np.ndarray, covered: np.ndarray, w: float, h: float) -> float:
    """The larger difference (grey levels, largest channel) between the mean
    colours of the card's opposite halves (top and bottom, left and right,
    3 mm in from its edges) in a rectified view, over what is not covered; 0
    when a half is mostly covered.  Halves, not border strips: a corner placed
    a millimetre off moves a strip across a back's white border."""
    r, m = VIEW_PPM, VIEW_MARGIN
    e = 3.0

    def part(x0: float, x1: float, y0: float, y1: float) -> np.ndarray | None:
        box = (slice(int((m + y0) * r), int((m + y1) * r)), slice(int((m + x0) * r), int((m + x1) * r)))
        free = cv2.compare(covered[box], 0, cv2.CMP_EQ)
        if cv2.countNonZero(free) < 0.5 * free.size:
            return None
        return np.array(cv2.mean(view[box], mask=free)[:3])

    pairs = (
        (part(e, w - e, e, h / 2), part(e, w - e, h / 2, h - e)),
        (part(e, w / 2, e, h - e), part(w / 2, w - e, e, h - e)),
    )
    return max((float(np.abs(p - q).max()) for p, q in pairs if p is not None and q is not None), default=0.0)


def _outline_view(plane: Plane, outline: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The view homography (:func:`_view_homography`) of a card outline (plane
    mm, four corners in order) and the card's width and height in it."""
    p0, p1, p3 = outline[0], outline[1], outline[3]
    a, b = np.linalg.norm(p1 - p0), np.linalg.norm(p3 - p0)
    (u, w), (v, h) = ((p1 - p0) / max(a, 1e-6), a), ((p3 - p0) / max(b, 1e-6), b)
    if w > h:
        (u, w), (v, h) = (v, h), (u, w)
    return _view_homography(plane, p0, u, v), float(w), float(h)


def face_margins(paper: np.ndarray, plane: Plane, outline: np.ndarray) -> int:
    """:func:`_index_margins` of a card outline (plane mm, four corners in
    order) on the work copy's ``paper`` mask: how many of its corners are
    paper-white where a face keeps its index (a back shows none)."""
    A, w, h = _outline_view(plane, outline)
    view = _warp(paper, np.linalg.inv(plane.work_to_plane) @ A, nearest=True)
    return _index_margins(view, np.zeros(view.shape, np.uint8), w, h)


def design_asymmetry(frame: np.ndarray, plane: Plane, outline: np.ndarray) -> float:
    """:func:`_asymmetry` of a card outline (plane mm) in ``frame``, nothing
    covered: how far its opposite halves' colours differ (a back's design is
    the same turned half round; :data:`ASYMMETRY` is the most a back shows)."""
    A, w, h = _outline_view(plane, outline)
    view = _warp(frame, plane.plane_to_frame @ A)
    return _asymmetry(view, np.zeros(view.shape[:2], np.uint8), w, h)


#: where a face keeps its corner index (mm from the corner, across and along):
#: paper there with a little ink.  A back's white border, if it has one, is
#: narrower than an index
INDEX_BOX = (2.0, 3.0, 11.0, 24.0)


def _index_margins(paper_view: np.ndarray, covered: np.ndarray, w: float, h: float) -> int:
    """How many of the card's corners (in a rectified view, card ``w`` x ``h``
    mm) are paper-white where a face keeps its index: a face has four (two
    with an index), unless something covers them."""
    r, m = VIEW_PPM, VIEW_MARGIN
    x0, y0, x1, y1 = INDEX_BOX
    n = 0
    for fx, fy in ((False, False), (True, False), (True, True), (False, True)):
        xa, xb = (w - x1, w - x0) if fx else (x0, x1)
        ya, yb = (h - y1, h - y0) if fy else (y0, y1)
        box = (slice(int((m + ya) * r), int((m + yb) * r)), slice(int((m + xa) * r), int((m + xb) * r)))
        free = covered[box] == 0
        if _share(free) > 0.8 and _share((paper_view[box] > 0)[free]) > 0.75:
            n += 1
    return n


#: mm an outline of the not-table mask may stray from a straight edge (half
#: the paper finder's resolution, and a card's soft shadow on one side)
OUTLINE_TOLERANCE = 2.0


def _outer_corners(bi: int, blob: Blob, metric: bool) -> list[Corner]:
    """:func:`vision.cards.find_corners` with edges straight to
    :data:`OUTLINE_TOLERANCE` (it simplifies outlines to 1.2 mm): the blob is
    measured in a scaled-down plane, which keeps angles, and the corners
    scaled back."""
    k = 1.2 / OUTLINE_TOLERANCE
    scaled = Blob(blob.contour_work, blob.contour_plane * k, blob.area * k * k, blob.rect, blob.rectangularity)
    out = []
    for c in find_corners(bi, scaled, metric, min_edge=12.0 * k, max_gap=9.0 * k):
        out.append(Corner(c.blob, c.point / k, c.d1, c.d2, c.len1 / k, c.len2 / k))
    return out


def _grid(point: np.ndarray, u: np.ndarray, v: np.ndarray, span: float) -> np.ndarray:
    """Nine points spread over the card (plane mm), within ``span`` of its nominal size from ``point``."""
    return _spread(point, u, v, np.array([0.2, 0.5, 0.8]) * span)


def _spread(point: np.ndarray, u: np.ndarray, v: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The points ``point + a * CARD_W * u + b * CARD_H * v`` for ``a`` then
    ``b`` in ``t`` (plane mm, a-major), summed in that order (the same
    numbers as a loop over them)."""
    across = (t * g.CARD_W)[:, None] * np.asarray(u)
    along = (t * g.CARD_H)[:, None] * np.asarray(v)
    return (np.asarray(point) + across[:, None, :] + along[None, :, :]).reshape(-1, 2)


def find_backs(
    frame: np.ndarray,
    plane: Plane,
    work_scale: float,
    paper: np.ndarray,
    small: np.ndarray,
    region: np.ndarray | None,
    colour_region: np.ndarray | None,
    known: list[np.ndarray],
    covers: list[np.ndarray],
    allowed,
    trace: list | None = None,
) -> list[BackCandidate]:
    """Face-down cards in ``frame`` (see the module docstring), as candidates
    with ``face_down`` True; card-shaped things that are paper-white inside are
    left out (a face whose index is hidden is the paper finder's unknown).
    ``work_scale``: the work copy's size relative to the frame; ``paper``: its
    paper mask; ``small``: the quarter-size work copy, ``region`` a mask of
    it where cards may lie (the mat) or None, and ``colour_region`` where the
    table's colour is to be taken (the mat away from its edge); ``known``: outlines of everything already found (a candidate
    on one of them is that thing); ``covers``: those that may lie on a back
    (read cards); ``allowed(centre)``: whether a card may lie there (on the mat)."""
    h, w = frame.shape[:2]
    hs = work_scale / 2
    size = (max(1, round(w * hs)), max(1, round(h * hs)))
    if hs == 0.5 and w % 2 == 0 and h % 2 == 0:
        # an exact halving: each pixel the mean of its own four, so only the parts the mask needs are made
        def half(x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
            return cv2.resize(frame[2 * y0 : 2 * y1, 2 * x0 : 2 * x1], (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)

    elif hs == 0.5 or min(w, h) < 4:
        half = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    else:  # OpenCV's area resize at a fractional scale costs ~20 ms on 1080p; halve exactly, then bilinear
        half = cv2.resize(cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_AREA), size, interpolation=cv2.INTER_LINEAR)
    half_to_plane = plane.work_to_plane @ np.diag([2.0, 2.0, 1.0])
    # beyond the mat is not the table, yet no card either (and it would enclose them all)
    small_region = region
    if region is not None:
        region = cv2.resize(region, size, interpolation=cv2.INTER_NEAREST)
    small_to_plane = plane.work_to_plane @ np.diag([4.0, 4.0, 1.0])
    tiles = table_colours(small, colour_region)
    nt = not_table_regions(half, size[::-1], small, tiles, region, small_region, small_to_plane, allowed, known)
    hplane = Plane(half_to_plane, plane.plane_to_frame, plane.metric)
    to_half = np.linalg.inv(half_to_plane)
    hh, hw = nt.shape
    corners = [c for bi, b in enumerate(find_blobs(nt, hplane, 0.3 * CARD_AREA)) for c in _outer_corners(bi, b, plane.metric)]
    corners.sort(key=lambda c: -min(c.len1, c.len2))
    # a corner where the frame's edge or the mat's cuts a region is no card's
    # (4 px in from the frame's edge, and the mat all round it, as the mat
    # eroded by 9x9 would say, asked only at the corners)
    hyps = []
    for c in corners:
        x, y = np.round(cv2.perspectiveTransform(np.float32(c.point).reshape(1, 1, 2), to_half).ravel()).astype(int)
        if 4 <= x < hw - 4 and 4 <= y < hh - 4 and (region is None or region[y - 4 : y + 5, x - 4 : x + 5].min() > 0):
            hyps.append(c)
    # outlines as OpenCV takes them, converted once (fits asks of each a few dozen times a frame)
    known_q = [np.float32(q).reshape(-1, 1, 2) for q in known]
    tried: list[tuple[float, float]] = []
    grid_span = 1.0 if plane.metric else 0.6

    def fits(point, u, v) -> bool:
        """Whether the card at ``point`` is worth judging: a new place, not on
        anything found, most of it not table, allowed there."""
        centre = _outline_centre(point, u, v)
        c = (float(centre[0]), float(centre[1]))
        # the distances as np.linalg.norm takes them (sqrt of dx*dx + dy*dy), in plain floats
        if any(math.sqrt((tx - c[0]) * (tx - c[0]) + (ty - c[1]) * (ty - c[1])) < 8 for tx, ty in tried):
            return False
        if any(cv2.pointPolygonTest(q, c, False) > 0 for q in known_q):
            return False
        pts = cv2.perspectiveTransform(np.float32(_grid(point, u, v, grid_span)).reshape(-1, 1, 2), to_half).reshape(-1, 2)
        ij = np.round(pts).astype(int)
        ok = (ij[:, 0] >= 0) & (ij[:, 0] < hw) & (ij[:, 1] >= 0) & (ij[:, 1] < hh)
        if ok.sum() < 9 or int(np.count_nonzero(nt[ij[:, 1], ij[:, 0]])) < 7:
            return False
        return bool(allowed(centre))

    def judged(hyps, beside: list | None = None) -> list[tuple[BackCandidate, np.ndarray, np.ndarray, np.ndarray]]:
        out = []
        for i, (point, u, v) in enumerate(hyps):
            for a, b in ((u, v), (v, u)):
                if fits(point, a, b):
                    centre = _outline_centre(point, a, b)
                    tried.append((float(centre[0]), float(centre[1])))
                    cand = judge(frame, plane, paper, nt, half_to_plane, point, a, b, covers, trace, beside[i] if beside else None)
                    if cand is not None:
                        out.append((cand, point, a, b))
        return out

    # the best supported first; one card per place (the same card from
    # another corner, or a wrong size from a row of touching cards, overlaps it)
    chosen: list[tuple[BackCandidate, np.ndarray, np.ndarray, np.ndarray]] = []
    pool = judged((c.point, c.d1, c.d2) for c in hyps)
    for _ in range(6):
        added = []
        for item in sorted(pool, key=lambda x: (-x[0].support, _aspect_error(x[0].outline))):
            o = item[0].outline
            if any(overlap_area(o, c[0].outline) > 0.3 * min(_area(o), _area(c[0].outline)) for c in chosen):
                continue
            chosen.append(item)
            added.append(item)
        # the neighbours in a row or column of touching cards of those just found
        nxt, by = [], []
        for cand, point, a, b in added:
            if cand.face_down:
                w, h = np.linalg.norm(cand.outline[1] - cand.outline[0]), np.linalg.norm(cand.outline[3] - cand.outline[0])
                nxt += [(point + w * a, a, b), (point - w * a, a, b), (point + h * b, a, b), (point - h * b, a, b)]
                by += [cand.outline] * 4
        if not nxt:
            break
        known_q += [np.float32(_shrink(c[0].outline, 6.0)).reshape(-1, 1, 2) for c in added]
        pool = judged(nxt, by)
    return [c[0] for c in chosen if c[0].face_down]


def _outline_centre(point: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``card_outline(point, u, v).mean(axis=0)``: the same sums in plain
    floats (its corners as card_outline adds them, then summed in order and
    halved twice over, as np.mean divides by 4), without numpy's overhead on
    four points; float64 vectors only (others as card_outline takes them)."""
    if not (isinstance(point, np.ndarray) and isinstance(u, np.ndarray) and isinstance(v, np.ndarray)) or not (
        point.dtype == u.dtype == v.dtype == np.float64 and point.shape == u.shape == v.shape == (2,)
    ):
        return card_outline(point, u, v).mean(axis=0)
    w, h = g.CARD_W, g.CARD_H
    out = []
    for p, a, b in zip(point.tolist(), u.tolist(), v.tolist(), strict=True):
        wa, hb = w * a, h * b
        out.append((((p + (p + wa)) + ((p + wa) + hb)) + (p + hb)) / 4)
    return np.array(out)


def _area(outline: np.ndarray) -> float:
    return abs(float(cv2.contourArea(np.float32(outline).reshape(-1, 1, 2))))


def _aspect_error(outline: np.ndarray) -> float:
    w, h = np.linalg.norm(outline[1] - outline[0]), np.linalg.norm(outline[3] - outline[0])
    return abs(w / max(h, 1e-6) - g.CARD_W / g.CARD_H)
