"""ガンナガン with ダブルエッジ through the camera: whole seeded games driven only by
zone changes and table snapshots rendered from the engine's own state (phone,
button and coin-toss board moves applied directly), the ダブルエッジ question,
illegal physical moves flagged with a rule id, and the "table restored" check
(engines/gun_and_gun/table.py, docs/tables-keener-gun-and-gun.md)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.core import FACE_DOWN, ChanceMove, Sighting, TableSnapshot, ZoneChange
from engines.gun_and_gun import GAME
from engines.gun_and_gun import mat as gg_mat
from engines.gun_and_gun.moves import (
    EndMain,
    Load,
    PlayAction,
    PlayFunction,
    ResolveFunction,
    Respond,
    SetResponse,
)
from engines.gun_and_gun.table import (
    ADAPTER,
    DECLARE,
    DECLINE,
    answer,
    card_named,
    differences,
    expected,
    interpret,
    manual_moves,
    sighting_of,
)
from tests.support.adapters import assert_refused_and_unchanged as refused_and_unchanged

LAYOUT = gg_mat.layout(2, "double-edge")
PHYSICAL = (PlayAction, PlayFunction, ResolveFunction, Respond, SetResponse, Load)
"""Moves made on the table; shooting, skills, end of the main phase, no response and chance come from
phones and devices."""


# ---------------------------------------------------------------------------
# A camera made of the engine's own state


def spot(zone_id: str, i: int) -> tuple[float, float]:
    zone = LAYOUT.zone(zone_id)
    return zone.x + 6 + (i * 9) % (zone.w - 12), zone.y + zone.h / 2


def render(state) -> TableSnapshot:
    """What a camera over a tidy table sees: loaded cards and responses fanned face down, decks as one back,
    the trash as its top card, every used card face up in the voltage area."""
    out: list[Sighting] = []
    for zone_id, e in expected(state).items():
        cards = e.may_show[-1:] if zone_id.endswith(".trash") else e.face_up
        for i, card in enumerate(cards):
            out.append(Sighting(sighting_of(state, card), zone_id, *spot(zone_id, i)))
        backs = e.face_down[0] if ".deck" in zone_id else e.face_down[1]
        out.extend(Sighting(FACE_DOWN, zone_id, *spot(zone_id, len(cards) + j)) for j in range(backs))
    return TableSnapshot(tuple(out))


def diff(old: TableSnapshot, new: TableSnapshot) -> list[ZoneChange]:
    """Stable changes by zone and face (copies of a name look alike): what left, then what arrived."""
    before = Counter((x.zone, x.card) for x in old.sightings)
    after = Counter((x.zone, x.card) for x in new.sightings)
    out = [ZoneChange("removed", card, None, from_zone=zone)
           for (zone, card), n in (before - after).items() for _ in range(n)]
    out += [ZoneChange("placed", card, zone) for (zone, card), n in (after - before).items() for _ in range(n)]
    return out


def add(table: TableSnapshot, card: str, zone: str) -> TableSnapshot:
    return TableSnapshot((*table.sightings, Sighting(card, zone, *spot(zone, 11))))


def take(table: TableSnapshot, card: str, zone: str) -> TableSnapshot:
    sights = list(table.sightings)
    sights.pop(next(i for i, x in enumerate(sights) if x.zone == zone and x.card == card))
    return TableSnapshot(tuple(sights))


class Table:
    """A seeded game, its physical table, and companion's referee loop in miniature."""

    def __init__(self, seed: int, variant: str = "double-edge", **options):
        self.state = GAME.new(2, variant, deal=seed, options=options)
        self.rng = random.Random(seed)
        self.chance()
        self.table = render(self.state)
        self.camera_moves = 0
        self.kinds: set[type] = set()
        self.declared = 0
        self.asked = 0
        self.offered = 0

    def chance(self):
        while self.state.pending_chance() is not None and self.state.outcome is None:
            request = self.state.pending_chance()
            self.state.apply(ChanceMove(tuple(self.rng.randrange(r) for r in request.ranges)))

    def see(self, new: TableSnapshot, changes=None):
        changes = diff(self.table, new) if changes is None else changes
        self.table = new
        self.before = self.state.to_json()
        return interpret(self.state, changes, new)

    def tidy(self):
        """Players put the table in order after a move; the camera sees no new move in it."""
        result = self.see(render(self.state))
        assert result.mismatch is None, result.mismatch
        assert result.moves == () and result.questions == ()
        assert ADAPTER.restored(self.state, self.table), differences(self.state, self.table)

    def gesture(self, move) -> TableSnapshot:
        """The table right after a player made ``move`` with their hands."""
        t, s = self.table, self.state
        zone = lambda key: f"s{move.seat}.{key}"  # noqa: E731
        if isinstance(move, PlayAction):
            return add(t, sighting_of(s, move.card), zone("action"))
        if isinstance(move, PlayFunction):
            return add(t, sighting_of(s, move.card), zone("function"))
        if isinstance(move, ResolveFunction):
            return add(take(t, sighting_of(s, move.card), zone("function")), sighting_of(s, move.card),
                       zone("voltage"))
        if isinstance(move, Respond):
            return add(take(t, FACE_DOWN, zone("response")), sighting_of(s, move.card), zone("response"))
        if isinstance(move, SetResponse):
            return add(t, FACE_DOWN, zone("response"))
        assert isinstance(move, Load)
        return add(t, FACE_DOWN, zone(f"loaded{move.gun}"))

    def physical(self, move):
        result = self.see(self.gesture(move))
        assert result.mismatch is None, (move, result.mismatch)
        if result.questions:
            (question,) = result.questions
            assert question.seat == move.seat and result.moves == ()
            self.asked += 1
            self.offered += "ダブルエッジ" in question.prompt
            choice = self.choose(move, question.choices)
            answered = answer(self.state, move.seat, choice)
            assert answered is not None
            self.state.apply(answered)  # the phone's (or the button's) answer
            self.declared += getattr(answered, "double_edge", False)
        else:
            assert not getattr(move, "double_edge", False), "a declaration the adapter did not offer"
            assert len(result.moves) == 1, (move, result)
            got = result.moves[0]
            assert type(got) is type(move) and got.seat == move.seat
            assert self.state.table.card(getattr(got, "card", "") or move.card).name == \
                self.state.table.card(move.card).name
            self.state.apply(got)
            self.camera_moves += 1
            self.kinds.add(type(move))
        self.chance()  # the coin-toss board
        self.tidy()

    @staticmethod
    def choose(move, choices):
        if isinstance(move, PlayAction | ResolveFunction):
            want = DECLARE if move.double_edge else DECLINE
            return next(c for c in choices if c.startswith(want + ":"))
        name = move.card
        return next((c for c in choices if c.endswith(":" + name)), choices[0])

    def step(self):
        seat = next(iter(self.state.to_act()))
        options = self.state.legal_moves(seat)
        assert options
        busy = [m for m in options if not isinstance(m, EndMain)]
        move = self.rng.choice(busy) if busy and self.rng.random() < 0.9 else options[0]
        if isinstance(move, PHYSICAL):
            self.physical(move)
        else:
            self.state.apply(move)
            self.chance()
            self.tidy()


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_seeded_game_through_the_camera(seed):
    game = Table(seed)
    for _ in range(3000):
        if game.state.outcome is not None:
            break
        game.step()
    assert game.state.outcome is not None
    assert game.camera_moves >= 10
    assert game.asked >= 1 and game.declared >= 1


