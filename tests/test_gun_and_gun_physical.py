"""ガンナガン with a physical deal (docs/rules/gun-and-gun.md GG-P1 .. GG-P4): hands and deck orders
unknown, card conservation, unknown loaded cards and ブレインハック's card named when turned up, and the
table adapter reading a physical game."""

from __future__ import annotations

from engines.core import FACE_DOWN, ChanceMove, Sighting, TableSnapshot, ZoneChange
from engines.gun_and_gun import GAME
from engines.gun_and_gun.moves import (
    Activate,
    EndMain,
    Load,
    PlayAction,
    Reveal,
    Shoot,
    UseSkill,
)
from engines.gun_and_gun.snapshot import UNKNOWN
from engines.gun_and_gun.table import interpret, manual_moves, sighting_of


def physical(**options):
    return GAME.new(2, "double-edge", deal="physical", options=options)


def unseen(state, seat: int, key: str) -> str:
    return next(c for c in state.snapshot.players[seat].unseen if state.table.card(c).key == key)


def test_gg_p1_hands_and_decks_are_counts_and_the_game_starts_without_shuffles():
    state = physical()
    s = state.snapshot
    assert state.pending_chance() is None and s.phase == "main" and s.active == 0  # レイヴン is faster (GG-2.3)
    assert [p.hand.count(UNKNOWN) for p in s.players] == [5, 6]
    assert all(set(p.hand) == {UNKNOWN} for p in s.players)
    assert [len(p.unseen) for p in s.players] == [40, 40]
    assert state.legal_moves(0) is None and manual_moves(state, 0)  # the phone's buttons (GG-T8)
    mine = state.view(0)["you"]
    assert mine["hand"] == [] and mine["hand_unknown"] == 5
    assert UNKNOWN not in state.hidden_from(None)
    # A replay from the record gives the same position (no secret shuffle).
    assert physical().to_json() == state.to_json()


def test_gg_p2_card_conservation_from_the_hand():
    state = physical()
    bullet = unseen(state, 0, "9mm-round")
    state.apply(Load(0, 0, bullet))
    assert state.snapshot.players[0].hand.count(UNKNOWN) == 4 and bullet not in state.snapshot.players[0].unseen
    again = state.check(Load(0, 1, bullet))
    assert not again.ok and again.rule == "GG-P2"  # that copy is already in a gun
    theirs = state.check(PlayAction(0, unseen(state, 1, "keiryaku")))
    assert not theirs.ok and theirs.rule == "GG-P2"  # another player's card
    # Another copy of the same name is still unseen, so it may come from the hand.
    assert state.check(Load(0, 1, unseen(state, 0, "9mm-round"))).ok


def test_gg_p3_unknown_loaded_cards_are_named_when_their_gun_fires():
    state = physical(gunners=["mirror", "gina"])  # ミラー: 速射装填 loads the top of a deck
    seat = state.snapshot.active
    state.apply(UseSkill(seat, 0))
    assert state.snapshot.players[seat].loaded[0] == (UNKNOWN,)
    life = state.snapshot.players[1 - seat].life
    state.apply(Shoot(seat, 0))
    assert state.snapshot.pending.kind == "reveal" and state.to_act() == {seat}
    assert state.view(seat)["pending"] == {"kind": "reveal", "seat": seat, "gun": 0}
    blocked = state.check(EndMain(seat))
    assert not blocked.ok and blocked.rule == "GG-P3"
    wrong = state.check(Reveal(seat, (unseen(state, 1 - seat, "slug"),)))
    assert not wrong.ok and wrong.rule == "GG-P3"
    too_many = state.check(Reveal(seat, (unseen(state, seat, "slug"), unseen(state, seat, "buckshot"))))
    assert not too_many.ok and too_many.rule == "GG-P3"
    slug = unseen(state, seat, "slug")
    state.apply(Reveal(seat, (slug,)))
    bonus = state.table.gunners[seat].guns[0].bonus
    assert state.snapshot.players[1 - seat].life == life - state.table.card(slug).hit - bonus
    assert slug in state.snapshot.players[seat].voltage and slug not in state.snapshot.players[seat].unseen


def test_gg_p4_brain_hack_names_the_card_it_turns_up():
    state = physical()
    assert state.snapshot.active == 0  # レイヴン: ブレインハック
    state.apply(UseSkill(0, 0))
    assert state.snapshot.pending.kind == "reveal" and state.snapshot.pending.source == "skill"
    mine = state.check(Reveal(0, (unseen(state, 0, "keiryaku"),)))
    assert not mine.ok and mine.rule == "GG-P4"  # it is the opponent's deck
    card = unseen(state, 1, "keiryaku")
    state.apply(Reveal(0, (card,)))
    assert state.snapshot.pending.kind == "activate" and state.snapshot.pending.card == card
    state.apply(Activate(0, True))  # ダブルエッジ on a skill-activated action (GG-DE-11)
    state.apply(ChanceMove((1,)))
    assert state.view(None)["double_edge"]["last"]["resolver"] == 1


def test_the_camera_plays_a_taught_card_from_an_unknown_hand():
    state = physical()
    card = unseen(state, 0, "resupply")
    name = sighting_of(state, card)
    table = TableSnapshot((Sighting(name, "s0.action", 60.0, 260.0),))
    result = interpret(state, [ZoneChange("placed", name, "s0.action")], table)
    # 補給 costs nothing: ダブルエッジ may be declared, so the seat is asked (GG-T6), naming an unseen copy.
    assert result.questions and result.questions[0].choices[0].startswith("declare:play-action:0")
    state.apply(PlayAction(0, result.questions[0].choices[0].rsplit(":", 1)[1]))
    # A back put on a gun: the seat is asked which bullet, among the names its decks still hide (GG-T3).
    back = TableSnapshot((Sighting(FACE_DOWN, "s0.loaded1", 400.0, 360.0),))
    loaded = interpret(state, [ZoneChange("placed", FACE_DOWN, "s0.loaded1")], back)
    choices = loaded.questions[0].choices
    assert {state.table.card(c.rsplit(":", 1)[1]).key for c in choices} == {"9mm-round", "hollow-point", "slug",
                                                                             "buckshot"}
