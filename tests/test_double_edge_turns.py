"""Double-Edge player turns (DE-6), ending a turn (DE-7) and the extra turn (DE-14)."""

from __future__ import annotations

import pytest

from engines.double_edge.moves import (
    DiscardSupport,
    Draw,
    EndTurn,
    Indicate,
    PlayGambit,
    PlayStriker,
    PlaySupport,
    TakeDiscard,
    TakeDiscards,
)
from tests.double_edge.support import play, rejects, rules, table, types

HAND = ("2C", "3D", "9H", "QS")
FULL = ("5D", "6D", "7D", "8D", "10D", "JD", "KD")  # seven cards: ends the turn by confirmation


@rules("DE-6.1")
def test_only_the_turn_player_acts():
    state = table(hands=(HAND, HAND[::-1]), first=1)
    assert state.to_act() == {1} and state.legal_moves(0) == []
    rejects(state, PlayStriker(0, "2C"), "CORE-6")
    state = table(hands=(HAND, ()), stage=2, first=1)
    assert state.to_act() == {0}


@rules("DE-6.2", "DE-6.5")
def test_striker_face_up_only_without_one():
    state = table(hands=(HAND, ()))
    events = play(state, PlayStriker(0, "9H"))
    assert types(events) == ["striker-played"] and state.snapshot.strikers[0] == "9H"
    assert state.view(1)["strikers"][0] == "9H"
    rejects(state, PlayStriker(0, "2C"), "DE-6.2")
    state = table(hands=(HAND, ()))
    rejects(state, PlayStriker(0, "KH"), "DE-6.5")


@rules("DE-6.4", "DE-8.8")
def test_support_face_down_under_a_striker_without_one():
    state = table(hands=(HAND, ()))
    rejects(state, PlaySupport(0, "2C"), "DE-6.4")
    events = play(state, PlayStriker(0, "9H"), PlaySupport(0, "2C"))
    assert types(events)[-1] == "support-played" and "2C" not in str(events[-1].to_json())
    assert state.view(1)["supports"][0] == "face-down" and "2C" in state.hidden_from(1)
    assert state.view(0)["supports"][0] == "2C"
    rejects(state, PlaySupport(0, "3D"), "DE-6.4")


@rules("DE-6.3", "DE-R15")
def test_discard_a_card_then_the_support_goes_on_top():
    state = table(hands=(HAND, ()), strikers=("KC", None), supports=("5H", None), discards=(("8D",), ()))
    rejects(state, DiscardSupport(1, "2C"), "CORE-6")
    events = play(state, DiscardSupport(0, "3D"))
    assert types(events) == ["discarded"]
    assert state.snapshot.discards[0] == ("8D", "3D", "5H") and state.snapshot.supports[0] is None
    rejects(state, DiscardSupport(0, "2C"), "DE-6.3")
    # any number of actions: a new Support right away
    play(state, PlaySupport(0, "2C"))


@rules("DE-7.1", "DE-7.6")
def test_draw_ends_the_turn_and_is_required_when_possible():
    state = table(hands=(HAND, ()), deck=("JC", "4D"))
    assert state.legal_moves(0)[-1:] == [Draw(0)]
    rejects(state, EndTurn(0), "DE-7.6")
    events = play(state, Draw(0))
    assert types(events) == ["drew", "turn-ended"] and "JC" in state.snapshot.hands[0]
    assert state.snapshot.deck == ("4D",) and state.to_act() == {1}


@rules("DE-7.2")
def test_take_both_tops_only_under_six_cards():
    piles = (("2H", "5S"), ("7D",))
    state = table(hands=(HAND, ()), deck=("JC",), discards=piles)
    play(state, TakeDiscards(0))
    assert state.snapshot.hands[0][-2:] == ("5S", "7D") and state.snapshot.discards == (("2H",), ())
    six = HAND + ("4S", "6S")
    state = table(hands=(six, ()), deck=("JC",), discards=piles)
    rejects(state, TakeDiscards(0), "DE-7.2")
    state = table(hands=(HAND, ()), deck=("JC",), discards=(("2H",), ()))
    rejects(state, TakeDiscards(0), "DE-7.2")


@rules("DE-7.3")
def test_one_pile_with_cards_gives_one_card_even_at_six():
    six = HAND + ("4S", "6S")
    state = table(hands=(six, ()), deck=("JC",), discards=((), ("7D",)))
    assert TakeDiscard(0, 1) in state.legal_moves(0)
    rejects(state, TakeDiscard(0, 0), "DE-7.3")
    play(state, TakeDiscard(0, 1))
    assert len(state.snapshot.hands[0]) == 7
    state = table(hands=(HAND, ()), deck=("JC",), discards=(("2H",), ("7D",)))
    rejects(state, TakeDiscard(0, 1), "DE-7.3")


