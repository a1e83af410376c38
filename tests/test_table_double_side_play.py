"""The Double Side Play table adapter (engines/double_side_play/table.py, docs/tables.md).

A full seeded 4-player game is played through the camera's side only: each
card laid on the mat becomes a TableSnapshot synthesised from the engine's own
state, the changes come from companion's own diff, and the adapter must find
exactly the card played.  Dice and janken go in directly (device and phones).
Illegal physical moves are refused with a rule id and leave the state as it was.
"""

from __future__ import annotations

import random

import pytest

from companion.camera import diff
from engines.core import FACE_DOWN, UNKNOWN, Sighting, TableSnapshot
from engines.double_side_play import GAME, ChooseTrump, Janken, Play, printed
from engines.double_side_play.snapshot import JANKEN, PLAY, TRUMP
from engines.double_side_play.table import ADAPTER, expected, manual_moves
from engines.playout import sample_chance


def table_of(state, extra=(), keep_last=False, printed_ids=False) -> TableSnapshot:
    """The mat as the engine says it lies: the trick's cards on their seats' played zones,
    won tricks face down on the winners' piles (written from the snapshot, not from the adapter)."""
    s = state.snapshot
    def name(card):
        return f"{printed.PREFIX}{printed.index_of(card)}" if printed_ids else card
    out = []
    if s.phase == PLAY:
        for seat, card in s.plays:
            out.append(Sighting(name(card), f"s{seat}.played", 0, 0))
        if keep_last and s.tricks and not s.plays:
            for seat, card in s.tricks[-1].plays:
                out.append(Sighting(name(card), f"s{seat}.played", 0, 0))
        for seat, won in enumerate(s.tricks_won):
            if won and not (keep_last and s.tricks and not s.plays and s.tricks[-1].winner == seat and won == 1):
                out.append(Sighting(FACE_DOWN, f"s{seat}.tricks", 0, 0))
    return TableSnapshot(tuple(out) + tuple(extra))


def lay(before: TableSnapshot, card: str, zone: str, confidence: float = 1.0) -> TableSnapshot:
    return TableSnapshot((*before.sightings, Sighting(card, zone, 0, 0, confidence=confidence)))


def interpret(state, before, after):
    return ADAPTER.interpret(state, diff(before, after), after)


def setup(seed: int = 7, seats: int = 4, variant: str = "standard"):
    state = GAME.new(seats, variant, deal=seed)
    rng = random.Random(seed)
    advance(state, rng)
    return state, rng


def advance(state, rng) -> None:
    """Chance and janken until a card is awaited (the device and the phones, not the camera)."""
    while state.outcome is None and state.snapshot.phase != PLAY:
        chance = state.pending_chance()
        if chance is not None:
            state.apply(sample_chance(chance, rng))
        elif state.snapshot.phase == JANKEN:
            seat = min(state.to_act())
            state.apply(Janken(seat, rng.choice(("rock", "paper", "scissors"))))
        elif state.snapshot.phase == TRUMP:
            seat = min(state.to_act())
            state.apply(ChooseTrump(seat, rng.choice(state.deck.colours)))
        else:
            raise AssertionError(f"unexpected phase {state.snapshot.phase}")


def assert_refused(state, before, after, rule):
    """A mismatch naming ``rule``, no moves, the state untouched; the table is restored once the card is back."""
    snap, ply = state.snapshot, state.ply
    result = interpret(state, before, after)
    assert result.mismatch is not None and result.mismatch.rule == rule, result
    assert result.mismatch.message and result.mismatch.fix
    assert result.moves == ()
    assert state.snapshot is snap and state.ply == ply
    assert not ADAPTER.restored(state, after)
    assert ADAPTER.restored(state, before), ADAPTER.differences(state, before)
    return result


def test_layout_is_the_mat_module_s():
    from engines.double_side_play import mat
    assert ADAPTER.layout(4, "standard") == mat.layout(4, "standard")
    assert {z.id for z in ADAPTER.layout(3, "trump").zones} == {"trick", *(f"s{i}.{k}" for i in range(3)
                                                                            for k in ("played", "tricks"))}


