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
import math
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.core import FACE_DOWN, UNKNOWN, MatLayout, Sighting, TableSnapshot, ZoneChange

log = logging.getLogger(__name__)
MARKED_BACKS = ("two-freakin-swords",)
"""Games whose printed backs carry a marker that says the card's side (docs/printing.md)."""


def diff(before: TableSnapshot | None, after: TableSnapshot) -> list[ZoneChange]:
    """Cards placed, removed, flipped or moved between two stable snapshots.

    Sightings are compared by (card, zone, back): a card drifting within its
    zone is no change.  A known card leaving one zone for another is a move; a
    back replaced by a known card in the same zone is a flip.
    """
    old = Counter((s.card, s.zone, s.back) for s in (before.sightings if before else ()))
    new = Counter((s.card, s.zone, s.back) for s in after.sightings)
    removed = list((old - new).elements())
    placed = list((new - old).elements())
    changes: list[ZoneChange] = []
    for card, zone, back in list(placed):
        # The same card leaving one zone and appearing in another is a move, not two changes.
        match = next(((c, z, b) for c, z, b in removed if c == card and c not in (FACE_DOWN, UNKNOWN)), None)
        if match is not None:
            removed.remove(match)
            placed.remove((card, zone, back))
            changes.append(ZoneChange("moved", card, zone, from_zone=match[1]))
    for card, zone, back in list(placed):
        # A face-down card turned over in place is a flip (the card is revealed where it lay).
        down = next(((c, z, b) for c, z, b in removed if c == FACE_DOWN and z == zone), None)
        if down is not None and card not in (FACE_DOWN, UNKNOWN):
            removed.remove(down)
            placed.remove((card, zone, back))
            changes.append(ZoneChange("flipped", card, zone, back=down[2]))
    for card, zone, back in removed:
        changes.append(ZoneChange("removed", card, zone, back=back))
    for card, zone, back in placed:
        changes.append(ZoneChange("placed", card, zone, back=back))
    return changes


def card_of_marker(marker_id: int | None, game_id: str | None) -> tuple[str, str | None]:
    """A vision marker id -> (``Sighting.card``, ``back``), docs/printing.md.

    A printed card's id becomes ``printed:<index>`` (its place in print order
    across the game's ranges, ``vision.markers.printed_index``), a card-back
    marker becomes a face-down card whose ``back`` says what the back says.  With ``game_id`` only that game's range counts; an
    id of another game's range (a stray card from another box) is UNKNOWN.
    """
    if marker_id is None:
        return UNKNOWN, None
    from vision.markers import back_meaning, marker_range, printed_index

    found = marker_range(int(marker_id))
    if found is None or found.kind == "mat":
        return UNKNOWN, None
    if found.kind == "back":
        return FACE_DOWN, back_meaning(int(marker_id))
    printed = printed_index(int(marker_id))  # the index counts through a game's split ranges
    if printed is None or (game_id is not None and printed[0] != game_id):
        return UNKNOWN, None
    return f"printed:{printed[1]}", None


def _angle(outline: Any) -> float:
    """Degrees of the card's top edge (first two corners), 0 = upright on the mat."""
    (x0, y0), (x1, y1) = outline[0], outline[1]
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def to_core(sightings: Any, layout: MatLayout | None, game_id: str | None = None) -> TableSnapshot:
    """vision's sightings -> engines.core sightings, in mat millimetres, each in the mat zone under its centre.

    Face-up standard cards keep vision's id (``QH``, ``10S``); printed cards and
    marked backs are converted by :func:`card_of_marker`; a plain back is
    FACE_DOWN (``back`` from vision when it says one); anything unread is UNKNOWN.
    Without a calibrated mat a sighting has pixel coordinates and no zone.
    """
    out = []
    for vs in sightings:
        back = None
        if vs.kind == "face_down":
            card, back = FACE_DOWN, vs.back
        elif vs.kind == "marker":
            card, back = card_of_marker(vs.marker_id, game_id)
        elif vs.kind == "card":
            card = vs.label
        elif vs.kind == "taught":
            card = vs.label  # "taught:<name>": a commercial card vision learned (docs/vision-teach.md)
        else:
            card = UNKNOWN
        outline = vs.outline_mm if vs.outline_mm is not None else vs.outline_px
        x = sum(p[0] for p in outline) / len(outline)
        y = sum(p[1] for p in outline) / len(outline)
        zone = layout.zone_at(x, y) if (layout is not None and vs.outline_mm is not None) else None
        out.append(Sighting(card, zone.id if zone else None, float(x), float(y), angle=_angle(outline),
                            confidence=float(vs.confidence), layer=int(vs.stack_level), back=back))
    return TableSnapshot(tuple(out))


