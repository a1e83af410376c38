"""Keener through the camera: whole seeded games driven only by zone changes and
table snapshots rendered from the engine's own state (phone moves applied
directly), illegal physical moves flagged with a rule id, and the "table
restored" check (engines/keener/table.py, docs/tables-keener-gun-and-gun.md)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engines.core import FACE_DOWN, UNKNOWN, ChanceMove, Sighting, TableSnapshot, ZoneChange
from engines.keener import GAME, Attack, Block, Cloak, Deploy, Pass, PlayGenerator, Uncloak, commit
from engines.keener import mat as keener_mat
from engines.keener.ids import card_id, card_of, owner
from engines.keener.printed import PREFIX, index_of
from engines.keener.table import (
    ADAPTER,
    ATTACK,
    _with_attached,
    differences,
    expected,
    interpret,
    manual_moves,
)
from tests.support.adapters import assert_refused_and_unchanged as refused_and_unchanged

LAYOUT = keener_mat.layout(2, "standard")
PHYSICAL = (PlayGenerator, Deploy, Attack, Block, Uncloak)
"""Moves made on the table; the rest (pass, damage, kills, cloak seals, chance) come from phones and devices."""


# ---------------------------------------------------------------------------
# A camera made of the engine's own state


def marker(instance: str) -> str:
    """The printed marker of a copy id: seat 1 plays set A (copies 1-2), seat 2 set B (3-4)."""
    seat = owner(instance)
    copy = int(instance.partition("#")[2] or 1)
    return f"{PREFIX}{index_of(card_id(instance), copy + 2 * seat)}"


def spot(zone_id: str, i: int, dy: float = 0.0) -> tuple[float, float]:
    zone = LAYOUT.zone(zone_id)
    return zone.x + 8 + (i * 23) % (zone.w - 16), zone.y + zone.h / 2 + dy


def render(state) -> TableSnapshot:
    """What a camera over a tidy table sees for this state."""
    s = state.snapshot
    out: list[Sighting] = []
    exp = expected(state)
    for zone_id, e in exp.items():
        if zone_id == ATTACK:
            continue
        cards = e.face_up
        if zone_id.endswith(".discard"):
            cards = e.may_show[-1:]  # a pile shows its top card
        if zone_id.endswith((".fighters", ".defenses")):
            side = s.sides[int(zone_id[1])]
            pieces = [p for p in (side.fighters if zone_id.endswith("fighters") else side.defenses)
                      if p.id in cards]
            for i, piece in enumerate(pieces):  # Equipment and merged Fighters lie on their host
                x, y = spot(zone_id, i)
                out.extend(Sighting(marker(c), zone_id, x + 2 * k, y + 3 * k, layer=k)
                           for k, c in enumerate(_with_attached(piece)))
            cards = [c for p in pieces for c in _with_attached(p)]
        else:
            for i, card in enumerate(cards):
                x, y = spot(zone_id, i)
                out.append(Sighting(marker(card), zone_id, x, y))
        if zone_id.endswith(".deck") and e.face_down[0]:
            x, y = spot(zone_id, 0)
            out.append(Sighting(FACE_DOWN, zone_id, x, y))
        if zone_id.endswith(".fighters"):
            for j in range(e.face_down[1]):
                x, y = spot(zone_id, len(cards) + j)
                out.append(Sighting(FACE_DOWN, zone_id, x, y))
    # the middle: attackers side by side, each blocker facing its attacker, attachments on their host
    column: dict[str, float] = {}
    middle = set(exp[ATTACK].face_up)
    pieces = {p.id: p for side in s.sides for p in side.fighters}
    for i, attacker in enumerate(a for a in s.combat.attackers if a in middle):
        x, y = spot(ATTACK, 2 * i, -12)
        column[attacker] = x
        out.extend(Sighting(marker(c), ATTACK, x + 2 * k, y + 3 * k, layer=k)
                   for k, c in enumerate(_with_attached(pieces[attacker])))
    for n, (blocker, attacker) in enumerate(s.combat.blocks):
        if blocker in middle:
            x = column.get(attacker, spot(ATTACK, 2 * n + 1)[0]) + 1
            y = spot(ATTACK, 0, 12)[1]
            out.extend(Sighting(marker(c), ATTACK, x + 2 * k, y + 3 * k, layer=k)
                       for k, c in enumerate(_with_attached(pieces[blocker])))
    return TableSnapshot(tuple(out))


def diff(old: TableSnapshot, new: TableSnapshot) -> list[ZoneChange]:
    """The camera's stable changes between two snapshots."""
    before = {x.card: x.zone for x in old.sightings if x.card != FACE_DOWN}
    after = {x.card: x.zone for x in new.sightings if x.card != FACE_DOWN}
    out = [ZoneChange("removed", c, None, from_zone=z) for c, z in before.items() if c not in after]
    for card, zone in after.items():
        if card not in before:
            out.append(ZoneChange("placed", card, zone))
        elif before[card] != zone:
            out.append(ZoneChange("moved", card, zone, from_zone=before[card]))
    zones = {x.zone for x in (*old.sightings, *new.sightings) if x.card == FACE_DOWN}
    for zone in sorted(z for z in zones if z):
        n_old = sum(1 for x in old.in_zone(zone) if x.card == FACE_DOWN)
        n_new = sum(1 for x in new.in_zone(zone) if x.card == FACE_DOWN)
        kind = "placed" if n_new > n_old else "removed"
        out.extend(ZoneChange(kind, FACE_DOWN, zone) for _ in range(abs(n_new - n_old)))
    return out


