"""The frame pipeline on rendered scenes: faces, stacks, backs, printed cards, no mat."""

import cv2
import numpy as np
import pytest
from threadpoolctl import ThreadpoolController, threadpool_limits

from vision import index_pairs as ip
from vision import pipeline as pl
from vision.evaluate import score
from vision.pipeline import VisionPipeline
from vision.scene import render_scene

HD = (1920, 1080)


def _cards(result):
    return sorted((s.rank, s.suit) for s in result.sightings if s.kind == "card")


def test_loose_cards_on_the_mat_are_read_with_mat_coordinates():
    layout = [
        {"cx": 120, "cy": 130, "angle": 10, "rank": "Q", "suit": "hearts"},
        {"cx": 260, "cy": 150, "angle": -35, "rank": "10", "suit": "spades"},
        {"cx": 420, "cy": 140, "angle": 90, "rank": "A", "suit": "diamonds"},
        {"cx": 200, "cy": 300, "angle": 180, "rank": "7", "suit": "clubs"},
    ]
    img, truth = render_scene(*HD, seed=11, layout=layout, occluders=0, max_tilt=20)
    result = VisionPipeline().process(img)
    assert result.mat_seen
    assert _cards(result) == sorted((d["rank"], d["suit"]) for d in layout)
    for s in result.sightings:
        assert s.outline_mm is not None and len(s.outline_px) == 4
        d = next(d for d in layout if (d["rank"], d["suit"]) == (s.rank, s.suit))
        assert np.linalg.norm(np.array(s.centre_mm) - [d["cx"], d["cy"]]) < 10  # mm


def test_staggered_base_is_read_card_by_card_with_stack_order():
    # a Double-Edge Base: each card slid down and right so only its corner index shows
    layout = [{"cx": 200 + 9 * i, "cy": 150 + 24 * i, "angle": 0, "rank": r, "suit": s} for i, (r, s) in enumerate([("K", "spades"), ("5", "hearts"), ("9", "clubs"), ("J", "diamonds")])]
    img, truth = render_scene(*HD, seed=12, layout=layout, occluders=0, max_tilt=15)
    result = VisionPipeline().process(img)
    got = {(s.rank, s.suit): s for s in result.sightings if s.kind == "card"}
    truth_cards = [(d["rank"], d["suit"]) for d in layout]
    assert set(got) <= set(truth_cards)  # nothing misread
    # Known weakness: a card whose small club index gives only ~14 px is left
    # unread rather than guessed; at least three of the four must be read.
    assert len(got) >= 3
    order = [got[c] for c in truth_cards if c in got]
    for lower, upper in zip(order, order[1:], strict=False):
        assert lower.id in upper.above  # each card lies on the ones before it
        assert upper.stack_level > lower.stack_level


def test_face_down_cards_are_reported_face_down():
    layout = [{"cx": 150, "cy": 150, "angle": 20, "kind": "back"}, {"cx": 380, "cy": 220, "angle": -10, "kind": "back"}]
    for seed in (13, 14):  # bordered and full-bleed back designs
        img, _ = render_scene(*HD, seed=seed, layout=layout, occluders=0, max_tilt=20)
        result = VisionPipeline().process(img)
        kinds = sorted(s.kind for s in result.sightings)
        assert kinds == ["face_down", "face_down"], kinds


def test_marked_back_says_only_its_side():
    layout = [{"cx": 250, "cy": 200, "angle": 30, "kind": "back", "marker_id": 4}]
    img, _ = render_scene(*HD, seed=15, layout=layout, occluders=0)
    (s,) = VisionPipeline().process(img).sightings
    assert s.kind == "face_down" and s.back == "striking"
    assert "rank" not in s.to_json() and s.to_json()["face_down"] is True


def test_two_backs_with_the_same_marker_are_two_cards():
    """Every Striking back carries marker 4: two of them on the table are two face-down cards, not one."""
    layout = [{"cx": 180, "cy": 200, "angle": 10, "kind": "back", "marker_id": 4},
              {"cx": 420, "cy": 220, "angle": -15, "kind": "back", "marker_id": 4}]
    img, _ = render_scene(*HD, seed=16, layout=layout, occluders=0)
    backs = [s for s in VisionPipeline().process(img).sightings if s.kind == "face_down"]
    assert len(backs) == 2 and all(s.back == "striking" for s in backs), backs


