"""Printed Two Freakin' Swords decks for up to eight fighters: marker ids across vision's split ranges.

Decks 1-5 take markers 400-599, decks 6-8 continue at 800-919; an id maps to
one printed index and back, the camera turns it into ``printed:<index>``, and
the printing side puts the same id on the card the engine names.
"""

from __future__ import annotations

import pytest

from companion.camera import card_of_marker
from companion.printing import marker_id
from engines.two_freakin_swords.cards import DECK_SIZE
from engines.two_freakin_swords.printed import COUNT, DECKS, card_of, from_sighting, index_of
from vision.markers import MARKER_RANGES, game_ranges, printed_capacity, printed_index, printed_marker

GAME = "two-freakin-swords"


def test_eight_fighters_each_have_a_printed_deck_with_ids_of_their_own():
    assert DECKS == 8 and COUNT == DECKS * DECK_SIZE == printed_capacity(GAME)
    ids = [printed_marker(GAME, i) for i in range(COUNT)]
    assert len(set(ids)) == COUNT
    assert ids[0] == 400 and ids[199] == 599 and ids[200] == 800 and ids[-1] == 919
    assert [(r.first, r.last) for r in game_ranges(GAME)] == [(400, 599), (800, 919)]
    with pytest.raises(ValueError, match="hold 320 printed cards"):
        printed_marker(GAME, COUNT)


def test_every_marker_id_maps_back_to_its_index_and_no_range_overlaps():
    for i in range(COUNT):
        assert printed_index(printed_marker(GAME, i)) == (GAME, i)
    every = [m for r in MARKER_RANGES for m in range(r.first, r.last + 1)]
    assert len(every) == len(set(every)) == 1000
    assert printed_index(606) == ("double-side-play", 6) and printed_index(117) == ("keener", 17)
    assert printed_index(4) is None and printed_index(2) is None and printed_index(950) is None


def test_the_camera_and_the_printer_agree_on_the_card_of_decks_six_to_eight():
    # seat 8's own deck (printed deck 8): ids 281-320, markers 880-919
    assert card_of_marker(880, GAME) == ("printed:280", None)
    assert from_sighting("printed:280") == card_of(280) == "strike#281"
    assert card_of_marker(919, GAME) == ("printed:319", None) and from_sighting("printed:319") == "parry#320"
    assert marker_id(GAME, index_of("strike#281")) == 880
    assert card_of_marker(800, "keener")[0] == "unknown" and card_of_marker(950, None)[0] == "unknown"
    # the first five decks kept their markers
    assert card_of_marker(410, GAME) == ("printed:10", None) and from_sighting("printed:10") == "fake#11"
