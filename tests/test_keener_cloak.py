"""Cloak of Darkness (KN-8): face-down play, hidden identity, sealed commitments,
reveal windows (ruling KN-R9) and the Master Assassin and Bear Trap effects."""

import pytest

from engines.core import IllegalMove
from engines.keener import Attack, Block, Cloak, Deploy, Pass, Uncloak, commit
from engines.keener.scenario import position
from tests.support.conformance import assert_hidden, leaves


def side(state, seat):
    return state.view(None)["sides"][seat]


def cloak_position(**kw):
    kw.setdefault("hands", (["bear-trap", "bear-trap", "master-assassin", "fighting-monk"], []))
    kw.setdefault("banks", ((0, 0, 0, 3), (0, 0, 0, 0)))
    return position(phase="spending", **kw)


def test_cloaked_play_costs_one_gold_and_hides_which_card_it_is():
    state = cloak_position()
    state.apply(Cloak(0, "1:bear-trap#2"))
    assert side(state, 0)["bank"]["gold"] == 2
    assert side(state, 0)["face_down"] == ["1:cloak#1"] and side(state, 0)["face_down_count"] == 1
    # the owner knows which copy it is; the other seat and the table do not
    assert state.view(0)["face_down_cards"] == {"1:cloak#1": "1:bear-trap#2"}
    assert "1:bear-trap#2" in state.hidden_from(1) and "1:bear-trap#2" in state.hidden_from(None)
    assert "1:bear-trap#2" not in set(leaves(state.view(1)))
    # its twin is still in the hand: seen by its owner, hidden from the other seat
    assert "1:bear-trap#1" in set(leaves(state.view(0))) and "1:bear-trap#1" in state.hidden_from(1)
    assert_hidden(state)
    assert "face_down_cards" not in state.view(1) or state.view(1)["face_down_cards"] == {}


def test_only_cloak_cards_go_face_down_and_only_in_spending():
    state = cloak_position()
    assert state.check(Cloak(0, "1:fighting-monk#1")).rule == "KN-8.1"
    state = cloak_position(banks=((0, 0, 0, 0), (0, 0, 0, 0)))
    verdict = state.check(Cloak(0, "1:bear-trap#1"))
    assert verdict.rule == "KN-8.1" and "short of 1 Gold" in verdict.message
    state = position(phase="declare", hands=(["bear-trap"], []), banks=((0, 0, 0, 1), (0, 0, 0, 0)))
    assert state.check(Cloak(0, "1:bear-trap#1")).rule == "KN-8.1"


def test_cloak_cards_may_also_be_played_face_up_for_their_cost():
    """Ruling KN-R18."""
    state = cloak_position(banks=((0, 0, 1, 5), (0, 0, 0, 0)))
    state.apply(Deploy(0, "1:bear-trap#1"))
    state.apply(Deploy(0, "1:master-assassin#1"))
    assert side(state, 0)["defenses"][0]["lp"] == 1 and side(state, 0)["fighters"][0]["pv"] == 2


def test_face_down_cards_cannot_attack_block_or_be_damaged():
    """Ruling KN-R4."""
    state = position(phase="declare", fighters=(["stone-golem"], []), face_down=(["master-assassin"],
                     ["bear-trap"]), commanders=("saga", "ferra"))
    assert state.check(Attack(0, "1:cloak#1")).rule == "KN-7.1"
    assert state.check(Attack(0, "1:master-assassin#1")).rule == "KN-7.1"
    state.apply(Attack(0, "1:stone-golem#1"))
    state.apply(Pass(0))
    assert state.check(Block(1, "2:cloak#1", "1:stone-golem#1")).rule == "KN-7.2"
    state.apply(Pass(1))
    assert side(state, 1)["commander"]["lp"] == 4 and side(state, 1)["face_down_count"] == 1


def _attacked(attackers, defender_face_down, bank, commanders=("saga", "saga"), fighters=()):
    state = position(phase="declare", fighters=(attackers, list(fighters)), face_down=((), defender_face_down),
                     banks=((0, 0, 0, 0), bank), commanders=commanders)
    for f in side(state, 0)["fighters"]:
        state.apply(Attack(0, f["id"]))
    state.apply(Pass(0))
    return state


def test_bear_trap_removes_one_attacker_with_pv_2_or_less_then_leaves_the_game():
    """KN-8.5: costs 1 Iron, during the opponent's Attack phase."""
    state = _attacked(["pikeman", "stone-golem"], ["bear-trap"], (0, 0, 1, 0))
    assert state.legal_moves(1) == [Uncloak(1, "2:cloak#1", target="1:pikeman#1"), Pass(1)]
    assert state.check(Uncloak(1, "2:cloak#1", target="1:stone-golem#1")).rule == "KN-8.5"
    state.apply(Uncloak(1, "2:cloak#1", target="1:pikeman#1"))
    assert side(state, 0)["removed"] == ["1:pikeman#1"] and side(state, 1)["removed"] == ["2:bear-trap#1"]
    assert side(state, 1)["bank"]["iron"] == 0 and side(state, 1)["face_down_count"] == 0
    state.apply(Pass(1))
    assert side(state, 1)["commander"]["lp"] == 0  # the golem still hit Saga (1 LP)
    assert state.outcome.winners == (0,)


