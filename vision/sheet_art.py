"""Sheets of paper that lie on a card table beside the cards: a page of
rules and a score pad, for the scene generator.

Print is the hardest thing for the edge-free index finder
(:mod:`vision.index_pairs`): every letter and digit is an ink spot on white
paper, and a digit over a digit is laid out like a rank over a suit.  A
page of rules or a score pad lies on most real card tables, so the
benchmarks draw them (``render_scene(sheet=...)``, ``bench/vision_print.py``).
The text is made of this project's own words and card-like tokens (10, 7,
Q, K, A), in the card fonts (:func:`vision.fonts.card_fonts`)."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .fonts import card_fonts

#: sheet pixels per millimetre (as card art, vision.cardart.PX)
PX = 6
#: the sheets' sizes, mm: an A4 page of rules, an A5 score pad
RULES_MM = (210.0, 297.0)
SCORE_MM = (148.0, 210.0)

_WORDS = (
    "each player draws two cards and may play one base striker support ace indicator "
    "the turn ends when both pass a card on the table is 10 7 Q K A 9 8 points score "
    "round trick lead follow suit trump dice star stone coin toss double edge sword "
    "strike fake block parry lunge arm resources fighter defense equipment cloak"
).split()


def _font(size_mm: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    fonts = card_fonts()
    wanted = [f for f in fonts if ("Bold" in f) == bold and "Sans" in f] or list(fonts)
    return ImageFont.truetype(wanted[0], max(6, int(round(size_mm * PX))))


def _sheet(size_mm: tuple[float, float]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    w, h = (int(round(s * PX)) for s in size_mm)
    img = Image.new("RGBA", (w, h), (246, 246, 240, 255))
    return img, ImageDraw.Draw(img)


def _bgra(img: Image.Image) -> np.ndarray:
    a = np.asarray(img)
    return np.ascontiguousarray(a[..., [2, 1, 0, 3]])


def rules_sheet(rng: np.random.Generator) -> np.ndarray:
    """An A4 page of numbered rules: a bold title 6-8 mm tall, then lines of
    text 3-4.5 mm to the em, as a printer prints 9-13 point type (BGRA, ``PX`` a mm)."""
    img, d = _sheet(RULES_MM)
    ink = tuple(int(x) for x in rng.integers(10, 50, 3))
    title = _font(float(rng.uniform(6.0, 8.0)), bold=True)
    d.text((18 * PX, 16 * PX), "Table Companion: rules", font=title, fill=ink + (255,))
    em = float(rng.uniform(3.0, 4.5))
    body = _font(em)
    y, rule = 32.0, 1
    while y < RULES_MM[1] - 20:
        words = [str(w) for w in rng.choice(_WORDS, int(rng.integers(6, 14)))]
        line = (f"{rule}. " if rng.random() < 0.25 else "") + " ".join(words)
        rule += line[0].isdigit()
        d.text((18 * PX, y * PX), line, font=body, fill=ink + (255,))
        y += em * float(rng.uniform(1.25, 1.6)) + (em if rng.random() < 0.1 else 0.0)
    return _bgra(img)


def score_sheet(rng: np.random.Generator) -> np.ndarray:
    """An A5 score pad: players' names over ruled columns of running
    totals, 5-8 mm tall, in black or blue pen colours (BGRA, ``PX`` a mm)."""
    img, d = _sheet(SCORE_MM)
    n = int(rng.integers(2, 5))
    col = (SCORE_MM[0] - 16) / n
    rule_ink = (150, 170, 220, 255)
    head = _font(5.0, bold=True)
    digits = _font(float(rng.uniform(5.0, 8.0)))
    pen = (20, 30, 120, 255) if rng.random() < 0.5 else (25, 25, 25, 255)
    row = float(rng.uniform(9.0, 12.0))
    for k in range(n):
        x = 8 + k * col
        d.text(((x + 3) * PX, 10 * PX), ["Ann", "Ben", "Kai", "Mio"][k], font=head, fill=(25, 25, 25, 255))
        if k:
            d.line((x * PX, 8 * PX, x * PX, (SCORE_MM[1] - 8) * PX), fill=rule_ink, width=2)
        total, y = 0, 22.0
        while y < SCORE_MM[1] - 14:
            total += int(rng.integers(0, 15))
            d.text(((x + 4) * PX, y * PX), str(total), font=digits, fill=pen)
            y += row
    d.line((8 * PX, 19 * PX, (SCORE_MM[0] - 8) * PX, 19 * PX), fill=rule_ink, width=2)
    return _bgra(img)


#: the sheets by name, and how each is drawn
DRAWERS = {"rules": rules_sheet, "score": score_sheet}
SHEETS = tuple(DRAWERS)


def sheet_art(kind: str, rng: np.random.Generator) -> np.ndarray:
    """The sheet ``kind`` (one of :data:`SHEETS`) drawn with ``rng``."""
    if kind not in DRAWERS:
        raise ValueError(f"no sheet {kind!r}; sheets: {', '.join(SHEETS)}")
    return DRAWERS[kind](rng)
