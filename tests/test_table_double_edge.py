"""The Double-Edge table adapter (engines/double_edge/table.py, docs/tables.md).

Full seeded games are played with every face-up action seen by the camera
only: each step lays, moves or takes cards on a TableSnapshot synthesised from
the engine's own state, the changes come from companion's own diff, and the
adapter must name exactly the move made.  What the phones do (sealing the Base,
a Support or an indicator, drawing, ending a turn, the claim) is applied
directly.  Illegal physical moves are refused with a rule id and change nothing.
"""

from __future__ import annotations

import random

import pytest

from companion.camera import diff
from engines.core import FACE_DOWN, UNKNOWN, ChanceMove, Sighting, TableSnapshot
from engines.double_edge import GAME
from engines.double_edge import moves as m
from engines.double_edge.cards import ACES
from engines.double_edge.table import ADAPTER, card_choices, expected, free_pick, manual_moves
from engines.playout import sample_chance


def table_of(state) -> TableSnapshot:
    """The mat as the engine says it lies (written from the snapshot, not from the adapter)."""
    s = state.snapshot
    out = []
    if len(s.deck) + s.deck_unknown:
        out.append(Sighting(FACE_DOWN, "deck", 0, 0))
    for seat in (0, 1):
        z = f"s{seat}."
        for i, card in enumerate(s.bases[seat]):
            out.append(Sighting(card, z + "base", 0, 0, layer=len(s.bases[seat]) - 1 - i))
        for i, _ in enumerate(s.sealed_bases[seat]):
            out.append(Sighting(FACE_DOWN, z + "base", 0, 0, layer=i))
        if s.strikers[seat]:
            stack = [s.strikers[seat], *s.middles[seat]] + ([s.supports[seat]] if s.middles[seat] else [])
            for i, card in enumerate(stack):
                out.append(Sighting(card, z + "striker", 0, 0, layer=len(stack) - 1 - i))
        if s.supports[seat] and not s.middles[seat]:
            out.append(Sighting(s.supports[seat] if s.support_up[seat] else FACE_DOWN, z + "support", 0, 0))
        if s.indicators[seat]:
            out.append(Sighting(s.indicators[seat] if s.indicators_up else FACE_DOWN, z + "indicator", 0, 0))
        for i, card in enumerate(s.discards[seat]):
            out.append(Sighting(card, z + "discard", 0, 0, layer=i))
    return TableSnapshot(tuple(out))


def plus(table: TableSnapshot, *sightings: Sighting) -> TableSnapshot:
    return TableSnapshot((*table.sightings, *sightings))


def minus(table: TableSnapshot, zone: str, card: str | None = None) -> TableSnapshot:
    """Without the cards of ``zone`` (only ``card`` when given)."""
    return TableSnapshot(tuple(x for x in table.sightings if not (x.zone == zone and (card is None or x.card == card))))


def top_layer(table: TableSnapshot, zone: str) -> int:
    return max((x.layer for x in table.in_zone(zone)), default=-1)


def interpret(state, before, after):
    return ADAPTER.interpret(state, diff(before, after), after)


def camera_view(state, move, before: TableSnapshot) -> TableSnapshot | None:
    """The table after ``move`` is made by hand, for the moves the camera sees; None for phone moves."""
    s = state.snapshot
    seat = move.seat
    z = f"s{seat}."
    if isinstance(move, m.PlayStriker):
        return plus(before, Sighting(move.card, z + "striker", 0, 0))
    if isinstance(move, m.DiscardSupport):
        support = s.supports[seat]
        n = top_layer(before, z + "discard")
        after = minus(before, z + "support")
        return plus(after, Sighting(move.card, z + "discard", 0, 0, layer=n + 1),
                    Sighting(support, z + "discard", 0, 0, layer=n + 2))
    if isinstance(move, m.PlayGambit):
        after = minus(minus(before, z + "striker"), z + "support")
        n = top_layer(before, z + "discard")
        old = ([s.supports[seat]] if s.supports[seat] else []) + list(reversed(s.middles[seat]))
        old += [s.strikers[seat]] if s.strikers[seat] else []
        for i, card in enumerate(old):
            after = plus(after, Sighting(card, z + "discard", 0, 0, layer=n + 1 + i))
        k = len(move.cards)
        return plus(after, *(Sighting(c, z + "striker", 0, 0, layer=k - 1 - i) for i, c in enumerate(move.cards)))
    if isinstance(move, m.TakeDiscard | m.TakeDiscards):
        piles = (move.pile,) if isinstance(move, m.TakeDiscard) else (seat, 1 - seat)
        after = before
        for p in piles:
            after = minus(after, f"s{p}.discard", s.discards[p][-1])
        return after
    return None


