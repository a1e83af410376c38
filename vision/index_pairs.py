"""Finding corner indices without a card edge: rank/suit ink pairs.

The pipeline reads indices at the right-angled outer corners of paper regions.
Many visible indices have no such corner: the card lies partly under others
(a staggered pile), touches another card with no visible line between them,
or its corner touches a printed line.  What every corner index has, whatever
its card's edges do, is its own layout: a rank glyph with a suit glyph of
about its width just below it, both a few millimetres tall, a few millimetres
from the card's edges.  Centre pips are larger and sit farther apart; picture
art is larger still.

So: among the ink spots on paper (the connected non-paper components the
pipeline already labels), pair every index-sized spot (the rank, or the two
glyphs of a "10") with an index-sized spot just below it (the suit).  The
rank -> suit direction is the card's long axis ("down", ``v``); a card seen
from above is not mirrored, so its short edge ``u`` is ``v`` turned a quarter
turn clockwise (image y down).  At 720p a millimetre's gap is about a
pixel, so rank and suit often run together into one spot: an elongated spot
of an index's length and width is tried from both ends.  The upright patch is
placed from the pair and read by :func:`vision.corner_index.read_patch`; only
a confident reading whose rank sits where the pair put it counts.

Each read costs about as much as a corner's, and a frame holds many more ink
pairs than unread indices, so cheap tests come first: spots of indices already
read, or at corners the reader already tried, are skipped; ink must be much
darker than the paper next to it (not a hand's shading); pairs where the
card ends (table, an edge line, another card) within a few mm beyond the
rank's top, which an upside-down pair or a pip column does not, are read
first, and only ``MAX_BLIND_TRIES`` of the others (an index whose card edge
is lost against a white card next to it: on generated scenes these read
about as right as the rest, but a 6 or 9 read there is not trusted, since
upside down each is the other); a patch placed where one was declined (the
same glyphs the same way up) is not read again; and at most ``MAX_TRIES``
patches are read per frame.

Tried and not adopted (bench/vision_misses.py, seeds 0-59 and 500-559):
reading again the indices of corners the reader declined (a pair places the
patch a little differently) found 21 more on held-out seeds, but 4 of them
wrong; wider size limits for big indices (ranks to 14 mm) found one more
card in some third-party decks and read two 6/9 upside down in another;
finding ink finer than the paper mask (the darkest colour channel against
its local maximum: thin strokes, light inks) cost as much again as the
finder and found fewer on generated scenes.

Weak spots: a deck whose index sits far from the edges (beyond
``EDGE_REACH``) is tried only among the few pairs with no edge seen; an
index in the mirrored corners of a four-index deck is read, but its card
outline is put on the wrong side; a rank whose thin strokes the paper mask
loses (at 720p a 1 mm stroke is a pixel or two; light inks of four-colour
decks) leaves its suit with no pair; a glyph within about a millimetre of
the card's edge joins the table and is no spot at all.

All sizes are plane millimetres (mat mm, or the pipeline's pseudo-mm without a
mat).  The finder is pure: frame, plane, ink spots in, readings out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .cards import Plane, sample_patch
from .corner_index import PATCH_PPM, PATCH_W, IndexReading, References, read_patch

#: a rank glyph's height (box extent along the card's long axis), mm
RANK_H = (3.5, 11.0)
#: an index glyph's box diagonal, mm (a "1" is thin, a "10" is two spots)
GLYPH_DIAG = (2.5, 13.0)
#: largest blank between the rank and the suit, mm
MAX_GAP = 3.0
#: rank centre to suit centre, mm
SUIT_DIST = (3.0, 14.0)
#: centre to centre of the two glyphs of a "10", mm
TEN_DIST = (0.8, 6.5)
#: where the patch puts the rank's centre, mm from the patch's corner (a
#: margin of about 2 mm above the rank: what lies beyond is not this card's)
PATCH_RANK_U = 5.0
PATCH_TOP_MARGIN = 2.0
#: a typical index: rank centre this far from the card's long edge and (top
#: of the rank) short edge, mm; places the card outline
CARD_RANK_U = 5.5
CARD_RANK_TOP = 4.0
#: how far the reading's rank may sit from where the pair put it, mm
MAX_SHIFT = 2.0
MIN_CONFIDENCE = 0.6
#: rank and suit run together: length along the card and width across, mm
MERGED_LEN = (9.0, 18.0)
MERGED_WIDTH = (3.3, 9.0)
#: beyond the rank's top, within this many mm, the card ends: the table, a
#: card below (an edge line or shadow) or one on top; blank paper there
#: means the pair is upside down (a suit over the next pip) or no index
EDGE_REACH = 7.0
EDGE_CONTRAST = 25
#: grey levels between a glyph's darkest pixel and the paper next to it
MIN_INK_CONTRAST = 60
#: at most this many patches read per frame (each costs about as much as one corner)
MAX_TRIES = 12
#: of which at most this many with no card end seen beyond the rank's top
MAX_BLIND_TRIES = 4
#: ranks that read as each other upside down
TURN_ALIKE = ("6", "9")
#: a patch placed within this many mm and this cosine of one declined is not read
REPEAT_MM = 1.5
REPEAT_COS = 0.95


@dataclass(frozen=True)
class PairReading:
    """An index found from its rank/suit pair: the card's corner, its inward
    edge directions (``u`` along the short edge, ``v`` along the long edge;
    not mirrored) and the reading, all in plane mm."""

    corner: np.ndarray
    u: np.ndarray
    v: np.ndarray
    reading: IndexReading

    @property
    def anchor(self) -> np.ndarray:
        """Where a corner reading's anchor goes (5 mm x 8 mm in from the corner)."""
        return self.corner + 5 * self.u + 8 * self.v


