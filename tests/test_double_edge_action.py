"""Double-Edge action turn (DE-8), results (DE-11) and the end of the game (DE-12)."""

from __future__ import annotations

from engines.double_edge.moves import Claim, Indicate, PlayStriker
from tests.double_edge.support import play, rejects, rules, table, types

B0 = ("9C", "JC", "KC")  # black odd big
B1 = ("4H", "6H", "8H")  # red even


def combats(events):
    return [e for e in events if e.type == "combat"]


@rules("DE-8.1", "DE-8.2", "DE-11.4")
def test_indicators_are_sealed_together_then_revealed_aces_return():
    state = table(phase="indicate", hands=(("5C",), ("6C",)), deck=("2S",))
    assert state.to_act() == {0, 1}
    rejects(state, Indicate(0, "9D"), "DE-6.5")
    play(state, Indicate(0, "5C"))
    assert state.to_act() == {1} and "5C" in state.hidden_from(1) and "5C" in state.hidden_from(None)
    assert state.view(1)["indicators"][0] == "face-down" and state.view(0)["indicators"][0] == "5C"
    rejects(state, Indicate(0, "AH"), "CORE-6")
    events = play(state, Indicate(1, "AD"))
    assert types(events)[:2] == ["indicator-committed", "indicators-revealed"]
    assert events[1].cards == ("5C", "AD")
    assert state.snapshot.discards == (("5C",), ()) and state.view(1)["aces"] == ["AD", "AC"]
    assert state.snapshot.phase == "turn" and state.snapshot.round == 2


@rules("DE-8.3", "DE-8.8", "DE-11.2")
def test_red_ace_striker_against_striker_support_revealed_and_discarded_under():
    state = table(phase="indicate", hands=((), ("KS",)), deck=("2S",), bases=(B0, B1),
                  strikers=("9C", "5H"), supports=(None, "2D"))
    events = play(state, Indicate(0, "AH"), Indicate(1, "KS"))
    assert "support-revealed" in types(events)
    (fight,) = combats(events)
    assert fight.fighters == ("striker", "striker") and fight.winner == 0
    assert state.snapshot.strikers == ("9C", None)
    assert state.snapshot.discards[1] == ("2D", "5H", "KS")  # Support first, then Striker, then indicator


@rules("DE-8.8")
def test_a_support_once_face_up_stays_face_up():
    state = table(phase="indicate", hands=(("3S",), ("KS",)), deck=("2S",), bases=(B0, B1),
                  strikers=("9C", "5H"), supports=("7S", None))
    play(state, Indicate(0, "AH"), Indicate(1, "KS"))  # 9C (spades: lower wins) vs 5H: 5H wins
    assert state.snapshot.strikers == (None, "5H")
    state = table(phase="indicate", hands=(("3S",), ("KS",)), deck=("2S",), bases=(B0, B1),
                  strikers=("KC", "QH"), supports=("7H", None))
    play(state, Indicate(0, "AH"), Indicate(1, "KS"))  # KC vs QH x2 = 24: opposite parity, different: odd wins
    assert state.snapshot.support_up == (True, False) and state.view(1)["supports"][0] == "7H"


@rules("DE-8.4", "DE-8.5", "DE-9.4")
def test_black_ace_attacks_the_base_top_supported_by_the_indicator():
    # QC vs 4H: same parity, QC higher ... but the Base's spade Support makes the lower win
    state = table(phase="indicate", hands=((), ("3S",)), deck=("2S",), bases=(B0, B1), strikers=("QC", None))
    events = play(state, Indicate(0, "AS"), Indicate(1, "3S"))
    (fight,) = combats(events)
    assert fight.fighters == ("striker", "base") and fight.winner == 1 and fight.rule == "DE-10.4"
    assert state.snapshot.strikers[0] is None and state.snapshot.discards[0] == ("QC",)  # the attacker lost
    assert state.snapshot.bases[1] == B1


@rules("DE-11.1")
def test_defeated_base_top_goes_to_hand_or_discard_when_full():
    state = table(phase="indicate", hands=((), ("9D",)), deck=("2S",), bases=(B0, B1), strikers=("QC", None))
    play(state, Indicate(0, "AS"), Indicate(1, "9D"))
    assert state.snapshot.bases[1] == B1[1:] and state.snapshot.hands[1] == ("4H",)
    full = ("2C", "3C", "5C", "6C", "7C", "8C", "10C")
    state = table(phase="indicate", hands=((), full), deck=("2S",), bases=(B0, B1))
    events = play(state, Indicate(0, "AS"), Indicate(1, "AD"))  # Base 9C attacks Base 4H; AD fizzles
    assert "fizzled" in types(events)
    assert state.snapshot.bases[1] == B1[1:] and state.snapshot.discards[1] == ("4H",)


@rules("DE-8.6", "DE-11.3")
def test_without_a_striker_the_base_top_attacks_and_earns_no_claim():
    state = table(phase="indicate", hands=((), ("KS",)), deck=("2S",), bases=(B0, B1),
                  strikers=(None, "4H"), supports=(None, "2S"))
    events = play(state, Indicate(0, "AH"), Indicate(1, "KS"))
    (fight,) = combats(events)
    assert fight.fighters == ("base", "striker") and fight.winner == 0
    assert state.snapshot.strikers[1] is None and state.snapshot.phase == "turn"