def same(found, move) -> bool:
    """The adapter's move is the one made (``seen`` is the camera's extra evidence)."""
    a, b = found.to_json(), move.to_json()
    a.pop("seen", None)
    b.pop("seen", None)
    return a == b


def assert_refused(state, before, after, rule):
    snap, ply = state.snapshot, state.ply
    result = interpret(state, before, after)
    rules = {rule} if isinstance(rule, str) else set(rule)
    assert result.mismatch is not None and result.mismatch.rule in rules, result
    assert result.mismatch.message and result.mismatch.fix
    assert result.moves == ()
    assert state.snapshot is snap and state.ply == ply
    assert not ADAPTER.restored(state, after)
    assert ADAPTER.restored(state, before), ADAPTER.differences(state, before)
    return result


def illegal_attempts(state, before, rng, refused) -> None:
    """Illegal physical moves tried now and then; each is refused and undone."""
    s = state.snapshot
    seat = next(iter(state.to_act()))
    other = 1 - seat
    if s.hands[other] and rng.random() < 0.2:
        assert_refused(state, before, plus(before, Sighting(s.hands[other][0], f"s{other}.striker", 0, 0)), "DE-T1")
        refused.add("DE-T1")
    if s.hands[seat] and rng.random() < 0.1:
        assert_refused(state, before, plus(before, Sighting(s.hands[seat][0], f"s{seat}.support", 0, 0)), "DE-T4")
        refused.add("DE-T4")
    if s.hands[seat] and rng.random() < 0.1:
        assert_refused(state, before, plus(before, Sighting(s.hands[seat][0], f"s{other}.striker", 0, 0)), "DE-T3")
        refused.add("DE-T3")
    if s.strikers[seat] and s.hands[seat] and rng.random() < 0.2:
        assert_refused(state, before, plus(before, Sighting(s.hands[seat][0], f"s{seat}.striker", 0, 0)),
                        "DE-14.2" if s.stage == 3 else "DE-6.2")
        refused.add("DE-6.2")


def play_game(variant: str, seed: int, max_rounds: int = 40):
    state = GAME.new(2, variant, deal=seed, options={"max_rounds": max_rounds})
    rng = random.Random(seed)
    seen: dict[str, int] = {}
    refused: set[str] = set()
    committed: dict[int, str] = {}
    table = table_of(state)
    while state.outcome is None:
        chance = state.pending_chance()
        if chance is not None:
            state.apply(sample_chance(chance, rng))
            continue
        s = state.snapshot
        seat = min(state.to_act())
        moves = state.legal_moves(seat)
        stale = not ADAPTER.restored(state, table)
        strikers = [mv for mv in moves if mv.type == "play-striker"]
        if stale and s.phase == "turn" and strikers and rng.random() < 0.5:
            # The players have not tidied up after the action turn yet (a defeated Striker still in
            # place, indicators where they were revealed) and a new Striker is laid: still read right.
            move = rng.choice(strikers)
            after = plus(table, Sighting(move.card, f"s{seat}.striker", 0, 0))
            result = interpret(state, table, after)
            assert result.mismatch is None and result.moves == (move,), (move, result)
            state.apply(move)
            table = after
            seen["lazy-striker"] = seen.get("lazy-striker", 0) + 1
            continue
        if len(committed) == 2 and s.phase != "indicate":
            # The indicators are turned over where they lie (the engine already resolved the action
            # turn): nothing to do and nobody to blame.
            flipped = TableSnapshot(tuple(Sighting(committed[int(x.zone[1])], x.zone, 0, 0)
                                          if x.card == FACE_DOWN and x.zone.endswith(".indicator") else x
                                          for x in table.sightings))
            result = interpret(state, table, flipped)
            assert result.mismatch is None and result.moves == (), result
            table = flipped
            committed.clear()
        # The table catches up with what the engine resolved (combat, reveals, discards).
        new = table_of(state)
        result = interpret(state, table, new)
        assert result.mismatch is None and result.moves == (), (s.phase, result)
        table = new
        assert ADAPTER.restored(state, table), ADAPTER.differences(state, table)
        if s.phase == "turn":
            illegal_attempts(state, table, rng, refused)
            # Prefer actions over ending the turn, so Strikers and Supports come and go.
            actions = [mv for mv in moves if mv.type in ("play-striker", "play-support", "discard-support",
                                                          "play-gambit")]
            gambits = [mv for mv in actions if mv.type == "play-gambit"]
            move = rng.choice(gambits) if gambits else (
                rng.choice(actions) if actions and rng.random() < 0.6 else rng.choice(moves))
        else:
            move = rng.choice(moves)
        after = camera_view(state, move, table)
        if after is not None:
            result = interpret(state, table, after)
            assert result.mismatch is None and len(result.moves) == 1 and same(result.moves[0], move), (move, result)
            state.apply(result.moves[0])
            table = after
        elif s.phase == "claim" and move.take and rng.random() < 0.5:
            # The winner lays its Support under its Base: the camera takes that as the claim.
            n = -1
            after = table
            for card in s.claim_cards:
                after = minus(minus(after, f"s{seat}.support", card), f"s{seat}.striker", card)
                after = plus(after, Sighting(card, f"s{seat}.base", 0, 0, layer=n))
                n -= 1
            result = interpret(state, table, after)
            assert result.moves == (m.Claim(seat, True),), result
            state.apply(result.moves[0])
            table = after
        else:
            state.apply(move)  # a phone move
            if isinstance(move, m.Indicate):
                committed[move.seat] = move.card
            if isinstance(move, m.PlaySupport | m.Indicate | m.BuildBase):
                # The face-down card(s) the phone sealed now lie on the mat: nothing to do but wait.
                # (An indicator is laid as a back; the engine may already have resolved the action turn.)
                zone = f"s{move.seat}.indicator"
                new = plus(table, Sighting(FACE_DOWN, zone, 0, 0)) if isinstance(move, m.Indicate) \
                    else table_of(state)
                result = interpret(state, table, new)
                assert result.mismatch is None and result.moves == (), result
                table = new
        seen[move.type] = seen.get(move.type, 0) + 1
    return state, seen, refused


