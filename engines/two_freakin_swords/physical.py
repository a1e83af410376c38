"""A physical deal (TFS-14): the fighters shuffle and draw their own printed cards.

The engine never learns the order of a deck or the cards in a hand, only how
many there are: every such card is the placeholder :data:`UNSEEN`.  What it
does know is which cards each pile holds (its *pool*: a seat's own deck, or
the community deck) and every card that was sealed or turned up since: on an
arm, in play this turn, or on a discard pile.  Card conservation (TFS-14.3)
follows: a card named on a phone or read by the camera must belong to the
fighter's pile and must not already be known somewhere else, and a kind can
be sealed only while a card of that kind is still unaccounted for.

Pure functions of the table's :class:`Fight` and a :class:`Snap`; a broken
rule raises :class:`~engines.core.Reject`.
"""

from __future__ import annotations

from dataclasses import replace

from engines.core import Reject
from engines.two_freakin_swords.cards import KINDS, is_card, kind_of, number_of
from engines.two_freakin_swords.snapshot import Fight, Snap

UNSEEN = "?"
"""A card the engine has not seen: in a deck or a hand (also a defeated fighter's hand put on the
community discard pile, ruling TFS-R13)."""


def _seat(n: int) -> str:
    return f"seat {n + 1}"


def locate(f: Fight, s: Snap, card: str) -> str | None:
    """Where ``card`` is known to be, as a phrase ("on seat 2's right arm"), or None when unseen."""
    for p in s.placements:
        if p.card == card:
            return f"on {_seat(int(p.arm[:-1]))}'s {'right' if p.arm[-1] == 'R' else 'left'} arm"
    if card in s.in_play:
        return "in play this turn"
    for pile, cards in enumerate(s.discards):
        if card in cards:
            return "on the discard pile" if f.community else f"on {_seat(pile)}'s discard pile"
    return None


def unseen_of_kind(f: Fight, s: Snap, pile: int, kind: str) -> list[str]:
    """Cards of ``kind`` in ``pile``'s pool not known anywhere: they may be in a hand or the deck."""
    return [c for c in f.pools[pile] if kind_of(c) == kind and locate(f, s, c) is None]


def possible_kinds(f: Fight, s: Snap, seat: int) -> list[str]:
    """The kinds ``seat`` could hold now (some card of the kind is unaccounted for in its pile)."""
    return [k for k in KINDS if unseen_of_kind(f, s, f.pile(seat), k)]


def _owner(f: Fight, card: str) -> str:
    if not 1 <= number_of(card) <= f.deck_size * (2 if f.community else f.seats):
        return "no deck at this table"
    if f.community:
        return "the community deck"
    return f"{_seat((number_of(card) - 1) // f.deck_size)}'s deck"


def _in_pool(f: Fight, seat: int, card: str, rule: str) -> None:
    if card not in f.pools[f.pile(seat)]:
        where = "the community deck" if f.community else f"your deck ({_seat(seat)}'s)"
        raise Reject(rule, f"{card} is not a card of {where}; it belongs to {_owner(f, card)}",
                     "use a card of your own deck")


def _conflict(f: Fight, s: Snap, card: str, rule: str) -> None:
    """Refuse a card known somewhere else for sure (a provisional id may still be swapped, see :func:`seal`)."""
    place = locate(f, s, card)
    if place is not None and card not in s.provisional:
        raise Reject(rule, f"{card} is already {place}; one card is in one place",
                     "check which card it is: the camera or the phone may have named the wrong one")


def _swap(s: Snap, a: str, b: str) -> Snap:
    """Exchange two card ids wherever they are known (two copies of one kind: nothing else changes)."""
    def x(card: str | None) -> str | None:
        return b if card == a else a if card == b else card

    return s.but(placements=tuple(replace(p, card=x(p.card)) for p in s.placements),
                 in_play=tuple(x(c) for c in s.in_play),  # type: ignore[misc]
                 discards=tuple(tuple(x(c) for c in pile) for pile in s.discards))  # type: ignore[misc]


def _free(f: Fight, s: Snap, seat: int, kind: str, but: str | None = None) -> list[str]:
    return [c for c in unseen_of_kind(f, s, f.pile(seat), kind) if c != but]


def seal(f: Fight, s: Snap, seat: int, named: str) -> tuple[str, Snap]:
    """The card id a sealed placement stands for, and the snapshot with any provisional id moved aside.

    A kind takes an unaccounted card of that kind, *provisionally* (the real
    printed copy is unknown until the camera reads it).  A printed id must be
    of the seat's pile and not known elsewhere; if another arm or the discard
    pile holds it only provisionally, that place takes another unaccounted
    card of the kind instead (TFS-14.3).
    """
    if is_card(named):
        _in_pool(f, seat, named, "TFS-14.3")
        _conflict(f, s, named, "TFS-14.3")
        if locate(f, s, named) is not None:
            other = _free(f, s, seat, kind_of(named), but=named)
            if not other:
                raise Reject("TFS-14.3", f"every {kind_of(named)} of your deck is already accounted for",
                             "seal the card you really placed")
            s = _swap(s, named, other[0])
            s = s.but(provisional=tuple(other[0] if c == named else c for c in s.provisional))
        return named, s
    if named in KINDS:
        free = _free(f, s, seat, named)
        if not free:
            raise Reject("TFS-14.3", f"every {named} of your deck is already on the table or the discard pile, "
                         "so it cannot be in your hand", "seal the card you really placed")
        return free[0], s.but(provisional=(*s.provisional, free[0]))
    raise Reject("TFS-14.2", f"{named!r} is not a card", "seal a card by its printed id (strike#12) or its kind "
                 "(strike, fake, block, parry)")


def turned_up(f: Fight, s: Snap, seat: int, sealed: str, seen: str) -> Snap:
    """The snapshot once ``seen`` is turned up where ``sealed`` lay (TFS-14.4); the caller checked the kind.

    A kind, or the sealed id, confirms nothing new.  Another printed copy of
    the sealed kind becomes the card on the arm (ruling TFS-R14), confirmed,
    when it belongs to the seat's pile and is not known elsewhere for sure; a
    place that held it provisionally takes the sealed id instead.
    """
    if seen == sealed or not is_card(seen):
        return s
    _in_pool(f, seat, seen, "TFS-14.4")
    _conflict(f, s, seen, "TFS-14.4")
    provisional = set(s.provisional)
    elsewhere = locate(f, s, seen) is not None  # provisionally
    s = _swap(s, sealed, seen)
    provisional.discard(seen)
    if elsewhere:
        provisional.add(sealed)
    else:
        provisional.discard(sealed)
    return s.but(provisional=tuple(sorted(provisional)))


def unseen(n: int) -> tuple[str, ...]:
    return (UNSEEN,) * n
