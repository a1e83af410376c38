"""Double Side Play: cards, deal, dice, the first lead player, janken and the trump chooser
(docs/rules/double-side-play.md sections 1-6)."""

import pytest

from engines.core import ChanceMove, IllegalMove
from engines.double_side_play import GAME, ChooseTrump, Deck, Janken, Play, alien_of
from engines.double_side_play.dice import goals, lead_candidates, trump_candidates
from engines.double_side_play.janken import survivors
from tests.test_double_side_play_support import by_colour, deal_move, of_type, roll, split_deal, start


def test_dsp_1_1_deck_has_48_cards_named_by_colour_initial_and_astronaut_number():
    """DSP-1.1: 48 cards, four colours of 1-12; ids like R7; other names are refused."""
    deck = Deck()
    assert len(deck.ids) == len(set(deck.ids)) == 48
    assert deck.ids[:12] == tuple(f"R{n}" for n in range(1, 13))
    assert deck.colour("R7") == "red" and deck.astronaut("R7") == 7
    state = start(hands=by_colour(), dice=[(1, 2), (3, 4), (3, 5), (4, 6)])
    before = state.to_json()
    for bad in ["R13", "X1", "r7", "R0", ""]:
        verdict = state.check(Play(0, bad))
        assert not verdict.ok and verdict.rule == "DSP-1.1", bad
        assert "R7" in verdict.fix
    assert state.to_json() == before


def test_dsp_1_2_alien_number_differs_from_astronaut_by_six():
    """DSP-1.2: astronaut n has alien n+6 (n <= 6) or n-6 (n >= 7)."""
    assert [alien_of(n) for n in range(1, 13)] == [7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6]
    deck = Deck()
    for card in deck.ids:
        assert abs(deck.astronaut(card) - deck.alien(card)) == 6
    assert deck.number("R7", 0) == 7 and deck.number("R7", 1) == 1
    assert deck.describe("R7") == "red 7 (astronaut 7 / alien 1)"


def test_dsp_1_3_colour_names_are_an_option_and_card_ids_follow_them():
    """DSP-1.3: option 'colours' renames the colours; ids use the new initials; bad names are refused."""
    assert GAME.new(4).deck.colours == ("red", "blue", "green", "yellow")
    state = GAME.new(4, deal=3, options={"colours": ["mars", "neptune", "earth", "venus"]})
    assert state.deck.ids[0] == "M1" and state.deck.colour("N12") == "neptune"
    state.apply(ChanceMove(tuple(0 for _ in range(47))))
    assert {c[0] for hand in state.snapshot.hands for c in hand} == {"M", "N", "E", "V"}
    assert state.view(None)["colours"] == ["mars", "neptune", "earth", "venus"]
    for bad in [["red", "rose", "green", "yellow"], ["red", "blue", "green"], "red", ["R7", "blue", "green", "y"],
                ["red", "", "green", "yellow"]]:
        with pytest.raises(ValueError):
            GAME.new(4, options={"colours": bad})


def test_dsp_2_1_each_seat_is_dealt_twelve_by_one_shuffle_chance_move():
    """DSP-2.1: a seeded round starts with one shuffle chance move; every seat gets 12 cards."""
    state = GAME.new(4, deal=5)
    request = state.pending_chance()
    assert request.kind == "shuffle" and request.ranges == tuple(range(48, 1, -1))
    assert not state.to_act()
    events = state.apply(deal_move(by_colour()))
    assert of_type(events, "dealt")[0].hand_counts == (12, 12, 12, 12)
    assert state.snapshot.hands[1] == tuple(f"B{n}" for n in range(1, 13))
    assert state.snapshot.out == ()
    assert state.pending_chance().kind == "dice"


def test_dsp_2_2_three_players_leave_twelve_cards_out_of_the_round():
    """DSP-2.2: with 3 seats 12 cards are out of the round, hidden from everyone and never playable."""
    hands = by_colour()[:3]
    state = start(3, hands=hands, dice=[(1, 2), (3, 4), (3, 5)])
    assert state.snapshot.out == tuple(f"Y{n}" for n in range(1, 13))
    assert set(state.snapshot.out) <= state.hidden_from(None)
    assert set(state.snapshot.out) <= state.hidden_from(0)
    assert state.view(None)["out_of_round"] == 12
    verdict = state.check(Play(0, "Y5"))
    assert not verdict.ok and verdict.rule == "DSP-2.2"


def test_dsp_3_1_each_seat_rolls_two_public_dice_in_seat_order():
    """DSP-3.1: a dice chance request per seat, seat 1 first; the dice are in the table view."""
    state = start(hands=by_colour())
    for seat in range(4):
        request = state.pending_chance()
        assert request.kind == "dice" and request.seat == seat and request.ranges == (6, 6)
        events = state.apply(roll(seat + 1, seat + 2))
        assert of_type(events, "rolled")[0].dice == (seat + 1, seat + 2)
    assert state.view(None)["dice"] == [[1, 2], [2, 3], [3, 4], [4, 5]]


