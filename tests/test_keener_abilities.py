"""Every Keener card does what it says (KN-9): one test per card, then the
abilities that need more than one move to show (Saga, Ferra, The Abomination,
Lullaby, Lightning Strike)."""

import pytest

from engines.core import IllegalMove
from engines.keener import CARDS, Attack, Block, Deploy, Pass, PlayGenerator
from engines.keener.catalog import RESOURCES
from engines.keener.scenario import position

SAGAS = ("saga", "saga")


def side(state, seat):
    return state.view(None)["sides"][seat]


def bank(state, seat):
    return tuple(side(state, seat)["bank"][r] for r in RESOURCES)


@pytest.mark.parametrize("card_id", sorted(c.id for c in CARDS.values() if c.type != "commander"))
def test_every_card_does_what_it_says(card_id):
    card = CARDS[card_id]
    copy = f"1:{card_id}#1"
    if card.type == "generator":
        state = position(phase="economy", hands=([card_id], []), generators=(["lumberjack"], []))
        state.apply(PlayGenerator(0, copy))
        expected = [1, 0, 0, 0]
        expected[RESOURCES.index(card.params["resource"])] += 1
        assert bank(state, 0) == tuple(expected) and side(state, 0)["generators"][1:] == [copy]
        return
    fighters, defenses = [], []
    if card.ability == "equip-pv":
        fighters = ["fighting-monk"]
    if card.ability == "equip-lp":
        defenses = ["wooden-fence"]
    if card.ability == "lullaby":
        fighters = ["pikeman", "stone-golem"]
    state = position(phase="spending", commanders=("saga", "ferra"), hands=([card_id], []),
                     banks=(card.cost, (0, 0, 0, 0)), fighters=(fighters, ["stone-golem"] if fighters else []),
                     defenses=(defenses, []))
    target = "1:fighting-monk#1" if fighters == ["fighting-monk"] else "1:wooden-fence#1" if defenses else ""
    state.apply(Deploy(0, f"1:{card_id}#1", target))
    after = state.view(None)
    me = after["sides"][0]
    if card.ability != "gain":
        assert bank(state, 0) == (0, 0, 0, 0)  # exactly its cost was paid
    if card.type == "fighter":
        assert [(f["id"], f["pv"]) for f in me["fighters"]] == [(copy, card.pv)]
    elif card.type == "defense":
        assert [(d["id"], d["lp"]) for d in me["defenses"]] == [(copy, card.lp)]
    elif card.ability == "equip-pv":
        assert me["fighters"][0]["pv"] == 1 + card.params["amount"] and me["fighters"][0]["gear"] == [copy]
    elif card.ability == "equip-lp":
        assert me["defenses"][0]["lp"] == 1 + card.params["amount"] and me["defenses"][0]["gear"] == [copy]
    elif card.ability == "gain":
        expected = [0, 0, 0, 0]
        expected[RESOURCES.index(card.params["resource"])] = card.params["amount"]
        assert bank(state, 0) == tuple(expected) and me["discard"] == [copy]
    elif card.ability == "strike-commander":
        assert after["sides"][1]["commander"]["lp"] == 7 - card.params["amount"] and me["discard"] == [copy]
    elif card.ability == "lullaby":
        # the golems (PV 3 here, PV 4 on Ferra's side) - only Ferra's, the highest, sleeps
        assert [f["asleep"] for f in me["fighters"]] == [False, False]
        assert after["sides"][1]["fighters"][0]["asleep"] is True
    else:
        pytest.fail(f"no check for {card_id}")


def test_saga_draws_three_whenever_she_would_draw_one():
    """KN-9.1 (the opening hand is ruling KN-R2, in test_keener_setup)."""
    state = position(phase="declare", active=1, commanders=("saga", "ferra"))
    state.apply(Pass(1))
    assert side(state, 0)["hand_count"] == 3 and side(state, 0)["deck_count"] == 7
    state = position(phase="declare", active=0, commanders=("saga", "ferra"))
    state.apply(Pass(0))
    assert side(state, 1)["hand_count"] == 1


