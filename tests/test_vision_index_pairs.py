"""The edge-free index finder (vision.index_pairs): corner indices found from
their rank/suit ink pairs where no outer card corner is found (a staggered
pile, cards touching with no visible line between them)."""

import numpy as np
import pytest

import vision.index_pairs as ip
import vision.pipeline as vp
from vision.cards import card_outline
from vision.evaluate import _index_spots, score
from vision.index_pairs import (
    Spots,
    candidate_pairs,
    edges_beyond,
    find_index_pairs,
    outline_index_spots,
    outlines_index_spots,
    read_card_index_spots,
)
from vision.scene import render_scene


def _spots(rects):
    """Axis-aligned spots from (centre x, centre y, width, height) in mm."""
    c = np.array([(x, y) for x, y, _, _ in rects], np.float64)
    ex = np.array([(w, 0.0) for _, _, w, _ in rects])
    ey = np.array([(0.0, h) for _, _, _, h in rects])
    return Spots(np.arange(1, len(rects) + 1), c, ex, ey, np.zeros((len(rects), 5), np.int64))


def test_a_rank_over_a_smaller_suit_is_a_pair_and_gives_the_cards_down():
    # rank 6 mm tall at (10, 10), suit 4.5 mm tall 1 mm below it
    spots = _spots([(10, 10, 4.5, 6.0), (10, 16.25, 4.5, 4.5)])
    pairs = candidate_pairs(spots, np.zeros(2, bool))
    best = pairs[0]
    assert best[1] == (0,) and best[2] == 1
    assert np.allclose(best[4], [0, 1])  # v: rank -> suit


def test_centre_pips_are_not_index_pairs():
    # two 9 mm pips 17 mm apart (a pip column) and a lone one
    spots = _spots([(20, 20, 8.0, 9.0), (20, 37, 8.0, 9.0), (40, 20, 8.0, 9.0)])
    assert candidate_pairs(spots, np.zeros(3, bool)) == []


def test_the_two_glyphs_of_a_ten_pair_with_their_suit():
    spots = _spots([(9, 10, 1.5, 6.0), (12, 10, 3.5, 6.0), (10.5, 16.5, 4.5, 4.5)])
    pairs = candidate_pairs(spots, np.zeros(3, bool))
    assert any(set(p[1]) == {0, 1} and p[2] == 2 and abs(p[4][0]) < 0.05 for p in pairs)


def test_known_spots_are_skipped():
    spots = _spots([(10, 10, 4.5, 6.0), (10, 16.25, 4.5, 4.5)])
    assert candidate_pairs(spots, np.array([True, False])) == []


def test_index_spots_of_an_outline_sit_5_by_8_mm_in_from_each_corner():
    u, v = np.array([0.0, 1.0]), np.array([-1.0, 0.0])
    pts = outline_index_spots(card_outline(np.array([100.0, 50.0]), u, v))
    assert len(pts) == 4
    assert min(np.linalg.norm(pts - [100 - 8, 55], axis=1)) < 1e-6


def test_the_index_spots_of_many_outlines_are_each_outlines_in_turn():
    rng = np.random.default_rng(2)
    outlines = [card_outline(rng.uniform(0, 300, 2), *_turned(a)) for a in rng.uniform(0, 6.3, 5)]
    outlines.append(np.array([[0.0, 0.0], [0.0, 0.0], [5.0, 9.0], [1.0, 9.0]]))  # a degenerate corner is left out
    each = np.vstack([outline_index_spots(o) for o in outlines])
    assert np.array_equal(outlines_index_spots(outlines), each)
    assert outlines_index_spots([]).shape == (0, 2)


def test_a_read_card_hides_only_the_index_spots_of_its_anchor_corner_and_the_one_across():
    point, u, v = np.array([100.0, 50.0]), *_turned(0.4)
    outline = card_outline(point, u, v)
    anchor = point + 5 * u + 8 * v
    spots = read_card_index_spots(outline, [anchor])
    every = outline_index_spots(outline)
    assert len(spots) == 2
    # the anchor's own spot and the one diagonally across (the card's middle halfway between)
    assert min(np.linalg.norm(spots - anchor, axis=1)) < 1e-6
    assert np.allclose(spots.mean(axis=0), outline.mean(axis=0))
    assert all(min(np.linalg.norm(every - s, axis=1)) < 1e-6 for s in spots)
    # anchors at two neighbouring corners (four-index decks): all four
    other = outline[1] + 5 * (outline[0] - outline[1]) / 63 + 8 * (outline[2] - outline[1]) / 88
    assert len(read_card_index_spots(outline, [anchor, other])) == 4