@dataclass(frozen=True)
class Spots:
    """Ink spots on paper in plane mm: component label, centre, and the two
    edge vectors of each spot's (work-pixel) bounding box, from which its
    extent along any direction follows."""

    labels: np.ndarray  # (n,): component label in the pipeline's hole labelling
    centres: np.ndarray  # (n, 2)
    ex: np.ndarray  # (n, 2): the box's x side
    ey: np.ndarray  # (n, 2): the box's y side
    boxes: np.ndarray  # (n, 5): x, y, w, h, pixel count in work px

    def extent(self, i, d: np.ndarray) -> np.ndarray:
        """Extent of spot(s) ``i`` along unit direction(s) ``d`` (an upper bound
        of the glyph's own extent: the box of a turned glyph is larger)."""
        return np.abs(np.sum(self.ex[i] * d, axis=-1)) + np.abs(np.sum(self.ey[i] * d, axis=-1))

    @property
    def diag(self) -> np.ndarray:
        return np.linalg.norm(self.ex + self.ey, axis=1)

    def subset(self, keep: np.ndarray) -> Spots:
        return Spots(self.labels[keep], self.centres[keep], self.ex[keep], self.ey[keep], self.boxes[keep])


def _no_spots() -> Spots:
    z = np.zeros((0, 2), np.float64)
    return Spots(np.zeros(0, np.int64), z, z, z, np.zeros((0, 5), np.int64))


def ink_spots(holes, plane: Plane, gray: np.ndarray | None = None, max_diag: float = 22.0) -> Spots:
    """Ink spots that may be index glyphs, one glyph or rank and suit run
    together, from the pipeline's hole components (stats and centroids in work
    pixels, label 0 = background).  With ``gray`` (the work image), only spots
    of printed ink: much darker than the paper right around them (a hand or a
    shadow on a card leaves faint, soft-edged spots)."""
    stats, cents = holes
    if len(stats) <= 1:
        return _no_spots()
    x, y, w, h = (stats[1:, k].astype(np.float32) for k in range(4))
    # the box's top-left, top-right and bottom-left corners, mapped in one call
    box = np.stack((np.stack((x, y), axis=1), np.stack((x + w, y), axis=1), np.stack((x, y + h), axis=1)))
    p0, p1, p2 = plane.to_plane(box.reshape(-1, 2)).astype(np.float64).reshape(3, -1, 2)
    ex, ey = p1 - p0, p2 - p0
    diag = np.linalg.norm(ex + ey, axis=1)
    ok = (diag > GLYPH_DIAG[0]) & (diag < max_diag) & (stats[1:, 4] >= 4)
    if gray is not None:
        gh, gw = gray.shape
        keep = np.nonzero(ok)[0]
        # one cv2.minMaxLoc per box (numpy's min and max cost several times as much on boxes this small)
        for k, (bx, by, bw, bh) in zip(keep.tolist(), stats[keep + 1, :4].tolist(), strict=True):
            lo = cv2.minMaxLoc(gray[by : by + bh, bx : bx + bw])[0]
            hi = cv2.minMaxLoc(gray[max(by - 2, 0) : min(by + bh + 2, gh), max(bx - 2, 0) : min(bx + bw + 2, gw)])[1]
            ok[k] = hi - lo >= MIN_INK_CONTRAST
    if not ok.any():
        return _no_spots()
    centres = plane.to_plane(cents[1:][ok]).astype(np.float64)
    return Spots(np.nonzero(ok)[0] + 1, centres, ex[ok], ey[ok], stats[1:][ok].astype(np.int64))


