"""Double Side Play with a hand-shuffled deck: voids, revokes and card conservation
(docs/rules/double-side-play.md sections 9-10)."""

import json
import random

import pytest

from engines.core import IllegalMove
from engines.double_side_play import GAME, Play
from engines.playout import sample_chance
from tests.test_double_side_play_support import of_type, play, roll, split_deal, start

DICE = [(1, 6), (6, 5), (3, 5), (6, 4)]

HONEST = [("R1", "R7", "G1", "Y1")] + [(f"R{k + 6}", f"G{k}", f"Y{k}", f"R{k}") for k in range(2, 7)] \
    + [("B7", "G7", "Y7", "B1")] + [(f"B{k - 6}", f"B{k}", f"G{k}", f"Y{k}") for k in range(8, 13)]
"""The split deal (tests/test_double_side_play_support.py) played by the rules."""

REVOKING = [("R1", "B7", "G1", "Y1"),  # seat 2 holds red but shows blue: a false void claim
            ("R2", "R7", "G2", "Y2")]  # ... and now plays red: the revoke
REVOKING += [(f"R{k + 5}", f"G{k}", f"Y{k}", f"R{k}") for k in range(3, 7)]
REVOKING += [("R12", "G7", "Y7", "B1"), ("B8", "G8", "Y8", "B2")]
REVOKING += [(f"B{k - 6}", f"B{k}", f"G{k}", f"Y{k}") for k in range(9, 13)]


def _physical(ruling: str | None = None, seats: int = 4):
    options = {"revoke": ruling} if ruling else {}
    return start(seats, deal="physical", dice=DICE[:seats], options=options)


def _play_all(state, tricks) -> list:
    events = []
    for cards in tricks:
        events += play(state, *cards)
    return events


def test_revoke_script_is_what_the_real_hands_allow_except_the_one_revoke():
    """DSP-9.3: the scripted cards all come from the real hands, each once (a check of the test itself)."""
    hands = split_deal()
    played = [c for trick in REVOKING for c in trick]
    assert sorted(played) == sorted(c for h in hands for c in h)


def test_dsp_9_1_a_physical_deal_knows_no_hand():
    """DSP-9.1: no shuffle chance, hand counts only, legal cards not listed, nothing hidden."""
    state = GAME.new(4, deal="physical")
    assert state.pending_chance().kind == "dice"
    for a, b in DICE:
        state.apply(roll(a, b))
    assert state.to_act() == {0}
    assert state.legal_moves(0) is None and state.playable(0) is None
    assert state.hidden_from(0) == frozenset() and state.hidden_from(None) == frozenset()
    view = state.view(0)
    assert view["hand"] is None and view["hand_known"] is False and view["deal"] == "physical"
    assert view["hand_counts"] == [12, 12, 12, 12]
    play(state, "Y9")
    assert state.view(None)["hand_counts"] == [11, 12, 12, 12]


def test_dsp_9_2_a_legal_void_is_recorded_and_never_reported_as_a_revoke():
    """DSP-9.2: not following records a public void claim; a true void ends the round with no revoke."""
    state = _physical()
    events = play(state, "R1", "R7", "G1")
    assert of_type(events, "card-played")[-1].void == "red"
    claim = state.view(None)["voids"][0]
    assert claim == {"seat": 2, "colour": "red", "trick": 1, "led": "R1", "card": "G1"}
    events += _play_all(state, [("Y1",)] + HONEST[1:])
    assert not of_type(events, "revoke")
    assert state.snapshot.round == 2 and state.snapshot.voids == ()  # void claims hold for one round
    scored = of_type(events, "round-scored")[0]
    assert scored.tricks_won == (6, 6, 0, 0) and scored.scored == (0, 1, 3) and scored.forfeited == ()
    assert state.view(None)["rounds"][0]["revokes"] == []


def test_dsp_9_3_a_true_revoke_is_reported_with_its_evidence():
    """DSP-9.3: a colour played after a void claim in it is a revoke: the claim's trick and cards, and the new card."""
    state = _physical()
    play(state, *REVOKING[0])
    events = play(state, "R2", "R7")
    revoke = of_type(events, "revoke")[0]
    assert (revoke.seat, revoke.colour) == (1, "red")
    assert (revoke.claimed_trick, revoke.led_card, revoke.claimed_card) == (1, "R1", "B7")
    assert (revoke.trick, revoke.card) == (2, "R7")
    assert revoke.ruling == "no-point"
    view = state.view(None)
    assert view["revokes"] == [{"seat": 1, "colour": "red", "claimed_trick": 1, "led_card": "R1",
                                "claimed_card": "B7", "trick": 2, "card": "R7"}]
    assert view["revoke_ruling"] == "no-point"


def test_dsp_r5_the_revoking_card_stays_played_and_wins_as_played():
    """DSP-R5: under no-point the trick with the revoking card is won as played."""
    state = _physical()
    play(state, *REVOKING[0])
    events = play(state, *REVOKING[1])
    won = of_type(events, "trick-won")[0]
    assert (won.seat, won.card) == (1, "R7")


