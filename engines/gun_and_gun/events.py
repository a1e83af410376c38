"""Events of ガンナガン.  Public by construction: a card that some seat may not
see (a hand card, a loaded card, a face-down 対応) never appears in an event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core import Event


@dataclass(frozen=True)
class DecksShuffled(Event):
    type: ClassVar[str] = "decks-shuffled"
    seat: int
    gun: int


@dataclass(frozen=True)
class TurnStarted(Event):
    type: ClassVar[str] = "turn-started"
    seat: int
    turn: int
    extra: bool


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card left a hand face up (action, function) or was revealed (response)."""

    type: ClassVar[str] = "card-played"
    seat: int
    card: str
    name: str


@dataclass(frozen=True)
class CostPaid(Event):
    """``cost`` voltage cards went to the trash, ``unloaded`` loaded cards to the voltage area."""

    type: ClassVar[str] = "cost-paid"
    seat: int
    card: str
    cost: int
    unloaded: int


@dataclass(frozen=True)
class ResponseSet(Event):
    type: ClassVar[str] = "response-set"
    seat: int


@dataclass(frozen=True)
class Loaded(Event):
    type: ClassVar[str] = "loaded"
    seat: int
    gun: int
    from_deck: bool


@dataclass(frozen=True)
class ShotFired(Event):
    type: ClassVar[str] = "shot-fired"
    seat: int
    gun: int
    hits: int


@dataclass(frozen=True)
class Damaged(Event):
    type: ClassVar[str] = "damaged"
    seat: int
    amount: int
    life: int


@dataclass(frozen=True)
class Healed(Event):
    type: ClassVar[str] = "healed"
    seat: int
    amount: int
    life: int


@dataclass(frozen=True)
class Drew(Event):
    type: ClassVar[str] = "drew"
    seat: int
    count: int


@dataclass(frozen=True)
class ExtraTurnGranted(Event):
    type: ClassVar[str] = "extra-turn-granted"
    seat: int


@dataclass(frozen=True)
class SkillUsed(Event):
    type: ClassVar[str] = "skill-used"
    seat: int
    skill: str


@dataclass(frozen=True)
class CardRevealed(Event):
    """ブレインハック turned over the top card of an opponent's deck."""

    type: ClassVar[str] = "card-revealed"
    owner: int
    card: str
    name: str


@dataclass(frozen=True)
class EffectResolved(Event):
    """``resolver`` resolved the effect of ``card`` once."""

    type: ClassVar[str] = "effect-resolved"
    resolver: int
    card: str


@dataclass(frozen=True)
class FunctionFizzled(Event):
    """A function card's additional cost could not be paid when it resolved (GG-7.3)."""

    type: ClassVar[str] = "function-fizzled"
    seat: int
    card: str


@dataclass(frozen=True)
class DoubleEdgeDeclared(Event):
    type: ClassVar[str] = "double-edge-declared"
    seat: int
    card: str


@dataclass(frozen=True)
class CoinTossed(Event):
    """``faces``: "declarer" (自分を向いた) or "opponent" (相手を向いた)."""

    type: ClassVar[str] = "coin-tossed"
    seat: int
    faces: str


@dataclass(frozen=True)
class DownPhase(Event):
    type: ClassVar[str] = "down-phase"
    seat: int


@dataclass(frozen=True)
class GameOver(Event):
    type: ClassVar[str] = "game-over"
    loser: int
    reason: str
