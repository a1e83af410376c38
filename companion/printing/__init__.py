"""Printable playmats and cards (``companion print``), drawn with reportlab.

Public API:

- :func:`write_mat` (``out, game_id, seats, variant, paper, overlap=0, light=False``
  -> page count): the game's mat (``engines/<game>/mat.py``) at true size, with
  vision's four calibration markers, on one A2 sheet or tiled (A3, A4, Letter).
- :func:`write_cards` (``out, game_id, paper="A4", deck=None, copy_set="A",
  decks=1`` -> page count): poker-size printed cards, nine per sheet, each with
  the marker vision reads; :class:`NothingToPrint` for games played with real cards.
- :func:`plan`: how a mat is cut into pages.

Conventions (printed index, marker id, ``Sighting.card = "printed:<index>"``):
docs/printing.md.
"""

from companion.printing.cards import NothingToPrint, marker_id, write_cards
from companion.printing.mat import write_mat
from companion.printing.paper import PAPERS, Tile, plan

__all__ = ["NothingToPrint", "PAPERS", "Tile", "marker_id", "plan", "write_cards", "write_mat"]
