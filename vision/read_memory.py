"""Index readings kept from one frame to the next where the table did not
change (#7).

While play goes on, a hand is somewhere over the table in most frames, so a
frame is seldom the last one again (``VisionPipeline(reuse_static=True)``
reuses only a frame that is the same all over), yet most of the table is:
the cards away from the hand lie as they lay.  Reading index patches is the
costliest part of a frame (a 12-card 720p frame reads 40-odd corner
patches and a dozen more placed by the edge-free finder and the sibling
step).  So the pipeline keeps what each place read to in the frame it last
processed, and a place looked at again in the next frame (a paper corner
found again, or a patch placed again) at the same point (within
``MATCH_PX`` frame pixels), running the same ways (within ``MATCH_DEG``)
and at the same frame scale (within ``MATCH_SCALE``) gets that outcome
again, read or declined, provided no 16x16 block of the frame changed by
more than camera noise anywhere its patches may reach (``Look.box``: the
same test as a whole still frame's).  A card put down, taken, turned or
touched changes its blocks and is read anew.

Declines are kept as reads are.  Keeping only reads (a near miss read again
in every frame, with that frame's noise) ratchets: 100 generated 10-frame
sweeps of a hand found 24 cards more than reading every frame in full, 12
of them misread.  Kept alike, an outcome is one draw, as a still frame's
whole result is: 5291 found / 89 misread against 5294 / 86 (session 43,
docs/vision.md).

Everything is kept in frame pixels, not plane millimetres, so a mat
re-check or the no-mat scale moving a little costs only the places whose
frame scale moved past ``MATCH_SCALE``.  A paper corner's two edges may
come back the other way round: its outcome's directions are given back as
this frame's edges that run the same ways, and this frame's corner places
the card.

Pure bookkeeping: the pipeline reads; this says when it need not."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

#: a corner found within this many frame pixels of one kept is the same corner
MATCH_PX = 2.5
#: ... with edges turned by at most this many degrees ...
MATCH_DEG = 6.0
#: ... and frame pixels per plane millimetre within this share
MATCH_SCALE = 0.01
#: side of the blocks the change map is made of (frame px; the pipeline's still-frame thumbnail's)
BLOCK = 16


@dataclass(frozen=True)
class Look:
    """Where and how a corner was read, in frame pixels: its point, the frame
    directions of its two edges (unit vectors), frame pixels per plane mm
    along each, the box its patches may cover, and what else decided the
    read (``kind``: notched, unmirrored)."""

    point: np.ndarray
    dirs: np.ndarray  # 2 x 2: the two edges' frame directions
    scale: np.ndarray  # 2: frame px per plane mm along each edge
    box: tuple[float, float, float, float]  # x0, y0, x1, y1: what its patches may cover
    kind: tuple


@dataclass(frozen=True)
class Kept:
    look: Look
    #: what the pipeline made of it; directions as indices into ``look.dirs``
    outcome: Any


class ReadMemory:
    """The corner outcomes of the frame last processed, for the next one.
    :meth:`begin` starts a frame with the blocks that changed since then;
    :meth:`recall` and :meth:`keep` are asked per corner."""

    def __init__(self) -> None:
        self._last: list[Kept] = []
        self._now: list[Kept] = []
        self._changed: np.ndarray | None = None  # per block: changed since the kept frame
        self._block = (float(BLOCK), float(BLOCK))  # frame px per block, x and y
        self._points = np.zeros((0, 2))
        self.recalled = 0
        self.read = 0

    def begin(self, changed: np.ndarray | None, frame_size: tuple[int, int] = (0, 0)) -> None:
        """A new frame of ``frame_size`` (w, h): ``changed`` is the per-block
        change map against the frame the kept outcomes come from (True:
        changed; :func:`change_map`), or None when none may be used (the
        first frame, another size, another lamp cast)."""
        self._changed = changed
        if changed is not None:
            self._block = (frame_size[0] / changed.shape[1], frame_size[1] / changed.shape[0])
        if changed is None:
            self._last = []
        self._points = np.array([k.look.point for k in self._last]).reshape(-1, 2)
        self._now = []

    def end(self) -> None:
        """The frame is processed: what it read or recalled is kept for the next."""
        self._last, self._now = self._now, []
        self._changed = None

    def forget(self) -> None:
        self._last, self._now, self._changed = [], [], None
        self._points = np.zeros((0, 2))

    def recall(self, look: Look) -> tuple[Any, tuple[int, int]] | None:
        """The kept outcome for a corner seen as ``look``, and for each of
        the kept look's directions the index of this look's direction that
        runs the same way; None when there is none or the table changed
        within its reach."""
        if self._changed is None or not len(self._points):
            return None
        near = np.flatnonzero(np.hypot(*(self._points - look.point).T) <= MATCH_PX)
        cos = np.cos(np.radians(MATCH_DEG))
        for i in near.tolist():
            kept = self._last[i]
            k = kept.look
            if k.kind != look.kind or not _unchanged(self._changed, _union(k.box, look.box), self._block):
                continue
            # each kept direction onto the one of this look that runs the same way
            dots = k.dirs @ look.dirs.T
            a, b = int(np.argmax(dots[0])), int(np.argmax(dots[1]))
            if a == b or dots[0, a] < cos or dots[1, b] < cos:
                continue
            if abs(k.scale[0] / look.scale[a] - 1) > MATCH_SCALE or abs(k.scale[1] / look.scale[b] - 1) > MATCH_SCALE:
                continue
            self._now.append(Kept(Look(look.point, look.dirs[[a, b]], look.scale[[a, b]], look.box, look.kind), kept.outcome))
            self.recalled += 1
            return kept.outcome, (a, b)
        return None

    def keep(self, look: Look, outcome: Any) -> None:
        """What a corner read to this frame, its directions as indices into ``look.dirs``."""
        self._now.append(Kept(look, outcome))
        self.read += 1


def change_map(thumb: np.ndarray, last: np.ndarray | None, levels: int) -> np.ndarray | None:
    """Per block of the thumbnails (each pixel a ``BLOCK`` x ``BLOCK`` block
    of the frame): whether it changed by more than ``levels`` grey levels in
    any colour; None when there is no last thumbnail of that size."""
    if last is None or last.shape != thumb.shape:
        return None
    diff = np.abs(thumb.astype(np.int16) - last.astype(np.int16))
    return (diff.max(axis=2) if diff.ndim == 3 else diff) > levels


def _union(a, b) -> tuple[float, float, float, float]:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _unchanged(changed: np.ndarray, box, block: tuple[float, float]) -> bool:
    """Whether no block under ``box`` (frame px) changed (a box beyond the
    map's edge is cut off: no block there to change)."""
    h, w = changed.shape
    x0, y0 = max(int(box[0] // block[0]), 0), max(int(box[1] // block[1]), 0)
    x1, y1 = min(int(box[2] // block[0]), w - 1), min(int(box[3] // block[1]), h - 1)
    if x1 < x0 or y1 < y0:
        return True
    return not bool(changed[y0 : y1 + 1, x0 : x1 + 1].any())
