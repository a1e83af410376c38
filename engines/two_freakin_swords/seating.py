"""Who sits where, which arms face which, and teams (TFS-5.1).

Seats are numbered clockwise as seen from above.  Facing the middle of the
table, the fighter on your right is the previous seat, so your right arm
fights the left arm of the previous living seat in the circle, and your left
arm the right arm of the next one.  With two fighters both arms face the same
opponent (right against left, left against right).

An arm is named by a key ``"<seat><R|L>"`` (``"3R"``: seat 4's right arm in
the 1-based words players use).  A *pair* is two facing arms; each pair holds
one aggression coin.  A pair of teammates is *friendly*: it never fights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def seat_of(arm_key: str) -> int:
    return int(arm_key[:-1])


def pairs(circle: Sequence[int]) -> tuple[tuple[str, str], ...]:
    """Facing arms ``(p's right arm, right-hand neighbour's left arm)``, one per living seat in circle order."""
    if len(circle) < 2:
        return ()
    return tuple((f"{p}R", f"{circle[i - 1]}L") for i, p in enumerate(circle))


def partners(circle: Sequence[int]) -> dict[str, str]:
    """Arm -> the arm it faces."""
    out: dict[str, str] = {}
    for a, b in pairs(circle):
        out[a] = b
        out[b] = a
    return out


def default_teams(variant: str, seats: int) -> tuple[tuple[int, ...], ...]:
    """Teams when the table gave none: everyone alone, or two teams sitting alternately, or 1v2."""
    if variant != "teams":
        return tuple((s,) for s in range(seats))
    if seats == 3:
        return ((0,), (1, 2))
    if seats % 2:
        raise ValueError(f"a team game of {seats} fighters needs the option \"teams\", "
                         "e.g. teams=[[0,2],[1,3,4]] (TFS-5.4)")
    return (tuple(range(0, seats, 2)), tuple(range(1, seats, 2)))


def parse_teams(value: Any, seats: int) -> tuple[tuple[int, ...], ...]:
    """Validate a ``teams`` option (lists of 0-based seats) against TFS-5.4; ValueError says what is wrong."""
    if not isinstance(value, list | tuple) or not all(isinstance(t, list | tuple) for t in value):
        raise ValueError("teams must be a list of lists of seats, e.g. [[0,2],[1,3]] (TFS-5.4)")
    teams = []
    seen: list[int] = []
    for team in value:
        if not team:
            raise ValueError("a team needs at least one fighter (TFS-5.4)")
        for s in team:
            if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < seats:
                raise ValueError(f"teams name seat {s!r}; seats are 0 to {seats - 1} (TFS-5.4)")
            if s in seen:
                raise ValueError(f"seat {s} is in two teams (TFS-5.4)")
            seen.append(s)
        teams.append(tuple(sorted(team)))
    missing = sorted(set(range(seats)) - set(seen))
    if missing:
        raise ValueError(f"seats {missing} are in no team; every fighter joins one (TFS-5.4)")
    if len(teams) < 2:
        raise ValueError("a team game needs at least two teams (TFS-5.4)")
    biggest = max(len(t) for t in teams)
    if biggest <= seats // 2:
        team_of = team_index(tuple(teams), seats)
        for s in range(seats):
            if team_of[s] == team_of[(s + 1) % seats]:
                raise ValueError(f"seats {s} and {(s + 1) % seats} are teammates sitting side by side; "
                                 "teammates sit across from each other, e.g. [[0,2],[1,3]] (TFS-5.4)")
    return tuple(teams)


def team_index(teams: Sequence[Sequence[int]], seats: int) -> tuple[int, ...]:
    """Team number of every seat."""
    out = [0] * seats
    for i, team in enumerate(teams):
        for s in team:
            out[s] = i
    return tuple(out)
