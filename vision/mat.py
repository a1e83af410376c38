"""Playmat calibration: four ArUco markers at known places give the homography
between the image and the mat, in millimetres (see docs/vision.md, "The mat").

The calibration is kept while the markers are hidden (a hand on a corner) and
renewed when they show again somewhere else (the mat or the camera moved)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry as g
from .markers import MAT_IDS, MarkerSighting, detect_markers, make_detector


@dataclass(frozen=True)
class Calibration:
    """Image <-> mat mapping.  ``to_mat`` maps frame pixels to mat mm."""

    to_mat: np.ndarray  # 3x3
    to_image: np.ndarray  # 3x3
    markers_seen: int
    error_px: float  # RMS reprojection error of the marker corners

    def image_to_mat(self, pts) -> np.ndarray:
        return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), self.to_mat).reshape(-1, 2)

    def mat_to_image(self, pts) -> np.ndarray:
        return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), self.to_image).reshape(-1, 2)

    def px_per_mm(self) -> float:
        """Image pixels per mat millimetre near the mat centre."""
        c = self.mat_to_image([[g.MAT_W / 2, g.MAT_H / 2], [g.MAT_W / 2 + 10, g.MAT_H / 2], [g.MAT_W / 2, g.MAT_H / 2 + 10]])
        return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[0])) / 20)


def calibrate(markers: list[MarkerSighting]) -> Calibration | None:
    """A calibration from the mat markers among ``markers`` (needs at least two)."""
    known = g.mat_marker_corners()
    src, dst = [], []
    seen = 0
    for m in markers:
        if m.marker_id in MAT_IDS:
            seen += 1
            src.extend(m.corners.tolist())
            dst.extend(known[m.marker_id])
    if seen < 2:
        return None
    src_a, dst_a = np.float32(src), np.float32(dst)
    H, _ = cv2.findHomography(src_a, dst_a, 0)
    if H is None:
        return None
    Hi = np.linalg.inv(H)
    back = cv2.perspectiveTransform(dst_a.reshape(-1, 1, 2), Hi).reshape(-1, 2)
    err = float(np.sqrt(np.mean(np.sum((back - src_a) ** 2, axis=1))))
    return Calibration(H, Hi, seen, err)


class MatTracker:
    """Keeps the current calibration.  Looks for the mat markers on a
    half-size copy of the frame (they are large) every ``every`` frames, and at
    once while no mat is known."""

    def __init__(self, every: int = 15, detector: cv2.aruco.ArucoDetector | None = None) -> None:
        self.every = every
        self.detector = detector or make_detector()
        self.calibration: Calibration | None = None
        #: the mat markers the last search found (frame px), whether or not they calibrated
        #: the mat: one alone does not, and its white square is still no card
        self.markers: list[MarkerSighting] = []
        self._count = 0

    def reset(self) -> None:
        self.calibration = None
        self.markers = []
        self._count = 0

    def update(self, gray: np.ndarray, force: bool = False) -> Calibration | None:
        self._count += 1
        if not force and self.calibration is not None and self._count % self.every:
            return self.calibration
        scale = 0.5 if max(gray.shape) > 1000 else 1.0
        small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale != 1 else gray
        found = [m for m in detect_markers(self.detector, small, scale=scale) if m.marker_id in MAT_IDS]
        self.markers = found
        new = calibrate(found)
        if new is None:
            return self.calibration  # hidden markers: keep what we had
        old = self.calibration
        if old is None or new.markers_seen >= 3 or new.markers_seen >= old.markers_seen:
            self.calibration = new
        elif _moved(old, found):
            self.calibration = new
        return self.calibration


def _moved(cal: Calibration, found: list[MarkerSighting], tol_px: float = 4.0) -> bool:
    known = g.mat_marker_corners()
    for m in found:
        expect = cal.mat_to_image(known[m.marker_id])
        if float(np.max(np.linalg.norm(expect - m.corners, axis=1))) > tol_px:
            return True
    return False
