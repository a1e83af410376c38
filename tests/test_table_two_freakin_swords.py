"""The Two Freakin' Swords table adapter (engines/two_freakin_swords/table.py, docs/tables-two-freakin-swords.md).

Whole seeded fights are played through the camera's side: each card laid,
turned up or tidied away changes a physical mat model; the changes come from
companion's own diff of two snapshots, and the adapter must ask for each seal
and find exactly each reveal.  Opening hands, announcements (lunges, coin
passes) and the seals themselves are phone moves applied directly.  Illegal
physical moves are refused with a rule id, leave the state as it was, and the
table is restored once the card is put back.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest

from companion.camera import diff
from engines.core import FACE_DOWN, UNKNOWN, Sighting, TableSnapshot
from engines.playout import sample_chance
from engines.two_freakin_swords import GAME, Place, Reveal, mat, printed
from engines.two_freakin_swords.cards import KINDS, kind_of, side_of
from engines.two_freakin_swords.rules import PLACE_PHASES, REVEAL_PHASES
from engines.two_freakin_swords.seating import seat_of
from engines.two_freakin_swords.table import ADAPTER, arm_of, card_of, expected, manual_moves, zone_of


def name(card: str) -> str:
    """How the camera names a printed card's face."""
    return f"{printed.PREFIX}{printed.index_of(card)}"


class Mat:
    """The physical mat: what lies on each arm spot, changed only by what players do."""

    def __init__(self) -> None:
        self.spots: dict[str, list[Sighting]] = defaultdict(list)

    def snapshot(self) -> TableSnapshot:
        return TableSnapshot(tuple(x for zone in sorted(self.spots) for x in self.spots[zone]))

    def lay(self, arm: str, side: str) -> None:
        zone = zone_of(arm)
        self.spots[zone].append(Sighting(FACE_DOWN, zone, 0, 0, back=side))

    def face(self, arm: str, card: str, confidence: float = 1.0) -> None:
        zone = zone_of(arm)
        self.spots[zone].append(Sighting(name(card), zone, 0, 0, confidence=confidence))

    def turn_up(self, arm: str, card: str, confidence: float = 1.0) -> None:
        zone = zone_of(arm)
        back = next(x for x in self.spots[zone] if x.card == FACE_DOWN)
        self.spots[zone].remove(back)
        self.face(arm, card, confidence)

    def turn_down(self, arm: str, card: str) -> None:
        zone = zone_of(arm)
        self.spots[zone] = [x for x in self.spots[zone] if x.card != name(card)]
        self.lay(arm, side_of(card))

    def take_back(self, arm: str) -> None:
        """The last card put on the spot goes back to a hand."""
        self.spots[zone_of(arm)].pop()

    def gather(self, names: set[str]) -> None:
        for zone in self.spots:
            self.spots[zone] = [x for x in self.spots[zone] if x.card not in names]

    def clear(self) -> None:
        self.spots.clear()

    def copy(self) -> Mat:
        twin = Mat()
        for zone, xs in self.spots.items():
            twin.spots[zone] = list(xs)
        return twin


def see(state, before: TableSnapshot, after: TableSnapshot):
    return ADAPTER.interpret(state, diff(before, after), after)


def assert_refused(state, before: TableSnapshot, after: TableSnapshot, rule: str):
    """A mismatch naming ``rule``, no moves, the state untouched; the table is restored once the card is back."""
    snap, ply, data = state.snapshot, state.ply, state.to_json()
    result = see(state, before, after)
    assert result.mismatch is not None and result.mismatch.rule == rule, result
    assert result.mismatch.message and result.mismatch.fix
    assert result.moves == ()
    assert state.snapshot is snap and state.ply == ply and state.to_json() == data
    assert not ADAPTER.restored(state, after)
    assert ADAPTER.restored(state, before), ADAPTER.differences(state, before)
    return result


