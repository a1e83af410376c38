"""Double-Edge variant azbar: Gambits (DE-13) and their rulings."""

from __future__ import annotations

from engines.double_edge.moves import Claim, DiscardSupport, Indicate, PlayGambit, PlaySupport
from tests.double_edge.support import play, rejects, rules, table, types

FOURS = ("4C", "4S", "4D")


@rules("DE-13.1")
def test_gambit_of_one_value_stacked_face_up():
    state = table("azbar", hands=((*FOURS, "9H"), ()))
    gambits = [m for m in state.legal_moves(0) if m.type == "play-gambit"]
    assert len(gambits) == 6  # every order of the three fours
    rejects(state, PlayGambit(0, ("4C", "4S")), "DE-13.1")
    rejects(state, PlayGambit(0, ("4C", "4S", "9H")), "DE-13.1")
    rejects(state, PlayGambit(0, ("4C", "4S", "AH")), "DE-2.4")
    rejects(state, PlayGambit(0, ("4C", "4S", "4H")), "DE-6.5")
    events = play(state, PlayGambit(0, FOURS))
    assert types(events) == ["gambit-played"]
    s = state.snapshot
    assert (s.strikers[0], s.middles[0], s.supports[0], s.support_up[0]) == ("4C", ("4S",), "4D", True)
    assert state.view(1)["gambit_middles"][0] == ["4S"] and state.view(1)["supports"][0] == "4D"


@rules("DE-13.2", "DE-R15")
def test_gambit_discards_the_striker_area_first():
    state = table("azbar", hands=(FOURS, ()), strikers=("KH", None), supports=("2C", None))
    events = play(state, PlayGambit(0, FOURS))
    assert types(events) == ["discarded", "gambit-played"]
    assert state.snapshot.discards[0] == ("2C", "KH")


@rules("DE-R12")
def test_support_actions_do_not_touch_a_gambit():
    state = table("azbar", hands=(("9H", "5S"), ()), strikers=("4C", None), middles=(("4S",), ()),
                  supports=("4D", None), support_up=(True, False))
    rejects(state, DiscardSupport(0, "9H"), "DE-R12")
    rejects(state, PlaySupport(0, "9H"), "DE-6.4")
    assert not [m for m in state.legal_moves(0) if m.type in ("discard-support", "play-support")]


def gambit_fight(base=("2S", "6S")):
    # Gambit 4C/4S/4D (64, even, black) attacks Striker 6C with the red ace: 64 > 6
    return table("azbar", phase="indicate", hands=((), ("KS",)), deck=("2H",), bases=(base, ("3H", "5H")),
                 strikers=("4C", "6C"), middles=(("4S",), ()), supports=("4D", None), support_up=(True, False))


@rules("DE-13.6", "DE-R13")
def test_gambit_red_ace_win_adds_every_card_under_the_striker():
    state = gambit_fight()
    play(state, Indicate(0, "AH"), Indicate(1, "KS"))
    assert state.snapshot.phase == "claim" and state.snapshot.claim_cards == ("4S", "4D")
    play(state, Claim(0, True))
    s = state.snapshot
    assert s.bases[0] == ("2S", "6S", "4S", "4D") and (s.strikers[0], s.middles[0], s.supports[0]) == ("4C", (), None)
    # all or none: a Base that takes 4S but not 4D is not offered the claim
    state = gambit_fight(base=("2S", "6S", "3S"))
    play(state, Indicate(0, "AH"), Indicate(1, "KS"))
    assert state.snapshot.phase == "turn" and state.snapshot.bases[0] == ("2S", "6S", "3S")


@rules("DE-13.7", "DE-R12")
def test_middle_cards_leave_at_the_end_of_the_action_turn():
    state = gambit_fight()
    play(state, Indicate(0, "AH"), Indicate(1, "KS"), Claim(0, False))
    s = state.snapshot
    assert (s.strikers[0], s.middles[0], s.supports[0]) == ("4C", (), "4D")
    assert s.discards[0] == ("4S",)
    # now an ordinary Striker: its Support can be removed again
    state2 = table("azbar", hands=(("9H",), ()), strikers=("4C", None), supports=("4D", None),
                   support_up=(True, False))
    play(state2, DiscardSupport(0, "9H"))
    # a Gambit not in combat loses its middle cards too
    state = table("azbar", phase="indicate", hands=(("KS",), ()), deck=("2H",), strikers=("4C", None),
                  middles=(("4S", "4H"), ()), supports=("4D", None), support_up=(True, False))
    play(state, Indicate(0, "KS"), Indicate(1, "AD"))
    assert state.snapshot.middles[0] == () and state.snapshot.discards[0] == ("4H", "4S", "KS")


@rules("DE-13.4", "DE-13.5")
def test_azbar_spades_in_a_real_action_turn():
    # 9C with a spade Support attacks Base 6D; the Base's clubs indicator matches 9C's suit: cancelled.
    state = table("azbar", phase="indicate", hands=((), ("5C",)), deck=("2H",), bases=(("2S", "4S"), ("6D", "8D")),
                  strikers=("9C", None), supports=("2S", None))
    events = play(state, Indicate(0, "AS"), Indicate(1, "5C"))
    (fight,) = [e for e in events if e.type == "combat"]
    assert fight.values == (9, 6)
    # in the standard game the clubs count (9C is worth 16) and the spade makes the lower number win
    state = table("standard", phase="indicate", hands=((), ("5C",)), deck=("2H",),
                  bases=(("2S", "4S"), ("6D", "8D")), strikers=("9C", None), supports=("2S", None))
    events = play(state, Indicate(0, "AS"), Indicate(1, "5C"))
    (fight,) = [e for e in events if e.type == "combat"]
    assert fight.values == (16, 6) and fight.rule == "DE-10.4" and fight.winner == 1
