"""Keener combat (KN-7): each of the rulebook's six examples is a test, plus
the rulings on damage, blocking and kills.  Seat 1 (Saga, 1 LP) or seat 2
(Ferra, 7 LP) attacks; Ferra's +1 PV is avoided by giving both seats Saga
where exact PVs matter."""

import pytest

from engines.core import IllegalMove
from engines.keener import AssignDamage, Attack, Block, Kill, Pass
from engines.keener.scenario import position

SAGAS = ("saga", "saga")


def attack(fighters, defenses=((), ()), blocks=(), commanders=SAGAS, wounds=(0, 0), **kw):
    """Seat 1 attacks with all its fighters; seat 2 blocks as given, then combat resolves."""
    state = position(phase="declare", fighters=fighters, defenses=defenses, commanders=commanders,
                     wounds=wounds, **kw)
    for f in state.view(0)["sides"][0]["fighters"]:
        state.apply(Attack(0, f["id"]))
    state.apply(Pass(0))
    for blocker, attacker in blocks:
        state.apply(Block(1, blocker, attacker))
    state.apply(Pass(1))
    return state


def side(state, seat):
    return state.view(None)["sides"][seat]


def pvs(state, seat):
    return [f["pv"] for f in side(state, seat)["fighters"]]


def test_example_1_unblocked_damage_goes_to_a_defense_first_and_is_permanent():
    """PV 2 unblocked against a 3 LP Defense: it keeps 1 LP for the rest of the game."""
    state = attack((["pikeman"], []), defenses=((), ["iron-gate"]), commanders=("saga", "ferra"))
    gate = side(state, 1)["defenses"][0]
    assert gate["lp"] == 1 and side(state, 1)["commander"]["lp"] == 7
    assert state.view(None)["phase"] == "economy" and state.to_act() == {1}
    state.apply(Pass(1))  # Ferra's economy, spending, no attack: the wound stays
    state.apply(Pass(1))
    state.apply(Pass(1))
    assert side(state, 1)["defenses"][0]["lp"] == 1


def test_example_1_without_defenses_the_commander_takes_the_damage():
    state = attack((["pikeman"], []), commanders=("saga", "ferra"))
    assert side(state, 1)["commander"]["lp"] == 5


def test_example_1_the_attacker_assigns_damage_as_they_wish():
    state = position(phase="declare", fighters=(["pikeman"], []), defenses=((), ["iron-gate", "stone-wall"]),
                     commanders=SAGAS)
    state.apply(Attack(0, "1:pikeman#1"))
    state.apply(Pass(0))
    state.apply(Pass(1))
    assert state.view(None)["phase"] == "assign"
    assert state.legal_moves(0) == [AssignDamage(0, "2:iron-gate#1"), AssignDamage(0, "2:stone-wall#1")]
    state.apply(AssignDamage(0, "2:stone-wall#1"))
    state.apply(AssignDamage(0, "2:iron-gate#1"))
    assert [d["lp"] for d in side(state, 1)["defenses"]] == [2, 1]


def test_example_2_a_weaker_blocker_dies_and_the_excess_spills_over():
    state = attack((["pikeman"], ["fighting-monk"]), defenses=((), ["iron-gate"]),
                   blocks=[("2:fighting-monk#1", "1:pikeman#1")])
    assert side(state, 1)["fighters"] == [] and "2:fighting-monk#1" in side(state, 1)["discard"]
    assert side(state, 1)["defenses"][0]["lp"] == 2  # 1 damage spilled to the Defense
    assert pvs(state, 0) == [2]  # the attacker is not wounded


def test_example_2_spill_with_no_defense_hits_the_commander():
    state = attack((["pikeman"], ["fighting-monk"]), blocks=[("2:fighting-monk#1", "1:pikeman#1")],
                   commanders=("saga", "ferra"))
    # Ferra's monk has PV 2: equal, both die, nothing spills (Ferra's +1 matters)
    assert side(state, 1)["commander"]["lp"] == 7 and side(state, 0)["fighters"] == []
    state = attack((["pikeman"], ["fighting-monk"]), blocks=[("2:fighting-monk#1", "1:pikeman#1")],
                   wounds=(0, 0), commanders=("ferra", "saga"))
    # Ferra's pikeman (PV 3) against Saga's monk (PV 1): 2 spill onto Saga (1 LP) and the game ends
    assert state.outcome is not None and state.outcome.winners == (0,)


def test_example_3_equal_pv_both_die_and_no_damage():
    state = attack((["pikeman"], ["pikeman"]), defenses=((), ["wooden-fence"]),
                   blocks=[("2:pikeman#1", "1:pikeman#1")])
    assert side(state, 0)["fighters"] == [] and side(state, 1)["fighters"] == []
    assert side(state, 1)["defenses"][0]["lp"] == 1 and side(state, 1)["commander"]["lp"] == 1


def test_example_4_two_blockers_of_equal_total_all_three_die():
    state = attack((["pikeman"], ["fighting-monk", "village-guard"]),
                   blocks=[("2:fighting-monk#1", "1:pikeman#1"), ("2:village-guard#1", "1:pikeman#1")])
    assert side(state, 0)["fighters"] == [] and side(state, 1)["fighters"] == []
    assert side(state, 1)["commander"]["lp"] == 1


@pytest.mark.parametrize("choice,survivor", [("2:fighting-monk#1", "2:pikeman#1"),
                                             ("2:pikeman#1", "2:fighting-monk#1")])
