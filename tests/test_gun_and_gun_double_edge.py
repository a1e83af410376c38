"""ダブルエッジ (docs/rules/gun-and-gun.md GG-DE-1 .. GG-DE-14): one test per rule
of the source text and per FAQ item, named after it."""

from __future__ import annotations

from engines.core import ChanceMove, ChanceRequest
from engines.gun_and_gun.double_edge import FACES_DECLARER, FACES_OPPONENT
from engines.gun_and_gun.moves import (
    Activate,
    EndMain,
    Load,
    PlayAction,
    PlayFunction,
    ResolveFunction,
    Respond,
    SetResponse,
    Shoot,
    UseSkill,
)
from tests.test_gun_and_gun import arrange, end_turn, rejected

SELF = ChanceMove((FACES_DECLARER,))
OPPONENT = ChanceMove((FACES_OPPONENT,))


def hands(state):
    return [len(p.hand) for p in state.snapshot.players]


def loaded(state, seat):
    return sum(len(x) for x in state.snapshot.players[seat].loaded)


def turn_order(state, n):
    """Seats of the next ``n`` turns, ending each without playing anything."""
    out = []
    for _ in range(n):
        end_turn(state)
        out.append((state.snapshot.active, state.snapshot.extra))
    return out


# ---- GG-DE-3 / GG-DE-4: declare, toss, resolve; the coin ---------------------

def test_gg_de_3_declare_then_toss_then_resolve():
    arranged = arrange(hands=(("resupply",), ()))
    state = arranged.state
    card = arranged.id(0, "resupply")
    events = state.apply(PlayAction(0, card, double_edge=True))
    assert [e.type for e in events] == ["card-played", "double-edge-declared"]
    assert hands(state) == [0, 0]  # nothing resolved yet
    assert state.to_act() == frozenset()
    assert state.pending_chance() == ChanceRequest("coin", (2,), seat=0, label=state.pending_chance().label)
    assert rejected(state, EndMain(0)).rule == "CORE-4"
    assert state.view(None)["pending"]["card"]["id"] == card  # the card in play is public
    events = state.apply(SELF)
    assert events[0].type == "coin-tossed" and events[0].faces == "declarer"


def test_gg_de_4_toss_values_and_seat():
    arranged = arrange(hands=((), ()), functions=(("reload-supporter",), ()))
    state = arranged.state
    state.apply(EndMain(0))
    state.apply(ResolveFunction(0, arranged.id(0, "reload-supporter"), double_edge=True))
    request = state.pending_chance()
    assert (request.kind, request.ranges, request.seat) == ("coin", (2,), 0)
    assert "0 = the coin faces the declarer" in request.label
    assert rejected(state, ChanceMove((2,))).rule == "CORE-3"


# ---- GG-DE-5: faces the declarer --------------------------------------------

def test_gg_de_5_draw_two_twice_is_four():
    arranged = arrange(hands=(("resupply",), ()))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "resupply"), double_edge=True))
    events = state.apply(SELF)
    assert hands(state) == [4, 0]
    assert [e.type for e in events].count("effect-resolved") == 2


def test_gg_de_5_keiryaku_draws_three_then_three_more():
    arranged = arrange(hands=(("keiryaku",), ()), voltage=(1, 0))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "keiryaku"), double_edge=True))
    state.apply(SELF)
    assert hands(state) == [6, 0]


def test_gg_de_5_blitz_gives_two_extra_turns():
    arranged = arrange(hands=(("blitz",), ()), voltage=(4, 0))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "blitz"), double_edge=True))
    state.apply(SELF)
    assert state.snapshot.extra_turns == (0, 0)
    assert turn_order(state, 4) == [(0, True), (0, True), (1, False), (0, False)]


def test_gg_de_5_reload_supporter_loads_one_then_one_more():
    arranged = arrange(functions=(("reload-supporter",), ()))
    state = arranged.state
    state.apply(EndMain(0))
    state.apply(ResolveFunction(0, arranged.id(0, "reload-supporter"), double_edge=True))
    state.apply(SELF)
    assert loaded(state, 0) == 2 and loaded(state, 1) == 0
    assert state.snapshot.players[0].loaded == ((state.snapshot.players[0].loaded[0][0],),
                                                (state.snapshot.players[0].loaded[1][0],))  # GG-R5: emptier gun
    assert state.snapshot.active == 1  # the down phase had nothing left: the turn ended


# ---- GG-DE-6: faces the opponent --------------------------------------------

def test_gg_de_6_draw_two_resolved_by_the_opponent():
    arranged = arrange(hands=(("resupply",), ()))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "resupply"), double_edge=True))
    events = state.apply(OPPONENT)
    assert hands(state) == [0, 2]
    assert [(e.type, getattr(e, "resolver", None)) for e in events if e.type == "effect-resolved"] == [
        ("effect-resolved", 1)]


