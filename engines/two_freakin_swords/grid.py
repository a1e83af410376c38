"""The engagement grid: what happens when an aggressor's card meets a defender's (TFS-9.1).

The published grid was not available to us, so it ships as data
(``grid.json`` in this package) that a group can replace with the official one.
Every cell says who is hit, whether the arm is played again ("replay this arm")
and how the aggression coin moves.  A grid is validated when it is loaded; a
bad one is refused with a message naming the cell and what to write instead.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engines.two_freakin_swords.cards import KINDS

FORMAT = "two-freakin-swords-grid"
HITS = ("aggressor", "defender", "both", "none")
"""Who is hit: the aggressor's arm hits (``aggressor``), the defender's does, both, or neither."""
COINS = ("by-hits", "stay", "pass")
"""``by-hits``: ruling TFS-R1 (the coin passes when only the aggressor hits);
``stay``/``pass``: the grid moves the coin itself."""
CELL_KEYS = ("hit", "replay", "coin")


class GridError(ValueError):
    """A grid that cannot be used; the message names the file and the cell."""


@dataclass(frozen=True)
class Cell:
    hit: str
    replay: bool = False
    coin: str = "by-hits"

    @property
    def aggressor_hits(self) -> bool:
        return self.hit in ("aggressor", "both")

    @property
    def defender_hits(self) -> bool:
        return self.hit in ("defender", "both")

    def coin_passes(self) -> bool:
        """Does the coin go to the defending arm after this cell (TFS-8)?"""
        if self.coin == "by-hits":
            return self.aggressor_hits and not self.defender_hits
        return self.coin == "pass"


@dataclass(frozen=True)
class Grid:
    """A validated 4x4 grid; ``cells[aggressor][defender]``."""

    cells: tuple[tuple[Cell, ...], ...]
    source: str = ""

    def cell(self, aggressor: str, defender: str) -> Cell:
        return self.cells[KINDS.index(aggressor)][KINDS.index(defender)]

    def to_json(self) -> dict[str, Any]:
        grid: dict[str, Any] = {}
        for a, row in zip(KINDS, self.cells, strict=True):
            grid[a] = {}
            for d, cell in zip(KINDS, row, strict=True):
                out: dict[str, Any] = {"hit": cell.hit}
                if cell.replay:
                    out["replay"] = True
                if cell.coin != "by-hits":
                    out["coin"] = cell.coin
                grid[a][d] = out
        return {"format": FORMAT, "version": 1, "source": self.source, "grid": grid}


def _did_you_mean(word: str, choices: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(str(word), choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def parse_grid(data: Any, name: str = "grid") -> Grid:
    """Build a Grid from its JSON form; GridError names the bad cell and the fix."""
    if not isinstance(data, Mapping):
        raise GridError(f"{name}: a grid must be a JSON object with a \"grid\" member")
    if data.get("format", FORMAT) != FORMAT:
        raise GridError(f"{name}: format is {data.get('format')!r}, expected {FORMAT!r}")
    rows = data.get("grid")
    if not isinstance(rows, Mapping):
        raise GridError(f"{name}: missing \"grid\": an object with one row per aggressor card ({', '.join(KINDS)})")
    for row in rows:
        if row not in KINDS:
            raise GridError(f"{name}: unknown row {row!r}{_did_you_mean(row, KINDS)}; "
                            f"rows are the aggressor's card: {', '.join(KINDS)}")
    cells: list[tuple[Cell, ...]] = []
    for a in KINDS:
        if a not in rows:
            raise GridError(f"{name}: row {a!r} is missing; every aggressor card needs a row")
        row = rows[a]
        if not isinstance(row, Mapping):
            raise GridError(f"{name}: row {a!r} must be an object with one cell per defender card")
        for col in row:
            if col not in KINDS:
                raise GridError(f"{name}: row {a!r} has an unknown column {col!r}{_did_you_mean(col, KINDS)}; "
                                f"columns are the defender's card: {', '.join(KINDS)}")
        out_row = []
        for d in KINDS:
            where = f"{name}: cell {a} (aggressor) vs {d} (defender)"
            if d not in row:
                raise GridError(f"{where} is missing")
            out_row.append(_parse_cell(row[d], where))
        cells.append(tuple(out_row))
    source = data.get("source", "")
    return Grid(tuple(cells), source if isinstance(source, str) else "")


def _parse_cell(cell: Any, where: str) -> Cell:
    if not isinstance(cell, Mapping):
        raise GridError(f"{where}: a cell must be an object like {{\"hit\": \"aggressor\"}}")
    for key in cell:
        if key not in CELL_KEYS:
            raise GridError(f"{where}: unknown key {key!r}{_did_you_mean(key, CELL_KEYS)}; "
                            f"a cell has {', '.join(CELL_KEYS)}")
    hit = cell.get("hit")
    if hit not in HITS:
        raise GridError(f"{where}: \"hit\" is {hit!r}{_did_you_mean(str(hit), HITS)}; "
                        f"write one of {', '.join(HITS)}")
    replay = cell.get("replay", False)
    if not isinstance(replay, bool):
        raise GridError(f"{where}: \"replay\" must be true or false, not {replay!r}")
    coin = cell.get("coin", "by-hits")
    if coin not in COINS:
        raise GridError(f"{where}: \"coin\" is {coin!r}{_did_you_mean(str(coin), COINS)}; "
                        f"write one of {', '.join(COINS)}")
    return Cell(hit, replay, coin)


def parse_grid_text(text: str, name: str = "grid.json") -> Grid:
    """Parse a grid file's text; GridError for bad JSON (with line and column) or a bad cell."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GridError(f"{name} is not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    return parse_grid(data, name)


def load_default_grid() -> Grid:
    """The grid shipped in this package (``grid.json``), validated."""
    text = resources.files(__package__).joinpath("grid.json").read_text(encoding="utf-8")
    return parse_grid_text(text, "engines/two_freakin_swords/grid.json")


DEFAULT_GRID: Grid = load_default_grid()
"""Loaded once at import: a broken shipped grid fails loudly and early."""
