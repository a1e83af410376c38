"""What the device layer tells the server: events from boards and the status of each board."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

EventKind = Literal["button", "roll_shown", "coin_shown"]


@dataclass(frozen=True)
class DeviceEvent:
    """Something a board did.

    ``button``: ``{"button": index, "seat": int | None (a shared button), "for": "dice" | "coin-toss"}``;
    ``roll_shown``: ``{"seat": int, "values": (face, face)}`` once the dice stopped rolling;
    ``coin_shown``: ``{"seat": int, "face": "player" | "opponent"}`` once the arrow settled.
    """

    board_id: str
    kind: EventKind
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BoardStatus:
    """One board as the server shows it (a snapshot; never changes after it is made)."""

    board_id: str
    port: str | None
    online: bool
    last_heard: float | None
    """Unix time of the last valid frame from the board."""
    firmware: str
    round_trip_ms: float | None
    """Round trip of the last acknowledged command."""
    capabilities: tuple[str, ...]
    """Like ``"dice for seats 1-8"``; names for :meth:`DeviceManager.has` are in ``capability_names``."""
    capability_names: frozenset[str] = frozenset()
    resets: int = 0
    """Times the board was seen to restart (it was then given the whole LED state again)."""
    reconnects: int = 0
    errors: int = 0
    """Error answers and damaged frames seen on this board's line."""
    queued: int = 0
    """Commands waiting to be sent (kept while the board is offline)."""
    last_error: str = ""
