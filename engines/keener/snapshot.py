"""The immutable snapshot of a Keener game (what ``State`` swaps on every move).

Everything is a frozen dataclass of tuples, so a move builds a new snapshot
with ``dataclasses.replace`` and a rejected move leaves the old one untouched.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

Bank = tuple[int, int, int, int]
"""Wood, Stone, Iron, Gold chips."""


@dataclass(frozen=True)
class Piece:
    """A face-up Fighter or Defense on the field.

    ``gear``: Equipment attached to it.  ``wounds``: damage a Defense took
    (permanent).  ``merged``: Fighters The Abomination combined into itself.
    """

    id: str
    gear: tuple[str, ...] = ()
    wounds: int = 0
    asleep: bool = False
    merged: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class FaceDown:
    """A card played with Cloak of Darkness.  ``card`` is the copy id, known to
    the engine in seeded mode and never shown to the other seat; ``commitment``
    is the owner's sealed SHA-256 commitment, when one was given."""

    slot: str
    card: str
    commitment: str = ""


@dataclass(frozen=True)
class Side:
    """One seat's cards, bank and wounds."""

    deck_name: str
    commander: str
    wounds: int = 0
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    bank: Bank = (0, 0, 0, 0)
    generators: tuple[str, ...] = ()
    fighters: tuple[Piece, ...] = ()
    defenses: tuple[Piece, ...] = ()
    face_down: tuple[FaceDown, ...] = ()
    discard: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    cloaks_played: int = 0
    unseen: tuple[str, ...] = ()
    """Physical deal: copies of the decklist not yet seen (in the deck or the hand)."""


@dataclass(frozen=True)
class Combat:
    """The Attack phase in progress.

    ``attackers`` in declaration order (the order they are resolved);
    ``blocks`` as (blocker, attacker) pairs; ``queue`` the attackers not yet
    resolved; ``current`` the one being resolved; ``damage`` points its
    controller still has to assign; ``budget`` the PV an outpowered attacker
    may still spend on killing its blockers (KN-7.7).
    """

    attackers: tuple[str, ...] = ()
    blocks: tuple[tuple[str, str], ...] = ()
    queue: tuple[str, ...] = ()
    current: str = ""
    damage: int = 0
    budget: int = 0


@dataclass(frozen=True)
class Snap:
    """``phase``: shuffle-1, shuffle-2, coin, economy, spending, declare, block,
    assign, kill or over.  ``active``: whose turn it is.  ``first_rule`` and
    ``turn_limit`` are the table's options, kept here so rule code stays pure;
    ``physical``: the decks were shuffled by hand (see hand.py)."""

    phase: str
    active: int
    turn: int
    sides: tuple[Side, Side]
    combat: Combat = field(default_factory=Combat)
    winner: int | None = None
    reason: str = ""
    first_rule: str = "least-lp"
    turn_limit: int | None = None
    physical: bool = False


def snap_to_json(s: Snap) -> dict[str, Any]:
    return asdict(s)


def _piece(d: dict[str, Any]) -> Piece:
    return Piece(d["id"], tuple(d["gear"]), d["wounds"], d["asleep"], tuple(_piece(m) for m in d["merged"]))


def _side(d: dict[str, Any]) -> Side:
    return Side(
        d["deck_name"], d["commander"], d["wounds"], tuple(d["deck"]), tuple(d["hand"]), tuple(d["bank"]),
        tuple(d["generators"]), tuple(_piece(p) for p in d["fighters"]), tuple(_piece(p) for p in d["defenses"]),
        tuple(FaceDown(f["slot"], f["card"], f["commitment"]) for f in d["face_down"]),
        tuple(d["discard"]), tuple(d["removed"]), d["cloaks_played"], tuple(d["unseen"]),
    )


def snap_from_json(d: dict[str, Any]) -> Snap:
    c = d["combat"]
    combat = Combat(tuple(c["attackers"]), tuple((b, a) for b, a in c["blocks"]), tuple(c["queue"]),
                    c["current"], c["damage"], c["budget"])
    return Snap(d["phase"], d["active"], d["turn"], (_side(d["sides"][0]), _side(d["sides"][1])), combat,
                d["winner"], d["reason"], d["first_rule"], d["turn_limit"], d["physical"])
