"""What every LED of the table should show, held by the host so it can be re-sent whole.

The state is absolute and covers all seats (up to 8): a board takes the part it
serves.  After a board reconnects or resets, one SET_STATE frame restores it.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from devices.protocol import MAX_SEATS, STATE_SIZE, TOSS_FACES

ARMS = ("left", "right")
TOSS_NAMES = {v: k for k, v in TOSS_FACES.items()}


def coin_bit(seat: int, arm: str) -> int:
    return 1 << (2 * seat + ARMS.index(arm))


def check_seat(seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_SEATS:
        raise ValueError(f"seat must be an integer from 0 to {MAX_SEATS - 1}, got {seat!r}")
    return seat


@dataclass
class LedState:
    coins: int = 0
    """Bit 2*seat + arm (0 left, 1 right) is lit."""
    dice: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Seat -> two faces 1..6."""
    toss: dict[int, int] = field(default_factory=dict)
    """Seat -> 1 (arrow at the player) or 2 (at the opponent)."""

    def copy(self) -> LedState:
        return LedState(self.coins, dict(self.dice), dict(self.toss))

    def encode(self) -> bytes:
        """The SET_STATE / GET_STATE payload."""
        out = bytearray(struct.pack(">H", self.coins))
        for seat in range(MAX_SEATS):
            out += bytes(self.dice.get(seat, (0, 0)))
        out += bytes(self.toss.get(seat, 0) for seat in range(MAX_SEATS))
        return bytes(out)

    @classmethod
    def decode(cls, payload: bytes) -> LedState:
        if len(payload) != STATE_SIZE:
            raise ValueError(f"a state is {STATE_SIZE} bytes, got {len(payload)}")
        coins = struct.unpack(">H", payload[:2])[0]
        dice = {}
        for seat in range(MAX_SEATS):
            d = (payload[2 + 2 * seat], payload[3 + 2 * seat])
            if d != (0, 0):
                dice[seat] = d
        toss = {seat: payload[2 + 2 * MAX_SEATS + seat] for seat in range(MAX_SEATS)
                if payload[2 + 2 * MAX_SEATS + seat]}
        return cls(coins, dice, toss)

    def describe(self) -> str:
        coins = [f"{s + 1}{a[0].upper()}" for s in range(MAX_SEATS) for a in ARMS if self.coins & coin_bit(s, a)]
        dice = [f"seat {s + 1}: {a}+{b}" for s, (a, b) in sorted(self.dice.items())]
        toss = [f"seat {s + 1}: {TOSS_NAMES[v]}" for s, v in sorted(self.toss.items())]
        return f"coins [{' '.join(coins)}] dice [{', '.join(dice)}] toss [{', '.join(toss)}]"