@pytest.mark.parametrize("variant, seed", [("standard", 3), ("azbar", 2), ("extra-turn", 5)])
def test_a_full_seeded_game_through_the_camera_reaches_its_outcome(variant, seed):
    state, seen, refused = play_game(variant, seed)
    assert state.outcome is not None
    assert seen.get("play-striker", 0) >= 2 and seen.get("indicate", 0) >= 2, seen
    if variant == "standard":
        assert {"DE-T1", "DE-6.2"} <= refused, refused
    if variant == "azbar":
        assert seen.get("play-gambit", 0) >= 1, seen


def test_the_camera_sees_discards_taken_and_supports_removed_somewhere_in_a_few_games():
    kinds: set[str] = set()
    refused: set[str] = set()
    for seed in range(1, 5):
        _, seen, r = play_game("standard", seed, max_rounds=25)
        kinds |= set(seen)
        refused |= r
    assert {"discard-support", "play-support", "take-discard"} <= kinds, kinds
    assert {"DE-T1", "DE-T3", "DE-T4", "DE-6.2"} <= refused


def started(seed=3):
    """A seeded game just past the coin: the first player's turn."""
    state = GAME.new(2, "standard", deal=seed)
    rng = random.Random(seed)
    while state.snapshot.phase != "turn":
        chance = state.pending_chance()
        if chance is not None:
            state.apply(sample_chance(chance, rng))
        else:
            seat = min(state.to_act())
            state.apply(state.legal_moves(seat)[0])
    return state


def test_a_face_down_support_before_its_seal_is_asked_and_under_no_striker_refused():
    state = started()
    seat = min(state.to_act())
    before = table_of(state)
    after = plus(before, Sighting(FACE_DOWN, f"s{seat}.support", 0, 0))
    assert_refused(state, before, after, "DE-6.4")
    card = state.snapshot.hands[seat][0]
    state.apply(m.PlayStriker(seat, card))
    before = table_of(state)
    after = plus(before, Sighting(FACE_DOWN, f"s{seat}.support", 0, 0))
    result = interpret(state, before, after)
    assert result.mismatch is None and result.moves == ()
    assert result.questions[0].seat == seat and set(result.questions[0].choices) == set(state.snapshot.hands[seat])


def test_a_striker_moved_to_the_wrong_zone_is_put_back():
    state = started()
    seat = min(state.to_act())
    card = state.snapshot.hands[seat][0]
    state.apply(m.PlayStriker(seat, card))
    before = table_of(state)
    after = plus(minus(before, f"s{seat}.striker"), Sighting(card, f"s{seat}.indicator", 0, 0))
    result = assert_refused(state, before, after, "DE-T3")
    assert card in result.mismatch.fix
    assert any("Striker" in d for d in ADAPTER.differences(state, after))


