"""Mat calibration with ArUco markers, on rendered scenes."""

import cv2
import numpy as np

from vision import geometry as g
from vision.evidence import evidence_jpeg, rectify
from vision.markers import MARKER_RANGES, back_meaning, make_detector, marker_range
from vision.mat import MatTracker
from vision.scene import render_scene


def test_mat_homography_maps_cards_to_millimetres():
    img, truth = render_scene(1280, 720, 6, seed=3, mat=True, occluders=0)
    cal = MatTracker().update(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    assert cal is not None and cal.markers_seen >= 3
    for card in truth.cards:
        got = cal.image_to_mat(card.corners_px)
        assert np.abs(got - card.corners_mm).max() < 4.0  # mm


def test_strong_tilt_still_calibrates():
    for seed in range(4):
        img, truth = render_scene(1280, 720, 3, seed=seed, mat=True, occluders=0, max_tilt=45)
        cal = MatTracker().update(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
        assert cal is not None
        centre = cal.mat_to_image([[g.MAT_W / 2, g.MAT_H / 2]])[0]
        expect = cv2.perspectiveTransform(np.float32([[[g.MAT_W / 2, g.MAT_H / 2]]]), truth.homography)[0, 0]
        assert np.linalg.norm(centre - expect) < 4


def test_no_mat_means_no_calibration():
    img, _ = render_scene(1280, 720, 5, seed=4, mat=False, occluders=0)
    assert MatTracker().update(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)) is None


def test_calibration_is_kept_while_markers_are_covered_and_renewed_when_the_mat_moves():
    img, _ = render_scene(1280, 720, 3, seed=5, mat=True, occluders=0)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    tracker = MatTracker(every=1)
    first = tracker.update(gray)
    covered = gray.copy()
    covered[:, : gray.shape[1] // 2] = 90  # half the mat (two markers) under a sheet
    kept = tracker.update(covered)
    assert kept is not None
    assert np.allclose(kept.to_mat, first.to_mat, atol=1e-3) or kept.markers_seen >= 2
    moved = np.roll(gray, 40, axis=1)
    renewed = tracker.update(moved)
    shift = renewed.mat_to_image([[300, 200]])[0] - first.mat_to_image([[300, 200]])[0]
    assert abs(shift[0] - 40) < 3


def test_evidence_is_the_mat_only():
    img, _ = render_scene(1280, 720, 4, seed=6, mat=True, occluders=0)
    cal = MatTracker().update(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    data = evidence_jpeg(img, cal.to_mat)
    assert data[:2] == b"\xff\xd8"
    top = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert abs(top.shape[1] / top.shape[0] - g.MAT_W / g.MAT_H) < 0.01
    # something bright beyond the mat edge (a hand of cards held at the table edge) is not in it
    marked = img.copy()
    corner = cal.mat_to_image([[-30, -30]])[0].astype(int)
    if 0 <= corner[0] < img.shape[1] and 0 <= corner[1] < img.shape[0]:
        cv2.circle(marked, tuple(int(c) for c in corner), 25, (0, 255, 255), -1)
    a = rectify(img, cal.to_mat)
    b = rectify(marked, cal.to_mat)
    assert np.abs(a.astype(int) - b.astype(int)).max() < 40
    assert evidence_jpeg(img, None) is None


def test_marker_ranges_do_not_overlap_and_backs_say_only_their_side():
    ids = [i for r in MARKER_RANGES for i in range(r.first, r.last + 1)]
    assert len(ids) == len(set(ids))
    assert marker_range(2).kind == "mat" and marker_range(450).name == "two-freakin-swords"
    assert back_meaning(4) == "striking" and back_meaning(5) == "defending" and back_meaning(450) is None
    assert marker_range(5000) is None
    assert make_detector() is not None
