"""Schemas of every message a phone or page may send (validated at the edge).

The referee never sees a raw dict from a socket: each handler turns its payload
into one of these models first, and a payload that does not fit is answered
with an error to that socket alone.  Limits are deliberately tight (lengths,
nesting, sizes): a phone sends a few short fields, never a document.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

TableId = Annotated[str, Field(min_length=4, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]
Token = Annotated[str, Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
Language = Annotated[str, Field(pattern=r"^[a-z]{2}(-[A-Za-z]{2})?$")]
MAX_MOVE_BYTES = 4096


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Join(Message):
    """A phone takes its seat: by token (from the QR), by typed code, or by its cookie (neither)."""

    table: TableId
    token: Token | None = None
    code: Annotated[str, Field(min_length=4, max_length=16)] | None = None
    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    lang: Language | None = None


class Watch(Message):
    """A table page (with the display key) or a spectator (without) follows a table."""

    table: TableId
    key: Token | None = None
    lang: Language | None = None


def _check_move(value: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(value.get("type"), str) or not value["type"]:
        raise ValueError("a move needs a 'type'")
    if len(json.dumps(value)) > MAX_MOVE_BYTES:
        raise ValueError(f"a move may not exceed {MAX_MOVE_BYTES} bytes")
    return value


class Play(Message):
    """A move for the engine, in its JSON form; ``seat`` is filled in from the phone's seat.

    A table page in manual-entry mode may name the seat it enters the move for.
    """

    table: TableId
    move: dict[str, Any]
    seat: Annotated[int, Field(ge=0, le=15)] | None = None

    _move = field_validator("move")(_check_move)


class Answer(Message):
    """A seat's answer to a question the table asked it (one of the question's ``choices``)."""

    table: TableId
    choice: Annotated[str, Field(min_length=1, max_length=200)]


class Amend(Message):
    """Replace this seat's latest sealed commitment of the same type (until it is revealed)."""

    table: TableId
    move: dict[str, Any]

    _move = field_validator("move")(_check_move)


class Challenge(Message):
    table: TableId
    reason: Annotated[str, Field(max_length=200)] = ""


class RecordAt(Message):
    """Step through the record during a dispute: the view after entry ``seq``."""

    table: TableId
    seq: Annotated[int, Field(ge=0, le=10_000_000)]


class HostAuth(Message):
    table: TableId
    pin: Annotated[str, Field(min_length=4, max_length=12, pattern=r"^[0-9]+$")]


class HostAction(Message):
    """What the host may do once authenticated."""

    table: TableId
    action: Literal["kick", "reissue", "pause", "resume", "uphold", "rollback", "close"]
    seat: Annotated[int, Field(ge=0, le=15)] | None = None
    to: Annotated[int, Field(ge=0, le=10_000_000)] | None = None
    reason: Annotated[str, Field(max_length=200)] = ""


class Profile(Message):
    """A seated phone names its player (optional PIN) and, for Two Freakin' Swords, its character."""

    table: TableId
    name: Annotated[str, Field(min_length=1, max_length=40)]
    pin: Annotated[str, Field(min_length=4, max_length=12, pattern=r"^[0-9]+$")] | None = None
    character: Annotated[str, Field(min_length=1, max_length=40)] | None = None


class CreateTable(Message):
    """``POST /api/tables``: the host opens another table (host PIN required)."""

    pin: Annotated[str, Field(min_length=4, max_length=12, pattern=r"^[0-9]+$")]
    game: Annotated[str, Field(min_length=1, max_length=40)]
    variant: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    seats: Annotated[int, Field(ge=1, le=16)] | None = None
    deal: int | Literal["physical"] | None = None


def parse(model: type[Message], data: Any) -> Message:
    """Validate ``data``; raises ValueError with one short sentence naming the first problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "message"
        raise ValueError(f"{where}: {first.get('msg', 'invalid')}") from None


class Encoded(str):
    """An outbound message's JSON text, encoded once where it is made.

    The referee encodes each room's view once: the same text is searched for
    hidden strings (companion.referee) and sent as is (companion.sockets'
    packet class splices it into the Socket.IO frame instead of encoding the
    dict again).  A ``str`` subclass, so it survives the Redis message queue.
    """

    __slots__ = ()


def encode(data: Any) -> Encoded:
    """Compact UTF-8 JSON (not ASCII-escaped: a hidden card id is searched for as written)."""
    return Encoded(json.dumps(data, ensure_ascii=False, separators=(",", ":")))

