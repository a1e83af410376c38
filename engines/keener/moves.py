"""What a Keener player can do.  Every card is named by its copy id (see ids.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core import Move


@dataclass(frozen=True)
class PlayGenerator(Move):
    """Economy phase: put one Resource Generator from the hand into play (KN-5.2)."""

    type: ClassVar[str] = "play-generator"
    seat: int
    card: str


@dataclass(frozen=True)
class Deploy(Move):
    """Spending phase: pay a card's cost and play it (KN-6).  ``target``: the
    Fighter or Defense an Equipment card goes on; empty otherwise."""

    type: ClassVar[str] = "deploy"
    seat: int
    card: str
    target: str = ""


@dataclass(frozen=True)
class Cloak(Move):
    """Spending phase: play a Cloak of Darkness card face down for 1 Gold (KN-8.1).

    ``card``: the copy id (seeded deal: the engine checks it is in the hand and
    keeps it from the other seat).  ``commitment``: optional SHA-256 of
    ``"<card id>:<salt>"`` sealed by the owner's phone (see cloak.commit)."""

    type: ClassVar[str] = "cloak"
    seat: int
    card: str
    commitment: str = ""


@dataclass(frozen=True)
class Uncloak(Move):
    """Pay the reveal cost and turn a face-down card up (KN-8.3).  ``target``:
    the attacker a Bear Trap removes.  ``card``/``salt`` open the commitment
    when the card was cloaked with one."""

    type: ClassVar[str] = "uncloak"
    seat: int
    slot: str
    target: str = ""
    card: str = ""
    salt: str = ""


@dataclass(frozen=True)
class Attack(Move):
    """Attack phase: send one more Fighter to the middle (KN-7.1)."""

    type: ClassVar[str] = "attack"
    seat: int
    fighter: str


@dataclass(frozen=True)
class Block(Move):
    """Defender: block ``attacker`` with one more of your Fighters (KN-7.2)."""

    type: ClassVar[str] = "block"
    seat: int
    blocker: str
    attacker: str


@dataclass(frozen=True)
class AssignDamage(Move):
    """Attacker: put one point of damage on one of the opponent's Defenses (KN-7.8)."""

    type: ClassVar[str] = "assign-damage"
    seat: int
    target: str


@dataclass(frozen=True)
class Kill(Move):
    """Attacker whose Fighter was outpowered: pick one blocker it takes down (KN-7.7)."""

    type: ClassVar[str] = "kill"
    seat: int
    blocker: str


@dataclass(frozen=True)
class Pass(Move):
    """Done with this step: no Generator (Economy), end Spending, no more
    attackers (Attack), no more blocks (defender)."""

    type: ClassVar[str] = "pass"
    seat: int


MOVE_TYPES = (PlayGenerator, Deploy, Cloak, Uncloak, Attack, Block, AssignDamage, Kill, Pass)