def test_every_kind_of_table_move_is_read_over_several_games():
    kinds: set[type] = set()
    declared = 0
    for seed in range(6):
        game = Table(20 + seed, gunners=["raven", "gina"] if seed % 2 else ["gina", "mirror"])
        while game.state.outcome is None:
            game.step()
        kinds |= game.kinds
        declared += game.declared
    assert kinds >= {PlayAction, PlayFunction, ResolveFunction, Respond, SetResponse, Load}
    assert declared >= 3


def test_the_standard_game_never_asks_about_the_declaration():
    game = Table(3, variant="standard")
    while game.state.outcome is None:
        game.step()
    assert game.offered == 0 and game.declared == 0
    assert game.camera_moves >= 10


# ---------------------------------------------------------------------------
# The ダブルエッジ question and illegal physical moves


def to_main(game: Table, cond) -> None:
    for _ in range(3000):
        s = game.state.snapshot
        if s.phase == "main" and s.pending is None and cond(game):
            return
        assert game.state.outcome is None, "the game ended before the wanted moment"
        game.step()
    raise AssertionError("never reached")


def holds(game: Table, key: str):
    seat = game.state.snapshot.active
    return next((c for c in game.state.snapshot.players[seat].hand if game.state.table.card(c).key == key), None)


def assert_refused_and_unchanged(game: Table, new: TableSnapshot, result, rule: str):
    refused_and_unchanged(ADAPTER, game, new, result, rule)