def test_dsp_3_2_doubles_are_rolled_again_as_a_new_chance_request():
    """DSP-3.2: doubles are not kept; the same seat gets a new request until the dice differ."""
    state = start(hands=by_colour())
    events = state.apply(roll(3, 3))
    assert of_type(events, "doubles")[0].dice == (3, 3)
    again = state.pending_chance()
    assert again.seat == 0 and "again" in again.label
    assert state.view(None)["dice"][0] is None
    state.apply(roll(6, 6))
    state.apply(roll(2, 5))
    assert state.snapshot.dice[0] == (2, 5) and state.pending_chance().seat == 1


def test_dsp_3_3_a_six_counts_as_six_or_zero_for_the_goal():
    """DSP-3.3: goals are the dice values, and 0 for a 6."""
    assert goals((2, 6)) == (0, 2, 6)
    assert goals((3, 5)) == (3, 5)
    state = start(hands=by_colour(), dice=[(2, 6)])
    assert state.view(None)["goals"][0] == [0, 2, 6]


def test_dsp_4_1_lowest_total_leads():
    """DSP-4.1: the lowest dice total leads the first trick."""
    state = start(hands=by_colour(), dice=[(4, 5), (2, 3), (3, 4), (1, 6)])
    assert state.snapshot.lead == 1 and state.to_act() == {1}
    assert state.view(None)["lead"] == 1


def test_dsp_r1_a_six_counts_as_six_in_totals():
    """DSP-R1: a 6 is face value in the totals (1+6 = 7 does not beat 2+4 = 6)."""
    state = start(hands=by_colour(), dice=[(1, 6), (2, 4), (3, 5), (4, 5)])
    assert state.snapshot.lead == 1
    assert lead_candidates([(1, 6), (2, 4)]) == ((1,), "lowest total")
    assert trump_candidates([(1, 6), (2, 4)]) == ((0,), "highest total")


def test_dsp_4_2_tied_totals_go_to_the_lowest_single_die():
    """DSP-4.2: among equal lowest totals the lowest single die leads."""
    state = start(hands=by_colour(), dice=[(2, 5), (1, 6), (3, 4), (5, 6)])
    assert state.snapshot.lead == 1
    assert lead_candidates([(2, 5), (1, 6), (3, 4), (5, 6)]) == ((1,), "lowest single die")


def test_dsp_4_3_still_tied_seats_play_janken_for_the_lead():
    """DSP-4.3: tied seats with the same pair play janken; only they may act."""
    state = start(hands=by_colour())
    for dice in [(1, 4), (4, 1), (2, 3), (5, 6)]:
        events = state.apply(roll(*dice))
    called = of_type(events, "janken-called")[0]
    assert called.purpose == "lead" and called.seats == (0, 1)
    assert state.to_act() == {0, 1} and state.pending_chance() is None
    assert state.legal_moves(2) == []
    state.apply(Janken(1, "paper"))
    events = state.apply(Janken(0, "rock"))
    assert of_type(events, "lead-chosen")[0].seat == 1 and of_type(events, "lead-chosen")[0].reason == "janken"
    assert state.snapshot.phase == "play" and state.to_act() == {1}


def test_dsp_5_1_janken_is_a_secret_choice_of_rock_paper_or_scissors():
    """DSP-5.1: only rock, paper or scissors, only by tied seats, only during a janken, once per showing."""
    state = start(hands=by_colour(), dice=[(1, 4), (4, 1), (2, 3), (5, 6)])
    assert state.legal_moves(0) == [Janken(0, h) for h in ("rock", "paper", "scissors")]
    verdict = state.check(Janken(0, "lizard"))
    assert not verdict.ok and verdict.rule == "DSP-5.1"
    assert state.check(Janken(2, "rock")).rule == "CORE-6"
    state.apply(Janken(0, "rock"))
    assert state.check(Janken(0, "paper")).rule == "CORE-6"
    plain = start(hands=by_colour(), dice=[(1, 2), (3, 4), (3, 5), (4, 6)])
    assert plain.check(Janken(0, "rock")).rule == "DSP-5.1"


def test_dsp_5_2_ties_are_replayed_and_the_winning_hand_wins():
    """DSP-5.2: rock > scissors > paper > rock; same hands are shown again."""
    assert survivors((0, 1), ("rock", "scissors")) == (0,)
    assert survivors((0, 1), ("rock", "paper")) == (1,)
    assert survivors((0, 1), ("scissors", "paper")) == (0,)
    assert survivors((0, 1), ("rock", "rock")) == (0, 1)
    state = start(hands=by_colour(), dice=[(1, 4), (4, 1), (2, 3), (5, 6)])
    state.apply(Janken(0, "rock"))
    events = state.apply(Janken(1, "rock"))
    assert of_type(events, "janken-shown")[0].remaining == (0, 1)
    assert state.to_act() == {0, 1} and state.view(None)["janken"]["replays"] == 1
    state.apply(Janken(0, "scissors"))
    state.apply(Janken(1, "paper"))
    assert state.snapshot.lead == 0