@rules("DE-8.7")
def test_striker_attacks_come_first_and_a_defeated_striker_does_not_attack():
    state = table(phase="indicate", hands=((), ()), deck=("2S",), bases=(B0, B1), strikers=("KC", "9C"))
    events = play(state, Indicate(0, "AH"), Indicate(1, "AC"))
    assert len(combats(events)) == 1 and state.snapshot.bases == (B0, B1)
    assert state.snapshot.strikers == ("KC", None)


@rules("DE-R5")
def test_red_ace_without_an_opposing_striker_does_nothing():
    state = table(phase="indicate", hands=((), ("KS",)), deck=("2S",), bases=(B0, B1),
                  strikers=("9C", None), supports=("2D", None))
    events = play(state, Indicate(0, "AH"), Indicate(1, "KS"))
    assert "fizzled" in types(events) and not combats(events)
    assert state.snapshot.support_up == (False, False) and "2D" in state.hidden_from(1)


@rules("DE-R9")
def test_mutual_attacks_are_one_combat():
    state = table(phase="indicate", hands=((), ()), deck=("2S",), bases=(B0, B1), strikers=("KC", "9C"))
    events = play(state, Indicate(0, "AH"), Indicate(1, "AD"))
    assert len(combats(events)) == 1
    state = table(phase="indicate", hands=((), ()), deck=("2S",), bases=(B0, B1))
    events = play(state, Indicate(0, "AS"), Indicate(1, "AC"))
    (fight,) = combats(events)
    assert fight.fighters == ("base", "base")


@rules("DE-R6")
def test_base_attacks_happen_together_and_a_card_is_defeated_once():
    # Base 4C attacks Base 8H (and loses); Striker 9H attacks Base 4C (and wins): 4C is lost once.
    state = table(phase="indicate", hands=((), ()), deck=("2S",), bases=(("4C", "6C"), ("8H", "10H")),
                  strikers=(None, "9H"))
    events = play(state, Indicate(0, "AS"), Indicate(1, "AC"))
    assert len(combats(events)) == 2
    assert state.snapshot.bases == (("6C",), ("8H", "10H")) and state.snapshot.hands[0] == ("4C",)


@rules("DE-12.3", "DE-R6")
def test_two_bases_emptied_in_one_step_tie():
    state = table(phase="indicate", hands=((), ()), deck=("2S",), bases=(("4C",), ("4H",)), strikers=("9C", "9H"))
    events = play(state, Indicate(0, "AS"), Indicate(1, "AC"))
    assert state.outcome.tie and state.outcome.winners == () and types(events)[-1] == "game-over"


@rules("DE-12.1", "DE-12.4")
def test_empty_base_loses_and_nothing_moves_after():
    state = table(phase="indicate", hands=((), ("9D",)), deck=("2S",), bases=(B0, ("4H",)), strikers=("QC", None))
    play(state, Indicate(0, "AS"), Indicate(1, "9D"))
    assert state.outcome.winners == (0,) and not state.outcome.tie
    assert state.to_act() == frozenset() and state.legal_moves(0) == [] and state.legal_moves(1) == []
    rejects(state, PlayStriker(1, "4H"), "CORE-2")


CLAIM_BASE = ("5C", "7C", "3S")  # black odd small


def claim_table(support: str, base=CLAIM_BASE):
    # 9C (with support) attacks 5H by the red ace; 5H + 7 (clubs) or x2 (hearts) still loses to the odd 9C
    return table(phase="indicate", hands=((), ("KS",)), deck=("2S",), bases=(base, B1),
                 strikers=("9C", "5H"), supports=(support, None))


@rules("DE-11.3", "DE-R16")
def test_red_ace_winner_may_add_its_support_to_the_base_bottom():
    state = claim_table("3C")
    play(state, Indicate(0, "AH"), Indicate(1, "KS"))
    assert state.snapshot.phase == "claim" and state.to_act() == {0}
    assert state.legal_moves(0) == [Claim(0, True), Claim(0, False)]
    rejects(state, Indicate(0, "AH"), "DE-11.3")
    events = play(state, Claim(0, True))
    assert types(events)[0] == "added-to-base" and state.snapshot.bases[0] == (*CLAIM_BASE, "3C")
    assert state.snapshot.supports[0] is None and state.snapshot.discards[1][-1] == "KS"
    # declining keeps the Support under the Striker (DE-R16)
    state = claim_table("3C")
    play(state, Indicate(0, "AH"), Indicate(1, "KS"), Claim(0, False))
    assert state.snapshot.bases[0] == CLAIM_BASE and state.snapshot.supports[0] == "3C"
    # not offered when it would break the pattern
    state = claim_table("2H")
    play(state, Indicate(0, "AH"), Indicate(1, "KS"))
    assert state.snapshot.phase == "turn" and state.snapshot.supports[0] == "2H"


@rules("DE-12.2")
def test_six_cards_in_the_base_win():
    state = claim_table("3C", base=("5C", "7C", "3S", "5S", "7S"))
    events = play(state, Indicate(0, "AH"), Indicate(1, "KS"), Claim(0, True))
    assert state.outcome.winners == (0,) and "6 cards" in state.outcome.reason and types(events)[-1] == "game-over"