def test_the_next_card_of_a_staggered_column_is_read_beside_a_read_cards_unprinted_corner():
    """1080p scene 57: a column of clubs, each card 11 mm lower than the one
    under it.  The 2 of clubs' index lies 5 by 8 mm in from the unprinted
    corner of the 2 of spades read above it, where a four-index deck would
    print; that spot was skipped as known, and the 2 was lost."""
    img, truth = render_scene(1920, 1080, 4 + 57 % 9, seed=57, mat=True)
    result = vp.VisionPipeline().process(img)
    two = next(c for c in truth.cards if (c.rank, c.suit) == ("2", "clubs"))
    spot = _index_spots(two, truth.homography)[0]
    read = [s for s in result.sightings if (s.rank, s.suit) == ("2", "clubs")]
    # read at its own index: within 18 px (about 7 mm at this frame's 2.6 px/mm)
    assert read and min(np.linalg.norm(np.array(s.anchors_px) - spot, axis=1).min() for s in read) < 9 * 2
    s = score(result, truth)
    assert not s.misread and s.found == s.expected


def _turned(a: float) -> tuple[np.ndarray, np.ndarray]:
    return np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])


def test_an_edge_beyond_the_rank_top_is_seen_on_each_ray_apart():
    gray = np.full((100, 200), 220, np.uint8)
    gray[:, 150:] = 60  # the table right of x = 150
    tops = np.array([[145.0, 50.0], [60.0, 50.0], [3.0, 50.0]])
    vs = np.array([[-1.0, 0.0], [-1.0, 0.0], [1.0, 0.0]])  # looking beyond the top: +x, +x, -x
    assert edges_beyond(gray, np.eye(3), tops, vs).tolist() == [True, False, True]  # table; blank paper; off the image
    assert edges_beyond(gray, np.eye(3), np.zeros((0, 2)), np.zeros((0, 2))).shape == (0,)


