"""Power and life as they stand now: printed figures, Equipment, Ferra, The Abomination, Lullaby.

Figures are computed, never stored, so a card that leaves or joins changes
every figure at once and no stale number can survive a move.
"""

from __future__ import annotations

from dataclasses import replace

from engines.keener.ids import card_of
from engines.keener.snapshot import Piece, Side, Snap


def gear_bonus(piece: Piece, ability: str) -> int:
    total = 0
    for g in piece.gear:
        card = card_of(g)
        if card.ability == ability:
            total += card.params["amount"]
    return total


def own_pv(piece: Piece) -> int:
    """PV without the Commander's bonus: printed + Equipment + every Fighter merged into it (KN-9.3)."""
    return card_of(piece.id).pv + gear_bonus(piece, "equip-pv") + sum(own_pv(m) for m in piece.merged)


def side_bonus(side: Side) -> int:
    """+1 PV for each Fighter on Ferra's side (KN-9.2)."""
    return 1 if card_of(side.commander).ability == "ferra-fighters-plus-one" else 0


def pv(side: Side, piece: Piece) -> int:
    return own_pv(piece) + side_bonus(side)


def lp(piece: Piece) -> int:
    """Life points a Defense has left."""
    return card_of(piece.id).lp + gear_bonus(piece, "equip-lp") - piece.wounds


def commander_lp(side: Side) -> int:
    return max(0, card_of(side.commander).lp - side.wounds)


def find_fighter(side: Side, fid: str) -> Piece | None:
    for f in side.fighters:
        if f.id == fid:
            return f
    return None


def find_defense(side: Side, did: str) -> Piece | None:
    for d in side.defenses:
        if d.id == did:
            return d
    return None


def settle_sleep(s: Snap) -> tuple[Snap, list[str]]:
    """Wake every sleeping Fighter that now faces an awake Fighter of equal or greater PV (KN-9.5).

    A Fighter that entered or was raised is the only way an awake Fighter can
    reach a sleeper's PV, so checking the state after each move is the
    rulebook's "until another Fighter enters ... or has its PV increased".
    """
    awake = [pv(side, f) for side in s.sides for f in side.fighters if not f.asleep]
    if not awake:
        return s, []
    best = max(awake)
    woken: list[str] = []
    sides = []
    for side in s.sides:
        fighters = []
        for f in side.fighters:
            if f.asleep and best >= pv(side, f):
                f = replace(f, asleep=False)
                woken.append(f.id)
            fighters.append(f)
        sides.append(replace(side, fighters=tuple(fighters)) if woken else side)
    if not woken:
        return s, []
    return replace(s, sides=tuple(sides)), woken
