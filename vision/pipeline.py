"""The per-frame pipeline: frame -> :class:`FrameResult`.

Steps: mat calibration (periodic), a reduced work copy, table colour, paper
regions, their right-angled corners, corner-index reading, grouping of index
readings into cards, backs and unreadable cards, ArUco markers where no index
was read, and the stacking relation between everything found."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

import cv2
import numpy as np
from threadpoolctl import ThreadpoolController

from . import geometry as g
from . import glyph_model, near_pip, patch_model, pip_check, pips, read_memory, stagger
from .backs import face_margins, find_backs
from .card_scale import card_scale
from .cards import (
    Corner,
    Plane,
    background_colour,
    card_outline,
    clear_mask,
    find_blobs,
    find_corners,
    find_notched_corners,
    find_quads,
    inside,
    mirrored,
    overlap_area,
    paper_mask_in,
    paper_tiles,
    quarter,
    rect_outline,
    sample_patch,
    split_on_edges_in,
    table_share_fn,
)
from .corner_index import (
    PATCH_H,
    PATCH_PPM,
    PATCH_W,
    Evidence,
    Glyphs,
    IndexReading,
    References,
    builtin_references,
    cut_glyphs,
    evidence,
    extract_glyphs,
    read_patch,
    taught_shape_disagrees,
    whole_probs,
)
from .edge_corners import MAX_RANK_TOP_MM, NOTCHED_MIN_PX_PER_MM, find_edge_corners, light_neutral_table
from .fusion import FUSION, FusionThresholds, Look, card_centre, card_groups, fuse
from .glyphs import NUMBER_RANKS, RED_SUITS
from .index_check import shows_index_of
from .index_pairs import (
    MAX_TRIES,
    MIN_CONFIDENCE,
    PATCH_RANK_U,
    PATCH_TOP_MARGIN,
    SEALED_CONFIDENCE,
    SEARCH_TRIES,
    find_index_pairs,
    read_card_index_spots,
    read_lone_suits,
)
from .index_pairs import card_corner as pair_card_corner
from .laid_out import cards_laid_apart
from .markers import DICTIONARY, MAT_IDS, ShortlistDetector, back_meaning, detect_markers, make_detector, marker_range
from .mat import Calibration, MatTracker
from .read_memory import ReadMemory
from .results import FrameResult, Sighting
from .ringed_backs import find_ringed_backs
from .unread import UnreadLook, anchor, glyph_centre, index_anchor, inside_any, pair_looks, suit_shaped, unread_cards
from .white_balance import Balance
from .white_balance import estimate as estimate_balance

CARD_AREA = g.CARD_W * g.CARD_H
CARD_DIAGONAL = float(np.hypot(g.CARD_W, g.CARD_H))
#: work copy resolution over the mat.  Coarser copies were tried for 1080p
#: (1.6-1.9 px/mm: half the pixels): as many cards found over 90 scenes, but
#: a staggered stack lost its middle cards (tests/test_vision_pipeline.py)
WORK_PX_PER_MM = 2.2
#: a corner read this surely is not read again with its edges swapped (on
#: generated scenes the two assignments never both read)
SURE_READ = 0.6
#: an outer paper corner this near a card's outline corner is that corner, seen
CORNER_MATCH_MM = 4.0
#: cosine between a found corner's edge and a card's edge for them to be one edge
ALONG = 0.995
#: grey levels a 16x16 block may change by and the frame still count as unchanged
STATIC_LEVELS = 6
#: a corner whose index is larger than the reader's patch is read again from
#: a patch covering this many times its width and height (the glyphs shrink)
ZOOM = 1.6
#: and confirmed from a patch covering this many times as much
ZOOM_CHECK = 1.6
#: on a light neutral table without a mat, a pixel at least this share of the table's
#: brightness is paper or table, never ink, to the edge-free finder (light_table_holes)
LIGHT_TABLE_INK = 0.8
#: mm a notched corner's confirming patch is moved in along both edges
NOTCH_CHECK = 0.6
#: a stacked index read from an ink spot (not a paper corner) at less than this confidence
#: must read the same from a patch moved NOTCH_CHECK in (1080p bench scenes: 29 -> 22 misreads)
SIBLING_SURE = 0.93
#: reads a frame makes at most at stacked indices' rank spots, and at spots of a rank and suit run together
SIBLING_TRIES = 40
MERGED_SIBLING_TRIES = 10
#: a merged spot's extents may be as small as this share of the read index's rank and suit together
MERGED_SIBLING_SHRINK = 0.55
#: ... and lies within this many mm (plus MERGED_LINE_SLOPE of its distance) of a line
#: along the read card's edges through its index
MERGED_LINE_MM = 4.0
MERGED_LINE_SLOPE = 0.15
#: mm down from a card's top edge the layout beside its index is looked at (vision.near_pip.contradicts_rank)
LAYOUT_DEPTH = 40.0
#: the share of a card's face (pips.face_cover, not cut short) that must lie on its paper
#: for the end-of-frame face check (_faces_agree).  Reading a number card by its pips asks
#: for nearly all of it (pips.PIPS.cover, 0.97); a check that only ever turns a reading
#: unknown, and only where the pips pass every test of vision.pips (a count's whole
#: layout, centred and symmetric), may look past a finger over a corner: at 0.97 a 5 of
#: diamonds read as a 6 under a fingertip (720p scene 487, 0.92 of its face on its paper)
#: was never checked.  0.85 and 0.7 gave the same 1000 720p scenes, but at 0.7 1080p scenes
#: 815 and 983 lost a right reading each (a hand or a back over the face hides pips)
FACE_CHECK_COVER = 0.85
#: the confidence of a reading whose suit its pips named (as vision.pips' readings: 0.55 of the pooled share at most)
PIP_SUIT_CONFIDENCE = 0.55
#: frame px per mm from which every declined corner is also read zoomed out,
#: not only one whose ink looks too large for the patch (oversized_index): at
#: this resolution a patch covering ZOOM times as much still samples the
#: frame at 2.5 px/mm or finer, and a jumbo index that the size test passes
#: over (a rank 12-15 mm tall that is narrow, a suit cut off at the patch's
#: foot) is read whole.  720p and 1080p frames over the mat (1-3 px/mm)
#: never reach it; phone photos (5-15 px/mm) do.
ZOOM_ALL_PPM = 4.0
#: a declined corner whose card's centre lies this near a card read at a corner
#: is that card's (a bare corner) and is not pooled (vision.fusion)
READ_CARD_MM = 10.0
#: an unknown card from declined index corners (vision.unread): below any reading
UNREAD_CONFIDENCE = 0.3
#: a declined paper corner this close to the frame's edge (px) is where the view
#: ends, not a card's corner: no unknown card is reported from it (a page of
#: print filling the frame gave one at each of the frame's corners)
FRAME_EDGE_PX = 3.0
#: without a mat, the longer side of the work copy (px) until the cards' scale is known
NO_MAT_WORK_SIDE = 1280.0
#: and once it is, the work copy is made finer to put this many px per mm on the cards,
#: up to NO_MAT_MAX_WORK_SIDE (a phone photo whose cards are small in it; 1080p video
#: without a mat).  Third-party decks' photos (bench.vision_decks_photo --scenes 3, 615
#: cards) found 438 at the 1280 px copy, 466 at 2.2 px/mm (the mat's), 493 at 3.0, misreads
#: 3, 2, 2; a 1080p frame is worked whole from 2.2 on
NO_MAT_WORK_PX_PER_MM = 3.0
NO_MAT_MAX_WORK_SIDE = 2560.0
#: finer only by more than this factor (a copy made again costs its resize and paper mask)
NO_MAT_FINER = 1.15
#: a paper blob narrower than this (work px) is no card lying whole: on a white table the
#: cloth's noise next to the threshold leaves specks, and a clump of them 25x30 px is as
#: rectangular as a card (kde/standard on white, photo seed 1001: its scale taken as 1.1
#: frame px/mm, against 5, and no card read).  The first no-mat copy has a 1280 px side,
#: where a card a thirtieth of a 12 MP photo's width is still 42 px wide
MIN_WHOLE_CARD_PX = 40.0
#: without a mat or a card lying whole, the guess of what the frame's longer side spans (mm)
GUESSED_SPAN_MM = 700.0
#: and the frame is also read as spanning 1/k of that (about 350 and 175 mm: close-up photos)
CLOSER = (2.0, 4.0)
#: and as spanning 1/k of it where that is more: about 930 mm, a camera higher over a table
FARTHER = (0.75,)
#: frames between two such searches while none finds a card
SCALE_SEARCH_EVERY = 30
#: an unread paper region (an unknown card) is at most this many cards' lengths long
UNREAD_MAX_LENGTH = 1.25
#: a paper region this many cards large with no card found on it is a sheet of
#: paper (an A5 score pad is 5.6 cards, an A4 page 11), whose corners are no card's
SHEET_CARDS = 5.0
#: and fills this share of its bounding rectangle (a pile of 11 cards 5 cards large: 0.59,
#: 720p seed 160; a page partly out of view or under a hand: 0.46-0.99)
SHEET_RECTANGULARITY = 0.75
#: or this many cards large, filling this share of its bounding rectangle
SQUARE_SHEET_CARDS = 2.5
SQUARE_SHEET_RECTANGULARITY = 0.9
#: regions this close (mm) are pieces of one sheet cut by its ruled lines when together
#: they are a sheet's shape (pipeline._ruled_pieces); pieces smaller than this many cards are not
SHEET_PIECE_GAP_MM = 3.0
SHEET_PIECE_CARDS = 0.2
#: a blob lying whole as a card does that says a scale this many times the one
#: kept, or less by as much, is not a card: a sheet of A5 paper says 2.36 times
#: a card's, A4 3.4; two cards 45 degrees of tilt apart in depth, up to 1.5
#: (1.25 took 1080p scene 5050's scale from its far card alone: 10 -> 9 found)
WHOLE_SCALE_AGREE = 1.8


class _GlyphCache:
    """Glyphs cut from each patch once (:func:`vision.corner_index.cut_glyphs`),
    for one frame: the patch is kept with its glyphs, so its id stays its own."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[np.ndarray, tuple[Glyphs | None, bool]]] = {}

    def __call__(self, patch: np.ndarray) -> Glyphs | None:
        return self.cut(patch)[0]

    def cut(self, patch: np.ndarray) -> tuple[Glyphs | None, bool]:
        """cut_glyphs' answer for ``patch`` (read_patch asks for it so)."""
        hit = self._seen.get(id(patch))
        if hit is None or hit[0] is not patch:
            hit = self._seen[id(patch)] = (patch, cut_glyphs(patch))
        return hit[1]

    def known(self, patch: np.ndarray) -> tuple[Glyphs | None, bool] | None:
        """:meth:`cut`'s answer if ``patch`` was cut already, else None."""
        hit = self._seen.get(id(patch))
        return hit[1] if hit is not None and hit[0] is patch else None

    def prime(self, patch: np.ndarray, cut: tuple[Glyphs | None, bool] | None) -> None:
        """Take ``cut`` as :meth:`cut`'s answer for ``patch`` (a patch of an
        earlier frame, whose outcome is kept: vision.read_memory)."""
        if cut is not None:
            self._seen[id(patch)] = (patch, cut)


@dataclass
class _Found:
    kind: str
    outline: np.ndarray  # plane mm
    anchors: list[np.ndarray]  # plane mm
    confidence: float
    rank: str | None = None
    suit: str | None = None
    marker_id: int | None = None
    back: str | None = None
    marker_mm: float = 0.0  # summed side of the markers read for it (plane mm): how much ink backs its id


#: below this many frame pixels per plane mm a card read as a spade and as a club is one card
#: (_one_card_spade_and_club): the 720p benchmark's cards lie at 1.0-1.8 px/mm, its suit
#: glyphs 5-9 px tall, and most of its misreads are spades and clubs confused; 2.0, not 1.8,
#: because without a mat the frame's scale is an estimate, often too large (docs/vision.md)
SPADE_CLUB_PX_PER_MM = 2.0
#: two readings this close (plane mm) were read at one index place
SAME_PLACE_MM = 4.0
#: the indices of two cards laid almost square on each other lie at most about this far apart (plane mm)
SQUARE_STACK_MM = 20.0

#: a detected marker of at least this side (plane mm) is a card's centre marker, a smaller one a corner marker
CENTRE_MARKER_MIN = (g.PRINTED_CENTRE_MARKER + g.PRINTED_CORNER_MARKER) / 2
#: two printed-card outlines sharing at least this share of a card are one card: the lower of two cards
#: overlapping that much shows no whole marker (a corner marker lies 4-18 mm in from the edges)
SAME_PRINTED_CARD = 0.6


#: an unread paper region is a face only if its paper is at least this share
#: as bright as the frame's paper (unread faces on 100 scenes: 0.81-1.04;
#: grey sleeves cut off at the mat's edge: 0.42-0.65)
UNREAD_FACE_WHITE = 0.75


def _grey_level(gray: np.ndarray, mask: np.ndarray) -> float:
    """The 90th percentile of ``gray`` where ``mask`` is set (0 if nowhere)."""
    cum = np.cumsum(cv2.calcHist([gray], [0], mask, [256], [0, 256]).ravel())
    return float(np.searchsorted(cum, 0.9 * cum[-1])) if cum[-1] > 0 else 0.0


def _region_level(gray: np.ndarray, contour: np.ndarray) -> float:
    """:func:`_grey_level` inside a region's outline (work pixels)."""
    c = contour.reshape(-1, 1, 2).astype(np.int32)
    x, y, w, h = cv2.boundingRect(c)
    x0, y0 = max(x, 0), max(y, 0)
    m = np.zeros((max(min(y + h, gray.shape[0]) - y0, 0), max(min(x + w, gray.shape[1]) - x0, 0)), np.uint8)
    if m.size == 0:
        return 0.0
    cv2.fillPoly(m, [c - (x0, y0)], 255)
    return _grey_level(np.ascontiguousarray(gray[y0 : y0 + m.shape[0], x0 : x0 + m.shape[1]]), m)