def with_move(state, move):
    twin = GAME.load(state.to_json())
    twin.apply(move)
    return twin


def face_down_flip(table: TableSnapshot, seat: int, card: str) -> tuple[TableSnapshot, ZoneChange]:
    """Turn one of the seat's face-down cards up where it lies."""
    zone = f"s{seat}.fighters"
    sights = list(table.sightings)
    i = next(i for i, x in enumerate(sights) if x.zone == zone and x.card == FACE_DOWN)
    sights[i] = Sighting(marker(card), zone, sights[i].x, sights[i].y)
    return TableSnapshot(tuple(sights)), ZoneChange("flipped", marker(card), zone)


class Table:
    """A seeded game, its physical table, and the referee loop of companion in miniature."""

    def __init__(self, seed: int, placed_only: bool = False, **options):
        self.placed_only = placed_only
        self.state = GAME.new(2, deal=seed, options=options)
        self.rng = random.Random(seed)
        while self.state.pending_chance() is not None:
            request = self.state.pending_chance()
            self.state.apply(ChanceMove(tuple(self.rng.randrange(r) for r in request.ranges)))
        self.table = render(self.state)
        self.camera_moves = 0
        self.questions = 0
        self.kinds: set[type] = set()

    def see(self, new: TableSnapshot, changes=None):
        changes = diff(self.table, new) if changes is None else changes
        if self.placed_only:  # a camera that cannot follow a card across zones: every arrival is a placing
            changes = [ZoneChange("placed", c.card, c.zone) if c.kind == "moved" else c for c in changes]
        self.table = new
        self.before = self.state.to_json()
        return interpret(self.state, changes, new)

    def tidy(self):
        """Players put the table in order after a move; the camera sees no new move in it."""
        result = self.see(render(self.state))
        assert result.mismatch is None, result.mismatch
        assert result.moves == ()
        assert ADAPTER.restored(self.state, self.table), differences(self.state, self.table)

    def physical(self, move):
        """Make ``move`` on the table and check the adapter reads exactly that move."""
        if isinstance(move, Uncloak):
            slot = next(f for f in self.state.snapshot.sides[move.seat].face_down if f.slot == move.slot)
            new, change = face_down_flip(self.table, move.seat, slot.card)
            result = self.see(new, [change])
        else:
            result = self.see(render(with_move(self.state, move)))
        if result.questions:  # a Bear Trap with a choice of attackers: the phone answers
            assert isinstance(move, Uncloak) and result.moves == ()
            self.questions += 1
            self.state.apply(move)
        else:
            assert result.mismatch is None, (move, result.mismatch)
            if isinstance(move, Uncloak):  # the adapter names the card it saw turned up: the engine checks it
                move = replace(move, card=self.state.snapshot.sides[move.seat].face_down[0].card and
                               next(f.card for f in self.state.snapshot.sides[move.seat].face_down
                                    if f.slot == move.slot))
            assert list(result.moves) == [move], (move, result.moves)
            self.state.apply(move)
            self.camera_moves += 1
            self.kinds.add(type(move))
        self.tidy()

    def cloak(self, move: Cloak):
        """A face-down card is put in the front row; the adapter asks for the seal; the phone sends it."""
        zone = f"s{move.seat}.fighters"
        x, y = spot(zone, 9)
        new = TableSnapshot((*self.table.sightings, Sighting(FACE_DOWN, zone, x, y)))
        result = self.see(new)
        assert result.mismatch is None and result.moves == ()
        assert result.questions and result.questions[0].seat == move.seat
        assert card_id(move.card) in result.questions[0].choices
        self.questions += 1
        self.state.apply(move)
        self.tidy()

    def step(self):
        seat = next(iter(self.state.to_act()))
        options = self.state.legal_moves(seat)
        assert options, "a seat to act always has a move"
        moves = [m for m in options if not isinstance(m, Pass)]
        move = self.rng.choice(moves) if moves and self.rng.random() < 0.85 else options[-1]
        if isinstance(move, PHYSICAL):
            self.physical(move)
        elif isinstance(move, Cloak):
            self.cloak(move)
        else:  # a phone move: pass, assign damage, kill
            self.state.apply(move)
            self.tidy()


