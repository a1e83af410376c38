"""Evidence: the rectified mat as JPEG bytes, cropped to the mat, so cards held
in players' hands at the table edge are never recorded or shown."""

from __future__ import annotations

import cv2
import numpy as np

from . import geometry as g


def rectify(frame: np.ndarray, to_mat: np.ndarray, px_per_mm: float = 1.5) -> np.ndarray:
    """Top-down view of the mat (and only the mat), ``px_per_mm`` pixels per mm."""
    S = np.diag([px_per_mm, px_per_mm, 1.0])
    size = (int(round(g.MAT_W * px_per_mm)), int(round(g.MAT_H * px_per_mm)))
    return cv2.warpPerspective(frame, S @ to_mat, size, flags=cv2.INTER_AREA, borderValue=(0, 0, 0))


def evidence_jpeg(frame: np.ndarray, to_mat: np.ndarray | None, quality: int = 80, px_per_mm: float = 1.5) -> bytes | None:
    """JPEG of the rectified mat, or None when no mat is calibrated (then there
    is no safe crop, and nothing is recorded).  ``to_mat``: FrameResult.to_mat."""
    if to_mat is None:
        return None
    ok, buf = cv2.imencode(".jpg", rectify(frame, to_mat, px_per_mm), [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return buf.tobytes() if ok else None