def test_printed_card_is_read_when_mostly_covered():
    layout = [
        {"cx": 250, "cy": 200, "angle": 0, "kind": "printed", "marker_id": 123},
        # a face card over its centre and bottom-right markers: only the top-left one shows
        {"cx": 272, "cy": 226, "angle": 0, "rank": "3", "suit": "hearts"},
    ]
    img, truth = render_scene(*HD, seed=16, layout=layout, occluders=0)
    result = VisionPipeline().process(img)
    markers = [s for s in result.sightings if s.kind == "marker"]
    assert [m.marker_id for m in markers] == [123]
    assert [(s.rank, s.suit) for s in result.sightings if s.kind == "card"] == [("3", "hearts")]


def test_plain_photo_without_a_mat():
    for seed in (21, 22):
        img, truth = render_scene(1600, 1200, 5, seed=seed, mat=False, occluders=0, stagger=False, kinds=("face",), max_tilt=25)
        result = VisionPipeline().process(img)
        assert not result.mat_seen
        assert all(s.outline_mm is None for s in result.sightings)
        sc = score(result, truth)
        assert sc.read >= sc.expected - 1, sc
        assert sc.misread == [] and sc.false_cards == 0


def test_a_close_up_of_a_pile_with_no_card_lying_whole_is_read():
    """No mat and no card lying whole: the scale was a guess (the frame spans
    700 mm), and a phone photo taken close had every index sampled too small."""
    img, truth = render_scene(4000, 3000, 3, seed=403, mat=False, occluders=0)
    pts = np.vstack([c.corners_px for c in truth.cards])
    x0, y0 = np.maximum(pts.min(0) - 150, 0).astype(int)
    x1, y1 = np.minimum(pts.max(0) + 150, [4000, 3000]).astype(int)
    crop = np.ascontiguousarray(img[y0:y1, x0:x1])  # three staggered cards, each about 400 px wide
    want = sorted((c.rank, c.suit) for c in truth.cards if c.kind == "face")
    assert len(want) == 3
    pipe = VisionPipeline()
    got = _cards(pipe.process(crop))  # read nothing before the scale search
    assert len(got) >= 2 and set(got) <= set(want), got
    scale = pipe._scale
    assert scale is not None  # kept for the frames that follow: the next frame reads without a search
    again = _cards(pipe.process(np.ascontiguousarray(img[y0 + 12 : y1, x0 + 20 : x1])))  # the camera moved a little
    assert len(again) >= 2 and set(again) <= set(want) and pipe._scale == scale


