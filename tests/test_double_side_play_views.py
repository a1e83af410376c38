"""Double Side Play: what each screen sees, saving and loading, bad input, options
(docs/rules/double-side-play.md section 11)."""

import json
import random

import pytest

from engines import registry
from engines.core import IllegalMove
from engines.double_side_play import GAME, Play
from engines.playout import random_steps
from tests.support.conformance import leaves
from tests.test_double_side_play_support import by_colour, play, split_deal, start

DICE = [(1, 6), (6, 5), (3, 5), (6, 4)]


def test_dsp_11_1_table_view_shows_the_public_game():
    """DSP-11.1: dice, goals, lead, turn, half, current trick, trick history, tricks won, points, counts."""
    state = start(hands=split_deal(), dice=DICE)
    play(state, "R1", "R7", "G1", "Y1", "R8")
    view = state.view(None)
    assert view["game"] == "double-side-play" and view["variant"] == "standard"
    assert view["dice"] == [[1, 6], [6, 5], [3, 5], [6, 4]] and view["goals"][0] == [0, 1, 6]
    assert view["lead"] == 0 and view["leader"] == 1 and view["turn"] == 2 and view["to_act"] == [2]
    assert view["half"] == "astronaut" and view["trick"] == 2 and view["phase"] == "play"
    assert view["current_trick"] == [{"seat": 1, "card": "R8", "colour": "red", "number": 8}]
    assert view["tricks"] == [{"trick": 1, "leader": 0, "winner": 1, "cards": ["R1", "R7", "G1", "Y1"]}]
    assert view["tricks_won"] == [0, 1, 0, 0] and view["points"] == [0, 0, 0, 0]
    assert view["hand_counts"] == [11, 10, 11, 11]
    assert "hand" not in view and view["trump"] is None and view["outcome"] is None
    assert view["voids"][0]["seat"] == 2
    json.dumps(view)


def test_dsp_11_2_a_seat_sees_its_own_hand_and_nothing_hidden_from_it():
    """DSP-11.2: own hand, numbers in force and playable cards; other hands and out cards are hidden."""
    state = start(hands=split_deal(), dice=DICE)
    play(state, "R1")
    mine = state.view(1)
    assert mine["seat"] == 1 and mine["hand"] == [f"R{n}" for n in range(7, 13)] + [f"B{n}" for n in range(7, 13)]
    assert mine["hand_numbers"][:6] == [7, 8, 9, 10, 11, 12]
    assert mine["playable"] == [f"R{n}" for n in range(7, 13)]
    assert state.view(2)["playable"] == []
    assert state.hidden_from(1) == frozenset(c for seat in (0, 2, 3) for c in state.snapshot.hands[seat])
    assert state.hidden_from(None) == frozenset(c for hand in state.snapshot.hands for c in hand)
    for seat in (None, 0, 1, 2, 3):
        assert not state.hidden_from(seat) & set(leaves(state.view(seat))), seat
    three = start(3, hands=by_colour()[:3], dice=DICE[:3])
    assert len(three.hidden_from(0)) == 36 and "Y1" in three.hidden_from(0)


def test_dsp_11_2_no_view_leaks_a_hidden_card_over_whole_random_games():
    """DSP-11.2: at every step of a random 3-seat trump game (out-of-round cards too), views hide what they must."""
    for seats, variant in [(3, "trump")]:
        state = GAME.new(seats, variant, deal=11)
        for _ in random_steps(state, random.Random(11), 5000):
            for seat in (None, *range(seats)):
                assert not state.hidden_from(seat) & set(leaves(state.view(seat)))


def test_saving_and_loading_a_physical_game_with_a_revoke_round_trips():
    """DSP-9.3: a physical game with void claims and a revoke survives to_json/load and undo exactly."""
    state = start(deal="physical", dice=DICE, options={"revoke": "note", "colours": ["red", "blue", "green", "yellow"]})
    play(state, "R1", "B7", "G1", "Y1", "R2", "R7")
    data = json.loads(json.dumps(state.to_json()))
    loaded = GAME.load(data)
    assert loaded.to_json() == state.to_json() and loaded.revoke_ruling == "note"
    assert loaded.view(None) == state.view(None)
    before = state.to_json()
    state.apply(Play(2, "G2"))
    state.undo()
    assert state.to_json() == before


def test_bad_input_gets_a_rule_id_and_changes_nothing():
    """DSP-7.2: malformed or foreign moves are refused with a rule id and leave the state as it was."""
    state = start(hands=split_deal(), dice=DICE)
    before = state.to_json()
    for bad in [None, 7, "R1", {}, {"type": "play"}, {"type": "play", "seat": 0, "card": 5},
                {"type": "play", "seat": True, "card": "R1"}, {"type": "play", "seat": 9, "card": "R1"},
                {"type": "janken", "seat": 0, "hand": "rock"}, {"type": "choose-trump", "seat": 0, "colour": "red"},
                {"type": "chance", "values": [1, 2]}, {"type": "bid", "seat": 0}]:
        verdict = state.check(bad)
        assert not verdict.ok and verdict.rule, bad
        with pytest.raises(IllegalMove):
            state.apply(bad)
        assert state.to_json() == before, bad
    assert state.check({"type": "play", "seat": 0, "card": "R1"}).ok


def test_options_and_tables_are_validated_in_plain_words():
    """DSP-1.3, DSP-9.4: unknown options, rulings, seat counts and variants are refused when the table is made."""
    with pytest.raises(ValueError, match="no option 'jokers'"):
        GAME.new(4, options={"jokers": True})
    with pytest.raises(ValueError, match="revoke"):
        GAME.new(4, options={"revoke": "death"})
    with pytest.raises(ValueError, match="3–4 players"):
        GAME.new(5)
    with pytest.raises(ValueError, match="no variant"):
        GAME.new(4, "no-trumps")
    assert registry.get("double-side-play") is GAME
    assert GAME.players == (3, 4) and GAME.variants == ("standard", "trump")
    assert {(n, v) for n, v, _ in GAME.setups()} == {(3, "standard"), (3, "trump"), (4, "standard"), (4, "trump")}


def test_companion_simulate_runs_double_side_play(capsys):
    """DSP-8.3: the simulator plays whole games (shared victories are counted as ties)."""
    from companion.cli import main

    assert main(["simulate", "double-side-play", "--seats", "4", "--variant", "trump", "--games", "5"]) == 0
    out = capsys.readouterr().out
    assert "Double Side Play" in out and "hit the cap of 5000 moves: 0" in out