def test_a_discard_without_a_support_is_refused():
    state = started()
    seat = min(state.to_act())
    card = state.snapshot.hands[seat][0]
    before = table_of(state)
    assert_refused(state, before, plus(before, Sighting(card, f"s{seat}.discard", 0, 0, layer=9)), "DE-6.3")


def test_a_doubtful_striker_is_asked():
    state = started()
    seat = min(state.to_act())
    card = state.snapshot.hands[seat][0]
    before = table_of(state)
    result = interpret(state, before, plus(before, Sighting(card, f"s{seat}.striker", 0, 0, confidence=0.2)))
    assert result.moves == () and result.questions and result.questions[0].choices[0] == card


def test_expected_covers_the_mat_and_manual_moves_are_the_legal_ones():
    state = started()
    assert set(expected(state)) == {z.id for z in ADAPTER.layout(2, "standard").zones}
    seat = min(state.to_act())
    assert manual_moves(state, seat) == state.legal_moves(seat)
    assert set(card_choices(state, seat)) == {*state.snapshot.hands[seat], *("AH", "AS", "AD", "AC")[2 * seat:2 * seat + 2]}


# ---------------------------------------------------------------- physical deal


def physical_bases():
    """A physical deal with both Bases sealed on the phones and waiting to be turned over."""
    state = GAME.new(2, "standard", deal="physical")
    state.apply(m.BuildBase(0, ("2H", "4D", "6H")))  # red, even, small: a Straight
    state.apply(m.BuildBase(1, ("3C", "5S", "7C")))  # black, odd, small
    assert state.snapshot.phase == "reveal"
    return state


def base_sightings(seat, cards, layers):
    return tuple(Sighting(c, f"s{seat}.base", 0, 0, layer=n) for c, n in zip(cards, layers, strict=True))


def test_physical_bases_are_read_from_their_corners_top_is_the_highest_layer():
    state = physical_bases()
    before = table_of(state)
    assert ADAPTER.restored(state, before)
    after = minus(before, "s0.base")
    after = plus(after, *base_sightings(0, ("6H", "2H", "4D"), (0, 2, 1)))
    result = interpret(state, before, after)
    assert result.moves == (m.Reveal(0, "base", ("2H", "4D", "6H")),)
    state.apply(result.moves[0])
    # A wrong order is the engine's DE-15.4 refusal, with what to turn over.
    before2 = after
    wrong = plus(minus(before2, "s1.base"), *base_sightings(1, ("3C", "5S", "7C"), (2, 0, 1)))
    result = interpret(state, before2, wrong)
    assert result.mismatch.rule == "DE-15.4" and result.moves == () and "sealed" in result.mismatch.fix


def test_an_ambiguous_base_is_asked_of_its_owner_unless_one_order_forms_a_pattern():
    state = physical_bases()
    before = table_of(state)
    flat = plus(minus(before, "s1.base"), *base_sightings(1, ("3C", "5S", "7C"), (0, 0, 0)))
    result = interpret(state, before, flat)
    assert result.moves == () and result.questions[0].seat == 1
    assert "3C-5S-7C" in result.questions[0].choices and len(result.questions[0].choices) == 6
    # An Anti stack: only the orders that keep the pattern are offered (its reverse always does, DE-4.4).
    state = GAME.new(2, "standard", deal="physical")
    state.apply(m.BuildBase(0, ("2C", "JC", "2S")))
    state.apply(m.BuildBase(1, ("3S", "5S", "7S")))
    before = table_of(state)
    flat = plus(minus(before, "s0.base"), *base_sightings(0, ("2S", "2C", "JC"), (0, 0, 0)))
    result = interpret(state, before, flat)
    assert result.moves == () and set(result.questions[0].choices) == {"2C-JC-2S", "2S-JC-2C"}


def test_physical_indicators_are_revealed_when_turned_over():
    state = physical_bases()
    state.apply(m.Reveal(0, "base", ("2H", "4D", "6H")))
    state.apply(m.Reveal(1, "base", ("3C", "5S", "7C")))
    state.apply(ChanceMove((0,)))
    state.apply(m.PlayStriker(0, "QH"))
    state.apply(m.Draw(0))
    state.apply(m.EndTurn(1))  # a full hand: the turn ends on the phone (DE-7.5)
    assert state.snapshot.phase == "indicate"
    state.apply(m.Indicate(0, "KD"))
    state.apply(m.Indicate(1, "AC"))
    assert state.snapshot.pending == ((0, "indicator"), (1, "indicator"))
    before = table_of(state)
    after = plus(minus(before, "s0.indicator"), Sighting("KD", "s0.indicator", 0, 0))
    after = plus(minus(after, "s1.indicator"), Sighting("AC", "s1.indicator", 0, 0))
    result = interpret(state, before, after)
    assert result.moves == (m.Reveal(0, "indicator", ("KD",)), m.Reveal(1, "indicator", ("AC",)))
    lie = plus(minus(before, "s0.indicator"), Sighting("KS", "s0.indicator", 0, 0))
    assert interpret(state, before, lie).mismatch.rule == "DE-15.4"