def taught_cards(game_id: str | None) -> Any:
    """The cards taught for ``game_id`` (``vision.feature_cards.load_taught``), or None when none were
    taught (most games: their cards carry a corner index or a printed marker)."""
    if not game_id:
        return None
    try:
        from vision.feature_cards import load_taught

        return load_taught(game_id)
    except (ImportError, ValueError, OSError) as exc:
        log.warning("the taught cards of %s cannot be loaded (%s); they will not be recognised", game_id, exc)
        return None


class FrameReader:
    """One camera's frames -> stable tables -> zone changes (no thread: the caller feeds frames).

    ``read(image)`` runs vision's pipeline and stability filter on one frame and
    returns ``(changes, snapshot)`` when the stable table changed in a way the
    referee should hear about, else None.  CameraLink runs it on a grabber's
    frames; the demo feeds it the frames it renders, one by one.
    """

    def __init__(self, pipeline: Any, stability: Any, layout: MatLayout | None, game_id: str | None = None,
                 taught: Any = None):
        self.pipeline, self.stability, self.layout, self.game_id = pipeline, stability, layout, game_id
        self.taught = taught
        """The game's taught cards (``vision.feature_cards.FeatureCards``) or None: each frame is also matched
        against them and a recognised card becomes ``Sighting(card="taught:<name>")`` in its zone."""
        self.last: TableSnapshot | None = None
        self.mat_seen = False
        self.frames = 0
        self.shown: Shown | None = None
        """The newest frame and what vision saw in it, for the table page (:meth:`view`)."""
        self._times: deque[float] = deque(maxlen=30)
        self._views: dict[int, CameraView] = {}
        self._views_lock = threading.Lock()

    @classmethod
    def create(cls, layout: MatLayout | None, game_id: str | None = None, frames: int | None = None) -> FrameReader:
        """vision's real pipeline and stability filter (``frames``: consecutive frames a change must last),
        and the cards taught for ``game_id`` (``companion vision teach``), if any."""
        from vision.pipeline import VisionPipeline
        from vision.stability import StabilityFilter

        stability = StabilityFilter() if frames is None else StabilityFilter(frames=frames)
        # A marked back is coloured, not paper, and vision looks for markers only on paper unless told
        # to scan the whole frame (without it a Two Freakin' Swords back is read about one time in ten).
        pipeline = VisionPipeline(full_marker_scan=game_id in MARKED_BACKS)
        return cls(pipeline, stability, layout, game_id, taught=taught_cards(game_id))

    def read(self, image: Any) -> tuple[list[ZoneChange], TableSnapshot] | None:
        self.frames += 1
        result = self.pipeline.process(image)
        if self.taught is not None:
            from vision.feature_cards import with_taught

            result = with_taught(result, self.taught.find_all(image, max_side=max(image.shape[:2])))
        self.mat_seen = bool(getattr(result, "mat_seen", False))
        self.shown = Shown(self.frames, image, result)
        self._times.append(time.monotonic())
        stable = self.stability.update(result)
        if stable is None:
            return None
        snapshot = to_core(stable.sightings, self.layout, self.game_id)
        changes = diff(self.last, snapshot)
        self.last = snapshot
        return (changes, snapshot) if changes else None

    def to_mat(self) -> Any:
        """The newest frame's image-to-mat homography (None when the mat is not seen): the evidence crop."""
        shown = self.shown
        return getattr(shown.result, "to_mat", None) if shown is not None else None

    def fps(self) -> float | None:
        """Frames read per second over the last 30 (0 when none came for 3 s, None before two)."""
        times = list(self._times)
        if len(times) < 2:
            return None
        if time.monotonic() - times[-1] > 3.0:
            return 0.0
        return (len(times) - 1) / max(times[-1] - times[0], 1e-6)

    def view(self) -> CameraView | None:
        """The table page's view of the newest frame (made once per frame, when a page asks)."""
        shown = self.shown
        if shown is None:
            return None
        with self._views_lock:
            made = self._views.get(shown.index)
            if made is None:
                made = camera_view(shown, self.layout, self.game_id, getattr(self.pipeline, "detector", None))
                self._views[shown.index] = made
                for old in sorted(self._views)[:-4]:  # a page may still fetch the image of a recent one
                    del self._views[old]
            return made

    def view_at(self, index: int) -> CameraView | None:
        """A recently made view by its frame index (the image that goes with outlines already sent)."""
        with self._views_lock:
            return self._views.get(index)

    def status(self) -> dict:
        """The calibration panel: mat seen, which corner markers, the light, the frame rate."""
        made = self.view()
        out = dict(made.calibration) if made is not None else {"mat_seen": False, "markers": [], "markers_found": 0}
        out.update(frames=self.frames, fps=None if self.fps() is None else round(self.fps(), 1))
        return out