@pytest.mark.parametrize("seed,decks,placed_only", [(0, None, False), (9, ["ferra-sample", "ferra-sample"], False),
                                                    (9, ["ferra-sample", "ferra-sample"], True)])
def test_a_whole_seeded_game_through_the_camera(seed, decks, placed_only):
    """``placed_only``: the middle's owner comes from the printed set each seat plays, not from where it came."""
    game = Table(seed, placed_only, **({"decks": decks} if decks else {}))
    for _ in range(4000):
        if game.state.outcome is not None:
            break
        game.step()
    assert game.state.outcome is not None
    assert game.camera_moves >= 20
    assert game.questions >= 1
    assert {Attack, Deploy, PlayGenerator} <= game.kinds


def test_every_kind_of_table_move_is_read_over_several_games():
    kinds: set[type] = set()
    for seed in range(4):
        for decks in (["saga-sample", "ferra-sample"], ["ferra-sample", "ferra-sample"]):
            game = Table(seed, decks=decks)
            while game.state.outcome is None:
                game.step()
            kinds |= game.kinds
    assert kinds >= {PlayGenerator, Deploy, Attack, Block, Uncloak}


# ---------------------------------------------------------------------------
# Illegal physical moves


def to_phase(game: Table, phase: str, seat: int | None = None, cond=lambda g: True):
    for _ in range(4000):
        s = game.state.snapshot
        if s.phase == phase and (seat is None or s.active == seat) and cond(game):
            return
        assert game.state.outcome is None, "the game ended before the wanted moment"
        game.step()
    raise AssertionError("never reached")


def place(game: Table, card: str, zone: str, i: int = 12):
    x, y = spot(zone, i)
    new = TableSnapshot((*game.table.sightings, Sighting(marker(card), zone, x, y)))
    return new, game.see(new)


def assert_refused_and_unchanged(game: Table, new: TableSnapshot, result, rule: str):
    refused_and_unchanged(ADAPTER, game, new, result, rule)


def test_a_card_the_bank_cannot_pay_for_is_refused_and_the_table_restored():
    game = Table(5)
    to_phase(game, "spending")
    s = game.state.snapshot
    seat = s.active
    dear = next(c for c in s.sides[seat].hand if card_id(c) == "the-abomination" or
                (card_of(c).type == "fighter" and sum(card_of(c).cost) > sum(s.sides[seat].bank)))
    new, result = place(game, dear, f"s{seat}.fighters")
    assert_refused_and_unchanged(game, new, result, "KN-6.1")
    assert "take" in result.mismatch.fix and "hand" in result.mismatch.fix
    # the player takes it back: the camera sees the card go, and the table is restored
    back = render(game.state)
    assert game.see(back).moves == ()
    assert ADAPTER.restored(game.state, back)