def test_a_base_restacked_in_another_order_is_refused():
    state = started()
    seat = min(state.to_act())
    base = state.snapshot.bases[seat]
    before = table_of(state)
    layers = (0, 1, 2)  # the top card at the bottom: the stack is upside down
    after = plus(minus(before, f"s{seat}.base"), *base_sightings(seat, base, layers))
    result = assert_refused(state, before, after, "DE-T2")
    assert "-".join(base) in result.mismatch.fix


def test_a_physical_support_is_revealed_when_attacked_and_named_when_discarded():
    state = physical_bases()
    state.apply(m.Reveal(0, "base", ("2H", "4D", "6H")))
    state.apply(m.Reveal(1, "base", ("3C", "5S", "7C")))
    state.apply(ChanceMove((0,)))
    before = table_of(state)
    # Seat 1 lays QH as its Striker (the camera), then seals 9S face down under it (the phone).
    after = plus(before, Sighting("QH", "s0.striker", 0, 0))
    assert interpret(state, before, after).moves == (m.PlayStriker(0, "QH"),)
    state.apply(m.PlayStriker(0, "QH"))
    with_back = plus(after, Sighting(FACE_DOWN, "s0.support", 0, 0))
    assert interpret(state, after, with_back).questions[0].seat == 0
    state.apply(m.PlaySupport(0, "9S"))
    assert interpret(state, after, with_back) == type(interpret(state, after, with_back))()
    # Removing it: 8C is discarded, then the Support lands face up on top.
    gone = plus(minus(with_back, "s0.support"), Sighting("8C", "s0.discard", 0, 0, layer=0),
                Sighting("9S", "s0.discard", 0, 0, layer=1))
    assert interpret(state, with_back, gone).moves == (m.DiscardSupport(0, "8C", "9S"),)
    # A Support that lands as another card than the sealed one is refused (DE-15.4).
    lie = plus(minus(with_back, "s0.support"), Sighting("8C", "s0.discard", 0, 0, layer=0),
               Sighting("9C", "s0.discard", 0, 0, layer=1))
    assert interpret(state, with_back, lie).mismatch.rule == "DE-15.4"
    # Only the Support is seen on the pile: the seat is asked which card went under it.
    half = plus(minus(with_back, "s0.support"), Sighting("9S", "s0.discard", 0, 0, layer=1))
    result = interpret(state, with_back, half)
    assert result.moves == () and result.mismatch is None and result.questions[0].seat == 0
    # Attacked: the sealed Support is turned face up and read.
    state.apply(m.Draw(0))
    state.apply(m.EndTurn(1))
    state.apply(m.Indicate(0, "4S"))
    state.apply(m.Indicate(1, "AD"))  # seat 2's red ace attacks seat 1's Striker (DE-8.3)
    state.apply(m.Reveal(0, "indicator", ("4S",)))
    state.apply(m.Reveal(1, "indicator", ("AD",)))
    assert state.snapshot.pending == ((0, "support"),)
    before = table_of(state)
    after = plus(minus(before, "s0.support"), Sighting("9S", "s0.support", 0, 0))
    assert interpret(state, before, after).moves == (m.Reveal(0, "support", ("9S",)),)


def test_an_ace_left_on_the_indicator_zone_after_the_action_turn_is_catching_up_not_a_fault():
    state = physical_bases()
    state.apply(m.Reveal(0, "base", ("2H", "4D", "6H")))
    state.apply(m.Reveal(1, "base", ("3C", "5S", "7C")))
    state.apply(ChanceMove((1,)))  # seat 2 goes first
    state.apply(m.EndTurn(1))
    state.apply(m.EndTurn(0))
    state.apply(m.Indicate(0, "AS"))
    state.apply(m.Indicate(1, "KD"))
    before = table_of(state)
    shown = plus(minus(minus(before, "s0.indicator"), "s1.indicator"),
                 Sighting("AS", "s0.indicator", 0, 0), Sighting("KD", "s1.indicator", 0, 0))
    result = interpret(state, before, shown)
    assert result.moves == (m.Reveal(0, "indicator", ("AS",)), m.Reveal(1, "indicator", ("KD",)))
    for move in result.moves:
        state.apply(move)
    assert state.snapshot.phase == "turn"  # black ace: Base top against Base top, then round 2
    # The ace still lies face up where it was revealed: no mismatch, but the table is not restored.
    result = ADAPTER.interpret(state, [], shown)
    assert result.mismatch is None and result.moves == ()
    assert any("AS" in d for d in ADAPTER.differences(state, shown))
    # A face-down card laid on the Support zone of the seat that is not playing, under no Striker.
    seat = min(state.to_act())
    table = table_of(state)
    other = 1 - seat
    assert_refused(state, table, plus(table, Sighting(FACE_DOWN, f"s{other}.support", 0, 0)),
                   "DE-6.4")