def phone(state, rng: random.Random, mat_: Mat, lunge: float, said: Counter | None = None) -> bool:
    """Chance, opening hands and announcements (device and phones); True if something was applied."""
    s = state.snapshot
    chance = state.pending_chance()
    if chance is not None:
        if s.reshuffle is not None:  # the discard pile, left-overs on the mat included, is gathered and shuffled
            mat_.gather({name(c) for c in s.discards[s.reshuffle]})
        state.apply(sample_chance(chance, rng))
        return True
    if s.phase in ("opening", "announce"):
        seat = min(state.to_act())
        moves = state.legal_moves(seat)
        lunges = [m for m in moves if getattr(m, "lunge_at", None)]
        move = rng.choice(lunges) if lunges and rng.random() < lunge else rng.choice(moves)
        state.apply(move)
        if said is not None:
            said.update(k for k in ("lunge_at", "pass_arm") if getattr(move, k, None))
        return True
    return False


def drive(state, seed: int, illegal: float = 0.25, lunge: float = 0.3) -> Counter:
    """Play the fight to its outcome through the camera; count the illegal moves tried and refused."""
    rng = random.Random(seed)
    mat_ = Mat()
    refused: Counter = Counter()
    steps = 0
    turn = None
    while state.outcome is None:
        steps += 1
        assert steps < 5000
        if phone(state, rng, mat_, lunge, refused):
            continue
        s = state.snapshot
        if s.turn != turn:
            turn = s.turn
            if rng.random() < 0.5:
                mat_.clear()  # tidy last turn's cards away (or leave them: the adapter ignores left-overs)
        before = mat_.snapshot()
        assert ADAPTER.restored(state, before), ADAPTER.differences(state, before)
        if s.phase in PLACE_PHASES:
            arm = s.waiting[0]
            seat = seat_of(arm)
            options = [m for m in state.legal_moves(seat) if m.arm == arm[-1]]
            move = rng.choice(options)
            if rng.random() < illegal:
                refused.update(_illegal_placement(state, mat_, before, rng))
            if move.card is None:
                state.apply(move)  # an empty arm (TFS-R10): nothing to lay
                continue
            mat_.lay(arm, side_of(move.card))
            after = mat_.snapshot()
            result = see(state, before, after)
            assert result.mismatch is None and result.moves == (), result
            asked = [q for q in result.questions if q.seat == seat]
            assert asked and move.card in asked[0].choices, result
            assert all(side_of(c) == side_of(move.card) for c in asked[0].choices)
            state.apply(move)  # the phone's seal
            again = ADAPTER.interpret(state, [], after)
            assert again.mismatch is None and again.moves == () and again.questions == (), again
            assert ADAPTER.restored(state, after), ADAPTER.differences(state, after)
        elif s.phase in REVEAL_PHASES:
            if rng.random() < illegal:
                refused.update(_illegal_reveal(state, mat_, before, rng))
            arms = list(s.waiting) if rng.random() < 0.5 else [s.waiting[0]]
            if s.phase == "reveal-1" and rng.random() < 0.3:
                arms = [a for a in (*s.round1, *s.round2) if (p := s.placement(a)) and p.card and not p.revealed]
            cards = {a: s.placement(a).card for a in arms}
            for a in arms:
                mat_.turn_up(a, cards[a])
            after = mat_.snapshot()
            result = see(state, before, after)
            assert result.mismatch is None, result
            assert result.moves == tuple(Reveal(seat_of(a), a[-1], cards[a]) for a in arms), result
            for move in result.moves:
                state.apply(move)
        else:
            raise AssertionError(f"unexpected phase {s.phase}")
    return refused


def _illegal_placement(state, mat_: Mat, before: TableSnapshot, rng: random.Random) -> list[str]:
    s = state.snapshot
    out = []
    early = [a for a in s.round2 if s.phase == "place-1" and s.placement(a) is None and state.snapshot.hands[seat_of(a)]]
    if early:
        arm = rng.choice(early)
        wrong = mat_.copy()
        wrong.lay(arm, side_of(s.hands[seat_of(arm)][0]))
        result = assert_refused(state, before, wrong.snapshot(), "TFS-7.3")
        assert "defenders place after the aggressors" in result.mismatch.fix
        out.append("TFS-7.3")
    sealed = [a for a in s.round1 if (p := s.placement(a)) and p.card and not p.revealed]
    if sealed:
        arm = rng.choice(sealed)
        wrong = mat_.copy()
        wrong.lay(arm, "striking")
        assert_refused(state, before, wrong.snapshot(), "TFS-T4")
        out.append("TFS-T4")
        hand = s.hands[seat_of(arm)]
        if hand:
            wrong = mat_.copy()
            wrong.face(arm, hand[0])
            result = assert_refused(state, before, wrong.snapshot(), "TFS-T2")
            assert "already holds its sealed card" in result.mismatch.message
            out.append("TFS-T2")
        wrong = mat_.copy()
        wrong.turn_up(arm, s.placement(arm).card)
        assert_refused(state, before, wrong.snapshot(), "TFS-7.4")
        out.append("TFS-7.4")
    arm = s.waiting[0]
    hand = s.hands[seat_of(arm)]
    if hand:
        wrong = mat_.copy()
        wrong.face(arm, hand[-1])
        result = assert_refused(state, before, wrong.snapshot(), "TFS-T3")
        assert "face down" in result.mismatch.fix
        out.append("TFS-T3")
    return out