def test_a_card_in_the_wrong_zone_is_refused():
    game = Table(6)
    to_phase(game, "spending", cond=lambda g: any(card_of(c).type in ("fighter", "defense") for c in
                                                  g.state.snapshot.sides[g.state.snapshot.active].hand))
    s = game.state.snapshot
    seat = s.active
    card = next(c for c in s.sides[seat].hand if card_of(c).type in ("fighter", "defense"))
    wrong = f"s{seat}.defenses" if card_of(card).type == "fighter" else f"s{seat}.fighters"
    new, result = place(game, card, wrong)
    assert_refused_and_unchanged(game, new, result, "KN-T2")


def test_a_generator_outside_the_economy_phase_and_a_card_not_in_hand_are_refused():
    game = Table(7)
    to_phase(game, "spending", cond=lambda g: any(card_of(c).type == "generator" for c in
                                                  g.state.snapshot.sides[g.state.snapshot.active].hand))
    s = game.state.snapshot
    seat = s.active
    gen = next(c for c in s.sides[seat].hand if card_of(c).type == "generator")
    new, result = place(game, gen, f"s{seat}.generators")
    assert_refused_and_unchanged(game, new, result, "KN-5.2")
    game.see(render(game.state))
    deck_card = s.sides[seat].deck[0]
    new, result = place(game, deck_card, f"s{seat}.fighters")
    assert result.mismatch is not None and result.mismatch.rule in ("KN-T6", "KN-T2")


def test_attacking_out_of_turn_and_blocking_with_nothing_to_block_are_refused():
    game = Table(8)
    to_phase(game, "declare", cond=lambda g: bool(g.state.snapshot.sides[1 - g.state.snapshot.active].fighters))
    s = game.state.snapshot
    defender = 1 - s.active
    fighter = s.sides[defender].fighters[0].id
    sights = [x for x in game.table.sightings if x.card != marker(fighter)]
    x, y = spot(ATTACK, 5)
    new = TableSnapshot((*sights, Sighting(marker(fighter), ATTACK, x, y)))
    result = game.see(new)
    assert_refused_and_unchanged(game, new, result, "KN-4.2")


def test_a_living_fighter_on_the_discard_pile_is_refused():
    game = Table(9)
    to_phase(game, "spending", cond=lambda g: bool(g.state.snapshot.sides[g.state.snapshot.active].fighters))
    s = game.state.snapshot
    seat = s.active
    fighter = s.sides[seat].fighters[0].id
    sights = [x for x in game.table.sightings if x.card != marker(fighter)]
    x, y = spot(f"s{seat}.discard", 0)
    new = TableSnapshot((*sights, Sighting(marker(fighter), f"s{seat}.discard", x, y)))
    result = game.see(new)
    assert_refused_and_unchanged(game, new, result, "KN-T6")
    assert "Fighters zone" in result.mismatch.fix


def test_a_face_down_card_out_of_the_spending_phase_is_refused():
    game = Table(10)
    to_phase(game, "declare")
    seat = game.state.snapshot.active
    x, y = spot(f"s{seat}.defenses", 3)
    new = TableSnapshot((*game.table.sightings, Sighting(FACE_DOWN, f"s{seat}.defenses", x, y)))
    result = game.see(new)
    assert_refused_and_unchanged(game, new, result, "KN-8.1")


def test_a_cloaked_card_turned_up_as_another_card_is_refused():
    game = Table(12, first="seat-1")
    to_phase(game, "spending", cond=lambda g: any(isinstance(m, Cloak) for m in
                                                  g.state.legal_moves(g.state.snapshot.active)))
    seat = game.state.snapshot.active
    cloak = next(m for m in game.state.legal_moves(seat) if isinstance(m, Cloak))
    game.cloak(cloak)
    liar = "1:fighting-monk#1" if seat == 0 else "2:fighting-monk#1"
    new, change = face_down_flip(game.table, seat, liar)
    result = game.see(new, [change])
    assert_refused_and_unchanged(game, new, result, "KN-8.2")