# ---------------------------------------------------------------- unsure camera: ask, never guess


def test_a_base_partly_read_is_asked_of_its_owner_and_the_answer_is_the_reveal():
    state = physical_bases()
    before = table_of(state)
    # The middle card's corner is unreadable: two of three read, the third an unknown card.
    partial = (Sighting("2H", "s0.base", 0, 0, layer=2), Sighting(UNKNOWN, "s0.base", 0, 0, layer=1),
               Sighting("6H", "s0.base", 0, 0, layer=0))
    result = interpret(state, before, plus(minus(before, "s0.base"), *partial))
    assert result.moves == () and result.mismatch is None
    (question,) = [q for q in result.questions if q.seat == 0]
    # Only the sealed cards' orders that keep a pattern and put 2H above 6H, as read.
    assert "2H-4D-6H" in question.choices and all(c.index("2H") < c.index("6H") for c in question.choices)
    move = ADAPTER.answer(state, 0, "2H-4D-6H")
    assert move == m.Reveal(0, "base", ("2H", "4D", "6H"))
    state.apply(move)
    # A card read that was never sealed is refused at once, even before the rest is read.
    strange = plus(minus(before, "s1.base"), Sighting("9D", "s1.base", 0, 0, layer=2))
    assert interpret(state, before, strange).mismatch.rule == "DE-15.4"


def test_an_unreadable_indicator_or_striker_is_asked_and_answered():
    state = physical_bases()
    state.apply(m.Reveal(0, "base", ("2H", "4D", "6H")))
    state.apply(m.Reveal(1, "base", ("3C", "5S", "7C")))
    state.apply(ChanceMove((0,)))
    before = table_of(state)
    blur = plus(before, Sighting(UNKNOWN, "s0.striker", 0, 0))
    result = interpret(state, before, blur)
    assert result.moves == () and result.questions[0].seat == 0 and "QH" in result.questions[0].choices
    assert "AH" not in result.questions[0].choices  # an ace is never a Striker (DE-2.4)
    assert ADAPTER.answer(state, 0, "QH") == m.PlayStriker(0, "QH")
    assert ADAPTER.answer(state, 1, "QH") is None  # not seat 2's turn
    state.apply(m.PlayStriker(0, "QH"))
    state.apply(m.Draw(0))
    state.apply(m.EndTurn(1))
    state.apply(m.Indicate(0, "AS"))
    state.apply(m.Indicate(1, "9C"))
    before = table_of(state)
    after = plus(minus(before, "s0.indicator"), Sighting(UNKNOWN, "s0.indicator", 0, 0))
    after = plus(minus(after, "s1.indicator"), Sighting("9C", "s1.indicator", 0, 0, confidence=0.4))
    result = interpret(state, before, after)
    assert result.moves == () and {q.seat for q in result.questions} == {0, 1}
    assert all(q.choices for q in result.questions)
    assert ADAPTER.answer(state, 0, "AS") == m.Reveal(0, "indicator", ("AS",))
    assert ADAPTER.answer(state, 0, "nonsense") is None


def test_a_support_discarded_on_a_squared_pile_asks_for_the_card_under_it():
    state = physical_bases()
    state.apply(m.Reveal(0, "base", ("2H", "4D", "6H")))
    state.apply(m.Reveal(1, "base", ("3C", "5S", "7C")))
    state.apply(ChanceMove((0,)))
    state.apply(m.PlayStriker(0, "QH"))
    state.apply(m.PlaySupport(0, "8S"))
    before = table_of(state)
    # The pile is squared: only the Support, on top, shows.
    after = plus(minus(before, "s0.support"), Sighting("8S", "s0.discard", 0, 0))
    result = interpret(state, before, after)
    assert result.moves == () and "8S" in result.questions[0].prompt and "JD" in result.questions[0].choices
    assert ADAPTER.answer(state, 0, "JD") == m.DiscardSupport(0, "JD", "8S")
    state.apply(ADAPTER.answer(state, 0, "JD"))
    assert state.snapshot.discards[0] == ("JD", "8S")


