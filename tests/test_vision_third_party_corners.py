"""Indices of other deck designs that the edge-free finder used to miss:
glyphs joined to the card's edge or a frame line at 720p (vision.index_pairs.sealed_holes)."""

import cv2
import numpy as np

from vision.cards import Plane
from vision.index_pairs import find_index_pairs, sealed_holes


def _plane(px_per_mm: float, work_f: float = 1.0) -> Plane:
    """Work px -> plane mm at ``px_per_mm`` work px per mm; frame = work / ``work_f``."""
    s = px_per_mm
    return Plane(np.diag([1 / s, 1 / s, 1.0]), np.diag([s / work_f, s / work_f, 1.0]), False)


def _card_with_glyph_on_edge(h: int = 300, w: int = 400):
    """A white card on a green table whose black glyph (8 x 12 px) touches the card's left edge."""
    frame = np.full((h, w, 3), (40, 110, 40), np.uint8)
    frame[50:250, 100:300] = 235
    frame[80:92, 100:108] = 20  # the glyph, joined to the table through the edge
    mask = np.zeros((h, w), np.uint8)
    mask[50:250, 100:300] = 255
    mask[80:92, 100:108] = 0
    return frame, mask


def test_a_glyph_joined_to_the_edge_becomes_a_spot():
    frame, mask = _card_with_glyph_on_edge()
    stats, cents, sealed = sealed_holes(mask, _plane(2.0), frame)
    assert len(stats) == 2
    x, y, w, h, area = stats[1]
    assert 99 <= x <= 103 and 79 <= y <= 81 and 4 <= w <= 9 and 11 <= h <= 13
    assert abs(cents[1][1] - 86) < 1.5
    # in the sealed mask the glyph is enclosed (a hole of the card region)
    n, labels = cv2.connectedComponents(cv2.bitwise_not(sealed), connectivity=8)
    assert labels[86, 103] != labels[5, 5]


def test_table_between_two_cards_is_no_spot():
    frame = np.full((300, 400, 3), (40, 110, 40), np.uint8)
    mask = np.zeros((300, 400), np.uint8)
    # two cards 6 px apart: the closing bridges the gap, which is table
    for x0, x1 in ((60, 197), (203, 340)):
        frame[50:250, x0:x1] = 235
        mask[50:250, x0:x1] = 255
    # one card reaches a little further: the gap is a notch in the outline of neither card alone
    stats, _, _ = sealed_holes(mask, _plane(2.0), frame)
    assert len(stats) == 1


def test_sealed_holes_take_bad_input():
    frame, mask = _card_with_glyph_on_edge()
    empty = np.zeros_like(mask)
    assert len(sealed_holes(empty, _plane(2.0), frame)[0]) == 1
    assert len(sealed_holes(mask[:2, :2], _plane(2.0), frame[:2, :2])[0]) == 1
    nan = Plane(np.full((3, 3), np.nan), np.eye(3), False)
    assert len(sealed_holes(mask, nan, frame)[0]) == 1
    # a huge or tiny scale: no closing is tried
    assert len(sealed_holes(mask, _plane(50.0), frame)[0]) == 1
    assert len(sealed_holes(mask, _plane(0.01), frame)[0]) == 1


def test_the_finder_takes_an_empty_frame():
    frame = np.zeros((720, 1280, 3), np.uint8)
    mask = np.zeros((720, 1280), np.uint8)
    holes = (np.zeros((1, 5), np.int32), np.zeros((1, 2)))
    assert find_index_pairs(frame, _plane(2.0), holes, mask, mask) == []