class CameraLink:
    """A thread that reads frames and feeds a referee; :meth:`open` returns None in manual-entry mode."""

    def __init__(self, grabber: Any, reader: FrameReader,
                 feed: Callable[[list[ZoneChange], TableSnapshot, str | None], Any], store: Any):
        self.grabber, self.reader = grabber, reader
        self.feed, self.store = feed, store
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    @property
    def last(self) -> TableSnapshot | None:
        return self.reader.last

    @property
    def mat_seen(self) -> bool:
        return self.reader.mat_seen

    def view(self) -> CameraView | None:
        return self.reader.view()

    def view_at(self, index: int) -> CameraView | None:
        return self.reader.view_at(index)

    def status(self) -> dict:
        return self.reader.status()

    @classmethod
    def open(cls, spec: str, feed: Callable[[list[ZoneChange], TableSnapshot, str | None], Any], store: Any,
             layout: MatLayout | None = None, game_id: str | None = None) -> CameraLink | None:
        """``feed(changes, snapshot, evidence_hash)`` receives each stable change.

        ``game_id`` says whose printed cards are on the table (their marker range,
        docs/printing.md); without it a marker of any card range is read as a
        printed card of that range."""
        if not spec or spec == "none":
            return None
        try:
            from vision.grabber import FrameGrabber
            from vision.sources import open_source

            reader = FrameReader.create(layout, game_id)
        except ImportError as exc:
            log.warning("no camera: the vision package is not available (%s); manual-entry mode", exc)
            return None
        if spec == "auto":
            found = find_camera(open_source)
            if found is None:
                log.info("no camera found: manual-entry mode (moves are entered on the table page and phones)")
                return None
            spec, source = found
        else:
            source = None
        try:
            grabber = FrameGrabber(source if source is not None else open_source(spec))
            link = cls(grabber, reader, feed, store)
        except Exception as exc:  # no camera found: manual entry, never a silent simulation
            log.warning("no camera (%s): manual-entry mode", exc)
            return None
        log.info("camera %s watches the table", spec)
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
                read = self.reader.read(frame.image)
            except Exception:
                log.exception("vision failed on frame %d", index)
                continue
            if read is not None:
                changes, snapshot = read
                self.feed(changes, snapshot, evidence(self.store, frame.image, self.reader.to_mat()))

    def close(self) -> None:
        self._stop.set()
        self.grabber.stop()
        self._thread.join(2)