def _pile_and_row(angle: float) -> list[dict]:
    """A staggered pile (only each card's corner shows) and a row of cards
    whose long edges touch, both turned by ``angle``."""
    a = np.radians(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    pile = [("K", "spades"), ("5", "hearts"), ("9", "clubs"), ("J", "diamonds"), ("7", "clubs")]
    row = [("Q", "hearts"), ("4", "spades"), ("8", "diamonds")]
    out = []
    for i, (r, s) in enumerate(pile):
        x, y = rot @ [12.0 * i, 20.0 * i]
        out.append({"cx": 200 + x, "cy": 140 + y, "angle": angle, "rank": r, "suit": s})
    for i, (r, s) in enumerate(row):
        x, y = rot @ [63.0 * i, 0.0]
        out.append({"cx": 330 + x, "cy": 270 + y, "angle": angle, "rank": r, "suit": s})
    return out


@pytest.mark.parametrize(("angle", "seed"), [(90, 1), (0, 1), (25, 1)])
def test_pile_and_touching_row_read_more_cards_with_the_finder(monkeypatch, angle, seed):
    img, truth = render_scene(1280, 720, seed=seed, layout=_pile_and_row(angle), occluders=0)
    with_finder = score(vp.VisionPipeline().process(img), truth)
    monkeypatch.setattr(vp, "find_index_pairs", lambda *a, **k: [])
    without = score(vp.VisionPipeline().process(img), truth)
    assert with_finder.found > without.found
    assert with_finder.read == with_finder.found  # nothing misread
    assert with_finder.false_cards == 0


def test_finder_alone_reads_indices_where_it_is_given_no_corner(monkeypatch):
    img, truth = render_scene(1280, 720, seed=1, layout=_pile_and_row(90), occluders=0)
    seen = []
    monkeypatch.setattr(vp, "find_index_pairs", lambda *a, **k: seen.append((a, k)) or [])
    pipe = vp.VisionPipeline()
    pipe.process(img)
    (frame, plane, holes, mask, gray, *_), kw = seen[0]
    # no corner readings and no cards known: every index is the finder's own
    found = find_index_pairs(frame, plane, holes, mask, gray, refs=kw["refs"])
    assert len(found) >= 4
    faces = [c for c in truth.cards if c.kind == "face"]
    ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
    for p in found:
        anchor = plane.to_frame(p.anchor.reshape(1, 2))[0]
        near = min(faces, key=lambda c: np.linalg.norm(_index_spots(c, truth.homography) - anchor, axis=1).min())
        assert (p.reading.rank, p.reading.suit) == (near.rank, near.suit)
        assert np.linalg.norm(_index_spots(near, truth.homography) - anchor, axis=1).min() < 9 * ppm


def _finder_args(img):
    """The arguments the pipeline hands the finder for ``img``."""
    seen = []
    real = vp.find_index_pairs
    vp.find_index_pairs = lambda *a, **k: seen.append((a, k)) or []
    try:
        vp.VisionPipeline().process(img)
    finally:
        vp.find_index_pairs = real
    return seen[0]


def test_the_trace_tells_what_became_of_every_pair():
    img, _ = render_scene(1280, 720, seed=1, layout=_pile_and_row(90), occluders=0)
    (frame, plane, holes, mask, gray, *_), kw = _finder_args(img)
    trace: dict = {}
    found = find_index_pairs(frame, plane, holes, mask, gray, refs=kw["refs"], trace=trace)
    fates = [c[3] for c in trace["cands"]]
    assert fates.count("read") == len(found) > 0
    assert set(fates) <= {"read", "declined", "misplaced", "cap", "used", "repeat", "no_edge"}
    assert len(trace["skip"]) == len(trace["spots"].centres)


def test_pairs_with_no_card_end_seen_are_tried_few_and_read_right(monkeypatch):
    # every pair looks edge-free (as an index whose card edge is lost against
    # a white card next to it): a few are still read, and what is read is on
    # the table (a 6 or 9 too: upside down each is the other, and the readers
    # tell an upside-down patch)
    img, truth = render_scene(1280, 720, seed=1, layout=_pile_and_row(0), occluders=0)
    (frame, plane, holes, mask, gray, *_), kw = _finder_args(img)
    monkeypatch.setattr(ip, "edges_beyond", lambda gray, to_work, tops, vs: np.zeros(len(tops), bool))
    trace: dict = {}
    found = find_index_pairs(frame, plane, holes, mask, gray, refs=kw["refs"], trace=trace)
    tried = [c for c in trace["cands"] if c[3] in ("read", "declined", "misplaced")]
    assert 0 < len(tried) <= ip.MAX_BLIND_TRIES
    cards = {(c.rank, c.suit) for c in truth.cards if c.kind == "face"}
    assert all((p.reading.rank, p.reading.suit) in cards for p in found)


def test_misses_bench_gives_every_missed_card_one_finder_fate():
    from bench.vision_misses import FINDER_FATES, classify

    t = classify(1, seed0=7)
    assert t["missed"] == sum(t[k] for k in FINDER_FATES)
    assert t["expected"] == t["corner_read_ok"] + t["corner_misread"] + t["corner_declined"] + t["no_corner"]


def test_a_pair_where_a_tried_corner_put_its_index_is_read_last_and_only_when_sure(monkeypatch):
    # 720p bench scene 232: a corner tried and declined puts its index places
    # on another card's index, whose spots were skipped before session 41;
    # the pair is now read after all others, at TRIED_CORNER_CONFIDENCE.  Since session 57 the
    # stacked-index search reads that card (the jack of clubs) first, from its rank and suit run
    # together: left out here, to see the finder's part
    monkeypatch.setattr(vp, "MERGED_SIBLING_TRIES", 0)
    seed = 232
    img, truth = render_scene(1280, 720, 4 + seed % 9, seed=seed, mat=seed % 3 != 2)
    (frame, plane, holes, mask, gray, *rest), kw = _finder_args(img)
    trace: dict = {}
    found = find_index_pairs(frame, plane, holes, mask, gray, *rest, **kw, trace=trace)
    late = [k for k, (_t, _v, ids, fate) in enumerate(trace["cands"]) if fate == "read" and trace["at_tried"][list(ids)].any()]
    assert late
    tried = [k for k, (_t, _v, ids, _f) in enumerate(trace["cands"]) if trace["at_tried"][list(ids)].any()]
    assert min(tried) > max(k for k, (_t, _v, ids, fate) in enumerate(trace["cands"]) if not trace["at_tried"][list(ids)].any())
    cards = {(c.rank, c.suit) for c in truth.cards if c.kind == "face"}
    assert all((p.reading.rank, p.reading.suit) in cards for p in found)
    assert min(p.reading.confidence for p in found) >= ip.MIN_CONFIDENCE
    # held to more than any reading can reach, that pair is read no more
    monkeypatch.setattr(ip, "TRIED_CORNER_CONFIDENCE", 1.01)
    again = find_index_pairs(frame, plane, holes, mask, gray, *rest, **kw)
    assert len(again) == len(found) - len(late)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pairs_within_finds_every_close_pair_as_comparing_all_would(seed):
    # candidate_pairs compares only spots near each other (a page of print holds
    # thousands of spots): the grid must miss no pair and add none
    rng = np.random.default_rng(seed)
    pts = np.vstack([rng.uniform(-300, 300, (400, 2)), rng.uniform(0, 20, (30, 2)), np.zeros((2, 2))])
    r = 17.25
    i, j = ip._pairs_within(pts, r)
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    want_i, want_j = np.nonzero((d < r) & ~np.eye(len(pts), dtype=bool))
    assert np.array_equal(i, want_i) and np.array_equal(j, want_j)
    assert len(ip._pairs_within(pts[:1], r)[0]) == 0


def test_a_ten_run_together_with_its_suit_is_tried_from_its_ends(monkeypatch):
    # 1080p bench scene 129: the 10 of hearts shows its index only as one ink
    # spot (the glyphs run together), 13.7 mm long and 8.4 wide: a "10" is
    # wide, so rank and suit run together are less than 1.7 times as long as
    # wide (MERGED_ASPECT), and no pair was tried there before session 42
    seed = 129
    img, truth = render_scene(1920, 1080, 4 + seed % 9, seed=seed, mat=seed % 3 != 2)
    card = truth.cards[3]
    assert (card.rank, card.suit) == ("10", "hearts")
    spots = _index_spots(card, truth.homography)
    ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))

    def read_there(result):
        return [s.label for s in result.sightings if s.kind == "card" and min(np.linalg.norm(np.array(a) - p) for a in s.anchors_px for p in spots) < 9 * ppm]

    assert read_there(vp.VisionPipeline().process(img)) == ["10H"]
    # since session 57 the stacked-index search reads it too, as a spot as large as a read
    # card's rank and suit together: left out here, to see the finder's part
    monkeypatch.setattr(vp, "MERGED_SIBLING_TRIES", 0)
    monkeypatch.setattr(ip, "MERGED_ASPECT", (1.7, 3.4))
    assert read_there(vp.VisionPipeline().process(img)) == []
    # such a spot is held to WIDE_MERGED_CONFIDENCE: above every reading, it is read no more
    monkeypatch.setattr(ip, "MERGED_ASPECT", (1.4, 3.4))
    monkeypatch.setattr(ip, "WIDE_MERGED_CONFIDENCE", 1.01)
    assert read_there(vp.VisionPipeline().process(img)) == []


