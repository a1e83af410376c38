"""Cloak of Darkness (KN-8): playing a card face down for 1 Gold and turning it up later.

The owner's phone may seal the card's identity: ``commit(card, salt)`` is the
SHA-256 of ``"<card id>:<salt>"``.  When the card is turned up the phone sends
the card and the salt and the engine checks they open the commitment, so
nobody can change their mind about what lies face down.  In a seeded game the
engine knows the card anyway; the views keep it from the other seat.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from engines.core import Event, Reject
from engines.keener import events as E
from engines.keener.catalog import CARDS
from engines.keener.field import damage_commander, enter_fighter, pay, take_off, with_side
from engines.keener.figures import find_fighter, pv
from engines.keener.hand import UNKNOWN, find_in_hand, reveal_unseen
from engines.keener.ids import card_id, card_of, slot_id
from engines.keener.moves import Cloak, Uncloak
from engines.keener.snapshot import FaceDown, Piece, Snap

CLOAK_COST = (0, 0, 0, 1)
"""One Gold, instead of the card's own cost."""
TRAP_LIMIT = 2
"""Bear Trap and Master Assassin take attackers with PV 2 or less."""


def commit(card: str, salt: str) -> str:
    """The sealed commitment for a card id (``"bear-trap"`` or a copy id ``"1:bear-trap#2"``)."""
    return hashlib.sha256(f"{card_id(card)}:{salt}".encode()).hexdigest()


def play_cloaked(s: Snap, move: Cloak, ev: list[Event]) -> Snap:
    """KN-8.1: in your Spending phase, a Cloak of Darkness card goes face down for 1 Gold."""
    seat = s.active
    side = s.sides[seat]
    if move.commitment and (len(move.commitment) != 64 or any(ch not in "0123456789abcdef" for ch in move.commitment)):
        raise Reject("KN-8.2", "a commitment is 64 lower-case hex digits (SHA-256)", "send commit(card, salt)")
    if s.physical:
        # The engine cannot see the card: the sealed commitment stands for it until it is turned up.
        if move.card:
            raise Reject("KN-8.2", "with a hand-shuffled deck, send only the commitment: naming the card would "
                         "show it to the table", "send commit(card, salt) and an empty card")
        if not move.commitment:
            raise Reject("KN-8.2", "with a hand-shuffled deck a face-down card needs a sealed commitment",
                         "send commit(card, salt) from your phone")
        if UNKNOWN not in side.hand:
            raise Reject("KN-8.1", "your hand is empty", "draw first")
        copy = ""
    else:
        copy = find_in_hand(side, move.card, False, "KN-8.1")
        card = card_of(copy)
        if not card.cloak:
            raise Reject("KN-8.1", f"{card.name} has no Cloak of Darkness", "play it face up")
    s = pay(s, seat, CLOAK_COST, "KN-8.1", "Cloak of Darkness", ev)
    side = s.sides[seat]
    slot = slot_id(seat, side.cloaks_played + 1)
    hand = list(side.hand)
    hand.remove(copy or UNKNOWN)
    side = replace(side, hand=tuple(hand), cloaks_played=side.cloaks_played + 1,
                   face_down=(*side.face_down, FaceDown(slot, copy, move.commitment)))
    ev.append(E.CloakPlayed(seat, slot))
    return with_side(s, seat, side)


def window(s: Snap, seat: int, ability: str | None) -> str | None:
    """The reveal window ``seat`` is in for a card with this ability (ruling KN-R9), or None.

    "own-spending" and "own-attack" for the Master Assassin on your own turn;
    "defending" for either card once the opponent's attackers are declared.
    """
    if seat == s.active:
        if ability == "master-assassin" and s.phase == "spending":
            return "own-spending"
        if ability == "master-assassin" and s.phase == "declare":
            return "own-attack"
        return None
    if s.phase == "block":
        return "defending"
    return None