def find_camera(open_source: Callable[[str], Any]) -> tuple[str, Any] | None:
    """The first video device that opens (``/dev/video0``, ``/dev/video1`` ...), with its open source.

    A USB webcam also shows up as metadata nodes that cannot give frames; those fail to open and are
    passed over.  None when no device gives frames (then the table runs in manual-entry mode).
    """
    import glob
    import re

    def number(path: str) -> int:
        found = re.search(r"(\d+)$", path)
        return int(found.group(1)) if found else 0

    for path in sorted(glob.glob("/dev/video*"), key=number):
        try:
            return path, open_source(path)
        except Exception as exc:
            log.debug("camera %s does not open: %s", path, exc)
    return None


def evidence(store: Any, image: Any, to_mat: Any = None) -> str | None:
    """Keep the mat in ``image``, straightened and cut at its edge, as the JPEG evidence of a change.

    Only the mat is kept so that cards held in players' hands at the table edge
    are never recorded or shown in a dispute.  Without a mat (``to_mat`` None,
    vision's image-to-mat homography) there is no safe crop, so nothing is kept.
    Returns the evidence's SHA-256 key, or None.
    """
    if to_mat is None:
        return None
    try:
        from vision.evidence import evidence_jpeg

        jpeg = evidence_jpeg(image, to_mat)
        return store.put_evidence(jpeg) if jpeg else None
    except Exception:
        log.exception("could not keep the evidence frame")
        return None


# ---- the table page's camera view ------------------------------------------------------------

VIEW_WIDTH = 640
"""Width in pixels of the straightened mat image the table page shows (a tablet's half column)."""
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")
"""The mat's corner markers by id (vision.markers.MAT_IDS, vision.geometry.mat_marker_centres)."""


@dataclass(frozen=True)
class Shown:
    """One frame as read: its number, the image, and vision's FrameResult of it."""

    index: int
    image: Any
    result: Any


@dataclass(frozen=True)
class CameraView:
    """What the table page shows of one frame.

    ``jpeg`` is the mat alone, straightened (its homography from vision) and cut
    at the mat's edge, so the players' hands and anything else around the mat
    never show; None when the mat is not seen (the raw frame is never shown).
    ``cards`` are the cards vision found on the mat: the engine's card id
    (``QH``, ``face-down``, ``printed:12``, ``taught:<name>``, ``unknown``), ``name``
    (what a printed card is in its game, :func:`printed_name`), ``back``, ``zone``, ``confidence`` and ``outline`` (4 corners in mat mm:
    the image is ``size_mm`` wide and high, so mm map to its pixels by a scale).
    ``calibration``: the mat seen, which corner markers, the light.
    """

    index: int
    jpeg: bytes | None
    size_mm: tuple[float, float]
    cards: list[dict]
    calibration: dict


def printed_name(game_id: str | None, card: str) -> str | None:
    """What a printed card is in its game (``printed:3`` -> ``R4``; Keener's ``('merchant', 1)`` ->
    ``merchant #1``), from the game's ``printed.from_sighting``; None when the game has no such module."""
    if not game_id or not card.startswith("printed:"):
        return None
    import importlib

    try:
        module = importlib.import_module(f"engines.{game_id.replace('-', '_')}.printed")
        name = module.from_sighting(card)
    except (ImportError, AttributeError, ValueError, KeyError, IndexError):
        return None
    if isinstance(name, tuple) and len(name) == 2:
        return f"{name[0]} #{name[1]}"
    return None if name is None else str(name)