def test_example_5_outpowered_attacker_dies_and_kills_one_blocker_of_its_choice(choice, survivor):
    """KN-7.7 / ruling KN-R10: PV 2 blocked by PV 1 and PV 2 takes exactly one, chosen by the attacker."""
    state = attack((["pikeman"], ["fighting-monk", "pikeman"]),
                   blocks=[("2:fighting-monk#1", "1:pikeman#1"), ("2:pikeman#1", "1:pikeman#1")])
    assert state.view(None)["phase"] == "kill" and state.to_act() == {0}
    assert side(state, 0)["fighters"] == []
    assert sorted(m.blocker for m in state.legal_moves(0)) == ["2:fighting-monk#1", "2:pikeman#1"]
    state.apply(Kill(0, choice))
    assert [f["id"] for f in side(state, 1)["fighters"]] == [survivor]
    assert state.to_act() == {1}  # the turn passed: no second kill


def test_example_6_a_stronger_blocker_survives_with_its_full_pv():
    state = attack((["pikeman"], ["stone-golem"]), blocks=[("2:stone-golem#1", "1:pikeman#1")])
    assert side(state, 0)["fighters"] == [] and "1:pikeman#1" in side(state, 0)["discard"]
    assert pvs(state, 1) == [3]


def test_outpowered_attacker_can_take_several_blockers_within_its_pv():
    """Ruling KN-R10: the kills' PV may add up to the attacker's PV, no more."""
    state = attack((["stone-golem"], ["fighting-monk", "village-guard", "pikeman"]),
                   blocks=[("2:fighting-monk#1", "1:stone-golem#1"), ("2:village-guard#1", "1:stone-golem#1"),
                           ("2:pikeman#1", "1:stone-golem#1")])
    state.apply(Kill(0, "2:pikeman#1"))  # 2 of 3 spent; one PV 1 blocker fits: chosen among two
    with pytest.raises(IllegalMove) as exc:
        state.apply(Kill(0, "2:pikeman#1"))
    assert exc.value.rule == "KN-7.7"
    state.apply(Kill(0, "2:village-guard#1"))
    assert [f["id"] for f in side(state, 1)["fighters"]] == ["2:fighting-monk#1"]


def test_damage_left_after_the_last_defense_reaches_the_commander():
    """Ruling KN-R5."""
    state = attack((["stone-golem"], []), defenses=((), ["wooden-fence"]), commanders=("saga", "ferra"))
    assert side(state, 1)["defenses"] == [] and side(state, 1)["commander"]["lp"] == 5
    assert "2:wooden-fence#1" in side(state, 1)["discard"]


def test_damage_is_assigned_one_point_at_a_time_and_never_to_the_commander_while_a_defense_stands():
    """Ruling KN-R14 and KN-7.10: no damage to a Commander or a Generator while Defenses stand."""
    state = position(phase="declare", fighters=(["pikeman"], []), defenses=((), ["iron-gate", "stone-wall"]),
                     generators=((), ["lumberjack"]), commanders=SAGAS)
    state.apply(Attack(0, "1:pikeman#1"))
    state.apply(Pass(0))
    state.apply(Pass(1))
    for target in ("2:saga", "2:lumberjack#1"):
        verdict = state.check(AssignDamage(0, target))
        assert not verdict.ok and verdict.rule == "KN-7.8"


def test_commander_at_zero_lp_ends_the_game():
    """KN-10.1."""
    state = attack((["pikeman"], []), commanders=SAGAS)
    assert state.outcome.winners == (0,) and "fell to 0 LP" in state.outcome.reason
    assert state.to_act() == frozenset() and state.legal_moves(1) == []


def test_several_attackers_resolve_in_order_and_each_blocker_blocks_one():
    """KN-7.3 and ruling KN-R11."""
    state = position(phase="declare", fighters=(["pikeman", "fighting-monk"], ["stone-golem"]),
                     commanders=("saga", "ferra"))
    state.apply(Attack(0, "1:pikeman#1"))
    state.apply(Attack(0, "1:fighting-monk#1"))
    with pytest.raises(IllegalMove) as exc:
        state.apply(Attack(0, "1:pikeman#1"))
    assert exc.value.rule == "KN-7.1"
    state.apply(Pass(0))
    state.apply(Block(1, "2:stone-golem#1", "1:pikeman#1"))
    verdict = state.check(Block(1, "2:stone-golem#1", "1:fighting-monk#1"))
    assert not verdict.ok and "already blocking" in verdict.message
    state.apply(Pass(1))
    assert [f["id"] for f in side(state, 0)["fighters"]] == ["1:fighting-monk#1"]
    assert side(state, 1)["commander"]["lp"] == 6  # the monk got through


def test_a_fighter_may_attack_the_turn_it_is_deployed():
    """Ruling KN-R3."""
    state = position(phase="spending", hands=(["fighting-monk"], []), banks=((1, 0, 0, 0), (0, 0, 0, 0)))
    from engines.keener import Deploy
    state.apply(Deploy(0, "1:fighting-monk#1"))
    state.apply(Pass(0))
    assert Attack(0, "1:fighting-monk#1") in state.legal_moves(0)


def test_only_the_defender_blocks_and_not_with_attackers():
    state = position(phase="declare", fighters=(["pikeman"], ["pikeman"]))
    state.apply(Attack(0, "1:pikeman#1"))
    state.apply(Pass(0))
    assert state.to_act() == {1}
    assert state.check(Block(0, "1:pikeman#1", "1:pikeman#1")).rule == "CORE-6"
    assert state.check(Block(1, "1:pikeman#1", "1:pikeman#1")).rule == "KN-7.2"
    assert state.check(Attack(1, "2:pikeman#1")).rule == "KN-7.2"


def test_no_attackers_ends_the_turn():
    state = position(phase="declare", fighters=(["pikeman"], []))
    state.apply(Pass(0))
    assert state.to_act() == {1} and state.view(None)["phase"] == "economy"