def test_keiryaku_asks_then_the_second_declaration_is_not_offered_and_a_second_keiryaku_is_refused():
    game = Table(4)
    to_main(game, lambda g: holds(g, "keiryaku") and len(g.state.snapshot.players[g.state.snapshot.active].voltage)
            >= 1 and not g.state.snapshot.de_used and "keiryaku" not in g.state.snapshot.uses)
    seat = game.state.snapshot.active
    card = holds(game, "keiryaku")
    before = game.state.to_json()
    result = game.see(add(game.table, sighting_of(game.state, card), f"s{seat}.action"))
    assert game.state.to_json() == before
    assert result.moves == () and result.mismatch is None
    (question,) = result.questions
    assert question.seat == seat and "計略" in question.prompt and "ダブルエッジ" in question.prompt
    assert question.choices == (f"{DECLARE}:play-action:{card}", f"{DECLINE}:play-action:{card}")
    # the phone (or the coin-toss board's button) declares; the board tosses
    game.state.apply(answer(game.state, seat, question.choices[0]))
    assert game.state.pending_chance().kind == "coin"
    # the card lies in the action zone while the coin is tossed; only the cost paid is still to move
    assert not [d for d in differences(game.state, game.table) if "action zone" in d]
    assert any("trash" in d or "voltage" in d for d in differences(game.state, game.table))
    game.state.apply(ChanceMove((0,)))  # faces the declarer: draw 3, then 3 more
    game.tidy()
    # a second declaration this turn is not offered: another action is simply played
    other = next((c for c in game.state.snapshot.players[seat].hand
                  if game.state.table.card(c).type == "action" and game.state.check(PlayAction(seat, c)).ok), None)
    if other is not None:
        result = game.see(add(game.table, sighting_of(game.state, other), f"s{seat}.action"))
        assert result.questions == () and result.moves == (PlayAction(seat, other),)
        # the button pressed anyway: the engine refuses a second declaration with its rule id
        pressed = answer(game.state, seat, f"{DECLARE}:play-action:{other}")
        assert game.state.check(pressed).rule == "GG-DE-2"
        game.state.apply(result.moves[0])
        game.tidy()
    second = next((c for c in game.state.snapshot.players[seat].hand if game.state.table.card(c).key == "keiryaku"),
                  None)
    if second is not None:  # 【1ターン1度】
        new = add(game.table, sighting_of(game.state, second), f"s{seat}.action")
        assert_refused_and_unchanged(game, new, game.see(new), "GG-5.4")


def test_a_second_keiryaku_in_one_turn_is_refused_once_per_turn():
    game = Table(2)

    def two_keiryaku(g):
        s = g.state.snapshot
        p = s.players[s.active]
        return (sum(g.state.table.card(c).key == "keiryaku" for c in p.hand) >= 2 and len(p.voltage) >= 2
                and "keiryaku" not in s.uses and sum(map(len, p.decks)) >= 8)

    to_main(game, two_keiryaku)
    seat = game.state.snapshot.active
    first = holds(game, "keiryaku")
    result = game.see(add(game.table, sighting_of(game.state, first), f"s{seat}.action"))
    if result.questions:  # ダブルエッジ still free this turn: decline on the phone
        game.state.apply(answer(game.state, seat, result.questions[0].choices[1]))
    else:
        game.state.apply(result.moves[0])
    game.tidy()
    second = holds(game, "keiryaku")
    new = add(game.table, sighting_of(game.state, second), f"s{seat}.action")
    result = game.see(new)
    assert_refused_and_unchanged(game, new, result, "GG-5.4")
    assert result.mismatch.fix.startswith("take 計略 back into your hand")


def test_a_declaration_on_a_bullet_is_refused_by_the_engine():
    game = Table(5)
    to_main(game, lambda g: any(isinstance(m, Load) for m in g.state.legal_moves(g.state.snapshot.active)))
    seat = game.state.snapshot.active
    load = next(m for m in game.state.legal_moves(seat) if isinstance(m, Load))
    assert game.state.check(Load(seat, load.gun, load.card, True)).rule == "GG-DE-9.1"