def test_a_sealed_card_is_opened_on_the_phone():
    game = Table(13)
    to_phase(game, "spending", cond=lambda g: any(isinstance(m, Cloak) and card_id(m.card) == "master-assassin"
                                                  for m in g.state.legal_moves(g.state.snapshot.active)))
    seat = game.state.snapshot.active
    cloak = next(m for m in game.state.legal_moves(seat) if isinstance(m, Cloak) and
                 card_id(m.card) == "master-assassin")
    game.cloak(Cloak(seat, cloak.card, commit(cloak.card, "pepper")))
    slot = game.state.snapshot.sides[seat].face_down[0]
    new, change = face_down_flip(game.table, seat, cloak.card)
    result = game.see(new, [change])
    assert result.moves == () and result.mismatch is None
    assert result.questions[0].seat == seat and "seal" in result.questions[0].prompt
    assert slot.slot in result.questions[0].prompt


def test_manual_entry_lists_moves_in_both_deal_modes():
    game = Table(14)
    seat = next(iter(game.state.to_act()))
    assert manual_moves(game.state, seat) == game.state.legal_moves(seat)
    assert manual_moves(game.state, 1 - seat) == []
    hand = GAME.new(2, deal="physical")
    listed = manual_moves(hand, 0)
    assert any(isinstance(m, PlayGenerator) for m in listed) and any(isinstance(m, Pass) for m in listed)
    for move in listed:
        assert hand.check(move).ok, move


def test_layout_is_the_mat():
    assert ADAPTER.layout(2, "standard") == keener_mat.layout(2, "standard")


def test_hand_shuffled_decks_play_through_the_camera():
    """Physical deal: the hand is unknown, so a card put down is taken from the seat's unseen copies."""
    state = GAME.new(2, deal="physical")
    seat = next(iter(state.to_act()))
    table = render(state)
    generator = next(c for c in state.snapshot.sides[seat].unseen if card_id(c) == "merchant")  # 1 Gold
    x, y = spot(f"s{seat}.generators", 0)
    new = TableSnapshot((*table.sightings, Sighting(marker(generator), f"s{seat}.generators", x, y)))
    result = interpret(state, diff(table, new), new)
    assert result.mismatch is None and len(result.moves) == 1
    assert isinstance(result.moves[0], PlayGenerator) and card_id(result.moves[0].card) == card_id(generator)
    state.apply(result.moves[0])
    assert generator not in state.snapshot.sides[seat].unseen
    assert ADAPTER.restored(state, new)
    # a face-down card in the Spending phase asks for the seal, with no card named (the phone knows it)
    zone = f"s{seat}.fighters"
    down = TableSnapshot((*new.sightings, Sighting(FACE_DOWN, zone, *spot(zone, 4))))
    result = interpret(state, diff(new, down), down)
    assert result.moves == () and result.questions[0].seat == seat and result.questions[0].choices == ()
    state.apply(Cloak(seat, "", commit("master-assassin", "salt")))
    assert ADAPTER.restored(state, down)


def test_an_unreadable_card_does_not_hold_up_the_cards_read_with_it():
    """A card the camera cannot read asks its zone's seat, and the card played in the same glance still counts."""
    state = GAME.new(2, deal="physical")
    seat = next(iter(state.to_act()))
    table = render(state)
    generator = next(c for c in state.snapshot.sides[seat].unseen if card_id(c) == "merchant")
    x, y = spot(f"s{seat}.generators", 0)
    new = TableSnapshot((*table.sightings, Sighting(UNKNOWN, f"s{1 - seat}.fighters", *spot(f"s{1 - seat}.fighters", 0)),
                         Sighting(marker(generator), f"s{seat}.generators", x, y)))
    changes = [ZoneChange("placed", UNKNOWN, f"s{1 - seat}.fighters"),
               ZoneChange("placed", marker(generator), f"s{seat}.generators")]
    result = interpret(state, changes, new)
    assert result.mismatch is None and [q.seat for q in result.questions] == [1 - seat]
    assert len(result.moves) == 1 and isinstance(result.moves[0], PlayGenerator)