@pytest.mark.parametrize("seats, variant, seed", [(4, "standard", 7), (3, "trump", 2)])
def test_a_full_seeded_game_through_the_camera_reaches_its_outcome(seats, variant, seed):
    state, rng = setup(seed, seats, variant)
    refused = {"DSP-7.3": 0, "DSP-T1": 0, "DSP-T2": 0}
    plays = 0
    while state.outcome is None:
        s = state.snapshot
        seat = s.turn
        before = table_of(state, keep_last=rng.random() < 0.5, printed_ids=rng.random() < 0.5)
        assert ADAPTER.restored(state, before), ADAPTER.differences(state, before)
        assert interpret(state, before, before).moves == ()
        playable = state.playable(seat)
        hand = s.hands[seat]
        # Now and then an illegal physical move first: refused, state unchanged, table put back.
        wrong = [c for c in hand if c not in playable]
        if wrong and rng.random() < 0.3:
            assert_refused(state, before, lay(before, wrong[0], f"s{seat}.played"), "DSP-7.3")
            refused["DSP-7.3"] += 1
        if rng.random() < 0.05:
            other = (seat + 1 + rng.randrange(state.seats - 1)) % state.seats
            if s.hands[other] and all(p != other for p, _ in s.plays):
                result = assert_refused(state, before, lay(before, s.hands[other][0], f"s{other}.played"), "DSP-T1")
                assert f"seat {other + 1}" in result.mismatch.fix
                refused["DSP-T1"] += 1
        if rng.random() < 0.03:
            assert_refused(state, before, lay(before, playable[0], "trick"), "DSP-T2")
            refused["DSP-T2"] += 1
        card = rng.choice(playable)
        after = lay(before, card, f"s{seat}.played")
        result = interpret(state, before, after)
        assert result.mismatch is None and result.moves == (Play(seat, card),), result
        state.apply(result.moves[0])
        plays += 1
        advance(state, rng)
    assert state.outcome.winners
    assert plays >= 12 * seats and all(refused.values()), (plays, refused)


def test_two_cards_laid_at_once_are_taken_in_turn_order():
    state, _ = setup(3, 4)
    s = state.snapshot
    first, second = s.turn, (s.turn + 1) % 4
    a = state.playable(first)[0]
    before = table_of(state)
    after = lay(before, a, f"s{first}.played")
    twin = GAME.load(state.to_json())
    twin.apply(Play(first, a))
    b = twin.playable(second)[0]
    after = lay(after, b, f"s{second}.played")
    result = interpret(state, before, after)
    assert result.moves == (Play(first, a), Play(second, b))


def test_a_legal_card_laid_with_an_illegal_one_is_taken_once_the_illegal_one_is_back():
    state, _ = setup(3, 4)
    lead = state.snapshot.turn
    state.apply(Play(lead, state.playable(lead)[0]))  # (a round's first card must be seen being laid)
    s = state.snapshot
    seat, late = s.turn, (s.turn + 2) % 4
    a = state.playable(seat)[0]
    before = table_of(state)
    both = lay(lay(before, a, f"s{seat}.played"), s.hands[late][0], f"s{late}.played")
    assert interpret(state, before, both).mismatch.rule == "DSP-T1"
    fixed = lay(before, a, f"s{seat}.played")
    assert ADAPTER.interpret(state, diff(both, fixed), fixed).moves == (Play(seat, a),)


def test_unreadable_or_doubtful_cards_are_asked_not_played():
    state, _ = setup(3, 4)
    seat = state.snapshot.turn
    before = table_of(state)
    result = interpret(state, before, lay(before, UNKNOWN, f"s{seat}.played"))
    assert result.moves == () and result.mismatch is None
    assert result.questions[0].seat == seat and set(result.questions[0].choices) == set(state.playable(seat))
    card = state.playable(seat)[0]
    result = interpret(state, before, lay(before, card, f"s{seat}.played", confidence=0.3))
    assert result.moves == () and result.questions[0].choices[0] == card


