"""Double-Edge with a physical deal (DE-15): counts, card conservation, sealed commitments."""

from __future__ import annotations

from engines.core import ChanceMove
from engines.double_edge import GAME
from engines.double_edge.moves import (
    BuildBase,
    DiscardSupport,
    Draw,
    EndTurn,
    Indicate,
    PlayStriker,
    PlaySupport,
    Reveal,
)
from tests.double_edge.support import play, rejects, rules
from tests.support.conformance import assert_hidden


def built():
    state = GAME.new(2, "standard", "physical")
    play(state, BuildBase(0, ("2C", "4C", "6C")), BuildBase(1, ("3H", "5H", "7H")),
         Reveal(0, "base", ("2C", "4C", "6C")), Reveal(1, "base", ("3H", "5H", "7H")))
    state.apply(ChanceMove((0,)))
    return state


@rules("DE-15.1")
def test_hands_and_deck_are_counts():
    state = GAME.new(2, "standard", "physical")
    assert state.pending_chance() is None and state.to_act() == {0, 1}
    assert state.legal_moves(0) is None
    view = state.view(0)
    assert view["hand_counts"] == [7, 7] and view["deck"] == 34 and view["hand"] == [] and view["hand_unseen"] == 7
    play(state, BuildBase(0, ("2C", "4C", "6C")))
    assert state.view(None)["hand_counts"] == [7, 7] and state.view(None)["deck"] == 31


@rules("DE-15.3", "DE-15.4")
def test_sealed_base_is_private_and_checked_when_revealed():
    state = GAME.new(2, "standard", "physical")
    play(state, BuildBase(0, ("2C", "4C", "6C")))
    assert {"2C", "4C", "6C"} <= state.hidden_from(1)
    rejects(state, BuildBase(1, ("2C", "4S", "6S")), "DE-15.2")
    rejects(state, BuildBase(1, ("2S", "9H", "4D")), "DE-4.1")
    play(state, BuildBase(1, ("3H", "5H", "7H")))
    assert state.snapshot.phase == "reveal" and state.to_act() == {0, 1}
    message = rejects(state, Reveal(0, "base", ("2C", "4C", "8C")), "DE-15.4")
    assert "2C-4C-8C" in message
    rejects(state, Reveal(0, "indicator", ("2C",)), "DE-15.4")
    rejects(state, PlayStriker(0, "9D"), "DE-15.4")
    play(state, Reveal(0, "base", ("2C", "4C", "6C")), Reveal(1, "base", ("3H", "5H", "7H")))
    assert state.pending_chance().kind == "coin"


@rules("DE-15.2")
def test_card_conservation_names_both_places():
    state = built()
    play(state, PlayStriker(0, "9D"))
    message = rejects(state, PlaySupport(0, "2C"), "DE-15.2")
    assert "seat 1's Base" in message and "seat 1's Support" in message
    play(state, PlaySupport(0, "KD"), Draw(0))
    assert state.view(None)["hand_counts"] == [6, 7] and state.view(None)["deck"] == 27
    message = rejects(state, PlayStriker(1, "9D"), "DE-15.2")
    assert "seat 1's Striker" in message and "seat 2's Striker" in message
    # the face-down Support is sealed: seat 2 may not "play" it either
    rejects(state, PlayStriker(1, "KD"), "DE-15.2")
    assert "KD" in state.hidden_from(1) and "KD" not in str(state.view(1))


@rules("DE-15.4")
def test_face_down_support_checked_as_it_lands_in_the_discard_pile():
    state = built()
    play(state, PlayStriker(0, "9D"), PlaySupport(0, "KD"))
    rejects(state, DiscardSupport(0, "QS"), "DE-15.4")
    rejects(state, DiscardSupport(0, "QS", seen="KH"), "DE-15.4")
    play(state, DiscardSupport(0, "QS", seen="KD"))
    assert state.snapshot.discards[0] == ("QS", "KD")


@rules("DE-15.3", "DE-15.4", "DE-8.2")
def test_indicators_and_supports_revealed_by_the_camera():
    state = built()
    for move in (PlayStriker(0, "9D"), PlaySupport(0, "KD"), Draw(0), PlayStriker(1, "8S"), Draw(1),
                 Indicate(0, "AH")):
        play(state, move)
        assert_hidden(state)
    assert "AH" not in str(state.view(1)) and "AH" in state.hidden_from(1)
    play(state, Indicate(1, "JS"))
    assert_hidden(state)
    assert state.snapshot.phase == "reveal" and {"AH", "JS"} & state.hidden_from(None) == {"AH", "JS"}
    rejects(state, Reveal(1, "indicator", ("JC",)), "DE-15.4")
    play(state, Reveal(1, "indicator", ("JS",)), Reveal(0, "indicator", ("AH",)))
    # the red ace draws both Strikers into combat: seat 1's face-down Support must be shown
    assert state.snapshot.pending == ((0, "support"),)
    rejects(state, Reveal(0, "support", ("KH",)), "DE-15.4")
    events = play(state, Reveal(0, "support", ("KD",)))
    assert "combat" in [e.type for e in events] and state.snapshot.phase == "turn"
    # 9D + KD (diamonds) vs 8S: opposite parity, different colours, reversed: the even 8S wins
    assert state.snapshot.strikers == (None, "8S")
    assert state.snapshot.discards == (("KD", "9D"), ("JS",))
    play(state, EndTurn(1) if state.view(None)["hand_counts"][1] == 7 else Draw(1))
