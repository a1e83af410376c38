"""What the whole table learns.  No event names a card another seat may not see:
a draw is a count, a cloaked card is its slot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core import Event


@dataclass(frozen=True)
class Shuffled(Event):
    type: ClassVar[str] = "shuffled"
    seat: int


@dataclass(frozen=True)
class FirstPlayer(Event):
    type: ClassVar[str] = "first-player"
    seat: int
    reason: str


@dataclass(frozen=True)
class Drew(Event):
    type: ClassVar[str] = "drew"
    seat: int
    count: int


@dataclass(frozen=True)
class PhaseBegan(Event):
    type: ClassVar[str] = "phase"
    seat: int
    phase: str
    turn: int


@dataclass(frozen=True)
class Played(Event):
    """A card went face up from the hand: ``zone`` generators, fighters, defenses,
    gear (on ``target``) or discard (a Single-use card after its effect)."""

    type: ClassVar[str] = "played"
    seat: int
    card: str
    zone: str
    target: str = ""


@dataclass(frozen=True)
class Paid(Event):
    type: ClassVar[str] = "paid"
    seat: int
    cost: tuple[int, int, int, int]


@dataclass(frozen=True)
class Gained(Event):
    type: ClassVar[str] = "gained"
    seat: int
    gain: tuple[int, int, int, int]


@dataclass(frozen=True)
class CloakPlayed(Event):
    type: ClassVar[str] = "cloak-played"
    seat: int
    slot: str


@dataclass(frozen=True)
class Revealed(Event):
    type: ClassVar[str] = "revealed"
    seat: int
    slot: str
    card: str


@dataclass(frozen=True)
class Combined(Event):
    type: ClassVar[str] = "combined"
    seat: int
    into: str
    fighter: str


@dataclass(frozen=True)
class Attacking(Event):
    type: ClassVar[str] = "attacking"
    seat: int
    fighter: str


@dataclass(frozen=True)
class Blocking(Event):
    type: ClassVar[str] = "blocking"
    seat: int
    blocker: str
    attacker: str


@dataclass(frozen=True)
class Damaged(Event):
    """``target`` (a Defense or Commander of ``seat``) took ``amount``; ``left`` LP remain."""

    type: ClassVar[str] = "damaged"
    seat: int
    target: str
    amount: int
    left: int


@dataclass(frozen=True)
class Left(Event):
    """A card left the field: ``to`` is "discard" (died, destroyed, used) or "removed" (left the game)."""

    type: ClassVar[str] = "left"
    seat: int
    card: str
    to: str


@dataclass(frozen=True)
class Slept(Event):
    type: ClassVar[str] = "slept"
    card: str


@dataclass(frozen=True)
class Woke(Event):
    type: ClassVar[str] = "woke"
    card: str


@dataclass(frozen=True)
class GameOver(Event):
    type: ClassVar[str] = "game-over"
    winner: int | None
    reason: str
