"""Moves a fighter makes and the public events they cause.

Events never carry a card id that could still be hidden: a revealed card is
named by its kind (``"strike"``), a face-down one by the side its back shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from engines.core import Event, Move

Arm = Literal["R", "L"]
Side = Literal["striking", "defending"]


@dataclass(frozen=True)
class ChooseOpening(Move):
    """With their own deck, a fighter picks the 4 opening cards by kind (TFS-3.2)."""

    type: ClassVar[str] = "choose-opening"
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Announce(Move):
    """Before any card is placed (TFS-7.1): a lunge at an arm key (``"1L"``),
    passing the coin on a teammate-facing arm (TFS-12.1), both, or neither."""

    type: ClassVar[str] = "announce"
    seat: int
    lunge_at: str | None = None
    pass_arm: Arm | None = None


@dataclass(frozen=True)
class Place(Move):
    """A card placed face down by one arm: a sealed commitment (TFS-7.2, TFS-7.3).

    ``card`` is a card id from the hand, or None when the fighter has no card at
    all (ruling TFS-R10).  ``counters`` ("R"/"L") is said by an arm under a lunge:
    which of the lunger's arms its card meets (TFS-10.2).  ``back``, when the
    camera saw it, must be the side that card shows (TFS-1.1).
    """

    type: ClassVar[str] = "place"
    seat: int
    arm: Arm
    card: str | None
    counters: Arm | None = None
    back: Side | None = None


@dataclass(frozen=True)
class Reveal(Move):
    """Turn a placed card face up; it must be the sealed card (its id or its kind, TFS-7.6)."""

    type: ClassVar[str] = "reveal"
    seat: int
    arm: Arm
    card: str


@dataclass(frozen=True)
class OpeningChosen(Event):
    type: ClassVar[str] = "opening-chosen"
    seat: int


@dataclass(frozen=True)
class Shuffled(Event):
    type: ClassVar[str] = "shuffled"
    pile: int
    cards: int
    reshuffle: bool


@dataclass(frozen=True)
class Drew(Event):
    type: ClassVar[str] = "drew"
    seat: int
    count: int


@dataclass(frozen=True)
class TurnBegan(Event):
    type: ClassVar[str] = "turn-began"
    turn: int
    coins: tuple[str, ...]


@dataclass(frozen=True)
class Announced(Event):
    type: ClassVar[str] = "announced"
    seat: int
    lunge_at: str | None
    pass_arm: str | None


@dataclass(frozen=True)
class Placed(Event):
    type: ClassVar[str] = "placed"
    seat: int
    arm: str
    back: str | None
    counters: str | None


@dataclass(frozen=True)
class Revealed(Event):
    type: ClassVar[str] = "revealed"
    seat: int
    arm: str
    kind: str


@dataclass(frozen=True)
class Engaged(Event):
    """One engagement resolved: ``kind`` pair | lunge | free; ``cards`` are kinds
    (None for an empty arm); ``hits`` lists (victim, by) seats."""

    type: ClassVar[str] = "engaged"
    kind: str
    arms: tuple[str, ...]
    cards: tuple[str | None, ...]
    hits: tuple[tuple[int, int], ...]
    replay: bool


@dataclass(frozen=True)
class Defeated(Event):
    """Hits reached the fighter's hit points; they still play out the turn (TFS-7.9)."""

    type: ClassVar[str] = "defeated"
    seat: int
    by: int


@dataclass(frozen=True)
class CoinsMoved(Event):
    type: ClassVar[str] = "coins-moved"
    coins: tuple[str, ...]
    reset: bool


@dataclass(frozen=True)
class Eliminated(Event):
    """The fighter leaves the circle; ``coin`` is the arm given the remaining coin (TFS-11.1)."""

    type: ClassVar[str] = "eliminated"
    seat: int
    by: int
    coin: str | None


@dataclass(frozen=True)
class FightOver(Event):
    type: ClassVar[str] = "fight-over"
    winners: tuple[int, ...]
    reason: str


MOVE_TYPES = (ChooseOpening, Announce, Place, Reveal)