def index_boxes(reads) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, float, float]]:
    """Rank and suit boxes of readings made at corners, in plane mm:
    [(centre, u, v, half width, half height)].  ``reads``: [(corner, u, v, IndexReading)]."""
    out = []
    for point, u, v, r in reads:
        mirrored = u[0] * v[1] - u[1] * v[0] < 0
        for x, y, w, h in (r.rank_box, r.suit_box):
            cx = x + w / 2
            if mirrored:
                cx = PATCH_W - cx
            c = point + (cx / PATCH_PPM) * u + ((y + h / 2) / PATCH_PPM) * v
            out.append((c, u, v, w / 2 / PATCH_PPM + 1.0, h / 2 / PATCH_PPM + 1.0))
    return out


def outline_index_spots(outline: np.ndarray) -> np.ndarray:
    """Where the indices of a card found with this outline (plane mm, 4
    corners in order) sit: 5 mm in along the short edge and 8 mm along the
    long edge from each corner (decks with indices in all four corners too)."""
    return outlines_index_spots([outline])


def outlines_index_spots(outlines) -> np.ndarray:
    """:func:`outline_index_spots` of every outline, stacked: (k, 2)."""
    if not len(outlines):
        return np.zeros((0, 2))
    o = np.asarray(outlines, np.float64).reshape(-1, 4, 2)
    a, b = np.roll(o, -1, axis=1) - o, np.roll(o, 1, axis=1) - o
    la, lb = (
        np.sqrt(a[..., 0] * a[..., 0] + a[..., 1] * a[..., 1]),
        np.sqrt(b[..., 0] * b[..., 0] + b[..., 1] * b[..., 1]),
    )
    short = (la < lb)[..., None]
    with np.errstate(invalid="ignore", divide="ignore"):  # a degenerate corner is dropped below
        spots = o + np.where(short, 5.0, 8.0) * a / la[..., None] + np.where(short, 8.0, 5.0) * b / lb[..., None]
    return spots[(la >= 1e-6) & (lb >= 1e-6)]


def _known(centres: np.ndarray, boxes, anchors: np.ndarray, anchor_r: float) -> np.ndarray:
    """Spots that belong to an index already read."""
    known = np.zeros(len(centres), bool)
    if boxes and len(centres):
        # every box at once: spot offsets along each box's u and v
        c, u, v, hw, hh = (np.array(x, np.float64) for x in zip(*boxes, strict=True))
        d = centres[:, None, :] - c[None, :, :]
        du = d[..., 0] * u[:, 0] + d[..., 1] * u[:, 1]
        dv = d[..., 0] * v[:, 0] + d[..., 1] * v[:, 1]
        known |= ((np.abs(du) < hw) & (np.abs(dv) < hh)).any(axis=1)
    if len(anchors):
        d = np.linalg.norm(centres[:, None, :] - anchors[None, :, :], axis=2)
        known |= d.min(axis=1) < anchor_r
    return known


