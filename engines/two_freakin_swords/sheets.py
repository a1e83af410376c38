"""Character sheets: who a player fights as, and the points they carry between fights (TFS-4.1).

The server persists sheets; the engine only reads starting points from them
(``options_for``) and reports what to award (:meth:`TFSState.result`).
:func:`settle` applies a result to the sheets.  No clock here: the caller
passes the time stamp.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines.core import to_plain

BASE_HIT_POINTS = 5


@dataclass(frozen=True)
class CharacterSheet:
    """One fighter's sheet.  ``destroyed`` is set (a time stamp) once the fighter is defeated."""

    name: str
    points: int = 0
    wins: int = 0
    losses: int = 0
    created: str = ""
    destroyed: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError("a character sheet needs a name")
        for field in ("points", "wins", "losses"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{field} on {self.name}'s sheet must be a whole number of 0 or more, not {value!r}")

    @property
    def hit_points(self) -> int:
        """TFS-4.1: 5 plus one per point."""
        return BASE_HIT_POINTS + self.points

    @property
    def alive(self) -> bool:
        return self.destroyed is None

    def to_json(self) -> dict[str, Any]:
        return to_plain(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CharacterSheet:
        if not isinstance(data, Mapping):
            raise ValueError("a character sheet must be an object")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ValueError(f"a character sheet has no field {unknown[0]!r}; fields: {', '.join(sorted(names))}")
        if "name" not in data:
            raise ValueError("a character sheet needs a name")
        return cls(**dict(data))


@dataclass(frozen=True)
class Result:
    """What a finished fight means for the sheets: points to award and sheets to destroy, per seat."""

    award: tuple[int, ...]
    destroyed: tuple[bool, ...]

    def to_json(self) -> dict[str, Any]:
        return to_plain(self)


def options_for(sheets: Sequence[CharacterSheet]) -> dict[str, Any]:
    """Game options carrying each seat's points (hit points are 5 plus these)."""
    for sheet in sheets:
        if not sheet.alive:
            raise ValueError(f"{sheet.name}'s sheet was destroyed; make a new character (TFS-4.3)")
    return {"points": [sheet.points for sheet in sheets]}


def settle(sheets: Sequence[CharacterSheet], result: Result, when: str) -> tuple[CharacterSheet, ...]:
    """The sheets after a fight: winners gain their points and a win; the defeated are destroyed with a loss."""
    if len(sheets) != len(result.award):
        raise ValueError(f"{len(sheets)} sheets for {len(result.award)} seats")
    out = []
    for sheet, award, gone in zip(sheets, result.award, result.destroyed, strict=True):
        if gone:
            sheet = replace(sheet, losses=sheet.losses + 1, destroyed=when)
        elif award:
            sheet = replace(sheet, points=sheet.points + award, wins=sheet.wins + 1)
        out.append(sheet)
    return tuple(out)
