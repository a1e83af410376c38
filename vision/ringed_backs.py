"""Face-down cards with a white border: a card-sized ring of paper.

Most real backs (Bicycle, Copag, KEM, casino decks) print their design inside
a plain white border a few millimetres wide.  :mod:`vision.backs` finds a
back by what differs from the table, so a back whose design is the table's
own hue (a green back on green felt, a blue one on a blue cloth) is missed
there.  Its border is not missed: the paper mask holds it as a thin ring, a
card-sized rectangle of paper around one rectangular hole, which nothing
else on a table makes:

* a face holds ink in its margin (the index corners), which makes holes of
  its own in the ring, and its pips or picture leave paper between them, so
  no single hole covers most of it (a court card's framed picture covers
  about half: 44x70 mm of 63x88);
* a printed marker card's marker covers about a third;
* a hand over a face reaches beyond the card's outline, which is then not a
  rectangle of a card's size.

So every hole in the paper is asked whether it is a back's design: a
rectangle with a band of paper round it on all four sides, each a
plausible border's width (``RING.border_mm``, measured in the mask along
each side's outward normal), that grown by those widths makes a card's
size and shape; the border must be paper in the mask all round and hold
no other hole of a glyph's size; the design must be solid (a face printed
as a dark framed panel, KDE's oxygen, holds its pips as paper), but for one
square of paper in its middle (a marked back whose marker went unread);
and its halves must be alike, as a back's design is
(:func:`vision.backs.design_asymmetry`).  A side whose band runs on into a
neighbour's (two borders of touching backs) takes the other sides' width.
Asking the holes, not the paper regions, lets backs touching edge to edge
(one paper region with a hole for each) be told apart, and a pile's top
back be found whatever lies under it.  A back under another card or a hand
has a broken border and is left to :mod:`vision.backs` (the issue asks only
for backs mostly in view).

The paper mask and its holes are the pipeline's own (work pixels, before
the cut along edges, which takes a thin border apart); geometry is plane
millimetres (:class:`vision.cards.Plane`).  Pure: mask, holes, plane and
frame in, outlines out."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry as g
from .backs import ASYMMETRY, design_asymmetry
from .cards import Plane

CARD_AREA = g.CARD_W * g.CARD_H


@dataclass(frozen=True)
class RingThresholds:
    #: the card implied by a hole, as a share of a card's area (mat mm, or the pipeline's pseudo-mm)
    area: tuple[float, float] = (0.75, 1.3)
    #: the card's long side over its short side (63x88: 1.40)
    aspect: tuple[float, float] = (1.28, 1.55)
    #: the hole's long side over its short side (a card's design inside a 1.8-7.5 mm border: 1.43-1.61)
    hole_aspect: tuple[float, float] = (1.25, 1.8)
    #: the hole's area over its bounding rectangle's (a rectangle: 1)
    rectangular: float = 0.9
    #: a border's width, mm (real decks print 3-5 mm, the generator 4).  A mat's zone outline
    #: (companion.printing.mat's 0.8 mm line round a card-sized zone) must never pass: 1.2 mm at most,
    #: blurred, in the mask
    border_mm: tuple[float, float] = (1.8, 7.5)
    #: a side's band this many times the others' median is two borders (touching backs)
    double: float = 1.6
    #: the four sides' widths may differ by this much (mm; off-centre printing, the mask's edge)
    spread_mm: float = 2.5
    #: share of the border that must be paper in the mask
    paper: float = 0.9
    #: the hole's own pixels over the area its outline holds: a back's design is
    #: solid (or holds one square of paper in its middle: a marked back's quiet
    #: zone), a face's framed panel (KDE's oxygen) holds its pips as paper
    solid: float = 0.98
    #: any other hole in the border this large (mm^2) is ink: an index glyph, a face
    other_hole_mm2: float = 3.0


RING = RingThresholds()

#: where each side's band is measured: fractions along the side, and the walk outward (mm)
_ALONG = np.linspace(0.15, 0.85, 7)
_STEP_MM = 0.4
_STEPS = 26


def _sides(box: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each side of a rectangle (4x2, boxPoints order): its ends and its unit
    normal pointing out of the rectangle."""
    centre = box.mean(axis=0)
    out = []
    for k in range(4):
        a, b = box[k], box[(k + 1) % 4]
        along = b - a
        normal = np.array([along[1], -along[0]]) / max(float(np.hypot(*along)), 1e-9)
        out.append((a, b, normal if float(normal @ ((a + b) / 2 - centre)) >= 0 else -normal))
    return out