def candidate_pairs(spots: Spots, skip: np.ndarray) -> list[tuple[float, tuple[int, ...], int, np.ndarray, np.ndarray]]:
    """Rank/suit pairs of index layout, most index-like first:
    [(score, rank spot ids, suit spot id, rank centre, v)].  A rank is one spot
    or two spots side by side of like height (a "10").  Vectorised over every
    (rank, suit) combination: a frame holds a few hundred spots."""
    c = spots.centres
    n = len(c)
    if n < 2:
        return []
    free = np.nonzero(~skip)[0]
    dist = np.linalg.norm(c[free][None, :, :] - c[free][:, None, :], axis=2)
    ii, jj = np.nonzero(np.triu((dist > TEN_DIST[0]) & (dist < TEN_DIST[1]), 1))
    # rank groups: single spots, and pairs of spots side by side ("10"); b = -1: none
    ga = np.concatenate((free, free[ii]))
    gb = np.concatenate((np.full(len(free), -1), free[jj]))
    rc = np.where((gb >= 0)[:, None], (c[ga] + c[np.maximum(gb, 0)]) / 2, c[ga])
    d = c[free][None, :, :] - rc[:, None, :]
    dd = np.linalg.norm(d, axis=2)
    gi, sk = np.nonzero((dd > SUIT_DIST[0]) & (dd < SUIT_DIST[1]))
    s = free[sk]
    keep = (s != ga[gi]) & (s != gb[gi])
    gi, s, sk = gi[keep], s[keep], sk[keep]
    if not len(gi):
        return []
    a, b = ga[gi], gb[gi]
    two = b >= 0
    b0 = np.maximum(b, 0)
    dist_rs = dd[gi, sk]
    v = d[gi, sk] / dist_rs[:, None]
    u = np.stack((v[:, 1], -v[:, 0]), axis=1)
    ha, hb = spots.extent(a, v), spots.extent(b0, v)
    rh = np.where(two, np.maximum(ha, hb), ha)
    sh = spots.extent(s, v)
    gap = dist_rs - (rh + sh) / 2  # at most the real gap (boxes are upper bounds)
    ok = (rh >= RANK_H[0]) & (rh <= RANK_H[1]) & (sh >= 0.3 * rh) & (sh <= 1.3 * rh)
    ok &= (gap <= MAX_GAP) & (gap >= -0.35 * rh)
    # the two glyphs of a "10" sit side by side, level across the card, of like height
    ab = c[b0] - c[a]
    level = np.abs(np.sum(ab * v, axis=1)) <= 0.3 * np.linalg.norm(ab, axis=1)
    like = np.maximum(ha, hb) <= 1.4 * np.minimum(ha, hb)
    ok &= ~two | (level & like)
    rw = np.where(
        two, np.abs(np.sum(ab * u, axis=1)) + (spots.extent(a, u) + spots.extent(b0, u)) / 2, spots.extent(a, u)
    )
    sw = spots.extent(s, u)
    ratio = sw / np.maximum(rw, 1e-6)
    ok &= (ratio > 0.3) & (ratio < 3.0)
    # how index-like: a small gap, a suit a bit smaller than the rank
    score = np.abs(gap - 0.8) + np.abs(sh / rh - 0.8) * 2
    out = []
    for k in np.nonzero(ok)[0].tolist():
        ids = (int(a[k]), int(b[k])) if two[k] else (int(a[k]),)
        out.append((float(score[k]), ids, int(s[k]), rc[gi[k]], v[k]))
    out.sort(key=lambda p: p[0])
    return out


def merged_candidates(spots: Spots, skip: np.ndarray, mask: np.ndarray, plane: Plane):
    """Rank and suit run together into one spot (small glyphs: at 720p a
    millimetre's gap is a pixel or less, and the paper mask's opening closes
    it): an elongated spot of an index's length and width.  Its long axis is
    the card's; the rank may be at either end, so both are tried (the suit
    read as a rank does not read).  [(score, (spot,), top, v)]: ``top`` is
    the spot's end on its axis."""
    out = []
    diag = spots.diag
    # a box's diagonal is at least as long as the spot in it
    for k in np.nonzero(~skip & (diag > MERGED_LEN[0] - 0.5) & (diag < 22.0))[0].tolist():
        x, y, w, h, area = spots.boxes[k].tolist()
        crop = cv2.bitwise_not(mask[y : y + h, x : x + w])
        n, lab, st, _ = cv2.connectedComponentsWithStats(crop, connectivity=8)
        if n < 2:
            continue
        same = np.nonzero(st[1:, 4] == area)[0]
        lid = int(same[0] + 1) if len(same) else int(np.argmax(st[1:, 4]) + 1)
        blob = cv2.compare(lab, lid, cv2.CMP_EQ)
        mo = cv2.moments(blob, binaryImage=True)
        a, b, c = mo["mu20"], mo["mu11"], mo["mu02"]
        root = math.sqrt(max((a - c) ** 2 + 4 * b * b, 0.0))
        if (a + c + root) < 1.9 * (a + c - root):  # second moments: not twice as long as wide (a pip)
            continue
        ys, xs = np.nonzero(blob)
        pts = plane.to_plane(np.stack((xs + (x + 0.5), ys + (y + 0.5)), axis=1)).astype(np.float64)
        mean = pts.mean(axis=0)
        dm = pts - mean
        evals, evecs = np.linalg.eigh(_covariance(dm))
        e1 = evecs[:, 1]
        along, across = dm @ e1, dm @ evecs[:, 0]
        length, width = float(np.ptp(along)) + 0.7, float(np.ptp(across)) + 0.7
        if not (
            MERGED_LEN[0] <= length <= MERGED_LEN[1]
            and MERGED_WIDTH[0] <= width <= MERGED_WIDTH[1]
            and 1.7 * width <= length <= 3.4 * width
        ):
            continue
        score = 0.5 + 0.5 * abs(length / width - 2.2)
        for v in (e1, -e1):
            top = mean + float((dm @ v).min()) * v
            out.append((score, (k,), top, v))
    return out


