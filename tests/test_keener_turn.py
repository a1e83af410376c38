"""Keener turn structure (KN-4 to KN-6, KN-10), the rulings on drawing and
length caps, bad input, and that every rule id the engine names is documented."""

import re
from pathlib import Path

import pytest

from engines.core import IllegalMove
from engines.keener import GAME, Attack, Cloak, Deploy, Pass, PlayGenerator
from engines.keener.scenario import position
from engines.playout import random_steps

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs/rules/keener.md").read_text()


def side(state, seat):
    return state.view(None)["sides"][seat]


def test_economy_one_generator_then_every_generator_produces_and_chips_carry_over():
    """KN-5.2, KN-5.3 and ruling KN-R16."""
    state = position(phase="economy", hands=(["iron-miner", "stonecutter"], []), generators=(["merchant"], []),
                     banks=((1, 0, 0, 2), (0, 0, 0, 0)))
    assert {m.type for m in state.legal_moves(0)} == {"play-generator", "pass"}
    state.apply(PlayGenerator(0, "1:iron-miner#1"))
    assert side(state, 0)["bank"] == {"wood": 1, "stone": 0, "iron": 1, "gold": 3}
    assert state.view(None)["phase"] == "spending"
    with pytest.raises(IllegalMove) as exc:
        state.apply(PlayGenerator(0, "1:stonecutter#1"))
    assert exc.value.rule == "KN-5.2"


def test_passing_the_economy_phase_still_produces():
    state = position(phase="economy", generators=(["lumberjack", "forester"], []))
    state.apply(Pass(0))
    assert side(state, 0)["bank"]["wood"] == 2


def test_only_generators_in_economy_and_not_in_spending():
    state = position(phase="economy", hands=(["fighting-monk", "lumberjack"], []), banks=((1, 0, 0, 0), (0,) * 4))
    assert state.check(PlayGenerator(0, "1:fighting-monk#1")).rule == "KN-5.2"
    assert state.check(Deploy(0, "1:fighting-monk#1")).rule == "KN-6.1"
    assert state.check(Cloak(0, "1:fighting-monk#1")).rule == "KN-8.1"
    state.apply(Pass(0))
    assert state.check(Deploy(0, "1:lumberjack#1")).rule == "KN-5.2"


def test_spending_any_number_of_cards_within_the_bank():
    """KN-6.1: the shortfall is named and nothing changes."""
    state = position(phase="spending", hands=(["fighting-monk", "fighting-monk", "wooden-fence"], []),
                     banks=((2, 0, 0, 0), (0,) * 4))
    state.apply(Deploy(0, "1:fighting-monk#1"))
    state.apply(Deploy(0, "1:wooden-fence#1"))
    before = state.to_json()
    with pytest.raises(IllegalMove) as exc:
        state.apply(Deploy(0, "1:fighting-monk#2"))
    assert exc.value.rule == "KN-6.1" and "short of 1 Wood" in exc.value.verdict.message
    assert exc.value.verdict.fix
    assert state.to_json() == before
    assert state.check(Deploy(0, "1:fighting-monk#9")).rule == "KN-6.1"
    assert state.check(Deploy(0, "2:fighting-monk#1")).rule == "KN-6.1"


def test_turn_order_economy_spending_attack_then_the_other_player():
    """KN-4.1."""
    state = position(phase="economy", turn=4)
    phases = []
    for _ in range(3):
        phases.append(state.view(None)["phase"])
        state.apply(Pass(0))
    assert phases == ["economy", "spending", "declare"]
    assert state.to_act() == {1} and state.view(None)["turn"] == 5 and side(state, 1)["hand_count"] == 1


def test_drawing_from_an_empty_deck_loses():
    """Ruling KN-R6: the game ends by itself."""
    state = position(phase="declare", decks=([], []), commanders=("saga", "ferra"))
    state.apply(Pass(0))
    assert state.outcome.winners == (0,) and "empty deck" in state.outcome.reason


def test_saga_loses_when_her_three_draws_run_out():
    state = position(phase="declare", active=1, decks=(["fighting-monk"] * 2, []), commanders=("saga", "ferra"))
    state.apply(Pass(1))
    assert state.outcome.winners == (1,) and side(state, 0)["hand_count"] == 2


def test_turn_limit_ends_the_game_with_no_winner():
    """Ruling KN-R7 and KN-10.3."""
    state = GAME.new(2, deal=3, options={"turn_limit": 2})
    state.apply({"type": "chance", "values": [0] * 48})
    state.apply({"type": "chance", "values": [0] * 48})
    for _ in range(6):
        state.apply(Pass(sorted(state.to_act())[0]))
    assert state.outcome is not None and state.outcome.winners == () and "turn limit" in state.outcome.reason


def test_random_games_end_by_themselves():
    """Ruling KN-R7: no game hit the cap of simulate's default 5000 moves."""
    import random

    for seed in range(30):
        state = GAME.new(2, deal=seed)
        steps = sum(1 for _ in random_steps(state, random.Random(seed), 5000))
        assert state.outcome is not None and steps < 5000