@rules("DE-7.4")
def test_empty_deck_forces_the_discard_piles():
    piles = (("2H", "5S"), ("7D",))
    state = table(hands=(HAND, ()), discards=piles)
    rejects(state, Draw(0), "DE-7.4")
    rejects(state, EndTurn(0), "DE-7.6")
    assert [m for m in state.legal_moves(0) if m.type.startswith(("take", "draw", "end"))] == [TakeDiscards(0)]
    six = HAND + ("4S", "6S")
    state = table(hands=(six, ()), discards=piles)
    assert state.legal_moves(0)[-1] == TakeDiscard(0, 0)
    rejects(state, TakeDiscard(0, 1), "DE-7.4")
    rejects(state, TakeDiscards(0), "DE-7.2")
    play(state, TakeDiscard(0, 0))
    assert state.snapshot.hands[0][-1] == "5S"
    # own pile empty: the opponent's
    state = table(hands=(six, ()), discards=((), ("7D",)))
    play(state, TakeDiscard(0, 1))


@rules("DE-7.5", "DE-R7")
def test_full_hand_or_nothing_to_take_ends_by_confirmation():
    seven = HAND + ("4S", "6S", "8S")
    state = table(hands=(seven, ()), deck=("JC",), discards=(("2H",), ()))
    rejects(state, Draw(0), "DE-7.5")
    rejects(state, TakeDiscard(0, 0), "DE-7.5")
    events = play(state, EndTurn(0))
    assert types(events) == ["turn-ended"]
    # deck and both piles empty: nothing to draw, the turn ends by confirmation (DE-R7)
    state = table(hands=(HAND, ()))
    assert state.legal_moves(0)[-1] == EndTurn(0)
    play(state, EndTurn(0))


@rules("DE-R7")
def test_deck_and_piles_empty_after_the_action_turn_ends_the_game():
    state = table(phase="indicate", hands=((), ()), bases=(("2C", "4C"), ("3H",)))
    events = play(state, Indicate(0, "AH"), Indicate(1, "AD"))
    assert state.outcome.winners == (0,) and "DE-R7" in state.outcome.reason
    assert types(events)[-1] == "game-over"


@rules("DE-R8")
def test_round_limit_compares_bases():
    state = table(phase="indicate", hands=((), ()), deck=("5C",), round=3, options={"max_rounds": 3},
                  bases=(("2C",), ("3H", "5H")))
    play(state, Indicate(0, "AH"), Indicate(1, "AD"))
    assert state.outcome.winners == (1,) and "DE-R8" in state.outcome.reason
    state = table(phase="indicate", hands=((), ()), deck=("5C",), round=3, options={"max_rounds": 3},
                  bases=(("2C",), ("3H",)))
    play(state, Indicate(0, "AH"), Indicate(1, "AD"))
    assert state.outcome.tie and state.outcome.winners == ()
    from engines.double_edge import GAME
    with pytest.raises(ValueError, match="max_rounds"):
        GAME.new(2, "standard", 0, {"max_rounds": 0})


@rules("DE-14.1", "DE-14.2", "DE-14.3", "DE-R18")
def test_extra_turn_for_the_first_player_who_acted():
    state = table("extra-turn", hands=(HAND, ("5C", "7C")), deck=("JC", "4D", "6D"))
    play(state, PlayStriker(0, "9H"), Draw(0), Draw(1))
    assert state.to_act() == {0} and state.view(None)["extra_turn"]
    rejects(state, PlayStriker(0, "2C"), "DE-14.2")
    rejects(state, Draw(0), "DE-14.3")
    rejects(state, TakeDiscards(0), "DE-14.3")
    assert {m.type for m in state.legal_moves(0)} == {"play-support", "end-turn"}
    play(state, PlaySupport(0, "2C"))
    state2 = table("extra-turn", stage=3, hands=(HAND, ()), strikers=(None, None))
    rejects(state2, PlayStriker(0, "2C"), "DE-14.2")
    events = play(state, EndTurn(0))
    assert events[0].extra and state.snapshot.phase == "indicate"
    # no action in the first turn: no extra turn
    state = table("extra-turn", hands=(HAND, FULL), deck=("JC", "4D"))
    play(state, Draw(0), EndTurn(1))
    assert state.snapshot.phase == "indicate"
    # the extra turn may be declined at once (DE-R18)
    state = table("extra-turn", hands=(HAND, FULL), deck=("JC", "4D"))
    play(state, PlayStriker(0, "9H"), Draw(0), EndTurn(1), EndTurn(0))
    assert state.snapshot.phase == "indicate"


@rules("DE-13.8")
def test_no_extra_turn_in_azbar_or_standard():
    for variant in ("azbar", "standard"):
        state = table(variant, hands=(HAND, FULL), deck=("JC", "4D"))
        play(state, PlayStriker(0, "9H"), Draw(0), EndTurn(1))
        assert state.snapshot.phase == "indicate"


@rules("DE-13.1")
def test_gambits_only_in_azbar():
    state = table(hands=(("4C", "4D", "4H"), ()))
    rejects(state, PlayGambit(0, ("4C", "4D", "4H")), "DE-13.1")