def _band_widths(mask: np.ndarray, to_work: np.ndarray, box: np.ndarray) -> np.ndarray:
    """Per side of the rectangle ``box`` (4x2 plane mm, boxPoints order), the
    width (mm) of paper in ``mask`` outward from it, the lower quartile of the
    side's samples (where a card under this one shows along part of a side,
    paper runs on into its border there); the walk's full length where paper
    never ends."""
    pts = []
    for a, b, normal in _sides(box):
        starts = a + _ALONG[:, None] * (b - a)
        pts.append(starts[:, None, :] + (np.arange(1, _STEPS + 1) * _STEP_MM)[None, :, None] * normal)
    grid = np.stack(pts)  # 4 sides x samples x steps x 2
    px = cv2.perspectiveTransform(np.float32(grid).reshape(-1, 1, 2), to_work).reshape(grid.shape)
    x = np.clip(np.round(px[..., 0]).astype(int), 0, mask.shape[1] - 1)
    y = np.clip(np.round(px[..., 1]).astype(int), 0, mask.shape[0] - 1)
    inside = (px[..., 0] >= 0) & (px[..., 0] < mask.shape[1]) & (px[..., 1] >= 0) & (px[..., 1] < mask.shape[0])
    paper = (mask[y, x] > 0) & inside
    # steps of paper before the first that is not (the first step may fall on the hole's own rim)
    paper |= np.arange(_STEPS) < 1
    run = np.where(paper.all(axis=2), _STEPS, np.argmin(paper, axis=2))
    return np.percentile(run, 25, axis=1) * _STEP_MM


def _grown(rect, widths: np.ndarray) -> np.ndarray:
    """The rectangle ``rect`` (cv2 rotated rect) grown outward by each side's
    width: corner k, where sides k-1 and k meet, moves out along both
    sides' normals (a rectangle's are square to each other)."""
    box = cv2.boxPoints(rect).astype(np.float64)
    normals = [n for _, _, n in _sides(box)]
    return np.array([box[k] + widths[k - 1] * normals[k - 1] + widths[k] * normals[k] for k in range(4)])


def _hole_card(hole: np.ndarray, mask: np.ndarray, to_work: np.ndarray, t: RingThresholds):
    """The card outline (4x2 plane mm) whose back's design a hole (plane mm
    points) would be, or None; ``to_work``: plane mm -> the mask's pixels."""
    rect = cv2.minAreaRect(np.float32(hole))
    w, h = rect[1]
    if min(w, h) <= 0 or not t.hole_aspect[0] <= max(w, h) / min(w, h) <= t.hole_aspect[1]:
        return None  # the cheap test first: the mat's square markers, most pictures
    if abs(float(cv2.contourArea(np.float32(hole)))) < t.rectangular * w * h:
        return None
    widths = _band_widths(mask, to_work, cv2.boxPoints(rect).astype(np.float64))
    # a side whose band is two borders (a touching neighbour's too) takes the others' width
    for k in range(4):
        rest = np.median(np.delete(widths, k))
        if widths[k] > t.double * rest:
            widths[k] = rest
    if widths.min() < t.border_mm[0] or widths.max() > t.border_mm[1] or np.ptp(widths) > t.spread_mm:
        return None
    outline = _grown(rect, widths)
    sides = np.hypot(*(outline - np.roll(outline, -1, axis=0)).T)
    a, b = sorted((float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2))
    if not t.aspect[0] <= b / max(a, 1e-9) <= t.aspect[1] or not t.area[0] * CARD_AREA <= a * b <= t.area[1] * CARD_AREA:
        return None
    return outline


