"""Double Side Play: tricks, trumps, scoring and whole games
(docs/rules/double-side-play.md sections 6-8)."""

import random

from engines.double_side_play import GAME, ChooseTrump, Play
from engines.double_side_play.cards import Deck
from engines.double_side_play.tricks import playable, winner
from engines.playout import random_steps
from tests.test_double_side_play_support import (
    by_colour,
    next_round,
    of_type,
    play,
    play_first_legal,
    split_deal,
    start,
)

DECK = Deck()
ROUND_1_DICE = [(1, 6), (6, 5), (3, 5), (6, 4)]


def _split_round_plays() -> list[tuple[str, ...]]:
    """The twelve tricks of the split deal, in playing order, with the winner leading the next.

    Astronaut half: seat 2 follows red with higher reds and wins tricks 1-6.
    Alien half: the same low cards turn high (1 <-> 7), so seat 1 wins tricks 7-12.
    """
    tricks = [("R1", "R7", "G1", "Y1")]
    tricks += [(f"R{k + 6}", f"G{k}", f"Y{k}", f"R{k}") for k in range(2, 7)]
    tricks += [("B7", "G7", "Y7", "B1")]
    tricks += [(f"B{k - 6}", f"B{k}", f"G{k}", f"Y{k}") for k in range(8, 13)]
    return tricks


def _play_split_round(state) -> list:
    events = []
    for cards in _split_round_plays():
        events += play(state, *cards)
    return events


def test_dsp_7_1_tricks_1_to_6_use_astronaut_and_7_to_12_alien_numbers():
    """DSP-7.1: the same cards that lose in the astronaut half win in the alien half; hands flip after trick 6."""
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    assert state.view(None)["half"] == "astronaut"
    events = []
    for cards in _split_round_plays()[:6]:
        events += play(state, *cards)
    assert [e.seat for e in of_type(events, "trick-won")] == [1] * 6
    assert of_type(events, "hands-flipped") and events[-1].type == "hands-flipped"
    assert state.view(None)["half"] == "alien" and state.view(None)["trick"] == 7
    assert state.view(0)["hand_numbers"] == [7, 8, 9, 10, 11, 12]  # B1..B6 read as aliens
    events = play(state, "B7", "G7", "Y7", "B1")
    won = of_type(events, "trick-won")[0]
    assert won.seat == 0 and won.card == "B1"
    assert of_type(events, "card-played")[-1].number == 7


def test_dsp_7_2_the_leader_plays_any_card_then_each_seat_in_turn_without_passing():
    """DSP-7.2: the lead is free, play goes clockwise, one card each, only on your turn."""
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    assert state.to_act() == {0}
    assert {m.card for m in state.legal_moves(0)} == set(state.snapshot.hands[0])
    assert state.check(Play(1, "R7")).rule == "CORE-6"
    play(state, "B3")
    assert state.to_act() == {1}
    play(state, "B7", "G1")
    assert state.to_act() == {3}
    play(state, "Y1")
    assert state.to_act() == {1}  # B7 beat B3 and leads
    assert state.snapshot.hand_counts == (11, 11, 11, 11)
    fresh = GAME.new(4, deal=2)
    assert fresh.check(Play(0, "R1")).rule == "CORE-4"


def test_dsp_7_3_must_follow_the_lead_colour_when_able():
    """DSP-7.3: holding the lead colour, another colour is refused; without it, anything goes."""
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    play(state, "R1")
    assert [m.card for m in state.legal_moves(1)] == [f"R{n}" for n in range(7, 13)]
    before = state.to_json()
    verdict = state.check(Play(1, "B7"))
    assert not verdict.ok and verdict.rule == "DSP-7.3" and "red" in verdict.message
    assert state.to_json() == before
    play(state, "R12")
    assert len(state.legal_moves(2)) == 12  # green only: void in red
    assert playable(DECK, ["B1", "G2"], "red") == ["B1", "G2"]
    assert playable(DECK, ["B1", "R2"], "red") == ["R2"]


def test_dsp_7_4_a_seat_plays_only_cards_it_holds():
    """DSP-7.4: a card from another hand is refused (seeded deal)."""
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    verdict = state.check(Play(0, "R9"))
    assert not verdict.ok and verdict.rule == "DSP-7.4"


def test_dsp_7_5_highest_of_the_lead_colour_wins_and_leads_next():
    """DSP-7.5: other colours never win without trumps; the winner leads."""
    assert winner(DECK, [(0, "R5"), (1, "B12"), (2, "R9"), (3, "R2")], 0) == (2, "R9", False)
    assert winner(DECK, [(0, "R5"), (1, "B12"), (2, "R9"), (3, "R2")], 1) == (0, "R5", False)
    assert winner(DECK, [(3, "G1"), (0, "Y12"), (1, "R12")], 0) == (3, "G1", False)
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    events = play(state, "R1", "R7", "G12", "Y12")
    assert of_type(events, "trick-won")[0].seat == 1 and state.snapshot.leader == 1
    assert state.view(None)["tricks_won"] == [0, 1, 0, 0]


def _trump_game():
    hands = [[f"R{n}" for n in range(1, 7)] + [f"G{n}" for n in range(1, 7)],
             [f"R{n}" for n in range(7, 13)] + [f"B{n}" for n in range(1, 7)],
             [f"G{n}" for n in range(7, 13)] + [f"B{n}" for n in range(7, 13)],
             [f"Y{n}" for n in range(1, 13)]]
    state = start(variant="trump", hands=hands, dice=[(1, 2), (2, 4), (3, 4), (5, 6)])
    state.apply(ChooseTrump(3, "blue"))
    return state


