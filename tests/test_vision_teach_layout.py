"""Teaching a deck from photos of its suits laid out A to K (vision.teach,
``companion vision teach --deck NAME spades.jpg ...``): the card's place says
what it is, so a deck whose court letters the reader does not know (a German
B for the jack) is taught, and a layout out of order or short is refused
with a reason, never learnt wrong."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import decks as decklib
from vision.glyphs import RANKS
from vision.pipeline import VisionPipeline
from vision.scene import render_scene
from vision.teach import load_deck, reading_order, suit_from_filename, teach


def test_a_photo_named_after_a_suit_holds_that_suit():
    assert suit_from_filename("spades.jpg") == "spades"
    assert suit_from_filename("/x/H_2.png") == "hearts"
    assert suit_from_filename("Club-left.jpeg") == "clubs"
    assert suit_from_filename("QH.jpg") is None  # one card


def test_reading_order_keeps_a_slanted_row_one_row():
    rng = np.random.default_rng(0)
    centres = []
    for i in range(13):
        row, col = divmod(i, 7)
        x = 100 + col * 75 + 37 * row
        y = 200 + row * 105 + 0.14 * x + rng.uniform(-3, 3)  # a phone held 8 degrees off
        centres.append((x, y))
    shuffled = rng.permutation(13)
    order = reading_order(np.array(centres)[shuffled], 88.0)
    assert [int(shuffled[k]) for k in order] == list(range(13))


def _write(path: Path, img: np.ndarray) -> Path:
    cv2.imwrite(str(path), img, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


@pytest.fixture(scope="module")
def berlin():
    if decklib.renderer() is None or not decklib.all_sources():
        pytest.skip("third-party decks not installed (gnome-cards-data, kdegames-card-data-kf5, librsvg2-bin)")
    return next(d for d in decklib.decks() if d.name == "aisleriot/berlin")


def test_a_suit_layout_teaches_a_german_deck_its_jack(berlin, tmp_path: Path):
    img, _ = decklib.suit_layout_photo(berlin, "spades", seed=100)
    report = teach([_write(tmp_path / "spades.jpg", img)], "berlin", root=tmp_path / "taught")
    assert len(report.learnt) >= 12, report.failed
    assert "JS" in report.learnt
    # the jack's B: the built-in reader declines it (an 8 to its networks); taught, it reads
    layout = [
        {"cx": 200.0, "cy": 200.0, "angle": 10.0, "rank": "J", "suit": "spades"},
        {"cx": 320.0, "cy": 220.0, "angle": -15.0, "rank": "8", "suit": "spades"},
        {"cx": 430.0, "cy": 190.0, "angle": 5.0, "rank": "4", "suit": "hearts"},
    ]
    photo, _ = render_scene(4000, 3000, 3, seed=7, mat=False, faces=berlin, layout=layout, occluders=0)
    untaught = {s.label for s in VisionPipeline().process(photo).sightings}
    taught = {s.label for s in VisionPipeline(references=load_deck("berlin", root=tmp_path / "taught")).process(photo).sightings}
    assert "JS" not in untaught
    assert {"JS", "8S"} <= taught, taught


def test_a_layout_out_of_order_is_refused(tmp_path: Path):
    ranks = list(RANKS)
    ranks[3], ranks[8] = ranks[8], ranks[3]  # the 4 and the 9 swapped
    img, _ = decklib.suit_layout_photo(None, "clubs", seed=3, ranks=tuple(ranks))
    report = teach([_write(tmp_path / "clubs.jpg", img)], "gen", root=tmp_path / "taught")
    assert report.learnt == []
    assert "out of order" in report.failed[0][1], report.failed


def test_a_layout_short_of_a_card_is_refused(tmp_path: Path):
    img, _ = decklib.suit_layout_photo(None, "hearts", seed=4, ranks=RANKS[:12])
    report = teach([_write(tmp_path / "hearts.jpg", img)], "gen", root=tmp_path / "taught")
    assert report.learnt == []
    assert "found 12 cards, not 13" in report.failed[0][1], report.failed


def test_a_taught_letter_stands_against_the_networks_reading_of_its_lookalike():
    """Taught, a deck's B is its jack: the networks, which take a B for an 8,
    read no 8 where the deck's own templates fit the glyph's shape as a J."""
    from types import SimpleNamespace

    from vision.cardart import text_image
    from vision.corner_index import References, _crop, builtin_references, taught_shape_disagrees
    from vision.fonts import card_fonts

    font = card_fonts()[0]
    # a glyph as the reader cuts it: its ink's box
    ink = {t: _crop(np.pad(np.asarray(text_image(t, font, 64)), 12)) for t in ("B", "8")}
    taught = References()
    taught.add_rank("J", ink["B"])
    taught.add_rank("8", ink["8"])
    refs = builtin_references().extend(taught)
    assert refs.taught
    assert taught_shape_disagrees(refs, SimpleNamespace(rank_ink=ink["B"]), "8")
    assert not taught_shape_disagrees(refs, SimpleNamespace(rank_ink=ink["B"]), "J")
    assert not taught_shape_disagrees(refs, SimpleNamespace(rank_ink=ink["8"]), "8")


def test_a_taught_letter_keeps_the_whole_patch_network_from_its_lookalike():
    from vision.cardart import text_image
    from vision.corner_index import References, _crop, builtin_references
    from vision.fonts import card_fonts

    font = card_fonts()[0]
    taught = References()
    taught.add_rank("J", _crop(np.pad(np.asarray(text_image("B", font, 64)), 12)))
    taught.add_rank("Q", _crop(np.pad(np.asarray(text_image("Q", font, 64)), 12)))
    looks = builtin_references().extend(taught).lookalikes
    assert "8" in looks  # the B taught as the jack: no 8 read where no glyph was cut
    assert "Q" not in looks and "J" not in looks


def test_a_photo_teach_cannot_read_is_skipped_with_the_reason(tmp_path: Path):
    tiny = _write(tmp_path / "hearts.png", np.zeros((1, 1, 3), np.uint8))
    bare = _write(tmp_path / "spades.png", np.full((720, 1280, 3), 90, np.uint8))
    report = teach([tiny, bare], "gen", root=tmp_path / "taught")
    assert report.learnt == []
    why = dict(report.failed)
    assert "too small" in why[str(tiny)]
    assert "found 0 cards, not 13" in why[f"{bare} (layout)"]