def test_a_doubtful_strange_card_on_a_turned_base_is_asked_not_refused():
    state = physical_bases()
    before = table_of(state)
    partial = (Sighting("2H", "s0.base", 0, 0, layer=2), Sighting("AD", "s0.base", 0, 0, layer=1, confidence=0.5),
               Sighting("6H", "s0.base", 0, 0, layer=0))
    result = interpret(state, before, plus(minus(before, "s0.base"), *partial))
    assert result.mismatch is None and result.moves == () and result.questions[0].seat == 0


# ---------------------------------------------------------------- physical deal: what a phone is offered

PHONE_TYPES = {"draw", "take-discards", "take-discard", "end-turn", "claim"}
"""Moves that name no card: every one listed must be accepted as it stands."""


def named_cards(move) -> set[str]:
    cards = set(getattr(move, "cards", ()) or ())
    cards |= {c for c in (getattr(move, "card", None), getattr(move, "seen", None)) if c}
    return cards


def check_offer(state, seat) -> list:
    """The phone's moves for an acting ``seat`` of a physical deal: accepted, within the cap, leaking nothing."""
    offered = manual_moves(state, seat)
    pick = free_pick(state, seat)
    if state.snapshot.phase == "build":
        assert offered is None and pick["type"] == "build-base" and pick["from"] == "deck"
        return []
    if pick is not None:  # a sealed card picked from the whole deck: the server names no card for it
        assert pick["from"] == "deck" and set(pick.get("also", [])) <= set(ACES[seat])
    assert offered or pick, (state.snapshot.phase, seat)
    assert len(offered) <= 60 and len(set(offered)) == len(offered)
    secret = state.hidden_from(seat)
    for move in offered:
        assert move.actor == seat
        assert not named_cards(move) & secret, (move, secret)
        # Naming no card, its own sealed cards (reveal), or a card it may hold for a seal: all accepted.
        assert move.type in PHONE_TYPES | {"reveal"}, move
        assert state.check(move).ok, (move, state.check(move))
    return offered


def as_physical(move, physical):
    """The seeded game's move as the physical table makes it: a face-down Support leaving is named (DE-15.4)."""
    s = physical.snapshot
    if isinstance(move, m.DiscardSupport) and not s.support_up[move.seat]:
        return m.DiscardSupport(move.seat, move.card, s.supports[move.seat])
    if isinstance(move, m.PlayGambit) and s.supports[move.seat] and not s.support_up[move.seat]:
        return m.PlayGambit(move.seat, move.cards, s.supports[move.seat])
    return move


@pytest.mark.parametrize(("variant", "seed"), [("standard", 5), ("azbar", 8)])
def test_a_physical_deal_offers_each_acting_phone_what_it_enters(variant, seed):
    """A seeded game picks the players' moves; a physical twin follows it (its phones reveal what was
    sealed).  At every step each acting seat of the twin is offered a non-empty list (the Base
    aside) of moves the engine accepts, naming only cards that seat may hold, and the move the
    player makes on the phone is among them."""
    seeded = GAME.new(2, variant, deal=seed, options={"max_rounds": 12})
    physical = GAME.new(2, variant, deal="physical", options={"max_rounds": 12})
    rng = random.Random(seed)
    offered_types: set[str] = set()
    while seeded.outcome is None:
        while physical.snapshot.phase == "reveal" and physical.outcome is None:
            seat = min(physical.to_act())
            reveals = check_offer(physical, seat)
            assert [mv.type for mv in reveals] == ["reveal"]
            physical.apply(reveals[0])
            offered_types.add("reveal")
        chance = seeded.pending_chance()
        if chance is not None:
            if seeded.snapshot.phase == "shuffle":
                seeded.apply(sample_chance(chance, rng))
            else:
                coin = sample_chance(chance, rng)
                seeded.apply(coin)
                physical.apply(coin)
            continue
        for seat in physical.to_act():
            offered_types |= {mv.type for mv in check_offer(physical, seat)}
        assert physical.to_act() == seeded.to_act()
        seat = min(seeded.to_act())
        move = rng.choice(seeded.legal_moves(seat))
        if move.type in PHONE_TYPES:
            assert move in manual_moves(physical, seat), move
        if move.type in ("indicate", "play-support"):  # picked from the deck; the engine checks the card
            pick = free_pick(physical, seat)
            assert pick is not None and pick["type"] == move.type, (move, pick)
            offered_types.add(move.type)
        seeded.apply(move)
        physical.apply(as_physical(move, physical))
    while physical.outcome is None:  # the last reveals of the physical twin
        seat = min(physical.to_act())
        physical.apply(check_offer(physical, seat)[0])
    assert physical.outcome == seeded.outcome
    assert {"reveal", "draw", "indicate", "play-support"} <= offered_types, offered_types
    for seat in (0, 1):
        assert manual_moves(physical, seat) == []


