"""The Attack phase (KN-7): declaring attackers, blocking, and resolving every
attacker in turn exactly as the rulebook's six examples do.

Resolution runs by itself and stops only where the attacker has a real choice:
which Defense takes the next point of damage (KN-7.8) and which blockers an
outpowered attacker takes down (KN-7.7).  A decision with a single possible
answer is made by the engine (ruling KN-R20).
"""

from __future__ import annotations

from dataclasses import replace

from engines.core import Event, Move, Reject
from engines.keener import events as E
from engines.keener.field import damage_commander, damage_defense, take_off
from engines.keener.figures import find_defense, find_fighter, lp, pv
from engines.keener.moves import AssignDamage, Attack, Block, Kill, Pass
from engines.keener.snapshot import Snap
from engines.keener.turn import end_turn


def attack_problem(s: Snap, seat: int, fighter: str) -> str | None:
    side = s.sides[seat]
    piece = find_fighter(side, fighter)
    if piece is None:
        return f"{fighter} is not one of your face-up Fighters"
    if piece.asleep:
        return f"{fighter} is asleep (Lullaby) and cannot attack"
    if fighter in s.combat.attackers:
        return f"{fighter} is already attacking"
    return None


def declare(s: Snap, move: Move, ev: list[Event]) -> Snap:
    """KN-7.1: the attacker chooses attackers one by one, then passes."""
    if isinstance(move, Pass):
        if not s.combat.attackers:
            return end_turn(s, ev)
        return replace(s, phase="block")
    if not isinstance(move, Attack):
        raise Reject("KN-7.1", f"now you choose attackers or pass, not {move.type}",
                     "attack with a Fighter or pass")
    problem = attack_problem(s, s.active, move.fighter)
    if problem:
        raise Reject("KN-7.1", problem, "attack with one of your awake face-up Fighters")
    ev.append(E.Attacking(s.active, move.fighter))
    return replace(s, combat=replace(s.combat, attackers=(*s.combat.attackers, move.fighter)))


def block_problem(s: Snap, seat: int, blocker: str, attacker: str) -> str | None:
    piece = find_fighter(s.sides[seat], blocker)
    if piece is None:
        return f"{blocker} is not one of your face-up Fighters"
    if piece.asleep:
        return f"{blocker} is asleep (Lullaby) and cannot block"
    if any(b == blocker for b, _ in s.combat.blocks):
        return f"{blocker} is already blocking (a Fighter blocks one attacker)"
    if attacker not in s.combat.attackers:
        return f"{attacker} is not attacking"
    return None


def block(s: Snap, move: Move, ev: list[Event]) -> Snap:
    """KN-7.2: the defender blocks attackers with any number of Fighters, one per move, then passes."""
    if isinstance(move, Pass):
        return resolve(replace(s, combat=replace(s.combat, queue=s.combat.attackers)), ev)
    if not isinstance(move, Block):
        raise Reject("KN-7.2", f"now you block, turn a cloaked card up, or pass, not {move.type}",
                     "block an attacker or pass")
    problem = block_problem(s, move.seat, move.blocker, move.attacker)
    if problem:
        raise Reject("KN-7.2", problem, "block an attacker with one of your free, awake Fighters")
    ev.append(E.Blocking(move.seat, move.blocker, move.attacker))
    return replace(s, combat=replace(s.combat, blocks=(*s.combat.blocks, (move.blocker, move.attacker))))


def blockers_of(s: Snap, attacker: str) -> list[str]:
    defender = s.sides[1 - s.active]
    return [b for b, a in s.combat.blocks if a == attacker and find_fighter(defender, b) is not None]


def kill_candidates(s: Snap) -> list[str]:
    """Blockers the outpowered attacker can still take down: PV within its remaining budget (KN-7.7)."""
    defender = s.sides[1 - s.active]
    out = []
    for b in blockers_of(s, s.combat.current):
        piece = find_fighter(defender, b)
        if piece is not None and pv(defender, piece) <= s.combat.budget:
            out.append(b)
    return out


