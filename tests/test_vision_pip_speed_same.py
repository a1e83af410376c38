"""The pip checks' cheaper steps (vision.pips, vision.near_pip) give what the
numpy and OpenCV steps they replace gave, to the last bit: np.percentile and
np.median from histograms, np.isin from a lookup table, connected components by
BBDT, a mirrored face laid out afresh, a face's top rows warped alone, and a
corner without paper beside its index answered before its face is sampled."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import near_pip, pips
from vision.cards import Plane


def _samples(seed: int):
    """uint8 values of many sizes and spreads: a few ties, many ties, all one value."""
    rng = np.random.default_rng(seed)
    for n in [1, 2, 3, 4, 5, 9, 10, 11, 50, 51, 199, 200, 201, 1000, 1001, *rng.integers(1, 30000, 40).tolist()]:
        yield rng.integers(0, 256, n).astype(np.uint8)
        yield np.clip(rng.normal(200, 8, n), 0, 255).astype(np.uint8)
        yield rng.integers(0, 3, n).astype(np.uint8) * 120
        yield np.full(n, int(rng.integers(0, 256)), np.uint8)


def test_percentiles_from_a_histogram_are_numpys_to_the_last_bit():
    qs = (50, 99.5, 25, 0, 100, 12.5, 99.9, 33.3)
    for vals in _samples(0):
        got = pips.percentiles(pips.cumulative(vals.reshape(1, -1)), qs)
        want = [float(np.percentile(vals, q)) for q in qs]
        assert got == want, (len(vals), got, want)
        # a tuple of percentiles at once, as read_row took them before
        assert got[:2] == [float(x) for x in np.percentile(vals, (50, 99.5))]


def test_percentiles_under_a_mask_are_those_of_the_values_it_selects():
    rng = np.random.default_rng(1)
    for _ in range(30):
        img = rng.integers(0, 256, (92, 126)).astype(np.uint8)
        mask = rng.random((92, 126)) < rng.random()
        if not mask.any():
            continue
        got = pips.percentiles(pips.cumulative(img, mask.view(np.uint8)), (50, 99.5, 25))
        assert got == [float(np.percentile(img[mask], q)) for q in (50, 99.5, 25)]


def test_channel_medians_are_numpys_float32_medians():
    rng = np.random.default_rng(2)
    for k in range(60):
        face = rng.integers(0, 256, (176, 126, 3)).astype(np.uint8)
        if k % 3 == 0:
            face[:] = np.clip(rng.normal(220, 5, face.shape), 0, 255).astype(np.uint8)
        mask = rng.random((176, 126)) < [0.0005, 0.01, 0.5, 1.0][k % 4]
        n = int(np.count_nonzero(mask))
        if n == 0:
            continue
        got = pips.channel_medians(face, mask, n)
        want = np.median(face[mask].astype(np.float32), axis=0)
        assert got.dtype == want.dtype == np.float32
        assert np.array_equal(got, want), (n, got, want)


def test_ink_colour_from_histograms_is_the_sorted_test():
    rng = np.random.default_rng(3)
    seen = set()
    for k in range(200):
        paper = np.clip(rng.normal(rng.uniform(150, 240), 6, (176, 126, 3)), 0, 255)
        ink = np.array([rng.uniform(0, 120), rng.uniform(0, 120), rng.uniform(0, 255)])
        face = paper.copy()
        sel = np.zeros((176, 126), bool)
        sel[40 : 40 + k % 30, 30:50] = True
        face[sel] = np.clip(ink + rng.normal(0, 10, (int(sel.sum()), 3)), 0, 255)
        face = face.astype(np.uint8)
        pp = ~sel & (rng.random((176, 126)) < [0.0003, 0.5, 1.0][k % 3])
        got = pips.ink_is_red(face, sel, pp)
        assert got == pips._ink_is_red_sorted(face, sel, pp)
        seen.add(got)
    assert seen == {True, False, None}  # every answer was compared
    # views of a mirrored face and masks not boolean take the sorting path and agree
    face = face[:, ::-1]
    assert pips.ink_is_red(face, sel, pp) == pips._ink_is_red_sorted(face, sel, pp)
    assert pips.ink_is_red(face.astype(np.float32), sel, pp) == pips._ink_is_red_sorted(face.astype(np.float32), sel, pp)


def test_in_labels_is_isin():
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 40, (176, 126)).astype(np.int32)
    for keep in ([], [0], [3], [1, 7, 39], list(range(40))):
        assert np.array_equal(pips.in_labels(labels, 40, keep), np.isin(labels, keep))


def test_a_mirrored_face_is_the_warped_face_reversed_and_laid_out_afresh():
    rng = np.random.default_rng(5)
    frame = rng.integers(0, 256, (300, 400, 3)).astype(np.uint8)
    plane = Plane(np.eye(3), np.eye(3), True)
    point, u, v = np.array([250.0, 40.0]), np.array([-1.0, 0.0]), np.array([0.0, 1.0])
    face = pips.sample_face(frame, plane, point, u, v)
    upright = pips.sample_face(frame, plane, point, -u, v)
    s = 1.0 / pips.FACE_PPM
    M = plane.plane_to_frame @ np.array([[u[0] * s, v[0] * s, point[0]], [u[1] * s, v[1] * s, point[1]], [0, 0, 1]])
    warped = cv2.warpPerspective(frame, M, pips.face_size(), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    assert face.flags.c_contiguous and upright.shape == face.shape
    assert np.array_equal(face, warped[:, ::-1])
    # the top rows alone (near_pip's look) are the whole face's top rows, upright or mirrored
    for uu in (u, -u):
        whole = pips.sample_face(frame, plane, point, uu, v)
        assert np.array_equal(pips.sample_face(frame, plane, point, uu, v, rows=98), whole[:98])


@pytest.mark.parametrize("paper_from_mm", [0.0, 40.0, 45.0, 46.5, 60.0])
def test_a_corner_without_paper_beside_its_index_gives_read_rows_answer(paper_from_mm):
    """sample_row answers "no paper" before sampling the face exactly when read_row would."""
    frame = np.full((300, 400, 3), 225, np.uint8)
    cv2.circle(frame, (131, 65), 5, (20, 20, 20), -1)  # a pip on the middle line, 15 mm down
    plane = Plane(np.eye(3), np.eye(3), True)
    point, u, v = np.array([100.0, 50.0]), np.array([1.0, 0.0]), np.array([0.0, 1.0])
    contour = np.array([[100, 50 + paper_from_mm], [163, 50 + paper_from_mm], [163, 138], [100, 138]], float)
    row = near_pip.sample_row(frame, plane, point, u, v, contour=contour, layout_only=True)
    face = pips.sample_face(frame, plane, point, u, v)
    paper = near_pip.own_paper(contour, point, u, v, pips.face_size())
    assert row == near_pip.read_row(face, paper, layout_only=True)


@pytest.mark.parametrize("threads", [1, 2])
def test_components_are_opencvs_default_labelling(threads):
    """BBDT numbers the components as the default (Spaghetti) does: labels, boxes, areas."""
    before = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    try:
        rng = np.random.default_rng(6 + threads)
        for k in range(1500):
            h, w = int(rng.integers(1, 180)), int(rng.integers(1, 130))
            if k % 3:
                binary = (rng.random((h, w)) < rng.random() ** 2).astype(np.uint8)
            else:  # blobs, as ink thresholded
                noise = cv2.GaussianBlur(rng.random((h, w)).astype(np.float32), (0, 0), float(rng.uniform(0.5, 4)))
                binary = (noise > rng.uniform(0.4, 0.6)).astype(np.uint8)
            n, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
            got = pips.components(binary)
            assert got[0] == n and np.array_equal(got[1], labels) and np.array_equal(got[2], stats)
    finally:
        cv2.setNumThreads(before)