def _illegal_reveal(state, mat_: Mat, before: TableSnapshot, rng: random.Random) -> list[str]:
    s = state.snapshot
    out = []
    if s.phase == "reveal-1":
        defenders = [a for a in s.round2 if (p := s.placement(a)) and p.card]
        if defenders:
            arm = rng.choice(defenders)
            wrong = mat_.copy()
            wrong.turn_up(arm, s.placement(arm).card)
            result = assert_refused(state, before, wrong.snapshot(), "TFS-7.5")
            assert result.mismatch.fix == (f"turn the card at your {'right' if arm[-1] == 'R' else 'left'} arm "
                                           "face down again: defenders reveal after the aggressors")
            out.append("TFS-7.5")
    arm = s.waiting[0]
    sealed = s.placement(arm).card
    other = [c for c in s.hands[seat_of(arm)] if kind_of(c) != kind_of(sealed)]
    if other:
        wrong = mat_.copy()
        wrong.turn_up(arm, other[0])
        result = assert_refused(state, before, wrong.snapshot(), "TFS-7.6")
        assert "face down again" in result.mismatch.fix
        out.append("TFS-7.6")
    wrong = mat_.copy()
    wrong.spots[zone_of(arm)] = [x for x in wrong.spots[zone_of(arm)] if x.card != FACE_DOWN]
    assert_refused(state, before, wrong.snapshot(), "TFS-T5")
    out.append("TFS-T5")
    return out


# ---------------------------------------------------------------------------


def test_layout_is_the_mat_module_s_and_zones_name_arms():
    assert ADAPTER.layout(2, "duel") == mat.layout(2, "duel")
    zones = {z.id for z in ADAPTER.layout(3, "free-for-all").zones}
    assert zones == {zone_of(f"{p}{a}") for p in range(3) for a in "RL"}
    assert all(zone_of(arm_of(z)) == z for z in zones)
    assert arm_of("s1.left") == "1L" and arm_of("deck") is None and arm_of(None) is None
    assert card_of("printed:10") == "fake#11" and card_of("strike#3") == "strike#3" and card_of(FACE_DOWN) is None


@pytest.mark.parametrize("seats, variant, options, seed", [
    (2, "duel", {}, 3),
    (3, "free-for-all", {"decks": "community"}, 5),
])
def test_a_full_seeded_fight_through_the_camera_reaches_its_outcome(seats, variant, options, seed):
    state = GAME.new(seats, variant, deal=seed, options=options)
    refused = drive(state, seed)
    assert state.outcome is not None
    assert state.snapshot.turn >= 2
    assert refused["lunge_at"], refused
    for rule in ("TFS-7.3", "TFS-7.4", "TFS-7.5", "TFS-7.6", "TFS-T2", "TFS-T3", "TFS-T4", "TFS-T5"):
        assert refused[rule], (rule, refused)


def test_a_three_fighter_team_fight_with_a_coin_pass_reaches_its_outcome():
    state = GAME.new(3, "teams", deal=11, options={"decks": "community"})
    said = drive(state, 11, illegal=0.0)
    assert state.outcome is not None
    assert said["pass_arm"], said