def test_ferra_gives_every_fighter_on_her_side_plus_one():
    """KN-9.2: shown in the view and used in combat."""
    state = position(phase="declare", commanders=("saga", "ferra"), fighters=(["pikeman"], ["fighting-monk"]))
    assert side(state, 1)["fighters"][0]["pv"] == 2 and side(state, 0)["fighters"][0]["pv"] == 2
    state.apply(Attack(0, "1:pikeman#1"))
    state.apply(Pass(0))
    state.apply(Block(1, "2:fighting-monk#1", "1:pikeman#1"))
    state.apply(Pass(1))
    assert side(state, 0)["fighters"] == [] and side(state, 1)["fighters"] == []  # 2 = 1 + 1: both die


def test_the_abomination_combines_its_side_and_later_fighters_join_it():
    """KN-9.3 / ruling KN-R12."""
    state = position(phase="spending", commanders=("ferra", "saga"),
                     fighters=([{"card": "fighting-monk", "gear": ["dreadsteel-sword"]}, "pikeman"], []),
                     hands=(["the-abomination", "village-guard"], []), banks=((2, 3, 2, 0), (0, 0, 0, 0)))
    state.apply(Deploy(0, "1:the-abomination#1"))
    fighters = side(state, 0)["fighters"]
    assert [f["id"] for f in fighters] == ["1:the-abomination#1"]
    # 6 + monk (1 + sword 1) + pikeman 2, and Ferra's +1 once
    assert fighters[0]["pv"] == 6 + 2 + 2 + 1
    state.apply(Deploy(0, "1:village-guard#1"))
    assert side(state, 0)["fighters"][0]["pv"] == 12
    assert [m["id"] for m in side(state, 0)["fighters"][0]["merged"]] == [
        "1:fighting-monk#1", "1:pikeman#1", "1:village-guard#1"]


def test_the_abomination_dies_as_one_with_everything_in_it():
    state = position(phase="declare", active=1, commanders=SAGAS,
                     fighters=([], [{"card": "the-abomination", "merged": [
                         {"card": "fighting-monk", "gear": ["dreadsteel-sword"]}]}]))
    assert side(state, 1)["fighters"][0]["pv"] == 8
    state = position(phase="declare", commanders=SAGAS, fighters=(
        ["hill-giant", "hill-giant"], [{"card": "the-abomination", "merged": ["fighting-monk", "pikeman"]}]))
    state.apply(Attack(0, "1:hill-giant#1"))
    state.apply(Attack(0, "1:hill-giant#2"))
    state.apply(Pass(0))
    state.apply(Block(1, "2:the-abomination#1", "1:hill-giant#1"))
    state.apply(Pass(1))
    # 4 against 9: the giant dies; it takes down nothing (9 > 4); the second giant hits Saga
    assert state.outcome.winners == (0,)


def test_a_second_abomination_combines_the_first():
    state = position(phase="spending", commanders=SAGAS, fighters=([{"card": "the-abomination",
                     "merged": ["fighting-monk"]}], []), hands=(["the-abomination"], []), banks=((2, 2, 2, 0), (0,) * 4))
    state.apply(Deploy(0, "1:the-abomination#2"))
    assert [(f["id"], f["pv"]) for f in side(state, 0)["fighters"]] == [("1:the-abomination#2", 13)]


def test_lullaby_puts_every_highest_fighter_to_sleep_and_they_cannot_act():
    """KN-9.5 / ruling KN-R13: ties sleep together, on both sides."""
    state = position(phase="spending", commanders=SAGAS, hands=(["lullaby"], []), banks=((0, 0, 0, 3), (0,) * 4),
                     fighters=(["pikeman", "fighting-monk"], ["pikeman"]))
    state.apply(Deploy(0, "1:lullaby#1"))
    asleep = {f["id"]: f["asleep"] for s in state.view(None)["sides"] for f in s["fighters"]}
    assert asleep == {"1:pikeman#1": True, "1:fighting-monk#1": False, "2:pikeman#1": True}
    state.apply(Pass(0))
    assert state.legal_moves(0) == [Attack(0, "1:fighting-monk#1"), Pass(0)]
    with pytest.raises(IllegalMove) as exc:
        state.apply(Attack(0, "1:pikeman#1"))
    assert exc.value.rule == "KN-7.1" and "asleep" in str(exc.value)
    state.apply(Attack(0, "1:fighting-monk#1"))
    state.apply(Pass(0))
    assert state.check(Block(1, "2:pikeman#1", "1:fighting-monk#1")).rule == "KN-7.2"