def test_bear_trap_needs_iron_and_an_attack():
    state = _attacked(["pikeman"], ["bear-trap"], (0, 0, 0, 5))
    assert state.legal_moves(1) == [Pass(1)]
    assert state.check(Uncloak(1, "2:cloak#1", target="1:pikeman#1")).rule == "KN-8.3"
    state = position(phase="spending", face_down=(["bear-trap"], []), banks=((0, 0, 1, 0), (0, 0, 0, 0)))
    assert state.check(Uncloak(0, "1:cloak#1")).rule == "KN-8.3"
    assert all(m.type != "uncloak" for m in state.legal_moves(0))


def test_master_assassin_in_the_opponents_attack_removes_every_small_attacker():
    """KN-8.4 with ruling KN-R8: every attacking Fighter with PV 2 or less, then it stands as a Fighter."""
    state = _attacked(["pikeman", "fighting-monk", "stone-golem"], ["master-assassin"], (0, 0, 0, 5))
    state.apply(Uncloak(1, "2:cloak#1"))
    assert sorted(side(state, 0)["removed"]) == ["1:fighting-monk#1", "1:pikeman#1"]
    assert state.view(None)["combat"]["attackers"] == ["1:stone-golem#1"]
    assert side(state, 1)["fighters"][0]["id"] == "2:master-assassin#1"
    assert side(state, 1)["bank"]["gold"] == 0
    # freshly turned up, it may block (PV 2 against 3: it dies and 1 damage spills onto Saga)
    state.apply(Block(1, "2:master-assassin#1", "1:stone-golem#1"))
    state.apply(Pass(1))
    assert "2:master-assassin#1" in side(state, 1)["discard"] and side(state, 1)["commander"]["lp"] == 0


def test_master_assassin_in_its_owners_attack_deals_2_to_the_commander_ignoring_defenses():
    state = position(phase="declare", face_down=(["master-assassin"], []), defenses=((), ["iron-gate"]),
                     banks=((0, 0, 0, 5), (0, 0, 0, 0)), commanders=("saga", "ferra"))
    assert Uncloak(0, "1:cloak#1") in state.legal_moves(0)
    state.apply(Uncloak(0, "1:cloak#1"))
    assert side(state, 1)["commander"]["lp"] == 5 and side(state, 1)["defenses"][0]["lp"] == 3
    assert Attack(0, "1:master-assassin#1") in state.legal_moves(0)


def test_master_assassin_in_its_owners_spending_phase_has_no_effect():
    state = position(phase="spending", face_down=(["master-assassin"], []), banks=((0, 0, 0, 5), (0, 0, 0, 0)))
    state.apply(Uncloak(0, "1:cloak#1"))
    assert side(state, 1)["commander"]["lp"] == 7 and side(state, 0)["fighters"][0]["pv"] == 2


def test_no_reveal_outside_the_windows():
    """Ruling KN-R9: not in the opponent's Spending phase, not in your own Economy phase."""
    state = position(phase="spending", active=1, face_down=(["master-assassin"], []),
                     banks=((0, 0, 0, 5), (0, 0, 0, 0)))
    assert state.check(Uncloak(0, "1:cloak#1")).rule == "CORE-6"
    state = position(phase="economy", face_down=(["master-assassin"], []), banks=((0, 0, 0, 5), (0, 0, 0, 0)))
    assert state.check(Uncloak(0, "1:cloak#1")).rule == "KN-8.3"
    assert state.check(Uncloak(0, "1:cloak#9")).rule == "KN-8.3"


def test_sealed_commitment_is_checked_when_turned_up():
    """KN-8.2: the phone seals SHA-256(card:salt); only the right card and salt open it."""
    state = cloak_position(banks=((0, 0, 0, 6), (0, 0, 0, 0)))
    sealed = commit("master-assassin", "pepper-42")
    state.apply(Cloak(0, "1:master-assassin#1", commitment=sealed))
    before = state.to_json()
    for wrong in (Uncloak(0, "1:cloak#1"), Uncloak(0, "1:cloak#1", card="master-assassin", salt="salt"),
                  Uncloak(0, "1:cloak#1", card="bear-trap", salt="pepper-42")):
        with pytest.raises(IllegalMove) as exc:
            state.apply(wrong)
        assert exc.value.rule == "KN-8.2"
        assert state.to_json() == before
    state.apply(Uncloak(0, "1:cloak#1", card="master-assassin", salt="pepper-42"))
    assert side(state, 0)["fighters"][0]["id"] == "1:master-assassin#1"
    assert commit("1:master-assassin#1", "x") == commit("master-assassin", "x")


def test_a_malformed_commitment_is_refused():
    state = cloak_position()
    assert state.check(Cloak(0, "1:bear-trap#1", commitment="xyz")).rule == "KN-8.2"


def test_naming_the_wrong_card_on_reveal_is_refused():
    state = position(phase="spending", face_down=(["master-assassin"], []), banks=((0, 0, 0, 5), (0, 0, 0, 0)))
    assert state.check(Uncloak(0, "1:cloak#1", card="bear-trap")).rule == "KN-8.2"
    assert state.check(Uncloak(0, "1:cloak#1", target="2:ferra")).rule == "KN-8.4"
