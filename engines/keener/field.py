"""Cards arriving on and leaving the field, damage, payment and the end of the game.

Small pure functions on :class:`Snap` shared by the turn, combat and cloak
rules; each appends the public events it causes to ``ev``.
"""

from __future__ import annotations

from dataclasses import replace

from engines.core import Event, Reject
from engines.keener import events as E
from engines.keener.catalog import RESOURCES, Cost
from engines.keener.figures import commander_lp, lp, settle_sleep
from engines.keener.ids import card_of
from engines.keener.snapshot import Bank, Piece, Side, Snap


def with_side(s: Snap, seat: int, side: Side) -> Snap:
    sides = (side, s.sides[1]) if seat == 0 else (s.sides[0], side)
    return replace(s, sides=sides)


def can_pay(bank: Bank, cost: Cost) -> bool:
    return all(b >= c for b, c in zip(bank, cost, strict=True))


def describe(cost: Cost) -> str:
    parts = [f"{n} {r.capitalize()}" for n, r in zip(cost, RESOURCES, strict=True) if n]
    return ", ".join(parts) or "nothing"


def pay(s: Snap, seat: int, cost: Cost, rule: str, what: str, ev: list[Event]) -> Snap:
    """Take ``cost`` from the seat's bank or reject naming what is missing."""
    side = s.sides[seat]
    if not can_pay(side.bank, cost):
        short = tuple(max(0, c - b) for b, c in zip(side.bank, cost, strict=True))
        raise Reject(rule, f"{what} costs {describe(cost)}; your bank is short of {describe(short)}",
                     "play it when your generators have produced enough")
    if any(cost):
        ev.append(E.Paid(seat, cost))
        side = replace(side, bank=tuple(b - c for b, c in zip(side.bank, cost, strict=True)))
        s = with_side(s, seat, side)
    return s


def gain(s: Snap, seat: int, amounts: Cost, ev: list[Event]) -> Snap:
    if not any(amounts):
        return s
    side = s.sides[seat]
    ev.append(E.Gained(seat, amounts))
    return with_side(s, seat, replace(side, bank=tuple(b + g for b, g in zip(side.bank, amounts, strict=True))))


def is_abomination(piece: Piece) -> bool:
    return card_of(piece.id).ability == "abomination-combines"


def enter_fighter(s: Snap, seat: int, piece: Piece, ev: list[Event]) -> Snap:
    """A Fighter joins its side; The Abomination combines every Fighter of its side into itself (KN-9.3)."""
    side = s.sides[seat]
    if is_abomination(piece):
        for f in side.fighters:
            ev.append(E.Combined(seat, piece.id, f.id))
        piece = replace(piece, merged=piece.merged + tuple(replace(f, asleep=False) for f in side.fighters))
        fighters: tuple[Piece, ...] = (piece,)
    else:
        host = next((i for i, f in enumerate(side.fighters) if is_abomination(f)), None)
        if host is None:
            fighters = (*side.fighters, piece)
        else:
            big = side.fighters[host]
            ev.append(E.Combined(seat, big.id, piece.id))
            big = replace(big, merged=(*big.merged, replace(piece, asleep=False)))
            fighters = side.fighters[:host] + (big,) + side.fighters[host + 1:]
    s = with_side(s, seat, replace(side, fighters=fighters))
    return wake(s, ev)


def wake(s: Snap, ev: list[Event]) -> Snap:
    s, woken = settle_sleep(s)
    ev.extend(E.Woke(w) for w in woken)
    return s


def _all_cards(piece: Piece) -> list[str]:
    """The piece, its gear and everything merged into it (they leave together)."""
    out = [piece.id, *piece.gear]
    for m in piece.merged:
        out.extend(_all_cards(m))
    return out


def take_off(s: Snap, seat: int, card: str, to: str, ev: list[Event]) -> Snap:
    """Move a Fighter or Defense (with its gear and merged Fighters) to the discard pile or out of the game.

    Equipment always goes to the discard pile; the card itself (and the
    Fighters merged into it) go to ``to`` ("discard" or "removed")."""
    side = s.sides[seat]
    for group in ("fighters", "defenses"):
        pieces: tuple[Piece, ...] = getattr(side, group)
        for i, piece in enumerate(pieces):
            if piece.id != card:
                continue
            gone = _all_cards(piece)
            gear = [g for g in gone if card_of(g).type == "equipment"]
            bodies = [g for g in gone if card_of(g).type != "equipment"]
            discard, removed = side.discard, side.removed
            if to == "removed":
                removed = removed + tuple(bodies)
                discard = discard + tuple(gear)
            else:
                discard = discard + tuple(bodies) + tuple(gear)
            ev.append(E.Left(seat, card, to))
            side = replace(side, **{group: pieces[:i] + pieces[i + 1:]}, discard=discard, removed=removed)
            return with_side(s, seat, side)
    raise KeyError(card)


def end_game(s: Snap, winner: int | None, reason: str, ev: list[Event]) -> Snap:
    ev.append(E.GameOver(winner, reason))
    return replace(s, phase="over", winner=winner, reason=reason)


def damage_commander(s: Snap, seat: int, amount: int, ev: list[Event]) -> Snap:
    """Permanent damage to a Commander; at 0 LP the game ends (KN-10.1)."""
    side = s.sides[seat]
    side = replace(side, wounds=side.wounds + amount)
    s = with_side(s, seat, side)
    left = commander_lp(side)
    ev.append(E.Damaged(seat, side.commander, amount, left))
    if left <= 0:
        s = end_game(s, 1 - seat, f"{card_of(side.commander).name} (seat {seat + 1}) fell to 0 LP", ev)
    return s


def damage_defense(s: Snap, seat: int, target: str, amount: int, ev: list[Event]) -> Snap:
    """Permanent damage to a Defense; at 0 LP it is destroyed (KN-7.9)."""
    side = s.sides[seat]
    i = next(i for i, d in enumerate(side.defenses) if d.id == target)
    piece = replace(side.defenses[i], wounds=side.defenses[i].wounds + amount)
    side = replace(side, defenses=side.defenses[:i] + (piece,) + side.defenses[i + 1:])
    s = with_side(s, seat, side)
    ev.append(E.Damaged(seat, target, amount, max(0, lp(piece))))
    if lp(piece) <= 0:
        s = take_off(s, seat, target, "discard", ev)
    return s
