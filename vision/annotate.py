"""Drawing what was seen onto a frame (for `companion vision watch` and debugging)."""

from __future__ import annotations

import cv2
import numpy as np

from .results import FrameResult, Sighting

_COLOURS = {"card": (60, 200, 60), "face_down": (200, 120, 40), "marker": (200, 60, 200), "unknown": (0, 165, 255)}


def annotate(frame: np.ndarray, result: FrameResult, stable: list[Sighting] | None = None) -> np.ndarray:
    """A copy of ``frame`` with every sighting outlined and labelled; stable
    sightings (if given) drawn thicker."""
    out = frame.copy()
    stable_ids = {(s.label, tuple(np.round(s.centre_px))) for s in stable or []}
    for s in result.sightings:
        colour = _COLOURS.get(s.kind, (255, 255, 255))
        thick = 3 if (s.label, tuple(np.round(s.centre_px))) in stable_ids else 1
        cv2.polylines(out, [np.round(np.array(s.outline_px)).astype(np.int32)], True, colour, thick, cv2.LINE_AA)
        x, y = np.round(s.anchors_px[0] if s.anchors_px else s.centre_px).astype(int)
        text = f"{s.label} {s.confidence:.2f}"
        cv2.putText(out, text, (int(x) + 4, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(out, text, (int(x) + 4, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    status = f"frame {result.index}  mat {'yes' if result.mat_seen else 'no'}  sightings {len(result.sightings)}"
    cv2.putText(out, status, (10, 24), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2, cv2.LINE_AA)
    return out
