"""The coin-toss board's button declares ダブルエッジ (GG-T9, engines/gun_and_gun/table.py button,
companion/buttons.py), the last toss on the table page (GG-DE-5, GG-DE-6), and the ``life`` option (GG-R13)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from companion.buttons import press
from engines.core import ChanceMove, Sighting, TableSnapshot, Verdict
from engines.gun_and_gun import GAME
from engines.gun_and_gun.moves import EndMain, Load, PlayAction, PlayFunction, ResolveFunction
from engines.gun_and_gun.table import ADAPTER, button, sighting_of


def started(variant: str = "double-edge", seed: int = 3, **options):
    state = GAME.new(2, variant, deal=seed, options=options)
    rng = random.Random(seed)
    while state.pending_chance() is not None:
        state.apply(ChanceMove(tuple(rng.randrange(r) for r in state.pending_chance().ranges)))
    return state


def with_action(seed: int = 0):
    """A started game where the seat to play holds an action card it may declare on; that card."""
    for s in range(seed, seed + 200):
        state = started(seed=s)
        seat = state.snapshot.active
        for card in state.snapshot.players[seat].hand:
            if state.check(PlayAction(seat, card, True)).ok:
                return state, seat, card
    raise AssertionError("no seed deals a playable action card")


def put(state, card: str, zone: str) -> TableSnapshot:
    return TableSnapshot((Sighting(sighting_of(state, card), zone, 60.0, 250.0),))


def test_the_button_declares_on_the_action_card_just_put_down():
    state, seat, card = with_action()
    move = button(state, seat, "coin-toss", put(state, card, f"s{seat}.action"))
    assert move == PlayAction(seat, card, True)
    assert ADAPTER.button(state, None, "coin-toss", put(state, card, f"s{seat}.action")) == move  # shared button
    before = state.to_json()
    state.apply(move)
    assert state.snapshot.de_used and state.pending_chance().kind == "coin"
    assert button(state, seat, "coin-toss", None).rule == "GG-DE-3"  # the coin is in the air
    state.apply(ChanceMove((0,)))
    assert before != state.to_json()


def test_the_button_refuses_with_the_rule_that_forbids_it():
    state, seat, card = with_action()
    assert button(state, seat, "dice", None) is None  # not this game's button
    nothing = button(state, seat, "coin-toss", TableSnapshot(()))
    assert isinstance(nothing, Verdict) and nothing.rule == "GG-T9" and nothing.fix
    other = button(state, 1 - seat, "coin-toss", put(state, card, f"s{seat}.action"))
    assert other.rule == "GG-DE-2"  # only the player whose turn it is
    state.apply(PlayAction(seat, card, True))
    state.apply(ChanceMove((1,)))
    if state.snapshot.active == seat and state.snapshot.phase == "main":
        second = button(state, seat, "coin-toss", TableSnapshot(()))
        assert second.rule == "GG-DE-2" and "already" in second.message
    standard = started("standard")
    assert button(standard, standard.snapshot.active, "coin-toss", None).rule == "GG-DE-1"


def test_the_button_declares_on_a_function_card_moved_to_the_voltage_area():
    for s in range(300):
        state = started(seed=s)
        seat = state.snapshot.active
        hand = state.snapshot.players[seat].hand
        functions = [c for c in hand if state.table.card(c).type == "function" and state.check(
            PlayFunction(seat, c)).ok]
        if not functions:
            continue
        state.apply(PlayFunction(seat, functions[0]))
        state.apply(EndMain(seat))
        if state.snapshot.phase != "down" or not state.check(ResolveFunction(seat, functions[0], True)).ok:
            continue
        move = button(state, seat, "coin-toss", put(state, functions[0], f"s{seat}.voltage"))
        assert move == ResolveFunction(seat, functions[0], True)
        return
    pytest.fail("no seed deals a function card to resolve")


def test_a_declaration_on_a_bullet_is_refused_by_the_engine():
    state = started()
    seat = state.snapshot.active
    bullet = next(c for c in state.snapshot.players[seat].hand if state.table.card(c).type == "bullet")
    verdict = state.check(Load(seat, 0, bullet, True))
    assert not verdict.ok and verdict.rule == "GG-DE-9.1"


def test_the_view_says_who_resolved_the_effect_and_how_many_times():
    for face, times in ((0, 2), (1, 1)):
        state, seat, card = with_action()
        state.apply(PlayAction(seat, card, True))
        state.apply(ChanceMove((face,)))
        last = state.view(None)["double_edge"]["last"]
        assert last["declarer"] == seat and last["card"]["id"] == card and last["times"] == times
        assert last["coin"] == ("declarer", "opponent")[face]
        assert last["resolver"] == (seat if face == 0 else 1 - seat)
        # The toss survives the JSON form of the snapshot (crash recovery, the record).
        assert state.snapshot_from_json(state.snapshot_to_json(state.snapshot)).de_last == state.snapshot.de_last


def test_the_life_option_starts_a_short_game_and_bad_values_are_refused():
    state = started(life=7)
    assert all(p.life == 7 for p in state.snapshot.players)
    for bad in (0, 31, "5", 2.5):
        with pytest.raises(ValueError, match="life"):
            GAME.new(2, "double-edge", deal=1, options={"life": bad})


def test_companion_buttons_finds_the_seat_and_the_move_or_the_refusal():
    state, seat, card = with_action()
    table = SimpleNamespace(game=GAME, state=state, seats=[0, 1])
    pressed = press(table, {"button": 0, "seat": None, "for": "coin-toss"}, put(state, card, f"s{seat}.action"))
    assert pressed.seat == seat and pressed.move == PlayAction(seat, card, True) and pressed.refusal is None
    refused = press(table, {"button": 0, "seat": None, "for": "coin-toss"}, None)
    assert refused.seat == seat and refused.move is None and refused.refusal.rule == "GG-T9"
    assert press(table, {"button": 3, "seat": 0, "for": "dice"}) is None
    assert press(table, {"button": 0, "seat": 7, "for": "coin-toss"}) is None  # no such seat here
    toy = SimpleNamespace(game=SimpleNamespace(id="double-side-play"), state=state, seats=[0, 1])
    assert press(toy, {"button": 0, "seat": 0, "for": "coin-toss"}) is None  # a game without buttons


def test_a_function_card_moved_to_the_voltage_area_resolves():
    """GG-T1: a function card moved from the function area to the voltage area in the down phase."""
    from engines.core import ZoneChange
    from engines.gun_and_gun.table import interpret

    for s in range(300):
        state = started(seed=s)
        seat = state.snapshot.active
        functions = [c for c in state.snapshot.players[seat].hand
                     if state.table.card(c).type == "function" and state.check(PlayFunction(seat, c)).ok]
        if not functions:
            continue
        state.apply(PlayFunction(seat, functions[0]))
        state.apply(EndMain(seat))
        if state.snapshot.phase != "down":
            continue
        name = sighting_of(state, functions[0])
        moved = ZoneChange("moved", name, f"s{seat}.voltage", from_zone=f"s{seat}.function")
        left = TableSnapshot((Sighting(name, f"s{seat}.voltage", 300.0, 360.0),))
        result = interpret(state, [moved], left)
        assert result.questions or result.moves == (ResolveFunction(seat, functions[0]),)
        return
    pytest.fail("no seed deals a function card to resolve")