def test_dsp_r2_three_seat_janken_keeps_the_winning_hand_until_one_is_left():
    """DSP-R2: all three hands or one hand: everyone again; two hands: the winners play on."""
    assert survivors((0, 1, 2), ("rock", "paper", "scissors")) == (0, 1, 2)
    assert survivors((0, 1, 2, 3), ("rock", "rock", "scissors", "rock")) == (0, 1, 3)
    state = start(hands=by_colour(), dice=[(1, 2), (2, 1), (1, 2), (5, 6)])
    assert state.to_act() == {0, 1, 2}
    for hands in [("rock", "rock", "rock"), ("rock", "scissors", "paper")]:
        for seat, hand in enumerate(hands):
            state.apply(Janken(seat, hand))
        assert state.to_act() == {0, 1, 2}
    state.apply(Janken(0, "rock"))
    state.apply(Janken(1, "rock"))
    events = state.apply(Janken(2, "scissors"))
    assert of_type(events, "janken-shown")[0].remaining == (0, 1)
    assert state.to_act() == {0, 1}
    state.apply(Janken(0, "paper"))
    state.apply(Janken(1, "rock"))
    assert state.snapshot.lead == 0 and state.view(None)["janken"] is None


def test_dsp_5_3_choices_stay_secret_until_every_tied_seat_has_chosen():
    """DSP-5.3: the table sees who chose, not what; the chooser sees its own hand; then all are shown."""
    state = start(hands=by_colour(), dice=[(1, 4), (4, 1), (2, 3), (5, 6)])
    events = state.apply(Janken(0, "scissors"))
    assert [e.to_json() for e in events] == [{"type": "janken-chosen", "seat": 0}]
    for seat in (None, 1, 2):
        text = repr(state.view(seat))
        assert "scissors" not in text, seat
    assert state.view(None)["janken"]["chosen"] == [True, False]
    assert state.view(0)["my_janken"] == "scissors" and state.view(1)["my_janken"] is None
    events = state.apply(Janken(1, "paper"))
    assert of_type(events, "janken-shown")[0].hands == ((0, "scissors"), (1, "paper"))


def test_dsp_6_1_highest_total_chooses_trumps_then_highest_die_then_janken():
    """DSP-6.1: the trump chooser is the highest total, then highest single die, then janken."""
    state = start(variant="trump", hands=by_colour(), dice=[(1, 2), (3, 4), (5, 6), (2, 4)])
    assert state.snapshot.phase == "trump" and state.to_act() == {2}
    assert trump_candidates([(1, 2), (3, 4), (2, 5), (1, 6)]) == ((3,), "highest single die")
    state = start(variant="trump", hands=by_colour(), dice=[(1, 2), (3, 4), (2, 5), (1, 6)])
    assert state.snapshot.trump_chooser == 3
    state = start(variant="trump", hands=by_colour(), dice=[(1, 2), (3, 5), (5, 3), (2, 4)])
    assert state.snapshot.phase == "janken" and state.snapshot.janken_for == "trump"
    assert state.to_act() == {1, 2}
    state.apply(Janken(1, "rock"))
    events = state.apply(Janken(2, "paper"))
    assert of_type(events, "trump-chooser")[0].seat == 2 and state.to_act() == {2}


def test_dsp_6_1_lead_janken_comes_before_trump_janken():
    """DSP-6.1: the lead player is settled first, then the trump chooser."""
    state = start(variant="trump", hands=by_colour(), dice=[(1, 4), (4, 1), (5, 6), (6, 5)])
    assert state.snapshot.janken_for == "lead"
    state.apply(Janken(0, "rock"))
    events = state.apply(Janken(1, "scissors"))
    assert of_type(events, "lead-chosen")[0].seat == 0
    assert of_type(events, "janken-called")[0].purpose == "trump"
    assert state.to_act() == {2, 3}


def test_dsp_6_2_the_chooser_names_one_of_the_four_colours():
    """DSP-6.2: one of the deck's colours, nothing else, only by the chooser, before any card."""
    state = start(variant="trump", hands=by_colour(), dice=[(1, 2), (3, 4), (5, 6), (2, 4)])
    assert state.legal_moves(2) == [ChooseTrump(2, c) for c in ("red", "blue", "green", "yellow")]
    assert state.check(ChooseTrump(2, "purple")).rule == "DSP-6.2"
    assert state.check(ChooseTrump(0, "red")).rule == "CORE-6"
    assert state.check(Play(2, "G1")).rule == "DSP-7.2"
    events = state.apply(ChooseTrump(2, "blue"))
    assert of_type(events, "trump-chosen")[0].colour == "blue"
    assert state.view(None)["trump"] == "blue" and state.to_act() == {0}
    with pytest.raises(IllegalMove) as exc:
        state.apply(ChooseTrump(0, "red"))
    assert exc.value.rule == "DSP-6.2"
    plain = start(hands=split_deal(), dice=[(1, 6), (6, 5), (3, 5), (6, 4)])
    assert plain.view(None)["trump"] is None
