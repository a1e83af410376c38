"""Player moves of ガンナガン.  ``double_edge=True`` declares ダブルエッジ on the
effect the move resolves (GG-DE); on moves that resolve no action or function
effect the flag is refused with the rule that excludes them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engines.core import Move


@dataclass(frozen=True)
class PlayAction(Move):
    """Play a 行動 card from your hand (GG-4.1); it resolves at once."""

    type: ClassVar[str] = "play-action"
    seat: int
    card: str
    double_edge: bool = False


@dataclass(frozen=True)
class PlayFunction(Move):
    """Put a 機能 card face up in your function area (GG-4.2); it resolves in your down phase."""

    type: ClassVar[str] = "play-function"
    seat: int
    card: str
    double_edge: bool = False


@dataclass(frozen=True)
class SetResponse(Move):
    """Set a 対応 card face down (GG-4.3)."""

    type: ClassVar[str] = "set-response"
    seat: int
    card: str
    double_edge: bool = False


@dataclass(frozen=True)
class Load(Move):
    """装填: put a 銃弾 card from your hand into gun 0 or 1 (GG-4.4)."""

    type: ClassVar[str] = "load"
    seat: int
    gun: int
    card: str
    double_edge: bool = False


@dataclass(frozen=True)
class Shoot(Move):
    """射撃 with gun 0 or 1 (GG-4.5, GG-6)."""

    type: ClassVar[str] = "shoot"
    seat: int
    gun: int
    double_edge: bool = False


@dataclass(frozen=True)
class UseSkill(Move):
    """技能 (GG-4.6).  ``gun``: for ブレインハック the opponent's deck to reveal from,
    for a loading skill your own gun."""

    type: ClassVar[str] = "use-skill"
    seat: int
    gun: int
    double_edge: bool = False


@dataclass(frozen=True)
class Activate(Move):
    """Resolve the 行動 card a skill revealed (GG-4.6.2); the declaration point of GG-DE-9."""

    type: ClassVar[str] = "activate"
    seat: int
    double_edge: bool = False


@dataclass(frozen=True)
class Respond(Move):
    """Reveal a set 対応 card against the shot now resolving (GG-6.2)."""

    type: ClassVar[str] = "respond"
    seat: int
    card: str
    double_edge: bool = False


@dataclass(frozen=True)
class NoResponse(Move):
    """Let the shot resolve without a 対応 card (GG-6.2)."""

    type: ClassVar[str] = "no-response"
    seat: int


@dataclass(frozen=True)
class EndMain(Move):
    """End the main phase; the down phase starts (GG-7)."""

    type: ClassVar[str] = "end-main"
    seat: int


@dataclass(frozen=True)
class ResolveFunction(Move):
    """Resolve one 機能 card of your function area in the down phase (GG-7.2)."""

    type: ClassVar[str] = "resolve-function"
    seat: int
    card: str
    double_edge: bool = False


@dataclass(frozen=True)
class Reveal(Move):
    """Physical deal: name the unknown cards being turned up (GG-P3: a gun's cards loaded from its deck,
    as it fires; GG-P4: the deck card ブレインハック revealed), in the order they lie."""

    type: ClassVar[str] = "reveal"
    seat: int
    cards: tuple[str, ...]


MOVE_TYPES: tuple[type[Move], ...] = (PlayAction, PlayFunction, SetResponse, Load, Shoot, UseSkill, Activate,
                                      Respond, NoResponse, EndMain, ResolveFunction, Reveal)
