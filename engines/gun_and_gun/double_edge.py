"""ダブルエッジ: once per turn, a coin decides whether an action or function
effect resolves twice for its player or once for the opponent instead
(docs/rules/gun-and-gun.md, GG-DE-1 .. GG-DE-14).

The host game calls :func:`declaration_refusal` before it lets a move carry a
declaration, :func:`declare` instead of resolving, and :func:`resolve_toss`
when the coin lands.  Costs are never touched here: the host paid them before
the declaration, once, from the player who played the card (GG-DE-7).
"""

from __future__ import annotations

from engines.core import ChanceRequest, Reject
from engines.gun_and_gun import events as ev
from engines.gun_and_gun import rules
from engines.gun_and_gun.snapshot import Pending, Snap, Table, Toss, evolve

FACES_DECLARER = 0
"""Coin value 0: the coin faces the declarer (自分を向いた): the effect resolves again."""
FACES_OPPONENT = 1
"""Coin value 1: the coin faces the opponent (相手を向いた): the opponent resolves it instead."""
FACES = ("declarer", "opponent")


def declaration_refusal(table: Table, s: Snap, seat: int, card_id: str, source: str) -> Reject | None:
    """Why ``seat`` may not declare on the effect of ``card_id`` now, or None.

    ``source``: ``hand`` (a played action), ``skill`` (an action a skill
    activates) or ``function`` (a function card resolving in the down phase).
    """
    card = table.card(card_id)
    if seat != s.active:
        return Reject("GG-DE-2", "only the player whose turn it is may declare ダブルエッジ")
    if card.type not in ("action", "function"):  # the moves never offer this; kept as a guard
        return Reject("GG-DE-8", f"{card.name} is not an action or function card")
    if source == "function" and card.effect_key in s.resolved_effects:
        return Reject("GG-DE-13", f"a function card with the same effect as {card.name} already resolved this "
                      "down phase; only the first of them may take ダブルエッジ",
                      "resolve it without declaring")
    if s.de_used:
        return Reject("GG-DE-2", "ダブルエッジ was already declared this turn (once per turn, however many "
                      "cards you play)", "play the card without declaring")
    if source != "skill" and not rules.additional_cost_payable(s.players[seat], card):
        return Reject("GG-DE-14", f"the additional cost of {card.name} cannot be paid, so ダブルエッジ cannot be "
                      "declared on it", "load a card first, or play it without declaring")
    return None


def declare(s: Snap, seat: int, card_id: str, source: str) -> rules.Result:
    """GG-DE-3: the declaration comes first; the effect waits for the toss."""
    s = evolve(s, de_used=True, pending=Pending("coin", seat, card_id, source))
    return s, [ev.DoubleEdgeDeclared(seat, card_id)]


def toss_request(s: Snap) -> ChanceRequest:
    assert s.pending is not None
    return ChanceRequest("coin", (2,), seat=s.pending.seat,
                         label="ダブルエッジ: 0 = the coin faces the declarer, 1 = it faces the opponent")


def resolve_toss(table: Table, s: Snap, value: int) -> rules.Result:
    """GG-DE-5 / GG-DE-6: twice for the declarer, or once for the opponent."""
    pending = s.pending
    assert pending is not None and pending.kind == "coin"
    declarer, card_id = pending.seat, pending.card
    s = evolve(s, pending=None)
    events: list = [ev.CoinTossed(declarer, FACES[value])]
    if value == FACES_DECLARER:
        resolvers = (declarer, declarer)
    else:
        resolvers = (rules.other(declarer),)
    s = evolve(s, de_last=Toss(declarer, card_id, FACES[value], resolvers[0], len(resolvers), s.turn))
    for resolver in resolvers:
        if s.phase == "over":
            break
        s, more = rules.resolve_card(table, s, card_id, resolver)
        events += more
    return s, events
