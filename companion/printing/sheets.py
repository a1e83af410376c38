"""Card sheets: nine poker-size cards (63.5 x 88.9 mm) per A4 or Letter sheet, with
cut marks, and back sheets mirrored for duplex printing.

The grid is centred on the sheet, so a back sheet printed on the other side
(flip on the long edge) lands behind its faces: the back of the card in
column ``c`` is drawn in column ``2 - c``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.printing.paper import paper_size
from companion.printing.pdfpage import MatPage

CARD_W = 63.5
CARD_H = 88.9
COLS, ROWS = 3, 3
PER_SHEET = COLS * ROWS
CARD_PAPERS = ("A4", "Letter")
MARK = 5.0  # cut mark length outside the grid

Draw = Callable[[Canvas, MatPage], None]
"""Draws one card in card millimetres (0..CARD_W, 0..CARD_H, y down)."""


def _origin(paper: str) -> tuple[float, float, float, float]:
    pw, ph = paper_size(paper)
    return pw, ph, (pw - COLS * CARD_W) / 2, (ph - ROWS * CARD_H) / 2


def _cut_marks(canvas: Canvas, page: MatPage, gx: float, gy: float) -> None:
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.3)
    for c in range(COLS + 1):
        x = gx + c * CARD_W
        page.line(canvas, x, gy - 1, x, gy - 1 - MARK)
        page.line(canvas, x, gy + ROWS * CARD_H + 1, x, gy + ROWS * CARD_H + 1 + MARK)
    for r in range(ROWS + 1):
        y = gy + r * CARD_H
        page.line(canvas, gx - 1, y, gx - 1 - MARK, y)
        page.line(canvas, gx + COLS * CARD_W + 1, y, gx + COLS * CARD_W + 1 + MARK, y)


def _sheet(canvas: Canvas, paper: str, cards: Sequence[Draw], mirrored: bool, footer: str) -> None:
    pw, ph, gx, gy = _origin(paper)
    for i, draw in enumerate(cards):
        r, c = divmod(i, COLS)
        if mirrored:
            c = COLS - 1 - c
        x, y = gx + c * CARD_W, gy + r * CARD_H
        canvas.saveState()
        card_page = MatPage(-x, -y, ph)
        card_page.clip(canvas, 0, 0, CARD_W, CARD_H)
        draw(canvas, card_page)
        canvas.restoreState()
    page = MatPage(0, 0, ph)
    _cut_marks(canvas, page, gx, gy)
    canvas.setFillColorRGB(0.3, 0.3, 0.3)
    page.text(canvas, pw / 2, ph - max(1.5, gy / 2 - 1), footer, 6)
    canvas.showPage()


def write_sheets(out: str | Path, paper: str, faces: Sequence[Draw], backs: Sequence[Draw] | None, heading: str) -> int:
    """Faces nine to a sheet; with ``backs`` (one per face) each face sheet is followed by
    its back sheet, mirrored for duplex.  Returns the page count."""
    if paper not in CARD_PAPERS:
        raise ValueError(f"cards print on {' or '.join(CARD_PAPERS)}, not {paper!r}")
    if backs is not None and len(backs) != len(faces):
        raise ValueError("one back per face")
    pw, ph = paper_size(paper)
    canvas = Canvas(str(out), pagesize=(pw * mm, ph * mm))
    canvas.setTitle(heading)
    canvas.setCreator("Table Companion (companion print cards)")
    sheets = (len(faces) + PER_SHEET - 1) // PER_SHEET
    pages = 0
    for s in range(sheets):
        chunk = slice(s * PER_SHEET, (s + 1) * PER_SHEET)
        _sheet(canvas, paper, faces[chunk], False,
               f"{heading}: sheet {s + 1} of {sheets}, faces. Print at 100% (no fit to page); cut on the marks.")
        pages += 1
        if backs is not None:
            _sheet(canvas, paper, backs[chunk], True,
                   f"{heading}: sheet {s + 1} of {sheets}, backs: print on the back of the faces (flip on the long edge).")
            pages += 1
    canvas.save()
    return pages