def trap_targets(s: Snap, seat: int) -> list[str]:
    """Attacking Fighters with PV 2 or less (what a Bear Trap or Master Assassin may remove)."""
    att = s.sides[1 - seat]
    out = []
    for a in s.combat.attackers:
        piece = find_fighter(att, a)
        if piece is not None and pv(att, piece) <= TRAP_LIMIT:
            out.append(a)
    return out


def _remove_attacker(s: Snap, attacker: str, ev: list[Event]) -> Snap:
    seat = s.active
    s = take_off(s, seat, attacker, "removed", ev)
    c = s.combat
    return replace(s, combat=replace(c, attackers=tuple(a for a in c.attackers if a != attacker),
                                     blocks=tuple(p for p in c.blocks if p[1] != attacker)))


def uncloak(s: Snap, move: Uncloak, ev: list[Event]) -> Snap:
    """KN-8.3 to KN-8.5: pay the reveal cost, check the commitment, apply the face-up effect."""
    seat = move.seat
    side = s.sides[seat]
    found = next((f for f in side.face_down if f.slot == move.slot), None)
    if found is None:
        raise Reject("KN-8.3", f"you have no face-down card {move.slot}", "name one of your face-down slots")
    if found.commitment:
        if not move.card or commit(move.card, move.salt) != found.commitment:
            raise Reject("KN-8.2", "the card and salt do not open the commitment sealed when it was played",
                         "send the card id and salt your phone sealed")
    if move.card and found.card and card_id(move.card) != card_id(found.card):
        raise Reject("KN-8.2", f"the card face down in {move.slot} is not a {card_id(move.card)}",
                     "reveal the card you played there")
    if card_id(found.card or move.card) not in CARDS:
        raise Reject("KN-8.2", f"there is no card {move.card!r}", "name the card you played face down")
    card = card_of(found.card or move.card)
    if not card.cloak:
        # only possible with a hand-shuffled deck, where the card was not known when it went face down
        raise Reject("KN-8.1", f"{card.name} has no Cloak of Darkness, so it cannot have been played face down",
                     "turn up the card you really played there")
    when = window(s, seat, card.ability)
    if when is None:
        if card.ability == "bear-trap":
            raise Reject("KN-8.3", "a Bear Trap is turned up only in the opponent's Attack phase, once attackers "
                         "are declared", "wait for an attack")
        raise Reject("KN-8.3", "a Master Assassin is turned up in your Spending or Attack phase, or once the "
                     "opponent's attackers are declared", "wait for one of those moments")
    if card.ability == "bear-trap" and move.target not in trap_targets(s, seat):
        raise Reject("KN-8.5", f"{move.target or 'nothing'} is not an attacking Fighter with PV {TRAP_LIMIT} or less",
                     "name an attacker with PV 2 or less")
    if card.ability != "bear-trap" and move.target:
        raise Reject("KN-8.4", "the Master Assassin takes no target", "leave the target empty")
    assert card.reveal_cost is not None
    s = pay(s, seat, card.reveal_cost, "KN-8.3", f"turning {card.name} face up", ev)
    side = s.sides[seat]
    side = replace(side, face_down=tuple(f for f in side.face_down if f.slot != move.slot))
    if not found.card:
        side, copy = reveal_unseen(side, move.card, "KN-8.2")
        found = replace(found, card=copy)
    s = with_side(s, seat, side)
    ev.append(E.Revealed(seat, move.slot, found.card))
    if card.ability == "bear-trap":
        s = _remove_attacker(s, move.target, ev)
        side = s.sides[seat]
        ev.append(E.Left(seat, found.card, "removed"))
        return with_side(s, seat, replace(side, removed=(*side.removed, found.card)))
    # Master Assassin: its effect, then it stands as a face-up Fighter
    if when == "defending":
        for attacker in trap_targets(s, seat):
            s = _remove_attacker(s, attacker, ev)
    s = enter_fighter(s, seat, Piece(found.card), ev)
    if when == "own-attack":
        s = damage_commander(s, 1 - seat, 2, ev)
    return s