@pytest.mark.parametrize("seats, variant, options, seed", [(4, "teams", {}, 8), (6, "free-for-all", {"decks": "community"}, 2)])
def test_larger_circles_reach_their_outcome_with_illegal_moves_refused(seats, variant, options, seed):
    state = GAME.new(seats, variant, deal=seed, options=options)
    refused = drive(state, seed, illegal=0.3, lunge=0.4)
    assert state.outcome is not None and refused["TFS-7.5"] and refused["TFS-7.6"], refused


# ---------------------------------------------------------------------------
# Single situations


def fight_at(phase: str, seats: int = 2, variant: str = "duel", seed: int = 1, options=None):
    """A seeded fight advanced by its own legal moves until ``phase``, and its mat as it should lie."""
    state = GAME.new(seats, variant, deal=seed, options=options or {})
    rng = random.Random(seed)
    mat_ = Mat()
    while state.snapshot.phase != phase:
        assert state.outcome is None
        if phone(state, rng, mat_, 0.0):
            continue
        s = state.snapshot
        arm = s.waiting[0]
        if s.phase in PLACE_PHASES:
            move = next(m for m in state.legal_moves(seat_of(arm)) if m.arm == arm[-1])
            mat_.lay(arm, side_of(move.card))
        else:
            move = Reveal(seat_of(arm), arm[-1], s.placement(arm).card)
            mat_.turn_up(arm, move.card)
        state.apply(move)
    return state, mat_


def test_a_card_laid_before_the_announcements_is_refused():
    state, mat_ = fight_at("announce", 3, "teams", options={"decks": "community"})  # the 1v2 coin pass
    before = mat_.snapshot()
    mat_.lay("0R", "striking")
    result = assert_refused(state, before, mat_.snapshot(), "TFS-7.1")
    assert "after the announcements" in result.mismatch.fix


def test_a_card_laid_while_opening_hands_are_chosen_is_refused():
    state = GAME.new(2, "duel", deal=1)
    mat_ = Mat()
    before = mat_.snapshot()
    mat_.lay("1L", "defending")
    assert_refused(state, before, mat_.snapshot(), "TFS-T1")


def test_a_card_at_an_arm_facing_a_teammate_is_the_wrong_arm():
    # 1v2: seats 1 and 2 are teammates; 2R faces 1L and never fights (TFS-R6).
    state, mat_ = fight_at("place-1", 3, "teams", options={"decks": "community"})
    s = state.snapshot
    assert "2R" not in (*s.round1, *s.round2)
    before = mat_.snapshot()
    mat_.lay("2R", side_of(s.hands[2][0]))
    result = assert_refused(state, before, mat_.snapshot(), "TFS-T2")
    assert "places no card now" in result.mismatch.message


def test_a_back_that_is_not_the_sealed_card_s_side_is_refused_even_after_the_seal():
    state, mat_ = fight_at("place-1")
    s = state.snapshot
    arm = s.waiting[0]
    move = next(m for m in state.legal_moves(seat_of(arm)) if m.arm == arm[-1])
    wrong_side = "defending" if side_of(move.card) == "striking" else "striking"
    before = mat_.snapshot()
    mat_.lay(arm, wrong_side)
    laid = mat_.snapshot()
    asked = see(state, before, laid)
    assert asked.mismatch is None and all(side_of(c) == wrong_side for c in asked.questions[0].choices)
    state.apply(move)  # the phone seals another side than the card on the table shows
    result = ADAPTER.interpret(state, [], laid)
    assert result.mismatch is not None and result.mismatch.rule == "TFS-1.1", result
    assert not ADAPTER.restored(state, laid)
    mat_.take_back(arm)
    mat_.lay(arm, side_of(move.card))
    fixed = mat_.snapshot()
    assert ADAPTER.restored(state, fixed)
    assert see(state, laid, fixed).mismatch is None


def test_aggressors_and_defenders_turned_in_one_batch_are_revealed_aggressors_first():
    state, mat_ = fight_at("reveal-1")
    s = state.snapshot
    before = mat_.snapshot()
    arms = [*reversed([a for a in s.round2 if s.placement(a).card]), *s.waiting]
    for a in arms:
        mat_.turn_up(a, s.placement(a).card)
    result = see(state, before, mat_.snapshot())
    assert result.mismatch is None
    assert [f"{m.seat}{m.arm}" for m in result.moves] == [*s.waiting, *(a for a in s.round2 if s.placement(a).card)]


