"""Moves (inputs) and events (what the table learns) of Double-Edge.

Events never carry a card that is still face down or in a hand: "seat 1 drew
a card", "seat 2 committed an indicator".  Cards appear in events only once
they are face up for everyone (a revealed Base, a Striker, a discard).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core import Event, Move

# ---------------------------------------------------------------- moves


@dataclass(frozen=True)
class BuildBase(Move):
    """DE-3.1: seal three cards of the opening hand as the Base, top first."""

    type: ClassVar[str] = "build-base"
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class PlayStriker(Move):
    """DE-6.2: a card from hand, face up, as the Striker."""

    type: ClassVar[str] = "play-striker"
    seat: int
    card: str


@dataclass(frozen=True)
class DiscardSupport(Move):
    """DE-6.3: discard ``card`` from hand, then move the Support to the discard pile.

    ``seen`` is the Support as the camera saw it land face up (physical deal:
    required when the Support was face down, and checked against its seal).
    """

    type: ClassVar[str] = "discard-support"
    seat: int
    card: str
    seen: str | None = None


@dataclass(frozen=True)
class PlaySupport(Move):
    """DE-6.4: a card from hand, face down, under a Striker that has no Support."""

    type: ClassVar[str] = "play-support"
    seat: int
    card: str


@dataclass(frozen=True)
class PlayGambit(Move):
    """DE-13.1 (azbar): three or four cards of one value, face up, top (Striker) first.

    ``seen``: the old face-down Support as the camera saw it land in the discard pile (physical deal).
    """

    type: ClassVar[str] = "play-gambit"
    seat: int
    cards: tuple[str, ...]
    seen: str | None = None


@dataclass(frozen=True)
class Draw(Move):
    """DE-7.1: end the turn by drawing the top card of the shared deck."""

    type: ClassVar[str] = "draw"
    seat: int


@dataclass(frozen=True)
class TakeDiscards(Move):
    """DE-7.2: end the turn by taking the top card of both discard piles."""

    type: ClassVar[str] = "take-discards"
    seat: int


@dataclass(frozen=True)
class TakeDiscard(Move):
    """DE-7.3 / DE-7.4: end the turn by taking the top card of one discard pile (``pile`` = its owner's seat)."""

    type: ClassVar[str] = "take-discard"
    seat: int
    pile: int


@dataclass(frozen=True)
class EndTurn(Move):
    """DE-7.5: end the turn without drawing (full hand, confirmed), or end the extra turn (DE-14.3)."""

    type: ClassVar[str] = "end-turn"
    seat: int


@dataclass(frozen=True)
class Indicate(Move):
    """DE-8.1: commit an indicator card face down (an ace you hold or a card from hand)."""

    type: ClassVar[str] = "indicate"
    seat: int
    card: str


@dataclass(frozen=True)
class Claim(Move):
    """DE-11.3 / DE-13.6: after a red-ace win, add the Support (Gambit: every card under the Striker)
    to the bottom of the Base (``take``) or leave it."""

    type: ClassVar[str] = "claim"
    seat: int
    take: bool


@dataclass(frozen=True)
class Reveal(Move):
    """DE-15.4 (physical deal): what the camera saw when a sealed commitment was turned face up.

    ``what`` is ``"base"`` (three cards, top first), ``"indicator"`` or ``"support"`` (one card).
    """

    type: ClassVar[str] = "reveal"
    seat: int
    what: str
    cards: tuple[str, ...]


MOVE_TYPES = (BuildBase, PlayStriker, DiscardSupport, PlaySupport, PlayGambit, Draw, TakeDiscards, TakeDiscard,
              EndTurn, Indicate, Claim, Reveal)

# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class Dealt(Event):
    type: ClassVar[str] = "dealt"
    hand_size: int
    deck: int


@dataclass(frozen=True)
class BaseSealed(Event):
    type: ClassVar[str] = "base-sealed"
    seat: int


@dataclass(frozen=True)
class BasesRevealed(Event):
    type: ClassVar[str] = "bases-revealed"
    bases: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class FirstPlayer(Event):
    type: ClassVar[str] = "first-player"
    seat: int
    round: int


@dataclass(frozen=True)
class StrikerPlayed(Event):
    type: ClassVar[str] = "striker-played"
    seat: int
    card: str


@dataclass(frozen=True)
class SupportPlayed(Event):
    """A Support went face down: the card itself stays secret."""

    type: ClassVar[str] = "support-played"
    seat: int


@dataclass(frozen=True)
class Discarded(Event):
    type: ClassVar[str] = "discarded"
    seat: int
    cards: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class GambitPlayed(Event):
    type: ClassVar[str] = "gambit-played"
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Drew(Event):
    type: ClassVar[str] = "drew"
    seat: int
    count: int


@dataclass(frozen=True)
class TookDiscard(Event):
    type: ClassVar[str] = "took-discard"
    seat: int
    pile: int
    card: str


@dataclass(frozen=True)
class TurnEnded(Event):
    type: ClassVar[str] = "turn-ended"
    seat: int
    extra: bool = False


@dataclass(frozen=True)
class IndicatorCommitted(Event):
    type: ClassVar[str] = "indicator-committed"
    seat: int


@dataclass(frozen=True)
class IndicatorsRevealed(Event):
    type: ClassVar[str] = "indicators-revealed"
    cards: tuple[str, ...]


@dataclass(frozen=True)
class SupportRevealed(Event):
    type: ClassVar[str] = "support-revealed"
    seat: int
    card: str


@dataclass(frozen=True)
class Combat(Event):
    """One combat: the two fighters (``"striker"`` / ``"base"``), their cards and who won (None: stalemate)."""

    type: ClassVar[str] = "combat"
    fighters: tuple[str, ...]
    seats: tuple[int, ...]
    values: tuple[int, ...]
    winner: int | None
    rule: str


@dataclass(frozen=True)
class Fizzled(Event):
    type: ClassVar[str] = "fizzled"
    seat: int
    rule: str


@dataclass(frozen=True)
class BaseLost(Event):
    type: ClassVar[str] = "base-lost"
    seat: int
    card: str
    to: str


@dataclass(frozen=True)
class AddedToBase(Event):
    type: ClassVar[str] = "added-to-base"
    seat: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class GameOver(Event):
    type: ClassVar[str] = "game-over"
    winners: tuple[int, ...]
    tie: bool
    reason: str
