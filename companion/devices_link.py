"""Thin wiring to the LED boards (the ``devices`` package), optional.

The server draws every die and coin from its provably fair generator; a board,
when one is attached, *shows* those values.  Without boards (``--serial none``,
none found, or the devices package absent) the table page shows them, so a
game never waits on hardware.  Simulated boards run only when asked
(``--serial sim`` or the demo).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class DeviceLink:
    """Adapter from referee needs (show this chance) to ``devices.manager.DeviceManager``."""

    def __init__(self, manager: Any):
        self.manager = manager

    @classmethod
    def open(cls, spec: str, on_event: Callable[[Any], None] | None = None) -> DeviceLink | None:
        """``spec``: ``none``, ``auto``, ``sim`` or a port.  None when there is nothing to drive."""
        if not spec or spec == "none":
            return None
        try:
            from devices.manager import DeviceManager  # lazily: a server without boards never imports pyserial
        except ImportError as exc:
            log.warning("no LED boards: the devices package is not available (%s); dice and coins shown on screen",
                        exc)
            return None
        try:
            manager = DeviceManager(spec, on_event or (lambda event: None)).start()
        except Exception as exc:  # a missing port must not stop the table: fall back to the screen
            log.warning("no LED boards (%s): dice and coins shown on screen", exc)
            return None
        return cls(manager)

    def _has(self, capability: str, seat: int) -> bool:
        try:
            return bool(self.manager.has(capability, seat))
        except Exception:
            return False

    def show(self, request: Any, values: list[int]) -> bool:
        """Show a chance outcome on a board; False when no board could (the page shows it anyway).

        A star-stone board shows a pair of six-sided dice for one seat; a
        coin-toss arrow shows a two-sided coin for one seat (0: towards the
        player, 1: towards the opponent).  Anything else is for the screen.
        """
        kind = getattr(request, "kind", "")
        seat = getattr(request, "seat", None)
        ranges = tuple(getattr(request, "ranges", ()))
        if not isinstance(seat, int):
            return False
        try:
            if kind in ("die", "dice") and ranges == (6, 6) and self._has("dice", seat):
                self.manager.show_dice(seat, (values[0] + 1, values[1] + 1))
                return True
            if kind == "coin" and ranges == (2,) and self._has("coin-toss", seat):
                self.manager.show_coin_toss(seat, "player" if values[0] == 0 else "opponent")
                return True
        except Exception as exc:  # a board that fails must not stop the game: the screen shows it
            log.warning("board failed to show %s: %s", kind, exc)
        return False

    def show_coins(self, coins: Any) -> bool:
        """Light the aggression coins ``{(seat, "right"|"left"): True}`` on a coin board (the others go dark);
        False when no coin board is online (the table page shows them anyway)."""
        try:
            if not self.manager.has("coins"):
                return False
            self.manager.set_aggression_coins(coins)
            return True
        except Exception as exc:  # a board that fails must not stop the game
            log.warning("board failed to show the aggression coins: %s", exc)
            return False

    def status(self) -> Any:
        try:
            return self.manager.status()
        except Exception as exc:
            return {"error": str(exc)}

    def close(self) -> None:
        close = getattr(self.manager, "close", None)
        if callable(close):
            close()