def test_a_played_card_moved_to_another_seat_is_put_back_and_a_face_down_card_is_turned_up():
    state, _ = setup(3, 4)
    seat = state.snapshot.turn
    card = state.playable(seat)[0]
    state.apply(Play(seat, card))
    before = table_of(state)
    other = (seat + 2) % 4
    moved = TableSnapshot(tuple(x if x.card != card else Sighting(card, f"s{other}.played", 0, 0)
                                for x in before.sightings))
    assert_refused(state, before, moved, "DSP-T3")
    nxt = state.snapshot.turn
    assert_refused(state, before, lay(before, FACE_DOWN, f"s{nxt}.played"), "DSP-T4")


def test_cards_before_the_lead_is_known_are_refused():
    state = GAME.new(4, "standard", deal=5)
    state.apply(sample_chance(state.pending_chance(), random.Random(1)))
    card = state.snapshot.hands[0][0]
    assert_refused(state, table_of(state), lay(table_of(state), card, "s0.played"), "DSP-T1")


def test_physical_deal_takes_any_unseen_card_and_flags_a_revoke():
    state = GAME.new(4, "standard", deal="physical")
    for values in ((0, 5), (5, 4), (2, 4), (5, 3)):  # dice 1-6 lowest: seat 1 leads
        state.apply(sample_chance(state.pending_chance(), random.Random(0)).__class__(values))
    assert state.snapshot.phase == PLAY and state.snapshot.turn == 0
    events = []
    for trick in (("R1", "B7", "G1", "Y1"), ("R2", "R7")):  # seat 2 shows no red, then plays red
        for card in trick:
            seat = state.snapshot.turn
            before = table_of(state)
            index = printed.index_of(card)
            result = interpret(state, before, lay(before, f"printed:{index}", f"s{seat}.played"))
            assert result.moves == (Play(seat, card),), result
            events += state.apply(result.moves[0])
    assert any(e.type == "revoke" and e.seat == 1 for e in events)
    turn = state.snapshot.turn
    assert manual_moves(state, (turn + 1) % 4) == []
    assert len(manual_moves(state, turn)) == 48 - 6


def test_expected_lists_every_zone():
    state, _ = setup(3, 4)
    zones = {z.id for z in ADAPTER.layout(4, "standard").zones}
    assert set(expected(state)) == zones
    assert manual_moves(state, state.snapshot.turn) == state.legal_moves(state.snapshot.turn)


def test_the_last_round_s_cards_left_on_the_mat_are_not_played_in_the_next_round():
    state, rng = setup(7, 4)
    last: list[tuple[int, str]] = []
    while state.snapshot.round == 1:
        s = state.snapshot
        seat = s.turn
        card = state.playable(seat)[0]
        last = [*s.plays, (seat, card)]
        state.apply(Play(seat, card))
    advance(state, rng)
    assert state.snapshot.round == 2 and state.snapshot.phase == PLAY and len(last) == 4
    leftovers = TableSnapshot(tuple(Sighting(c, f"s{p}.played", 0, 0) for p, c in last))
    assert not ADAPTER.restored(state, leftovers)
    result = ADAPTER.interpret(state, [], leftovers)
    assert result.moves == () and result.mismatch is None
    seat = state.snapshot.turn
    card = next(c for c in state.playable(seat) if c not in {c for _, c in last})
    after = lay(leftovers, card, f"s{seat}.played")
    assert interpret(state, leftovers, after).moves == (Play(seat, card),)


def test_every_adapter_rule_id_is_defined_in_docs_tables_md():
    """DSP-Tn and DE-Tn: each id an adapter names is defined in docs/tables.md, and each defined one is used."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "tables.md").read_text(encoding="utf-8")
    for game, prefix in (("double_side_play", "DSP"), ("double_edge", "DE")):
        source = (root / "engines" / game / "table.py").read_text(encoding="utf-8")
        used = set(re.findall(rf'"({prefix}-T\d+)"', source))
        defined = set(re.findall(rf"\*\*({prefix}-T\d+)\*\*", doc))
        assert used and used == defined, (game, used, defined)
