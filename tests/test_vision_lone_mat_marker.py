"""A mat marker seen alone calibrates nothing, and is no card (#7)."""

from __future__ import annotations

import numpy as np

from vision.pipeline import VisionPipeline
from vision.scene import render_scene


def test_a_lone_mat_markers_white_square_is_not_reported_as_a_card():
    # bench/vision.py's 1080p scene 153: the mat lies mostly out of view, one of its
    # markers in it; its white square with the marker inside was reported face down
    img, truth = render_scene(1920, 1080, 4 + 153 % 9, seed=153, mat=True)
    pipe = VisionPipeline()
    res = pipe.process(img)
    assert res.to_mat is None and pipe.mat.markers  # seen, and no calibration from it
    for m in pipe.mat.markers:
        centre = m.corners.mean(axis=0)
        assert not any(
            s.kind in ("face_down", "unknown") and np.linalg.norm(np.array(s.centre_px) - centre) < 60 for s in res.sightings
        )