def test_gg_de_6_keiryaku_the_opponent_draws_three():
    arranged = arrange(hands=(("keiryaku",), ()), voltage=(1, 0))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "keiryaku"), double_edge=True))
    state.apply(OPPONENT)
    assert hands(state) == [0, 3]


def test_gg_de_6_blitz_the_opponent_takes_an_extra_turn_after_this_one():
    arranged = arrange(hands=(("blitz",), ()), voltage=(4, 0))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "blitz"), double_edge=True))
    state.apply(OPPONENT)
    assert state.snapshot.extra_turns == (1,)
    # GG-R9: the extra turn is added; seat 2's regular turn still follows
    assert turn_order(state, 3) == [(1, True), (1, False), (0, False)]


def test_gg_de_6_reload_supporter_the_opponent_loads_one():
    arranged = arrange(functions=(("reload-supporter",), ()), loaded=(((), ()), (("slug",), ())))
    state = arranged.state
    state.apply(EndMain(0))
    state.apply(ResolveFunction(0, arranged.id(0, "reload-supporter"), double_edge=True))
    state.apply(OPPONENT)
    assert loaded(state, 0) == 0
    p1 = state.snapshot.players[1]
    assert len(p1.loaded[0]) == 1 and len(p1.loaded[1]) == 1  # GG-R5: into the emptier gun, from its deck
    assert p1.loaded[1][0].startswith("1B-")


def test_gg_de_6_damage_resolved_by_the_opponent_hits_the_player_who_played():
    arranged = arrange(hands=(("grenade",), ()), voltage=(2, 0))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "grenade"), double_edge=True))
    state.apply(OPPONENT)
    assert [p.life for p in state.snapshot.players] == [27, 30]


# ---- GG-DE-7 / FAQ 2: costs --------------------------------------------------

def test_faq2_costs_paid_once_by_the_player_who_played():
    for coin in (SELF, OPPONENT):
        arranged = arrange(hands=(("blitz",), ()), voltage=(5, 2))
        state = arranged.state
        state.apply(PlayAction(0, arranged.id(0, "blitz"), double_edge=True))
        state.apply(coin)
        p0, p1 = state.snapshot.players
        assert len(p0.trash) == 2  # cost 2, paid once, by seat 1
        assert len(p0.voltage) == 5 - 2 + 1  # the rest, plus ブリッツ itself
        assert len(p1.trash) == 0 and len(p1.voltage) == 2  # the opponent pays nothing


def test_gg_de_7_no_extra_cost_for_declaring():
    arranged = arrange(hands=(("keiryaku",), ()), voltage=(1, 0))
    state = arranged.state
    assert PlayAction(0, arranged.id(0, "keiryaku"), True) in state.legal_moves(0)  # voltage 1 = the cost alone


# ---- GG-DE-2 / FAQ 1 / FAQ 3: once per turn ------------------------------------

def test_faq1_once_every_turn():
    arranged = arrange(hands=(("resupply", "resupply"), ("resupply",)))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "resupply", 0), double_edge=True))
    state.apply(SELF)
    assert rejected(state, PlayAction(0, arranged.id(0, "resupply", 1), double_edge=True)).rule == "GG-DE-2"
    end_turn(state)
    assert state.snapshot.active == 1 and not state.snapshot.de_used
    state.apply(PlayAction(1, arranged.id(1, "resupply"), double_edge=True))  # a new turn: allowed again
    state.apply(SELF)
    end_turn(state)
    assert state.snapshot.active == 0
    card = next(c for c in state.snapshot.players[0].hand if state.table.card(c).type == "action"
                and state.table.card(c).cost == 0 and not state.table.card(c).additional_cost)
    state.apply(PlayAction(0, card, double_edge=True))
    assert state.pending_chance() is not None


def test_faq3_one_declaration_however_many_cards():
    arranged = arrange(hands=(("resupply", "keiryaku", "first-aid"), ()), voltage=(3, 0),
                       functions=(("reload-supporter",), ()))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "resupply"), double_edge=True))
    state.apply(OPPONENT)
    verdict = rejected(state, PlayAction(0, arranged.id(0, "keiryaku"), double_edge=True))
    assert verdict.rule == "GG-DE-2" and "once per turn" in verdict.message and verdict.fix
    assert PlayAction(0, arranged.id(0, "keiryaku"), True) not in state.legal_moves(0)
    state.apply(PlayAction(0, arranged.id(0, "keiryaku")))  # playing without declaring is fine
    state.apply(PlayAction(0, arranged.id(0, "first-aid")))
    state.apply(EndMain(0))  # the down phase is the same turn
    rs = arranged.id(0, "reload-supporter")
    assert rejected(state, ResolveFunction(0, rs, double_edge=True)).rule == "GG-DE-2"


