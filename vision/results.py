"""What vision reports for one frame: sightings with outlines and stacking."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np


@dataclass(frozen=True)
class Sighting:
    """One thing on the table.  ``kind``:

    - ``"card"``: a face-up standard card read from its corner index (``rank``, ``suit``);
    - ``"face_down"``: a card back (``back`` says what a marked back says, e.g. "striking");
    - ``"marker"``: a printed card, ``marker_id`` from its ArUco marker;
    - ``"unknown"``: card-like but unreadable; never guessed.

    ``outline_px`` is the whole card (4 corners, extrapolated from the visible
    corner when the rest is covered), ``outline_mm`` the same on the mat (None
    without a mat).  ``anchors_px`` are where it was read (index corners or
    marker centres).  ``above``: ids of sightings this one lies on top of;
    ``overlaps``: ids whose outlines it intersects.  ``stack_level``: 0 at the
    bottom of its pile."""

    id: int
    kind: str
    confidence: float
    outline_px: tuple[tuple[float, float], ...]
    outline_mm: tuple[tuple[float, float], ...] | None = None
    anchors_px: tuple[tuple[float, float], ...] = ()
    rank: str | None = None
    suit: str | None = None
    marker_id: int | None = None
    back: str | None = None
    overlaps: tuple[int, ...] = ()
    above: tuple[int, ...] = ()
    stack_level: int = 0

    @property
    def label(self) -> str:
        """Identity for tracking: "QH", "face_down", "face_down:striking", "marker:412", "unknown"."""
        from .glyphs import card_code

        if self.kind == "card":
            return card_code(self.rank, self.suit)
        if self.kind == "marker":
            return f"marker:{self.marker_id}"
        if self.kind == "face_down":
            return f"face_down:{self.back}" if self.back else "face_down"
        return "unknown"

    @property
    def centre_px(self) -> tuple[float, float]:
        a = np.array(self.outline_px)
        return float(a[:, 0].mean()), float(a[:, 1].mean())

    @property
    def centre_mm(self) -> tuple[float, float] | None:
        if self.outline_mm is None:
            return None
        a = np.array(self.outline_mm)
        return float(a[:, 0].mean()), float(a[:, 1].mean())

    def to_json(self) -> dict:
        d: dict = {"id": self.id}
        if self.kind == "card":
            d.update(rank=self.rank, suit=self.suit)
        elif self.kind == "face_down":
            d["face_down"] = True
            if self.back:
                d["back"] = self.back
        elif self.kind == "marker":
            d["marker"] = self.marker_id
        else:
            d["unknown"] = True
        d["confidence"] = round(self.confidence, 3)
        d["outline_px"] = [[round(x, 1), round(y, 1)] for x, y in self.outline_px]
        if self.outline_mm is not None:
            d["outline_mm"] = [[round(x, 1), round(y, 1)] for x, y in self.outline_mm]
        d["read_at_px"] = [[round(x, 1), round(y, 1)] for x, y in self.anchors_px]
        d["overlaps"] = list(self.overlaps)
        d["above"] = list(self.above)
        d["stack_level"] = self.stack_level
        return d


@dataclass
class FrameResult:
    """Everything seen in one frame.  ``to_mat`` (3x3, image px -> mat mm) is set
    when the mat is calibrated."""

    sightings: list[Sighting]
    size: tuple[int, int]  # (width, height)
    to_mat: np.ndarray | None = None
    index: int = 0
    clear: np.ndarray | None = field(default=None, repr=False)  # bare-table mask, reduced size
    clear_scale: float = 1.0  # frame px -> clear-mask px

    @property
    def mat_seen(self) -> bool:
        return self.to_mat is not None

    def clear_fraction(self, outline_px) -> float:
        """Share of ``outline_px`` that shows the bare table in this frame (1 = the
        card there is gone; low = something, e.g. a hand, covers the place)."""
        if self.clear is None:
            return 1.0
        poly = np.round(np.array(outline_px, np.float32) * self.clear_scale).astype(np.int32)
        m = np.zeros_like(self.clear)
        cv2.fillConvexPoly(m, poly, 1)
        n = int(m.sum())
        if n == 0:
            return 1.0
        return float((self.clear & m).sum()) / n

    def to_json(self) -> dict:
        return {
            "size": list(self.size),
            "mat": self.mat_seen,
            "cards": [s.to_json() for s in self.sightings],
        }
