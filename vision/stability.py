"""The stability filter: only sightings that stayed the same for N consecutive
frames leave vision, so a hand passing over the table produces nothing.

A card that disappears is reported removed only when its place shows the bare
table, or another card, for N frames; while something else (a hand) covers the
place, the card is held.  Another card counts because a card turned over where
it lay (a sealed card revealed) or the top of a pile taken (the card below now
shows) never leaves a bare place.  Default N = 5 frames: about 150 ms at 30 fps."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from .results import FrameResult, Sighting

DEFAULT_FRAMES = 5


@dataclass
class _Track:
    key: int
    """The filter's own serial number.  Not ``id()``: CPython hands a new track the address of one
    dropped in the same frame, and a card taken while another was laid then looked like no change."""
    label: str
    sighting: Sighting
    seen: int = 1
    missing: int = 0
    stable: bool = False


@dataclass(frozen=True)
class StableSnapshot:
    """The stable table after a change.  ``sightings`` is everything that is
    stable now; ``added``/``removed`` are what changed since the last
    snapshot; ``result`` is the frame that completed it (for evidence)."""

    sightings: tuple[Sighting, ...]
    added: tuple[Sighting, ...]
    removed: tuple[Sighting, ...]
    frame_index: int
    result: FrameResult = field(repr=False, compare=False)

    def to_json(self) -> dict:
        return {
            "frame": self.frame_index,
            "cards": [s.to_json() for s in self.sightings],
            "added": [s.label for s in self.added],
            "removed": [s.label for s in self.removed],
        }


def _where(s: Sighting) -> np.ndarray:
    """Position used to follow a sighting: mat mm when known, else pixels."""
    return np.array(s.centre_mm if s.outline_mm is not None else s.centre_px)


def _replaced(gone: Sighting, result: FrameResult) -> bool:
    """Another card is seen where ``gone`` lay: its centre within half of ``gone``'s short side.

    A hand is no card, so a hand over a card still holds it; a card laid on a staggered stack sits a
    stagger (25 mm) away from the card below, whose visible index keeps that card matched anyway.
    """
    outline = np.asarray(gone.outline_px, dtype=float)
    if outline.shape != (4, 2):
        return False
    centre = outline.mean(axis=0)
    side = min(np.linalg.norm(outline[1] - outline[0]), np.linalg.norm(outline[3] - outline[0]))
    return any(s.label != gone.label and np.linalg.norm(np.asarray(s.centre_px, dtype=float) - centre) < side / 2
               for s in result.sightings)


class StabilityFilter:
    """Feed every :class:`FrameResult` to :meth:`update`; it returns a
    :class:`StableSnapshot` when the stable set changed, else None.

    ``frames``: consecutive frames a change must last.  ``tolerance_mm`` /
    ``tolerance_px``: how far a card may drift and stay the same card.
    ``clear_needed``: share of a vanished card's outline that must show bare
    table before the card counts as removed."""

    def __init__(self, frames: int = DEFAULT_FRAMES, tolerance_mm: float = 12.0, tolerance_px: float = 25.0, clear_needed: float = 0.7) -> None:
        if frames < 1:
            raise ValueError("frames must be at least 1")
        self.frames = frames
        self.tolerance_mm = tolerance_mm
        self.tolerance_px = tolerance_px
        self.clear_needed = clear_needed
        self._tracks: list[_Track] = []
        self._keys = itertools.count()
        self._published: dict[int, Sighting] = {}

    def stable(self) -> list[Sighting]:
        return [t.sighting for t in self._tracks if t.stable]

    def update(self, result: FrameResult) -> StableSnapshot | None:
        unmatched = list(result.sightings)
        for t in self._tracks:
            tol = self.tolerance_mm if t.sighting.outline_mm is not None else self.tolerance_px
            best, best_d = None, tol
            for s in unmatched:
                if s.label != t.label or (s.outline_mm is None) != (t.sighting.outline_mm is None):
                    continue
                d = float(np.linalg.norm(_where(s) - _where(t.sighting)))
                if d <= best_d:
                    best, best_d = s, d
            if best is not None:
                unmatched.remove(best)
                t.sighting = best
                t.seen += 1
                t.missing = 0
                if t.seen >= self.frames:
                    t.stable = True
            else:
                t.seen = 0
                if result.clear_fraction(t.sighting.outline_px) >= self.clear_needed or _replaced(t.sighting, result):
                    t.missing += 1
                elif not t.stable:
                    t.missing += 1  # never confirmed: let it go
        self._tracks = [t for t in self._tracks if t.missing < (self.frames if t.stable else 1)]
        self._tracks += [_Track(next(self._keys), s.label, s, stable=self.frames <= 1) for s in unmatched]
        now = {t.key: t.sighting for t in self._tracks if t.stable}
        before_ids = set(self._published)
        now_ids = set(now)
        if before_ids == now_ids:
            # same tracks; refresh the sightings silently (small drift)
            self._published = now
            return None
        added = tuple(now[i] for i in now_ids - before_ids)
        removed = tuple(self._published[i] for i in before_ids - now_ids)
        self._published = now
        return StableSnapshot(tuple(now.values()), added, removed, result.index, result)