def _plain_sealed_holes(mask: np.ndarray, plane: Plane, frame: np.ndarray):
    """sealed_holes as first written (b69e808): the notch labelled over its whole box at once."""
    from vision.cards import background_colour
    from vision.index_pairs import GLYPH_DIAG, SEAL_NEAR, SEAL_RADIUS, SEAL_TABLE

    h, w = mask.shape[:2]
    empty = (np.zeros((1, 5), np.int32), np.zeros((1, 2)), mask)
    mm = float(np.linalg.norm(np.diff(plane.to_plane(np.float32([[w / 2, h / 2], [w / 2 + 10, h / 2]])), axis=0)) / 10)
    r = int(round(SEAL_RADIUS / mm))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in contours if cv2.contourArea(c) >= (4 * r) ** 2]
    if not big:
        return empty
    x, y, bw, bh = cv2.boundingRect(np.concatenate(big))
    x0, y0, x1, y1 = max(x - r, 0), max(y - r, 0), min(x + bw + r, w), min(y + bh + r, h)
    filled = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(filled, big, -1, 255, -1, offset=(-x0, -y0))
    own = cv2.bitwise_and(mask[y0:y1, x0:x1], filled)
    closed = cv2.morphologyEx(own, cv2.MORPH_CLOSE, np.ones((2 * r + 1, 2 * r + 1), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0)
    closed = cv2.erode(closed, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)), iterations=2, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    notch = cv2.subtract(closed, filled)
    nx, ny, nw, nh = cv2.boundingRect(notch)
    if nw == 0:
        return empty
    bx0, by0 = max(nx - 1, 0), max(ny - 1, 0)
    bx1, by1 = min(nx + nw + 1, notch.shape[1]), min(ny + nh + 1, notch.shape[0])
    x0, y0 = x0 + bx0, y0 + by0
    notch = notch[by0:by1, bx0:bx1]
    n, lab, st, cen = cv2.connectedComponentsWithStats(notch, connectivity=8, ltype=cv2.CV_16U)
    diag = np.hypot(st[:, 2], st[:, 3]) * mm
    cand = np.flatnonzero((st[:, 4] >= 4) & (diag > GLYPH_DIAG[0]) & (diag < 22.0))
    cand = cand[cand > 0]
    if not len(cand):
        return empty
    want = np.zeros(n, bool)
    want[cand] = True
    ys, xs = np.nonzero(notch)
    labs = lab[ys, xs]
    sel = want[labs]
    ys, xs, labs = ys[sel], xs[sel], labs[sel]
    pts = np.float32(np.stack((xs + (x0 + 0.5), ys + (y0 + 0.5)), axis=1)).reshape(-1, 1, 2)
    fp = cv2.perspectiveTransform(pts, plane.plane_to_frame @ plane.work_to_plane).reshape(-1, 2)
    fh, fw = frame.shape[:2]
    fx = np.clip(np.nan_to_num(fp[:, 0]), 0, fw - 1).astype(np.int64)
    fy = np.clip(np.nan_to_num(fp[:, 1]), 0, fh - 1).astype(np.int64)
    bg = background_colour(cv2.resize(frame, (192, 144), interpolation=cv2.INTER_NEAREST))
    ty, tx = bg.shape[:2]
    diff = frame[fy, fx].astype(np.float32) - bg.astype(np.float32)[np.minimum(fy * ty // fh, ty - 1), np.minimum(fx * tx // fw, tx - 1)]
    near = np.einsum("ij,ij->i", diff, diff) < SEAL_NEAR * SEAL_NEAR
    share = np.bincount(labs, weights=near, minlength=n) / np.maximum(np.bincount(labs, minlength=n), 1)
    keep = cand[share[cand] <= SEAL_TABLE]
    if not len(keep):
        return empty
    stats = st[keep].copy()
    stats[:, 0] += x0
    stats[:, 1] += y0
    kept = np.zeros(n, np.uint8)
    kept[keep] = 255
    blobs = kept[lab]
    sealed = mask.copy()
    sealed[y0 : y0 + notch.shape[0], x0 : x0 + notch.shape[1]] |= cv2.subtract(cv2.dilate(blobs, np.ones((3, 3), np.uint8)), blobs)
    return np.concatenate((np.zeros((1, 5), np.int32), stats.astype(np.int32))), np.concatenate((np.zeros((1, 2)), cen[keep] + (x0, y0))), sealed


def _ragged_cards(seed: int):
    """Cards with glyphs bitten out of their edges, ragged table paper and
    specks: many notch pieces, some nested, some at the frame's border."""
    rng = np.random.default_rng(seed)
    h, w = 240, 320
    frame = np.full((h, w, 3), (40, 110, 40), np.uint8)
    frame += rng.integers(0, 30, (h, w, 3), dtype=np.uint8)
    mask = np.zeros((h, w), np.uint8)
    for _ in range(rng.integers(1, 5)):
        x, y = int(rng.integers(-20, w - 40)), int(rng.integers(-20, h - 40))
        cw, ch = int(rng.integers(40, 120)), int(rng.integers(40, 120))
        mask[max(y, 0) : y + ch, max(x, 0) : x + cw] = 255
        frame[max(y, 0) : y + ch, max(x, 0) : x + cw] = 230
    for _ in range(rng.integers(20, 120)):  # glyphs and other bites, of ink or of the table's colour
        x, y = int(rng.integers(0, w - 4)), int(rng.integers(0, h - 4))
        gw, gh = int(rng.integers(2, 12)), int(rng.integers(2, 14))
        mask[y : y + gh, x : x + gw] = 0
        frame[y : y + gh, x : x + gw] = (20, 20, 20) if rng.random() < 0.7 else (40, 110, 40)
        if rng.random() < 0.3 and gw > 4 and gh > 4:  # paper inside the glyph (an "O"'s)
            mask[y + 2 : y + gh - 2, x + 2 : x + gw - 2] = 255
    speckle = rng.random((h, w)) < 0.01
    mask[speckle] = 255 - mask[speckle]
    return frame, mask


def test_sealed_holes_find_what_the_whole_box_labelling_found():
    # the spots, in the same order, and the same sealed mask as labelling the notch at once
    for seed in range(40):
        frame, mask = _ragged_cards(seed)
        for scale in (1.0, 1.6):
            plane = _plane(scale)
            got, want = sealed_holes(mask, plane, frame), _plain_sealed_holes(mask, plane, frame)
            assert np.array_equal(got[0], want[0]), seed
            assert np.allclose(got[1], want[1], atol=1e-9), seed
            assert np.array_equal(got[2], want[2]), seed