def _touches_border(contour: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a region's outline (work pixels) reaches the frame's edge."""
    h, w = shape[:2]
    x, y = contour[:, 0], contour[:, 1]
    return bool(x.min() <= 1 or y.min() <= 1 or x.max() >= w - 2 or y.max() >= h - 2)


#: how far from its corner a corner's patches may reach (plane mm along each
#: edge: the index box's length, zoomed, and the notched corner's second look)
CORNER_REACH_MM = ZOOM * g.INDEX_BOX_H + 2 * NOTCH_CHECK


#: lamp casts whose gains differ by at most this share read alike (about 2 grey levels on paper)
SAME_CAST = 0.01


def _same_cast(a: Balance | None, b: Balance | None) -> bool:
    """Whether outcomes read under cast ``a`` hold under ``b``."""
    if a is None or b is None:
        return a is b
    return all(abs(x - y) <= SAME_CAST * max(abs(y), 1e-9) for x, y in zip(a.gains, b.gains, strict=True))


def _look(plane: Plane, point: np.ndarray, a: np.ndarray, b: np.ndarray, reach_a: float, reach_b: float, kind: tuple) -> read_memory.Look:
    """A read at ``point`` along plane vectors ``a`` and ``b`` whose patches
    cover ``reach_a`` and ``reach_b`` of them, in frame pixels
    (:class:`vision.read_memory.Look`)."""
    # the point, a step along each vector, and the far corners of the patches' reach: one transform
    pts = plane.to_frame(point + np.array([0 * a, a, b, reach_a * a, reach_b * b, reach_a * a + reach_b * b])).astype(np.float64)
    p = pts[0]
    steps = pts[1:3] - p
    scale = np.sqrt((steps * steps).sum(axis=1))
    dirs = steps / np.maximum(scale, 1e-9)[:, None]
    (x0, y0), (x1, y1) = pts[[0, 3, 4, 5]].min(axis=0) - 2, pts[[0, 3, 4, 5]].max(axis=0) + 2
    return read_memory.Look(p, dirs, scale, (float(x0), float(y0), float(x1), float(y1)), kind)


class VisionPipeline:
    """Turns frames into sightings.  Keeps the mat calibration and the card
    scale between frames, so use one pipeline per camera.

    ``use_mat``: look for the playmat.  ``references``: extra glyph references
    (a taught deck, :func:`vision.teach.load_deck`).  ``full_marker_scan``:
    look for printed-card markers in the whole frame (stills) instead of only
    where paper was found without an index (video, faster).  ``mat_every``:
    frames between mat re-checks.  ``reuse_static``: when a frame is the same
    as the last one processed in full (no 16x16 block changed by more than a
    few grey levels: camera noise, not a hand or a moved card), reuse that
    result instead of processing it again; a still table then costs about a
    millisecond a frame.  In a frame that did change, an index place where
    no block changed keeps its last outcome (:mod:`vision.read_memory`).
    ``fusion``: what a card read from several declined index corners
    together must reach (:mod:`vision.fusion`), None to read every corner
    alone.  ``balance``: take a lamp's colour out of the frame
    first (:mod:`vision.white_balance`), looked at every ``mat_every``
    frames.  ``blas_threads``: numpy's BLAS threads while a frame is
    processed (None: as they are; see :meth:`process`).  ``edge_corners``:
    without a mat, read card corners found from edge segments too
    (:mod:`vision.edge_corners`; off only to measure what they add)."""

    def __init__(
        self,
        *,
        use_mat: bool = True,
        references: References | None = None,
        full_marker_scan: bool = False,
        mat_every: int = 15,
        reuse_static: bool = True,
        fusion: FusionThresholds | None = FUSION,
        balance: bool = True,
        blas_threads: int | None = 1,
        edge_corners: bool = True,
    ) -> None:
        self.use_mat = use_mat
        self.edge_corners = edge_corners
        self.blas_threads = blas_threads
        self.balance = balance
        self._cast: Balance | None = None  # the lamp's colour taken out of every frame
        self._next_balance = 0
        self.fusion = fusion
        self.reuse_static = reuse_static
        self._last: tuple[np.ndarray, FrameResult] | None = None  # thumbnail and result of the last frame processed in full
        # outcomes of index places (and pip checks) read in earlier frames, kept while the table under them does not change
        self._memory = ReadMemory(STATIC_LEVELS) if reuse_static else None
        self._memory_cast: Balance | None = None  # the lamp cast the kept outcomes were read under
        self.refs = builtin_references() if references is None else builtin_references().extend(references)
        self.full_marker_scan = full_marker_scan
        # the whole-frame search (stills, marked backs) is OpenCV's own: on a
        # whole frame, finding the candidate quads in Python costs more than
        # the short list saves (measured 35-63 ms against 23-40 ms at 720p)
        self.detector = make_detector()
        self.detector_thorough = cv2.aruco.ArucoDetector(DICTIONARY, _thorough_params())  # unread regions' second look
        self._roi_detectors: dict[float, ShortlistDetector] = {}  # crop detectors by smallest outline rate
        self.mat = MatTracker(every=mat_every, detector=_mat_detector())
        self._scale: float | None = None  # frame px per pseudo-mm without a mat
        self._next_scale_search = 0  # frame count from which a scale may be searched again
        # the kept scale came from blobs lying whole as a card does (their outlines, frame px) and
        # no card has been found on them yet: an A4 or A5 sheet (a page of rules, a score pad)
        # is as long for its width as a card
        self._whole_unconfirmed: list[np.ndarray] = []
        self._count = 0
        self._blas = ThreadpoolController()  # the BLAS libraries numpy loaded (vision imported it)

    # -- geometry --------------------------------------------------------------

    def _plane(self, frame_shape, calibration, work_f: float) -> Plane:
        if calibration is not None:
            S = np.diag([1 / work_f, 1 / work_f, 1.0])
            return Plane(calibration.to_mat @ S, calibration.to_image, True)
        s = self._scale * work_f if self._scale else guessed_scale(frame_shape, work_f)
        return Plane(np.diag([1 / s, 1 / s, 1.0]), np.diag([s / work_f, s / work_f, 1.0]), False)

    @staticmethod
    def _estimate_scale(blobs) -> tuple[float | None, list[np.ndarray]]:
        """Work px per mm from paper blobs that look like one whole card and
        are large enough to be one (:data:`MIN_WHOLE_CARD_PX`), and their
        outlines (work px).  Blobs that disagree (by more than
        :data:`WHOLE_SCALE_AGREE`) are not averaged: the most that agree
        win, the smaller scale on a tie (an A4 page of rules beside a card
        lying whole is as long for its width as the card, and larger)."""
        est, whole = [], []
        for b in blobs:
            (w, h) = sorted(b.rect[1])
            if h <= 0 or b.rectangularity < 0.88 or w < MIN_WHOLE_CARD_PX:
                continue
            if 0.62 < w / h < 0.82:
                est.append((w / g.CARD_W + h / g.CARD_H) / 2)
                whole.append(cv2.boxPoints(b.rect))
        if not est:
            return None, []
        e = np.array(est)
        agree = [np.abs(np.log(e / x)) <= math.log(WHOLE_SCALE_AGREE) for x in est]
        best = max(range(len(est)), key=lambda k: (int(agree[k].sum()), -est[k]))
        return float(np.median(e[agree[best]])), [w for w, a in zip(whole, agree[best], strict=True) if a]

    # -- the frame -------------------------------------------------------------

    def _prepare(self, frame: np.ndarray, base: _FrameBase | None = None):
        """Calibration, work copy, table colour, paper mask, plane and paper
        blobs.  ``base``: the frame's own part of that (everything but the
        plane and the blobs in it), when it was worked out already."""
        base = base or self._frame_base(frame)
        gray, cal, f, small, work_gray, bg, mask, split = base
        plane = self._plane(frame.shape, cal, f)
        blobs = find_blobs(split, plane, min_area_mm2=0.1 * CARD_AREA)
        if cal is not None:
            blobs = [b for b in blobs if _on_mat(b)]
        return gray, cal, f, small, work_gray, bg, mask, plane, blobs

    def _frame_base(self, frame: np.ndarray) -> _FrameBase:
        """What :meth:`_prepare` works out that does not depend on the scale
        (and, without a mat, the scale's estimate from cards lying whole)."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return self._base_at(frame, gray, self.mat.update(gray) if self.use_mat else None)

    def _base_at(self, frame: np.ndarray, gray: np.ndarray, cal: Calibration | None) -> _FrameBase:
        """:meth:`_frame_base` once the mat was looked for (``gray``: the frame's
        grey copy; ``cal``: what the mat said): a frame read again finer keeps
        that look, as the mat tracker counts its frames."""
        h, w = frame.shape[:2]
        if cal is not None:
            f = min(1.0, WORK_PX_PER_MM / max(cal.px_per_mm(), 1e-6))
        else:
            f = self._no_mat_work_f(h, w)
        work, small, bg, boxes, mask = self._work_copy(frame, cal, f)
        if cal is None:
            # pseudo-mm: find card-shaped blobs in pixels first, then rescale
            est, whole = self._estimate_scale(find_blobs(mask, Plane(np.eye(3), np.diag([1 / f, 1 / f, 1.0]), False), min_area_mm2=200))
            whole = [w / f for w in whole]  # frame px
            if est is not None and self._scale is None:
                # the first frame (or a photo): its cards may lie small in a large frame, and a
                # finer copy reads their indices (rank and suit apart, not run together)
                finer = self._no_mat_work_f(h, w, est / f)
                if finer > NO_MAT_FINER * f:
                    work, small, bg, boxes, mask = self._work_copy(frame, cal, finer)
                    est, f = est * finer / f, finer
            if est is not None and self._scale is None:
                self._scale, self._whole_unconfirmed = est / f, whole
            elif est is not None and abs(math.log(est / f / self._scale)) <= math.log(WHOLE_SCALE_AGREE):
                self._scale = 0.7 * self._scale + 0.3 * est / f
        work_gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY) if work is not frame else gray
        split = split_on_edges_in(mask, work_gray, boxes)
        return _FrameBase(gray, cal, f, small, work_gray, bg, mask, split)

    def _no_mat_work_f(self, h: int, w: int, frame_scale: float | None = None) -> float:
        """The work copy's share of the frame without a mat: its longer side
        NO_MAT_WORK_SIDE px, or finer (up to NO_MAT_MAX_WORK_SIDE) where the
        cards' scale (``frame_scale`` or the one kept, frame px per mm) puts
        fewer than NO_MAT_WORK_PX_PER_MM on them.  Never coarser: a close-up's large
        indices read at the usual copy."""
        side = max(h, w)
        f = min(1.0, NO_MAT_WORK_SIDE / side)
        scale = frame_scale if frame_scale is not None else self._scale
        if scale is None:
            return f
        return max(f, min(1.0, NO_MAT_MAX_WORK_SIDE / side, NO_MAT_WORK_PX_PER_MM / max(scale, 1e-6)))

    @staticmethod
    def _work_copy(frame: np.ndarray, cal: Calibration | None, f: float):
        """The frame's work copy at share ``f``, its quarter copy, the table
        colour, the tiles that may hold paper and the paper mask."""
        # bilinear down to half size: OpenCV's area resize at a fractional scale costs 20-28 ms on
        # 1080p against ~4 (same accuracy on 180 1080p scenes); below half, bilinear would skip pixels
        work = cv2.resize(frame, None, fx=f, fy=f, interpolation=cv2.INTER_LINEAR if f > 0.5 else cv2.INTER_AREA) if f < 1 else frame
        small = quarter(work)
        bg = background_colour(small)
        # per-pixel work only where the quarter copy shows paper (on the mat, when there is one)
        boxes = paper_tiles(small, bg, _mat_region(cal, f / 4, small.shape) if cal is not None else None)
        return work, small, bg, boxes, paper_mask_in(work, bg, boxes)

    def corner_patches(self, frame: np.ndarray):
        """Every upright corner patch (both edge assignments) of every paper
        region: [(blob area, patch)], for teaching a deck."""
        _, _, _, _, _, bg, _, plane, blobs = self._prepare(frame)
        table_share = table_share_fn(frame, plane, bg)
        return [(blob.area, patch) for bi, blob in enumerate(blobs) for patch in _region_patches(frame, plane, bi, blob, table_share)]

    def card_corner_patches(self, frame: np.ndarray) -> list[tuple[np.ndarray, float, list[np.ndarray]]]:
        """:meth:`corner_patches` card by card, for teaching from a photo of
        cards laid apart: [(the card's middle and its paper's area in plane
        mm, mm^2, and its corner patches, zoomed out too for an index larger
        than the patch)] (without a mat, plane mm are the frame's pixels
        scaled, rows still rows).  Which paper regions make one card:
        :func:`vision.laid_out.cards_laid_apart`."""
        _, _, _, _, _, bg, mask, plane, _ = self._prepare(frame)
        # the paper not cut along edges: cards laid apart touch nothing, and the
        # frame line round a court card's picture would cut its border apart
        blobs = find_blobs(mask, plane, min_area_mm2=0.02 * CARD_AREA)
        table_share = table_share_fn(frame, plane, bg)
        return [
            (c.centre, c.area, [p for bi in c.regions for p in _region_patches(frame, plane, bi, blobs[bi], table_share, (1.0, ZOOM))])
            for c in cards_laid_apart(blobs)
        ]

    def process(self, frame: np.ndarray) -> FrameResult:
        """Everything seen in ``frame`` (BGR uint8).  A frame that is not a
        colour image of at least ``MIN_FRAME_SIDE`` pixels a side raises
        ValueError saying so (the OpenCV steps would fail on it deep inside,
        with a message about their own arguments)."""
        check_frame(frame)
        # The networks' products are small (a few hundred rows by a few dozen): OpenBLAS
        # splits them over every core anyway, and its threads spin waiting on a core
        # the camera thread and the server need.  One thread: a 12-card 720p frame
        # 361 -> 100 ms wall with the other core busy (bench/vision_blas.py).
        if self.blas_threads is None:
            return self._process_frame(frame)
        with self._blas.limit(limits=self.blas_threads, user_api="blas"):
            return self._process_frame(frame)

    def _process_frame(self, frame: np.ndarray) -> FrameResult:
        """:meth:`process` of a checked frame."""
        self._count += 1
        h, w = frame.shape[:2]
        thumb = None
        if self.reuse_static:
            thumb = cv2.resize(frame, (max(1, w // 16), max(1, h // 16)), interpolation=cv2.INTER_AREA)
            if self._last is not None and self._last[0].shape == thumb.shape:
                if int(cv2.absdiff(thumb, self._last[0]).max()) <= STATIC_LEVELS:
                    last = self._last[1]
                    return FrameResult(last.sightings, last.size, last.to_mat, self._count, last.clear, last.clear_scale)
        if self.balance:
            # the lamp changes seldom: looked at again with the mat, every mat_every frames
            if self._count >= self._next_balance:
                self._cast = estimate_balance(frame)
                self._next_balance = self._count + self.mat.every
            if self._cast is not None:
                frame = self._cast.apply(frame)
        if self._memory is not None:
            # outcomes read under another lamp cast are forgotten (the cast is looked at
            # again every mat_every frames; the same lamp gives gains a little apart)
            same = _same_cast(self._memory_cast, self._cast)
            self._memory.begin(thumb, (w, h), forget=not same)
            if not same:
                self._memory_cast = self._cast
        try:
            result = self._process_in_full(frame, h, w)
        finally:
            if self._memory is not None:
                self._memory.end()
        if thumb is not None:
            self._last = (thumb, result)
        return result

    def _process_in_full(self, frame: np.ndarray, h: int, w: int) -> FrameResult:
        """:meth:`process` of a frame that is not the last one again (``frame``
        with the lamp's cast taken out)."""
        base = self._frame_base(frame)
        # without a mat, pips are read only at a scale taken from cards lying whole:
        # the scale search compares counts of cards read, and a pip read tipped it
        result = self._process(frame, base, read_pips=base.cal is not None or self._scale is not None)
        if self._whole_unconfirmed and _found_on(result, self._whole_unconfirmed):
            self._whole_unconfirmed = []
        # a scale from blobs lying whole on none of which a card was found is searched for as if
        # there were none (a score pad beside a pile gave its scale, 2.3 times the cards')
        unsure = self._scale is None or bool(self._whole_unconfirmed)
        if not result.mat_seen and unsure and self._count >= self._next_scale_search:
            result = self._search_scale(frame, base, result)
            self._whole_unconfirmed = []  # the blobs' scale stood against the others, or lost
            if self._scale is not None:
                # the search read without pips (a pip read tipped its counts); at the scale it
                # chose they are read now, as every later frame reads them, not a frame late,
                # and finer where that scale says the cards lie small in the frame
                finer = self._no_mat_work_f(h, w) > NO_MAT_FINER * base.f
                result = self._process(frame, self._base_at(frame, base.gray, base.cal) if finer else base, read_pips=True)
        return result

    def _search_scale(self, frame: np.ndarray, base: _FrameBase, result: FrameResult) -> FrameResult:
        """Without a mat, millimetres come from a card lying whole; with none
        (a close-up of a staggered pile, a fan) the scale is a guess that the
        frame spans about 700 mm, and in a close-up photo every index is then
        sampled far too small to read.  So the frame is read again as if it
        spanned less (:data:`CLOSER`), or more (:data:`FARTHER`: a camera
        higher over the table, its cards sampled too large; not where blobs
        lying whole gave the scale: sheets of print then read as cards at
        it), and the reading that finds the most
        cards wins (the guess on a tie); its scale is kept for the frames that
        follow.  A video with no card to read searches again only every
        :data:`SCALE_SEARCH_EVERY` frames.  Only the plane and what is found in
        it are worked out again (``base`` is the frame's own part), except for
        the guess itself on a photo, which is read once more at the finer copy
        it asks for (the first reading was at the usual copy).  ``result``
        may have been read at the scale of blobs lying whole on which no
        card was found (a sheet of paper: ``_whole_unconfirmed``): that
        scale is then one candidate, the guess another."""
        self._next_scale_search = self._count + SCALE_SEARCH_EVERY
        guess = guessed_scale(frame.shape, 1.0)  # frame px per mm, as self._scale
        best, best_n, best_scale = result, _cards_read(result), self._scale
        from_blobs = best_scale is not None
        if from_blobs:
            # read at a blob's scale (a sheet of paper as a card lying whole): the guess is a
            # candidate too, kept as the scale if it wins (the blob would set its own again)
            self._scale = guess
            r = self._process(frame, base, read_pips=False)
            if _cards_read(r) > best_n:
                best, best_n, best_scale = r, _cards_read(r), guess
        h, w = frame.shape[:2]
        if self._no_mat_work_f(h, w, guess) > NO_MAT_FINER * base.f:
            # a photo's guess was read at the usual copy, where its indices lie small; read
            # at the copy the guess asks for, it is not outread by a scale twice too large
            # (whose patch still holds a large index's rank)
            self._scale = guess
            fine = self._process(frame, self._base_at(frame, base.gray, base.cal), read_pips=False)
            if _cards_read(fine) > best_n:
                best, best_n, best_scale = fine, _cards_read(fine), self._scale
        # the cards' own edges say how large they are (vision.card_scale): a
        # candidate that wins ties, as a wrong scale can read as many cards
        est = self._scale_from_corners(frame, base)
        if est is not None and abs(math.log(est)) >= math.log(1.1):
            self._scale = guess * est
            r = self._process(frame, base, read_pips=False)
            # it wins ties against the guess, not against blobs lying whole that read as many
            if _cards_read(r) > best_n or (_cards_read(r) == best_n and not from_blobs):
                best, best_n, best_scale = r, _cards_read(r), guess * est
        elif est is not None and best_scale in (None, guess):
            best_scale = guess * est
        for k in (CLOSER if from_blobs else FARTHER + CLOSER):
            self._scale = guess * k
            r = self._process(frame, base, read_pips=False)
            n = _cards_read(r)
            if n > best_n:
                best, best_n, best_scale = r, n, guess * k
        self._scale = best_scale
        return best

    def _scale_from_corners(self, frame: np.ndarray, base: _FrameBase) -> float | None:
        """Card sizes in the current plane's units per mm, from the corners
        of cards that do not lie whole (:func:`vision.card_scale.card_scale`),
        and on a light cloth from corners of the cards' edges too
        (:mod:`vision.edge_corners`: their paper may not be found at all)."""
        *_, plane, blobs = self._prepare(frame, base)
        corners = [c for bi, b in enumerate(blobs) for c in find_corners(bi, b, plane.metric)]
        if self.edge_corners and base.cal is None and light_neutral_table(base.bg):
            # on a light cloth the cards' edges show where their paper may not
            corners += find_edge_corners(base.work_gray, plane, [c.point for c in corners])
        return card_scale(corners)

    def _process(self, frame: np.ndarray, base: _FrameBase, read_pips: bool) -> FrameResult:
        """One reading of the frame at the current plane.  ``read_pips``:
        whether number cards are read or checked from their pips (vision.pips,
        vision.pip_check); off inside the scale search, whose candidates are
        compared by the count of cards read."""
        h, w = frame.shape[:2]
        gray, cal, f, small, work_gray, bg, mask, plane, blobs = self._prepare(frame, base)
        found: list[_Found] = []
        unread_blobs: list[int] = []
        all_reads: list = []
        all_corners: list[Corner] = []
        declined: list[tuple[Corner, np.ndarray, np.ndarray, np.ndarray]] = []  # corners no edge assignment read
        table_share = table_share_fn(frame, plane, bg)
        # glyphs cut from a patch once a frame: a declined patch's are wanted again by
        # fusion, the pip row and the unknown stage
        glyphs_of = _GlyphCache()
        per_blob = []
        refuted: list[tuple[np.ndarray, str, str]] = []  # readings the cards' own pips contradicted: place, rank, suit
        for bi, blob in enumerate(blobs):
            corners = find_corners(bi, blob, plane.metric)
            notched = find_notched_corners(bi, blob, plane.metric, corners, table_share)
            all_corners += corners
            readings = [self._read_corner(frame, plane, c, declined=declined, glyphs_of=glyphs_of) for c in corners]
            # a notched corner's looks pool too (bench.vision_decks: 2 cards more of 1138, no misread)
            readings += [self._read_corner(frame, plane, c, notched=True, declined=declined, glyphs_of=glyphs_of) for c in notched]
            per_blob.append((bi, blob, [r for r in readings if r is not None], notched))
        if read_pips:
            # every card read so far: a face check looks only where none of them lies (white
            # on white, a card over another is one paper region with it)
            read_cards = [(index_anchor(c.point, u, v), card_outline(c.point, u, v)) for *_, readings, _ in per_blob for c, _, u, v in readings]
            edges = [c.point for c in all_corners]
            for k, (bi, blob, readings, notched) in enumerate(per_blob):
                # a number card's reading its uncovered face's pips contradict (vision.pip_check;
                # 300 scenes: one misread of 41 dropped, that card then read right), or the
                # layout beside its index (vision.near_pip.contradicts_rank)
                wrong = [x for x in readings if self._pips_contradict_kept(frame, plane, blob, *x, others=read_cards, corners=edges)]
                refuted += [(index_anchor(c.point, u, v), r.rank, r.suit) for c, r, u, v in wrong]
                declined += [(c, u, v, sample_patch(frame, plane, c.point, u, v)) for c, _, u, v in wrong]
                per_blob[k] = (bi, blob, [x for x in readings if not any(x is y for y in wrong)], notched)
        # a notched corner declined does not keep the edge-free finder from its index (its
        # corner is extrapolated; a pair places the patch from the glyphs themselves)
        all_corners += [c for *_, readings, notched in per_blob for c, *_ in readings if any(c is n for n in notched)]
        per_blob = [(bi, blob, readings) for bi, blob, readings, _ in per_blob]
        # one card read as two of one colour at two of its corners: neither reading stands
        # (300 scenes: misreads 40 -> 37, right reads 1199 -> 1198; the corners pool in fusion)
        wrong = _conflicting([x for *_, readings in per_blob for x in readings])
        declined += [(c, u, v, sample_patch(frame, plane, c.point, u, v)) for c, _, u, v in wrong]
        for bi, blob, readings in per_blob:
            readings = [x for x in readings if not any(x is y for y in wrong)]
            whole = b_is_one_card(blob)
            for corner, reading, u, v in readings:
                outline = rect_outline(blob.rect) if whole else card_outline(corner.point, u, v)
                found.append(_Found("card", outline, [index_anchor(corner.point, u, v)], reading.confidence, reading.rank, reading.suit))
                all_reads.append((corner.point, u, v, reading))
            if not readings:
                unread_blobs.append(bi)
        # a card whose index corners were each declined: their evidence pooled (vision.fusion)
        for bi, x, read in self._fused(frame, plane, declined, blobs, all_reads, glyphs_of):
            found.append(x)
            all_reads.append(read)
            if bi in unread_blobs:
                unread_blobs.remove(bi)
        holes = self._holes(mask)
        # on a light table without a mat, ink the table's light encloses (not inside the scale
        # search, whose candidates are compared by the count of cards read)
        table_holes = light_table_holes(mask, work_gray, bg, holes) if cal is None and read_pips and light_neutral_table(bg) else None
        sibling_holes = holes if table_holes is None else tuple(np.concatenate((a, b)) for a, b in zip(holes, table_holes[:2], strict=True))
        found += self._sibling_indices(frame, sibling_holes, plane, all_reads, len(holes[0]))
        # indices with no card edge of their own: rank/suit ink pairs (vision.index_pairs)
        known = _finder_known(found)
        pair_declined: list = []
        corner_points = [c.point for c in all_corners]

        def pair_read(corner, u, v):
            return self._read_at(frame, plane, corner, u, v, glyphs_of)

        # a sheet of paper's print is tried after every other candidate (a page of rules took
        # the frame's tries from a staggered pile's cards: bench/vision_print.py)
        sheets = [blobs[bi].contour_plane for bi in _sheets(blobs, found)]
        pair_found: list[_Found] = []  # cards the finder read from an index alone: how much of each lies uncovered is unknown
        lone: list | None = [] if read_pips else None  # suits whose rank only a fainter look finds: read last
        for p in find_index_pairs(
            frame, plane, holes, mask, work_gray, all_reads, *known, all_corners, refs=self.refs, bg_tiles=bg, declined=pair_declined,
            glyphs_of=glyphs_of, read_at=pair_read, sheets=sheets, table_holes=table_holes, lone=lone,
            # the scale search's readings (no pips) are several a frame, and compare only counts
            max_tries=MAX_TRIES if read_pips else SEARCH_TRIES,
        ):
            card = _pair_card(frame, plane, p, found if read_pips else None, corner_points, mask)
            if card is None:
                refuted.append((p.anchor, p.reading.rank, p.reading.suit))
                continue
            found.append(card)
            pair_found.append(card)
        light = cal is None and light_neutral_table(bg)
        if self.edge_corners and (light or read_pips):
            # corners of the cards' edges: on a white table nearly as bright as the cards their
            # paper is hardly found, and on any table a face whose rim or index reaches its edge
            # leaves its paper corner notched; inside the scale search (no pips) only on a light table.
            # Off a light table, a frame without a mat at 2 px/mm or more looks everywhere (a phone
            # photo); any other frame only along its paper's outline (edge_corners.PAPER_BAND_MM)
            fine = cal is None and finest_px_per_mm(plane, frame.shape) >= NOTCHED_MIN_PX_PER_MM
            found += self._edge_corner_cards(
                frame, plane, work_gray, found, all_corners, glyphs_of, refuted,
                from_index=pair_found,
                layout_mask=mask if read_pips else None,
                min_px_per_mm=NOTCHED_MIN_PX_PER_MM if fine and not light else 0.0,
                unmirrored=not light,
                paper=None if light or fine else mask,
            )
        # readings the cards' own pips contradicted, read again by another route, go before
        # the pips are read: such a reading kept the pips of its card from being looked at
        found = _not_refuted(found, refuted)
        # number cards still unread whose face lies uncovered: their pips (vision.pips)
        for looks, face, evs in self._pip_faces(frame, plane, declined, blobs, found, glyphs_of) if read_pips else []:
            r = pips.decide(face, evs)
            if r is not None:
                c, u, v = looks[0]
                found.append(_Found("card", card_outline(c.point, u, v), [index_anchor(x.point, xu, xv) for x, xu, xv in looks], r.confidence, r.rank, r.suit))
        # number cards still unread whose first row of pips shows beside the index (vision.near_pip)
        found += self._near_pip_cards(frame, plane, declined, blobs, found, pair_declined, mask, glyphs_of) if read_pips else []
        # cards a staggered run's even steps place where no ink spot marked their index (vision.stagger);
        # after the pips: a card they read is not read again from a guessed place
        found += self._stagger_gaps(frame, plane, found, glyphs_of) if read_pips else []
        # suits whose rank the paper mask lost, where no step above found their card (vision.lone_suits)
        if lone:
            for p in read_lone_suits(frame, plane, lone, *_finder_known(found), refs=self.refs, glyphs_of=glyphs_of, read_at=pair_read):
                card = _pair_card(frame, plane, p, found, corner_points, mask)
                # not where the pips refuted the same reading: merged into its card, it would take it out with it
                found += _not_refuted([card], refuted) if card is not None else []
        found = _merge_same_card(found)
        found = _one_card_spade_and_club(found, plane)
        # printed cards and marked backs
        markers = self._markers(gray, frame, blobs, unread_blobs, plane, holes, f)
        marker_found = [m for m in (self._marker_sighting(mk, plane) for mk in markers) if m is not None]
        marker_found = _merge_markers(marker_found)
        # backs of any design, touching or partly under other cards (vision.backs);
        # before the unreadable paper blobs, as a back touching another card is one blob with it
        known = [x.outline for x in found + marker_found]
        covers = [x.outline for x in found if x.kind == "card"]
        allowed = _point_on_mat if cal is not None else (lambda _c: True)
        # the table colour is the mat's: away from its edge and printed frame
        region = inner = None
        if cal is not None:
            # inside the mat's printed frame (10 mm in), which would join every card into one region
            region, inner = _mat_region(cal, f / 4, small.shape, margin=-13.0), _mat_region(cal, f / 4, small.shape, margin=-25.0)
        # white-bordered backs, by their border: a card-sized ring of paper (their design may be
        # the table's own colour); first, as each one is placed from its own border, touching ones too
        for outline in find_ringed_backs(mask, plane, holes, frame):
            c = _centre(outline)
            if allowed(c) and not any(inside(c, k) for k in known):
                found.append(_Found("face_down", outline, [c], 0.55))
                known.append(outline)
        for bk in find_backs(frame, plane, f, mask, small, region, inner, known, covers, allowed):
            found.append(_Found("face_down", bk.outline, [_centre(bk.outline)], 0.55))
        taken = [x.outline for x in found if x.kind == "face_down"] + [m.outline for m in marker_found]
        white = None  # the frame's paper level, worked out for the first unread face
        # unreadable paper blobs: covered faces (or backs)
        for bi in unread_blobs:
            b = blobs[bi]
            if b.area < 0.35 * CARD_AREA or b.area > 1.6 * CARD_AREA or b.rectangularity < 0.8:
                continue
            if max(b.rect[1]) > UNREAD_MAX_LENGTH * g.CARD_H:
                continue  # longer than a card: a score pad's column between its ruled lines
            outline = rect_outline(b.rect)
            if any(inside(_centre(outline), t) for t in taken) or not allowed(_centre(outline)):
                continue  # known, or the mat's own marker in its white square
            # not paper inside, and no paper where a face keeps its index (a court card's picture)
            back = self._inner_paper(mask, plane, outline) < 0.5 and face_margins(mask, plane, outline) == 0
            if not back:
                # a grey sleeve is paper to the mask: it reaches in from beyond
                # the frame, or (cut off at the mat's edge) is far greyer than the cards
                if _touches_border(b.contour_work, mask.shape):
                    continue
                white = _grey_level(work_gray, mask) if white is None else white
                if _region_level(work_gray, b.contour_work) < UNREAD_FACE_WHITE * white:
                    continue
            if not back and not self.full_marker_scan:
                # an unread face may be a printed card whose marker the quick search missed
                more = [m for m in (self._marker_sighting(mk, plane) for mk in self._markers_on(gray, b, f)) if m is not None]
                if more:
                    marker_found = _merge_markers(marker_found + more)
                    continue
            kind = "face_down" if back else "unknown"
            found.append(_Found(kind, outline, [_centre(outline)], 0.6))
        # full-bleed backs and other card-shaped outlines
        for q in find_quads(work_gray, plane, CARD_AREA):
            c = _centre(q)
            if any(inside(c, x.outline) for x in found + marker_found) or not allowed(c):
                continue
            kind = "face_down" if self._inner_paper(mask, plane, q) < 0.3 else "unknown"
            if kind == "unknown":
                continue  # a face without a readable index is already a paper blob
            found.append(_Found(kind, q, [c], 0.55))
        # a marked back replaces the plain back it was found on
        for m in marker_found:
            found = [x for x in found if not (x.kind in ("face_down", "unknown") and inside(_centre(x.outline), m.outline))]
        found += marker_found
        found += self._unread(declined, found, plane, frame.shape, table_share, glyphs_of, pair_declined, _sheets(blobs, found))
        if cal is None and self.use_mat and self.mat.markers:
            # a mat marker seen alone calibrates nothing, and its white square with the marker
            # in it is no face-down or unread card either
            found = [x for x in found if x.kind not in ("face_down", "unknown") or not _on_marker(plane.to_frame(_centre(x.outline)[None])[0], self.mat.markers)]
        found = _not_refuted(found, refuted)
        found = _dedupe(found)
        overlapping = _overlapping(found)
        on_top = self._stack_evidence(frame, plane, found, overlapping, all_corners)
        # which lies on which does not change when a reading turns unknown (outlines and anchors stay)
        above = _above_sets(found, overlapping, on_top)
        if read_pips:
            found = _faces_agree(frame, plane, found, above, blobs, self._memory)
        sightings = self._finish(found, plane, cal is not None, overlapping, above)
        scale_clear = f / 4
        return FrameResult(
            sightings,
            (w, h),
            cal.to_mat if cal is not None else None,
            self._count,
            clear_mask(small, bg),
            scale_clear,
        )

    def _unread(
        self, declined, found: list[_Found], plane: Plane, shape, table_share, glyphs_of=extract_glyphs, pair_declined=(), sheets=frozenset()
    ) -> list[_Found]:
        """Cards whose index corners were declined and that nothing else
        found, as unknown sightings (:mod:`vision.unread`).  Glyphs are cut
        only at corners whose index lies in no card found; the whole-patch
        network is asked only where both edge assignments cut glyphs.
        ``pair_declined``: (patch corner, u, v, patch) of the patches the
        edge-free finder placed and the reader declined; ``sheets``: paper
        regions whose corners are no card's (:func:`_sheets`)."""
        known = [x.outline for x in found]
        ids: dict[int, int] = {}
        per_corner: dict[int, list] = {}
        h, w = shape[:2]
        for c, u, v, patch in declined:
            if c.blob in sheets:
                continue  # a score pad's heading by its corner is no index
            x, y = plane.to_frame(c.point[None])[0]
            if min(x, y, w - 1 - x, h - 1 - y) < FRAME_EDGE_PX:
                continue  # where paper meets the frame's edge the view ends: not a card's corner
            k = ids.setdefault(id(c), len(ids))
            look = Look(k, c.point, u, v)
            if inside_any(anchor(look), known):
                continue
            per_corner.setdefault(k, []).append((look, patch, glyphs_of(patch) is not None))
        looks = []
        for ways in per_corner.values():
            both = sum(ix for _, _, ix in ways) > 1 and patch_model.available()
            for look, patch, ix in ways:
                junk = float(whole_probs(patch)[0][-1]) if both and ix else 1.0
                looks.append(UnreadLook(look, ix, junk))
        # indices the edge-free finder placed from their ink and the reader declined
        # (a staggered card's index with no paper corner of its own): each patch is
        # one look (keyed below zero, apart from the paper corners), and the card may
        # lie either side of it
        for i, (corner, u, v, patch) in enumerate(pair_declined):
            gl = glyphs_of(patch)
            if gl is None or not suit_shaped(gl.suit_box):
                continue
            # judged where the reader cut the glyphs, not 5 and 8 mm in from the patch's corner
            # (where a generated index sits): that put a card's far index on its edge beside it
            at = glyph_centre(corner, u, v, gl.rank_box, gl.suit_box)
            # a pair whose rank lies on a card found is that card's ink (its pips, a printed
            # card's marker squares), even where the glyphs' middle falls just beside it
            rank = corner + PATCH_RANK_U * u + PATCH_TOP_MARGIN * v
            if not inside_any(at, known) and not inside_any(rank, known):
                # the card placed from its rank as a read pair's is, so that one index has one outline
                card = pair_card_corner(corner, u, v, gl.rank_box)
                looks += [UnreadLook(way, True) for way in pair_looks(-1 - i, card, u, v)]
        anchors = [a for x in found for a in x.anchors]

        def share_in_frame(points: np.ndarray) -> float:
            px = plane.to_frame(points)
            seen = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
            return table_share(points[seen]) if seen.sum() >= 10 else 1.0  # a card mostly out of view: no card

        # an unknown card vouches for no other (a score pad's column cut off as one)
        over = [x.outline for x in found if x.kind != "unknown"]
        unread = unread_cards(looks, known, anchors, share_in_frame, over=over)
        return [_Found("unknown", x.outline, list(x.anchors), UNREAD_CONFIDENCE) for x in unread]

    def _fused(self, frame, plane: Plane, declined, blobs, reads, glyphs_of=extract_glyphs) -> list[tuple[int, _Found, tuple]]:
        """Cards read from several declined index corners together
        (:mod:`vision.fusion`): [(blob index, the card, (corner, u, v, reading))].
        ``reads``: the corners read, as [(corner, u, v, reading)]."""
        if self.fusion is None:
            return []
        out = []
        for bi, looks, evs in self._fusion_groups(frame, plane, declined, blobs, reads, glyphs_of):
            r = fuse(evs, self.fusion)
            if r is None or (self.refs.taught and any(taught_shape_disagrees(self.refs, e.glyphs, r.rank) for e in evs)):
                continue  # a taught deck's own glyphs say otherwise (its B, an 8 to the networks)
            first = looks[0]
            outline = rect_outline(blobs[bi].rect) if b_is_one_card(blobs[bi]) else first.outline()
            anchors = [x.point + 5 * x.u + 8 * x.v for x in looks]
            gl = evs[0].glyphs
            reading = IndexReading(r.rank, r.suit, r.confidence, gl.rank_box, gl.suit_box)
            out.append((bi, _Found("card", outline, anchors, r.confidence, r.rank, r.suit), (first.point, first.u, first.v, reading)))
        return out

    def _fusion_groups(self, frame, plane: Plane, declined, blobs, reads=(), glyphs_of=extract_glyphs) -> list[tuple[int, list[Look], list[Evidence]]]:
        """The declined corners of one paper region whose card outlines
        coincide (:func:`vision.fusion.card_groups`), with the evidence of
        each one whose glyphs were cut: [(blob index, looks, evidence)], two
        looks or more.  Only corners that such a group holds have their
        evidence gathered (again: read_patch keeps none), so a frame with no
        such group pays for the grouping alone.  Corners of a card read
        already (its centre where a read corner puts one: the bare corners
        of a two-index card) are left out."""
        if len(declined) < 2 or not glyph_model.available():
            return []
        read_centres = np.array([card_centre(p, u, v) for p, u, v, _ in reads]).reshape(-1, 2)
        centres = np.array([card_centre(c.point, u, v) for c, u, v, _ in declined])
        keep = np.ones(len(declined), bool)
        if len(read_centres):
            keep = np.linalg.norm(centres[:, None, :] - read_centres[None, :, :], axis=2).min(axis=1) >= READ_CARD_MM
        by_blob: dict[int, list[int]] = {}
        for k in np.flatnonzero(keep).tolist():
            by_blob.setdefault(declined[k][0].blob, []).append(k)
        out = []
        for bi, ks in by_blob.items():
            corner_ids = list(dict.fromkeys(id(declined[k][0]) for k in ks))
            if len(corner_ids) < 2:
                continue
            looks = [Look(corner_ids.index(id(declined[k][0])), declined[k][0].point, declined[k][1], declined[k][2]) for k in ks]
            glyphs: dict[int, Glyphs | None] = {}
            seen: dict[int, Evidence] = {}
            for group in card_groups(looks, self.fusion.same_card_mm):
                cut = []
                for n, j in enumerate(group):
                    if len(cut) + len(group) - n < 2:
                        break  # too few looks left to make two with glyphs (cutting them is the cost)
                    if j not in glyphs:
                        glyphs[j] = glyphs_of(declined[ks[j]][3])
                    if glyphs[j] is not None:
                        cut.append(j)
                if len(cut) < 2:
                    continue
                for j in cut:
                    if j not in seen:
                        # the whole-patch network too: a second reader that fails differently
                        whole = whole_probs(declined[ks[j]][3]) if patch_model.available() else None
                        seen[j] = evidence(glyphs[j], self.refs, full=True, whole=whole)
                out.append((bi, [looks[j] for j in cut], [seen[j] for j in cut]))
        return out

    def _pip_faces(self, frame, plane: Plane, declined, blobs, found, glyphs_of=extract_glyphs) -> list[tuple[list, pips.PipFace, list[Evidence]]]:
        """Cards not found otherwise whose index corners were declined and
        whose face lies (almost) wholly on that corner's own paper region, so
        no other card or hand covers it: [(looks [(corner, u, v)], the face's
        pips, the evidence of each look whose glyphs were cut)].  Looks
        implying one card (diagonal corners) are one card; the index's
        evidence is gathered only for a face whose pips lie as a number
        card's (:func:`vision.pips.read_face` says no ``why``)."""
        if not declined or not glyph_model.available():
            return []
        taken = np.array([_centre(x.outline) for x in found if x.kind == "card"]).reshape(-1, 2)
        # a paper region smaller than the face it should hold whole holds none (most declined corners)
        least = 0.8 * CARD_AREA
        looks = [x for x in declined if blobs[x[0].blob].area >= least]
        if not looks:
            return []
        centres = np.array([card_centre(c.point, u, v) for c, u, v, _ in looks])
        if len(taken):
            near = np.linalg.norm(centres[:, None, :] - taken[None, :, :], axis=2).min(axis=1) < READ_CARD_MM
        else:
            near = np.zeros(len(looks), bool)
        groups: list[tuple[np.ndarray, list]] = []
        for (c, u, v, patch), ctr, skip in zip(looks, centres, near, strict=True):
            if skip:
                continue
            for gc, members in groups:
                if math.hypot(*(gc - ctr)) < FUSION.same_card_mm:
                    members.append((c, u, v, patch))
                    break
            else:
                groups.append((ctr, [(c, u, v, patch)]))
        out = []
        for _, members in groups:
            # the first look whose card lies on its paper region: looks at one card's corners place
            # it a little apart, and one from a corner on another card's paper may lie off it
            look = next((m for m in members if pips.face_cover(card_outline(m[0].point, m[1], m[2]), blobs[m[0].blob].contour_plane) >= pips.PIPS.cover), None)
            if look is None:
                continue
            c, u, v, _ = look
            face = pips.read_face(pips.sample_face(frame, plane, c.point, u, v))
            evs = []
            if not face.why:
                # the diagonal corner carries the index too (its own corner may not have been found)
                far = c.point + g.CARD_W * u + g.CARD_H * v
                patches = [m[3] for m in members]
                if all(float(np.linalg.norm(m[0].point - far)) > FUSION.same_card_mm for m in members):
                    patches.append(sample_patch(frame, plane, far, -u, -v))
                gls = [glyphs_of(p) for p in patches]
                evs = [evidence(gl, self.refs, full=True) for gl in gls if gl is not None]
            out.append(([(m[0], m[1], m[2]) for m in members], face, evs))
        return out

    def _near_pip_cards(self, frame, plane: Plane, declined, blobs, found, pair_declined=(), mask=None, glyphs_of=extract_glyphs) -> list[_Found]:
        """Cards not found otherwise whose declined index has a number rank
        (one the reader's rules accept, or one the row's layout names) and
        whose first row of pips lies uncovered beside it on the card's own
        paper (:mod:`vision.near_pip`): the pips give the suit.
        ``declined``: corners' declined looks (their paper is their blob's);
        ``pair_declined``: patches placed from ink pairs and declined
        (vision.index_pairs; the card's corner from the rank's place, its
        paper from the ``mask``)."""
        if not (declined or pair_declined) or not glyph_model.available():
            return []
        taken_at = np.array([_centre(x.outline) for x in found if x.kind == "card"]).reshape(-1, 2)

        def known(point, u, v) -> bool:
            ctr = card_centre(point, u, v)
            return bool(len(taken_at)) and bool((np.hypot(*(taken_at - ctr).T) < READ_CARD_MM).any())

        out: list[_Found] = []
        looks = [(c.point, u, v, patch, blobs[c.blob].contour_plane) for c, u, v, patch in declined]
        looks += [(pc, u, v, patch, None) for pc, u, v, patch in pair_declined]
        for point, u, v, patch, contour in looks:
            # a corner's card already found is known before any glyph is cut
            if contour is not None and known(point, u, v):
                continue
            gl = glyphs_of(patch)
            if gl is None or gl.red is None:
                continue
            if contour is None:
                # a pair's card corner comes from where its rank glyph was cut
                point = pair_card_corner(point, u, v, gl.rank_box)
                if known(point, u, v):
                    continue
            # the rank first (most looks are a corner's sideways one), cheaply
            if not near_pip.may_be_number(gl):
                continue
            ev = evidence(gl, self.refs, full=True)
            rank = near_pip.candidate_rank(ev)
            if rank is None:
                continue
            row = near_pip.sample_row(frame, plane, point, u, v, contour=contour, mask=mask if contour is None else None, rank=rank)
            if row.why:
                continue
            r = near_pip.decide(ev, row)
            if r is None:
                continue
            rank, suit, conf = r
            out.append(_Found("card", card_outline(point, u, v), [index_anchor(point, u, v)], conf, rank, suit))
            taken_at = np.vstack([taken_at, card_centre(point, u, v)])
        return out

    def _pips_contradict_kept(self, frame, plane: Plane, blob, c: Corner, reading: IndexReading, u: np.ndarray, v: np.ndarray, others=(), corners=()) -> bool:
        """:meth:`_pips_contradict`, or its answer for the same reading at the
        same corner in an earlier frame while no block under the card
        changed since (:mod:`vision.read_memory`) and as many cards read lie
        on it, and a corner shows on its face or not, as then."""
        memory = self._memory
        if memory is None or reading.rank not in NUMBER_RANKS:
            return self._pips_contradict(frame, plane, blob, c, reading, u, v, others, corners)
        over, edged = _cards_on(c.point, u, v, others, corners)
        look = _look(plane, c.point, u, v, g.CARD_W, g.CARD_H, ("pips", reading.rank, reading.suit, len(over), edged))
        hit = memory.recall(look)
        if hit is not None and hit[1] == (0, 1):
            return hit[0]
        wrong = self._pips_contradict(frame, plane, blob, c, reading, u, v, others, corners)
        memory.keep(look, wrong)
        return wrong

    @staticmethod
    def _pips_contradict(
        frame, plane: Plane, blob, c: Corner, reading: IndexReading, u: np.ndarray, v: np.ndarray, others=(), corners=()
    ) -> bool:
        """Whether the pips on the uncovered face of the number card read at
        corner ``c`` say the reading is wrong (vision.pip_check), or the
        layout beside its index does (vision.near_pip).  ``others``: (index
        place, outline) of every card read, ``corners``: every paper corner
        found (plane mm).  White on white, a card over another is one paper
        region with it, so the layout is looked at only where no card read
        on this one lies, and not at all where another card's corner shows
        on the part of the face it looks at."""
        if reading.rank not in NUMBER_RANKS:
            return False
        covered = pips.face_cover(card_outline(c.point, u, v), blob.contour_plane) < pips.PIPS.cover
        if not covered and pip_check.contradicts(pips.read_face(pips.sample_face(frame, plane, c.point, u, v)), reading.rank, reading.suit):
            return True
        # the first row of pips beside the index, where it shows (vision.near_pip): its layout
        # may rule the rank out; its suit a black suit (the reader's suit misreads at 720p are
        # all black, docs/vision.md), on an uncovered face too: the whole face's pooled suit
        # may be unsure where the row's is not (720p scene 63, a 7 of spades read as clubs)
        suit_too = reading.suit not in RED_SUITS
        row = near_pip.sample_row(frame, plane, c.point, u, v, contour=blob.contour_plane, rank=reading.rank, layout_only=not suit_too)
        if _layout_rules_out(frame, plane, c.point, u, v, reading.rank, others, corners, contour=blob.contour_plane, row=row):
            return True
        return suit_too and near_pip.contradicts(row, reading.rank, reading.suit)

    def _edge_corner_cards(
        self,
        frame,
        plane: Plane,
        work_gray,
        found: list[_Found],
        all_corners: list[Corner],
        glyphs_of,
        refuted: list,
        from_index=(),
        layout_mask=None,
        min_px_per_mm: float = 0.0,
        unmirrored: bool = False,
        paper=None,
    ) -> list[_Found]:
        """Cards read at corners found from edge segments (:mod:`vision.edge_corners`):
        on a table nearly as bright as the cards, whose paper the mask misses,
        and cards whose paper corner a rim or an index at the edge notches.
        With a ``layout_mask`` (the paper mask, when pips are read) a number
        reading is checked against the layout beside its index as a paper
        corner's is, and one ruled out goes to ``refuted`` (a guard, as
        :data:`vision.edge_corners.MAX_RANK_TOP_MM` is: neither changed a
        benchmark's totals; what stopped a misread is ``unmirrored``).  Corners where the frame
        gives fewer than ``min_px_per_mm`` are not read; ``unmirrored``: only
        in a face-up card's own index frame (:meth:`_read_corner`); with
        ``paper`` (the paper mask) only edges along its outline count
        (:func:`vision.edge_corners.find_edge_corners`).  A corner
        on a card read already is not read, but the cards in ``from_index``
        (the edge-free finder's, read from an index alone) do not count: the
        rest of such a card may lie under others, and its outline then covers
        the corners of the card over it (1080p, white table, scene 5: the 7 of
        hearts, 28 % uncovered, hid the king of hearts lying on it)."""
        others = [(a, x.outline) for x in found if x.kind == "card" for a in x.anchors]
        on_read = [x.outline for x in found if x.kind == "card" and not any(x is y for y in from_index)]
        known = [c.point for c in all_corners]
        out: list[_Found] = []
        for c in find_edge_corners(work_gray, plane, known, paper=paper):
            if any(inside(c.point + 2 * (c.d1 + c.d2), o) for o in on_read):
                continue  # on a card read already (its own edges, a court card's frame)
            if min_px_per_mm and frame_px_per_mm(plane, c.point) < min_px_per_mm:
                continue
            # a mirrored reading at an edge corner of a notched card is most often the next card's
            # index seen from a stagger's step (the 3 of clubs below the 10 of hearts, kde/penguins);
            # on a light table, where these corners find most cards, a four-index deck's mirrored
            # corners are read too (reading them unmirrored lost 1-2 cards a bench, no misread)
            r = self._read_corner(frame, plane, c, glyphs_of=glyphs_of, unmirrored=unmirrored)
            if r is None:
                continue
            _, reading, u, v = r
            if reading.rank_box[1] / PATCH_PPM > MAX_RANK_TOP_MM:
                continue  # another card's index further down the patch: no index of this corner's
            at = index_anchor(c.point, u, v)
            if (
                layout_mask is not None
                and reading.rank in NUMBER_RANKS
                and _layout_rules_out(frame, plane, c.point, u, v, reading.rank, others, known, mask=layout_mask)
            ):
                refuted.append((at, reading.rank, reading.suit))
                continue
            outline = card_outline(c.point, u, v)
            out.append(_Found("card", outline, [at], reading.confidence, reading.rank, reading.suit))
            others.append((at, outline))
            on_read.append(outline)
        return out

    def _read_corner(
        self, frame, plane: Plane, c: Corner, notched: bool = False, declined: list | None = None, glyphs_of=None, unmirrored: bool = False
    ) -> tuple[Corner, IndexReading, np.ndarray, np.ndarray] | None:
        """:meth:`_read_corner_anew`, or what the same corner read to in an
        earlier frame, where the table did not change round it since
        (:mod:`vision.read_memory`; ``reuse_static``)."""
        memory = self._memory
        if memory is None:
            best, declined_here = self._read_corner_anew(frame, plane, c, notched, glyphs_of, unmirrored)
        else:
            look = _look(plane, c.point, c.d1, c.d2, CORNER_REACH_MM, CORNER_REACH_MM, ("corner", notched, unmirrored))
            dirs = (c.d1, c.d2)
            hit = memory.recall(look)
            if hit is not None:
                (kept_best, kept_declined), ways = hit
                best = None if kept_best is None else (c, kept_best[0], dirs[ways[kept_best[1]]], dirs[1 - ways[kept_best[1]]])
                declined_here = [(dirs[ways[k]], dirs[1 - ways[k]], patch) for k, patch, _ in kept_declined]
                if glyphs_of is not None:  # their glyphs, for the stages that look at declined patches
                    for _, patch, cut in kept_declined:
                        glyphs_of.prime(patch, cut)
            else:
                best, declined_here = self._read_corner_anew(frame, plane, c, notched, glyphs_of, unmirrored)
                # directions kept as which edge they run along: 0 for d1, 1 for d2
                kept_best = None if best is None else (best[1], 0 if best[2] is c.d1 else 1)
                known = glyphs_of.known if glyphs_of is not None else lambda _: None
                memory.keep(look, (kept_best, [(0 if u is c.d1 else 1, patch, known(patch)) for u, _, patch in declined_here]))
        if best is None and declined is not None:
            declined += [(c, u, v, patch) for u, v, patch in declined_here]
        return best

    def _read_at(self, frame, plane: Plane, point: np.ndarray, u: np.ndarray, v: np.ndarray, glyphs_of=None) -> tuple[IndexReading | None, np.ndarray]:
        """read_patch of the patch at ``point`` along ``u``, ``v``, and the
        patch; or what the same patch read to in an earlier frame, where the
        table did not change under it since (:mod:`vision.read_memory`).
        Whichever step places it, a patch is read the same way."""
        memory = self._memory
        look = None
        if memory is not None:
            look = _look(plane, point, u, v, g.INDEX_BOX_W, g.INDEX_BOX_H, ("patch",))
            hit = memory.recall(look)
            if hit is not None and hit[1] == (0, 1):
                r, patch, cut = hit[0]
                if glyphs_of is not None:
                    glyphs_of.prime(patch, cut)
                return r, patch
        patch = sample_patch(frame, plane, point, u, v)
        r = read_patch(patch, self.refs, glyphs_of)
        if look is not None:
            memory.keep(look, (r, patch, glyphs_of.known(patch) if glyphs_of is not None else None))
        return r, patch

    def _read_corner_anew(
        self, frame, plane: Plane, c: Corner, notched: bool = False, glyphs_of=None, unmirrored: bool = False
    ) -> tuple[tuple[Corner, IndexReading, np.ndarray, np.ndarray] | None, list]:
        """The best reading at corner ``c`` of the two edge assignments (when an
        edge is longer than a card is wide, the other only if that one does not
        read), or None, and the ways that did not read.  A ``notched`` corner
        (extrapolated across ink, :func:`vision.cards.find_notched_corners`) and
        an index too large for the patch (read from a wider patch) are read a
        second time, placed a little differently, and count only when both
        readings agree: those patches are less sure than a paper corner's.
        The ways that did not read are [(u, v, patch)] (a corner that reads
        neither way gives them to :meth:`_fused`); ``glyphs_of``:
        the frame's glyph cache, which keeps those patches' glyphs.
        ``unmirrored``: only the edge assignment that a face-up card's own
        index corner has (its short edge turns into its long edge the way
        the plane's x axis turns into its y axis), not the mirrored one of a
        four-index deck's other corners."""
        options = [(c.d1, c.d2), (c.d2, c.d1)]
        if unmirrored:
            options = [(u, v) for u, v in options if not mirrored(u, v)]
        # an edge longer than a card is wide is its long edge, most often: that
        # assignment first, and the other only where it does not read (white on
        # white, a card's short edge runs on along the next card's into one edge
        # of their paper region)
        long_first = (c.len1 > 72) != (c.len2 > 72)
        if long_first and c.len1 > 72:
            options.reverse()
        best = None
        declined_here = []
        for u, v in options:
            if long_first and best is not None:
                break
            patch = sample_patch(frame, plane, c.point, u, v)
            r = read_patch(patch, self.refs, glyphs_of)
            if r is None:
                declined_here.append((u, v, patch))
            elif best is None or r.confidence > best[1].confidence:
                best = (c, r, u, v)
                if r.confidence >= SURE_READ:
                    break  # the other edge assignment turns the index sideways: it is not read as well
        big = []
        if best is None:
            every = frame_px_per_mm(plane, c.point) >= ZOOM_ALL_PPM
            big = [(u, v) for u, v, patch in declined_here if every or oversized_index(patch)]
        if best is not None and notched:
            _, r, u, v = best
            if not _agrees(r, read_patch(sample_patch(frame, plane, c.point + NOTCH_CHECK * (u + v), u, v), self.refs)):
                return None, []
        for u, v in big:
            # an index larger than the patch: read it from a patch covering ZOOM times as much
            r = read_patch(sample_patch(frame, plane, c.point, ZOOM * u, ZOOM * v), self.refs)
            if r is None or (best is not None and r.confidence <= best[1].confidence):
                continue
            again = read_patch(sample_patch(frame, plane, c.point + NOTCH_CHECK * (u + v), ZOOM_CHECK * u, ZOOM_CHECK * v), self.refs)
            if _agrees(r, again):
                best = (c, zoomed_reading(r, ZOOM), u, v)
        return best, declined_here

    @staticmethod
    def _holes(mask: np.ndarray):
        """Connected non-paper spots inside paper regions (glyphs, pips, markers):
        (stats, centroids) as cv2.connectedComponentsWithStats gives them, row 0
        standing for the background.  Labelled region by region, each in its
        own box, and only in regions big enough to hold a glyph with paper
        round it (labelling the whole frame was the costliest single step)."""
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        stats_all, cents_all = [np.zeros((1, 5), np.int32)], [np.zeros((1, 2))]
        # specks (a contour of one or two points has no area) are passed over in one step
        sizes = np.fromiter(map(len, contours), np.int64, len(contours))
        for k in np.flatnonzero(sizes >= 3).tolist():
            c = contours[k]
            x, y, bw, bh = cv2.boundingRect(c)
            if bw < 8 or bh < 8 or cv2.contourArea(c) < 64:
                continue
            filled = np.zeros((bh, bw), np.uint8)
            cv2.drawContours(filled, [c], -1, 255, -1, offset=(-x, -y))
            holes = cv2.bitwise_and(filled, cv2.bitwise_not(mask[y : y + bh, x : x + bw]))
            # labelled only in the box of its holes (a table edge's long strip has few)
            hx, hy, hw, hh = cv2.boundingRect(holes)
            if hw == 0:
                continue
            n, _, stats, cents = cv2.connectedComponentsWithStats(holes[hy : hy + hh, hx : hx + hw], connectivity=8)
            x, y = x + hx, y + hy
            if n > 1:
                stats = stats[1:].copy()
                stats[:, 0] += x
                stats[:, 1] += y
                stats_all.append(stats)
                cents_all.append(cents[1:] + (x, y))
        stats, cents = np.concatenate(stats_all), np.concatenate(cents_all)
        # in the order the whole frame's labelling would give (top row first): the search caps below try spots in order
        order = np.r_[0, 1 + np.lexsort((stats[1:, 0], stats[1:, 1]))]
        return stats[order], cents[order]

    def _sibling_indices(self, frame, holes, plane: Plane, reads, n_own: int | None = None) -> list[_Found]:
        """Indices of cards that lie under others with no outer corner of their
        own (a staggered stack): look for the same index layout, in the same
        orientation, at every glyph-sized ink spot on the paper near a card
        already read.  The read index says where the rank sits from the corner.
        Then, after every such spot, spots as large as the read index's rank
        and suit together: at 720p the two often run into one spot.
        ``n_own``: holes from this row on are a light table's
        (light_table_holes), whose spots read only as sure as a sealed spot's."""
        if not reads:
            return []
        stats, cents = holes
        on_table = np.arange(1, len(stats)) >= (len(stats) if n_own is None else n_own)
        centres = plane.to_plane(cents[1:])
        tops = plane.to_plane(np.c_[cents[1:, 0], stats[1:, 1]])
        bottoms = plane.to_plane(np.c_[cents[1:, 0], stats[1:, 1] + stats[1:, 3]])
        sizes = np.linalg.norm(bottoms - tops, axis=1)
        ok = (sizes > 2.5) & (sizes < 12) & (stats[1:, 4] >= 4)
        # every ink spot's centre: the suit glyph expected below a rank candidate is looked up among them
        all_centres = plane.to_plane(cents[1:][stats[1:, 4] >= 3])
        centres = centres[ok]
        on_table = on_table[ok]
        # each spot's box extents along the image axes, in plane mm
        x, y, bw, bh = (stats[1:, k][ok].astype(np.float32) for k in range(4))
        if len(x):
            p0, p1, p2 = (plane.to_plane(np.c_[x + dx, y + dy]) for dx, dy in ((0, 0), (bw, 0), (0, bh)))
            spot_ext = np.c_[np.linalg.norm(p1 - p0, axis=1), np.linalg.norm(p2 - p0, axis=1)]
        else:  # no glyph-sized spot (a table of backs): cv2 maps no points
            spot_ext = np.zeros((0, 2), np.float32)
        known = [p for p, *_ in reads]
        out: list[_Found] = []
        # the opposite corner of every card read: its second index (the card
        # may lie partly under another, with only that corner visible there)
        for point, u, v, reading in list(reads):
            opp = point + g.CARD_W * u + g.CARD_H * v
            if min(np.linalg.norm(opp - k) for k in known) < 8:
                continue
            known.append(opp)
            r, _ = self._read_at(frame, plane, opp, -u, -v)
            if r is not None and (r.rank, r.suit) == (reading.rank, reading.suit):
                out.append(_Found("card", card_outline(point, u, v), [opp - 5 * u - 8 * v], r.confidence, r.rank, r.suit))
        if len(centres) == 0 or len(all_centres) == 0:
            return out
        # each read card's spots to try: a rank glyph's (pick), and spots that
        # are its rank and suit run together (merged); all rank glyphs first
        plans = []
        for point, u, v, reading in sorted(reads, key=lambda r: -r[3].confidence):
            x, y, w, h = reading.rank_box
            cx = x + w / 2
            sx, sy, sw, sh = reading.suit_box
            scx = sx + sw / 2
            # the rank and the suit together: the box a merged spot fills
            mx0, mx1 = min(x, sx), max(x + w, sx + sw)
            my0, my1 = min(y, sy), max(y + h, sy + sh)
            mcx = (mx0 + mx1) / 2
            if u[0] * v[1] - u[1] * v[0] < 0:  # the patch was mirrored
                cx = PATCH_W - cx
                scx = PATCH_W - scx
                mcx = PATCH_W - mcx
            ou, ov = cx / PATCH_PPM, (y + h / 2) / PATCH_PPM
            # where the suit sits from the rank's centre, and how far off a spot may be
            suit_off = (scx / PATCH_PPM - ou) * u + ((sy + sh / 2) / PATCH_PPM - ov) * v
            suit_tol = max(2.0, 0.5 * sh / PATCH_PPM)
            # same deck, same orientation: a rank glyph as tall as this one, as
            # wide as any rank (or one glyph of a "10"); pips, suits and picture
            # parts of other sizes are not tried
            gh = h / PATCH_PPM
            au, av = np.abs(u), np.abs(v)
            lo = 0.75 * (au * 0.25 * gh + av * gh) - 1.0
            hi = 1.3 * (au * 1.4 * gh + av * gh) + 1.0
            # the spots to try, all at once (a loop over every spot per read
            # cost more than the reads): of a rank's size, near the card read,
            # and, since an index is a rank over a suit, with an ink spot where
            # the suit would be (reading is the costly part)
            close = np.hypot(*(centres - point).T) <= 160
            near = ~np.any(spot_ext < lo, axis=1) & ~np.any(spot_ext > hi, axis=1) & close
            pick = np.flatnonzero(near)
            if len(pick):
                suit_at = centres[pick] + suit_off
                gap = np.sqrt(((suit_at[:, None, :] - all_centres[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
                pick = pick[gap <= suit_tol]
            # at 720p a millimetre's gap is a pixel, and the rank and suit often
            # run together into one spot: as large as the two together (the
            # paper mask thins a small rank: down to MERGED_SIBLING_SHRINK of it),
            # placed from its centre
            both = au * (mx1 - mx0) / PATCH_PPM + av * (my1 - my0) / PATCH_PPM
            merged = np.all(spot_ext >= MERGED_SIBLING_SHRINK * both - 1.0, axis=1) & np.all(spot_ext <= 1.25 * both + 1.0, axis=1) & close
            merged[pick] = False
            to_rank, to_both = ou * u + ov * v, mcx / PATCH_PPM * u + (my0 + my1) / 2 / PATCH_PPM * v
            # a stagger's next index lies along the read card's edges from its own (steps
            # off the line by up to MERGED_LINE_SLOPE of their length): not a pip or a picture
            off = centres - (point + to_both)
            across, down = np.abs(off @ u), np.abs(off @ v)
            merged &= (across <= MERGED_LINE_MM + MERGED_LINE_SLOPE * down) | (down <= MERGED_LINE_MM + MERGED_LINE_SLOPE * across)
            plans.append((u, v, y, h, [(k, to_rank) for k in pick.tolist()], [(k, to_both) for k in np.flatnonzero(merged).tolist()]))
        tries = [0, 0]  # reads made from rank spots, from merged spots
        for run_together in (False, True):
            cap = MERGED_SIBLING_TRIES if run_together else SIBLING_TRIES
            for u, v, y, h, ranks, both in plans:
                for k, offset in both if run_together else ranks:
                    if tries[run_together] >= cap:
                        break
                    corner = centres[k] - offset
                    if np.min(np.hypot(*(np.asarray(known) - corner).T)) < 8:
                        continue
                    tries[run_together] += 1
                    r, _ = self._read_at(frame, plane, corner, u, v)
                    known.append(corner)
                    if r is None or r.confidence < (SEALED_CONFIDENCE if on_table[k] else MIN_CONFIDENCE):
                        continue
                    # same deck, same layout: the rank sits where it sat on the card we read (a
                    # merged spot's centre places it less well: the mask thins a rank more than a suit)
                    rx, ry, rw, rh = r.rank_box
                    least, reach = (0.65, 2.5) if run_together else (0.75, 2.0)
                    if not least < rh / h < 1.33 or abs(ry - y) > reach * PATCH_PPM:
                        continue
                    # placed from an ink spot, not a paper corner
                    if not self._placed_reading_stands(frame, plane, r, corner, u, v):
                        continue
                    out.append(_Found("card", card_outline(corner, u, v), [index_anchor(corner, u, v)], r.confidence * 0.95, r.rank, r.suit))
        return out

    def _placed_reading_stands(self, frame, plane: Plane, r: IndexReading, corner: np.ndarray, u: np.ndarray, v: np.ndarray, glyphs_of=None) -> bool:
        """Whether a reading at a patch placed from something other than a
        paper corner (an ink spot, a run's step) stands: sure
        (:data:`SIBLING_SURE`), or read the same from a patch moved
        :data:`NOTCH_CHECK` mm in along both edges, as a notched corner's must."""
        return r.confidence >= SIBLING_SURE or _agrees(r, self._read_at(frame, plane, corner + NOTCH_CHECK * (u + v), u, v, glyphs_of)[0])

    def _stagger_gaps(self, frame, plane: Plane, found: list[_Found], glyphs_of=None) -> list[_Found]:
        """Cards of a staggered run that no step read, where the run's even
        steps place one (:func:`vision.stagger.gap_corners`): read there, the
        reading standing as a sibling index's does (_placed_reading_stands)."""
        cards = []
        for x in found:
            if x.kind != "card" or x.rank is None or not x.anchors:
                continue
            o = x.outline
            # an outline placed from its index corner (card_outline, or measured from the card's
            # edges: a little off the card's size); a whole paper region's rectangle need not be
            lu, lv = float(np.linalg.norm(o[1] - o[0])) / g.CARD_W, float(np.linalg.norm(o[3] - o[0])) / g.CARD_H
            if not (0.85 < lu < 1.15 and 0.85 < lv < 1.15):
                continue
            point, u, v = _outline_frame(o)
            if min(float(np.linalg.norm(a - index_anchor(point, u, v))) for a in x.anchors) > 2.0:
                continue
            cards.append((point, u, v))
        known = [a for x in found for a in x.anchors]
        out: list[_Found] = []
        for places in stagger.gap_corners(cards):
            if known and min(float(np.linalg.norm(index_anchor(*places[0]) - k)) for k in known) < READ_CARD_MM:
                continue
            for corner, u, v in places:
                r, _ = self._read_at(frame, plane, corner, u, v, glyphs_of)
                if r is None or r.confidence < MIN_CONFIDENCE or not self._placed_reading_stands(frame, plane, r, corner, u, v, glyphs_of):
                    continue
                at = index_anchor(corner, u, v)
                out.append(_Found("card", card_outline(corner, u, v), [at], r.confidence * 0.95, r.rank, r.suit))
                known.append(at)
                break
        return out

    def _inner_paper(self, mask: np.ndarray, plane: Plane, outline: np.ndarray) -> float:
        """Share of the inner part of a card outline that is paper-white."""
        c = _centre(outline)
        inner = c + (outline - c) * 0.6
        work_pts = cv2.perspectiveTransform(np.float32(inner).reshape(-1, 1, 2), np.linalg.inv(plane.work_to_plane)).reshape(-1, 2)
        pts = np.round(work_pts).astype(np.int32)
        # only the polygon's box of the frame (a whole-frame mask per outline cost a millisecond)
        h, w = mask.shape
        x0, y0 = np.clip(pts.min(axis=0), 0, [w, h])
        x1, y1 = np.clip(pts.max(axis=0) + 1, 0, [w, h])
        if x1 <= x0 or y1 <= y0:
            return 0.0
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(m, pts - [x0, y0], 1)
        n = cv2.countNonZero(m)
        return float(cv2.countNonZero(cv2.bitwise_and(mask[y0:y1, x0:x1], mask[y0:y1, x0:x1], mask=m))) / n if n else 0.0

    def _markers(self, gray, frame, blobs, unread, plane: Plane, holes, f: float):
        """Printed-card and back markers, searched only around dark, roughly
        square spots on paper of a marker's size (every marker sits on a white
        quiet zone, so it is such a spot even when most of its card is
        covered).  Each spot is searched in a small crop, with one threshold
        window: a fraction of the work of searching whole paper regions."""
        if self.full_marker_scan:
            return [m for m in detect_markers(self.detector, gray) if m.marker_id not in MAT_IDS]
        h, w = gray.shape
        rois = []
        stats, _ = holes
        # the size and shape tests on every spot at once (a frame holds hundreds);
        # the spots' boxes mapped in one call, point by point as one at a time
        x, y, bw, bh, area = stats[1:].T
        keep = np.flatnonzero((area >= 12) & (bw > 0.5 * bh) & (bw < 2.0 * bh) & (area >= 0.25 * bw * bh))
        boxes = np.float32(np.c_[x[keep], y[keep], x[keep] + bw[keep], y[keep] + bh[keep]]).reshape(-1, 2)
        ends = plane.to_plane(boxes).reshape(-1, 2, 2) if len(keep) else np.zeros((0, 2, 2), np.float32)
        for k, box in zip(keep.tolist(), ends, strict=True):
            x, y, bw, bh, area = stats[1 + k]
            side = float(np.linalg.norm(box[1] - box[0])) / 1.41
            if 11 < side < 46:  # 30 mm turned 45 degrees: a 42 mm box
                pad = 0.35 * max(bw, bh) + 3
                x0, y0 = int(max((x - pad) / f, 0)), int(max((y - pad) / f, 0))
                x1, y1 = int(min((x + bw + pad) / f, w)), int(min((y + bh + pad) / f, h))
                rois.append((x0, y0, x1, y1, max(bw, bh) / f))
        out = []
        for x0, y0, x1, y1 in _merge_rois([r[:4] for r in rois]):
            crop = gray[y0:y1, x0:x1]
            # the marker is the spot: its outline is at least half the spot's
            # size (a square's perimeter is 2.8 times its box or more).  Smaller
            # quads (glyphs, pips) are not tried, and each one tried is looked
            # up in the whole 1000-marker dictionary: most of the search's time
            spot = min(r[4] for r in rois if x0 <= r[0] and y0 <= r[1] and r[2] <= x1 and r[3] <= y1)
            found = detect_markers(self._roi_detector_for(1.4 * spot / max(x1 - x0, y1 - y0)), crop, offset=(x0, y0))
            out += [m for m in found if m.marker_id not in MAT_IDS]
        return out

    def _markers_on(self, gray: np.ndarray, blob, f: float) -> list:
        """Markers on one unread paper region, searched again with :func:`_thorough_params`.

        The quick search (:meth:`_markers`) tries two threshold windows on a crop around each
        marker-sized spot; a blurred centre marker of about 20 px on a 640x360 frame needs more
        windows and a lower threshold constant: in the Double Side Play demo printed card 613 lay
        unread (an unknown, so the referee asked what it was) in every frame.  Only regions that
        would otherwise be reported unknown are searched again, so it costs little."""
        x, y, w, h = cv2.boundingRect(np.int32(blob.contour_work).reshape(-1, 1, 2))
        H, W = gray.shape
        x0, y0 = max(int(x / f) - 4, 0), max(int(y / f) - 4, 0)
        x1, y1 = min(int((x + w) / f) + 5, W), min(int((y + h) / f) + 5, H)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return []
        return [m for m in detect_markers(self.detector_thorough, gray[y0:y1, x0:x1], offset=(x0, y0)) if m.marker_id not in MAT_IDS]

    def _roi_detector_for(self, perimeter_rate: float) -> ShortlistDetector:
        """The crop detector with a smallest marker outline of about ``perimeter_rate``
        times the crop's longer side (rounded down to a tenth; one detector per tenth)."""
        rate = max(0.1, math.floor(perimeter_rate * 10) / 10)
        if rate not in self._roi_detectors:
            p = _roi_params()
            p.minMarkerPerimeterRate = rate
            self._roi_detectors[rate] = ShortlistDetector(p)
        return self._roi_detectors[rate]

    @staticmethod
    def _marker_sighting(mk, plane: Plane) -> _Found | None:
        r = marker_range(mk.marker_id)
        if r is None or r.kind == "mat":
            return None
        inv = np.linalg.inv(plane.plane_to_frame)
        pts = cv2.perspectiveTransform(mk.corners.reshape(-1, 1, 2).astype(np.float32), inv).reshape(-1, 2).astype(np.float64)
        ux, vy = pts[1] - pts[0], pts[3] - pts[0]
        side = (np.linalg.norm(ux) + np.linalg.norm(vy)) / 2
        ux, vy = ux / np.linalg.norm(ux), vy / np.linalg.norm(vy)
        centre = pts.mean(0)
        if r.kind == "back" and side < CENTRE_MARKER_MIN:
            # A back carries one centre marker only (companion.printing.faces.marked_back): a corner-sized
            # back id is a printed face's corner marker whose few pixels decoded as another id.  In the
            # Double Side Play demo (640x360) card 609's 13.6 mm corner marker read as back 38, a face-down
            # card on a face-up one, and the referee refused a legal play (DSP-T4).
            return None
        if r.kind == "card" and side < CENTRE_MARKER_MIN:
            tl = centre - g.PRINTED_CORNER_OFFSET * (ux + vy)
            outline = card_outline(tl, ux, vy)
        else:
            tl = centre - g.CARD_W / 2 * ux - g.CARD_H / 2 * vy
            outline = card_outline(tl, ux, vy)
        if r.kind == "back":
            return _Found("face_down", outline, [centre], 0.95, marker_id=mk.marker_id, back=back_meaning(mk.marker_id) or "marked",
                          marker_mm=float(side))
        return _Found("marker", outline, [centre], 0.95, marker_id=mk.marker_id, marker_mm=float(side))

    def _stack_evidence(self, frame, plane: Plane, found: list[_Found], overlapping: set[tuple[int, int]], corners: list[Corner]) -> set[tuple[int, int]]:
        """Which of two overlapping read cards lies on top, where neither was
        read on the other (a card read only at its far corner, its near index
        missed, or cards that overlap away from their indices).  Two cues, the
        cheap one first:

        - an outer paper corner was found at one card's outline corner, inside
          the other card: a corner under a card is hidden, so that card is on
          top (the pairs are returned as (above, below) indices of ``found``);
        - one card's own index shows at one of its other corners lying on the
          other card: it is on top, and that spot becomes one of its anchors.
          Checking that a known card's index is there is easier than reading
          an unknown one (a J the network half takes for a 3 is still plainly
          not the other card), and only undecided pairs cost any check."""
        on_top: set[tuple[int, int]] = set()
        seen = np.array([c.point for c in corners]) if corners else np.zeros((0, 2))
        for i, j in sorted(overlapping):
            a, b = found[i], found[j]
            if i > j or a.kind != "card" or b.kind != "card" or a.rank is None or b.rank is None or _lies_on(a, b) or _lies_on(b, a):
                continue
            for (k, x), (m, y) in (((i, a), (j, b)), ((j, b), (i, a))):
                if _corner_seen_on(x, y, corners, seen) and not _corner_seen_on(y, x, corners, seen):
                    on_top.add((k, m))
                    break
            else:
                for x, y in ((a, b), (b, a)):
                    under = _shrunk(y.outline)
                    for point, u, v in _outline_corners(x.outline):
                        spot = index_anchor(point, u, v)
                        if not inside(spot, under) or any(np.linalg.norm(spot - an) < 6 for an in x.anchors):
                            continue
                        if shows_index_of(sample_patch(frame, plane, point, u, v), x.rank, x.suit, self.refs):
                            x.anchors.append(spot)
                            break
                    if _lies_on(x, y):
                        break
        return on_top

    def _finish(self, found: list[_Found], plane: Plane, metric: bool, overlapping: set[tuple[int, int]], above: list[set[int]]) -> list[Sighting]:
        """The sightings of ``found``; ``above``: _above_sets of them."""
        n = len(found)
        overlaps = [set() for _ in range(n)]
        for i, j in overlapping:
            overlaps[i].add(j)
        level = [0] * n
        for _ in range(n):  # longest chain below each sighting
            changed = False
            for i in range(n):
                lv = max((level[j] + 1 for j in above[i] if i not in above[j]), default=0)
                if lv != level[i]:
                    level[i], changed = lv, True
            if not changed:
                break
        out = []
        for i, x in enumerate(found):
            px = plane.to_frame(x.outline)
            out.append(
                Sighting(
                    id=i,
                    kind=x.kind,
                    confidence=float(x.confidence),
                    outline_px=tuple((float(a), float(b)) for a, b in px),
                    outline_mm=tuple((float(a), float(b)) for a, b in x.outline) if metric else None,
                    anchors_px=tuple((float(a), float(b)) for a, b in plane.to_frame(np.array(x.anchors))),
                    rank=x.rank,
                    suit=x.suit,
                    marker_id=x.marker_id,
                    back=x.back,
                    overlaps=tuple(sorted(overlaps[i])),
                    above=tuple(sorted(above[i])),
                    stack_level=level[i],
                )
            )
        return out


#: the shortest frame side vision takes: its quarter-size copy must still hold
#: the table-colour tiles (and no card is read in less)
MIN_FRAME_SIDE = 32


class _FrameBase(NamedTuple):
    """The part of a frame's preparation that no scale changes."""

    gray: np.ndarray
    cal: Calibration | None
    f: float
    small: np.ndarray
    work_gray: np.ndarray
    bg: np.ndarray
    mask: np.ndarray
    split: np.ndarray


def _region_patches(frame, plane: Plane, bi: int, blob, table_share, zooms=(1.0,)) -> list[np.ndarray]:
    """The upright patches at every corner of paper region ``blob`` (its
    index ``bi``), paper and notched corners, both edge assignments, at each
    of ``zooms`` (a patch covering that many times as much), for teaching."""
    corners = find_corners(bi, blob, plane.metric)
    corners += find_notched_corners(bi, blob, plane.metric, corners, table_share)
    return [sample_patch(frame, plane, c.point, k * u, k * v) for k in zooms for c in corners for u, v in ((c.d1, c.d2), (c.d2, c.d1))]


def guessed_scale(frame_shape, work_f: float) -> float:
    """Work px per pseudo-mm when nothing says: the frame's longer side spans :data:`GUESSED_SPAN_MM`."""
    return max(frame_shape[:2]) * work_f / GUESSED_SPAN_MM


def light_table_holes(mask: np.ndarray, work_gray: np.ndarray, bg: np.ndarray, holes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ink spots that only the light of a light neutral table encloses, for
    the edge-free finder and the stacked-index search: (stats, centroids,
    the mask they are holes of), none of them one of ``holes`` (the paper
    mask's own).

    On a white or light grey cloth the paper mask misses card paper in
    shade (a hand's shadow, a lamp's fall-off, a cream face hardly brighter
    than the cloth), and an index on it joins the table or the hand beside
    it instead of being a hole in the paper.  There every pixel at least
    ``LIGHT_TABLE_INK`` of the table's brightness is taken for paper or
    table, which ink never is, and the holes of that mask that the paper
    mask did not have are the new spots."""
    level = float(np.median(bg.max(axis=2)))
    light = cv2.bitwise_or(mask, ((work_gray >= LIGHT_TABLE_INK * level) * 255).astype(np.uint8))
    stats, cents = VisionPipeline._holes(light)
    own = {tuple(r) for r in holes[0][1:].tolist()}
    new = [k for k in range(1, len(stats)) if tuple(stats[k].tolist()) not in own]
    return stats[new], cents[new], light


def _cards_read(result: FrameResult) -> int:
    """Different cards read: a wrong scale can read one card twice (two of
    its corners as two sightings) and so tie with the right one."""
    return len({(s.kind, s.rank, s.suit, s.marker_id) for s in result.sightings if s.kind in ("card", "marker")})


def oversized_index(patch: np.ndarray) -> bool:
    """Whether the ink at the top of an upright corner patch is an index too
    large for the patch: its topmost glyph-sized ink (starting above 8 mm,
    clear of the corner's two edges) is 10 mm wide, or 7 mm wide and either
    runs into the patch's far side or is 11 mm tall (a rank that large is cut
    off by the patch or leaves no room for the suit, and the reader passes
    it over).  A rank and suit run together at low resolution are as tall
    but narrower; solid ink (a marker, picture art) is no glyph.  Ink is
    split from paper halfway between the patch's own extremes."""
    # at half the patch's resolution (2 px/mm: these glyphs are 14 px or more), a quarter of the cost
    half = cv2.resize(patch, (PATCH_W // 2, PATCH_H // 2), interpolation=cv2.INTER_NEAREST)
    gray = cv2.cvtColor(half, cv2.COLOR_BGR2GRAY) if half.ndim == 3 else half
    lo, hi = cv2.minMaxLoc(gray)[:2]
    if hi - lo < 50:
        return False
    ppm = PATCH_PPM / 2
    ink = cv2.threshold(gray, (lo + hi) / 2, 255, cv2.THRESH_BINARY_INV)[1]
    # most patches hold no ink this wide below the corner: passed over before the labelling
    if np.count_nonzero(ink[: int(19 * ppm)].any(axis=0)) < 7 * ppm:
        return False
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    x, y, w, h, area = stats[1:].T
    ok = (area >= 3) & (h >= 2 * ppm) & (y > 0) & (y < 8 * ppm) & (x > 0)
    if not ok.any():
        return False
    k = int(np.flatnonzero(ok)[np.argmin(y[ok])])
    x, y, w, h, area = stats[1 + k].tolist()
    if h > 18 * ppm or area > 0.75 * w * h:
        return False  # not a glyph: picture art, a marker, a dark edge
    return w >= 10 * ppm or (w >= 7 * ppm and (x + w >= gray.shape[1] or h >= 11 * ppm))


def frame_px_per_mm(plane: Plane, point: np.ndarray) -> float:
    """Frame pixels per plane millimetre at ``point`` (the geometric mean of
    the two axes' scales: a tilted view stretches one more than the other)."""
    p = plane.to_frame(np.array([point, point + (1.0, 0.0), point + (0.0, 1.0)], np.float64))
    a, b = p[1] - p[0], p[2] - p[0]
    return float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0])))


def finest_px_per_mm(plane: Plane, shape: tuple[int, ...]) -> float:
    """The most frame pixels per plane millimetre anywhere in a frame of ``shape``: at one of its
    corners, since a homography's scale changes monotonically along any line (constant without a mat).
    Why: a stage that reads nothing under some scale can be skipped when no part of the frame reaches it."""
    h, w = shape[:2]
    corners = np.float64([[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1]]).reshape(-1, 1, 2)
    at = cv2.perspectiveTransform(corners, np.linalg.inv(plane.plane_to_frame)).reshape(-1, 2)
    return max(frame_px_per_mm(plane, p) for p in at)


def _agrees(a: IndexReading, b: IndexReading | None) -> bool:
    return b is not None and (a.rank, a.suit) == (b.rank, b.suit)


def zoomed_reading(r: IndexReading, zoom: float) -> IndexReading:
    """A reading made on a patch covering ``zoom`` times as much, with its
    glyph boxes in the usual patch's pixels (where they lie from the corner)."""
    rank_box = tuple(int(round(k * zoom)) for k in r.rank_box)
    suit_box = tuple(int(round(k * zoom)) for k in r.suit_box)
    return replace(r, rank_box=rank_box, suit_box=suit_box)


def check_frame(frame) -> None:
    """Raise ValueError unless ``frame`` is a BGR uint8 image (H x W x 3) of at
    least MIN_FRAME_SIDE pixels a side."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        got = f"{frame.dtype} array of shape {frame.shape}" if isinstance(frame, np.ndarray) else type(frame).__name__
        raise ValueError(f"vision needs a BGR uint8 image (height x width x 3), got a {got}")
    h, w = frame.shape[:2]
    if min(h, w) < MIN_FRAME_SIDE:
        raise ValueError(f"a {w}x{h} image is too small: vision needs at least {MIN_FRAME_SIDE} pixels a side")


def _mat_detector() -> cv2.aruco.ArucoDetector:
    """A detector for the mat's markers alone: the table dictionary cut to
    its first ids (the mat's 0-3, so ids stay the same) with the same
    parameters.  Every quad a frame holds is looked up in the dictionary, and
    in all 1000 markers when it is none of them; against four it costs about a
    tenth as much, and a mat marker is found exactly as before (the table
    dictionary corrects no bits)."""
    full = make_detector()
    d = full.getDictionary()
    n = max(MAT_IDS) + 1
    return cv2.aruco.ArucoDetector(cv2.aruco.Dictionary(d.bytesList[:n].copy(), d.markerSize, d.maxCorrectionBits), full.getDetectorParameters())


def _detector_params(**settings) -> cv2.aruco.DetectorParameters:
    """The table detector's parameters (vision.markers.make_detector) with ``settings`` changed."""
    p = make_detector().getDetectorParameters()
    for name, value in settings.items():
        setattr(p, name, value)
    return p


def _roi_params() -> cv2.aruco.DetectorParameters:
    """Marker detector parameters for small crops around one marker-sized spot:
    two threshold windows instead of three, and no minimum size relative to
    the crop (a crop is mostly marker)."""
    return _detector_params(adaptiveThreshWinSizeMin=7, adaptiveThreshWinSizeMax=17, adaptiveThreshWinSizeStep=10,
                            minMarkerPerimeterRate=0.1)


def _thorough_params() -> cv2.aruco.DetectorParameters:
    """Marker detector parameters for a second look at one unread paper region: four threshold
    windows (5-23 px), and a threshold constant of 4 grey levels instead of 7.  A blurred marker
    of 3 px a cell has cells that are not 7 levels darker than their surroundings: on the ten
    Double Side Play demo frames (640x360) where printed card 613 lay unread, these read it in
    10 (none misread) and OpenCV's defaults in 2; doubling the crop's size instead, in 9.  (The
    same card on another seat's zone, blurred more, no setting tried read in more than 1 of 10.)"""
    return _detector_params(adaptiveThreshWinSizeMin=5, adaptiveThreshWinSizeMax=23, adaptiveThreshWinSizeStep=6,
                            adaptiveThreshConstant=4)


#: mm around the mat where paper still counts (a card at the mat's edge)
MAT_MARGIN = 50.0


def _mat_region(cal, scale: float, shape, margin: float = MAT_MARGIN) -> np.ndarray:
    """Mask (of ``shape``, pixels ``scale`` x the frame's) of the mat and ``margin`` mm around it (in, when negative)."""
    m = margin
    corners = np.float32([[-m, -m], [g.MAT_W + m, -m], [g.MAT_W + m, g.MAT_H + m], [-m, g.MAT_H + m]])
    pts = cal.mat_to_image(corners) * scale
    out = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(out, np.round(pts).astype(np.int32), 255)
    return out


def _on_mat(blob) -> bool:
    """Paper inside the mat and not one of the mat's own marker squares."""
    return _point_on_mat(blob.contour_plane.mean(axis=0))


def _point_on_mat(p: np.ndarray) -> bool:
    """A point inside the mat and away from the mat's own marker squares."""
    x, y = p
    if not (5 < x < g.MAT_W - 5 and 5 < y < g.MAT_H - 5):
        return False
    reach = g.MAT_MARKER / 2 + 12
    return all(abs(x - mx) > reach or abs(y - my) > reach for mx, my in g.mat_marker_centres().values())


def _on_marker(p: np.ndarray, markers, grow: float = 1.3) -> bool:
    """Whether frame point ``p`` lies on one of ``markers`` (frame px) or its
    quiet zone (each marker's square grown about its centre)."""
    for m in markers:
        c = m.corners.mean(axis=0)
        quad = np.float32(c + grow * (m.corners - c)).reshape(-1, 1, 2)
        if cv2.pointPolygonTest(quad, (float(p[0]), float(p[1])), False) >= 0:
            return True
    return False


def _centre(outline: np.ndarray) -> np.ndarray:
    return np.asarray(outline, np.float64).mean(axis=0)


def _shrunk(outline: np.ndarray) -> np.ndarray:
    """An outline drawn 3 % in, so that an anchor on its very edge is not inside."""
    c = _centre(outline)
    return c + (outline - c) * 0.97


def _layout_rules_out(frame, plane: Plane, point, u, v, rank: str, others, corners, *, contour=None, mask=None, row=None) -> bool:
    """Whether the layout beside the index at card corner ``point`` rules a
    number reading's ``rank`` out (:func:`vision.near_pip.contradicts_rank`),
    looked at only where no card read lies on this one and not at all where
    another card's corner shows there (:func:`_cards_on`).  The face's paper
    is its region's ``contour`` or else the paper ``mask``; ``row``: the face
    already sampled with all of that paper (the suit check's), used as it is
    when no card lies on it."""
    over, edged = _cards_on(point, u, v, others, corners)
    if edged or (row is not None and row.columns_ink is None):
        return False  # the face shows nothing to judge by, with all of its paper or less
    if row is None or over:
        row = near_pip.sample_row(frame, plane, point, u, v, contour=contour, mask=mask, rank=rank, layout_only=True, under=over)
    return near_pip.contradicts_rank(row, rank)


def _cards_on(point: np.ndarray, u: np.ndarray, v: np.ndarray, others, corners) -> tuple[list[np.ndarray], bool]:
    """What may lie on the card whose index corner is ``point`` (plane mm), for
    the layout check beside its index: the outlines of the cards read on it
    (``others``: (index place, outline) of every card read; one read inside
    its outline lies on it), and whether another card's paper corner (of
    ``corners``) shows on the part of its face the check looks at."""
    shrunk = _shrunk(card_outline(point, u, v))
    over = [o for at, o in others if np.linalg.norm(at - index_anchor(point, u, v)) > READ_CARD_MM and inside(at, shrunk)]
    # the part of the face looked at, its own corners left out
    a, b = point + CORNER_MATCH_MM * (u + v), point + (g.CARD_W - CORNER_MATCH_MM) * u + CORNER_MATCH_MM * v
    top = np.array([a, b, b + (LAYOUT_DEPTH - CORNER_MATCH_MM) * v, a + (LAYOUT_DEPTH - CORNER_MATCH_MM) * v])
    return over, any(inside(p, top) for p in corners)


def _found_on(result: FrameResult, outlines: list[np.ndarray]) -> bool:
    """Whether a card, back or printed card was found on one of ``outlines``
    (frame px): read there (its anchors; a card read at a scale twice too
    large has an outline twice as large, whose middle may lie anywhere)."""
    return any(inside_any(a, outlines) for sg in result.sightings if sg.kind != "unknown" for a in sg.anchors_px)


def _sheets(blobs, found: list[_Found]) -> set[int]:
    """The paper regions that are sheets of paper, not cards: at least
    :data:`SHEET_CARDS` cards' area, filling :data:`SHEET_RECTANGULARITY`
    of their bounding rectangle (a pile of cards that large is ragged),
    or :data:`SQUARE_SHEET_CARDS` filling :data:`SQUARE_SHEET_RECTANGULARITY`
    (without a mat a pad may measure 3 cards), or pieces of one cut apart
    by its ruled lines (:func:`_ruled_pieces`), with no card found on them.  A page of rules or a score pad lies
    beside the cards on many tables, and a heading by its corner was cut
    as a rank and a suit: an unknown card there in most frames
    (bench/vision_print.py).  A long staggered pile is
    no sheet: its cards are found by the edge-free finder, after this is
    asked (a rule for regions two cards long lost a 720p scene's 2 of clubs)."""
    anchors = [a for x in found for a in x.anchors]
    free = [bi for bi, b in enumerate(blobs) if b.area >= SHEET_PIECE_CARDS * CARD_AREA and not any(inside(a, b.contour_plane) for a in anchors)]
    whole = {
        bi
        for bi in free
        if (blobs[bi].area >= SHEET_CARDS * CARD_AREA and blobs[bi].rectangularity >= SHEET_RECTANGULARITY)
        or (blobs[bi].area >= SQUARE_SHEET_CARDS * CARD_AREA and blobs[bi].rectangularity >= SQUARE_SHEET_RECTANGULARITY)
    }
    return whole | _ruled_pieces(blobs, [bi for bi in free if bi not in whole])


def _ruled_pieces(blobs, free: list[int]) -> set[int]:
    """Paper regions that are pieces of one sheet cut apart by its ruled
    lines (a score pad's columns and its heading's rule): regions within
    :data:`SHEET_PIECE_GAP_MM` of each other whose union fills
    :data:`SHEET_RECTANGULARITY` of its bounding rectangle and is
    :data:`SQUARE_SHEET_CARDS` cards large.  ``free``: the candidate
    regions (no card found on them); each group grows from the largest
    region not yet in a sheet."""
    if len(free) < 2 or sum(blobs[bi].area for bi in free) < SQUARE_SHEET_CARDS * CARD_AREA:
        return set()  # no group of them could be large enough (most frames of cards)
    order = sorted(free, key=lambda bi: -blobs[bi].area)
    outlines = {bi: blobs[bi].simplified()[0].astype(np.float32) for bi in order}
    boxes = {bi: (o.min(axis=0), o.max(axis=0)) for bi, o in outlines.items() if len(o)}

    gaps: dict[tuple[int, int], float] = {}

    def gap(a: int, b: int) -> float:
        key = (min(a, b), max(a, b))
        if key not in gaps:
            pa, pb = outlines[a], outlines[b]
            # regions whose bounding boxes lie further apart than the gap are further apart
            apart = a not in boxes or b not in boxes or bool(
                np.any(boxes[a][0] - boxes[b][1] > SHEET_PIECE_GAP_MM) or np.any(boxes[b][0] - boxes[a][1] > SHEET_PIECE_GAP_MM)
            )
            gaps[key] = math.inf if apart or len(pa) < 3 or len(pb) < 3 else min(
                min(-cv2.pointPolygonTest(pb.reshape(-1, 1, 2), (float(x), float(y)), True) for x, y in pa),
                min(-cv2.pointPolygonTest(pa.reshape(-1, 1, 2), (float(x), float(y)), True) for x, y in pb),
            )
        return gaps[key]

    out: set[int] = set()
    taken: set[int] = set()
    for seed in order:
        if seed in taken:
            continue
        group, area = [seed], blobs[seed].area
        grew = True
        while grew:
            grew = False
            for bi in order:
                if bi in taken or bi in group or not any(gap(bi, g_) <= SHEET_PIECE_GAP_MM for g_ in group):
                    continue
                pts = np.vstack([blobs[k].contour_plane.reshape(-1, 2) for k in (*group, bi)]).astype(np.float32)
                (_, (rw, rh), _) = cv2.minAreaRect(pts)
                if rw * rh > 0 and (area + blobs[bi].area) / (rw * rh) >= SHEET_RECTANGULARITY:
                    group.append(bi)
                    area += blobs[bi].area
                    grew = True
        if len(group) > 1 and area >= SQUARE_SHEET_CARDS * CARD_AREA:
            out |= set(group)
            taken |= set(group)
    return out


def _pair_card(frame, plane: Plane, p, found=None, corner_points=(), mask=None) -> _Found | None:
    """The card an index read from its ink alone (:class:`vision.index_pairs.PairReading`)
    stands for, held a little below its reading's confidence; None where the layout
    beside the index rules a number card's rank out, as a corner's reading is checked
    (its paper from ``mask``; ``found``: every card read so far).  Without ``found``,
    unchecked (the no-mat scale search, which reads no pips)."""
    r = p.reading
    if found is not None and r.rank in NUMBER_RANKS:
        others = [(a, x.outline) for x in found if x.kind == "card" for a in x.anchors]
        if _layout_rules_out(frame, plane, p.corner, p.u, p.v, r.rank, others, corner_points, mask=mask):
            return None
    return _Found("card", card_outline(p.corner, p.u, p.v), [p.anchor], r.confidence * 0.95, r.rank, r.suit)


def _finder_known(found: list[_Found]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """What the edge-free finder is told is known, as find_index_pairs'
    ``outlines`` and ``anchors``: the outlines of cards found without a
    reading (an index may sit at any of their corners), and every anchor
    plus, for each card read, the two index spots of a two-index deck
    (:func:`vision.index_pairs.read_card_index_spots`).  All four corners of
    a read card hid the index of the next card of a staggered column, which
    lies by this card's unprinted corner: two spots instead of four found
    746 -> 751 cards of 720p seeds 0-149 (misreads 12 -> 12) and 867 -> 869
    of 1080p seeds 500-649 (1 -> 1); seeds 150-299 and 500-649 at 720p
    found as many (misreads 13 -> 13, 10 -> 11)."""
    outlines, anchors = [], []
    for x in found:
        anchors += x.anchors
        if x.kind == "card" and x.rank is not None and x.anchors:
            anchors.append(read_card_index_spots(x.outline, x.anchors))
        else:
            outlines.append(x.outline)
    return outlines, anchors


def _above_sets(found: list[_Found], overlapping: set[tuple[int, int]], on_top: set[tuple[int, int]]) -> list[set[int]]:
    """For each sighting, the ones it lies on (Sighting.above): its outline
    on theirs (_lies_on), or the stack evidence (``on_top``) says so."""
    above: list[set[int]] = [set() for _ in found]
    for i, j in overlapping:
        if _lies_on(found[i], found[j]) or (i, j) in on_top:
            above[i].add(j)
    return above


def _faces_agree(frame, plane: Plane, found: list[_Found], above: list[set[int]], blobs, memory: ReadMemory | None = None) -> list[_Found]:
    """``found`` with every number card that no other sighting lies on, and
    whose face's pips contradict its reading (vision.pip_check: the count,
    the colour, or a surer suit), turned unknown; or, where the pips agree
    in all but the suit and name theirs as surely as a card read by its
    pips (vision.pip_check.pip_suit), read in that suit.  Only corners on their own
    paper region were checked against their pips when read; a card read from
    an ink pair or beside another card's index (a pile's stagger) was not,
    though it may lie whole on top (720p seeds 0-999: a 9 of hearts lying
    whole read as an 8, a 10 of clubs on another card read as spades).  A card that
    another lies on is skipped: its outline takes in the upper card's pips,
    which can pass every test of vision.pips.  ``memory``: the answer for
    the same reading where the table did not change over the card since
    (vision.read_memory; a hand moving elsewhere leaves it standing)."""
    under = {j for js in above for j in js}
    out = []
    for i, x in enumerate(found):
        if x.kind == "card" and x.rank in NUMBER_RANKS and i not in under:
            point, u, v = _outline_frame(x.outline)
            look = None if memory is None else _look(plane, point, u, v, g.CARD_W, g.CARD_H, ("face", x.rank, x.suit))
            hit = None if look is None else memory.recall(look)
            if hit is not None and hit[1] == (0, 1):
                wrong, suit = hit[0]
            else:
                wrong, suit = _face_contradicts(frame, plane, x, point, u, v, blobs)
                if look is not None:
                    memory.keep(look, (wrong, suit))
            if wrong:
                x = replace(x, suit=suit, confidence=PIP_SUIT_CONFIDENCE) if suit else replace(x, kind="unknown", rank=None, suit=None)
        out.append(x)
    return out


def _face_contradicts(frame, plane: Plane, x: _Found, point: np.ndarray, u: np.ndarray, v: np.ndarray, blobs) -> tuple[bool, str | None]:
    """_faces_agree's test of one card: whether its face lies on the paper
    region under its centre (:data:`FACE_CHECK_COVER` of it) and its pips
    contradict its reading; and the suit they name instead where only the
    suit is wrong (vision.pip_check.pip_suit), else None."""
    ctr = _centre(x.outline)
    own = [b for b in blobs if inside(ctr, b.contour_plane)]
    if not own or max(pips.face_cover(x.outline, b.contour_plane, quick=False) for b in own) < FACE_CHECK_COVER:
        return False, None
    face = pips.read_face(pips.sample_face(frame, plane, point, u, v))
    if not pip_check.contradicts(face, x.rank, x.suit):
        return False, None
    return True, pip_check.pip_suit(face, x.rank, x.suit)


def _outline_frame(outline: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A card outline's first corner and its inward edge directions, the
    short edge's first (card_outline's ``point``, ``u``, ``v``)."""
    a, b, d = outline[0], outline[1], outline[3]
    u, v = b - a, d - a
    if np.hypot(*u) > np.hypot(*v):
        u, v = v, u
    return a, u / max(float(np.hypot(*u)), 1e-9), v / max(float(np.hypot(*v)), 1e-9)


def _lies_on(a: _Found, b: _Found) -> bool:
    """A visible index of ``a`` (one of its anchors) lies on ``b``: ``a`` is above it."""
    shrunk = _shrunk(b.outline)
    return any(inside(p, shrunk) for p in a.anchors)


def _corner_seen_on(x: _Found, y: _Found, corners: list[Corner], seen: np.ndarray) -> bool:
    """An outer paper corner was found at one of ``x``'s outline corners inside
    ``y``, its edges along ``x``'s edges (a corner under a card is hidden)."""
    if not len(seen):
        return False
    shrunk = _shrunk(y.outline)
    for point, u, v in _outline_corners(x.outline):
        if not inside(point, shrunk):
            continue
        d = np.linalg.norm(seen - point, axis=1)
        for k in np.flatnonzero(d < CORNER_MATCH_MM):
            c = corners[int(k)]
            # each found edge runs inward along one of x's edges (within 6 degrees)
            if max(float(np.dot(c.d1, u)), float(np.dot(c.d1, v))) > ALONG and max(float(np.dot(c.d2, u)), float(np.dot(c.d2, v))) > ALONG:
                return True
    return False


def _outline_corners(outline: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Each corner of a card outline (plane mm) with its inward unit edges: ``u``
    along the short edge, ``v`` along the long one (as sample_patch wants)."""
    out = []
    for k in range(4):
        p = outline[k]
        e1, e2 = outline[(k + 1) % 4] - p, outline[(k - 1) % 4] - p
        n1, n2 = float(np.linalg.norm(e1)), float(np.linalg.norm(e2))
        if min(n1, n2) < 1e-6:
            continue
        u, v = (e1 / n1, e2 / n2) if n1 <= n2 else (e2 / n2, e1 / n1)
        out.append((p, u, v))
    return out


def _overlapping(found: list[_Found]) -> set[tuple[int, int]]:
    """Every ordered pair (i, j) of sightings whose outlines share more than 3 %
    of a card's area (each area computed once)."""
    out = set()
    for i in range(len(found)):
        for j in range(i + 1, len(found)):
            if overlap_area(found[i].outline, found[j].outline) > 0.03 * CARD_AREA:
                out |= {(i, j), (j, i)}
    return out


def b_is_one_card(blob) -> bool:
    """A paper region that is one whole, uncovered card."""
    return blob.rectangularity > 0.9 and 0.75 * CARD_AREA < blob.area < 1.3 * CARD_AREA


def _conflicting(reads: list[tuple[Corner, IndexReading, np.ndarray, np.ndarray]], tol: float = FUSION.same_card_mm) -> list:
    """The corner readings (corner, reading, u, v) that another reading of
    the same card contradicts: their card outlines hold the same four
    corners within ``tol`` mm (diagonal corners of one card), their suits
    are of one colour and they name different cards.  A spade read as a
    club at one corner and as a spade at the other is one misread whichever
    is kept, and two sightings of one card.  Only where both readings are
    each read the same way at another corner within a card's reach do both
    stand: two cards lie there, one almost square on the other (1080p scene
    119: a four-index 2 of hearts under a jack of hearts, each read at two
    corners).  The corners are not asked to coincide there (the outlines of
    a four-index deck's mirrored corners are put on the wrong side).  One
    reading against two (a seven of hearts read as diamonds at two of its
    four corners, 720p scene 621) is still one card read two ways."""
    outlines = [card_outline(c.point, u, v) for c, _, u, v in reads]
    twice = [
        any(
            j != i and (b.rank, b.suit) == (a.rank, a.suit) and tol < np.linalg.norm(cj.point - ci.point) < CARD_DIAGONAL + tol
            for j, (cj, b, *_) in enumerate(reads)
        )
        for i, (ci, a, *_) in enumerate(reads)
    ]
    out = []
    for i, (_, a, *_) in enumerate(reads):
        against = []
        for j, (_, b, *_) in enumerate(reads):
            if i == j or (a.rank, a.suit) == (b.rank, b.suit) or (a.suit in RED_SUITS) != (b.suit in RED_SUITS):
                continue
            d = np.linalg.norm(outlines[i][:, None, :] - outlines[j][None, :, :], axis=2)
            if d.min(axis=1).max() < tol:
                against.append(j)
        if against and not (twice[i] and all(twice[j] for j in against)):
            out.append(reads[i])
    return out


def _merge_same_card(found: list[_Found]) -> list[_Found]:
    """Two index readings of one card (opposite corners) -> one sighting: the
    same card read twice with outlines that mostly coincide."""
    out: list[_Found] = []
    for f in sorted(found, key=lambda x: -x.confidence):
        for o in out:
            same = o.kind == f.kind and o.rank == f.rank and o.suit == f.suit
            if same and (
                overlap_area(o.outline, f.outline) > 0.5 * CARD_AREA
                or any(inside(a, o.outline) for a in f.anchors)
                or any(inside(a, f.outline) for a in o.anchors)
            ):
                o.anchors += f.anchors
                break
        else:
            out.append(f)
    return out


def _one_card_spade_and_club(found: list[_Found], plane: Plane) -> list[_Found]:
    """``found`` with one card read as a spade and as a club kept once, as
    the surer reading (with both readings' places).  Where an index's suit
    glyph is a few pixels tall (under ``SPADE_CLUB_PX_PER_MM``) a spade and
    a club differ by a point or a lobe, and the two index corners of one
    card, or two routes to one corner, can read the two ways: two sightings
    of one rank, one a spade and one a club, each read where the other's
    card lies (or at one place, ``SAME_PLACE_MM``), are one card.  At 720p
    (1000 benchmark scenes) all 12 such pairs were one card, the weaker
    reading wrong in each.  At 1080p two of three such pairs were two
    cards: readings of two cards laid almost square on each other lie a
    few millimetres apart (scene 73, 13 mm: ``SQUARE_STACK_MM``), and at
    2.3 px/mm (scene 242) the glyphs are large enough to be told apart."""
    cards = sorted((f for f in found if f.kind == "card" and f.suit in ("spades", "clubs")), key=lambda f: -f.confidence)
    gone: set[int] = set()  # id() of the weaker readings merged away
    for i, a in enumerate(cards):
        if id(a) in gone:
            continue
        for b in cards[i + 1 :]:
            if b.rank != a.rank or b.suit == a.suit or id(b) in gone:
                continue
            apart = min((float(np.linalg.norm(x - y)) for x in a.anchors for y in b.anchors), default=math.inf)
            one_place = apart <= SAME_PLACE_MM
            on_each_other = (
                apart > SQUARE_STACK_MM and any(inside(x, b.outline) for x in a.anchors) and any(inside(y, a.outline) for y in b.anchors)
            )
            if (one_place or on_each_other) and frame_px_per_mm(plane, a.anchors[0]) < SPADE_CLUB_PX_PER_MM:
                a.anchors += b.anchors
                gone.add(id(b))
    return [f for f in found if id(f) not in gone]


def _not_refuted(found: list[_Found], refuted: list[tuple[np.ndarray, str, str]], within: float = 6.0) -> list[_Found]:
    """``found`` without card readings that repeat a refuted one: the same rank and suit read
    within ``within`` mm of where the card's own pips contradicted it.  Another route to the same
    glyphs (the sibling-index search, fusion, the edge-free finder) reads them the same wrong way:
    bench scene 61 at 1080p, a 6 of diamonds whose face shows six pips, was declined as an 8 at one
    corner, read as a 6 at the other, and then added again as an 8 by the sibling-index search."""
    if not refuted:
        return found
    return [f for f in found if f.kind != "card" or not any(
        (f.rank, f.suit) == (rank, suit) and min(np.linalg.norm(a - at) for a in f.anchors) < within
        for at, rank, suit in refuted)]


def _merge_markers(found: list[_Found]) -> list[_Found]:
    """The markers of one card (a printed face has several) become one sighting.

    Only markers whose card outlines lie on one spot merge: every back of a game carries the same id
    (Two Freakin' Swords' Striking/Defending, Keener's back), so two backs on the table are two cards.
    """
    out: list[_Found] = []
    for f in found:
        for o in out:
            if o.marker_id == f.marker_id and np.linalg.norm(_centre(o.outline) - _centre(f.outline)) < g.CARD_W / 2:
                o.anchors += f.anchors
                o.marker_mm += f.marker_mm
                break
        else:
            out.append(f)
    return _one_id_per_card(out)


def _one_id_per_card(found: list[_Found]) -> list[_Found]:
    """Of printed-card sightings with different ids on one card, the id most of its markers agree on.

    A printed face shows one id three times (its centre and two corners); a marker a few pixels wide can decode
    as another valid id (4x4 codes lie close together), which would put a second card on the first.
    Two outlines sharing :data:`SAME_PRINTED_CARD` of a card are one card (the lower of two cards
    overlapping so much shows no whole marker), and the id read by more markers, then by more marker
    area (a centre marker outweighs a corner one), is kept.
    """
    cards = sorted((f for f in found if f.kind == "marker"), key=lambda f: (-len(f.anchors), -f.marker_mm))
    keep: list[_Found] = []
    for f in cards:
        if not any(overlap_area(k.outline, f.outline) >= SAME_PRINTED_CARD * CARD_AREA for k in keep):
            keep.append(f)
    return [f for f in found if f.kind != "marker" or any(f is k for k in keep)]


def _dedupe(found: list[_Found]) -> list[_Found]:
    """Drop unknowns/backs that sit on a read card's anchor and mostly share its
    outline (the same paper).  A back that a read card lies across, its index
    on the back, stays."""
    keep = []
    for f in found:
        if f.kind in ("unknown", "face_down") and f.back is None:
            if any(
                o is not f
                and o.kind in ("card", "marker")
                and any(inside(a, f.outline) for a in o.anchors)
                and overlap_area(o.outline, f.outline) > 0.5 * CARD_AREA
                for o in found
            ):
                continue
        keep.append(f)
    return keep


def _merge_rois(rois):
    rois = list(rois)
    merged = True
    while merged:
        merged = False
        for i in range(len(rois)):
            for j in range(i + 1, len(rois)):
                a, b = rois[i], rois[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    rois[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    rois.pop(j)
                    merged = True
                    break
            if merged:
                break
    return rois