def test_a_bullet_in_the_action_zone_is_refused_and_the_table_restored():
    game = Table(6)
    to_main(game, lambda g: holds(g, "9mm-round") or holds(g, "slug"))
    seat = game.state.snapshot.active
    card = holds(game, "9mm-round") or holds(game, "slug")
    before = game.state.to_json()
    new = add(game.table, sighting_of(game.state, card), f"s{seat}.action")
    result = game.see(new)
    assert_refused_and_unchanged(game, new, result, "GG-T2")
    assert game.state.to_json() == before
    assert "face down" in result.mismatch.fix
    back = take(new, sighting_of(game.state, card), f"s{seat}.action")
    assert game.see(back).moves == ()
    assert ADAPTER.restored(game.state, back)


def test_playing_out_of_turn_and_a_card_not_in_hand_are_refused():
    game = Table(7)
    to_main(game, lambda g: any(g.state.table.card(c).type == "action"
                                for c in g.state.snapshot.players[1 - g.state.snapshot.active].hand))
    seat = 1 - game.state.snapshot.active
    card = next(c for c in game.state.snapshot.players[seat].hand if game.state.table.card(c).type == "action")
    new = add(game.table, sighting_of(game.state, card), f"s{seat}.action")
    assert_refused_and_unchanged(game, new, game.see(new), "GG-T4")
    game.see(render(game.state))
    missing = next(c for c in game.state.table.ids if game.state.table.card(c).type == "action"
                   and not any(game.state.table.card(h).name == game.state.table.card(c).name
                               for h in game.state.snapshot.players[1 - seat].hand))
    new = add(game.table, sighting_of(game.state, missing), f"s{1 - seat}.action")
    assert_refused_and_unchanged(game, new, game.see(new), "GG-T3")


def test_an_unaffordable_card_and_an_unknown_card_are_refused():
    game = Table(8)
    to_main(game, lambda g: holds(g, "grenade") and len(g.state.snapshot.players[g.state.snapshot.active].voltage)
            < 2)
    seat = game.state.snapshot.active
    new = add(game.table, sighting_of(game.state, holds(game, "grenade")), f"s{seat}.action")
    assert_refused_and_unchanged(game, new, game.see(new), "GG-5.1")
    game.see(render(game.state))
    new = add(game.table, "taught:存在しないカード", f"s{seat}.action")
    assert_refused_and_unchanged(game, new, game.see(new), "GG-T5")


def test_face_down_load_asks_which_bullet_when_names_differ():
    game = Table(9)
    to_main(game, lambda g: len({g.state.table.card(c).name for c in g.state.snapshot.players[
        g.state.snapshot.active].hand if g.state.table.card(c).type == "bullet"}) >= 2
            and not g.state.snapshot.players[g.state.snapshot.active].loaded[0])
    seat = game.state.snapshot.active
    result = game.see(add(game.table, FACE_DOWN, f"s{seat}.loaded0"))
    assert result.moves == () and result.mismatch is None
    (question,) = result.questions
    assert len(question.choices) >= 2 and all(c.startswith("load:0:") for c in question.choices)
    move = answer(game.state, seat, question.choices[0])
    assert isinstance(move, Load) and game.state.check(move).ok


def test_names_and_answers():
    assert card_named("taught:計略").key == "keiryaku"
    assert card_named("taught:Stratagem").key == "keiryaku"
    assert card_named("printed:3") is None and card_named("taught:nothing") is None
    game = Table(10)
    seat = game.state.snapshot.active
    assert answer(game.state, seat, "nonsense") is None
    assert answer(game.state, seat, "load:7:0A-01") is None


def test_manual_entry_and_layout():
    game = Table(11)
    seat = game.state.snapshot.active
    assert manual_moves(game.state, seat) == game.state.legal_moves(seat)
    assert manual_moves(game.state, 1 - seat) == []
    assert ADAPTER.layout(2, "double-edge") == gg_mat.layout(2, "double-edge")


def test_the_registry_hands_out_this_adapter():
    from engines import registry

    assert registry.adapter("gun-and-gun") is ADAPTER


# ---------------------------------------------------------------------------
# A physical deal: the moves a phone is offered (GG-T8)


def _named(move) -> tuple[str, ...]:
    """The copy ids a move names."""
    if hasattr(move, "cards"):
        return tuple(move.cards)
    card = getattr(move, "card", None)
    return (card,) if card else ()


