"""Every legal move of the seat to act, listed step by step so the list stays short:
one attacker, one block, one point of damage or one kill per move, then "pass".

The same predicates as the rules (attack_problem, block_problem, window, ...)
decide what is listed, so the list and the checks cannot drift apart; the
conformance test also applies every listed move.
"""

from __future__ import annotations

from engines.core import Move
from engines.keener.catalog import CARDS
from engines.keener.cloak import CLOAK_COST, trap_targets, window
from engines.keener.combat import attack_problem, block_problem, kill_candidates
from engines.keener.field import can_pay
from engines.keener.ids import card_of
from engines.keener.moves import AssignDamage, Attack, Block, Cloak, Deploy, Kill, Pass, PlayGenerator, Uncloak
from engines.keener.snapshot import Snap


def _uncloaks(s: Snap, seat: int) -> list[Move]:
    side = s.sides[seat]
    out: list[Move] = []
    for f in side.face_down:
        card = card_of(f.card)
        if window(s, seat, card.ability) is None or not can_pay(side.bank, card.reveal_cost):  # type: ignore[arg-type]
            continue
        if card.ability == "bear-trap":
            out.extend(Uncloak(seat, f.slot, target=t) for t in trap_targets(s, seat))
        else:
            out.append(Uncloak(seat, f.slot))
    return out


def legal_moves(s: Snap, seat: int) -> list[Move]:
    side = s.sides[seat]
    phase = s.phase
    if phase == "economy":
        return [*(PlayGenerator(seat, c) for c in side.hand if card_of(c).type == "generator"), Pass(seat)]
    if phase == "spending":
        out: list[Move] = []
        for c in side.hand:
            card = CARDS[c.partition(":")[2].partition("#")[0]]
            if card.type == "generator":
                continue
            if card.cloak and side.bank[3] >= CLOAK_COST[3]:
                out.append(Cloak(seat, c))
            if not can_pay(side.bank, card.cost):
                continue
            if card.type == "equipment":
                group = side.fighters if card.ability == "equip-pv" else side.defenses
                out.extend(Deploy(seat, c, p.id) for p in group)
            else:
                out.append(Deploy(seat, c))
        out.extend(_uncloaks(s, seat))
        out.append(Pass(seat))
        return out
    if phase == "declare":
        out = [Attack(seat, f.id) for f in side.fighters if attack_problem(s, seat, f.id) is None]
        out.extend(_uncloaks(s, seat))
        out.append(Pass(seat))
        return out
    if phase == "block":
        out = [Block(seat, f.id, a) for f in side.fighters for a in s.combat.attackers
               if block_problem(s, seat, f.id, a) is None]
        out.extend(_uncloaks(s, seat))
        out.append(Pass(seat))
        return out
    if phase == "assign":
        return [AssignDamage(seat, d.id) for d in s.sides[1 - seat].defenses]
    if phase == "kill":
        return [Kill(seat, b) for b in kill_candidates(s)]
    return []
