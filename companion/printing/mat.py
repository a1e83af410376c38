"""The playmat PDF: four calibration markers, every zone of the game's layout, labelled
for the seat that uses it, at true size on one sheet or tiled over several.

Tiled pages carry dashed cut lines where a neighbour follows (right and
below), ticks that continue across each seam when two pages are butted
together, and a page label ("row 1 col 2").  docs/printing.md says how to
assemble them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from companion.printing.aruco import draw_marker
from companion.printing.games import mat_layout, seat_facing, title
from companion.printing.paper import MAT_BORDER, Tile, plan
from companion.printing.pdfpage import MatPage, text_width
from engines.core import MatLayout, Zone
from vision.geometry import MAT_H, MAT_MARKER, MAT_W, mat_marker_centres

QUIET = 6.0
"""White around each mat marker, as vision's scene generator draws it."""
TICK_STEP = 40.0
TICK_LEN = 6.0


@dataclass(frozen=True)
class Ink:
    background: tuple[float, float, float] | None
    line: tuple[float, float, float]
    text: tuple[float, float, float]


DARK = Ink((0.12, 0.33, 0.22), (0.88, 0.88, 0.85), (0.96, 0.96, 0.92))
"""A felt-green mat: white cards stand out, as vision expects (the default)."""
LIGHT = Ink(None, (0.35, 0.35, 0.35), (0.2, 0.2, 0.2))
"""Outlines only, to save ink; cards are then found by their edges alone."""