@pytest.mark.parametrize("bad", [None, 3, "pass", {}, {"type": "fly"}, {"type": "pass"},
                                 {"type": "pass", "seat": "0"}, {"type": "attack", "seat": 0, "fighter": 5},
                                 {"type": "deploy", "seat": 0, "card": "nonsense"},
                                 {"type": "deploy", "seat": 0, "card": "1:fighting-monk#1", "target": ["x"]},
                                 {"type": "uncloak", "seat": 0, "slot": None},
                                 {"type": "chance", "values": [1]}, {"type": "pass", "seat": 7}])
def test_bad_input_gets_a_rule_and_changes_nothing(bad):
    state = position(phase="spending", hands=(["fighting-monk"], []), banks=((1, 0, 0, 0), (0,) * 4))
    before = state.to_json()
    verdict = state.check(bad)
    assert not verdict.ok and verdict.rule and verdict.message
    with pytest.raises(IllegalMove):
        state.apply(bad)
    assert state.to_json() == before


def test_moves_round_trip_through_json():
    state = position(phase="spending", hands=(["fighting-monk", "bear-trap"], []), banks=((1, 0, 0, 1), (0,) * 4))
    for move in state.legal_moves(0):
        assert GAME.decode_move(move.to_json()) == move


def test_views_are_json_and_show_only_counts_of_the_other_hand():
    """KN-11."""
    state = GAME.new(2, deal=9)
    for _ in range(2):
        state.apply({"type": "chance", "values": [0] * 48})
    mine, theirs, table = state.view(0), state.view(1), state.view(None)
    assert len(mine["hand"]) == 13 and len(theirs["hand"]) == 10 and "hand" not in table
    assert table["sides"][1]["hand_count"] == 10
    assert not set(h["id"] for h in theirs["hand"]) & set(str(mine))


def test_every_rule_id_the_engine_names_is_in_the_rules_document():
    source = "".join(p.read_text() for p in (ROOT / "engines/keener").glob("*.py"))
    named = set(re.findall(r'"(KN-\d+\.\d+)"', source))
    assert named, "the engine names no rule ids?"
    documented = set(re.findall(r"\*\*(KN-\d+\.\d+)\*\*", DOC))
    assert named <= documented, sorted(named - documented)


def test_every_ruling_is_tested():
    rulings = set(re.findall(r"\*\*(KN-R\d+)", DOC))
    assert len(rulings) >= 7
    tests = "".join(p.read_text() for p in (ROOT / "tests").glob("test_keener*.py"))
    untested = sorted(r for r in rulings if not re.search(rf"{r}\b", tests))
    assert not untested, untested


def test_the_house_set_is_declared_in_the_rules_document():
    assert "house" in DOC and "not part of the rulebook" in DOC


def test_a_fighter_played_this_turn_attacks_only_once():
    state = position(phase="declare", fighters=(["fighting-monk"], []))
    state.apply(Attack(0, "1:fighting-monk#1"))
    assert Attack(0, "1:fighting-monk#1") not in state.legal_moves(0)


def test_dead_and_used_cards_go_to_the_discard_pile_removed_ones_to_the_removed_pile():
    """Ruling KN-R17: both piles are public."""
    state = position(phase="declare", commanders=("saga", "ferra"), fighters=(["pikeman", "stone-golem"], []),
                     face_down=((), ["bear-trap"]), banks=((0,) * 4, (0, 0, 1, 0)),
                     defenses=((), ["wooden-fence"]))
    state.apply(Attack(0, "1:pikeman#1"))
    state.apply(Attack(0, "1:stone-golem#1"))
    state.apply(Pass(0))
    state.apply({"type": "uncloak", "seat": 1, "slot": "2:cloak#1", "target": "1:pikeman#1"})
    state.apply(Pass(1))
    table = state.view(None)["sides"]
    assert table[0]["removed"] == ["1:pikeman#1"] and table[1]["removed"] == ["2:bear-trap#1"]
    assert table[1]["discard"] == ["2:wooden-fence#1"]


def test_banks_are_public():
    """Ruling KN-R19."""
    state = position(phase="spending", banks=((1, 2, 3, 4), (0,) * 4))
    assert state.view(1)["sides"][0]["bank"] == {"wood": 1, "stone": 2, "iron": 3, "gold": 4}


def test_forced_choices_are_made_by_the_engine():
    """Ruling KN-R20: one Defense takes the damage without asking; two make the attacker choose."""
    state = position(phase="declare", commanders=("saga", "ferra"), fighters=(["stone-golem"], []),
                     defenses=((), ["stone-wall"]))
    state.apply(Attack(0, "1:stone-golem#1"))
    state.apply(Pass(0))
    state.apply(Pass(1))
    assert state.view(None)["phase"] == "economy"
    assert side(state, 1)["commander"]["lp"] == 6 and side(state, 1)["defenses"] == []


def test_simulate_reports_games_stopped_at_the_move_cap(capsys):
    """Ruling KN-R7: `companion simulate keener --max-moves N` stops long games and says how many."""
    import argparse

    from companion.commands import simulate

    parser = argparse.ArgumentParser()
    simulate.register(parser.add_subparsers())

    def main(argv):
        args = parser.parse_args(argv)
        return args.func(args)

    assert main(["simulate", "keener", "--games", "3", "--max-moves", "10"]) == 0
    out = capsys.readouterr().out
    assert "hit the cap of 10 moves: 3" in out
    assert main(["simulate", "keener", "--games", "3"]) == 0
    assert "hit the cap of 5000 moves: 0" in capsys.readouterr().out