def _covariance(d: np.ndarray) -> np.ndarray:
    """``np.cov(d.T)`` of points ``d`` (n, 2), computed as numpy computes it
    (the same numbers) without its argument handling, which cost more than the sums."""
    x = np.array(d.T)  # as np.cov copies it (its memory order kept: the sums run in the same order)
    x -= x.mean(axis=1)[:, None]
    c = np.dot(x, x.T.conj())
    c *= np.true_divide(1, np.float64(len(d)) - 1)
    return c


def edges_beyond(gray: np.ndarray, plane_to_work: np.ndarray, tops: np.ndarray, vs: np.ndarray) -> np.ndarray:
    """For each rank top in ``tops`` (k, 2) with its card's down direction in
    ``vs`` (k, 2): whether the paper ends (or shows a line) within
    ``EDGE_REACH`` mm beyond the rank's top: grey levels along that short ray
    vary by at least ``EDGE_CONTRAST``, or leave the image.  Near the edge of
    its own card by construction, an index always has one; the suit of an
    upside-down pair, or a pip, has blank paper there.  All rays in one
    mapping and one lookup."""
    tops, vs = np.asarray(tops, np.float64).reshape(-1, 2), np.asarray(vs, np.float64).reshape(-1, 2)
    if not len(tops):
        return np.zeros(0, bool)
    d = np.arange(1.0, EDGE_REACH + 0.01, 0.75)
    pts = tops[:, None, :] - d[None, :, None] * vs[:, None, :]
    px = cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), plane_to_work).reshape(len(tops), len(d), 2)
    xi, yi = np.round(px[..., 0]).astype(int), np.round(px[..., 1]).astype(int)
    h, w = gray.shape
    out = (xi.min(axis=1) < 0) | (yi.min(axis=1) < 0) | (xi.max(axis=1) >= w) | (yi.max(axis=1) >= h)
    vals = gray[np.clip(yi, 0, h - 1), np.clip(xi, 0, w - 1)].astype(int)
    return out | (vals.max(axis=1) - vals.min(axis=1) >= EDGE_CONTRAST)


