"""A board's button at a table: which seat pressed it and the move it stands for.

The boards report a press as a ``button`` DeviceEvent (devices/events.py):
``{"button": index, "seat": int | None, "for": "dice" | "coin-toss"}``, with
seat None for a shared button.  What a press means is the game's business, so
the game's table adapter says it (``adapter.button(state, seat, purpose,
table)``, e.g. ガンナガン's coin-toss button declares ダブルエッジ on the card
just put down, GG-T9).  This module only finds the adapter and shapes the
answer; the referee plays the move like a phone's (so the engine checks it) or
sends the refusal to the seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engines.core import Move, TableSnapshot, Verdict


@dataclass(frozen=True)
class Press:
    """A press that means something at this table: ``move`` for ``seat`` to play, or ``refusal``
    (a rule id and a sentence) to tell that seat."""

    seat: int | None
    move: Move | None = None
    refusal: Verdict | None = None


def press(table: Any, data: Mapping[str, Any], seen: TableSnapshot | None = None) -> Press | None:
    """What the button press ``data`` (a DeviceEvent's data) means at ``table`` (companion.tables.Table).

    None when the press is nothing to this table: its game has no buttons, or the adapter
    says the button is not its own (another purpose).  ``seen``: the camera's last table, so the
    adapter knows which card was just put down.
    """
    from engines import registry

    try:
        adapter = registry.adapter(table.game.id)
    except (ValueError, KeyError):
        return None
    meaning = getattr(adapter, "button", None)
    if meaning is None:
        return None
    seat = data.get("seat")
    if seat is not None and (type(seat) is not int or not 0 <= seat < len(table.seats)):
        return None
    answer = meaning(table.state, seat, str(data.get("for") or ""), seen)
    if answer is None:
        return None
    if isinstance(answer, Verdict):
        return Press(seat if seat is not None else _acting(table), refusal=answer)
    return Press(answer.actor, move=answer)


def _acting(table: Any) -> int | None:
    """Who a shared button's refusal goes to: the one seat that may act, else nobody in particular."""
    acting = table.state.to_act()
    return next(iter(acting)) if len(acting) == 1 else None
