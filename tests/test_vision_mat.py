"""Mat calibration with ArUco markers, on rendered scenes."""

import cv2
import numpy as np

from vision import geometry as g
from vision.evidence import evidence_jpeg, rectify
from vision.markers import (
    DICTIONARY,
    MARKER_RANGES,
    ShortlistDetector,
    back_meaning,
    make_detector,
    marker_image,
    marker_range,
)
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


def _same_detections(a, b) -> bool:
    (ca, ia, _), (cb, ib, _) = a, b
    if ia is None or ib is None:
        return ia is None and ib is None
    return np.array_equal(ia, ib) and len(ca) == len(cb) and all(np.array_equal(x, y) for x, y in zip(ca, cb, strict=True))


def test_shortlist_detector_finds_what_the_whole_dictionary_finds():
    """Markers from across the id range, turned and tilted, with noise and a
    marker-like square that is no marker: the short-list search gives the
    same ids and corners as OpenCV's search of the whole dictionary."""
    rng = np.random.default_rng(7)
    page = np.full((420, 640), 200, np.uint8)
    for k, marker_id in enumerate((0, 4, 5, 117, 449, 612, 998)):
        tile = np.full((90, 90), 255, np.uint8)
        tile[15:75, 15:75] = marker_image(marker_id, 60)
        x0, y0 = 20 + 150 * (k % 4), 20 + 190 * (k // 4)
        src = np.float32([[0, 0], [90, 0], [90, 90], [0, 90]])
        dst = src + np.float32([x0, y0]) + rng.uniform(-9, 9, (4, 2)).astype(np.float32)
        warped = cv2.warpPerspective(tile, cv2.getPerspectiveTransform(src, dst), page.shape[::-1], borderValue=0)
        cover = cv2.warpPerspective(np.full((90, 90), 255, np.uint8), cv2.getPerspectiveTransform(src, dst), page.shape[::-1])
        page[cover > 0] = warped[cover > 0]
    page[300:360, 500:560] = 0  # a black square with no code
    page = cv2.add(page, rng.integers(0, 12, page.shape, dtype=np.uint8))
    for params in (make_detector().getDetectorParameters(), _crop_params()):
        full = cv2.aruco.ArucoDetector(DICTIONARY, params)
        expect = full.detectMarkers(page)
        assert expect[1] is not None and len(expect[1]) >= 6
        assert _same_detections(ShortlistDetector(params).detectMarkers(page), expect)
    img, _ = render_scene(1280, 720, 8, seed=11, mat=True)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    params = make_detector().getDetectorParameters()
    assert _same_detections(ShortlistDetector(params).detectMarkers(gray), cv2.aruco.ArucoDetector(DICTIONARY, params).detectMarkers(gray))


def _crop_params():
    p = make_detector().getDetectorParameters()
    p.adaptiveThreshWinSizeMin, p.adaptiveThreshWinSizeMax, p.adaptiveThreshWinSizeStep = 7, 17, 10
    p.minMarkerPerimeterRate = 0.2
    return p
