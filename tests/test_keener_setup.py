"""Keener deck building (KN-2), setup (KN-3) and table options."""

import pytest

from engines.core import ChanceMove, IllegalMove, shuffle_ranges
from engines.keener import GAME, SAMPLE_DECKS, DeckError, deck_problems, make_deck
from engines.keener.catalog import CARDS


def test_sample_decks_are_legal_one_per_commander():
    assert {d.commander for d in SAMPLE_DECKS.values()} == {"saga", "ferra"}
    for deck in SAMPLE_DECKS.values():
        assert deck_problems(deck.to_json()["cards"]) == []
        assert len(deck.cards) == 49


def test_deck_of_51_with_three_copies_and_two_commanders_gives_three_reasons():
    cards = dict(SAMPLE_DECKS["ferra-sample"].to_json()["cards"])
    cards["fighting-monk"] = 3  # +1: 51 cards, three copies
    cards["saga"] = 1  # a second Commander...
    cards["lullaby"] -= 1  # ...in place of a Lullaby: still 51
    assert sum(cards.values()) == 51
    problems = deck_problems(cards)
    assert len(problems) == 3
    assert problems[0].startswith("KN-2.1: the deck has 51 cards")
    assert problems[1].startswith("KN-2.2: the deck has 2 Commanders")
    assert problems[2].startswith("KN-2.3: the deck has 3 copies of Fighting Monk")
    with pytest.raises(DeckError) as exc:
        make_deck({"name": "Bad", "cards": cards})
    assert exc.value.problems == problems and "Bad is not a legal Keener deck" in str(exc.value)


def test_unknown_cards_bad_counts_and_no_commander():
    problems = deck_problems({"dragon": 1, "fighting-monk": 0})
    assert any("KN-2.4: there is no card 'dragon'" in p for p in problems)
    assert any("KN-2.4: the count of 'fighting-monk'" in p for p in problems)
    assert any("KN-2.2: the deck has 0 Commanders" in p for p in problems)
    assert deck_problems("saga")[0].startswith("KN-2.4")


def test_a_deck_as_a_plain_list_of_ids():
    ids = [c for c, n in SAMPLE_DECKS["saga-sample"].to_json()["cards"].items() for _ in range(n)]
    assert make_deck(ids).commander == "saga"


def test_a_table_with_a_bad_deck_or_option_is_refused_with_every_reason():
    bad = {"cards": {"saga": 1, "fighting-monk": 3}}
    with pytest.raises(ValueError) as exc:
        GAME.new(2, options={"decks": ["ferra-sample", bad], "first": "youngest", "colour": 1})
    text = str(exc.value)
    assert "seat 2's deck: KN-2.1" in text and "seat 2's deck: KN-2.3" in text
    assert "option 'first'" in text and "unknown option 'colour'" in text
    with pytest.raises(ValueError, match="no sample deck 'nope'"):
        GAME.new(2, options={"decks": ["nope", "saga-sample"]})
    with pytest.raises(ValueError, match="turn_limit"):
        GAME.new(2, options={"turn_limit": 0})


def _setup(state, coin=None):
    for _ in range(2):
        request = state.pending_chance()
        assert request.kind == "shuffle" and request.ranges == shuffle_ranges(49)
        state.apply(ChanceMove(tuple(0 for _ in request.ranges)))
    if coin is not None:
        assert state.pending_chance().kind == "coin"
        state.apply(ChanceMove((coin,)))
    assert state.pending_chance() is None
    return state


def test_setup_shuffles_draws_ten_and_least_lp_goes_first():
    """KN-3, ruling KN-R1 (least LP first) and KN-R2 (Saga's opening hand is 10)."""
    state = _setup(GAME.new(2, deal=5))
    view = state.view(None)
    assert state.to_act() == {0}  # Saga (1 LP) before Ferra (7 LP)
    assert view["phase"] == "economy" and view["turn"] == 1
    saga, ferra = view["sides"]
    # Saga's controller started with 10 and drew 3 in the first Economy phase (KN-9.1).
    assert (saga["hand_count"], saga["deck_count"]) == (13, 36)
    assert (ferra["hand_count"], ferra["deck_count"]) == (10, 39)
    assert saga["commander"]["lp"] == 1 and ferra["commander"]["lp"] == 7


def test_least_lp_follows_the_commander_not_the_seat():
    state = _setup(GAME.new(2, options={"decks": ["ferra-sample", "saga-sample"]}))
    assert state.to_act() == {1}


@pytest.mark.parametrize("coin,first", [(0, 0), (1, 1)])
def test_a_tie_is_tossed(coin, first):
    """KN-3.3 / KN-R1: equal LP -> a coin chance move decides."""
    state = _setup(GAME.new(2, options={"decks": ["ferra-sample", "ferra-sample"]}), coin=coin)
    assert state.to_act() == {first}


@pytest.mark.parametrize("rule,coin,first", [("coin", 1, 1), ("seat-2", None, 1), ("seat-1", None, 0)])
def test_first_player_is_configurable(rule, coin, first):
    """KN-R1: option first = least-lp | coin | seat-1 | seat-2."""
    state = _setup(GAME.new(2, options={"first": rule}), coin=coin)
    assert state.to_act() == {first}


def test_shuffle_is_the_chance_move_and_replays_exactly():
    a, b = GAME.new(2), GAME.new(2)
    values = tuple((7 * i) % r for i, r in enumerate(shuffle_ranges(49)))
    for state in (a, b):
        state.apply(ChanceMove(values))
        state.apply(ChanceMove(values))
    assert a.to_json() == b.to_json()
    assert a.view(0)["hand"] != _setup(GAME.new(2)).view(0)["hand"]


def test_players_cannot_move_during_setup():
    state = GAME.new(2)
    with pytest.raises(IllegalMove) as exc:
        state.apply({"type": "pass", "seat": 0})
    assert exc.value.rule == "CORE-4"


def test_every_card_in_the_sample_decks_exists():
    for deck in SAMPLE_DECKS.values():
        assert all(c in CARDS for c in deck.cards)