def test_a_seeded_deal_keeps_offering_the_legal_moves_and_an_idle_seat_nothing():
    state = started()
    seat = min(state.to_act())
    assert manual_moves(state, seat) == state.legal_moves(seat)
    physical = physical_bases()
    physical.apply(m.Reveal(0, "base", ("2H", "4D", "6H")))
    assert manual_moves(physical, 0) == []  # revealed already: nothing waits for seat 1
    assert manual_moves(physical, 1) == [m.Reveal(1, "base", ("3C", "5S", "7C"))]


def test_a_physical_sealed_card_is_picked_from_the_whole_deck_so_no_offer_says_where_a_card_lies():
    """The Support and the indicator of a physical deal are picked from the whole deck (free_pick): a list
    of the cards a seat may hold would name, or leave out, the card the other seat sealed."""
    state = physical_bases()
    state.apply(m.Reveal(0, "base", ("2H", "4D", "6H")))
    state.apply(m.Reveal(1, "base", ("3C", "5S", "7C")))
    state.apply(ChanceMove((0,)))
    state.apply(m.PlayStriker(0, "QH"))
    offered = manual_moves(state, 0)
    assert m.Draw(0) in offered and not any(mv.type in ("play-striker", "play-support") for mv in offered)
    assert free_pick(state, 0) == {"type": "play-support", "seat": 0, "field": "card", "count": 1, "list": False,
                                   "from": "deck"}
    state.apply(m.PlaySupport(0, "9S"))
    state.apply(m.Draw(0))
    state.apply(m.PlayStriker(1, "JC"))
    assert free_pick(state, 1) == free_pick(state.copy(), 1)  # the same offer whatever seat 1 sealed
    assert "9S" not in str(manual_moves(state, 1)) + str(free_pick(state, 1))
    refused = state.check(m.PlaySupport(1, "9S"))  # the engine still keeps card conservation (DE-15.2)
    assert not refused.ok
    state.apply(m.PlaySupport(1, "10C"))
    state.apply(m.Draw(1))
    assert free_pick(state, 1)["type"] == "indicate" and free_pick(state, 1)["also"] == list(ACES[1])
    assert manual_moves(state, 1) == []


def test_a_physical_tables_acting_phone_is_sent_a_list_of_moves(tmp_path):
    from companion.config import TableSpec
    from tests.support.server import Phone, thread_server

    with thread_server(tmp_path, [TableSpec("double-edge", "standard", 2, deal="physical")]) as srv:
        table = next(iter(srv.server.hub.tables.values()))
        phones = [Phone(srv.url) for _ in range(2)]
        try:
            for i, phone in enumerate(phones):
                assert phone.call("join", {"table": table.id, "token": table.seats[i].token})["ok"]
            bases = [("2H", "4D", "6H"), ("3C", "5S", "7C")]
            for i, phone in enumerate(phones):
                ack = phone.call("play", {"table": table.id, "move": m.BuildBase(i, bases[i]).to_json()})
                assert ack["ok"], ack
            seq = table.chain.entries[-1]["seq"]
            view = phones[0].wait_for(lambda e, d: e == "view" and d["seq"] >= seq and d.get("moves"))[1]
            assert view["moves"] == [m.Reveal(0, "base", bases[0]).to_json()]
            for i, phone in enumerate(phones):
                ack = phone.call("play", {"table": table.id, "move": m.Reveal(i, "base", bases[i]).to_json()})
                assert ack["ok"], ack
            # The coin is the server's; then the first player's phone is offered its turn's moves.
            first = table.state.snapshot.first
            assert table.state.snapshot.phase == "turn"
            view = phones[first].wait_for(lambda e, d: e == "view" and d["view"].get("turn") == first and d["moves"])[1]
            # Seven cards in hand: the turn ends with a confirmation (DE-7.5), no sealed Support yet.
            assert view["moves"] == [{"type": "end-turn", "seat": first}]
        finally:
            for phone in phones:
                phone.close()
