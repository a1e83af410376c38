"""Mat layouts (engines/<game>/mat.py) and printed-card mappings (engines/<game>/printed.py).

Every supported seat count and variant of every game: zones inside the mat and
its printable border, clear of the calibration markers, not overlapping, every
seat with its zones; printed indices map one to one onto the engines' card ids.
"""

from __future__ import annotations

import importlib
from collections import Counter

import pytest

from engines import registry
from vision import geometry as g

GAME_ZONES = {
    "double-edge": ({"base", "striker", "support", "discard", "indicator"}, {"deck"}),
    "double-side-play": ({"played", "tricks"}, {"trick"}),
    "two-freakin-swords": ({"left", "right"}, set()),
    "keener": ({"commander", "generators", "fighters", "defenses", "deck", "discard"}, {"attack"}),
    "gun-and-gun": ({"deck0", "deck1", "loaded0", "loaded1", "action", "function", "response", "voltage", "trash"},
                    set()),
}
BORDER_X, BORDER_Y = 10.0, 15.0  # docs/printing.md: printer margin and the title band
CORNER = 70.0


def _setups():
    for game_id in GAME_ZONES:
        game = registry.get(game_id)
        for seats in game.players:
            for variant in game.variants:
                if game_id == "two-freakin-swords" and (variant == "duel") != (seats == 2):
                    continue
                yield game_id, seats, variant


SETUPS = list(_setups())


def _layout(game_id, seats, variant):
    return importlib.import_module(registry.GAMES[game_id] + ".mat").layout(seats, variant)


def test_every_game_has_setups():
    assert Counter(s[0] for s in SETUPS) == {"double-edge": 3, "double-side-play": 4, "two-freakin-swords": 13,
                                              "keener": 1, "gun-and-gun": 2}


@pytest.mark.parametrize(("game_id", "seats", "variant"), SETUPS)
def test_layout_is_sound(game_id, seats, variant):
    layout = _layout(game_id, seats, variant)
    assert (layout.width_mm, layout.height_mm) == (g.MAT_W, g.MAT_H)
    ids = [z.id for z in layout.zones]
    assert len(ids) == len(set(ids)), "zone ids are unique"
    markers = [(x - g.MAT_MARKER / 2, y - g.MAT_MARKER / 2, g.MAT_MARKER, g.MAT_MARKER)
               for x, y in g.mat_marker_centres().values()]
    for z in layout.zones:
        assert z.w > 0 and z.h > 0 and z.label
        assert BORDER_X <= z.x and z.x + z.w <= g.MAT_W - BORDER_X, z
        assert BORDER_Y <= z.y and z.y + z.h <= g.MAT_H - BORDER_Y, z
        in_corner_x = z.x < CORNER or z.x + z.w > g.MAT_W - CORNER
        in_corner_y = z.y < CORNER or z.y + z.h > g.MAT_H - CORNER
        assert not (in_corner_x and in_corner_y), f"{z.id} reaches a marker corner"
        for mx, my, mw, mh in markers:
            assert not (z.x < mx + mw and mx < z.x + z.w and z.y < my + mh and my < z.y + z.h)
    for i, a in enumerate(layout.zones):
        for b in layout.zones[i + 1:]:
            assert not (a.x < b.x + b.w and b.x < a.x + a.w and a.y < b.y + b.h and b.y < a.y + a.h), (a.id, b.id)
    per_seat, shared = GAME_ZONES[game_id]
    for seat in range(seats):
        keys = {z.id.split(".", 1)[1] for z in layout.zones if z.seat == seat}
        assert keys == per_seat, (seat, keys)
        assert all(z.id.startswith(f"s{seat}.") for z in layout.zones if z.seat == seat)
    assert {z.id for z in layout.zones if z.seat is None} == shared
    # zone_at finds each zone by its centre
    for z in layout.zones:
        assert layout.zone_at(z.x + z.w / 2, z.y + z.h / 2) == z


def test_two_freakin_swords_arms_face_their_neighbours():
    # seat i's right arm lies closer to seat i-1's left arm than to any other spot
    for seats in range(3, 9):
        layout = _layout("two-freakin-swords", seats, "free-for-all")
        centre = {z.id: (z.x + z.w / 2, z.y + z.h / 2) for z in layout.zones}
        for seat in range(seats):
            me = centre[f"s{seat}.right"]
            nearest = min((k for k in centre if k != f"s{seat}.right"),
                          key=lambda k: (centre[k][0] - me[0]) ** 2 + (centre[k][1] - me[1]) ** 2)
            assert nearest in (f"s{(seat - 1) % seats}.left", f"s{seat}.left"), (seats, seat, nearest)
        # the spots hold a card's centre; with 8 fighters they are still 56 mm or more
        assert min(max(z.w, z.h) for z in layout.zones) >= 56


@pytest.mark.parametrize(("game_id", "seats", "variant"),
                         [("double-edge", 3, "standard"), ("double-edge", 2, "nope"), ("double-side-play", 5, "standard"),
                          ("two-freakin-swords", 9, "teams"), ("two-freakin-swords", 2, "teams"),
                          ("two-freakin-swords", 4, "duel"), ("keener", 4, "standard"), ("gun-and-gun", 2, "azbar")])
