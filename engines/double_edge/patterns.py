"""Base patterns (DE-4): Straight and Anti, on the eight property groups.

Only a card's (colour, parity, size) matters to a pattern, so every function
here works on groups (3-bit numbers, see :func:`cards.group`); that keeps the
exhaustive "every hand can build a Base" check (DE-3.4) small.

Why validity is a function of the cards alone: two cards sharing two
properties in two different ways share all three, so the pair of properties a
Straight uses is fixed by its cards, or still open when all cards agree on all
three (DE-4.3).  And a Base of two or more cards cannot be both Straight and
Anti.  So "the Base must keep a pattern" is just "the cards form one", and a
Base cut down to one card may grow into either (DE-4.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from engines.double_edge.cards import group


def shared(a: int, b: int) -> int:
    """How many properties two groups share (0..3)."""
    return 3 - (a ^ b).bit_count()


def is_straight(groups: Sequence[int]) -> bool:
    """DE-4.2: every card agrees with every other on the same two (or three) properties."""
    if len(groups) <= 1:
        return True
    differ = 0
    first = groups[0]
    for g in groups[1:]:
        differ |= first ^ g
    return differ.bit_count() <= 1


def is_anti(groups: Sequence[int]) -> bool:
    """DE-4.4: each adjacent pair shares exactly one property; top and bottom do not touch."""
    return all(shared(a, b) == 1 for a, b in zip(groups, groups[1:], strict=False))


def pattern_of(groups: Sequence[int]) -> str | None:
    """"straight", "anti", "any" (one card: either, DE-4.5) or None (no pattern)."""
    if len(groups) <= 1:
        return "any"
    if is_straight(groups):
        return "straight"
    if is_anti(groups):
        return "anti"
    return None


def valid_base(cards: Sequence[str]) -> bool:
    """DE-4.1: the stack (top first) satisfies a pattern."""
    return pattern_of([group(c) for c in cards]) is not None


def can_form_base(groups: Sequence[int], size: int = 3) -> bool:
    """Can some ``size`` of these groups be stacked into a valid Base (DE-3.4)?"""
    return any(pattern_of(p) is not None for p in permutations(groups, size))


_VALID_TRIPLES = frozenset(
    (a, b, c) for a in range(8) for b in range(8) for c in range(8) if pattern_of((a, b, c)) is not None
)
"""Every ordered triple of groups that is a valid three-card Base (a quick look-up for move lists)."""


def base_orders(hand: Sequence[str], size: int = 3) -> list[tuple[str, ...]]:
    """Every ordered choice of ``size`` cards from ``hand`` that forms a valid Base."""
    gs = {c: group(c) for c in hand}
    if size == 3:
        return [p for p in permutations(hand, 3) if (gs[p[0]], gs[p[1]], gs[p[2]]) in _VALID_TRIPLES]
    return [p for p in permutations(hand, size) if pattern_of([gs[c] for c in p]) is not None]