def light_of(gray: Any, cards: Any = None) -> dict:
    """Is the light good enough to read cards: mean brightness, contrast (standard deviation) and the share
    of glare (blown-out pixels) of the mat, with a verdict: ``ok``, ``dark`` (even the white of the cards
    and markers is grey), ``bright`` (washed out), ``glare`` or ``flat`` (no contrast).

    The limits are generous (the demo's rendered dark mat with its lamp gradient reads ``ok``); they
    flag a mat that is plainly too dark, washed out or mirrored, not a fine grading.  ``cards``: a mask
    of the cards (True where a card lies): glare is counted on the bare mat only, as a white card face
    is as bright as a lamp's reflection."""
    import numpy as np

    values = np.asarray(gray, dtype=np.uint8)
    mean, contrast = float(values.mean()), float(values.std())
    bare = values if cards is None or not (~cards).any() else values[~np.asarray(cards, dtype=bool)]
    glare = float((bare >= 250).mean())
    whites = float(np.percentile(values, 98))  # the cards' and markers' white (a dark felt mat is no fault)
    if whites < 90:
        verdict = "dark"
    elif mean > 225:
        verdict = "bright"
    elif glare > 0.05:
        verdict = "glare"
    elif contrast < 10:
        verdict = "flat"
    else:
        verdict = "ok"
    return {"light": verdict, "brightness": round(mean, 1), "contrast": round(contrast, 1),
            "glare": round(glare, 4)}


def camera_view(shown: Shown, layout: MatLayout | None, game_id: str | None, detector: Any = None,
                width: int = VIEW_WIDTH) -> CameraView:
    """The table page's view of one frame: the straightened mat, the cards on it, and the calibration.

    The corner markers are looked for again here (the pipeline re-checks the mat
    only now and then, and keeps its calibration while a hand hides a marker), so
    the panel says which of the four this frame shows."""
    import cv2
    import numpy as np

    from vision.geometry import MAT_H, MAT_W
    from vision.markers import MAT_IDS, detect_markers, make_detector

    image, result = shown.image, shown.result
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    scale = 0.5 if max(gray.shape) > 1000 else 1.0
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale != 1 else gray
    found = sorted({m.marker_id for m in detect_markers(detector or make_detector(), small, scale=scale)
                    if m.marker_id in MAT_IDS})
    to_mat = getattr(result, "to_mat", None)
    jpeg, cards = None, []
    if to_mat is not None:
        k = width / MAT_W
        size = (width, round(MAT_H * k))
        mat = cv2.warpPerspective(image, np.diag([k, k, 1.0]) @ np.asarray(to_mat, dtype=np.float64), size,
                                  flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
        ok, data = cv2.imencode(".jpg", mat, [cv2.IMWRITE_JPEG_QUALITY, 75])
        jpeg = data.tobytes() if ok else None
        covered = np.zeros(mat.shape[:2], np.uint8)
        sightings = list(getattr(result, "sightings", ()))
        for vs, seen in zip(sightings, to_core(sightings, layout, game_id).sightings, strict=True):
            if vs.outline_mm is None:
                continue
            cards.append({"card": seen.card, "name": printed_name(game_id, seen.card), "back": seen.back,
                          "zone": seen.zone,
                          "confidence": round(seen.confidence, 2),
                          "outline": [[round(float(x), 1), round(float(y), 1)] for x, y in vs.outline_mm]})
            cv2.fillConvexPoly(covered, np.round(np.float32(vs.outline_mm) * k).astype(np.int32), 1)
        light = light_of(cv2.cvtColor(mat, cv2.COLOR_BGR2GRAY) if mat.ndim == 3 else mat, covered.astype(bool))
    else:
        light = light_of(small)  # no mat: the light of the whole frame, still worth knowing
    calibration = {"mat_seen": to_mat is not None, "markers": [CORNERS[i] for i in found],
                   "markers_found": len(found), "markers_needed": len(MAT_IDS), **light}
    return CameraView(shown.index, jpeg, (MAT_W, MAT_H), cards, calibration)
