"""Rock-paper-scissors among tied seats (DSP-5.x): a simultaneous secret choice, not chance.

Ruling DSP-R2 (the rulebook only says "the winner"): with more than two seats,
when exactly two different hands are shown the seats showing the winning hand
stay in and play again; when all show the same hand, or all three hands
appear, the same seats play again.  It repeats until one seat is left.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.double_side_play.moves import BEATS


def survivors(seats: Sequence[int], hands: Sequence[str]) -> tuple[int, ...]:
    """The seats that stay in after one showing (all of them on a tie)."""
    kinds = set(hands)
    if len(kinds) != 2:
        return tuple(seats)
    a, b = kinds
    winner = a if BEATS[a] == b else b
    return tuple(s for s, h in zip(seats, hands, strict=True) if h == winner)