# ---- GG-DE-8 / GG-DE-9 / FAQ 4 / FAQ 5: what it never applies to ---------------

def test_faq4_response_cards_refused():
    arranged = arrange(hands=(("body-armour",), ()), loaded=(((), ()), (("slug",), ())),
                       responses=((), ()))
    state = arranged.state
    assert rejected(state, SetResponse(0, arranged.id(0, "body-armour"), double_edge=True)).rule == "GG-DE-9.2"
    state.apply(SetResponse(0, arranged.id(0, "body-armour")))
    end_turn(state)
    state.apply(Shoot(1, 0))
    assert state.to_act() == {0}
    assert all(not getattr(m, "double_edge", False) for m in state.legal_moves(0))
    assert rejected(state, Respond(0, arranged.id(0, "body-armour"), double_edge=True)).rule == "GG-DE-9.2"


def test_faq5_bullet_cards_refused():
    arranged = arrange(hands=(("9mm-round",), ()))
    state = arranged.state
    verdict = rejected(state, Load(0, 0, arranged.id(0, "9mm-round"), double_edge=True))
    assert verdict.rule == "GG-DE-9.1" and "銃弾" in verdict.message


def test_gg_de_9_3_shot_damage_and_shooting_effects_refused():
    arranged = arrange(loaded=((("slug",), ()), ((), ())))
    state = arranged.state
    assert rejected(state, Shoot(0, 0, double_edge=True)).rule == "GG-DE-9.3"
    assert Shoot(0, 0) in state.legal_moves(0) and Shoot(0, 0, True) not in state.legal_moves(0)


def test_gg_de_9_7_skill_effects_refused():
    arranged = arrange(gunners=("gina", "raven"))
    state = arranged.state
    verdict = rejected(state, UseSkill(0, 0, double_edge=True))
    assert verdict.rule == "GG-DE-9.7" and "activate" in verdict.fix


def test_gg_de_8_only_action_and_function_moves_offer_a_declaration():
    arranged = arrange(hands=(("resupply", "reload-supporter", "body-armour", "9mm-round"), ()),
                       loaded=((("slug",), ()), ((), ())))
    state = arranged.state
    declared = {type(m).__name__ for m in state.legal_moves(0) if getattr(m, "double_edge", False)}
    assert declared == {"PlayAction"}


# ---- GG-DE-10 / FAQ 7: card limits unchanged ----------------------------------

def test_faq7_once_per_turn_limit_unchanged():
    arranged = arrange(hands=(("keiryaku", "keiryaku"), ()), voltage=(3, 0))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "keiryaku", 0), double_edge=True))
    state.apply(SELF)
    assert state.snapshot.uses == ("keiryaku",)  # resolved twice, used once
    assert rejected(state, PlayAction(0, arranged.id(0, "keiryaku", 1))).rule == "GG-5.4"


def test_faq7_the_opponent_resolving_uses_none_of_their_limits():
    arranged = arrange(hands=(("blitz",), ("blitz",)), voltage=(4, 4))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "blitz"), double_edge=True))
    state.apply(OPPONENT)
    end_turn(state)
    assert (state.snapshot.active, state.snapshot.extra) == (1, True)
    state.apply(PlayAction(1, arranged.id(1, "blitz")))  # seat 2 may still play its own ブリッツ
    assert state.snapshot.extra_turns == (1,)


# ---- GG-DE-11 / FAQ 8: an action activated by a skill ---------------------------

def test_faq8_brain_hack_declared_and_faces_the_declarer():
    arranged = arrange(deck_tops=(((), ()), (("keiryaku",), ())))
    state = arranged.state
    state.apply(UseSkill(0, 0))
    assert state.to_act() == {0}
    assert state.legal_moves(0) == [Activate(0, False), Activate(0, True)]
    assert rejected(state, EndMain(0)).rule == "GG-4.6.2"
    state.apply(Activate(0, double_edge=True))
    state.apply(SELF)
    assert hands(state) == [6, 0]
    p0, p1 = state.snapshot.players
    assert p0.trash == () and p0.voltage == ()  # no cost paid (ブレインハック)
    assert p1.voltage == (arranged.id(1, "keiryaku"),)  # the card returns to its owner's voltage area


def test_faq8_brain_hack_faces_the_opponent_who_resolves_the_action():
    arranged = arrange(deck_tops=(((), ()), ((), ("blitz",))))
    state = arranged.state
    state.apply(UseSkill(0, 1))
    state.apply(Activate(0, double_edge=True))
    state.apply(OPPONENT)
    assert state.snapshot.extra_turns == (1,)
    assert state.snapshot.players[1].voltage == (arranged.id(1, "blitz"),)


