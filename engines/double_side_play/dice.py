"""Dice: goals (DSP-3.3), the first lead player (DSP-4.x) and the trump chooser (DSP-6.1).

Pure functions of the kept dice.  Ruling DSP-R1: in the totals that pick the
lead player and the trump chooser a 6 counts as 6, its face value; the
rulebook's "6 or 0" is stated for the goal only.
"""

from __future__ import annotations

from collections.abc import Sequence


def goals(dice: Sequence[int]) -> tuple[int, ...]:
    """Tricks-won counts that score with these dice: each face, and 0 for a 6 (DSP-3.3)."""
    out = set(dice)
    if 6 in out:
        out.add(0)
    return tuple(sorted(out))


def lead_candidates(dice: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], str]:
    """Seats still in the running for the first lead, and the deciding reason.

    Lowest total (DSP-4.1, 6 counts as 6 by ruling DSP-R1), then lowest single
    die among the tied (DSP-4.2).  More than one seat left means janken (DSP-4.3).
    """
    return _pick(dice, min, "lowest total", "lowest single die")


def trump_candidates(dice: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], str]:
    """Seats still in the running to choose trumps: highest total, then highest single die (DSP-6.1)."""
    return _pick(dice, max, "highest total", "highest single die")


def _pick(dice: Sequence[Sequence[int]], best, total_reason: str, die_reason: str) -> tuple[tuple[int, ...], str]:
    totals = [sum(d) for d in dice]
    target = best(totals)
    tied = [s for s, t in enumerate(totals) if t == target]
    if len(tied) == 1:
        return tuple(tied), total_reason
    single = best(best(dice[s]) for s in tied)
    tied = [s for s in tied if best(dice[s]) == single]
    if len(tied) == 1:
        return tuple(tied), die_reason
    return tuple(tied), "janken"