def _check_offer(state, seat: int) -> list:
    """The phone's moves for ``seat`` now, checked: non-empty when it acts, [] otherwise; each move naming
    no card, and each naming only cards the seat sees or holds, accepted; no hidden card of the other seat."""
    from engines.gun_and_gun.moves import Reveal

    offered = manual_moves(state, seat)
    assert isinstance(offered, list)
    if seat not in state.to_act():
        assert offered == []
        return offered
    assert offered and len(offered) <= 60
    hidden = state.hidden_from(seat)
    pending = state.snapshot.pending
    for move in offered:
        assert move.actor == seat
        assert not set(_named(move)) & hidden, move  # nothing the seat may not see
        if isinstance(move, Reveal) and pending.source == "skill":
            assert all(state.table.owner[c] == 1 - seat for c in move.cards)  # the opponent's turned-up card
        else:
            assert all(state.table.owner[c] == seat for c in _named(move)), move  # only its own cards
            assert state.check(move).ok, (move, state.check(move))
    return offered


@pytest.mark.parametrize("gunners,seed", [(None, 1), (["mirror", "gina"], 2), (None, 3), (["mirror", "gina"], 4)])
def test_a_physical_deal_offers_the_phone_its_moves_at_every_step(gunners, seed):
    """A physical-deal game played only with the moves offered to the phones (and the coin): at every
    step the seat to act is offered a non-empty list, every move accepted, none naming another seat's
    hidden card; the opponent is offered nothing."""
    from engines.gun_and_gun.moves import Activate, EndMain, NoResponse, Reveal, Shoot, UseSkill

    options = {"gunners": gunners} if gunners else {}
    state = GAME.new(2, "double-edge", deal="physical", options=options)
    assert state.legal_moves(0) is None
    rng = random.Random(seed)
    kinds: set[type] = set()
    for _ in range(400):
        if state.outcome is not None:
            break
        if state.pending_chance() is not None:
            state.apply(ChanceMove((rng.randrange(2),)))
            continue
        (seat,) = state.to_act()
        offered = _check_offer(state, seat)
        _check_offer(state, 1 - seat)
        kinds.update(type(m) for m in offered)
        # Mostly the phone's own moves (shoot, skill, reveal, respond), sometimes a card, now and then the end.
        plain = [m for m in offered if isinstance(m, Shoot | UseSkill | Reveal | Activate | NoResponse)]
        pick = rng.choice(plain if plain and rng.random() < 0.6 else offered)
        if isinstance(pick, EndMain) and rng.random() < 0.5 and len(offered) > 1:
            pick = rng.choice(offered)
        state.apply(pick)
    assert {EndMain, Shoot, PlayAction, Load, ResolveFunction} <= kinds or state.outcome is not None
    assert Reveal in kinds  # a skill's card or a deck-loaded bullet was named on the phone


def test_physical_phone_moves_per_phase():
    """What the phone is offered in each situation of a physical deal (GG-T8)."""
    from engines.gun_and_gun.moves import Activate, NoResponse, Reveal, Shoot, UseSkill

    state = GAME.new(2, "double-edge", deal="physical")
    assert state.snapshot.active == 0
    main = manual_moves(state, 0)
    assert main[0] == EndMain(0) and UseSkill(0, 0) in main and Shoot(0, 0) not in main  # nothing loaded
    hand = {state.table.card(m.card).key for m in main if isinstance(m, PlayAction)}
    assert "keiryaku" in hand or "resupply" in hand
    resupply = next(m.card for m in main if isinstance(m, PlayAction) and state.table.card(m.card).key == "resupply")
    assert PlayAction(0, resupply, True) in main and PlayAction(0, resupply, False) in main  # declare / decline
    # The names offered are one copy per name: a copy seen nowhere yet, of the seat's own decks.
    names = [state.table.card(m.card).name for m in main if isinstance(m, PlayAction) and not m.double_edge]
    assert len(names) == len(set(names))
    # ブレインハック turns up an opponent's card: one reveal per name of that deck.
    state.apply(UseSkill(0, 0))
    reveals = _check_offer(state, 0)
    assert reveals and all(isinstance(m, Reveal) and len(m.cards) == 1 for m in reveals)
    keiryaku = next(m for m in reveals if state.table.card(m.cards[0]).key == "keiryaku")
    state.apply(keiryaku)
    assert set(_check_offer(state, 0)) == {Activate(0, False), Activate(0, True)}
    state.apply(Activate(0, False))
    # Load, end the main phase; seat 2 (after its own turn) shoots back: seat 1's answer is offered.
    bullet = next(m for m in manual_moves(state, 0) if isinstance(m, Load) and m.gun == 0)
    state.apply(bullet)
    assert Shoot(0, 0) in manual_moves(state, 0)
    state.apply(Shoot(0, 0))
    state.apply(EndMain(0))
    seat = state.snapshot.active
    assert seat == 1 and manual_moves(state, 0) == []
    response = next((m for m in manual_moves(state, 1) if isinstance(m, SetResponse)), None)
    if response is not None:
        state.apply(response)
    bullet = next(m for m in manual_moves(state, 1) if isinstance(m, Load))
    state.apply(bullet)
    state.apply(Shoot(1, bullet.gun))
    if state.snapshot.pending is not None:  # seat 1 had set a response
        offered = _check_offer(state, 0)
        assert NoResponse(0) in offered


