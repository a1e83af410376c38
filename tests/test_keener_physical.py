"""Keener with hand-shuffled decks (deal="physical"): the engine knows each
decklist but not the order, keeps card conservation, and takes a face-down
card as a sealed commitment checked when it is turned up (KN-8.2)."""

from engines.keener import GAME, Attack, Cloak, Deploy, Pass, PlayGenerator, Uncloak, commit
from tests.support.conformance import assert_hidden


def fresh(**options):
    return GAME.new(2, deal="physical", options=options)


def turn(state, seat, *moves):
    """Play a whole turn: an Economy move (or pass), the given Spending moves, no attack."""
    moves = moves or (Pass(seat),)
    for move in moves:
        state.apply(move)
    state.apply(Pass(seat))  # end Spending
    state.apply(Pass(seat))  # no attackers


def test_setup_without_shuffle_chance_and_counts_only():
    state = fresh()
    assert state.pending_chance() is None  # the decks were shuffled by hand
    assert state.to_act() == {0}
    view = state.view(0)
    assert view["hand"] == [] and view["hand_unseen"] == 13  # 10 + Saga's 3
    assert view["sides"][1]["hand_count"] == 10 and view["sides"][1]["deck_count"] == 39
    assert state.legal_moves(0) is None  # the hand is unknown: moves cannot be listed
    assert_hidden(state)


def test_a_tie_still_tosses_a_coin():
    state = fresh(decks=["ferra-sample", "ferra-sample"])
    assert state.pending_chance().kind == "coin"
    state.apply({"type": "chance", "values": [1]})
    assert state.to_act() == {1}


def test_cards_become_known_when_played_and_conservation_is_kept():
    state = fresh()
    turn(state, 0, PlayGenerator(0, "merchant"))
    assert state.view(None)["sides"][0]["generators"] == ["1:merchant#1"]
    turn(state, 1, PlayGenerator(1, "merchant"))
    turn(state, 0, PlayGenerator(0, "1:merchant#2"))
    turn(state, 1)
    # the Saga deck holds two Merchants and both are on the table now: a third is refused
    verdict = state.check(PlayGenerator(0, "merchant"))
    assert not verdict.ok and verdict.rule == "KN-5.2" and "already seen" in verdict.message
    assert state.check(PlayGenerator(0, "dragon")).rule == "KN-5.2"
    assert state.check(PlayGenerator(0, "iron-gate")).rule == "KN-5.2"
    assert state.view(0)["hand_unseen"] == 13 + 3 + 3 - 2


def test_face_down_card_is_a_sealed_commitment_opened_on_reveal():
    state = fresh()
    sealed = commit("bear-trap", "s4lt")
    state.apply(PlayGenerator(0, "merchant"))
    for bad in (Cloak(0, "", ""), Cloak(0, "1:bear-trap#1", sealed)):
        assert state.check(bad).rule == "KN-8.2"
    state.apply(Cloak(0, "", sealed))
    view = state.view(0)
    assert view["sides"][0]["face_down"] == ["1:cloak#1"] and view["hand_unseen"] == 11
    assert view["face_down_cards"] == {}  # the engine itself does not know it
    assert_hidden(state)
    state.apply(Pass(0))
    state.apply(Pass(0))
    # seat 2 builds a Fighting Monk (PV 2 with Ferra) and attacks with it
    turn(state, 1, PlayGenerator(1, "iron-miner"))
    turn(state, 0, PlayGenerator(0, "iron-miner"))
    state.apply(PlayGenerator(1, "lumberjack"))
    state.apply(Deploy(1, "fighting-monk"))
    state.apply(Pass(1))
    state.apply(Attack(1, "2:fighting-monk#1"))
    state.apply(Pass(1))
    # seat 1 defends: a wrong salt or card does not open the commitment
    assert state.check(Uncloak(0, "1:cloak#1", target="2:fighting-monk#1", card="bear-trap", salt="x")).rule == "KN-8.2"
    assert state.check(Uncloak(0, "1:cloak#1", target="2:fighting-monk#1", card="wooden-fence",
                               salt="s4lt")).rule == "KN-8.2"
    state.apply(Uncloak(0, "1:cloak#1", target="2:fighting-monk#1", card="bear-trap", salt="s4lt"))
    table = state.view(None)["sides"]
    assert table[0]["removed"] == ["1:bear-trap#1"] and table[1]["removed"] == ["2:fighting-monk#1"]


def test_revealing_a_card_that_never_had_cloak_is_refused():
    state = fresh()
    state.apply(PlayGenerator(0, "merchant"))
    state.apply(Cloak(0, "", commit("fighting-monk", "a")))
    assert state.check(Uncloak(0, "1:cloak#1", card="fighting-monk", salt="a")).rule == "KN-8.1"


def test_master_assassin_revealed_from_a_commitment_in_its_owners_spending_phase():
    state = fresh()
    state.apply(PlayGenerator(0, "merchant"))
    state.apply(Cloak(0, "", commit("master-assassin", "pep")))
    state.apply(Pass(0))
    state.apply(Pass(0))
    turn(state, 1)
    state.apply(PlayGenerator(0, "trader"))  # 2 Gold now: not enough for 5
    verdict = state.check(Uncloak(0, "1:cloak#1", card="master-assassin", salt="pep"))
    assert verdict.rule == "KN-8.3" and "short" in verdict.message
    state.apply(Deploy(0, "loose-change"))
    state.apply(Deploy(0, "loose-change"))
    assert state.view(None)["sides"][0]["bank"]["gold"] == 4
    assert state.check(Deploy(0, "loose-change")).rule == "KN-6.1"  # both copies seen