def test_a_printed_copy_of_the_sealed_kind_is_revealed_by_kind():
    state, mat_ = fight_at("reveal-1", seed=4)
    s = state.snapshot
    arm = s.waiting[0]
    sealed = s.placement(arm).card
    copy = next(c for c in map(printed.card_of, range(printed.COUNT)) if kind_of(c) == kind_of(sealed)
                and c not in s.in_play and all(c not in h for h in s.hands))
    before = mat_.snapshot()
    mat_.turn_up(arm, copy)
    result = see(state, before, mat_.snapshot())
    assert result.moves == (Reveal(seat_of(arm), arm[-1], kind_of(sealed)),), result


def test_unsure_faces_are_asked_never_revealed():
    state, mat_ = fight_at("reveal-1")
    s = state.snapshot
    arm = s.waiting[0]
    sealed = s.placement(arm).card
    before = mat_.snapshot()
    low = mat_.copy()
    low.turn_up(arm, sealed, confidence=0.3)
    result = see(state, before, low.snapshot())
    assert result.moves == () and result.mismatch is None
    (q,) = result.questions
    assert q.seat == seat_of(arm) and q.choices[0] == kind_of(sealed)
    assert set(q.choices) <= {k for k in KINDS if side_of(k) == side_of(sealed)}
    blurred = mat_.copy()
    zone = zone_of(arm)
    blurred.spots[zone] = [Sighting(UNKNOWN, zone, 0, 0)]
    result = see(state, before, blurred.snapshot())
    assert result.moves == () and result.mismatch is None and result.questions[0].seat == seat_of(arm)
    assert any("cannot read" in d for d in ADAPTER.differences(state, blurred.snapshot()))


def test_expected_names_no_hidden_card_and_manual_moves_are_the_legal_moves():
    state, mat_ = fight_at("reveal-1")
    hidden = state.hidden_from(None)
    for e in expected(state).values():
        assert not (set(e.face_up) | set(e.may_show)) & hidden
    assert ADAPTER.restored(state, mat_.snapshot())
    for seat in range(state.seats):
        assert manual_moves(state, seat) == state.legal_moves(seat)
    assert ADAPTER.manual_moves(state, 0) == state.legal_moves(0)


def test_nothing_changed_means_nothing_to_do():
    state, mat_ = fight_at("place-2")
    result = ADAPTER.interpret(state, [], mat_.snapshot())
    assert result.moves == () and result.mismatch is None and result.questions == ()
    assert ADAPTER.restored(state, mat_.snapshot())


def test_the_registry_hands_out_this_adapter():
    from engines import registry
    assert registry.adapter("two-freakin-swords") is ADAPTER


def test_an_empty_arm_places_nothing_on_the_mat():
    # TFS-R10: a fighter with no card at all seals an empty arm on the phone; the mat stays bare and is restored.
    state, mat_ = fight_at("place-1")
    s = state.snapshot
    arm = s.waiting[0]
    empty = state.snapshot.but(hands=tuple(() if p == seat_of(arm) else h for p, h in enumerate(s.hands)),
                               decks=((),) * len(s.decks), discards=((),) * len(s.discards))
    state._s = empty
    assert state.legal_moves(seat_of(arm)) == [Place(seat_of(arm), arm[-1], None)]
    state.apply(Place(seat_of(arm), arm[-1], None))
    table = mat_.snapshot()
    assert ADAPTER.restored(state, table)
    assert expected(state)[zone_of(arm)].face_down == (0, 0)


def test_every_rule_id_the_adapter_gives_is_documented():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    source = (root / "engines/two_freakin_swords/table.py").read_text()
    doc = (root / "docs/tables-two-freakin-swords.md").read_text()
    rules = (root / "docs/rules/two-freakin-swords.md").read_text()
    ids = set(re.findall(r'"(TFS-[T0-9][0-9.]*)"', source))
    assert {"TFS-T1", "TFS-T2", "TFS-T3", "TFS-T4", "TFS-T5", "TFS-7.5"} <= ids
    for rule in ids:
        assert f"**{rule}**" in doc, rule
        if not rule.startswith("TFS-T"):
            assert f"**{rule}**" in rules, rule
