"""Keener card database: every card the rulebook names with exactly its figures,
the house starter set, and schema validation of the set files (KN-1)."""

import copy
import json
from importlib import resources

import pytest

from engines.keener.catalog import CARDS, CatalogError, build_catalog, validate_set


def cost(**kw):
    out = [0, 0, 0, 0]
    for key, n in kw.items():
        out[("wood", "stone", "iron", "gold").index(key)] = n
    return tuple(out)


RULEBOOK = {
    # id: (name, type, cost, pv, lp, ability, params, reveal cost)
    "saga": ("Saga, the Wise and Wizened", "commander", cost(), 0, 1, "saga-draws-three", {}, None),
    "ferra": ("Ferra, the Hammer and Anvil", "commander", cost(), 0, 7, "ferra-fighters-plus-one", {}, None),
    "lumberjack": ("Lumberjack", "generator", cost(), 0, 0, "generate", {"resource": "wood"}, None),
    "merchant": ("Merchant", "generator", cost(), 0, 0, "generate", {"resource": "gold"}, None),
    "the-abomination": ("The Abomination", "fighter", cost(wood=2, stone=2, iron=2), 6, 0, "abomination-combines",
                        {}, None),
    "fighting-monk": ("Fighting Monk", "fighter", cost(wood=1), 1, 0, None, {}, None),
    "common-mercenary": ("Common Mercenary", "fighter", cost(gold=1), 1, 0, None, {}, None),
    "master-assassin": ("Master Assassin", "fighter", cost(gold=5), 2, 0, "master-assassin", {}, cost(gold=5)),
    "bear-trap": ("Bear Trap", "defense", cost(iron=1), 0, 1, "bear-trap", {}, cost(iron=1)),
    "wooden-fence": ("Wooden Fence", "defense", cost(wood=1), 0, 1, None, {}, None),
    "dreadsteel-sword": ("Dreadsteel Sword", "equipment", cost(iron=2), 0, 0, "equip-pv", {"amount": 1}, None),
    "shore-up": ("Shore-up", "equipment", cost(wood=1), 0, 0, "equip-lp", {"amount": 1}, None),
    "lullaby": ("Lullaby", "single-use", cost(gold=3), 0, 0, "lullaby", {}, None),
    "loose-change": ("Loose Change", "single-use", cost(), 0, 0, "gain", {"resource": "gold", "amount": 1}, None),
    "lightning-strike": ("Lightning Strike", "single-use", cost(iron=2), 0, 0, "strike-commander", {"amount": 1},
                         None),
}


@pytest.mark.parametrize("card_id", sorted(RULEBOOK))
def test_every_rulebook_card_has_exactly_its_figures(card_id):
    card = CARDS[card_id]
    name, kind, price, pv, lp, ability, params, reveal = RULEBOOK[card_id]
    assert (card.name, card.type, card.cost, card.pv, card.lp, card.ability, dict(card.params), card.reveal_cost) == (
        name, kind, price, pv, lp, ability, params, reveal)
    assert card.origin == "rulebook" and card.set == "core"


def test_core_set_is_exactly_the_rulebook_cards():
    assert {c.id for c in CARDS.values() if c.set == "core"} == set(RULEBOOK)


def test_house_set_is_marked_big_enough_and_has_stone_and_iron_generators():
    house = [c for c in CARDS.values() if c.set == "house"]
    assert len(house) >= 12
    assert all(c.origin == "house" for c in house)
    produced = {c.params["resource"] for c in house if c.type == "generator"}
    assert {"stone", "iron"} <= produced
    # Enough different cards for a legal deck: 49 non-Commanders at two copies each.
    assert 2 * sum(c.type != "commander" for c in CARDS.values()) >= 49


def test_house_cards_stay_in_line_with_the_rulebook():
    """No house card is cheaper per point than the rulebook's own: 1 resource per PV or LP at most."""
    for card in CARDS.values():
        if card.origin == "house" and card.type in ("fighter", "defense"):
            assert sum(card.cost) >= max(card.pv, card.lp), card.id


def _core():
    return json.loads(resources.files("engines.keener").joinpath("cards/core.json").read_text())


def test_a_bad_set_file_is_refused_with_every_problem_named():
    data = _core()
    data["cards"][5]["pv"] = "one"  # fighting-monk
    data["cards"][9]["lp"] = 0  # wooden-fence
    data["cards"][3]["ability"] = "teleport"  # merchant
    data["cards"][2]["cost"] = {"wood": 1}  # lumberjack: generators cost nothing
    data["cards"].append(copy.deepcopy(data["cards"][0]))  # saga twice
    with pytest.raises(CatalogError) as exc:
        validate_set(data, "cards/core.json")
    problems = exc.value.problems
    text = "\n".join(problems)
    assert "cards[5] (fighting-monk): a fighter needs 'pv'" in text
    assert "cards[9] (wooden-fence): a defense needs 'lp'" in text
    assert "cards[3] (merchant): unknown ability 'teleport'" in text
    assert "cards[2] (lumberjack): a generator has no cost" in text
    assert "the id 'saga' appears twice" in text
    assert len(problems) == 5
    assert str(exc.value).startswith("the Keener card database is invalid")


@pytest.mark.parametrize("change,expected", [
    (lambda c: c.update(type="spell"), "'type' must be one of"),
    (lambda c: c.update(origin="fan"), "'origin' must be one of"),
    (lambda c: c.update(cost={"mana": 1}), "unknown resource 'mana'"),
    (lambda c: c.update(cost={"iron": -1}), "iron must be a whole number"),
    (lambda c: c.update(colour="red"), "unknown field 'colour'"),
    (lambda c: c.update(params={"amount": 0}), "needs params.amount"),
    (lambda c: c.update(cloak={"reveal_cost": {"gold": 1}}), "Cloak of Darkness needs a face-up effect"),
    (lambda c: c.pop("name"), "'name' must be non-empty text"),
])
def test_each_schema_rule_has_a_clear_message(change, expected):
    data = _core()
    change(data["cards"][10])  # dreadsteel-sword
    with pytest.raises(CatalogError, match=expected):
        validate_set(data, "cards/core.json")


def test_not_an_object_and_ids_clashing_across_sets():
    with pytest.raises(CatalogError, match="must hold a JSON object"):
        validate_set([], "x.json")
    data = _core()
    with pytest.raises(CatalogError, match="'saga' is already used by set 'core'"):
        build_catalog({"a.json": data, "b.json": {"set": "other", "cards": data["cards"][:1]}})


def test_the_database_is_read_only():
    with pytest.raises(TypeError):
        CARDS["x"] = CARDS["saga"]  # type: ignore[index]