def resolve(s: Snap, ev: list[Event]) -> Snap:
    """Resolve attackers in declaration order until a choice is needed or the turn ends."""
    att, dfd = s.active, 1 - s.active
    while s.phase != "over":
        c = s.combat
        if c.damage > 0:
            defenses = s.sides[dfd].defenses
            if not defenses:  # ruling KN-R5: what no Defense absorbs reaches the Commander
                s = damage_commander(replace(s, combat=replace(c, damage=0)), dfd, c.damage, ev)
                continue
            if len(defenses) == 1:
                amount = min(c.damage, lp(defenses[0]))
                s = replace(s, combat=replace(c, damage=c.damage - amount))
                s = damage_defense(s, dfd, defenses[0].id, amount, ev)
                continue
            return replace(s, phase="assign")
        if c.budget > 0:
            candidates = kill_candidates(s)
            if not candidates:
                s = replace(s, combat=replace(c, budget=0))
                continue
            if len(candidates) == 1:
                s = _kill(s, candidates[0], ev)
                continue
            return replace(s, phase="kill")
        if not c.queue:
            return end_turn(s, ev)
        attacker, queue = c.queue[0], c.queue[1:]
        s = replace(s, combat=replace(c, queue=queue, current=attacker))
        piece = find_fighter(s.sides[att], attacker)
        if piece is None:  # removed from the game by a Bear Trap or Master Assassin
            continue
        power = pv(s.sides[att], piece)
        blockers = blockers_of(s, attacker)
        if not blockers:  # example 1: all of its PV is damage
            s = replace(s, combat=replace(s.combat, damage=power))
            continue
        total = sum(pv(s.sides[dfd], find_fighter(s.sides[dfd], b)) for b in blockers)  # type: ignore[arg-type]
        if power >= total:  # examples 2-4: the blockers die; any excess spills over
            for b in blockers:
                s = take_off(s, dfd, b, "discard", ev)
            if power == total:
                s = take_off(s, att, attacker, "discard", ev)
            else:
                s = replace(s, combat=replace(s.combat, damage=power - total))
            continue
        # examples 5-6: the attacker dies and takes down only blockers it can
        s = take_off(s, att, attacker, "discard", ev)
        s = replace(s, combat=replace(s.combat, budget=power))
    return s


def _kill(s: Snap, blocker: str, ev: list[Event]) -> Snap:
    dfd = 1 - s.active
    power = pv(s.sides[dfd], find_fighter(s.sides[dfd], blocker))  # type: ignore[arg-type]
    s = replace(s, combat=replace(s.combat, budget=s.combat.budget - power))
    return take_off(s, dfd, blocker, "discard", ev)


def assign(s: Snap, move: Move, ev: list[Event]) -> Snap:
    """KN-7.8: the attacker puts the next point of damage on a Defense of its choice."""
    if not isinstance(move, AssignDamage):
        raise Reject("KN-7.8", f"assign {s.combat.damage} damage to the opponent's Defenses first, not {move.type}",
                     "assign one point to a Defense")
    dfd = 1 - s.active
    if find_defense(s.sides[dfd], move.target) is None:
        raise Reject("KN-7.8", f"{move.target} is not one of the opponent's Defenses; damage goes to Defenses "
                     "before the Commander", "name a Defense")
    s = replace(s, combat=replace(s.combat, damage=s.combat.damage - 1), phase="resolve")
    s = damage_defense(s, dfd, move.target, 1, ev)
    return resolve(s, ev)


def kill(s: Snap, move: Move, ev: list[Event]) -> Snap:
    if not isinstance(move, Kill):
        raise Reject("KN-7.7", f"choose which blocker your Fighter takes down, not {move.type}",
                     "name one of its blockers")
    if move.blocker not in kill_candidates(s):
        raise Reject("KN-7.7", f"{move.blocker} is not a blocker your Fighter can take down (its PV must fit within "
                     f"the {s.combat.budget} PV left)", "name another blocker")
    s = replace(_kill(s, move.blocker, ev), phase="resolve")
    return resolve(s, ev)