def test_dsp_6_3_a_trick_with_trumps_goes_to_the_highest_trump():
    """DSP-6.3: any trump beats the lead colour; the highest trump wins, by the half's number."""
    state = _trump_game()
    events = play(state, "R1", "R7", "B7", "Y1")
    won = of_type(events, "trick-won")[0]
    assert (won.seat, won.card, won.by_trump) == (2, "B7", True)
    events = play(state, "G7", "Y2", "G1", "B1")
    won = of_type(events, "trick-won")[0]
    assert (won.seat, won.card, won.by_trump) == (1, "B1", True)
    events = play(state, "B2", "B8", "Y3", "R2")
    assert of_type(events, "trick-won")[0].seat == 2
    plays = [(0, "R1"), (1, "B3"), (2, "B9"), (3, "R12")]
    assert winner(DECK, plays, 0, "blue") == (2, "B9", True)
    assert winner(DECK, plays, 1, "blue") == (1, "B3", True)  # alien: B3 is 9, B9 is 3
    assert winner(DECK, plays, 0, "green") == (3, "R12", False)


def test_dsp_r4_trumps_do_not_lift_must_follow():
    """DSP-R4: a seat holding the lead colour may not trump."""
    state = _trump_game()
    play(state, "R1")
    verdict = state.check(Play(1, "B1"))
    assert not verdict.ok and verdict.rule == "DSP-7.3"
    assert all(m.card.startswith("R") for m in state.legal_moves(1))


def test_dsp_8_1_a_seat_whose_tricks_match_a_die_scores_a_point():
    """DSP-8.1: tricks won equal to a die (or 0 with a 6) score 1 point after trick 12."""
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    events = _play_split_round(state)
    scored = of_type(events, "round-scored")[0]
    assert scored.tricks_won == (6, 6, 0, 0)
    assert scored.scored == (0, 1, 3)  # 6 with (1,6); 6 with (6,5); 0 with (6,4); seat 3 (3,5) misses
    assert scored.points == (1, 1, 0, 1)


def test_dsp_8_2_without_two_points_a_new_round_is_dealt():
    """DSP-8.2: a new deal, new dice and a fresh trick history; earlier rounds are summarised."""
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    _play_split_round(state)
    assert state.outcome is None
    assert state.pending_chance().kind == "shuffle"
    view = state.view(None)
    assert view["round"] == 2 and view["tricks"] == [] and view["dice"] == [None] * 4
    assert view["points"] == [1, 1, 0, 1]
    assert view["rounds"][0]["tricks_won"] == [6, 6, 0, 0] and view["rounds"][0]["scored"] == [0, 1, 3]


def test_dsp_8_3_full_scripted_four_player_game_to_a_win():
    """DSP-8.3, DSP-8.1, DSP-7.5: two scripted rounds; seat 1 reaches 2 points alone and wins."""
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    _play_split_round(state)
    next_round(state, by_colour(), [(6, 5), (2, 3), (1, 2), (4, 5)])
    assert state.snapshot.lead == 2
    events = play_first_legal(state)
    assert [e.seat for e in of_type(events, "trick-won")] == [2] * 12
    scored = of_type(events, "round-scored")[0]
    assert scored.tricks_won == (0, 0, 12, 0) and scored.scored == (0,)
    over = of_type(events, "game-over")[0]
    assert over.winners == (0,) and over.points == (2, 1, 0, 1)
    outcome = state.outcome
    assert outcome.winners == (0,) and not outcome.tie and outcome.scores == (2.0, 1.0, 0.0, 1.0)
    assert "seat 1 reached 2 points" in outcome.reason
    assert not state.to_act() and state.pending_chance() is None
    assert state.check(Play(0, "R1")).rule == "CORE-2"


def test_dsp_r7_several_seats_reaching_two_points_together_share_the_victory():
    """DSP-R7, DSP-8.3: seats 1 and 2 both reach 2 points in round 2: a shared victory, marked a tie."""
    state = start(hands=split_deal(), dice=ROUND_1_DICE)
    _play_split_round(state)
    next_round(state, by_colour(), [(6, 5), (6, 3), (1, 2), (4, 5)])
    events = play_first_legal(state)
    assert of_type(events, "game-over")[0].winners == (0, 1)
    outcome = state.outcome
    assert outcome.winners == (0, 1) and outcome.tie and outcome.scores == (2.0, 2.0, 0.0, 1.0)
    assert "share the victory" in outcome.reason
    assert state.view(None)["winners"] == [0, 1]


def test_random_games_end_and_every_trick_has_one_card_per_seat():
    """DSP-7.2, DSP-8.3: random seeded games of every table end in a win; tricks and points add up."""
    for seats in (3, 4):
        for variant in GAME.variants:
            for seed in range(3):
                state = GAME.new(seats, variant, deal=seed)
                steps = list(random_steps(state, random.Random(seed), 5000))
                assert state.outcome is not None
                for step in steps:
                    for event in step.events:
                        if event.type == "trick-won":
                            assert sorted(p for p, _ in event.plays) == list(range(seats))
                        if event.type == "round-scored":
                            assert sum(event.tricks_won) == 12
                assert max(state.snapshot.points) == 2