def test_covered_card_is_unknown_not_guessed():
    layout = [{"cx": 250, "cy": 200, "angle": 0, "rank": "8", "suit": "spades"}]
    img, truth = render_scene(*HD, seed=17, layout=layout, occluders=0)
    # paint over both corner indices with table colour: the card stays, unread
    import cv2

    from vision.mat import MatTracker

    cal = MatTracker().update(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    for corner in ([218.5, 156], [281.5, 244]):
        c = cal.mat_to_image([corner])[0]
        cv2.circle(img, (int(c[0]), int(c[1])), 42, (40, 90, 60), -1)
    result = VisionPipeline().process(img)
    assert all(s.kind == "unknown" for s in result.sightings)
    assert len(result.sightings) <= 1


@pytest.mark.parametrize("seed", [31, 32, 33])
def test_generated_scenes_have_no_misreads(seed):
    img, truth = render_scene(*HD, 8, seed=seed, mat=True)
    sc = score(VisionPipeline().process(img), truth)
    assert sc.misread == []
    assert sc.false_on_occluder == 0
    assert sc.found >= 0.6 * sc.expected


def test_a_still_table_reuses_the_last_result_and_a_change_is_seen():
    img, _ = render_scene(1280, 720, 4, seed=41, mat=True, occluders=0)
    pipe = VisionPipeline()
    first = pipe.process(img)
    noisy = img.copy()
    noisy[::7, ::5] = cv2.add(noisy[::7, ::5], 2)  # sensor noise (saturating), not a change
    again = pipe.process(noisy)
    assert again.index == first.index + 1 and again.sightings is first.sightings
    moved, _ = render_scene(1280, 720, 4, seed=41, mat=True, occluders=1)  # a hand over the table
    changed = pipe.process(moved)
    assert changed.sightings is not first.sightings
    full = VisionPipeline(reuse_static=False)
    # the same cards (their order follows confidence, which noise may shift)
    assert sorted(s.label for s in full.process(noisy).sightings) == sorted(s.label for s in first.sightings)


def test_a_frame_is_worked_with_one_blas_thread_and_numpy_is_left_as_it_was(monkeypatch):
    """OpenBLAS's threads spin on the networks' small products and take the core
    the server needs (bench/vision_blas.py), so a frame runs with one; numpy's
    own setting is back once the frame is done, and ``blas_threads=None`` leaves
    it alone."""
    import vision.pipeline as vp

    def blas_threads() -> list[int]:
        return [c.num_threads for c in ThreadpoolController().select(user_api="blas").lib_controllers]

    before = blas_threads()
    if not before:
        pytest.skip("numpy has no BLAS library that threadpoolctl can set")
    seen = []
    real = vp.read_patch

    def watching(*a, **k):
        seen.append(blas_threads())
        return real(*a, **k)

    monkeypatch.setattr(vp, "read_patch", watching)
    img, truth = render_scene(1280, 720, 4, seed=41, mat=True, occluders=0)
    with threadpool_limits(limits=2, user_api="blas"):
        limited = VisionPipeline().process(img)
        assert seen and all(n == [1] * len(before) for n in seen)
        assert blas_threads() == [2] * len(before)
        seen.clear()
        as_set = VisionPipeline(blas_threads=None).process(img)
        assert seen and all(n == [2] * len(before) for n in seen)
    assert blas_threads() == before
    assert score(limited, truth).read == score(as_set, truth).read > 0


def test_an_empty_table_and_blank_paper_give_no_sightings():
    """Frames where a step has nothing to work on (no paper; paper without a
    single ink spot) go through every step and report nothing."""
    table = np.full((720, 1280, 3), (40, 90, 50), np.uint8)
    assert VisionPipeline(use_mat=False).process(table).sightings == []
    paper = table.copy()
    paper[200:400, 300:440] = 235  # a blank white sheet: paper with no holes at all
    assert all(s.kind != "card" for s in VisionPipeline(use_mat=False).process(paper).sightings)


@pytest.mark.parametrize(
    ("frame", "says"),
    [
        (np.zeros((3, 3, 3), np.uint8), "too small"),
        (np.zeros((720, 20, 3), np.uint8), "too small"),
        (np.zeros((720, 1280), np.uint8), "BGR uint8"),
        (np.zeros((720, 1280, 4), np.uint8), "BGR uint8"),
        (np.zeros((720, 1280, 3), np.float32), "BGR uint8"),
        (None, "BGR uint8"),
    ],
)
def test_a_frame_vision_cannot_take_gets_a_clear_error_and_the_next_frame_reads(frame, says):
    pipe = VisionPipeline()
    with pytest.raises(ValueError, match=says):
        pipe.process(frame)
    img, truth = render_scene(1280, 720, 4, seed=54, mat=True, occluders=0)
    assert score(pipe.process(img), truth).found >= 1


def test_the_smallest_frame_taken_is_read_without_error():
    for shape in ((32, 32, 3), (32, 1000, 3), (1000, 32, 3), (33, 47, 3)):
        assert not VisionPipeline().process(np.full(shape, 128, np.uint8)).sightings


def _index_patch(rank_mm: float, with_suit: bool = True) -> np.ndarray:
    """An upright corner patch (paper, 4 px/mm) with a rank ``rank_mm`` tall 1.5 mm from its corner."""
    from vision.corner_index import PATCH_H, PATCH_PPM, PATCH_W

    patch = np.full((PATCH_H, PATCH_W, 3), 235, np.uint8)
    scale = rank_mm * PATCH_PPM / 22.0  # FONT_HERSHEY_SIMPLEX capitals are about 22 px tall at scale 1
    top = int(1.5 * PATCH_PPM)
    cv2.putText(patch, "K", (int(1.5 * PATCH_PPM), top + int(rank_mm * PATCH_PPM)), cv2.FONT_HERSHEY_SIMPLEX, scale, (20, 20, 20), max(2, int(scale * 3)))
    if with_suit:
        y = top + int((rank_mm + 1.5) * PATCH_PPM)
        cv2.circle(patch, (int(4.5 * PATCH_PPM), y + int(2.5 * PATCH_PPM)), int(2.2 * PATCH_PPM), (20, 20, 20), -1)
    return patch


def test_an_index_larger_than_the_patch_is_told_from_a_usual_one():
    from vision.pipeline import oversized_index

    assert oversized_index(_index_patch(15.0))  # a rank as tall as some decks print it
    assert not oversized_index(_index_patch(6.0))
    assert not oversized_index(np.full((120, 52, 3), 235, np.uint8))  # blank paper
    dark = np.full((120, 52, 3), 235, np.uint8)
    dark[8:100, 6:52] = 15  # solid ink (a marker, picture art) is no glyph
    assert not oversized_index(dark)


def test_a_grey_sleeve_reaching_in_from_beyond_the_frame_is_not_an_unknown_card():
    """bench/vision.py's 1080p scene 494: a grey sleeve's piece, card-sized and
    paper to the mask, reaches in from the frame's edge; it made an unknown
    card on the hand until such regions were passed over."""
    seed = 494
    img, truth = render_scene(*HD, 4 + seed % 9, seed=seed, mat=seed % 3 != 2)
    assert truth.occluder_mask.any()
    assert score(VisionPipeline().process(img), truth).false_on_occluder == 0


def test_a_grey_sleeve_cut_off_at_the_mats_edge_is_not_an_unknown_card():
    """A grey sleeve is paper to the mask; a card-sized piece of it cut off
    at the mat's edge must not become an unknown card: it is far greyer
    than the cards' paper."""
    layout = [{"cx": 150, "cy": 130, "angle": 0, "rank": "8", "suit": "spades"}]
    img, truth = render_scene(*HD, seed=17, layout=layout, occluders=0, max_tilt=0)
    # 80 x 75 mm of 150-grey on the mat, away from the card
    mm = np.float32([[[350, 250], [430, 250], [430, 325], [350, 325]]])
    cv2.fillConvexPoly(img, np.round(cv2.perspectiveTransform(mm, truth.homography)[0]).astype(np.int32), (150, 150, 150))
    result = VisionPipeline().process(img)
    assert [s.label for s in result.sightings] == ["8S"]


def _printed_with_corner_ids(centre_id: int, top_left: int, bottom_right: int):
    """A printed card as vision.cardart draws it, each of its three markers with an id of its own:
    what the camera sees when a small corner marker decodes as another id."""
    from PIL import Image, ImageDraw

    from vision import cardart
    from vision import geometry as g

    img = Image.new("RGBA", (cardart.W, cardart.H), (248, 246, 240, 255))
    o = g.PRINTED_CORNER_OFFSET
    cardart._paste_marker(img, centre_id, g.CARD_W / 2, g.CARD_H / 2, g.PRINTED_CENTRE_MARKER)
    cardart._paste_marker(img, top_left, o, o, g.PRINTED_CORNER_MARKER)
    cardart._paste_marker(img, bottom_right, g.CARD_W - o, g.CARD_H - o, g.PRINTED_CORNER_MARKER, rotate180=True)
    alpha = Image.new("L", (cardart.W, cardart.H), 0)
    cardart._rounded_alpha(ImageDraw.Draw(alpha))
    img.putalpha(alpha)
    return cardart._to_bgra(img)


@pytest.mark.parametrize("misread", [38, 652], ids=["a back id", "another printed id"])
def test_a_corner_marker_decoded_as_another_id_adds_no_card(monkeypatch, misread):
    """Seen in the Double Side Play demo at 640x360: card 609's top-left corner marker (14 mm, a few
    pixels) decoded as back id 38, a face-down card on a face-up one, and the referee refused a legal
    play (DSP-T4).  A back carries only a centre marker, and one card shows one id: the centre and the
    other corner (609) outvote the stray."""
    from vision import cardart

    monkeypatch.setattr(cardart, "printed_card", lambda marker_id, title="": _printed_with_corner_ids(609, misread, 609))
    layout = [{"cx": 250, "cy": 200, "angle": 20, "kind": "printed", "marker_id": 609}]
    img, _ = render_scene(*HD, seed=21, layout=layout, occluders=0)
    labels = sorted(s.label for s in VisionPipeline().process(img).sightings)
    assert labels == ["marker:609"], labels


def test_two_printed_cards_overlapping_are_two_cards():
    """The one-id-per-card rule merges only outlines that are one card: a printed card lying a third
    over another keeps both."""
    layout = [{"cx": 230, "cy": 200, "angle": 0, "kind": "printed", "marker_id": 610},
              {"cx": 262, "cy": 215, "angle": 0, "kind": "printed", "marker_id": 611}]
    img, _ = render_scene(*HD, seed=22, layout=layout, occluders=0)
    labels = sorted(s.label for s in VisionPipeline().process(img).sightings)
    assert labels == ["marker:610", "marker:611"], labels


def test_cards_in_shade_on_a_beige_table_are_found(monkeypatch):
    """A card face in shade (a lamp's fall-off across it, 5-20 % darker) on a beige table is grey
    and hardly brighter than the table: found by its colour (vision.cards.NEUTRAL_PAPER_SAT), where
    brightness alone lost half of them."""
    import vision.cards as vc

    layout = [{"cx": 150 + 80 * k, "cy": 200 + 20 * (k % 2), "angle": 10 * k - 15, "kind": "face", "rank": r, "suit": s}
              for k, (r, s) in enumerate([("7", "hearts"), ("Q", "spades"), ("4", "clubs"), ("K", "diamonds")])]
    img, truth = render_scene(1280, 720, seed=4, layout=layout, occluders=0, mat=False, background="light")
    shade = np.linspace(0.95, 0.8, img.shape[1], dtype=np.float32)[None, :, None]
    on_cards = np.zeros(img.shape[:2], np.uint8)
    for c in truth.cards:
        cv2.fillConvexPoly(on_cards, np.int32(c.corners_px), 1)
    img = np.where(on_cards[..., None] > 0, np.clip(img * shade, 0, 255), img).astype(np.uint8)
    s = score(VisionPipeline().process(img), truth)
    assert s.found == 4 and s.misread == [], s
    # brightness alone (and no corners from edges, which an untinted light table gets: they find 3)
    monkeypatch.setattr(vc, "TINTED_TABLE_SAT", 256)
    # an untinted light table's ink spots (pipeline.light_table_holes) find all four too
    assert score(VisionPipeline(edge_corners=False).process(img), truth).found == 4
    monkeypatch.setattr(pl, "light_table_holes", lambda *a: None)
    # without them, a suit whose rank is faint to the mask (vision.lone_suits) still gives one card, read right
    s = score(VisionPipeline(edge_corners=False).process(img), truth)
    assert s.found == 3 and s.misread == [], s
    monkeypatch.setattr(ip, "lone_suit_candidates", lambda *a, **k: [])
    assert score(VisionPipeline(edge_corners=False).process(img), truth).found <= 2


def test_cards_on_a_white_tablecloth_are_found(monkeypatch):
    """Paper must stand out from the table; 28 grey levels over a white cloth (about 210) left paper
    under a lamp's fall-off too little room, and none of this scene's nine cards was found.  Over a
    light table the margin is a share of the levels left above it (vision.cards.PAPER_HEADROOM)."""
    import vision.cards as vc

    img, truth = render_scene(1280, 720, 11, seed=7, mat=False, background="white")
    s = score(VisionPipeline().process(img), truth)
    assert s.expected == 9 and s.found >= 5 and s.misread == [], s
    monkeypatch.setattr(vc, "PAPER_HEADROOM", 1.0)  # the old fixed margin
    # and no corners from edges (they find 3)
    assert score(VisionPipeline(edge_corners=False).process(img), truth).found == 0


def test_the_white_bright_and_black_tables_are_drawn_only_when_asked():
    """The benches' "bright" table (a white table nearly as bright as the
    cards, where finding paper by its brightness fails: docs/vision.md,
    session 36) and "black" cloth (session 37) are never among the random
    tables; bright lies above the white cloth, black below every dark felt."""
    drawn = {render_scene(320, 240, 1, seed=s, mat=False, occluders=0, effects=False)[1].background for s in range(40)}
    assert drawn == {"wood", "felt", "light", "plaid"}
    levels = {}
    for table in ("white", "bright", "black"):
        img, _ = render_scene(320, 240, 0, seed=3, mat=False, occluders=0, effects=False, background=table)
        levels[table] = float(np.median(img))
    assert levels["bright"] > levels["white"] + 10
    assert levels["black"] < 35
