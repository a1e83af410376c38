"""A Russian deck's court letters and ace are declined, never read as English ranks (#7).

aisleriot/Атласные marks the jack В, the queen Д and the ace Т.  Small, the
condensed В is an 8 to the glyph network and was one to the templates too
(their B is wider, and the aspect penalty gave the glyph to "8"); Д was read
as a 10.  The reader's foreign letters (corner_index.FOREIGN_RANKS) name them,
an 8 or a 10 stands only where its shape beats its lookalike's aspect aside
(corner_index.LOOKS_LIKE), and the reader declines them: the cards are unknown,
as the issue asks of anything unreadable.
"""

from __future__ import annotations

import pytest

from tests.support.decks import installed_deck
from vision import decks as decklib
from vision.pipeline import VisionPipeline

pytest.importorskip("cv2")

DECK = "aisleriot/Атласные"


@pytest.fixture(scope="module")
def deck():
    return installed_deck(DECK)


@pytest.mark.parametrize("rank", ["J", "Q", "A"])
@pytest.mark.parametrize("px_per_mm", [3.0, 5.0, 8.0])
def test_a_russian_court_letter_or_ace_alone_is_never_read_as_an_english_rank(deck, rank, px_per_mm):
    for suit in ("hearts", "spades", "diamonds", "clubs"):
        img = decklib.single_card_photo(deck(rank, suit), seed=1, px_per_mm=px_per_mm)
        read = [s.label for s in VisionPipeline().process(img).sightings if s.kind == "card"]
        assert read == [], (rank, suit, read)


def test_a_photo_of_the_russian_deck_on_a_black_cloth_has_no_misread(deck):
    """The bench's 12 MP scene 1000 on black (bench.vision_decks_photo): two jacks staggered over a 5,
    the jack of hearts once read as the 8 of hearts."""
    from bench.vision_decks_photo import photo_scene

    deck.render_all()
    img, truth = photo_scene(1000, 1000, (4000, 3000), deck, "black")
    on_table = {f"{c.rank}{c.suit[0].upper()}" for c in truth.cards if getattr(c, "rank", None)}
    read = [s.label for s in VisionPipeline().process(img).sightings if s.kind == "card"]
    assert read and set(read) <= on_table, (read, on_table)