def test_a_pile_whose_other_pairs_take_twelve_tries_still_gets_its_nine_read():
    # 720p scene 43: a staggered pile's pairs declined or misplaced used up the 12 tries a
    # frame had until session 48, before the 9 of spades' pair (8 of 11 cards found, now 9).
    # Since session 55 a tenth card is found there, the queen of spades, read as clubs
    # (docs/vision.md: spades and clubs are most misreads at 720p)
    img, truth = render_scene(1280, 720, 4 + 43 % 9, seed=43, mat=43 % 3 != 2)
    result = vp.VisionPipeline(reuse_static=False).process(img)
    assert ("9", "spades") in {(s.rank, s.suit) for s in result.sightings if s.kind == "card"}
    s = score(result, truth)
    assert s.read == 9 and s.false_cards == 0


def test_a_hand_that_leaves_one_index_of_a_two_still_gets_it_read_past_twenty_tries():
    # 1080p scene 111: the 2 of spades shows one index beside a hand; at 1080p the pips and
    # the hand's edges make many pairs, and its pair came after the 20 tries a frame had
    # until session 49 (4 of 5 cards found, now all 5)
    img, truth = render_scene(1920, 1080, 4 + 111 % 9, seed=111, mat=111 % 3 != 2)
    result = vp.VisionPipeline(reuse_static=False).process(img)
    assert ("2", "spades") in {(s.rank, s.suit) for s in result.sightings if s.kind == "card"}
    s = score(result, truth)
    assert s.found == s.read == s.expected == 5 and not s.misread and s.false_cards == 0


def test_a_piles_indices_run_together_into_one_spot_are_read_beside_a_read_card(monkeypatch):
    # 720p scene 82: a pile of five far from the camera; the three under the ace show their
    # index only, rank and suit one ink spot (a pixel's gap), too short for the finder's merged
    # spots.  Beside the read 6 of hearts, spots as large as its rank and suit together are read
    # as its siblings (session 57): the 2 of hearts and the 3 of diamonds (the 8's declines)
    img, truth = render_scene(1280, 720, 4 + 82 % 9, seed=82, mat=82 % 3 != 2)
    result = vp.VisionPipeline(reuse_static=False).process(img)
    cards = {(s.rank, s.suit) for s in result.sightings if s.kind == "card"}
    assert {("2", "hearts"), ("3", "diamonds")} <= cards
    s = score(result, truth)
    assert s.read == s.found == 4 and s.false_cards == 0
    monkeypatch.setattr(vp, "MERGED_SIBLING_TRIES", 0)
    s = score(vp.VisionPipeline(reuse_static=False).process(img), truth)
    assert s.read == s.found == 2