def find_index_pairs(
    frame: np.ndarray,
    plane: Plane,
    holes,
    mask: np.ndarray,
    gray: np.ndarray | None = None,
    reads=(),
    outlines=(),
    anchors=(),
    corners=(),
    refs: References | None = None,
    max_tries: int = MAX_TRIES,
    trace: dict | None = None,
) -> list[PairReading]:
    """Corner indices found from their rank/suit ink pairs.

    ``holes``: the pipeline's ink-spot components (stats, centroids; work px);
    ``mask``: its paper mask and ``gray`` the grey work image.  ``reads``:
    readings already made, [(corner, u, v, IndexReading)], whose glyphs are
    skipped; ``outlines``
    and ``anchors``: outlines and anchors (plane mm) of cards already found
    otherwise: spots within 5 mm of an anchor or of where an index of such
    an outline sits are skipped (their card is known).  ``corners``: the
    outer card corners (:class:`vision.cards.Corner`) whose index the reader
    already tried, found or declined: their index spots are skipped too (the
    reader declines a patch of the same glyphs placed from their pair just as
    often, and each try costs as much as a corner's).

    ``trace`` (a diagnostic, bench/vision_misses.py): when given, filled with
    the ink spots (``"spots"``, ``"skip"``) and every candidate with what
    became of it (``"cands"``: [(top, v, spot ids, fate)])."""
    spots = ink_spots(holes, plane, gray)
    if trace is not None:
        trace.update(spots=spots, skip=np.zeros(len(spots.centres), bool), cands=[])
    if len(spots.centres) < 1:
        return []
    anchors = [np.asarray(a, np.float64).reshape(-1, 2) for a in anchors]
    anchors.append(outlines_index_spots(list(outlines)))
    anchors += [np.array([c.point + 5 * c.d1 + 8 * c.d2, c.point + 8 * c.d1 + 5 * c.d2]) for c in corners]
    anchors = np.vstack(anchors) if anchors else np.zeros((0, 2))
    skip = _known(spots.centres, index_boxes(reads), anchors, 5.0)
    if trace is not None:
        trace["skip"] = skip
    note = trace["cands"].append if trace is not None else (lambda _c: None)
    small = spots.diag < GLYPH_DIAG[1]
    cands = []
    idx = np.nonzero(small)[0]
    pairs = candidate_pairs(spots.subset(small), skip[small])
    if pairs:
        # each pair's rank height along its v (the taller glyph of a "10"), all at once
        vs = np.array([p[4] for p in pairs])
        first = spots.extent(idx[[p[1][0] for p in pairs]], vs)
        second = spots.extent(idx[[p[1][-1] for p in pairs]], vs)
        rhs = np.where([len(p[1]) > 1 for p in pairs], np.maximum(first, second), first).tolist()
        for (score, ids, s, rc, v), rh in zip(pairs, rhs, strict=True):
            cands.append((score, tuple(int(idx[i]) for i in (*ids, s)), rc - rh / 2 * v, v))
    cands += merged_candidates(spots, skip, mask, plane)
    cands.sort(key=lambda c: c[0])
    # pairs with the card's end beyond the rank first; the others (a card
    # edge lost against a white card next to it) after them, fewer
    edge = [True] * len(cands)
    if gray is not None:
        to_work = np.linalg.inv(plane.work_to_plane)
        edge = edges_beyond(gray, to_work, np.array([c[2] for c in cands]), np.array([c[3] for c in cands])).tolist()
        cands = [c for c, e in zip(cands, edge, strict=True) if e] + [
            c for c, e in zip(cands, edge, strict=True) if not e
        ]
        edge = sorted(edge, reverse=True)
    out: list[PairReading] = []
    used = skip.copy()
    failed: list[tuple[np.ndarray, np.ndarray]] = []  # (top, v) of patches declined
    blind = 0
    for (_score, ids, top, v), edged in zip(cands, edge, strict=True):
        if len(failed) + len(out) >= max_tries:
            note((top, v, ids, "cap"))
            continue
        if any(used[i] for i in ids):
            note((top, v, ids, "used"))
            continue
        # the same patch (the same glyphs the same way up: a "10" as one
        # glyph or two, a pair or run together) reads no better a second time
        if any(np.linalg.norm(top - f_top) < REPEAT_MM and float(v @ f_v) > REPEAT_COS for f_top, f_v in failed):
            note((top, v, ids, "repeat"))
            continue
        if not edged:
            if blind >= MAX_BLIND_TRIES:
                note((top, v, ids, "no_edge"))
                continue
            blind += 1
        u = np.array([v[1], -v[0]])
        corner = top - PATCH_TOP_MARGIN * v - PATCH_RANK_U * u
        r = read_patch(sample_patch(frame, plane, corner, u, v), refs)
        # a 6 upside down is a 9: with no card end seen above it, neither is trusted
        ok = r is not None and r.confidence >= MIN_CONFIDENCE and (edged or r.rank not in TURN_ALIKE)
        fate = "declined"
        if ok:
            x, y, w, h = r.rank_box
            # the reader must have read this pair's rank, not some other glyph
            ok = (
                abs((x + w / 2) / PATCH_PPM - PATCH_RANK_U) <= MAX_SHIFT
                and abs(y / PATCH_PPM - PATCH_TOP_MARGIN) <= MAX_SHIFT
            )
            fate = "misplaced"
        if not ok:
            note((top, v, ids, fate))
            failed.append((top, v))
            continue
        note((top, v, ids, "read"))
        for i in ids:
            used[i] = True
        # the card's corner from a typical index layout around the rank read
        rank_c = corner + ((x + w / 2) / PATCH_PPM) * u + ((y + h / 2) / PATCH_PPM) * v
        card_corner = rank_c - CARD_RANK_U * u - (CARD_RANK_TOP + h / 2 / PATCH_PPM) * v
        out.append(PairReading(card_corner, u, v, r))
        # spots of the index just read (e.g. the second glyph of a "10")
        used |= _known(spots.centres, index_boxes([(corner, u, v, r)]), np.zeros((0, 2)), 0)
    return out
