"""Thin, optional wiring from the camera (the ``vision`` package) to a table's referee.

Frames come from ``vision.sources.open_source(spec)`` through a
``vision.grabber.FrameGrabber``; ``vision.pipeline.VisionPipeline.process``
turns a frame into a TableSnapshot and ``vision.stability.StabilityFilter``
lets through only snapshots stable for a few frames.  This module compares
consecutive stable snapshots, turns the differences into the ZoneChange values
of engines.core, stores the frame as evidence, and hands them to the referee.

With no camera (``--camera none``, none found, or vision absent) the table runs
in manual-entry mode: the awaited move is entered on the table page or the
acting phone and validated the same way.  The simulated camera runs only when
asked (``--camera sim``, the demo).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from typing import Any

from engines.core import TableSnapshot, ZoneChange

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
        match = next(((c, z) for c, z in removed if c == card and c not in ("face-down", "unknown")), None)
        if match is not None:
            removed.remove(match)
            placed.remove((card, zone))
            changes.append(ZoneChange("moved", card, zone, from_zone=match[1]))
    for card, zone in list(placed):
        # A face-down card turned over in place is a flip (the card is revealed where it lay).
        if ("face-down", zone) in removed and card not in ("face-down", "unknown"):
            removed.remove(("face-down", zone))
            placed.remove((card, zone))
            changes.append(ZoneChange("flipped", card, zone))
    for card, zone in removed:
        changes.append(ZoneChange("removed", card, zone))
    for card, zone in placed:
        changes.append(ZoneChange("placed", card, zone))
    return changes


class CameraLink:
    """A thread that reads frames and feeds a referee; ``open`` returns None in manual-entry mode."""

    def __init__(self, source: Any, pipeline: Any, stability: Any, feed: Any, store: Any):
        self.source, self.pipeline, self.stability = source, pipeline, stability
        self.feed, self.store = feed, store
        self.last: TableSnapshot | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    @classmethod
    def open(cls, spec: str, feed: Any, store: Any) -> CameraLink | None:
        """``feed(changes, snapshot, evidence_hash)`` receives each stable change."""
        if not spec or spec == "none":
            return None
        try:
            from vision.grabber import FrameGrabber
            from vision.sources import open_source
            from vision.stability import StabilityFilter

            from vision.pipeline import VisionPipeline
        except ImportError as exc:
            log.warning("no camera: the vision package is not available (%s); manual-entry mode", exc)
            return None
        try:
            grabber = FrameGrabber(open_source(spec))
            link = cls(grabber, VisionPipeline(), StabilityFilter(), feed, store)
        except Exception as exc:  # no camera found: manual entry, never a silent simulation
            log.warning("no camera (%s): manual-entry mode", exc)
            return None
        link._thread.start()
        return link

    def _frames(self):
        reader = getattr(self.source, "frames", None)
        if callable(reader):
            yield from reader()
            return
        while not self._stop.is_set():
            frame = self.source.read() if hasattr(self.source, "read") else None
            if frame is None:
                return
            yield frame

    def _run(self) -> None:
        for frame in self._frames():
            if self._stop.is_set():
                return
            try:
                snapshot = self.pipeline.process(frame)
                stable = self.stability.update(snapshot) if hasattr(self.stability, "update") else snapshot
            except Exception:
                log.exception("vision failed on a frame")
                continue
            if not isinstance(stable, TableSnapshot):
                continue
            changes = diff(self.last, stable)
            self.last = stable
            if not changes:
                continue
            evidence = self._evidence(frame)
            self.feed(changes, stable, evidence)

    def _evidence(self, frame: Any) -> str | None:
        try:
            import cv2

            ok, jpeg = cv2.imencode(".jpg", frame)
            return self.store.put_evidence(jpeg.tobytes()) if ok else None
        except Exception:
            return None

    def close(self) -> None:
        self._stop.set()
        stop = getattr(self.source, "stop", None) or getattr(self.source, "close", None)
        if callable(stop):
            stop()