def _wrap(text: str, width: float, size: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and text_width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _zone_label(canvas: Canvas, page: MatPage, zone: Zone, angle: float, ink: Ink) -> None:
    across = zone.w if (angle % 180) < 45 or (angle % 180) > 135 else zone.h
    size = 11.0
    lines = _wrap(zone.label, across - 4, size)
    while size > 5.5 and (len(lines) > 4 or any(text_width(ln, size) > across - 4 for ln in lines)):
        size -= 0.5
        lines = _wrap(zone.label, across - 4, size)
    if zone.seat is not None:
        lines.append(f"seat {zone.seat + 1}")
    lead = size * 0.3528 * 1.25  # line height in mm
    cx, cy = zone.x + zone.w / 2, zone.y + zone.h / 2
    a = math.radians(angle)
    # lines stack downwards in the text's own frame; its "down" on the mat (y down) is (sin a, cos a)
    down = (math.sin(a), math.cos(a))
    first = -(len(lines) - 1) * lead / 2 + size * 0.3528 * 0.35
    canvas.setFillColorRGB(*ink.text)
    for i, line in enumerate(lines):
        off = first + i * lead
        line_size = size if i < len(lines) - 1 or zone.seat is None else max(5.5, size - 2)
        page.text(canvas, cx + down[0] * off, cy + down[1] * off, line, line_size, angle=angle,
                  bold=i == 0 and zone.seat is None)


def draw_mat(canvas: Canvas, page: MatPage, layout: MatLayout, heading: str, facing: Mapping[int | None, float],
             ink: Ink = DARK) -> None:
    """The whole mat in mat millimetres on ``page`` (clipping is the caller's); ``facing``:
    degrees that turn each seat's labels towards it (``engines/<game>/mat.py``'s ``facing``)."""
    if ink.background is not None:
        canvas.setFillColorRGB(*ink.background)
        page.rect(canvas, 0, 0, layout.width_mm, layout.height_mm, fill=True)
    canvas.setStrokeColorRGB(*ink.line)
    canvas.setLineWidth(0.8)
    for zone in layout.zones:
        canvas.setDash(3, 2) if zone.kind == "pile" else canvas.setDash()
        page.rect(canvas, zone.x, zone.y, zone.w, zone.h, stroke=True, radius=3)
    canvas.setDash()
    for zone in layout.zones:
        _zone_label(canvas, page, zone, facing[zone.seat], ink)
    for marker_id, (cx, cy) in mat_marker_centres().items():
        draw_marker(canvas, page, marker_id, cx, cy, MAT_MARKER, QUIET)
    # heading and a 100 mm bar to check the print scale, in the band above the zones
    canvas.setFillColorRGB(*ink.text)
    page.text(canvas, layout.width_mm / 2 - 40, MAT_BORDER + 3.2, heading, 7.5)
    bar_x, bar_y = layout.width_mm / 2 + 110, MAT_BORDER + 2.2
    canvas.setLineWidth(0.6)
    page.line(canvas, bar_x, bar_y, bar_x + 100, bar_y)
    for x in (bar_x, bar_x + 50, bar_x + 100):
        page.line(canvas, x, bar_y - 1.5, x, bar_y + 1.5)
    page.text(canvas, bar_x + 25, bar_y - 0.6, "100 mm at true size", 5.5)


def _marker_boxes() -> list[tuple[float, float, float, float]]:
    half = MAT_MARKER / 2 + QUIET
    return [(x - half, y - half, 2 * half, 2 * half) for x, y in mat_marker_centres().values()]


def _hits(box, boxes) -> bool:
    x, y, w, h = box
    return any(x < bx + bw and bx < x + w and y < by + bh and by < y + h for bx, by, bw, bh in boxes)


def _tile_marks(canvas: Canvas, page: MatPage, tile: Tile, tiles: list[Tile], number: int, heading: str,
                ink: Ink) -> None:
    cx, cy, cw, ch = tile.clip
    right = next((t for t in tiles if t.row == tile.row and t.col == tile.col + 1), None)
    below = next((t for t in tiles if t.row == tile.row + 1 and t.col == tile.col), None)
    canvas.setStrokeColorRGB(*ink.line)
    canvas.setLineWidth(0.7)
    canvas.setDash(4, 2)
    if right is not None:
        page.line(canvas, right.clip[0], cy, right.clip[0], cy + ch)
    if below is not None:
        page.line(canvas, cx, below.clip[1], cx + cw, below.clip[1])
    canvas.setDash()
    canvas.setLineWidth(0.5)
    # ticks at fixed mat positions, so the two halves meet when the pages are butted together
    ys = [MAT_BORDER + TICK_STEP / 2 + k * TICK_STEP for k in range(int(MAT_H // TICK_STEP) + 1)]
    xs = [MAT_BORDER + TICK_STEP / 2 + k * TICK_STEP for k in range(int(MAT_W // TICK_STEP) + 1)]
    seams_x = ([(cx, +1)] if tile.col > 0 else []) + ([(right.clip[0], -1)] if right is not None else [])
    seams_y = ([(cy, +1)] if tile.row > 0 else []) + ([(below.clip[1], -1)] if below is not None else [])
    markers = _marker_boxes()
    for sx, sign in seams_x:
        for y in ys:
            if cy + 2 < y < cy + ch - 2 and not _hits((sx - TICK_LEN, y - 1, 2 * TICK_LEN, 2), markers):
                page.line(canvas, sx, y, sx + sign * TICK_LEN, y)
    for sy, sign in seams_y:
        for x in xs:
            if cx + 2 < x < cx + cw - 2 and not _hits((x - 1, sy - TICK_LEN, 2, 2 * TICK_LEN), markers):
                page.line(canvas, x, sy, x, sy + sign * TICK_LEN)
    lines = [f"{heading}: page {number} of {len(tiles)}, {tile.label} of {tile.rows} x {tile.cols}",
             "cut the dashed lines; butt each cut edge to the next page so the ticks continue; tape behind"]
    width = max(text_width(line, 6) for line in lines) + 3
    for lx, ly in ((cx + 2, cy + 2), (cx + 2, cy + ch - 9), (cx + cw - width - 2, cy + 2)):
        if not _hits((lx, ly, width, 7), markers):
            break
    canvas.setFillColorRGB(1, 1, 1)
    page.rect(canvas, lx, ly, width, 7, fill=True)
    canvas.setFillColorRGB(0.1, 0.1, 0.1)
    for i, line in enumerate(lines):
        page.text(canvas, lx + 1.5, ly + 2.8 + i * 3, line, 6, align="left")


def write_mat(out: str | Path, game_id: str, seats: int, variant: str | None, paper: str, *,
              overlap: float = 0.0, light: bool = False) -> int:
    """Write the mat PDF to ``out``; returns the page count.  ValueError for bad arguments
    (unknown game, seat count, variant or paper), before anything is written."""
    layout = mat_layout(game_id, seats, variant)
    if (layout.width_mm, layout.height_mm) != (MAT_W, MAT_H):
        raise ValueError(f"{game_id}'s mat is {layout.width_mm} x {layout.height_mm} mm; vision expects {MAT_W} x {MAT_H}")
    tiles = plan(MAT_W, MAT_H, paper, overlap)
    facing = seat_facing(game_id, seats)
    ink = LIGHT if light else DARK
    shown_variant = variant or ""
    heading = f"Table Companion · {title(game_id)} · {seats} seats{' · ' + shown_variant if shown_variant else ''}"
    canvas = Canvas(str(out), pagesize=(tiles[0].page_w * mm, tiles[0].page_h * mm))
    canvas.setTitle(f"{title(game_id)} mat, {seats} seats, {paper}")
    canvas.setCreator("Table Companion (companion print mat)")
    for number, tile in enumerate(tiles, 1):
        page = MatPage(tile.x0, tile.y0, tile.page_h)
        canvas.saveState()
        if len(tiles) > 1:
            page.clip(canvas, *tile.clip)
        draw_mat(canvas, page, layout, heading, facing, ink)
        canvas.restoreState()
        if len(tiles) > 1:
            _tile_marks(canvas, page, tile, tiles, number, f"{title(game_id)} mat", ink)
        canvas.showPage()
    canvas.save()
    return len(tiles)
