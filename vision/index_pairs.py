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

Decks differ in index layout, and the tests allow for what the paper mask
and the spots' boxes do to them.  A spot's size is its box's extent along
the card's axes, which overstates a turned glyph (a condensed 9 mm rank at
45 degrees has a 13 mm box): a pair failing only for a rank too tall is
measured again from its pixels.  A condensed or light rank loses thin
strokes to the paper mask at 720p, and what is left of it is shorter than
its suit and farther above it: a rank part down to half its suit's height
pairs, and its patch is placed where a whole rank's top would be.  A light ink (a four-colour deck's yellow) is
faint in grey but dark in one colour channel, which a shadow is not.

Each read costs about as much as a corner's, and a frame holds many more ink
pairs than unread indices, so cheap tests come first: spots of indices already
read are skipped, and pairs with a spot where a corner the reader already
tried has its index are tried last, held to ``TRIED_CORNER_CONFIDENCE``, and
not where they would place that corner's own patch again; ink must be much
darker than the paper next to it (not a hand's shading); pairs where the
card ends (table, an edge line, another card) within a few mm beyond the
rank's top, which an upside-down pair or a pip column does not, are read
first, and only ``MAX_BLIND_TRIES`` of the others (an index whose card edge
is lost against a white card next to it: on generated scenes these read
about as right as the rest, a 6 or 9 among them too); a patch placed where
one was declined (the same glyphs the same way up) is not read again; and
at most ``MAX_TRIES`` patches are read per frame.

Tried and not adopted (bench/vision_misses.py, seeds 0-59 and 500-559):
reading again the indices of corners the reader declined (a pair places the
patch a little differently) found 21 more on held-out seeds, but 4 of them
wrong.  Tried again (2026-12-03; 720p seeds 0-149, 150-299 and 500-649,
1080p 500-649): the spots of tried corners not skipped, but a pair whose
patch lies within 1.5 mm of a tried corner's skipped and the rest tried
last.  At 720p that read 26 more cards right for 5 more misreads (one in
six of what it added wrong), at 1080p 1 more misread and none more right;
holding those pairs to 0.85 confidence, 10 more right for 3 more
misreads; with 3 mm instead of 1.5, fewer read right.  Not adopted.  With
the wider whole-index network of session 31, no tried corner's spots
skipped at all: 720p seeds 0-149 797 -> 807 found, misreads 8 -> 13;
500-649 797 -> 811, 10 -> 14 (a third of what it added wrong).  Not
adopted.  Adopted in session 41: those pairs tried last, only where they do
not place a tried corner's own patch again (``REPEAT_MM``), and held to 0.9
(``TRIED_CORNER_CONFIDENCE``): 720p seeds 0-999 22 more read right, none
more misread; 1080p 0-249 2 more right; third-party decks unchanged but one
more right.  The skipped spots had cost cards whose index lay where a false
corner (a stagger's step, another card's edge) put its index places.
Wider size limits for big indices (ranks to 14 mm) found one more
card in some third-party decks and read two 6/9 upside down in another;
finding ink finer than the paper mask (the darkest colour channel against
its local maximum: thin strokes, light inks) cost as much again as the
finder and found fewer on generated scenes; a 4.5 mm gap between rank and
suit (some decks leave 3-4 mm) found 5 more cards over 40 third-party decks
(bench.vision_decks, 10 scenes each) but paired two pips of a column 4.3 mm
apart, whose patch read a neighbour's 6 of diamonds on a 9 of clubs.

Weak spots: a deck whose index sits far from the edges (beyond
``EDGE_REACH``) is tried only among the few pairs with no edge seen; an
index in the mirrored corners of a four-index deck is read, but its card
outline is put on the wrong side; a rank whose thin strokes the paper mask
loses (at 720p a 1 mm stroke is a pixel or two) down to specks under
``GLYPH_DIAG``'s 2.5 mm leaves its suit with no pair (such a suit's rank is
looked for fainter, :mod:`vision.lone_suits`, and read after every other
step, :func:`read_lone_suits`); a glyph within about a
millimetre of the card's edge, or of a frame line printed round the face
(French "Paris" patterns), joins the table and is no hole in the paper: the
paper mask closed across such notches (:func:`sealed_holes`) gives it back
as a spot, but often run together with its neighbour glyph or the card's
rim into one spot no pair test passes.

