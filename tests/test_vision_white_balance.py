"""A lamp's colour taken out of the frame (vision.white_balance): warm and cool
lamps on generated scenes, frames left alone, bad frames, and the pipeline
reading cards under a lamp that it could not read before."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import glyph_model
from vision import white_balance as wb
from vision.pipeline import VisionPipeline
from vision.scene import render_scene

needs_nets = pytest.mark.skipif(not glyph_model.available(), reason="glyph network weights missing")

TUNGSTEN = (0.6, 0.82, 1.0)
COOL = (1.0, 0.95, 0.8)
#: four cards lying whole, apart, on the mat
LAYOUT = [
    {"cx": 120, "cy": 110, "angle": 5, "rank": "7", "suit": "clubs"},
    {"cx": 230, "cy": 110, "angle": -10, "rank": "Q", "suit": "hearts"},
    {"cx": 340, "cy": 115, "angle": 0, "rank": "3", "suit": "spades"},
    {"cx": 450, "cy": 110, "angle": 8, "rank": "10", "suit": "diamonds"},
]


def _scene(lamp=None, seed: int = 1, **kw):
    kw.setdefault("layout", LAYOUT)
    kw.setdefault("occluders", 0)
    return render_scene(1280, 720, len(kw["layout"]), seed=seed, lamp=lamp, **kw)


def _labels(frame: np.ndarray, **kw) -> set[str]:
    return {s.label for s in VisionPipeline(**kw).process(frame).sightings if s.kind == "card"}


def _paper(frame: np.ndarray, truth) -> np.ndarray:
    """Each card's paper colour: the brightest fifth of its face (pips and
    pictures are darker), its outline shrunk by a tenth."""
    out = []
    for card in truth.cards:
        c = card.corners_px.mean(axis=0)
        mask = np.zeros(frame.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(c + 0.9 * (card.corners_px - c)).astype(np.int32), 1)
        px = frame[mask > 0].astype(np.float32)
        level = px.sum(axis=1)
        out.append(px[level >= np.quantile(level, 0.8)].mean(axis=0))
    return np.array(out)


@pytest.mark.parametrize("lamp", [TUNGSTEN, COOL, (0.75, 0.9, 1.0), (0.45, 0.72, 1.0)])
def test_a_lamp_is_taken_out_so_that_paper_comes_out_grey(lamp):
    frame, truth = _scene(lamp)
    cast = wb.estimate(frame)
    assert cast is not None
    before = _paper(frame, truth)
    after = _paper(cast.apply(frame), truth)
    spread = lambda c: (c.max(axis=1) - c.min(axis=1)) / c.max(axis=1)  # noqa: E731
    assert spread(before).min() > 0.18
    assert spread(after).max() < 0.1, after


def test_a_frame_whose_white_is_grey_is_left_exactly_as_it_is():
    frame, _ = _scene(None, seed=5)
    assert wb.estimate(frame) is None
    a = VisionPipeline(balance=True).process(frame)
    b = VisionPipeline(balance=False).process(frame)
    assert [s.to_json() for s in a.sightings] == [s.to_json() for s in b.sightings]


def test_a_few_cards_on_a_wooden_table_do_not_make_the_wood_the_lamp():
    """The brightest pixels of a photo where cards are small are the wood's
    highlights; only pixels standing out from the table are taken for white."""
    frame, truth = render_scene(4000, 3000, 2, seed=11, mat=False, background="wood", occluders=0, layout=LAYOUT[:2], max_tilt=0)
    cast = wb.estimate(frame)
    out = frame if cast is None else cast.apply(frame)
    hsv = cv2.cvtColor(_paper(out, truth).astype(np.uint8)[None], cv2.COLOR_BGR2HSV)[0]
    assert (hsv[:, 1] < 40).all(), hsv


@pytest.mark.parametrize(
    "frame",
    [
        np.zeros((32, 32, 3), np.uint8),
        np.full((100, 100, 3), 255, np.uint8),
        np.full((480, 640, 3), (40, 60, 90), np.uint8),
        np.random.default_rng(0).integers(0, 256, (200, 300, 3), dtype=np.uint8),
    ],
    ids=["tiny black", "clipped white", "empty dark table", "noise"],
)
def test_frames_with_no_white_to_go_by_are_left_alone(frame):
    assert wb.estimate(frame) is None


def test_the_gains_are_bounded_to_what_a_lamp_does():
    frame = np.full((360, 640, 3), (30, 60, 40), np.uint8)
    cv2.rectangle(frame, (100, 100), (200, 240), (40, 200, 250), -1)  # one orange card-sized patch
    cast = wb.estimate(frame)
    assert cast is not None
    b, g, r = cast.gains
    assert 1 / wb.MAX_GAIN - 1e-9 <= b / g <= wb.MAX_GAIN + 1e-9 and 1 / wb.MAX_GAIN - 1e-9 <= r / g <= wb.MAX_GAIN + 1e-9
    assert 1 <= g <= wb.MAX_EXPOSURE


def test_a_dim_frame_is_brought_up_so_that_white_is_bright_again():
    frame, truth = _scene(None)
    dim = (frame * 0.45).astype(np.uint8)
    cast = wb.estimate(dim)
    assert cast is not None
    assert len({round(gain, 2) for gain in cast.gains}) == 1  # no colour cast: the same gain for each
    paper = _paper(cast.apply(dim), truth).max(axis=1)
    assert (paper >= wb.WHITE_LEVEL - 12).all() and (paper <= 255).all(), paper


@needs_nets
def test_cards_under_a_warm_lamp_are_read_as_under_white_light():
    neutral, _ = _scene(None)
    lamp, _ = _scene(TUNGSTEN)
    want = _labels(neutral)
    assert len(want) >= 3
    assert _labels(lamp) == want
    assert _labels(lamp, balance=False) < want  # what the balance is for


@needs_nets
def test_a_camera_pipeline_takes_a_new_lamp_within_mat_every_frames():
    neutral, _ = _scene(None)
    lamp, _ = _scene(TUNGSTEN)
    pipe = VisionPipeline(mat_every=3, reuse_static=False)
    want = {s.label for s in pipe.process(neutral).sightings if s.kind == "card"}
    seen = [{s.label for s in pipe.process(lamp).sightings if s.kind == "card"} for _ in range(3)]
    assert seen[-1] == want


def test_a_mix_of_paper_and_a_bright_cloth_is_not_taken_for_a_dim_white():
    """On a red plaid cloth the bright squares stand out from the dark ones;
    taken with the paper for one dim white they would have the frame pushed
    into clipping, and the cards lost against the cloth (bench scene 887:
    8 cards found, 2 once brightened)."""
    frame, _ = render_scene(1280, 720, 4 + 887 % 9, seed=887, mat=False)
    assert wb.estimate(frame) is None


def test_a_red_cloths_bright_squares_are_not_taken_for_the_lamp_where_the_cards_are_few():
    """Two cards on a red plaid cloth, a grey sleeve across them: the cloth's
    bright squares stand out from its dark ones and outnumbered the paper in
    the brightest share, one consistent red, so the frame was "balanced" to
    half its red and the cards, turned cyan, were no longer paper (bench
    scene 137 at 1080p: 2 cards found without the balance, none with it).
    Paper is the brightest of what stands out (pixels under 0.8 of the
    sample's brightest are dropped), under any lamp."""
    frame, truth = render_scene(1920, 1080, 4 + 137 % 9, seed=137, mat=False)
    cast = wb.estimate(frame)
    out = frame if cast is None else cast.apply(frame)
    readable = [c for c in truth.cards if c.kind == "face" and any(c.index_visible)]
    hsv = cv2.cvtColor(_paper(out, truth).astype(np.uint8)[None], cv2.COLOR_BGR2HSV)[0]
    assert {(c.rank, c.suit) for c in readable} == {("A", "spades"), ("6", "clubs")}
    assert (hsv[:, 1] < 40).all(), hsv
    assert {"AS", "6C"} <= _labels(frame)
