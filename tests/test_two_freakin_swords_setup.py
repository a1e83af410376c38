"""Two Freakin' Swords: decks, hands, seating, teams and 1v2, character sheets, the grid file, the rules document."""

from __future__ import annotations

import json
import random
import re
from importlib import resources
from pathlib import Path

import pytest

from engines.core import ChanceMove, IllegalMove
from engines.playout import random_steps
from engines.two_freakin_swords import (
    GAME,
    Announce,
    CharacterSheet,
    ChooseOpening,
    GridError,
    Place,
    options_for,
    parse_grid_text,
    settle,
)
from engines.two_freakin_swords.cards import KINDS, count_kinds, kind_of, validate_deck
from tests.test_two_freakin_swords import (
    DEFAULT_HAND,
    arrange,
    engaged,
    keep_order,
    new_fight,
    run_turn,
    settle_chance,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules" / "two-freakin-swords.md"


# --------------------------------------------------------------------------
# formats and options


def test_formats_and_bad_tables():
    """TFS-5.2, TFS-5.3, TFS-5.4: a duel is two fighters; free-for-all and teams need three or more."""
    assert GAME.id == "two-freakin-swords" and GAME.players == (2, 3, 4, 5, 6, 7, 8)
    with pytest.raises(ValueError, match="a duel is for 2 fighters"):
        GAME.new(3, "duel")
    with pytest.raises(ValueError, match="needs 3 or more fighters"):
        GAME.new(2, "free-for-all")
    with pytest.raises(ValueError, match="unknown option 'deck'"):
        GAME.new(2, "duel", options={"deck": "own"})
    with pytest.raises(ValueError, match='decks must be "own" or "community"'):
        GAME.new(2, "duel", options={"decks": "shared"})
    with pytest.raises(ValueError, match="teams are set only in the teams variant"):
        GAME.new(4, "free-for-all", options={"teams": [[0, 2], [1, 3]]})


def test_conformance_covers_every_format():
    """The conformance harness plays 1v1, a 5-fighter free-for-all, 2v2 and 1v2, with both deck modes."""
    setups = GAME.setups()
    shapes = {(n, v, json.dumps(o.get("teams"))) for n, v, o in setups}
    assert (2, "duel", "null") in shapes and (5, "free-for-all", "null") in shapes
    assert (4, "teams", "[[0, 2], [1, 3]]") in shapes and (3, "teams", "[[0], [1, 2]]") in shapes
    assert {o.get("decks", "own") for _, _, o in setups} == {"own", "community"}


@pytest.mark.parametrize("seats,variant,options", GAME.setups())
def test_random_fights_end(seats, variant, options):
    """Random legal fights in every format reach an outcome well within the simulator's cap."""
    for seed in range(4):
        state = GAME.new(seats, variant, deal=seed, options=options)
        for _ in random_steps(state, random.Random(seed), 5000):
            pass
        assert state.outcome is not None


# --------------------------------------------------------------------------
# TFS-2 decks, TFS-3 hands


def test_standard_deck_and_opening_choice():
    """TFS-2.1, TFS-3.1, TFS-3.2: a standard deck is 10 of each card; each fighter chooses 4 opening cards."""
    state = GAME.new(2, "duel", deal=0)
    assert [count_kinds(d) for d in state.snapshot.decks] == [{k: 10 for k in KINDS}] * 2
    assert state.snapshot.phase == "opening" and state.to_act() == {0, 1}
    assert len(state.legal_moves(0)) == 35  # every multiset of 4 cards from 4 kinds
    assert state.view(0)["my_deck"] == {k: 10 for k in KINDS}
    assert state.check(ChooseOpening(0, ("strike",) * 3)).rule == "TFS-3.2"
    assert state.check(ChooseOpening(0, ("strike", "strike", "lunge", "fake"))).rule == "TFS-3.2"
    state.apply(ChooseOpening(0, ("parry",) * 4))
    assert [kind_of(c) for c in state.snapshot.hands[0]] == ["parry"] * 4
    assert state.view(1)["hand"] == [] and state.view(None)["fighters"][0]["hand_count"] == 4


def test_own_deck_is_shuffled_after_the_opening_hand():
    """TFS-R8: once everyone chose, each own deck is shuffled (one chance move per deck)."""
    state = GAME.new(2, "duel", deal=0)
    state.apply(ChooseOpening(0, DEFAULT_HAND))
    assert state.pending_chance() is None
    state.apply(ChooseOpening(1, DEFAULT_HAND))
    request = state.pending_chance()
    assert request.kind == "shuffle" and request.seat == 0 and len(request.ranges) == 35
    state.apply(keep_order(request))
    assert state.pending_chance().seat == 1
    state.apply(keep_order(state.pending_chance()))
    assert state.snapshot.turn == 1 and state.snapshot.phase == "place-1"


def test_opening_with_too_few_of_a_kind():
    """TFS-3.2: a fighter cannot choose more of a card than their deck holds."""
    state = GAME.new(2, "duel", deal=0)
    deck = tuple(c for c in state.snapshot.decks[0] if kind_of(c) != "parry") + state.snapshot.decks[0][-2:]
    from tests.test_two_freakin_swords import reload

    state = reload(state, state.snapshot.but(decks=(deck, state.snapshot.decks[1])))
    verdict = state.check(ChooseOpening(0, ("parry",) * 3 + ("strike",)))
    assert verdict.rule == "TFS-3.2" and "no more parry" in verdict.message
    assert ChooseOpening(0, ("parry",) * 4) not in state.legal_moves(0)


def test_custom_decks_are_checked():
    """TFS-2.2: 40 cards and at least 8 of each; a bad list says what to change."""
    good = {"strike": 14, "fake": 8, "block": 10, "parry": 8}
    state = GAME.new(2, "duel", options={"deck_lists": [good, None]})
    assert count_kinds(state.snapshot.decks[0]) == good
    with pytest.raises(ValueError, match=r"only 7 parry; a custom deck needs at least 8 of each card \(TFS-2.2\)"):
        validate_deck({"strike": 15, "fake": 10, "block": 8, "parry": 7}, "seat 1's deck")
    with pytest.raises(ValueError, match="has 41 cards; a deck has exactly 40 .*remove 1"):
        GAME.new(2, "duel", options={"deck_lists": [{"strike": 11, "fake": 10, "block": 10, "parry": 10}, None]})
    with pytest.raises(ValueError, match="unknown cards"):
        validate_deck({"strike": 10, "fake": 10, "block": 10, "dodge": 10})
    with pytest.raises(ValueError, match="deck_lists are for fighters with their own decks"):
        GAME.new(3, "free-for-all", options={"decks": "community", "deck_lists": [None] * 3})


def test_community_deck_youngest_draws_first():
    """TFS-2.3, TFS-3.3: two standard decks make 80 cards; the youngest draws the top 4, then clockwise."""
    state = GAME.new(3, "free-for-all", deal=0, options={"decks": "community", "youngest": 2})
    assert len(state.snapshot.decks[0]) == 80 and count_kinds(state.snapshot.decks[0]) == {k: 20 for k in KINDS}
    request = state.pending_chance()
    assert request.kind == "shuffle" and len(request.ranges) == 79
    state.apply(keep_order(request))
    hands = state.snapshot.hands
    assert hands[2] == ("strike#1", "strike#2", "strike#3", "strike#4")
    assert hands[0] == ("strike#5", "strike#6", "strike#7", "strike#8")
    assert hands[1][0] == "strike#9"
    with pytest.raises(ValueError, match="youngest must be a seat"):
        GAME.new(3, "free-for-all", options={"youngest": 3})


# --------------------------------------------------------------------------
# TFS-5 seating, TFS-6 coins, teams and 1v2


def test_seating_pairs_and_starting_coins():
    """TFS-5.1, TFS-5.2, TFS-5.3, TFS-6.1: right arm against the right-hand neighbour's left; coins by right arms."""
    duel = new_fight()
    assert [p["arms"] for p in duel.view(None)["pairs"]] == [["0R", "1L"], ["1R", "0L"]]
    assert duel.snapshot.coins == ("0R", "1R")
    rumble = new_fight(seats=5, variant="free-for-all")
    assert [p["arms"] for p in rumble.view(None)["pairs"]] == [
        ["0R", "4L"], ["1R", "0L"], ["2R", "1L"], ["3R", "2L"], ["4R", "3L"]]
    assert rumble.snapshot.coins == ("0R", "1R", "2R", "3R", "4R")
    assert set(rumble.snapshot.round1) == {"0R", "1R", "2R", "3R", "4R"}
    assert set(rumble.snapshot.round2) == {"0L", "1L", "2L", "3L", "4L"}


def test_teams_sit_across():
    """TFS-5.4: teammates never sit side by side (unless one team is more than half); bad team lists are refused."""
    game = new_fight(seats=4, variant="teams")
    assert game.fight.teams == (0, 1, 0, 1)
    assert not any(p["friendly"] for p in game.view(None)["pairs"])
    with pytest.raises(ValueError, match="teammates sitting side by side"):
        GAME.new(4, "teams", options={"teams": [[0, 1], [2, 3]]})
    with pytest.raises(ValueError, match="in two teams"):
        GAME.new(4, "teams", options={"teams": [[0, 2], [2, 1, 3]]})
    with pytest.raises(ValueError, match="in no team"):
        GAME.new(4, "teams", options={"teams": [[0, 2], [1]]})
    with pytest.raises(ValueError, match='needs the option "teams"'):
        GAME.new(5, "teams")
    assert GAME.new(5, "teams", options={"teams": [[0, 2], [1, 3, 4]]}).fight.teams == (0, 1, 0, 1, 1)


def test_one_against_two_arms_and_third_coin():
    """TFS-R6, TFS-12.1: in 1v2 the lone fighter fights one teammate with each arm; the teammates' facing arms
    never fight and hold the third coin, which its holder may pass."""
    state = new_fight(seats=3, variant="teams", teams=[[0], [1, 2]])
    pairs = {tuple(p["arms"]): p["friendly"] for p in state.view(None)["pairs"]}
    assert pairs == {("0R", "2L"): False, ("1R", "0L"): False, ("2R", "1L"): True}
    assert state.snapshot.coins == ("0R", "1R", "2R")  # 2R is the third coin
    assert state.snapshot.phase == "announce" and state.to_act() == {2}
    assert state.legal_moves(2) == [Announce(2), Announce(2, None, "R")]
    assert state.check(Announce(2, None, "L")).rule == "TFS-12.1"
    state.apply(Announce(2))
    assert set(state.snapshot.round1) == {"0R", "1R"} and set(state.snapshot.round2) == {"2L", "0L"}


def test_promised_pass_happens_whatever_happens():
    """TFS-12.2: the announced pass moves the third coin at the end of the turn; with it a teammate lunges."""
    state = new_fight(seats=3, variant="teams", teams=[[0], [1, 2]])
    events = run_turn(state, {"0R": "strike", "2L": "block", "1R": "strike", "0L": "block"},
                      announce={2: (None, "R")})
    assert state.snapshot.coins == ("0R", "1L", "1R")
    assert [e.type for e in events].count("coins-moved") == 1
    # seat 1 now holds coins on both arms and may lunge at the only opposing arm it engages
    state = arrange(state, hands={0: ("strike", "block", "block", "fake"), 1: ("strike", "strike", "fake", "fake"),
                                  2: DEFAULT_HAND})
    assert state.legal_moves(1) == [Announce(1), Announce(1, None, "L"), Announce(1, "0L"), Announce(1, "0L", "L")]
    events = run_turn(state, {"1R": "strike", "1L": "strike", "0L": "block", "0R": "strike", "2L": "block"},
                      counters={"0L": "R"}, announce={1: ("0L", None)})
    lunge = engaged(events)[0]
    assert lunge.kind == "lunge" and lunge.cards == ("block", "strike", "strike") and lunge.hits == ((0, 1),)
    assert not [e for e in engaged(events) if e.kind == "free"]  # the lunger's other arm faced a teammate
    assert state.snapshot.coins == ("0R", "1R", "2R")  # TFS-10.5


def test_pass_survives_a_lunge_reset():
    """TFS-R12: a lunge sends every coin to a right arm, but the promised pass still gives the third coin away."""
    state = new_fight(seats=3, variant="teams", teams=[[0], [1, 2]])
    state = arrange(state, hands={0: ("strike", "strike", "block", "block"), 1: ("block", "block", "fake", "fake"),
                                  2: ("block", "block", "fake", "fake")}, coins=("0L", "0R", "2R"))
    assert state.to_act() == {0, 2}
    events = run_turn(state, {"0R": "strike", "0L": "strike", "2L": "block", "1R": "block"},
                      counters={"2L": "R"}, announce={0: ("2L", None), 2: (None, "R")})
    free = [e for e in engaged(events) if e.kind == "free"]
    assert free and free[0].arms == ("1R", "0L")  # TFS-R7: the other teammate's free arm attacks the lunger
    assert state.snapshot.coins == ("0R", "1L", "1R")


def test_two_against_two_becomes_one_against_two():
    """TFS-11.1, TFS-R6, TFS-R4: when a 2v2 fighter falls, the circle closes between teammates; the coin kept
    sits on that friendly pair; the last team standing wins and only its fighters still standing earn a point."""
    state = new_fight(seats=4, variant="teams")
    # pairs (0R,3L) (1R,0L) (2R,1L) (3R,2L); coins on right arms; seat 0 falls to 1R's strike
    state = arrange(state, hands={0: ("strike", "fake", "block", "block"), 1: ("strike", "block", "block", "block"),
                                  2: ("strike", "block", "block", "block"), 3: ("strike", "block", "block", "block")},
                    hits=(4, 0, 0, 0))
    events = run_turn(state, {"0R": "strike", "3L": "block", "1R": "strike", "0L": "fake", "2R": "strike",
                              "1L": "block", "3R": "strike", "2L": "block"})
    assert next(e for e in events if e.type == "eliminated").coin == "1R"
    assert {tuple(p["arms"]): p["friendly"] for p in state.view(None)["pairs"]} == {
        ("1R", "3L"): True, ("2R", "1L"): False, ("3R", "2L"): False}
    assert state.to_act() == {1}  # seat 1 holds the coin between teammates: it may pass it
    state = arrange(state, hands={1: ("strike", "block", "block", "block"), 2: ("fake", "block", "block", "block"),
                                  3: ("strike", "block", "block", "block")}, hits=(4, 0, 4, 0))
    run_turn(state, {"2R": "block", "1L": "strike", "3R": "strike", "2L": "fake"}, announce={1: (None, None)})
    assert state.outcome.winners == (1, 3) and state.outcome.scores == (0.0, 1.0, 0.0, 1.0)
    result = state.result()
    assert result.award == (0, 1, 0, 1) and result.destroyed == (True, False, True, False)


def test_last_fighter_standing_in_a_free_for_all():
    """TFS-13.1, TFS-R4: a free-for-all ends when one fighter is left; they earn the point."""
    state = new_fight(seats=3, variant="free-for-all")
    state = arrange(state, hands={0: ("strike", "strike", "block", "block"), 1: ("fake", "fake", "block", "block"),
                                  2: ("strike", "fake", "block", "block")}, hits=(0, 4, 4))
    # pairs (0R,2L) (1R,0L) (2R,1L); 0R hits seat 2, 2R hits seat 1
    run_turn(state, {"0R": "strike", "2L": "fake", "1R": "block", "0L": "strike", "2R": "strike", "1L": "fake"})
    assert state.outcome.winners == (0,) and state.outcome.reason == "last fighter standing"
    assert state.view(None)["result"] == {"award": [1, 0, 0], "destroyed": [False, True, True]}


# --------------------------------------------------------------------------
# TFS-4 character sheets


def test_character_sheets_round_trip_and_settle():
    """TFS-4.1, TFS-4.3, TFS-13.1: sheets serialise; points set hit points; the result awards and destroys."""
    ana = CharacterSheet("Ana", points=2, wins=2, created="2026-11-01T10:00:00Z")
    bo = CharacterSheet("Bo", created="2026-11-02T10:00:00Z")
    assert CharacterSheet.from_json(json.loads(json.dumps(ana.to_json()))) == ana
    assert ana.hit_points == 7 and bo.hit_points == 5
    state = new_fight(**options_for([ana, bo]))
    assert state.snapshot.hp == (7, 5)
    state = arrange(state, hands={0: ("strike", "strike", "block", "block"), 1: ("fake", "block", "block", "block")},
                    hits=(0, 4))
    run_turn(state, {"0R": "strike", "1L": "fake", "1R": "block", "0L": "strike"})
    ana2, bo2 = settle([ana, bo], state.result(), "2026-11-30T01:00:00Z")
    assert (ana2.points, ana2.wins, ana2.destroyed) == (3, 3, None)
    assert (bo2.losses, bo2.destroyed) == (1, "2026-11-30T01:00:00Z")
    with pytest.raises(ValueError, match="destroyed; make a new character"):
        options_for([ana2, bo2])
    with pytest.raises(ValueError, match="no field 'level'"):
        CharacterSheet.from_json({"name": "X", "level": 3})
    with pytest.raises(ValueError, match="points on X's sheet"):
        CharacterSheet("X", points=-1)
    with pytest.raises(ValueError, match="points must list 2 whole numbers"):
        GAME.new(2, "duel", options={"points": [1]})


# --------------------------------------------------------------------------
# TFS-9 the grid file


def shipped_grid_text() -> str:
    return resources.files("engines.two_freakin_swords").joinpath("grid.json").read_text(encoding="utf-8")


def test_shipped_grid_loads():
    """TFS-9.1: the grid is a data file in the package, read on import and valid."""
    grid = parse_grid_text(shipped_grid_text())
    assert grid.cell("strike", "block").hit == "none" and grid.cell("fake", "fake").replay


def test_grid_with_a_typo_is_refused_naming_the_cell():
    """TFS-9.2: a misspelt value, row, column or key is refused with the cell and the accepted words."""
    data = json.loads(shipped_grid_text())
    data["grid"]["strike"]["fake"]["hit"] = "agressor"
    with pytest.raises(GridError) as exc:
        parse_grid_text(json.dumps(data), "grid.json")
    message = str(exc.value)
    assert "grid.json: cell strike (aggressor) vs fake (defender)" in message
    assert "'agressor'" in message and "did you mean 'aggressor'" in message
    data = json.loads(shipped_grid_text())
    data["grid"]["stirke"] = data["grid"].pop("strike")
    with pytest.raises(GridError, match="unknown row 'stirke' \\(did you mean 'strike'\\?\\)"):
        parse_grid_text(json.dumps(data))
    data = json.loads(shipped_grid_text())
    data["grid"]["block"]["pary"] = data["grid"]["block"].pop("parry")
    with pytest.raises(GridError, match="row 'block' has an unknown column 'pary'"):
        parse_grid_text(json.dumps(data))
    data = json.loads(shipped_grid_text())
    data["grid"]["parry"]["parry"] = {"hit": "none", "replya": True}
    with pytest.raises(GridError, match="cell parry \\(aggressor\\) vs parry \\(defender\\): unknown key 'replya'"):
        parse_grid_text(json.dumps(data))
    data = json.loads(shipped_grid_text())
    del data["grid"]["fake"]["block"]
    with pytest.raises(GridError, match="cell fake \\(aggressor\\) vs block \\(defender\\) is missing"):
        parse_grid_text(json.dumps(data))
    with pytest.raises(GridError, match="not valid JSON: line 1 column"):
        parse_grid_text('{"grid": ', "grid.json")
    data = json.loads(shipped_grid_text())
    data["grid"]["block"]["block"]["coin"] = "swap"
    with pytest.raises(ValueError, match="option grid: cell block \\(aggressor\\) vs block \\(defender\\)"):
        GAME.new(2, "duel", options={"grid": data})


def test_a_replacement_grid_changes_play():
    """TFS-9.1, TFS-8: a group's grid (as the option grid) decides hits and may move the coin itself."""
    data = json.loads(shipped_grid_text())
    data["grid"]["block"]["block"] = {"hit": "both", "coin": "pass"}
    state = new_fight(grid=data, hands={0: ("block", "strike", "fake", "fake"), 1: ("block", "block", "fake", "fake")})
    run_turn(state, {"0R": "block", "1L": "block", "1R": "block", "0L": "strike"})
    assert state.snapshot.hits == (1, 1)
    assert state.snapshot.coins == ("1L", "1R")


# --------------------------------------------------------------------------
# hidden information


def test_hidden_cards():
    """TFS-7.2, TFS-1.2: hands and sealed cards (distinct ids) are hidden from the other seats and the table;
    decks from everyone."""
    state = new_fight()
    s = state.snapshot
    card = s.hands[0][0]
    state.apply(Place(0, "R", card))
    for seat, must_hide in ((None, True), (1, True), (0, False)):
        assert (card in state.hidden_from(seat)) is must_hide
        assert set(state.hidden_from(seat)).isdisjoint(json.dumps(state.view(seat)).split('"'))
    assert set(s.decks[0]) <= state.hidden_from(0)
    assert set(state.snapshot.hands[1]) <= state.hidden_from(0)
    assert all(p["card"] is None for p in state.view(1)["placements"])


def test_bad_json_moves_are_refused_and_change_nothing():
    """TFS-7.2: malformed moves never change the fight."""
    state = new_fight()
    before = state.to_json()
    for bad in [{"type": "place", "seat": 0, "arm": "X", "card": "strike#1"}, {"type": "place", "seat": 0},
                {"type": "reveal", "seat": 0, "arm": "R", "card": 5}, ChanceMove((0,)),
                {"type": "announce", "seat": 0, "lunge_at": 7}]:
        assert not state.check(bad).ok
        with pytest.raises(IllegalMove):
            state.apply(bad)
    assert state.to_json() == before


# --------------------------------------------------------------------------
# the rules document


def doc_ids() -> list[str]:
    return re.findall(r"\*\*(TFS-[0-9R][0-9.]*)\*\*", DOC.read_text(encoding="utf-8"))


def test_every_rule_and_ruling_is_named_by_a_test():
    """Each numbered rule and ruling of docs/rules/two-freakin-swords.md is named by at least one test."""
    ids = doc_ids()
    assert len(ids) == len(set(ids)) and len(ids) > 50
    tests = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("test_two_freakin_swords*.py"))
    named = set(re.findall(r"TFS-R?\d+(?:\.\d+)?", tests))
    missing = [i for i in ids if i not in named]
    assert not missing, f"rules no test names: {missing}"


def test_every_rejection_names_a_documented_rule():
    """Every rule id the engine rejects with or cites (a rule, a ruling or a section) is in the rules document."""
    source = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "engines" / "two_freakin_swords").glob("*.py"))
    used = set(re.findall(r'Reject\(\s*"(TFS-R?\d+(?:\.\d+)?)"', source))
    used |= set(re.findall(r"\b(TFS-R?\d+(?:\.\d+)?)\b", source))
    known = set(doc_ids()) | set(re.findall(r"^## (TFS-\d+) ", DOC.read_text(encoding="utf-8"), re.M))
    assert used and used <= known, sorted(used - known)


def test_settle_chance_helper_uses_legal_shuffles():
    """TFS-2.4: a shuffle is a chance move with Fisher-Yates ranges; the helpers only use legal values."""
    state = GAME.new(3, "free-for-all", deal=0, options={"decks": "community"})
    settle_chance(state)
    assert state.snapshot.turn == 1