def test_dsp_9_4_no_point_ruling_stops_the_offender_scoring_that_round():
    """DSP-9.4, DSP-R3: by default the offender scores nothing that round though its tricks match a die."""
    state = _physical()
    events = _play_all(state, REVOKING)
    scored = of_type(events, "round-scored")[0]
    assert scored.tricks_won == (6, 6, 0, 0)
    assert scored.forfeited == (1,) and scored.scored == (0, 3) and scored.points == (1, 0, 0, 1)
    assert state.view(None)["rounds"][0]["revokes"] == [1]


def test_dsp_r3_note_ruling_records_the_revoke_and_changes_no_score():
    """DSP-R3, DSP-9.4: with revoke=note the same round scores as if nothing happened."""
    state = _physical("note")
    events = _play_all(state, REVOKING)
    assert of_type(events, "revoke")[0].ruling == "note"
    scored = of_type(events, "round-scored")[0]
    assert scored.scored == (0, 1, 3) and scored.forfeited == ()


def test_dsp_9_4_void_round_ruling_ends_the_round_without_points():
    """DSP-9.4: with revoke=void-round the revoke ends the round; nobody scores; a new round begins."""
    state = _physical("void-round")
    play(state, *REVOKING[0])
    events = play(state, "R2", "R7")
    assert of_type(events, "round-voided")[0].seat == 1
    assert of_type(events, "dealt")[0].round == 2
    assert not of_type(events, "round-scored")
    view = state.view(None)
    assert view["round"] == 2 and view["points"] == [0, 0, 0, 0] and view["tricks"] == []
    assert view["rounds"][0]["voided"] is True and view["rounds"][0]["revokes"] == [1]
    assert state.pending_chance().kind == "dice"


def test_dsp_9_5_in_a_seeded_deal_a_revoke_is_an_illegal_move():
    """DSP-9.5: the engine knows the hands, so the false void is refused under DSP-7.3."""
    state = start(hands=split_deal(), dice=DICE)
    play(state, "R1")
    before = state.to_json()
    with pytest.raises(IllegalMove) as exc:
        state.apply(Play(1, "B7"))
    assert exc.value.rule == "DSP-7.3"
    assert state.to_json() == before and state.view(None)["voids"] == []


def test_dsp_r6_three_player_physical_deal_accepts_any_unseen_card():
    """DSP-R6: the engine cannot tell out-of-round cards from held ones in a physical 3-player deal."""
    state = _physical(seats=3)
    assert state.view(None)["out_of_round"] == 12
    events = play(state, "Y5", "Y6", "Y7")
    assert of_type(events, "trick-won")[0].seat == 2
    assert state.view(None)["hand_counts"] == [11, 11, 11]


def test_dsp_10_1_a_card_seen_twice_in_a_round_names_both_sightings():
    """DSP-10.1: the second sighting is refused; the message names who played it where, both times."""
    state = _physical()
    play(state, "R1")
    before = state.to_json()
    verdict = state.check(Play(1, "R1"))
    assert not verdict.ok and verdict.rule == "DSP-10.1"
    assert "seat 1 in trick 1" in verdict.message and "seat 2" in verdict.message
    play(state, "R7", "G1", "Y1")
    verdict = state.check(Play(1, "G1"))
    assert verdict.rule == "DSP-10.1"
    assert "seat 3 in trick 1" in verdict.message and "seat 2 shows it in trick 2" in verdict.message
    with pytest.raises(IllegalMove):
        state.apply(Play(1, "G1"))
    assert state.snapshot.plays == () and state.to_json()["snapshot"]["trick"] == 2
    assert before != state.to_json()
    seeded = start(hands=split_deal(), dice=DICE)
    play(seeded, "R1", "R7", "G1", "Y1")
    assert seeded.check(Play(1, "R1")).rule == "DSP-10.1"


@pytest.mark.parametrize("seats,variant", [(3, "trump"), (4, "standard")])
def test_dsp_9_2_honest_physical_games_match_seeded_games_and_never_see_a_revoke(seats, variant):
    """DSP-9.2, DSP-9.1: a physical table fed the plays of a seeded game (real hands, rules kept) scores the
    same, claims the same voids, and never reports a revoke."""
    for seed in range(2):
        rng = random.Random(seed)
        seeded = GAME.new(seats, variant, deal=seed)
        physical = GAME.new(seats, variant, deal="physical")
        while seeded.outcome is None:
            request = seeded.pending_chance()
            if request is not None:
                move = sample_chance(request, rng)
                seeded.apply(move)
                if request.kind == "dice":
                    physical.apply(move)
                continue
            seat = rng.choice(sorted(seeded.to_act()))
            move = rng.choice(seeded.legal_moves(seat))
            seeded.apply(move)
            events = physical.apply(move)
            assert not of_type(events, "revoke")
            assert physical.snapshot.voids == seeded.snapshot.voids
        assert physical.outcome == seeded.outcome
        assert GAME.load(json.loads(json.dumps(physical.to_json()))).to_json() == physical.to_json()
