"""Paper sizes and how a mat larger than the paper is cut into pages.

A mat is printed at its true size (vision measures cards in mat millimetres),
so a small paper gets several pages.  The printer cannot print the outer
:data:`MARGIN` of a sheet, and the mat keeps its outer :data:`MAT_BORDER`
blank (the layouts keep their zones inside it), so only the mat's *content
box* must be covered.  The page count is the least that covers it with at
least the asked overlap; the tiles are then spread evenly, so any slack
becomes extra overlap.  A3 (two pages) and A4 (four) fit the content box
exactly: each seam is a cut line, nothing is printed twice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PAPERS: dict[str, tuple[float, float]] = {
    "A2": (420.0, 594.0),
    "A3": (297.0, 420.0),
    "A4": (210.0, 297.0),
    "Letter": (215.9, 279.4),
}
"""Portrait width and height in millimetres."""

MARGIN = 5.0
"""What most printers leave unprinted at each edge of a sheet."""
MAT_BORDER = 10.0
"""The mat's outer band that carries nothing (zones, markers and the title lie inside it)."""

_EPS = 1e-6


@dataclass(frozen=True)
class Tile:
    """One page of a mat: the page's top-left corner in mat millimetres and its printable box."""

    row: int
    col: int
    rows: int
    cols: int
    page_w: float
    page_h: float
    x0: float  # mat x of the page's left edge
    y0: float  # mat y of the page's top edge
    clip: tuple[float, float, float, float]  # printable mat box on this page: x, y, w, h

    @property
    def label(self) -> str:
        return f"row {self.row + 1} col {self.col + 1}"


def paper_size(name: str) -> tuple[float, float]:
    """Portrait (width, height) of a paper name, case-insensitive; ValueError naming the choices."""
    for key, size in PAPERS.items():
        if key.lower() == name.lower():
            return size
    raise ValueError(f"unknown paper {name!r}; choose {', '.join(PAPERS)}")


def _split(content: float, printable: float, overlap: float) -> tuple[int, float]:
    """Number of pages along one side and the step between them."""
    if content <= printable + _EPS:
        return 1, 0.0
    n = math.ceil((content - overlap) / (printable - overlap) - _EPS)
    return n, (content - printable) / (n - 1)


def plan(mat_w: float, mat_h: float, paper: str, overlap: float = 0.0, margin: float = MARGIN) -> list[Tile]:
    """The pages that print a ``mat_w`` x ``mat_h`` mat on ``paper``, row by row.

    A sheet as large as the mat gets the whole mat centred on it.  Otherwise the
    orientation needing fewer pages wins (landscape on a tie).
    """
    pw, ph = paper_size(paper)
    if overlap < 0 or margin < 0:
        raise ValueError("overlap and margin are millimetres, 0 or more")
    for w, h in ((ph, pw), (pw, ph)):
        if w + _EPS >= mat_w and h + _EPS >= mat_h:
            x0, y0 = (mat_w - w) / 2, (mat_h - h) / 2
            return [Tile(0, 0, 1, 1, w, h, x0, y0, (x0 + margin, y0 + margin, w - 2 * margin, h - 2 * margin))]
    cw, ch = mat_w - 2 * MAT_BORDER, mat_h - 2 * MAT_BORDER
    best: list[Tile] | None = None
    for w, h in ((ph, pw), (pw, ph)):
        iw, ih = w - 2 * margin, h - 2 * margin
        if iw <= overlap or ih <= overlap:
            continue
        cols, sx = _split(cw, iw, overlap)
        rows, sy = _split(ch, ih, overlap)
        tiles = []
        for r in range(rows):
            for c in range(cols):
                cx, cy = MAT_BORDER + c * sx, MAT_BORDER + r * sy
                tiles.append(Tile(r, c, rows, cols, w, h, cx - margin, cy - margin, (cx, cy, iw, ih)))
        if best is None or len(tiles) < len(best):
            best = tiles
    if best is None:
        raise ValueError(f"an overlap of {overlap} mm does not fit on {paper} with {margin} mm margins")
    return best
