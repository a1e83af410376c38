"""Millimetres with y down on a reportlab page (whose points have y up), and fonts.

Mats and cards are laid out like vision sees them: millimetres from a top-left
origin.  :class:`MatPage` maps those onto one page, which may show any window
of the drawing (a tile of a mat, a card on a sheet).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen.canvas import Canvas

LATIN = "Helvetica"
LATIN_BOLD = "Helvetica-Bold"
JAPANESE = "HeiseiKakuGo-W5"
"""A CID font every PDF reader maps to a Japanese gothic face (not embedded)."""


@cache
def _japanese() -> str:
    pdfmetrics.registerFont(UnicodeCIDFont(JAPANESE))
    return JAPANESE


def font_for(text: str, bold: bool = False) -> str:
    """Helvetica when the text is Latin-1, else the Japanese CID font (it has Latin too)."""
    try:
        text.encode("cp1252")
    except UnicodeEncodeError:
        return _japanese()
    return LATIN_BOLD if bold else LATIN


@dataclass(frozen=True)
class MatPage:
    """A page showing the drawing from (``x0``, ``y0``) mm; the page is ``page_h`` mm high."""

    x0: float
    y0: float
    page_h: float

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * mm, (self.page_h - (y - self.y0)) * mm

    def rect(self, canvas: Canvas, x: float, y: float, w: float, h: float, *, fill: bool = False,
             stroke: bool = False, radius: float = 0.0) -> None:
        px, py = self.pt(x, y + h)
        if radius:
            canvas.roundRect(px, py, w * mm, h * mm, radius * mm, stroke=int(stroke), fill=int(fill))
        else:
            canvas.rect(px, py, w * mm, h * mm, stroke=int(stroke), fill=int(fill))

    def line(self, canvas: Canvas, x1: float, y1: float, x2: float, y2: float) -> None:
        canvas.line(*self.pt(x1, y1), *self.pt(x2, y2))

    def text(self, canvas: Canvas, x: float, y: float, text: str, size_pt: float, *, angle: float = 0.0,
             align: str = "centre", bold: bool = False) -> None:
        """``text`` with its baseline centre (or left/right end) at (x, y) mm, turned
        ``angle`` degrees anticlockwise as seen on the page."""
        canvas.saveState()
        canvas.translate(*self.pt(x, y))
        canvas.rotate(angle)
        canvas.setFont(font_for(text, bold), size_pt)
        if align == "centre":
            canvas.drawCentredString(0, 0, text)
        elif align == "right":
            canvas.drawRightString(0, 0, text)
        else:
            canvas.drawString(0, 0, text)
        canvas.restoreState()

    def clip(self, canvas: Canvas, x: float, y: float, w: float, h: float) -> None:
        path = canvas.beginPath()
        px, py = self.pt(x, y + h)
        path.rect(px, py, w * mm, h * mm)
        canvas.clipPath(path, stroke=0, fill=0)


def text_width(text: str, size_pt: float, bold: bool = False) -> float:
    """Width in millimetres."""
    return pdfmetrics.stringWidth(text, font_for(text, bold), size_pt) / mm
