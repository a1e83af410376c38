"""companion.camera's conversion of vision's sightings: mat millimetres, zones from the game's
layout, printed markers to ``printed:<index>`` per the game's range, back markers to face-down."""

from __future__ import annotations

import pytest

from companion.camera import card_of_marker, diff, to_core
from engines.core import FACE_DOWN, UNKNOWN, Sighting, TableSnapshot, ZoneChange
from engines.double_side_play import mat

results = pytest.importorskip("vision.results")


def card(x, y, w=63.0, h=88.0):
    return ((x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2))


def vision_sighting(i, kind, at, **kw):
    outline = card(*at)
    return results.Sighting(i, kind, 0.9, tuple((x * 2, y * 2) for x, y in outline), outline, **kw)


def test_markers_become_printed_cards_of_the_game_and_backs_face_down():
    assert card_of_marker(606, "double-side-play") == ("printed:6", None)
    assert card_of_marker(606, None) == ("printed:6", None)
    assert card_of_marker(117, "keener") == ("printed:17", None)
    assert card_of_marker(117, "double-side-play") == (UNKNOWN, None)  # another game's card
    assert card_of_marker(4, "two-freakin-swords") == (FACE_DOWN, "striking")
    assert card_of_marker(2, "double-side-play") == (UNKNOWN, None)  # a mat corner is no card
    assert card_of_marker(None, None) == (UNKNOWN, None)


def test_sightings_land_in_the_zone_under_their_centre_in_millimetres():
    layout = mat.layout(4, "standard")
    played = layout.zone("s0.played")
    pile = layout.zone("s2.tricks")
    seen = [
        vision_sighting(1, "marker", (played.x + played.w / 2, played.y + played.h / 2), marker_id=607),
        vision_sighting(2, "face_down", (pile.x + pile.w / 2, pile.y + pile.h / 2)),
        vision_sighting(3, "card", (20.0, 20.0), rank="Q", suit="hearts", stack_level=1),
        vision_sighting(4, "unknown", (297.0, 210.0)),
    ]
    snap = to_core(seen, layout, "double-side-play")
    got = [(s.card, s.zone, s.layer) for s in snap.sightings]
    assert got == [("printed:7", "s0.played", 0), (FACE_DOWN, "s2.tricks", 0), ("QH", None, 1),
                   (UNKNOWN, "trick", 0)]
    assert snap.sightings[0].x == pytest.approx(played.x + played.w / 2)
    assert snap.sightings[0].angle == pytest.approx(0.0)


def test_diff_keeps_what_a_back_says():
    before = TableSnapshot((Sighting(FACE_DOWN, "s0.right", 0, 0, back="striking"),))
    after = TableSnapshot((Sighting(FACE_DOWN, "s0.right", 0, 0, back="defending"),))
    assert sorted(diff(before, after), key=lambda c: c.kind) == [
        ZoneChange("placed", FACE_DOWN, "s0.right", back="defending"),
        ZoneChange("removed", FACE_DOWN, "s0.right", back="striking"),
    ]
    flipped = TableSnapshot((Sighting("printed:3", "s0.right", 0, 0),))
    assert diff(before, flipped) == [ZoneChange("flipped", "printed:3", "s0.right", back="striking")]