def test_bad_setups_are_refused(game_id, seats, variant):
    with pytest.raises(ValueError):
        _layout(game_id, seats, variant)


def test_engine_constants_match_vision():
    for game_id in GAME_ZONES:
        mod = importlib.import_module(registry.GAMES[game_id] + ".mat")
        assert (mod.MAT_W, mod.MAT_H) == (g.MAT_W, g.MAT_H)
        assert tuple(mod.SEATS) == tuple(registry.get(game_id).players)
        assert tuple(mod.VARIANTS) == tuple(registry.get(game_id).variants)


# -- printed cards --------------------------------------------------------------

def test_double_side_play_printed_cards_are_the_deck():
    from engines.double_side_play.cards import Deck
    from engines.double_side_play.printed import COUNT, card_of, from_sighting, index_of

    deck = Deck()
    cards = [card_of(i) for i in range(COUNT)]
    assert sorted(cards) == sorted(deck.ids) and len(set(cards)) == 48
    assert all(index_of(c) == i for i, c in enumerate(cards))
    assert card_of(6) == "R7" and deck.alien("R7") == 1 and card_of(47) == "Y12"
    assert from_sighting("printed:13") == "B2" and from_sighting("printed:48") is None and from_sighting("QH") is None
    renamed = Deck(("mars", "venus", "earth", "jupiter"))
    assert card_of(12, renamed) == "V1"
    with pytest.raises(ValueError):
        card_of(48)


def test_two_freakin_swords_printed_cards_are_the_engines_decks():
    from engines.two_freakin_swords.cards import DECK_SIZE, STANDARD, build_deck, side_of
    from engines.two_freakin_swords.printed import COUNT, DECKS, card_of, deck_of, from_sighting, index_of
    from vision.markers import BACK_MEANINGS, printed_capacity

    assert COUNT == DECKS * DECK_SIZE <= printed_capacity("two-freakin-swords")
    assert DECKS >= 8  # a deck per fighter in the largest free-for-all
    for d in range(DECKS):
        assert tuple(card_of(i) for i in range(d * 40, d * 40 + 40)) == build_deck(STANDARD, d * DECK_SIZE + 1)
    assert all(index_of(card_of(i)) == i for i in range(COUNT))
    assert deck_of(41) == 1 and from_sighting("printed:10") == "fake#11"
    assert {side_of(card_of(i)) for i in range(COUNT)} == set(BACK_MEANINGS.values())


def test_keener_printed_cards_cover_the_database_and_decks():
    from engines.keener.catalog import CARDS
    from engines.keener.decks import SAMPLE_DECKS
    from engines.keener.ids import commander_id, copy_ids
    from engines.keener.printed import COPIES, PRINT_ORDER, RANGE_SIZE, card_of, from_sighting, index_of, instance_of

    assert sorted(PRINT_ORDER) == sorted(CARDS), "every card of the database has printed copies"
    assert COPIES * len(PRINT_ORDER) <= RANGE_SIZE
    indices = range(COPIES * len(PRINT_ORDER))
    assert len({card_of(i) for i in indices}) == len(indices)
    assert all(index_of(*card_of(i)) == i for i in indices)
    assert from_sighting("printed:33") == ("bear-trap", 2)
    from companion.printing.cards import keener_indices

    for seat, (deck_id, copy_set) in enumerate((("saga-sample", "A"), ("ferra-sample", "B"))):
        deck = SAMPLE_DECKS[deck_id]
        printed = keener_indices(deck_id, copy_set)
        expected = {commander_id(seat, deck.commander), *copy_ids(seat, deck.cards)}
        assert {instance_of(i, seat) for i in printed} == expected
    assert not set(keener_indices("saga-sample", "A")) & set(keener_indices("ferra-sample", "B"))


@pytest.mark.parametrize(("game_id", "seats", "variant"), SETUPS)
def test_facing_points_from_the_seat_to_the_centre(game_id, seats, variant):
    """A label turned by ``facing`` has its top towards the mat centre, seen from the seat's zones."""
    import math

    mod = importlib.import_module(registry.GAMES[game_id] + ".mat")
    layout = mod.layout(seats, variant)
    for seat in range(seats):
        zones = [z for z in layout.zones if z.seat == seat]
        if game_id == "double-side-play":  # the played card lies straight in front of its player
            (near,) = [z for z in zones if z.id.endswith(".played")]
            zones = [near]
        near_x = sum(z.x + z.w / 2 for z in zones) / len(zones)
        near_y = sum(z.y + z.h / 2 for z in zones) / len(zones)
        seen = math.degrees(math.atan2(near_x - g.MAT_W / 2, near_y - g.MAT_H / 2)) % 360
        diff = abs((mod.facing(seats, seat) - seen + 180) % 360 - 180)
        assert diff < 32, (seat, mod.facing(seats, seat), seen)