def test_a_physical_down_phase_offers_each_function_card_with_and_without_the_declaration():
    state = GAME.new(2, "double-edge", deal="physical")
    played = next((m for m in manual_moves(state, 0) if isinstance(m, PlayFunction)), None)
    if played is None:
        pytest.skip("no function card affordable on the first turn")
    state.apply(played)
    state.apply(EndMain(0))
    if state.snapshot.phase != "down":
        pytest.skip("the function card resolved")
    offered = _check_offer(state, 0)
    assert set(offered) == {ResolveFunction(0, played.card, False), ResolveFunction(0, played.card, True)}


def test_a_shot_of_deck_loaded_bullets_offers_the_names_they_may_have():
    from engines.gun_and_gun.moves import Reveal, Shoot, UseSkill

    state = GAME.new(2, "double-edge", deal="physical", options={"gunners": ["mirror", "gina"]})
    seat = state.snapshot.active
    state.apply(UseSkill(seat, 0))  # 速射装填: the top of deck 0, unknown, into gun 0
    state.apply(Shoot(seat, 0))
    offered = _check_offer(state, seat)
    assert offered and all(isinstance(m, Reveal) and len(m.cards) == 1 for m in offered)
    deck = set(state.table.decks[seat][0])
    assert all(m.cards[0] in deck for m in offered)
    names = [state.table.card(m.cards[0]).name for m in offered]
    assert len(names) == len(set(names))


def test_a_physical_table_offers_the_acting_phone_buttons(tmp_path):
    """Through the real server: the seat to act at a physical-deal ガンナガン table gets a view whose moves
    are a list (not None), among them ending the main phase; the other seat is offered nothing."""
    from tests.support.server import physical_table_phones

    with physical_table_phones(tmp_path, "gun-and-gun", "double-edge") as (table, seat, phones, acks):
        moves = acks[seat]["moves"]
        assert isinstance(moves, list) and moves, acks[seat]
        assert {"type": "end-main", "seat": seat} in moves
        assert acks[1 - seat]["moves"] == []
        ack = phones[seat].call("play", {"table": table.id, "move": {"type": "end-main", "seat": seat}})
        assert ack["ok"], ack
        # The turn passed (nothing waits in the down phase): the other seat's phone gets a view with buttons.
        assert table.state.snapshot.active == 1 - seat
        view = phones[1 - seat].wait_for(lambda e, d: e == "view" and d.get("moves"))[1]
        assert isinstance(view["moves"], list) and {"type": "end-main", "seat": 1 - seat} in view["moves"]


def test_brain_hack_reveals_offered_do_not_tell_what_the_opponent_loaded_face_down():
    """Two games alike but for which bullet seat 2 loaded face down: seat 1's ブレインハック is offered
    the same reveal moves in both (names and copy ids), so the list leaks nothing (GG-P4, GG-T8)."""
    from engines.gun_and_gun.moves import UseSkill

    offers = []
    first = GAME.new(2, "double-edge", deal="physical")
    first.apply(EndMain(0))
    loads = [m for m in manual_moves(first, 1) if isinstance(m, Load) and m.gun == 0]
    names = {first.table.card(m.card).name: m for m in loads}
    assert len(names) >= 2
    for load in list(names.values())[:2]:
        state = first.copy()
        state.apply(load)
        state.apply(EndMain(1))
        for gun in (0, 1):
            twin = state.copy()
            twin.apply(UseSkill(0, gun))
            _check_offer(twin, 0)
            offers.append((gun, manual_moves(twin, 0)))
    assert offers[0] == offers[2] and offers[1] == offers[3]