def test_sleepers_wake_when_a_fighter_of_equal_pv_enters():
    state = position(phase="spending", commanders=SAGAS, hands=(["pikeman", "fighting-monk"], []),
                     banks=((2, 0, 1, 0), (0,) * 4), fighters=([], [{"card": "pikeman", "asleep": True}]))
    state.apply(Deploy(0, "1:fighting-monk#1"))  # PV 1 < 2: still asleep
    assert side(state, 1)["fighters"][0]["asleep"] is True
    events = state.apply(Deploy(0, "1:pikeman#1"))  # PV 2 = 2: wakes
    assert side(state, 1)["fighters"][0]["asleep"] is False
    assert any(e.type == "woke" and e.card == "2:pikeman#1" for e in events)


def test_sleepers_wake_when_another_fighter_is_raised_but_not_by_their_own_gear():
    state = position(phase="spending", commanders=SAGAS, hands=(["dreadsteel-sword", "ironwood-spear"], []),
                     banks=((1, 0, 3, 0), (0,) * 4),
                     fighters=([{"card": "pikeman", "asleep": True}, "fighting-monk"], []))
    state.apply(Deploy(0, "1:ironwood-spear#1", "1:pikeman#1"))  # the sleeper itself: stays asleep
    assert side(state, 0)["fighters"][0]["asleep"] is True
    state.apply(Deploy(0, "1:dreadsteel-sword#1", "1:fighting-monk#1"))  # monk 2 < pikeman 3: asleep
    assert side(state, 0)["fighters"][0]["asleep"] is True
    state = position(phase="spending", commanders=SAGAS, hands=(["dreadsteel-sword"], []),
                     banks=((0, 0, 2, 0), (0,) * 4),
                     fighters=([{"card": "pikeman", "asleep": True}, "fighting-monk"], []))
    state.apply(Deploy(0, "1:dreadsteel-sword#1", "1:fighting-monk#1"))  # monk raised to 2 = 2: wakes
    assert side(state, 0)["fighters"][0]["asleep"] is False


def test_a_second_lullaby_puts_the_highest_awake_fighters_to_sleep():
    state = position(phase="spending", commanders=SAGAS, hands=(["lullaby"], []), banks=((0, 0, 0, 3), (0,) * 4),
                     fighters=([{"card": "stone-golem", "asleep": True}, "pikeman", "fighting-monk"], []))
    state.apply(Deploy(0, "1:lullaby#1"))
    assert [f["asleep"] for f in side(state, 0)["fighters"]] == [True, True, False]


def test_lightning_strike_ignores_defenses_and_can_end_the_game():
    state = position(phase="spending", commanders=SAGAS, hands=(["lightning-strike"], []),
                     banks=((0, 0, 2, 0), (0,) * 4), defenses=((), ["iron-gate"]))
    state.apply(Deploy(0, "1:lightning-strike#1"))
    assert state.outcome.winners == (0,) and side(state, 1)["defenses"][0]["lp"] == 3


def test_equipment_goes_only_on_your_own_cards_of_the_right_kind():
    """KN-6.3 / ruling KN-R15."""
    state = position(phase="spending", hands=(["dreadsteel-sword", "shore-up"], []), banks=((1, 0, 2, 0), (0,) * 4),
                     fighters=(["pikeman"], ["pikeman"]), defenses=(["wooden-fence"], ["wooden-fence"]))
    for bad in (Deploy(0, "1:dreadsteel-sword#1", "2:pikeman#1"), Deploy(0, "1:dreadsteel-sword#1", "1:wooden-fence#1"),
                Deploy(0, "1:shore-up#1", "1:pikeman#1"), Deploy(0, "1:shore-up#1")):
        assert state.check(bad).rule == "KN-6.3"
    assert state.check(Deploy(0, "1:shore-up#1", "1:wooden-fence#1")).ok


def test_equipment_leaves_with_its_card():
    state = position(phase="declare", commanders=SAGAS, fighters=(
        [{"card": "pikeman", "gear": ["dreadsteel-sword"]}], ["hill-giant"]))
    state.apply(Attack(0, "1:pikeman#1"))
    state.apply(Pass(0))
    state.apply(Block(1, "2:hill-giant#1", "1:pikeman#1"))
    state.apply(Pass(1))
    assert sorted(side(state, 0)["discard"]) == ["1:dreadsteel-sword#1", "1:pikeman#1"]