def test_faq8_brain_hack_declaration_is_once_per_turn_too():
    arranged = arrange(hands=(("resupply",), ()), deck_tops=(((), ()), (("keiryaku",), ())))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "resupply"), double_edge=True))
    state.apply(SELF)
    state.apply(UseSkill(0, 0))
    assert state.legal_moves(0) == [Activate(0, False)]
    assert rejected(state, Activate(0, double_edge=True)).rule == "GG-DE-2"


# ---- GG-DE-12 / FAQ 6: function cards in the down phase -------------------------

def test_faq6_function_declared_in_down_phase():
    arranged = arrange(hands=(("reload-supporter",), ()))
    state = arranged.state
    card = arranged.id(0, "reload-supporter")
    verdict = rejected(state, PlayFunction(0, card, double_edge=True))
    assert verdict.rule == "GG-DE-12" and "down phase" in verdict.message
    state.apply(PlayFunction(0, card))
    state.apply(EndMain(0))
    assert state.snapshot.phase == "down"
    assert ResolveFunction(0, card, True) in state.legal_moves(0)
    state.apply(ResolveFunction(0, card, double_edge=True))
    assert state.pending_chance().seat == 0


# ---- GG-DE-13 / FAQ 9: several function cards with the same effect ---------------

def test_faq9_same_effect_functions_first_only():
    arranged = arrange(functions=(("reload-supporter", "reload-supporter"), ()))
    state = arranged.state
    first, second = arranged.id(0, "reload-supporter", 0), arranged.id(0, "reload-supporter", 1)
    state.apply(EndMain(0))
    state.apply(ResolveFunction(0, first, double_edge=True))
    state.apply(SELF)
    verdict = rejected(state, ResolveFunction(0, second, double_edge=True))
    assert verdict.rule == "GG-DE-13"
    state.apply(ResolveFunction(0, second))
    assert loaded(state, 0) == 3


def test_faq9_second_copy_refused_even_when_the_first_was_not_declared_on():
    arranged = arrange(functions=(("reload-supporter", "reload-supporter", "magazine-swap"), ()),
                       loaded=((("slug",), ()), ((), ())))
    state = arranged.state
    first, second = arranged.id(0, "reload-supporter", 0), arranged.id(0, "reload-supporter", 1)
    assert first != second  # each copy has its own id; the effect is what counts (GG-R10)
    state.apply(EndMain(0))
    state.apply(ResolveFunction(0, first))
    assert rejected(state, ResolveFunction(0, second, double_edge=True)).rule == "GG-DE-13"
    assert ResolveFunction(0, second, True) not in state.legal_moves(0)
    # a function with another effect may still take the turn's declaration
    assert ResolveFunction(0, arranged.id(0, "magazine-swap"), True) in state.legal_moves(0)


# ---- GG-DE-14 / FAQ 10: additional costs ----------------------------------------

def test_faq10_additional_cost_unpayable_refuses_the_declaration():
    arranged = arrange(hands=(("assault",), ()))
    state = arranged.state
    verdict = rejected(state, PlayAction(0, arranged.id(0, "assault"), double_edge=True))
    assert verdict.rule == "GG-DE-14" and verdict.fix


def test_faq10_additional_cost_payable_resolves_twice_and_is_paid_once():
    arranged = arrange(hands=(("assault",), ()), loaded=((("slug", "9mm-round"), ()), ((), ())))
    state = arranged.state
    state.apply(PlayAction(0, arranged.id(0, "assault"), double_edge=True))
    state.apply(SELF)
    assert state.snapshot.players[1].life == 30 - 2 - 2
    assert loaded(state, 0) == 1  # unload 1, once (GG-R11)
    assert state.snapshot.players[0].voltage == (arranged.id(0, "9mm-round"), arranged.id(0, "assault"))


def test_faq10_function_additional_cost_checked_when_it_resolves():
    arranged = arrange(hands=(("magazine-swap",), ()), loaded=((("slug",), ()), ((), ())))
    state = arranged.state
    card = arranged.id(0, "magazine-swap")
    state.apply(PlayFunction(0, card))
    state.apply(Shoot(0, 0))  # the only loaded card is fired: the additional cost is now unpayable
    state.apply(EndMain(0))
    assert ResolveFunction(0, card, True) not in state.legal_moves(0)
    assert rejected(state, ResolveFunction(0, card, double_edge=True)).rule == "GG-DE-14"
    events = state.apply(ResolveFunction(0, card))
    assert "function-fizzled" in [e.type for e in events]
