"""A suit with no rank spot over it: the rank's thin strokes found fainter.

The edge-free finder (:mod:`vision.index_pairs`) pairs a rank spot with a
suit spot of the paper mask.  At 720p a rank drawn in thin strokes (a J, a
7, a light Q) is blurred to 60-120 grey levels under the paper, which the
paper mask keeps as paper: the suit, a filled shape, is a spot; the rank is
none, or specks under ``GLYPH_DIAG``.  Where such a card also shows no
right-angled paper corner (a staggered pile, a card touching another), its
index was lost though the reader reads it: on 720p scenes 0-299, 16 of the
56 cards whose index the reader reads where it truly lies, and which the
pipeline missed, were lost so.

Here, around each suit-sized spot that no pair took, ink is asked for
against the paper right around it (``FAINT_INK`` grey levels under its
brighter tenth), not against the mask's level: a faint spot beside the suit
at an index's distance, of a rank's size, gives the rank -> suit direction
and the rank's top, from which the patch is placed as a pair's is.  The
pipeline reads them after every other step, where no card found has an
index (:func:`vision.index_pairs.read_lone_suits`, at
``LONE_CONFIDENCE``).

Pure functions over the work image; the finder gathers, the pipeline reads."""

from __future__ import annotations

import cv2
import numpy as np

from .cards import Plane

#: a lone suit's box diagonal, mm (index suits are 3-5 mm glyphs; pips are larger)
LONE_DIAG = (2.5, 10.0)
#: grey levels under the paper right around it that count as faint ink
FAINT_INK = 40
#: a faint rank: its centre this far from the suit's centre, mm
RANK_DIST = (3.0, 12.0)
#: ... its extent along the rank -> suit direction and across it, mm
RANK_LEN = (2.0, 11.0)
RANK_WIDTH = (0.7, 9.0)
#: ... and at most this blank between its bottom and the suit's top, mm
MAX_GAP = 3.5
#: the window looked at round a lone suit, mm from its centre
REACH = 14.0
#: at most this many faint ranks tried per lone suit
PER_SUIT = 2


def lone_suit_candidates(spots, lone: np.ndarray, gray: np.ndarray, mask: np.ndarray, plane: Plane) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """[(suit spot, rank top, v)] for the spots flagged ``lone`` (suit-sized,
    in no pair), the largest faint rank of each first: ``top`` the faint
    rank's end away from the suit, ``v`` the rank -> suit direction (plane
    mm).  ``spots``:
    :class:`vision.index_pairs.Spots`; ``gray`` and ``mask``: the work image
    and its paper mask."""
    out: list[tuple[int, np.ndarray, np.ndarray]] = []
    h_img, w_img = gray.shape[:2]
    to_work = np.linalg.inv(plane.work_to_plane)
    for k in np.nonzero(lone)[0].tolist():
        x, y, w, h, _area = spots.boxes[k].tolist()
        c = spots.centres[k]
        # plane mm per work px here, from the box's sides
        mm_px = max(float(np.linalg.norm(spots.ex[k])) / max(w, 1), float(np.linalg.norm(spots.ey[k])) / max(h, 1), 1e-6)
        r = int(np.ceil(REACH / mm_px))
        cw = cv2.perspectiveTransform(np.float64(c).reshape(1, 1, 2), to_work).reshape(2)
        x0, y0 = max(int(cw[0]) - r, 0), max(int(cw[1]) - r, 0)
        x1, y1 = min(int(cw[0]) + r + 1, w_img), min(int(cw[1]) + r + 1, h_img)
        if x1 - x0 < 5 or y1 - y0 < 5:
            continue
        g = gray[y0:y1, x0:x1]
        paper = mask[y0:y1, x0:x1] > 0
        if paper.sum() < 20:
            continue
        level = float(np.percentile(g[paper], 90))
        faint = (g < level - FAINT_INK).astype(np.uint8)
        # the suit itself (its box's non-paper pixels, grown by a pixel for its blurred rim) is not the rank
        own = np.zeros_like(faint)
        bx0, by0 = x - x0, y - y0
        sub = (~paper[max(by0, 0) : by0 + h, max(bx0, 0) : bx0 + w]).astype(np.uint8)
        own[max(by0, 0) : max(by0, 0) + sub.shape[0], max(bx0, 0) : max(bx0, 0) + sub.shape[1]] = sub
        own = cv2.dilate(own, np.ones((3, 3), np.uint8))
        faint[own > 0] = 0
        n, lab, st, cents = cv2.connectedComponentsWithStats(faint, connectivity=8)
        js = np.flatnonzero(st[1:, 4] >= 3) + 1
        if not len(js):
            continue
        # only components whose centroid lies near an index's distance are measured pixel by pixel
        # (1 mm spare: the mean of the pixels' plane points is not quite their centroid's)
        near = np.linalg.norm(plane.to_plane(cents[js] + (x0 + 0.5, y0 + 0.5)) - c, axis=1)
        found = []
        for j in js[(near >= RANK_DIST[0] - 1.0) & (near <= RANK_DIST[1] + 1.0)].tolist():
            ys, xs = np.nonzero(lab == j)
            pts = plane.to_plane(np.stack((xs + (x0 + 0.5), ys + (y0 + 0.5)), axis=1)).astype(np.float64)
            rc = pts.mean(axis=0)
            d = c - rc
            dist = float(np.linalg.norm(d))
            if not RANK_DIST[0] <= dist <= RANK_DIST[1]:
                continue
            v = d / dist
            u = np.array([v[1], -v[0]])
            along, across = (pts - rc) @ v, (pts - rc) @ u
            length, width = float(np.ptp(along)) + mm_px, float(np.ptp(across)) + mm_px
            if not (RANK_LEN[0] <= length <= RANK_LEN[1] and RANK_WIDTH[0] <= width <= RANK_WIDTH[1]):
                continue
            suit_half = float(spots.extent(k, v)) / 2
            gap = dist - float(along.max()) - suit_half
            if gap > MAX_GAP:
                continue
            # the rank's box middle across the card, not its ink's (a J's ink lies in its stem)
            top = rc + float(along.min()) * v + (float(across.max()) + float(across.min())) / 2 * u
            found.append((int(st[j, 4]), top, v))
        found.sort(key=lambda f: -f[0])
        out += [(k, top, v) for _size, top, v in found[:PER_SUIT]]
    return out
