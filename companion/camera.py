"""Thin, optional wiring from the camera (the ``vision`` package) to a table's referee.

Frames come from ``vision.sources.open_source(spec)`` through a
``vision.grabber.FrameGrabber`` (always the newest frame: a slow pipeline skips
frames instead of lagging); ``vision.pipeline.VisionPipeline.process`` reads
each into sightings and ``vision.stability.StabilityFilter`` lets through only
a table that held still for a few frames.  This module turns vision's
sightings into the plain ``engines.core`` values (each placed in a zone of the
game's mat layout), compares consecutive stable tables, stores the frame that
completed each change as evidence (JPEG, by SHA-256), and hands the changes to
the referee, which asks the game's adapter for the moves.

With no camera (``--camera none``, none found, or vision absent) the table runs
in manual-entry mode: the awaited move is entered on the table page or the
acting phone and validated the same way.  The simulated camera runs only when
asked (``--camera sim``, the demo).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

from engines.core import FACE_DOWN, UNKNOWN, MatLayout, Sighting, TableSnapshot, ZoneChange

log = logging.getLogger(__name__)


def diff(before: TableSnapshot | None, after: TableSnapshot) -> list[ZoneChange]:
    """Cards placed, removed, flipped or moved between two stable snapshots."""
    old = Counter((s.card, s.zone) for s in (before.sightings if before else ()))
    new = Counter((s.card, s.zone) for s in after.sightings)
    removed = list((old - new).elements())
    placed = list((new - old).elements())
    changes: list[ZoneChange] = []
    for card, zone in list(placed):
        # The same card leaving one zone and appearing in another is a move, not two changes.
        match = next(((c, z) for c, z in removed if c == card and c not in (FACE_DOWN, UNKNOWN)), None)
        if match is not None:
            removed.remove(match)
            placed.remove((card, zone))
            changes.append(ZoneChange("moved", card, zone, from_zone=match[1]))
    for card, zone in list(placed):
        # A face-down card turned over in place is a flip (the card is revealed where it lay).
        if (FACE_DOWN, zone) in removed and card not in (FACE_DOWN, UNKNOWN):
            removed.remove((FACE_DOWN, zone))
            placed.remove((card, zone))
            changes.append(ZoneChange("flipped", card, zone))
    for card, zone in removed:
        changes.append(ZoneChange("removed", card, zone))
    for card, zone in placed:
        changes.append(ZoneChange("placed", card, zone))
    return changes


def to_core(sightings: Any, layout: MatLayout | None) -> TableSnapshot:
    """vision's sightings -> engines.core sightings, each in the mat zone under its centre."""
    out = []
    for vs in sightings:
        label = vs.label
        if vs.kind == "face_down":
            card, back = FACE_DOWN, vs.back
        elif vs.kind == "unknown":
            card, back = UNKNOWN, None
        else:
            card, back = label, None
        outline = vs.outline_mm if vs.outline_mm is not None else vs.outline_px
        x = sum(p[0] for p in outline) / len(outline)
        y = sum(p[1] for p in outline) / len(outline)
        zone = layout.zone_at(x, y) if (layout is not None and vs.outline_mm is not None) else None
        out.append(Sighting(card, zone.id if zone else None, x, y, confidence=float(vs.confidence),
                            layer=int(vs.stack_level), back=back))
    return TableSnapshot(tuple(out))


class CameraLink:
    """A thread that reads frames and feeds a referee; :meth:`open` returns None in manual-entry mode."""

    def __init__(self, grabber: Any, pipeline: Any, stability: Any, layout: MatLayout | None,
                 feed: Callable[[list[ZoneChange], TableSnapshot, str | None], Any], store: Any):
        self.grabber, self.pipeline, self.stability, self.layout = grabber, pipeline, stability, layout
        self.feed, self.store = feed, store
        self.last: TableSnapshot | None = None
        self.mat_seen = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    @classmethod
    def open(cls, spec: str, feed: Callable[[list[ZoneChange], TableSnapshot, str | None], Any], store: Any,
             layout: MatLayout | None = None) -> CameraLink | None:
        """``feed(changes, snapshot, evidence_hash)`` receives each stable change."""
        if not spec or spec == "none":
            return None
        try:
            from vision.grabber import FrameGrabber
            from vision.pipeline import VisionPipeline
            from vision.sources import open_source
            from vision.stability import StabilityFilter
        except ImportError as exc:
            log.warning("no camera: the vision package is not available (%s); manual-entry mode", exc)
            return None
        try:
            grabber = FrameGrabber(open_source(spec))
            link = cls(grabber, VisionPipeline(), StabilityFilter(), layout, feed, store)
        except Exception as exc:  # no camera found: manual entry, never a silent simulation
            log.warning("no camera (%s): manual-entry mode", exc)
            return None
        link._thread.start()
        return link

    def _run(self) -> None:
        index = 0
        while not self._stop.is_set():
            frame = self.grabber.wait_newer(index, timeout=1.0)
            if frame is None:
                if self.grabber.ended.is_set():
                    log.warning("the camera stopped (%s)", self.grabber.error or "end of source")
                    return
                continue
            index = frame.index
            try:
                result = self.pipeline.process(frame.image)
                self.mat_seen = bool(getattr(result, "mat_seen", False))
                stable = self.stability.update(result)
            except Exception:
                log.exception("vision failed on frame %d", index)
                continue
            if stable is None:
                continue
            snapshot = to_core(stable.sightings, self.layout)
            changes = diff(self.last, snapshot)
            self.last = snapshot
            if changes:
                self.feed(changes, snapshot, self._evidence(frame.image))

    def _evidence(self, image: Any) -> str | None:
        try:
            import cv2

            ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
            return self.store.put_evidence(jpeg.tobytes()) if ok else None
        except Exception:
            log.exception("could not keep the evidence frame")
            return None

    def close(self) -> None:
        self._stop.set()
        self.grabber.stop()
        self._thread.join(2)
