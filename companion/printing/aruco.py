"""ArUco markers drawn as vector squares, exactly to size.

The bits come from :func:`vision.markers.marker_image` (one pixel per cell),
so the printed marker is the one vision's detector looks for; vector cells
stay sharp at any printer resolution.
"""

from __future__ import annotations

from functools import cache

from reportlab.pdfgen.canvas import Canvas

from companion.printing.pdfpage import MatPage
from vision.markers import marker_image

CELLS = 6
"""A 4x4 marker with its one-cell black border."""


@cache
def cells(marker_id: int) -> tuple[tuple[bool, ...], ...]:
    """Rows (top first) of the marker's cells, True = black."""
    img = marker_image(marker_id, CELLS)
    return tuple(tuple(bool(v < 128) for v in row) for row in img)


def draw_marker(canvas: Canvas, page: MatPage, marker_id: int, cx: float, cy: float, side: float,
                quiet: float, half_turn: bool = False) -> None:
    """Marker ``marker_id`` centred on (``cx``, ``cy``) mm, ``side`` mm square, on a white
    square ``quiet`` mm wider on each side; ``half_turn`` turns it upside down."""
    grid = cells(marker_id)
    if half_turn:
        grid = tuple(tuple(reversed(row)) for row in reversed(grid))
    canvas.saveState()
    canvas.setFillColorRGB(1, 1, 1)
    page.rect(canvas, cx - side / 2 - quiet, cy - side / 2 - quiet, side + 2 * quiet, side + 2 * quiet, fill=True)
    canvas.setFillColorRGB(0, 0, 0)
    cell = side / CELLS
    x0, y0 = cx - side / 2, cy - side / 2
    for r, row in enumerate(grid):
        c = 0
        while c < CELLS:  # one rectangle per run of black cells
            if not row[c]:
                c += 1
                continue
            start = c
            while c < CELLS and row[c]:
                c += 1
            page.rect(canvas, x0 + start * cell, y0 + r * cell, (c - start) * cell, cell, fill=True)
    canvas.restoreState()
