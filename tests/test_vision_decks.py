"""The reader on a deck it was not built around: Debian's third-party card art.

Uses aisleriot's "simplistic" deck (``gnome-cards-data``, drawn by
``rsvg-convert`` from ``librsvg2-bin``).  Skips when those are not installed,
except under ``./run test`` (``TC_REQUIRE_PARTS=1``), where a missing part is a
failure, as in tests/test_parts.py.  The floors are what was measured (see
bench/vision_decks.py) less a margin, not targets.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.support.decks import installed_deck
from vision import cardart
from vision import decks as decklib
from vision.evaluate import Score, score
from vision.glyphs import RANKS, SUITS, card_code
from vision.pipeline import VisionPipeline
from vision.scene import render_scene
from vision.teach import load_deck, teach

DECK = "aisleriot/simplistic"
SCENES = 6


def _deck() -> decklib.Deck:
    return installed_deck(DECK)


def _other_deck(name: str) -> decklib.Deck:
    """Another installed deck, rendered; fails or skips as the main deck does
    when the packages are missing, and skips when only this deck is."""
    found = [d for d in decklib.decks() if d.name == name]
    if not found:
        _deck()
        pytest.skip(f"{name} is not installed")
    found[0].render_all()
    return found[0]


@pytest.fixture(scope="module")
def deck() -> decklib.Deck:
    d = _deck()
    d.render_all()
    return d


def _measure(deck, references=None) -> Score:
    total = Score()
    for i in range(SCENES):
        img, truth = render_scene(1280, 720, 4 + i % 9, seed=i, mat=i % 3 != 2, faces=deck)
        total.add(score(VisionPipeline(references=references).process(img), truth))
    return total


@pytest.fixture(scope="module")
def untaught(deck) -> Score:
    return _measure(deck)


def test_the_installed_decks_are_found_and_the_foreign_suits_are_left_out():
    _deck()
    names = {s.name for s in decklib.all_sources()}
    fit = {d.name for d in decklib.decks()}
    assert DECK in fit
    assert "aisleriot/swiss-xvii" in names and "aisleriot/swiss-xvii" not in fit  # Swiss suits
    if decklib.KDE_DIR.is_dir() or os.environ.get("TC_REQUIRE_PARTS"):
        assert "kde/standard" in fit
        assert "kde/xskat-german" in names and "kde/xskat-german" not in fit  # German suits
    assert all(d.english for d in decklib.decks(english_only=True))


def test_a_face_is_rasterized_to_the_generators_art_format(deck):
    art = deck("Q", "hearts")
    assert art.shape == (cardart.H, cardart.W, 4) and art.dtype == np.uint8
    assert art[0, 0, 3] < 128 and art[cardart.H // 2, cardart.W // 2, 3] == 255  # rounded corner, opaque paper
    b, gr, r = (int(v) for v in art[..., :3][art[..., 3] == 255].reshape(-1, 3).mean(0))
    assert min(b, gr, r) > 150  # mostly white paper
    x0, y0, x1, y1 = deck.index_box
    assert 0 <= x0 < x1 <= 16 and 0 <= y0 < y1 <= 30 and y1 - y0 > 8  # rank over suit in the top-left corner
    again = decklib.Deck(deck.source, deck.dir.parent)("Q", "hearts")  # from the disk cache
    assert np.array_equal(art, again)


def test_a_scene_with_foreign_faces_keeps_the_seeds_layout(deck):
    _, ours = render_scene(1280, 720, 6, seed=3)
    img, theirs = render_scene(1280, 720, 6, seed=3, faces=deck)
    assert img.shape == (720, 1280, 3)
    for a, b in zip(ours.cards, theirs.cards, strict=True):
        assert (a.kind, a.rank, a.suit) == (b.kind, b.rank, b.suit)
        assert np.allclose(a.corners_px, b.corners_px)


def test_the_reader_finds_and_reads_a_foreign_deck(untaught):
    # measured at 79 % found, 100 % read on these scenes (26/33, 26/26)
    assert untaught.expected >= 25
    assert untaught.found >= 0.55 * untaught.expected, untaught
    assert untaught.read >= 0.9 * untaught.found, untaught.misread


def test_teaching_a_foreign_deck_does_not_make_it_worse(deck, untaught, tmp_path: Path):
    paths = []
    for k, (r, s) in enumerate((r, s) for s in SUITS for r in RANKS):
        p = tmp_path / f"{card_code(r, s)}.jpg"
        cv2.imwrite(str(p), decklib.single_card_photo(deck(r, s), seed=k))
        paths.append(p)
    report = teach(paths, "simplistic", root=tmp_path / "taught")
    assert len(report.learnt) >= 48, report.failed
    taught = _measure(deck, load_deck("simplistic", root=tmp_path / "taught"))
    # measured: 33/33 found and read after teaching, from 26/26
    assert taught.read >= untaught.read, (taught.misread, untaught.misread)
    assert len(taught.misread) <= len(untaught.misread) + 1, taught.misread


def test_a_photo_reads_a_jumbo_index_the_size_test_passes_over(monkeypatch):
    """aisleriot's tango deck prints a rank about 13 mm tall, narrow and in
    full (no cut-off ink for pipeline.oversized_index to see), with its suit
    cut off at the patch's foot: declined at the usual patch.  In a phone
    photo (about 6.5 px per mm here) every declined corner is read zoomed out
    too (pipeline.ZOOM_ALL_PPM), so its J of diamonds is read."""
    from vision import corner_index, pipeline

    tango = _other_deck("aisleriot/tango")
    img, truth = render_scene(4000, 3000, 6, seed=1000, mat=False, faces=tango)
    jd = [c for c in truth.cards if c.kind == "face" and (c.rank, c.suit) == ("J", "diamonds")]
    assert jd and jd[0].readable
    labels = {s.label for s in VisionPipeline().process(img).sightings}
    assert "JD" in labels
    # without the zoomed-out look, only the whole-patch network reading where
    # no glyphs were cut (Thresholds.patch_no_glyphs) reads it: the size test
    # alone passes it over
    monkeypatch.setattr(pipeline, "ZOOM_ALL_PPM", float("inf"))
    assert "JD" in {s.label for s in VisionPipeline().process(img).sightings}
    monkeypatch.setattr(corner_index, "THRESHOLDS", dataclasses.replace(corner_index.THRESHOLDS, patch_no_glyphs=1.01))
    assert "JD" not in {s.label for s in VisionPipeline().process(img).sightings}


def test_a_photo_whose_cards_lie_small_is_read_at_a_finer_copy(monkeypatch):
    """Without a mat the work copy's longer side is 1280 px until the cards'
    scale is known; in a 12 MP photo whose cards are about 4 px per mm that
    leaves 1.3 px per mm, where a Paris deck's rank and suit run together and
    its frame line joins the table.  Once a card lying whole gives the scale,
    the copy is made again at 3 px per mm (pipeline.NO_MAT_WORK_PX_PER_MM):
    scene 1001 of bench.vision_decks_photo, 5 of 5 cards, against 2 (4 with
    the corners of the cards' edges, which see the frame line's notch; 3
    since session 42, whose edge-free finder tries a "10" run together with
    its suit, index_pairs.MERGED_ASPECT)."""
    from vision import pipeline

    paris = _other_deck("aisleriot/paris")
    img, truth = render_scene(4000, 3000, 7, seed=1001, mat=False, faces=paris)
    pipe = VisionPipeline()
    s = score(pipe.process(img), truth)
    assert s.expected == 5 and s.found == 5 and not s.misread
    assert pipe._frame_base(img).f > 1.2 * pipeline.NO_MAT_WORK_SIDE / 4000
    monkeypatch.setattr(pipeline, "NO_MAT_MAX_WORK_SIDE", pipeline.NO_MAT_WORK_SIDE)
    assert score(VisionPipeline(edge_corners=False).process(img), truth).found <= 3


def test_a_staggered_card_whose_index_runs_into_its_picture_frame_is_read_where_the_run_puts_it(monkeypatch):
    """kde/standard's court pictures are framed a hair from the index: in a
    phone photo of a staggered column (7 of diamonds, 8 of spades, K of
    spades, 3 of hearts) the K's rank and suit run into the frame, so no ink
    spot marks the index and no corner of its own shows.  The cards read
    above and below it lie two steps apart, so a card lies midway
    (vision.stagger), and its index is read there."""
    from vision import stagger

    standard = _other_deck("kde/standard")
    img, truth = render_scene(4000, 3000, 6, seed=1000, mat=False, faces=standard)
    ks = [c for c in truth.cards if c.kind == "face" and (c.rank, c.suit) == ("K", "spades")]
    assert ks and ks[0].readable and ks[0].visible_fraction < 0.4
    s = score(VisionPipeline().process(img), truth)
    assert "KS" in _read_labels(s, truth) and not s.misread
    monkeypatch.setattr(stagger, "gap_corners", lambda cards: [])
    s = score(VisionPipeline().process(img), truth)
    assert "KS" not in _read_labels(s, truth)


def _read_labels(s: Score, truth) -> set[str]:
    """Codes of the cards a score found and read right."""
    faces = [c for c in truth.cards if c.kind == "face" and c.readable]
    return {card_code(c.rank, c.suit) for c, (_, found, right) in zip(faces, s.outcomes, strict=True) if found and right}


def test_a_pile_photo_with_no_card_lying_whole_keeps_the_scale_its_cards_have():
    """No card lies whole, so the scale is searched: the frame-size guess and
    scales twice and four times closer, the one that reads the most cards
    winning.  The guess was read at the 1280 px copy (1.8 px per mm here),
    where it read 2 cards, and a scale twice too large read 3 (a large
    index's rank still fills its patch): every outline came out half size
    and 1 card was found.  The guess is now read at the copy it asks for
    (bench.vision_decks_photo scene 1001: nicu-white)."""
    nicu = _other_deck("kde/nicu-white")
    img, truth = render_scene(4000, 3000, 7, seed=1001, mat=False, faces=nicu)
    sides = []
    for c in truth.cards:
        q = np.asarray(c.corners_px, float)
        d = sorted(float(np.hypot(*(q[(k + 1) % 4] - q[k]))) for k in range(2))
        sides += [d[0] / 63, d[1] / 88]
    pipe = VisionPipeline()
    s = score(pipe.process(img), truth)
    assert s.found >= 3 and not s.misread
    assert 0.8 < pipe._scale / float(np.median(sides)) < 1.25


def test_a_four_colour_decks_yellow_diamonds_are_found_in_a_photo(monkeypatch):
    """aisleriot's anglo_modern_4_color prints diamonds yellow: its ink was
    neither clearly red nor black, and where a corner's patch lay a little off
    the reader declined it (bench.vision_decks_photo scene 1002: the 2 and 6
    of diamonds, 3 of 5 found).  Yellow now counts as a red suit's ink
    (corner_index.YELLOW_GREEN_OVER_BLUE): 5 of 5.  Whether the whole photo
    reads fewer without it depends on the machine (3 found on the machine
    this was written on, 4 on session 42's, 5 on session 61's: the numerics
    differ, not the reader), so the rule itself is checked on the deck's own
    index ink: too little red to say (redness 0.14), red only as yellow."""
    from vision import corner_index

    deck = _other_deck("aisleriot/anglo_modern_4_color")
    img, truth = render_scene(4000, 3000, 8, seed=1002, mat=False, faces=deck)
    s = score(VisionPipeline().process(img), truth)
    assert s.expected == 5 and s.found == 5 and not s.misread
    # the index ink's colour as the reader measures it: a share of the paper's (white-balanced)
    x0, y0, x1, y1 = (int(round(v * cardart.PX)) for v in deck.index_box)
    corner = deck("6", "diamonds")[y0:y1, x0:x1]
    box, ink = np.ascontiguousarray(corner[..., :3]), decklib._ink(corner)
    colour = corner_index._ink_colour(box, ink, corner_index._paper_colour(box, ~ink))
    assert corner_index.redness_says(corner_index._redness(colour)) is None
    assert corner_index._colour_of(colour) is True
    monkeypatch.setattr(corner_index, "YELLOW_GREEN_OVER_BLUE", float("inf"))
    assert corner_index._colour_of(colour) is None


def test_a_white_tables_specks_are_not_taken_for_a_card_lying_whole(monkeypatch):
    """On a white cloth the paper threshold lies a few levels above the
    cloth, and its noise leaves clumps of specks; one 25x30 px clump was as
    rectangular as a card, so the scale was taken from it (1.1 frame px per
    mm, against 5) and no card was read (bench.vision_decks_photo --background
    white, kde/standard scene 1001).  A card lying whole must now be at least
    pipeline.MIN_WHOLE_CARD_PX wide in the first work copy: 2 of 3 found.
    And since session 45 a scale from blobs lying whole on none of which a
    card is found is searched for as if there were none (a score pad is as
    long for its width as a card): with no least width, the clump's scale
    is set aside and the cards are read as well."""
    from vision import pipeline

    deck = _other_deck("kde/standard")
    img, truth = render_scene(4000, 3000, 7, seed=1001, mat=False, faces=deck, background="white")
    s = score(VisionPipeline().process(img), truth)
    assert s.expected == 3 and s.found >= 2 and not s.misread
    monkeypatch.setattr(pipeline, "MIN_WHOLE_CARD_PX", 0.0)
    s = score(VisionPipeline().process(img), truth)
    assert s.found >= 2 and not s.misread