def test_a_cloak_card_showing_up_by_a_back_the_camera_still_sees_is_that_card_turned_up():
    """Outside its Spending phase a seat cannot play a Bear Trap or Master Assassin face up, so one that
    appears in a front row holding a face-down card is that card turned up (KN-T4), checked against it."""
    from engines.keener.scenario import position

    state = position(phase="block", active=1, fighters=((), ("fighting-monk",)), face_down=(("bear-trap",), ()),
                     hands=(("master-assassin",), ()), banks=((0, 0, 1, 0), (0, 0, 0, 0)),
                     attackers=("2:fighting-monk#1",))
    table = render(state)
    zone = "s0.fighters"
    for card, rule in (("1:bear-trap#1", None), ("1:master-assassin#1", "KN-8.2")):
        new = TableSnapshot((*table.sightings, Sighting(marker(card), zone, *spot(zone, 3))))
        result = interpret(state, [ZoneChange("placed", marker(card), zone)], new)
        if rule is None:
            assert result.mismatch is None and len(result.moves) == 1 and isinstance(result.moves[0], Uncloak)
            assert result.moves[0].target == "2:fighting-monk#1"
        else:
            assert result.mismatch is not None and result.mismatch.rule == rule and result.mismatch.fix


def test_the_registry_hands_out_this_adapter():
    from engines import registry

    assert registry.adapter("keener") is ADAPTER


# ---------------------------------------------------------------------------
# Phone moves in a hand-shuffled deal (KN-T8)


def _public_cards(state) -> set[str]:
    """Every copy id lying face up on the mat now (cards in play, the discard piles)."""
    return {c for e in expected(state).values() for c in (*e.face_up, *e.may_show)}


def _named_cards(move) -> list[str]:
    """The card copy ids a move names (its string fields that are copy ids)."""
    return [v for k, v in move.to_json().items() if k != "type" and isinstance(v, str) and ":" in v]


def _check_phone_offer(state, seat) -> list:
    listed = manual_moves(state, seat)
    assert isinstance(listed, list) and listed, (state.snapshot.phase, seat)
    assert len(listed) <= 60
    assert len(set(listed)) == len(listed)
    side = state.snapshot.sides[seat]
    public = _public_cards(state)
    for move in listed:
        assert move.seat == seat
        assert not isinstance(move, Cloak | Uncloak)  # the seal question covers those (KN-8.2)
        assert state.check(move).ok, move
        for card in _named_cards(move):
            # Only a card of this seat's own unseen copies, or one lying face up in play: never a hidden card.
            assert card in side.unseen or card in public, (move, card)
            if card not in public:
                assert owner(card) == seat, move
    return listed


def test_a_hand_shuffled_game_offers_the_acting_phone_its_moves_at_every_step():
    """The demo's hand-shuffled game, move by move: the seat to act is offered a non-empty list of moves
    the engine accepts, naming no hidden card; its phone moves (pass, attack, block, assign, kill) are among
    them, and each card it plays from the hand is offered by card."""
    from companion.demo import keener

    script = keener.script()
    state = GAME.new(2, "standard", script.deal, script.options)
    assert state.snapshot.physical and state.legal_moves(0) is None
    rng = random.Random(1)
    phases: set[str] = set()
    while state.outcome is None:
        move = script.choose(state, rng)
        if isinstance(move, ChanceMove):
            state.apply(move)
            continue
        seat = move.seat
        phases.add(state.snapshot.phase)
        listed = _check_phone_offer(state, seat)
        assert manual_moves(state, 1 - seat) == []
        if not isinstance(move, Cloak | Uncloak | PlayGenerator | Deploy):
            assert move in listed, (state.snapshot.phase, move)
        elif isinstance(move, PlayGenerator | Deploy):
            offered = {(type(m), card_id(m.card), getattr(m, "target", "")) for m in listed
                       if isinstance(m, PlayGenerator | Deploy)}
            assert (type(move), card_id(move.card), getattr(move, "target", "")) in offered, move
        state.apply(move)
    assert {"economy", "spending", "declare", "block", "assign"} <= phases, phases


