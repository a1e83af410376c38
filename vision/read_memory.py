"""Index readings kept from frame to frame where the table did not change
(#7).

While play goes on, a hand is somewhere over the table in most frames, so a
frame is seldom the last one again (``VisionPipeline(reuse_static=True)``
reuses only a frame that is the same all over), yet most of the table is:
the cards away from the hand lie as they lay.  Reading index patches is the
costliest part of a frame (a 12-card 720p frame reads 40-odd corner
patches and a dozen more placed by the edge-free finder and the sibling
step).  So the pipeline keeps what each place read to, with the frame's
thumbnail (one pixel a 16x16 block's mean) under its patches then, and a
place looked at again in a later frame (a paper corner found again, or a
patch placed again) at the same point (within ``MATCH_PX`` frame pixels),
running the same ways (within ``MATCH_DEG``) and at the same frame scale
(within ``MATCH_SCALE``) gets that outcome again, read or declined, as long
as no block under its patches (``Look.box``) differs from what it was when
the place was read by more than camera noise: the test a whole still frame
gets, block by block.  A card put down, taken, turned or touched changes
its blocks and is read anew; so does a place under a slow change (a lamp
dimming), as the blocks are compared with the frame it was read in, not
the last one.  A place no frame asks for in ``MAX_AGE`` frames is dropped
(a corner the mask finds in one frame and not the next comes back to its
outcome).

Declines are kept as reads are.  Keeping only reads (a near miss read again
in every frame, with that frame's noise) ratchets: 100 generated 10-frame
sweeps of a hand found 24 cards more than reading every frame in full, 12
of them misread.  Kept alike, an outcome is one draw, as a still frame's
whole result is (docs/vision.md, session 43).

Everything is kept in frame pixels, not plane millimetres, so a mat
re-check or the no-mat scale moving a little costs only the places whose
frame scale moved past ``MATCH_SCALE``.  A paper corner's two edges may
come back the other way round: its outcome's directions are given back as
this frame's edges that run the same ways, and this frame's corner places
the card.

The pipeline keeps a number card's check against its pips the same way
(its box the whole card, its kind the reading and what lies on the card).

Pure bookkeeping: the pipeline reads; this says when it need not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

#: a place looked at within this many frame pixels of one kept is the same place
MATCH_PX = 2.5
#: ... with its directions turned by at most this many degrees ...
MATCH_DEG = 6.0
#: ... and frame pixels per plane millimetre within this share
MATCH_SCALE = 0.01
#: an outcome not asked for in this many frames is dropped (each holds its declined patches)
MAX_AGE = 10
#: side of the blocks a thumbnail pixel stands for (frame px; the pipeline's still-frame thumbnail's)
BLOCK = 16


@dataclass(frozen=True)
class Look:
    """Where and how a place is read, in frame pixels: its point, the frame
    directions it is read along (unit vectors), frame pixels per plane mm
    along each, the box its patches may cover, and what else decides the
    read (``kind``: which step, a corner's notch)."""

    point: np.ndarray
    dirs: np.ndarray  # 2 x 2: the two directions in the frame
    scale: np.ndarray  # 2: frame px per plane mm along each
    box: tuple[float, float, float, float]  # x0, y0, x1, y1: what its patches may cover
    kind: tuple


@dataclass
class _Kept:
    look: Look
    outcome: Any  # what the pipeline made of it; directions as indices into ``look.dirs``
    blocks: tuple[int, int, int, int]  # the thumbnail's blocks under its patches (x0, y0, x1, y1, inclusive)
    seen: np.ndarray  # the thumbnail there when it was read
    asked: int  # the frame it was last asked for


class ReadMemory:
    """Outcomes of places read in earlier frames.  :meth:`begin` starts a
    frame with its thumbnail; :meth:`recall` and :meth:`keep` are asked per
    place; :meth:`end` closes the frame."""

    def __init__(self, levels: int = 6) -> None:
        #: a thumbnail pixel (a block's mean) may differ by this many grey levels (camera noise)
        self.levels = levels
        self._kept: list[_Kept] = []
        self._new: list[_Kept] = []
        self._points = np.zeros((0, 2))
        self._thumb: np.ndarray | None = None
        self._block = (float(BLOCK), float(BLOCK))  # frame px per thumbnail pixel, x and y
        self._frame = 0
        self.recalled = 0
        self.read = 0

    def begin(self, thumb: np.ndarray | None, frame_size: tuple[int, int] = (0, 0), forget: bool = False) -> None:
        """A new frame of ``frame_size`` (w, h) and its ``thumb`` (each pixel
        a block's mean; None: nothing is kept or recalled).  ``forget``, no
        thumbnail, or one of another size than the kept outcomes' forgets
        them (another lamp cast, another camera size)."""
        self._frame += 1
        if forget or thumb is None or (self._thumb is not None and self._thumb.shape != thumb.shape):
            self._kept = []
        self._thumb = None if thumb is None else thumb.astype(np.int16)
        if thumb is not None:
            self._block = (frame_size[0] / thumb.shape[1], frame_size[1] / thumb.shape[0])
        self._points = np.array([k.look.point for k in self._kept]).reshape(-1, 2)
        self._new = []

    def end(self) -> None:
        """The frame is processed: what it read joins what is kept, and what
        no frame asked for in ``MAX_AGE`` frames is dropped."""
        self._kept = [k for k in self._kept if self._frame - k.asked < MAX_AGE] + self._new
        self._new = []

    def recall(self, look: Look) -> tuple[Any, tuple[int, int]] | None:
        """The kept outcome for a place looked at as ``look``, and for each of
        the kept look's directions the index of this look's direction that
        runs the same way; None when there is none, or the thumbnail under
        its patches is no longer what it was when it was read.  Only
        outcomes of earlier frames are given (a frame read once is read as
        it would be with nothing kept)."""
        if self._thumb is None or not len(self._points):
            return None
        near = np.flatnonzero(np.hypot(*(self._points - look.point).T) <= MATCH_PX)
        cos = np.cos(np.radians(MATCH_DEG))
        for i in near.tolist():
            kept = self._kept[i]
            k = kept.look
            if k.kind != look.kind:
                continue
            # each kept direction onto the one of this look that runs the same way
            dots = k.dirs @ look.dirs.T
            a, b = int(np.argmax(dots[0])), int(np.argmax(dots[1]))
            if a == b or dots[0, a] < cos or dots[1, b] < cos:
                continue
            if abs(k.scale[0] / look.scale[a] - 1) > MATCH_SCALE or abs(k.scale[1] / look.scale[b] - 1) > MATCH_SCALE:
                continue
            x0, y0, x1, y1 = kept.blocks
            now = self._thumb[y0 : y1 + 1, x0 : x1 + 1]
            if now.shape != kept.seen.shape or int(np.abs(now - kept.seen).max(initial=0)) > self.levels:
                continue
            kept.asked = self._frame
            self.recalled += 1
            return kept.outcome, (a, b)
        return None

    def keep(self, look: Look, outcome: Any) -> None:
        """What a place read to in this frame, its directions as indices into ``look.dirs``."""
        if self._thumb is None:
            return
        h, w = self._thumb.shape[:2]
        x0, y0 = max(int(look.box[0] // self._block[0]), 0), max(int(look.box[1] // self._block[1]), 0)
        x1, y1 = min(int(look.box[2] // self._block[0]), w - 1), min(int(look.box[3] // self._block[1]), h - 1)
        seen = self._thumb[y0 : y1 + 1, x0 : x1 + 1].copy()
        self._new.append(_Kept(look, outcome, (x0, y0, x1, y1), seen, self._frame))
        self.read += 1