def _marked_centre(hole: np.ndarray, crop: np.ndarray) -> bool:
    """Whether the paper inside a hole (its contour in ``crop``'s pixels,
    ``crop`` 1 where not paper) is one square in its middle: a marked back's
    quiet zone round its marker (vision.markers), not a face's pips."""
    inner = np.zeros(crop.shape, np.uint8)
    cv2.drawContours(inner, [hole], -1, 1, -1)
    inner &= 1 - crop
    n, _, st, cents = cv2.connectedComponentsWithStats(inner, connectivity=8)
    if n < 2:
        return True
    big = 1 + int(np.argmax(st[1:, 4]))
    x, y, w, h, _ = st[big]
    (cx, cy), (hw, hh), _ = cv2.minAreaRect(hole)
    # the marker's own white cells are islands of their own, inside the quiet zone's square
    inside = (cents[1:, 0] >= x) & (cents[1:, 0] <= x + w) & (cents[1:, 1] >= y) & (cents[1:, 1] <= y + h)
    return (
        bool(inside.all())
        and max(w, h) <= 1.3 * max(min(w, h), 1)
        and float(np.hypot(cents[big][0] - cx, cents[big][1] - cy)) <= 0.15 * min(hw, hh)
    )


def find_ringed_backs(mask: np.ndarray, plane: Plane, holes, frame: np.ndarray | None = None, t: RingThresholds = RING) -> list[np.ndarray]:
    """Outlines (plane mm, 4x2) of white-bordered backs in the paper ``mask``
    (work px, 255 = paper), whose ``holes`` (the non-paper spots inside
    paper regions, as the pipeline labels them: cv2.connectedComponentsWithStats'
    stats and centroids, row 0 unused) are asked.  With the ``frame``, a
    design whose halves differ as no back's do
    (:func:`vision.backs.design_asymmetry`) is a face's: a framed panel of
    colour round its pips, as some decks print (KDE's oxygen)."""
    stats, cents = holes
    if len(stats) < 2:
        return []
    # a card's area in work pixels bounds the holes worth asking (the plane's scale varies
    # over a tilted frame: loosely; the test in millimetres follows)
    h22 = max(abs(float(plane.work_to_plane[2, 2])), 1e-9)
    scale = abs(float(np.linalg.det(plane.work_to_plane[:2, :2]))) / h22**2
    card_px = CARD_AREA / max(scale, 1e-9)
    area = stats[1:, 4]
    to_work = np.linalg.inv(plane.work_to_plane)
    out: list[np.ndarray] = []
    for k in (np.flatnonzero((area >= 0.25 * card_px) & (area <= 2.0 * card_px)) + 1).tolist():
        x, y, w, h, _ = (int(v) for v in stats[k])
        crop = np.ascontiguousarray(mask[y : y + h, x : x + w] == 0, np.uint8)
        contours, _ = cv2.findContours(crop, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        hole = max(contours, key=cv2.contourArea)
        if stats[k][4] < t.solid * cv2.contourArea(hole) and not _marked_centre(hole, crop):
            continue  # paper inside it: a face's panel round its pips, not a back's design
        hole_px = hole.reshape(-1, 2) + (x, y)
        outline = _hole_card(plane.to_plane(hole_px), mask, to_work, t)
        if outline is None:
            continue
        # the border: paper all round, in the work mask
        poly = cv2.perspectiveTransform(np.float32(outline).reshape(-1, 1, 2), to_work).reshape(-1, 2)
        x0, y0 = np.floor(poly.min(axis=0)).astype(int)
        x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
        if x0 < 0 or y0 < 0 or x1 > mask.shape[1] or y1 > mask.shape[0]:
            continue  # cut off by the frame's edge
        band = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(band, [np.int32(np.round(poly - (x0, y0)))], 255)
        cv2.fillPoly(band, [np.int32(hole_px - (x0, y0))], 0)
        ring = band > 0
        if not ring.any() or float((mask[y0:y1, x0:x1][ring] > 0).mean()) < t.paper:
            continue
        # no ink in the border: no other spot of a glyph's size between the card's outline and its design
        near = np.flatnonzero(
            (cents[:, 0] >= x0) & (cents[:, 0] < x1) & (cents[:, 1] >= y0) & (cents[:, 1] < y1) & (stats[:, 4] * scale > t.other_hole_mm2)
        )
        shape, design = poly.reshape(-1, 1, 2), np.float32(hole_px).reshape(-1, 1, 2)
        if any(
            j not in (0, k)
            and cv2.pointPolygonTest(shape, (float(cents[j][0]), float(cents[j][1])), False) >= 0
            and cv2.pointPolygonTest(design, (float(cents[j][0]), float(cents[j][1])), False) < 0
            for j in near.tolist()
        ):
            continue  # in the border, not inside the design (a marked back's marker)
        if frame is not None and design_asymmetry(frame, plane, outline) > ASYMMETRY:
            continue
        out.append(outline)
    return out