def test_a_hand_shuffled_phone_offer_lists_each_card_once_and_the_pass_first():
    state = GAME.new(2, deal="physical")
    seat = next(iter(state.to_act()))
    listed = _check_phone_offer(state, seat)
    assert listed[0] == Pass(seat)
    played = [card_id(m.card) for m in listed if isinstance(m, PlayGenerator)]
    assert played and len(played) == len(set(played))
    assert {card_id(c) for c in state.snapshot.sides[seat].unseen if card_of(c).type == "generator"} == set(played)


def test_a_hand_shuffled_phone_offer_in_combat_names_only_cards_in_play():
    """Block, assign and kill: the defender and attacker are offered the phone moves only, all accepted."""
    from engines.keener.scenario import position

    state = position(phase="block", active=1,
                     fighters=(("fighting-monk", "village-guard", "iron-knight"), ("pikeman", "fighting-monk")),
                     defenses=(("stone-wall", "wooden-fence"), ()), hands=(("master-assassin",), ()),
                     attackers=("2:pikeman#1", "2:fighting-monk#1"))
    state = _hand_shuffled(state)
    listed = _check_phone_offer(state, 0)
    assert Pass(0) in listed and Block(0, "1:fighting-monk#1", "2:pikeman#1") in listed
    assert all(isinstance(m, Pass | Block) for m in listed)
    for blocker in ("1:fighting-monk#1", "1:village-guard#1", "1:iron-knight#1"):
        state.apply(Block(0, blocker, "2:pikeman#1"))
    state.apply(Pass(0))
    phases = []
    while state.outcome is None and state.snapshot.phase in ("assign", "kill"):
        phases.append(state.snapshot.phase)
        seat = next(iter(state.to_act()))
        assert seat == 1
        listed = _check_phone_offer(state, seat)
        assert all(type(m).__name__ == ("Kill" if phases[-1] == "kill" else "AssignDamage") for m in listed), listed
        state.apply(listed[0])
    assert {"kill", "assign"} <= set(phases), phases


def _hand_shuffled(state):
    """The same position as if the decks were shuffled by hand: hands and decks unknown, decklists unseen."""
    from engines.keener.snapshot import snap_to_json

    fresh = GAME.new(2, deal="physical").snapshot
    snap = replace(state.snapshot, physical=True, sides=tuple(
        replace(side, hand=("?",) * len(side.hand), deck=("?",) * len(side.deck), unseen=f.unseen)
        for side, f in zip(state.snapshot.sides, fresh.sides, strict=True)))
    return GAME.load({"seats": 2, "variant": "standard", "deal": "physical", "options": {},
                      "snapshot": snap_to_json(snap)})


def test_a_hand_shuffled_table_offers_the_acting_phone_buttons(tmp_path):
    """Through the real server: the seat to act in a physical-deal Keener table gets a view whose moves
    are a list (not None), and a Pass from it is applied; the other seat is offered nothing."""
    from tests.support.server import physical_table_phones

    with physical_table_phones(tmp_path, "keener", "standard") as (table, seat, phones, acks):
        moves = acks[seat]["moves"]
        assert isinstance(moves, list) and moves, acks[seat]
        assert {"type": "pass", "seat": seat} in moves
        assert any(m["type"] == "play-generator" for m in moves)
        assert acks[1 - seat]["moves"] == []
        before = table.seq
        ack = phones[seat].call("play", {"table": table.id, "move": {"type": "pass", "seat": seat}})
        assert ack["ok"], ack
        assert table.seq == before + 1 and table.state.snapshot.phase == "spending"
        # The view published after the move: the same seat, now spending, is offered its buttons again.
        view = phones[seat].wait_for(lambda e, d: e == "view" and d.get("seat") == seat and d["seq"] > before)[1]
        assert isinstance(view["moves"], list) and {"type": "pass", "seat": seat} in view["moves"]
        other = phones[1 - seat].wait_for(lambda e, d: e == "view" and d.get("seat") == 1 - seat
                                          and d["seq"] > before)[1]
        assert other["moves"] == []
