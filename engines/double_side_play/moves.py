"""What players send (moves) and what the whole table learns (events).

Moves carry the acting ``seat``.  Dice and the seeded shuffle are
:class:`engines.core.ChanceMove` values, never moves of these types.  Events
are public: they name played cards (everyone saw them) but never a card still
in a hand, and a janken hand only once every tied seat has chosen.
"""


from dataclasses import dataclass
from typing import ClassVar

from engines.core import Event, Move

JANKEN_HANDS = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
"""Each hand and the hand it beats (DSP-5.2)."""


@dataclass(frozen=True)
class Janken(Move):
    """A tied seat's secret rock-paper-scissors choice (DSP-5.1)."""

    type: ClassVar[str] = "janken"
    seat: int
    hand: str


@dataclass(frozen=True)
class ChooseTrump(Move):
    """The trump chooser names a colour (DSP-6.2, variant ``trump``)."""

    type: ClassVar[str] = "choose-trump"
    seat: int
    colour: str


@dataclass(frozen=True)
class Play(Move):
    """Play one card face up to the current trick (DSP-7.2)."""

    type: ClassVar[str] = "play"
    seat: int
    card: str


MOVE_TYPES: tuple[type[Move], ...] = (Janken, ChooseTrump, Play)


# ---------------------------------------------------------------------------
# Events


@dataclass(frozen=True)
class Dealt(Event):
    """A round began; ``hand_counts`` per seat, ``out_of_round`` cards set aside unseen (DSP-2.1, DSP-2.2)."""

    type: ClassVar[str] = "dealt"
    round: int
    hand_counts: tuple[int, ...]
    out_of_round: int


@dataclass(frozen=True)
class Rolled(Event):
    """A seat's two dice, kept (DSP-3.1)."""

    type: ClassVar[str] = "rolled"
    seat: int
    dice: tuple[int, int]
    goals: tuple[int, ...]


@dataclass(frozen=True)
class Doubles(Event):
    """A seat rolled doubles; both dice are rolled again (DSP-3.2)."""

    type: ClassVar[str] = "doubles"
    seat: int
    dice: tuple[int, int]


@dataclass(frozen=True)
class JankenCalled(Event):
    """Tied seats must play rock-paper-scissors to decide ``purpose`` (``lead`` or ``trump``)."""

    type: ClassVar[str] = "janken-called"
    purpose: str
    seats: tuple[int, ...]


@dataclass(frozen=True)
class JankenChosen(Event):
    """A seat has chosen (what it chose stays secret until all have, DSP-5.3)."""

    type: ClassVar[str] = "janken-chosen"
    seat: int


@dataclass(frozen=True)
class JankenShown(Event):
    """Every tied seat's hand, shown together; ``remaining`` play on (DSP-5.2)."""

    type: ClassVar[str] = "janken-shown"
    purpose: str
    hands: tuple[tuple[int, str], ...]
    remaining: tuple[int, ...]


@dataclass(frozen=True)
class LeadChosen(Event):
    """The round's first lead player and why (DSP-4.x)."""

    type: ClassVar[str] = "lead-chosen"
    seat: int
    reason: str


@dataclass(frozen=True)
class TrumpChooserChosen(Event):
    """Who names the trump colour and why (DSP-6.1)."""

    type: ClassVar[str] = "trump-chooser"
    seat: int
    reason: str


@dataclass(frozen=True)
class TrumpChosen(Event):
    type: ClassVar[str] = "trump-chosen"
    seat: int
    colour: str


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card played face up; ``void`` names the lead colour the seat just showed it lacks (DSP-9.2)."""

    type: ClassVar[str] = "card-played"
    seat: int
    card: str
    trick: int
    number: int
    void: str | None = None


@dataclass(frozen=True)
class RevokeDetected(Event):
    """A seat played a colour it had shown to lack: the evidence (DSP-9.3) and the ruling applied (DSP-9.4)."""

    type: ClassVar[str] = "revoke"
    seat: int
    colour: str
    claimed_trick: int
    claimed_card: str
    led_card: str
    trick: int
    card: str
    ruling: str


@dataclass(frozen=True)
class TrickWon(Event):
    type: ClassVar[str] = "trick-won"
    trick: int
    seat: int
    card: str
    plays: tuple[tuple[int, str], ...]
    by_trump: bool = False


@dataclass(frozen=True)
class HandsFlipped(Event):
    """Six tricks are done: hands turn over and alien numbers count (DSP-7.1)."""

    type: ClassVar[str] = "hands-flipped"


@dataclass(frozen=True)
class RoundScored(Event):
    type: ClassVar[str] = "round-scored"
    round: int
    tricks_won: tuple[int, ...]
    scored: tuple[int, ...]
    forfeited: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class RoundVoided(Event):
    """A revoke under the ``void-round`` ruling ended the round without points (DSP-9.4)."""

    type: ClassVar[str] = "round-voided"
    round: int
    seat: int


@dataclass(frozen=True)
class GameOver(Event):
    type: ClassVar[str] = "game-over"
    winners: tuple[int, ...]
    points: tuple[int, ...]
