"""Two Freakin' Swords: a sword-duelling card game for 2 to 8 fighters (docs/rules/two-freakin-swords.md).

Public API: ``GAME`` (the engine-contract Game), :class:`CharacterSheet`,
:func:`options_for` and :func:`settle` (sheets in and out of a fight),
:func:`parse_grid_text` / :class:`GridError` (checking a replacement grid).
"""

from engines.two_freakin_swords.game import GAME, TwoFreakinSwords
from engines.two_freakin_swords.grid import DEFAULT_GRID, Grid, GridError, parse_grid, parse_grid_text
from engines.two_freakin_swords.moves import Announce, ChooseOpening, Place, Reveal
from engines.two_freakin_swords.sheets import CharacterSheet, Result, options_for, settle
from engines.two_freakin_swords.state import TFSState

__all__ = [
    "GAME", "TwoFreakinSwords", "TFSState", "CharacterSheet", "Result", "options_for", "settle",
    "Grid", "GridError", "DEFAULT_GRID", "parse_grid", "parse_grid_text",
    "Announce", "ChooseOpening", "Place", "Reveal",
]