Tried and not adopted (session 44, 720p seeds 0-149, 804 found / 8
misread as they are): the patch placed so that the rank sits where a
corner's patch has it in the generator's decks (its top 3-3.5 mm down
instead of ``PATCH_TOP_MARGIN``'s 2, its middle 6 mm across instead of 5):
top 3.0 801 / 9, across 6.0 802 / 9, both (3.5 and 6.0) 800 / 8.

Tried and not adopted for phone photos (bench/vision_decks_photo.py, 9
third-party decks at 4000x3000, 4 scenes each): looking for ink at twice
the work copy's resolution in the paper regions' boxes found 160 -> 163 of
242 cards for 50 % more CPU per photo; where it found the index (Paris
decks), the reader declined the patch.

All sizes are plane millimetres (mat mm, or the pipeline's pseudo-mm without a
mat).  The finder is pure: frame, plane, ink spots in, readings out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .cards import TABLE_NEAR, Plane, background_colour, inside, sample_patch
from .corner_index import PATCH_PPM, PATCH_W, IndexReading, References, read_patch
from .lone_suits import LONE_DIAG, lone_suit_candidates

#: a rank glyph's height (box extent along the card's long axis), mm
RANK_H = (3.5, 11.0)
#: an index glyph's box diagonal, mm (a "1" is thin, a "10" is two spots)
GLYPH_DIAG = (2.5, 13.0)
#: largest blank between the rank and the suit, mm (4.5 paired pips of a
#: column, 4.3 mm apart in one deck: a 9 read as the neighbour's 6)
MAX_GAP = 3.0
#: a rank part (thin strokes lost) over a suit up to this many times its height
PART_SUIT = 2.0
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
#: the same for a pair with a sealed spot (see sealed_holes): on 300 generated
#: scenes 0.6 read two more indices wrong (a blurred 6 as 8, a club under a
#: hand as a spade) for a few more found
SEALED_CONFIDENCE = 0.85
#: rank and suit run together: length along the card and width across, mm
MERGED_LEN = (9.0, 18.0)
MERGED_WIDTH = (3.3, 9.0)
#: and its length over its width.  A one-glyph rank over its suit is about
#: twice as long as wide; a "10" over its suit is wider, 1.4-1.7 (the 10 of
#: hearts of 1080p bench scene 129 ran together into one spot 13.7 by 8.4 mm);
#: below 1.4 a spot is a pip or a blot
MERGED_ASPECT = (1.4, 3.4)
#: under this aspect the spot is no one-glyph index: it is tried after the
#: other candidates and read only at WIDE_MERGED_CONFIDENCE (a king of
#: hearts' index with a glossy heart, run together at 12 MP, read at 0.66 as
#: the king of diamonds)
ONE_GLYPH_ASPECT = 1.7
WIDE_MERGED_CONFIDENCE = 0.85
#: beyond the rank's top, within this many mm, the card ends: the table, a
#: card below (an edge line or shadow) or one on top; blank paper there
#: means the pair is upside down (a suit over the next pip) or no index
EDGE_REACH = 7.0
EDGE_CONTRAST = 25
#: grey levels between a glyph's darkest pixel and the paper next to it
MIN_INK_CONTRAST = 60
#: a spot this much darker in grey may be a light ink (yellow: about 35 grey
#: levels) whose colour channels are asked (below it: noise, paper texture)
MIN_LIGHT_INK = 20
#: at most this many patches read per frame (each costs about as much as one corner).
#: 12 until session 48: 20 found 11 cards more over 720p seeds 0-999 (staggered piles
#: whose other pairs used up the tries), no misread more; 1080p 5 more and one misread
#: more (a patch declined here read by the near-pip step as a second card).  20 until
#: session 49: at 1080p, where more of the pips and print resolve into pairs, 30 found 3
#: cards more over seeds 0-399 (their pairs were past the 20th), no misread; 720p seeds
#: 0-999 one more (scene 647)
MAX_TRIES = 30
#: ... and this many in each reading of the no-mat scale search (VisionPipeline._search_scale),
#: which reads a frame at up to six scales to compare their counts.  30 there too took
#: 100 1080p first frames 7.2 ms more CPU on average than 20 (one no-mat scene 455 ms
#: more); with 20 there, the mat scenes' frames took 1.8 ms more, and at 720p the
#: difference was under the noise.  The cards 30 found over 1080p seeds 0-399 all lay
#: on the mat
SEARCH_TRIES = 20
#: of which at most this many with no card end seen beyond the rank's top (4 until session 32:
#: 8 found 3 more and misread 1 fewer over 720p seeds 0-299 and 500-649; 1080p and
#: third-party decks unchanged)
MAX_BLIND_TRIES = 8
#: a box's extent along the card is at most this many times its glyph's
#: (a glyph twice as tall as wide, turned 45 degrees: about 1.4)
BOX_SLACK = 1.5
#: a patch placed within this many mm and this cosine of one declined is not read
REPEAT_MM = 1.5
REPEAT_COS = 0.95
#: print (a page of rules, a score pad) beside the cards: candidates linked
#: by rank tops within CROWD_MM of the next, PRINT_CLUSTER or more of them.
#: On 720p and 1080p tables and third-party decks' photos every cluster held
#: 89 candidates or fewer; a page of rules's, hundreds to thousands
PRINT_CLUSTER = 120
CROWD_MM = 20.0
#: a pair with a spot where a tried corner's index lies is read last, and
#: only at this confidence (the corner's reader declined those glyphs, or read
#: them as another card's: session 41, 720p seeds 0-999 22 more cards read
#: right and none wrong; with a second read placed 0.6 mm in made to agree,
#: seeds 0-299 and 500-799 at 0.75 20 more right and 2 more wrong, at the
#: usual 0.6 19 and 2; docs/vision.md, Figures)
TRIED_CORNER_CONFIDENCE = 0.9
#: a suit whose rank was found fainter (vision.lone_suits), read after every
#: other step: at least this sure, and at most this many such patches a frame.
#: At 0.6 (a pair's), third-party decks at 720p (bench/vision_decks.py, 10
#: scenes) read two more wrong (orell's J of clubs as a 3 of spades at 0.64,
#: oxygen-white's ace of spades as a 4 at 0.62); at 0.65 none, and 2 cards
#: fewer of 720p scenes 0-999 (5352 -> 5350 found, none misread either way)
LONE_CONFIDENCE = 0.65
MAX_LONE_TRIES = 6


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


def ink_spots(
    holes, plane: Plane, gray: np.ndarray | None = None, max_diag: float = 22.0, frame: np.ndarray | None = None
) -> Spots:
    """Ink spots that may be index glyphs, one glyph or rank and suit run
    together, from the pipeline's hole components (stats and centroids in work
    pixels, label 0 = background).  With ``gray`` (the work image), only spots
    of printed ink: much darker than the paper right around them (a hand or a
    shadow on a card leaves faint, soft-edged spots).  With ``frame`` too, a
    spot faint in grey counts if one colour channel is that much darker (the
    light inks of four-colour decks: yellow is nearly white in grey, dark
    in blue; a shadow darkens every channel alike)."""
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
        light = []
        # one cv2.minMaxLoc per box (numpy's min and max cost several times as much on boxes this small)
        for k, (bx, by, bw, bh) in zip(keep.tolist(), stats[keep + 1, :4].tolist(), strict=True):
            lo = cv2.minMaxLoc(gray[by : by + bh, bx : bx + bw])[0]
            hi = cv2.minMaxLoc(gray[max(by - 2, 0) : min(by + bh + 2, gh), max(bx - 2, 0) : min(bx + bw + 2, gw)])[1]
            ok[k] = hi - lo >= MIN_INK_CONTRAST
            if not ok[k] and hi - lo >= MIN_LIGHT_INK:
                light.append(k)
        if frame is not None and light:
            to_frame = plane.plane_to_frame @ plane.work_to_plane
            for k in light:
                ok[k] = colour_contrast(frame, to_frame, stats[k + 1, :4]) >= MIN_INK_CONTRAST
    if not ok.any():
        return _no_spots()
    centres = plane.to_plane(cents[1:][ok]).astype(np.float64)
    return Spots(np.nonzero(ok)[0] + 1, centres, ex[ok], ey[ok], stats[1:][ok].astype(np.int64))


#: glyphs joined to the paper's outline (printed up to the card's edge or a
#: frame line) are sealed off by a closing of the paper mask with a square of
#: twice this many mm a side: notches up to about as wide (an index glyph is
#: 4-9 mm wide) are closed across their mouth
SEAL_RADIUS = 4.0
#: share of a sealed spot's pixels that may look like the table
SEAL_TABLE = 0.25
#: colour distance within which a pixel looks like the table
SEAL_NEAR = TABLE_NEAR


_CROSS3 = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
_ONES3 = np.ones((3, 3), np.uint8)


def sealed_holes(mask: np.ndarray, plane: Plane, frame: np.ndarray, bg_tiles: np.ndarray | None = None):
    """Ink joined to the table through the paper's outline, as holes.

    An index printed up to the card's edge, or touching a frame line printed
    round the face (French "Paris" patterns, Dondorf, black-bordered decks),
    merges with the table at 720p: it is no hole in the paper mask, and the
    edge-free finder has no spot for it.  Closing the paper mask with a
    square of twice :data:`SEAL_RADIUS` mm a side closes such a notch across
    its mouth, about where the card's edge would run; the non-paper pixels
    inside the closing and outside every paper region's outline are then
    spots of their own.  Spots that look like the table (``bg_tiles``: the
    table colour per tile, as :func:`vision.cards.background_colour` gives
    it; made from the frame when None) over more than :data:`SEAL_TABLE` of
    their pixels are dropped: a gap between two cards, the inner corner of a
    staircase.

    Returns (stats, centroids, sealed mask): the new spots as
    cv2.connectedComponentsWithStats gives them (work px, row 0 unused) and
    the paper mask with a ring of paper round each new spot (so that its
    pixels are found again from its box)."""
    h, w = mask.shape[:2]
    empty = (np.zeros((1, 5), np.int32), np.zeros((1, 2)), mask)
    if h < 3 or w < 3 or frame.ndim != 3 or not mask.any():
        return empty
    # plane mm per work px, at the frame's centre
    with np.errstate(invalid="ignore"):
        mm = float(np.linalg.norm(np.diff(plane.to_plane(np.float32([[w / 2, h / 2], [w / 2 + 10, h / 2]])), axis=0)) / 10)
    if not np.isfinite(mm) or mm <= 0:
        return empty
    r = int(round(SEAL_RADIUS / mm))
    if r < 2 or r > 40:
        return empty
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_px = (4 * r) ** 2  # a region that cannot hold an index
    big = [c for c in contours if cv2.contourArea(c) >= min_px]
    if not big:
        return empty
    x, y, bw, bh = cv2.boundingRect(np.concatenate(big))
    x0, y0, x1, y1 = max(x - r, 0), max(y - r, 0), min(x + bw + r, w), min(y + bh + r, h)
    filled = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(filled, big, -1, 255, -1, offset=(-x0, -y0))
    own = cv2.bitwise_and(mask[y0:y1, x0:x1], filled)
    # a square's closing (separable: far cheaper than a disk's), then two pixels in from its edge:
    # a thin strip of the card's blurred rim along the outline would join every glyph that touches it
    closed = cv2.morphologyEx(own, cv2.MORPH_CLOSE, np.ones((2 * r + 1, 2 * r + 1), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    closed = cv2.erode(closed, _CROSS3, iterations=2, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    notch = cv2.subtract(closed, filled)
    return _notch_spots(notch, (x0, y0), mask, plane, frame, mm, bg_tiles) or empty


def _notch_spots(notch: np.ndarray, origin: tuple[int, int], mask: np.ndarray, plane: Plane, frame: np.ndarray, mm: float, bg_tiles):
    """sealed_holes' spots from the notch pixels (``notch``: a box of the work
    image at ``origin``), or None.  The notch pixels are few and spread over
    most of the frame: each piece is labelled in its own box, found from its
    outer outline (a scan, where labelling the whole box and looking its
    pixels up cost several times the closing).  Spots come in the order
    cv2.connectedComponentsWithStats would label the notch's box (its 2x2
    blocks row by row), as before.  (Tried: drawing the glyph-sized pieces
    filled with their numbers and looking the notch pixels up once, no
    labelling per piece: no faster on 18 recorded frames, as finding the
    pixels in the box and drawing cost what it saved.)"""
    outlines, tree = cv2.findContours(notch, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    outer = [c for c, t in zip(outlines, tree[0] if outlines else (), strict=True) if t[3] < 0]
    if not outer:
        return None
    rects = np.array([cv2.boundingRect(c) for c in outer], np.int64)
    # glyph-sized only (in work px, at the frame's centre scale: 4 px and up to about 22 mm)
    diag = np.hypot(rects[:, 2], rects[:, 3]) * mm
    ox, oy = origin
    pieces = []  # (box origin in the notch, labels there, label, box in the notch, pixels' rows, columns)
    firsts = [c[0, 0] for c in outer]
    boxes = rects.tolist()
    for k in np.flatnonzero((diag > GLYPH_DIAG[0]) & (diag < 22.0)).tolist():
        x, y, w, h = boxes[k]
        # (one pixel more each way: the ring of paper round each spot below)
        sx0, sy0 = max(x - 1, 0), max(y - 1, 0)
        _, lab = cv2.connectedComponents(notch[sy0 : y + h + 1, sx0 : x + w + 1], connectivity=8, ltype=cv2.CV_16U)
        i = lab[firsts[k][1] - sy0, firsts[k][0] - sx0]
        ys, xs = np.nonzero(lab == i)
        if len(ys) >= 4:
            pieces.append(((sx0, sy0), lab, i, boxes[k], ys, xs))
    if not pieces:
        return None
    # every piece's pixels, looked up in the frame at once, against the table colour of their tile
    counts = np.array([len(p[4]) for p in pieces])
    xs = np.concatenate([p[5] + p[0][0] for p in pieces]) + ox
    ys = np.concatenate([p[4] + p[0][1] for p in pieces]) + oy
    to_frame = plane.plane_to_frame @ plane.work_to_plane
    pts = np.float32(np.stack((xs + 0.5, ys + 0.5), axis=1)).reshape(-1, 1, 2)
    fp = cv2.perspectiveTransform(pts, to_frame).reshape(-1, 2)
    fh, fw = frame.shape[:2]
    fx = np.clip(np.nan_to_num(fp[:, 0]), 0, fw - 1).astype(np.int64)
    fy = np.clip(np.nan_to_num(fp[:, 1]), 0, fh - 1).astype(np.int64)
    if bg_tiles is None:
        # (from every few pixels: the most common colour per tile needs no averaging)
        bg_tiles = background_colour(cv2.resize(frame, (192, 144), interpolation=cv2.INTER_NEAREST))
    ty, tx = bg_tiles.shape[:2]
    table = bg_tiles.astype(np.float32)[np.minimum(fy * ty // fh, ty - 1), np.minimum(fx * tx // fw, tx - 1)]
    diff = frame[fy, fx].astype(np.float32) - table
    near = np.einsum("ij,ij->i", diff, diff) < SEAL_NEAR * SEAL_NEAR
    which = np.repeat(np.arange(len(pieces)), counts)
    share = np.bincount(which, weights=near, minlength=len(pieces)) / counts
    kept = [p for p, sh in zip(pieces, share.tolist(), strict=True) if sh <= SEAL_TABLE]
    if not kept:
        return None
    # in the order cv2.connectedComponentsWithStats labels the notch pixels' box grown by a
    # pixel: by each piece's first 2x2 block of that box, row by row
    bx0, by0 = max(int(rects[:, 0].min()) - 1, 0), max(int(rects[:, 1].min()) - 1, 0)
    order = []
    for (sx0, sy0), lab, i, (_, y, _, _), *_ in kept:
        top = (y - by0) // 2 * 2 + by0 - sy0  # the block row's first row, in the piece's box
        cols = np.flatnonzero((lab[max(top, 0) : top + 2] == i).any(axis=0))
        order.append(((y - by0) // 2, (int(cols[0]) + sx0 - bx0) // 2))
    kept = [p for _, p in sorted(zip(order, kept, strict=True), key=lambda t: t[0])]
    sealed = mask.copy()
    stats, cents = [np.zeros((1, 5), np.int32)], [np.zeros((1, 2))]
    for (sx0, sy0), lab, i, (x, y, w, h), ys, xs in kept:
        x0, y0 = sx0 + ox, sy0 + oy
        stats.append(np.int32([[x + ox, y + oy, w, h, len(ys)]]))
        # (as the labelling gave it: the sum over the piece's box, then moved)
        cents.append(np.array([[int(xs.sum()) / len(xs), int(ys.sum()) / len(ys)]]) + (x0, y0))
        # a ring of paper round each spot kept (spots are never 8-neighbours, so no ring crosses another)
        blob = (lab == i).view(np.uint8) * np.uint8(255)
        h, w = blob.shape
        sealed[y0 : y0 + h, x0 : x0 + w] |= cv2.subtract(cv2.dilate(blob, _ONES3), blob)
    return np.concatenate(stats), np.concatenate(cents), sealed


def colour_contrast(frame: np.ndarray, to_frame: np.ndarray, box) -> float:
    """The largest drop, over the colour channels, from the paper right
    around a spot (its work-pixel box grown by 2 px, in the frame) to the
    spot's darkest pixel in that channel."""
    x, y, w, h = (float(t) for t in box)
    corners = np.float32([[[x - 2, y - 2]], [[x + w + 2, y + h + 2]], [[x, y]], [[x + w, y + h]]])
    ends = cv2.perspectiveTransform(corners, to_frame)
    (ox0, oy0), (ox1, oy1), (ix0, iy0), (ix1, iy1) = ends.reshape(4, 2).tolist()
    fh, fw = frame.shape[:2]

    def span(a: float, b: float, n: int) -> tuple[int, int]:
        lo, hi = int(math.floor(min(a, b))), int(math.ceil(max(a, b)))
        return min(max(lo, 0), n - 1), min(max(hi, lo + 1, 1), n)

    (ax0, ax1), (ay0, ay1) = span(ox0, ox1, fw), span(oy0, oy1, fh)
    (bx0, bx1), (by0, by1) = span(ix0, ix1, fw), span(iy0, iy1, fh)
    outer = frame[ay0:ay1, ax0:ax1].reshape(-1, 3)
    inner = frame[by0:by1, bx0:bx1].reshape(-1, 3)
    if not len(outer) or not len(inner):
        return 0.0
    return float((outer.max(axis=0).astype(int) - inner.min(axis=0).astype(int)).max())


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


def read_card_index_spots(outline: np.ndarray, anchors) -> np.ndarray:
    """Where the indices of a card read at ``anchors`` (plane mm) sit: by the
    corner of ``outline`` nearest each anchor and by the corner diagonally
    across from it, the two a two-index deck prints.  Not by the other two:
    there the index of the next card of a staggered column often lies, 5 mm
    along the edge from this card's unprinted corner (and a four-index
    deck's mirrored index read again there is this card again).  (k, 2)."""
    o = np.asarray(outline, np.float64).reshape(4, 2)
    spots = outline_index_spots(o)
    if len(spots) != 4:  # a degenerate outline: every spot it has
        return spots
    ks = {int(np.argmin(np.linalg.norm(o - np.asarray(a, np.float64).reshape(1, 2), axis=1))) for a in anchors}
    return spots[sorted(ks | {(k + 2) % 4 for k in ks})]


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


def index_places(outlines, anchors) -> np.ndarray:
    """Where cards found have an index, (k, 2) plane mm: ``anchors`` (each
    an array of points) and every corner's index spot of ``outlines``."""
    places = [np.asarray(a, np.float64).reshape(-1, 2) for a in anchors]
    places.append(outlines_index_spots(list(outlines)))
    return np.vstack(places)


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


def candidate_pairs(
    spots: Spots, skip: np.ndarray, points=None
) -> list[tuple[float, tuple[int, ...], int, np.ndarray, np.ndarray]]:
    """Rank/suit pairs of index layout, most index-like first:
    [(score, rank spot ids, suit spot id, rank centre, v)].  A rank is one spot
    or two spots side by side of like height (a "10").  Vectorised over every
    (rank, suit) combination of spots near each other (``_pairs_within``):
    a table holds a few hundred spots, a page of print thousands.

    Sizes come from the spots' boxes, which overstate a turned glyph's
    extent (a 8 mm rank at 45 degrees has a 12 mm box along the card).
    ``points`` (spot id -> its pixels' centres in plane mm, and a pixel's
    size in mm), when given, measures again from the pixels the pairs that
    fail only for a rank too tall by its box."""
    c = spots.centres
    n = len(c)
    if n < 2:
        return []
    free = np.nonzero(~skip)[0]
    # only spots near each other are compared: a page of print holds thousands
    # of glyph-sized spots, and every pair of them cost seconds a frame
    near_i, near_j = _pairs_within(c[free], SUIT_DIST[1] + TEN_DIST[1] / 2)
    dist = np.linalg.norm(c[free[near_j]] - c[free[near_i]], axis=1)
    ten = (near_i < near_j) & (dist > TEN_DIST[0]) & (dist < TEN_DIST[1])
    ii, jj = near_i[ten], near_j[ten]
    # rank groups: single spots, and pairs of spots side by side ("10"); b = -1: none
    ga = np.concatenate((free, free[ii]))
    gb = np.concatenate((np.full(len(free), -1), free[jj]))
    rc = np.where((gb >= 0)[:, None], (c[ga] + c[np.maximum(gb, 0)]) / 2, c[ga])
    # each group's suit candidates: the spots near its (first) glyph
    starts = np.searchsorted(near_i, np.arange(len(free)))
    counts = np.diff(np.append(starts, len(near_i)))
    first = np.concatenate((np.arange(len(free)), ii))
    gi = np.repeat(np.arange(len(ga)), counts[first])
    sk = near_j[np.repeat(starts[first], counts[first]) + _ranks_within(counts[first])]
    d = c[free[sk]] - rc[gi]
    dd = np.linalg.norm(d, axis=1)
    near = (dd > SUIT_DIST[0]) & (dd < SUIT_DIST[1])
    gi, sk, d, dd = gi[near], sk[near], d[near], dd[near]
    s = free[sk]
    keep = (s != ga[gi]) & (s != gb[gi])
    gi, s, sk, d, dd = gi[keep], s[keep], sk[keep], d[keep], dd[keep]
    if not len(gi):
        return []
    a, b = ga[gi], gb[gi]
    two = b >= 0
    b0 = np.maximum(b, 0)
    dist_rs = dd
    v = d / dist_rs[:, None]
    u = np.stack((v[:, 1], -v[:, 0]), axis=1)
    ab = c[b0] - c[a]
    # the two glyphs of a "10" sit side by side, level across the card
    level = np.abs(np.sum(ab * v, axis=1)) <= 0.3 * np.linalg.norm(ab, axis=1)
    across = np.abs(np.sum(ab * u, axis=1))
    axes = ((a, v), (b0, v), (s, v), (a, u), (b0, u), (s, u))
    ext = [spots.extent(spot, d) for spot, d in axes]
    ok, gap, rh, sh = _layout_ok(two, level, dist_rs, across, *ext)
    redo = np.nonzero(~ok & (rh > RANK_H[1]) & (rh <= BOX_SLACK * RANK_H[1]))[0] if points is not None else []
    if len(redo):
        # the same tests on the extents of the glyphs' own pixels
        for k in redo.tolist():
            for e, (spot, d) in zip(ext, axes, strict=True):
                e[k] = pixel_extent(points, int(spot[k]), d[k], e[k])
        ok[redo], gap[redo], rh[redo], sh[redo] = _layout_ok(
            two[redo], level[redo], dist_rs[redo], across[redo], *(e[redo] for e in ext)
        )
    # how index-like: a small gap, a suit a bit smaller than the rank
    score = np.abs(gap - 0.8) + np.abs(sh / rh - 0.8) * 2
    out = []
    for k in np.nonzero(ok)[0].tolist():
        ids = (int(a[k]), int(b[k])) if two[k] else (int(a[k]),)
        out.append((float(score[k]), ids, int(s[k]), rc[gi[k]], v[k]))
    out.sort(key=lambda p: p[0])
    return out


def _pairs_within(points: np.ndarray, r: float) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered pair (i, j), i != j, of ``points`` closer than ``r``,
    sorted by i then j: from a grid of r-sized cells, so that the cost grows
    with the pairs near each other, not with the square of the points."""
    n = len(points)
    if n < 2:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    cell = np.floor(points / r).astype(np.int64)
    cell -= cell.min(axis=0) - 1  # a blank cell on every side: no neighbour wraps to the next row
    width = int(cell[:, 0].max()) + 2
    key = cell[:, 1] * width + cell[:, 0]
    order = np.argsort(key, kind="stable")
    keys = key[order]
    ii, jj = [], []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            lo = np.searchsorted(keys, key + dy * width + dx, "left")
            hi = np.searchsorted(keys, key + dy * width + dx, "right")
            ii.append(np.repeat(np.arange(n), hi - lo))
            jj.append(order[np.repeat(lo, hi - lo) + _ranks_within(hi - lo)])
    i, j = np.concatenate(ii), np.concatenate(jj)
    keep = (i != j) & (np.linalg.norm(points[i] - points[j], axis=1) < r)
    i, j = i[keep], j[keep]
    o = np.lexsort((j, i))
    return i[o], j[o]


def _ranks_within(counts: np.ndarray) -> np.ndarray:
    """0, 1, .., k - 1 for each k in ``counts``, end to end."""
    total = int(counts.sum())
    return np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)


def _layout_ok(two, level, dist_rs, ten_across, ha, hb, sh, wa, wb, sw):
    """The layout tests of (rank, suit) combinations from their glyphs'
    extents along the card (``ha``, ``hb``: the rank's one or two glyphs,
    ``sh``: the suit) and across it (``wa``, ``wb``, ``sw``): (ok, gap, rank
    height, suit height)."""
    rh = np.where(two, np.maximum(ha, hb), ha)
    gap = dist_rs - (rh + sh) / 2  # at most the real gap (extents are upper bounds)
    # a rank shorter than its suit lost thin strokes to the paper mask (a
    # condensed or light font at 720p): what is left of it sits farther off
    part = (sh > 1.3 * rh) & (sh <= PART_SUIT * rh)
    ok = (rh >= RANK_H[0]) & (rh <= RANK_H[1]) & (sh >= 0.3 * rh) & ((sh <= 1.3 * rh) | part)
    ok &= (gap <= MAX_GAP) & (gap >= -0.35 * rh)
    # the two glyphs of a "10" are of like height
    like = np.maximum(ha, hb) <= 1.4 * np.minimum(ha, hb)
    ok &= ~two | (level & like)
    rw = np.where(two, ten_across + (wa + wb) / 2, wa)
    ratio = sw / np.maximum(rw, 1e-6)
    ok &= (ratio > 0.3) & (ratio < 3.0)
    return ok, gap, rh, sh


def pixel_extent(points, k: int, d: np.ndarray, box_extent: float) -> float:
    """Spot ``k``'s extent along ``d`` from its pixels (``points(k)``: their
    centres and a pixel's size, mm), at most its box's."""
    pts, px = points(k)
    return min(box_extent, float(np.ptp(pts @ d)) + px) if len(pts) else box_extent


def spot_points(mask: np.ndarray, plane: Plane, box) -> tuple[np.ndarray, float]:
    """The centres of a spot's pixels in plane mm, and a work pixel's size
    there in mm, from its box and pixel count (x, y, w, h, n in work px)."""
    x, y, w, h, area = (int(t) for t in box)
    crop = cv2.bitwise_not(mask[y : y + h, x : x + w])
    n, lab, st, _ = cv2.connectedComponentsWithStats(crop, connectivity=8)
    if n < 2:
        return np.zeros((0, 2)), 0.0
    same = np.nonzero(st[1:, 4] == area)[0]
    lid = int(same[0] + 1) if len(same) else int(np.argmax(st[1:, 4]) + 1)
    ys, xs = np.nonzero(lab == lid)
    pts = plane.to_plane(np.stack((xs + (x + 0.5), ys + (y + 0.5)), axis=1)).astype(np.float64)
    ends = plane.to_plane(np.float32([[x, y], [x + w, y + h]])).astype(np.float64)
    return pts, float(np.linalg.norm(ends[1] - ends[0]) / math.hypot(w, h))


def _mask_of(k: int, spots: Spots, mask: np.ndarray, table) -> np.ndarray:
    """The mask spot ``k`` is a hole of: ``table``'s for a light table's
    spot (``table``: its first label and its mask, or None), else ``mask``."""
    return table[1] if table is not None and int(spots.labels[k]) >= table[0] else mask


def merged_candidates(spots: Spots, skip: np.ndarray, mask: np.ndarray, plane: Plane, wide: set | None = None, table=None):
    """Rank and suit run together into one spot (small glyphs: at 720p a
    millimetre's gap is a pixel or less, and the paper mask's opening closes
    it): an elongated spot of an index's length and width.  Its long axis is
    the card's; the rank may be at either end, so both are tried (the suit
    read as a rank does not read).  [(score, (spot,), top, v)]: ``top`` is
    the spot's end on its axis.  ``wide``, when given, gets the spots less
    than ``ONE_GLYPH_ASPECT`` times as long as wide (a "10" over its suit).
    ``table``: (the first label of a light table's spots, the mask they are
    holes of: their pixels are cut from it), or None."""
    out = []
    diag = spots.diag
    # a box's diagonal is at least as long as the spot in it
    for k in np.nonzero(~skip & (diag > MERGED_LEN[0] - 0.5) & (diag < 22.0))[0].tolist():
        x, y, w, h, area = spots.boxes[k].tolist()
        crop = cv2.bitwise_not(_mask_of(k, spots, mask, table)[y : y + h, x : x + w])
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
        if len(xs) < 2:
            continue  # one pixel has no axis (a light table's speck; its moments passed as a line's)
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
            and MERGED_ASPECT[0] * width <= length <= MERGED_ASPECT[1] * width
        ):
            continue
        score = 0.5 + 0.5 * abs(length / width - 2.2)
        if wide is not None and length < ONE_GLYPH_ASPECT * width:
            wide.add(k)
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


def in_print(tops, sheets=()) -> list[bool]:
    """For each candidate's rank top (plane mm): whether it lies in print,
    on one of the ``sheets`` (outlines, plane mm) or in a cluster of
    ``PRINT_CLUSTER`` or more candidates each within ``CROWD_MM`` of the
    next.  A table of cards gives a few dozen candidates, a page of print
    hundreds, every letter or digit over the next line's.  The clusters are
    those of discs of half that radius, drawn at 0.5 px a mm."""
    tops = np.asarray(tops, np.float64).reshape(-1, 2)
    on_sheet = [any(inside(t, s) for s in sheets) for t in tops]
    if len(tops) < PRINT_CLUSTER:
        return on_sheet
    r = CROWD_MM / 2
    lo = tops.min(axis=0) - r - 1
    scale = min(0.5, 4000 / max(float(np.ptp(tops, axis=0).max()) + 2 * r + 2, 1.0))
    at = np.round((tops - lo) * scale).astype(np.int32)
    canvas = np.zeros((int(at[:, 1].max()) + int(r * scale) + 2, int(at[:, 0].max()) + int(r * scale) + 2), np.uint8)
    for x, y in at.tolist():
        cv2.circle(canvas, (x, y), max(1, int(round(r * scale))), 255, -1)
    _, labels = cv2.connectedComponents(canvas, connectivity=8)
    of = labels[at[:, 1], at[:, 0]]
    return ((np.bincount(of)[of] >= PRINT_CLUSTER) | np.array(on_sheet, bool)).tolist()


def card_corner(corner: np.ndarray, u: np.ndarray, v: np.ndarray, rank_box) -> np.ndarray:
    """The card's corner (plane mm) from a typical index layout around the
    rank glyph ``rank_box`` (x, y, w, h: patch px) of the patch placed at ``corner``."""
    x, y, w, h = rank_box
    rank_c = corner + ((x + w / 2) / PATCH_PPM) * u + ((y + h / 2) / PATCH_PPM) * v
    return rank_c - CARD_RANK_U * u - (CARD_RANK_TOP + h / 2 / PATCH_PPM) * v


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
    seal: bool = True,
    bg_tiles: np.ndarray | None = None,
    declined: list | None = None,
    glyphs_of=None,
    read_at=None,
    sheets=(),
    table_holes=None,
    lone: list | None = None,
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
    already tried, found or declined: pairs with a spot at their index
    places are tried after every other pair, not where they would place the
    corner's own patch again, and count only at ``TRIED_CORNER_CONFIDENCE``
    (the reader declines a patch of the same glyphs placed from their pair
    about as often, and each try costs as much as a corner's).

    ``seal``: also take ink joined to the table through a paper region's
    outline (:func:`sealed_holes`) as spots; ``table_holes``: more spots,
    (stats, centroids, mask), that only a light table's light encloses
    (vision.pipeline.light_table_holes): pairs with one of them are tried
    after every other but print and wide spots, and count only at
    ``SEALED_CONFIDENCE``, as a sealed spot's; ``bg_tiles``: the table colour
    per tile that the pipeline worked out (made again from the frame when
    None).

    ``trace`` (a diagnostic, bench/vision_misses.py): when given, filled with
    the holes searched (``"holes"``, sealed ones included), the ink spots
    (``"spots"``, ``"skip"``, ``"at_tried"``: at a tried corner's index
    places) and every candidate with what became of it
    (``"cands"``: [(top, v, spot ids, fate)]).  ``declined``: when given,
    gets (patch corner, u, v, patch) of every patch the reader declined
    (vision.near_pip looks beside it for the card's pips); ``glyphs_of``:
    the pipeline's per-frame glyph cache (see read_patch); ``read_at``: how
    a patch is read, ``read_at(corner, u, v) -> (reading or None, patch)``
    (the pipeline's keeps a place's reading from frame to frame where the
    table did not change); default: sampled and read here.  ``sheets``:
    outlines (plane mm) of paper regions that are sheets of paper, not
    cards (a page of rules, a score pad): candidates there are print, as
    those of a large cluster are (:func:`in_print`): tried after every
    other, and a patch declined there is not handed to ``declined``.
    ``lone``: when given, gets (rank top, v, suit centre) of each suit spot
    that no pair took with a rank found fainter beside it
    (:mod:`vision.lone_suits`), for :func:`read_lone_suits` once every
    other step has read what it reads."""
    n_own = len(holes[0])  # holes from here on are sealed ones
    if seal:
        extra_stats, extra_cents, mask = sealed_holes(mask, plane, frame, bg_tiles)
        if len(extra_stats) > 1:
            holes = (np.concatenate((holes[0], extra_stats[1:])), np.concatenate((holes[1], extra_cents[1:])))
    n_table = len(holes[0])  # and from here on the light table's (table_holes)
    table = None  # (n_table, the mask those are holes of): their pixels are measured in it
    if table_holes is not None and len(table_holes[0]):
        holes = (np.concatenate((holes[0], table_holes[0])), np.concatenate((holes[1], table_holes[1])))
        table = (n_table, table_holes[2])
    spots = ink_spots(holes, plane, gray, frame=frame)
    if trace is not None:
        none = np.zeros(len(spots.centres), bool)
        trace.update(holes=holes, spots=spots, skip=none, at_tried=none, cands=[])
    if len(spots.centres) < 1:
        return []
    anchors = index_places(outlines, anchors)
    skip = _known(spots.centres, index_boxes(reads), anchors, 5.0)
    # spots where a tried corner's index lies: tried last, and held to more
    at_tried = np.zeros(len(spots.centres), bool)
    if len(corners):
        tried_at = np.vstack([(c.point + 5 * c.d1 + 8 * c.d2, c.point + 8 * c.d1 + 5 * c.d2) for c in corners])
        at_tried = _known(spots.centres, [], tried_at, 5.0) & ~skip
    if trace is not None:
        trace.update(skip=skip, at_tried=at_tried)
    note = trace["cands"].append if trace is not None else (lambda _c: None)
    # (a turned glyph's box is larger than the glyph: such pairs are measured again from their pixels)
    small = spots.diag < GLYPH_DIAG[1] * BOX_SLACK
    cands = []
    idx = np.nonzero(small)[0]
    cache: dict[int, tuple[np.ndarray, float]] = {}

    def points(k: int) -> tuple[np.ndarray, float]:
        if k not in cache:
            cache[k] = spot_points(_mask_of(idx[k], spots, mask, table), plane, spots.boxes[idx[k]])
        return cache[k]

    pairs = candidate_pairs(spots.subset(small), skip[small], points)
    if pairs:
        # each pair's rank height along its v (the taller glyph of a "10"), all at once
        vs = np.array([p[4] for p in pairs])
        first = spots.extent(idx[[p[1][0] for p in pairs]], vs)
        second = spots.extent(idx[[p[1][-1] for p in pairs]], vs)
        rhs = np.where([len(p[1]) > 1 for p in pairs], np.maximum(first, second), first).tolist()
        shs = spots.extent(idx[[p[2] for p in pairs]], vs).tolist()
        for n, (_score, ids, s, _rc, v) in enumerate(pairs):
            if rhs[n] > RANK_H[1]:  # it passed measured from its pixels: placed so too
                rhs[n] = max(pixel_extent(points, k, v, rhs[n]) for k in ids)
                shs[n] = pixel_extent(points, s, v, shs[n])
        for (score, ids, s, rc, v), rh, sh in zip(pairs, rhs, shs, strict=True):
            top = rc - rh / 2 * v
            if sh > 1.3 * rh:  # a rank part: the rank's top where a whole rank's would be, if higher
                suit_top = spots.centres[idx[s]] - sh / 2 * v
                top = rc + min(float((top - rc) @ v), float((suit_top - rc) @ v) - 0.8 - 1.4 * sh) * v
            cands.append((score, tuple(int(idx[i]) for i in (*ids, s)), top, v))
    wide: set[int] = set()
    cands += merged_candidates(spots, skip, mask, plane, wide, table)
    if lone is not None and gray is not None:
        taken = np.zeros(len(spots.centres), bool)
        for c in cands:
            taken[list(c[1])] = True
        diag = spots.diag
        alone = ~skip & ~taken & (diag >= LONE_DIAG[0]) & (diag <= LONE_DIAG[1]) & (spots.labels < n_table)
        if alone.any():
            lone += [(top, v, spots.centres[k]) for k, top, v in lone_suit_candidates(spots, alone, gray, mask, plane)]
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
    # pairs with a spot where a tried corner's index lies, after all others but the wide spots
    late = [any(at_tried[i] for i in c[1]) for c in cands]
    # a wide spot run together (seldom an index, read only when sure) after every other
    # candidate, so that it does not use up the frame's MAX_TRIES before them
    is_wide = [len(c[1]) == 1 and c[1][0] in wide for c in cands]
    printed = in_print([c[2] for c in cands], sheets)
    on_table = [any(int(spots.labels[i]) >= n_table for i in c[1]) for c in cands]
    order = sorted(range(len(cands)), key=lambda k: (printed[k], is_wide[k], on_table[k], late[k]))
    cands, edge, late, is_wide, printed = ([x[k] for k in order] for x in (cands, edge, late, is_wide, printed))
    out: list[PairReading] = []
    used = skip.copy()
    failed: list[tuple[np.ndarray, np.ndarray]] = []  # (top, v) of patches declined
    # the patches the tried corners read, as (top, v): a pair placing one of them again is not
    # read (made only when some pair lies at a tried corner's index: most frames have none)
    tried_patches = (
        [(c.point + PATCH_TOP_MARGIN * b + PATCH_RANK_U * a, b) for c in corners for a, b in ((c.d1, c.d2), (c.d2, c.d1))]
        if any(late)
        else []
    )
    blind = 0
    for (_score, ids, top, v), edged, at_corner, wide_spot, in_text in zip(cands, edge, late, is_wide, printed, strict=True):
        if len(failed) + len(out) >= max_tries:
            note((top, v, ids, "cap"))
            continue
        if any(used[i] for i in ids):
            note((top, v, ids, "used"))
            continue
        # the same patch (the same glyphs the same way up: a "10" as one
        # glyph or two, a pair or run together) reads no better a second time
        if any(np.linalg.norm(top - f_top) < REPEAT_MM and float(v @ f_v) > REPEAT_COS for f_top, f_v in failed + (tried_patches if at_corner else [])):
            note((top, v, ids, "repeat"))
            continue
        if not edged:
            if blind >= MAX_BLIND_TRIES:
                note((top, v, ids, "no_edge"))
                continue
            blind += 1
        r, corner, u, patch = read_placed(frame, plane, top, v, refs, glyphs_of, read_at)
        # a sealed spot's glyphs touch the card's edge or something on it: surer readings only.
        # A 6 or 9 with no card end seen is read too: upside down each is the other, but the
        # readers tell an upside-down patch (session 32, 1080p seeds 0-299: 22 such reads,
        # none wrong, 5 cards more found; until then they were declined)
        least = SEALED_CONFIDENCE if any(int(spots.labels[i]) >= n_own for i in ids) else MIN_CONFIDENCE
        if at_corner:
            least = max(least, TRIED_CORNER_CONFIDENCE)
        if wide_spot:
            least = max(least, WIDE_MERGED_CONFIDENCE)
        ok = r is not None and r.confidence >= least
        fate = "declined"
        if ok:
            ok = rank_where_placed(r)
            fate = "misplaced"
        if not ok:
            note((top, v, ids, fate))
            failed.append((top, v))
            if fate == "declined" and declined is not None and not in_text:
                declined.append((corner, u, v, patch))
            continue
        note((top, v, ids, "read"))
        for i in ids:
            used[i] = True
        out.append(PairReading(card_corner(corner, u, v, r.rank_box), u, v, r))
        # spots of the index just read (e.g. the second glyph of a "10")
        used |= _known(spots.centres, index_boxes([(corner, u, v, r)]), np.zeros((0, 2)), 0)
    return out


def read_placed(frame, plane: Plane, top: np.ndarray, v: np.ndarray, refs, glyphs_of=None, read_at=None):
    """The patch placed from a rank's top and the rank -> suit direction
    ``v``, read: (reading or None, patch corner, u, patch).  ``read_at``: as
    :func:`find_index_pairs` takes it."""
    u = np.array([v[1], -v[0]])
    corner = top - PATCH_TOP_MARGIN * v - PATCH_RANK_U * u
    if read_at is None:
        patch = sample_patch(frame, plane, corner, u, v)
        return read_patch(patch, refs, glyphs_of), corner, u, patch
    r, patch = read_at(corner, u, v)
    return r, corner, u, patch


def rank_where_placed(r: IndexReading) -> bool:
    """Whether the reader read the rank where the patch was placed for it, not some other glyph."""
    x, y, w, h = r.rank_box
    return abs((x + w / 2) / PATCH_PPM - PATCH_RANK_U) <= MAX_SHIFT and abs(y / PATCH_PPM - PATCH_TOP_MARGIN) <= MAX_SHIFT


def read_lone_suits(
    frame, plane: Plane, lone: list, outlines=(), anchors=(), refs: References | None = None, glyphs_of=None, read_at=None, max_tries: int = MAX_LONE_TRIES
) -> list[PairReading]:
    """The indices of :func:`find_index_pairs`' ``lone`` suits, read once
    every other step has: those whose suit or rank lies where a card found
    (``outlines``, ``anchors``, as find_index_pairs takes them) has an
    index are not tried (a faint rank is a weaker guess at the card's axis
    than a pair, and read first it took three cards that later steps read
    right, as the other black suit, over 720p scenes 0-999), and only
    ``max_tries`` patches are read, each counting at ``LONE_CONFIDENCE``."""
    places = index_places(outlines, anchors)
    out: list[PairReading] = []
    tries = 0
    for top, v, suit in lone:
        if tries >= max_tries:
            break
        glyphs = np.array([suit, top + 2.5 * v])
        if len(places) and float(np.linalg.norm(places[None] - glyphs[:, None], axis=2).min()) < 5.0:
            continue
        tries += 1
        r, corner, u, _patch = read_placed(frame, plane, top, v, refs, glyphs_of, read_at)
        if r is None or r.confidence < LONE_CONFIDENCE or not rank_where_placed(r):
            continue
        out.append(PairReading(card_corner(corner, u, v, r.rank_box), u, v, r))
        places = np.vstack([places, out[-1].anchor[None]])
    return out
