"""Card faces and backs, drawn in card millimetres (63.5 x 88.9, y down).

Every printed face carries vision's printed-card marker layout
(vision/geometry.py): the id in a 30 mm marker at the card centre and again,
14 mm, centred 11 mm from the top-left corner and (turned half a turn) from
the bottom-right corner, each on a white quiet square one cell wide.  Text
and colour stay clear of those squares.
"""

from __future__ import annotations

from reportlab.pdfgen.canvas import Canvas

from companion.printing.aruco import CELLS, draw_marker
from companion.printing.pdfpage import MatPage, text_width
from companion.printing.sheets import CARD_H, CARD_W
from vision.geometry import PRINTED_CENTRE_MARKER, PRINTED_CORNER_MARKER, PRINTED_CORNER_OFFSET

RGB = tuple[float, float, float]


def paper(canvas: Canvas, page: MatPage, frame: RGB = (0.55, 0.45, 0.3)) -> None:
    """White card with a thin frame line, inside the cut."""
    canvas.setFillColorRGB(1, 1, 1)
    page.rect(canvas, 0, 0, CARD_W, CARD_H, fill=True)
    canvas.setStrokeColorRGB(*frame)
    canvas.setLineWidth(0.6)
    page.rect(canvas, 1.2, 1.2, CARD_W - 2.4, CARD_H - 2.4, stroke=True, radius=2.5)


def face_markers(canvas: Canvas, page: MatPage, marker_id: int) -> None:
    draw_marker(canvas, page, marker_id, CARD_W / 2, CARD_H / 2, PRINTED_CENTRE_MARKER, PRINTED_CENTRE_MARKER / CELLS)
    o, s = PRINTED_CORNER_OFFSET, PRINTED_CORNER_MARKER
    draw_marker(canvas, page, marker_id, o, o, s, s / CELLS)
    draw_marker(canvas, page, marker_id, CARD_W - o, CARD_H - o, s, s / CELLS, half_turn=True)


def fit_text(canvas: Canvas, page: MatPage, x: float, y: float, text: str, size: float, width: float, *,
             angle: float = 0.0, align: str = "left", bold: bool = False) -> None:
    """One line, shrunk until it fits ``width`` mm."""
    while size > 4 and text_width(text, size, bold) > width:
        size -= 0.25
    page.text(canvas, x, y, text, size, angle=angle, align=align, bold=bold)


def wrapped(text: str, width: float, size: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def text_box(canvas: Canvas, page: MatPage, x: float, y: float, w: float, h: float, text: str,
             size: float = 6.0) -> None:
    """Paragraph wrapped to ``w`` mm and shrunk until it fits ``h`` mm, top-left at (x, y)."""
    lines = wrapped(text, w, size)
    while size > 3.5 and len(lines) * size * 0.3528 * 1.15 > h:
        size -= 0.25
        lines = wrapped(text, w, size)
    lead = size * 0.3528 * 1.15
    for i, line in enumerate(lines):
        page.text(canvas, x, y + size * 0.3528 + i * lead, line, size, align="left")


def marked_back(canvas: Canvas, page: MatPage, marker_id: int, word: str, tint: RGB) -> None:
    """A card back showing only its side: a centre marker (vision reads it face down) and the word."""
    canvas.setFillColorRGB(*tint)
    page.rect(canvas, 0, 0, CARD_W, CARD_H, fill=True)
    canvas.setFillColorRGB(1, 1, 1)
    page.rect(canvas, 3, 3, CARD_W - 6, CARD_H - 6, fill=True, radius=2.5)
    draw_marker(canvas, page, marker_id, CARD_W / 2, CARD_H / 2, PRINTED_CENTRE_MARKER, PRINTED_CENTRE_MARKER / CELLS)
    canvas.setFillColorRGB(*tint)
    page.text(canvas, CARD_W / 2, 16, word.upper(), 14, bold=True)
    page.text(canvas, CARD_W / 2, CARD_H - 16, word.upper(), 14, angle=180, bold=True)
