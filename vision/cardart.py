"""Card artwork for the scene generator: faces in several deck styles, backs,
printed marker cards.  Drawn with Pillow at ``PX`` pixels per millimetre and
returned as BGRA images (alpha gives the rounded corners)."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from . import geometry as g
from .fonts import card_fonts, suit_glyph_fonts
from .glyphs import RED_SUITS, SUIT_CHAR, draw_suit
from .markers import marker_image

PX = 6  # template pixels per millimetre
W, H = int(g.CARD_W * PX), int(g.CARD_H * PX)


@dataclass(frozen=True)
class DeckStyle:
    """How one deck design draws its corner index."""

    rank_font: str
    suit_font: str | None  # None: polygon suits
    rank_h: float  # cap height of the rank, mm
    suit_h: float  # height of the index suit, mm
    index_x: float  # centre of the index from the long edge, mm
    index_y: float  # top of the rank from the short edge, mm
    gap: float  # between rank and suit, mm
    four_index: bool
    condensed: float  # horizontal squeeze of the rank (1 = none)
    red: tuple[int, int, int]  # RGB
    black: tuple[int, int, int]
    paper: tuple[int, int, int]


def _bold_first(fonts: tuple[str, ...]) -> list[str]:
    keep = [f for f in fonts if "Mono" not in os.path.basename(f) or "Bold" in os.path.basename(f)]
    return keep or list(fonts)


@functools.cache
def deck_styles(fonts: tuple[str, ...] | None = None) -> tuple[DeckStyle, ...]:
    """A fixed, varied set of deck designs from the given fonts (default: fonts.card_fonts)."""
    fonts = _bold_first(fonts or card_fonts())
    if not fonts:
        raise RuntimeError("no TrueType fonts found; install fonts-dejavu-core")
    rng = np.random.default_rng(1234)
    glyph_fonts = suit_glyph_fonts()
    styles = []
    for i, font in enumerate(fonts):
        for variant in range(2):
            styles.append(
                DeckStyle(
                    rank_font=font,
                    suit_font=(glyph_fonts[0] if glyph_fonts and (i + variant) % 3 == 2 else None),
                    rank_h=float(rng.uniform(5.2, 7.5)),
                    suit_h=float(rng.uniform(4.2, 6.0)),
                    index_x=float(rng.uniform(5.0, 7.0)),
                    index_y=float(rng.uniform(3.0, 5.0)),
                    gap=float(rng.uniform(0.6, 1.6)),
                    four_index=bool(variant == 1 and i % 2 == 0),
                    condensed=float(rng.choice([1.0, 0.85, 0.75])),
                    red=tuple(int(v) for v in rng.choice([(200, 20, 30), (220, 40, 40), (180, 10, 50)])),
                    black=tuple(int(v) for v in rng.choice([(10, 10, 10), (30, 30, 40), (0, 0, 0)])),
                    paper=tuple(int(v) for v in rng.choice([(250, 250, 248), (245, 243, 235), (252, 252, 252)])),
                )
            )
    return tuple(styles)


def _rounded_alpha(draw: ImageDraw.ImageDraw) -> None:
    draw.rounded_rectangle([0, 0, W - 1, H - 1], radius=g.CARD_RADIUS * PX, fill=255)


@functools.cache
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def text_image(text: str, font_path: str, height_px: int, squeeze: float = 1.0) -> Image.Image:
    """The ink of ``text`` as an L image (255 = ink) scaled to ``height_px`` tall."""
    font = _font(font_path, 160)
    left, t, r, b = font.getbbox(text)
    img = Image.new("L", (r - left + 20, b - t + 20), 0)
    ImageDraw.Draw(img).text((10 - left, 10 - t), text, font=font, fill=255)
    box = img.getbbox() or (0, 0, 1, 1)
    img = img.crop(box)
    w = max(1, round(img.width * height_px / img.height * squeeze))
    return img.resize((w, height_px), Image.LANCZOS)


def _index_image(rank: str, suit: str, style: DeckStyle) -> Image.Image:
    """The corner index (rank over suit) as an RGBA tile whose top-left is the card corner."""
    colour = style.red if suit in RED_SUITS else style.black
    tw, th = int(g.INDEX_BOX_W * PX), int(g.INDEX_BOX_H * PX)
    tile = Image.new("RGBA", (tw, th), (0, 0, 0, 0))
    rank_ink = text_image(rank, style.rank_font, int(style.rank_h * PX), style.condensed * (0.8 if rank == "10" else 1.0))
    cx = style.index_x * PX
    y = style.index_y * PX
    tile.paste(Image.new("RGBA", rank_ink.size, colour + (255,)), (int(cx - rank_ink.width / 2), int(y)), rank_ink)
    sy = y + rank_ink.height + style.gap * PX
    sh = style.suit_h * PX
    if style.suit_font:
        ink = text_image(SUIT_CHAR[suit], style.suit_font, int(sh))
        tile.paste(Image.new("RGBA", ink.size, colour + (255,)), (int(cx - ink.width / 2), int(sy)), ink)
    else:
        draw_suit(ImageDraw.Draw(tile), suit, cx, sy + sh / 2, sh, colour + (255,))
    return tile


_PIPS = {
    "2": [(0.5, 0.2), (0.5, 0.8)],
    "3": [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    "4": [(0.3, 0.2), (0.7, 0.2), (0.3, 0.8), (0.7, 0.8)],
}
_PIPS["5"] = _PIPS["4"] + [(0.5, 0.5)]
_PIPS["6"] = _PIPS["4"] + [(0.3, 0.5), (0.7, 0.5)]
_PIPS["7"] = _PIPS["6"] + [(0.5, 0.35)]
_PIPS["8"] = _PIPS["6"] + [(0.5, 0.35), (0.5, 0.65)]
_PIPS["9"] = [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.5)]
_PIPS["10"] = [(x, y) for x in (0.3, 0.7) for y in (0.2, 0.4, 0.6, 0.8)] + [(0.5, 0.3), (0.5, 0.7)]


@functools.cache
def card_face(rank: str, suit: str, style: DeckStyle) -> np.ndarray:
    """A card face (BGRA, ``PX`` px/mm)."""
    img = Image.new("RGBA", (W, H), style.paper + (0,))
    alpha = Image.new("L", (W, H), 0)
    _rounded_alpha(ImageDraw.Draw(alpha))
    draw = ImageDraw.Draw(img)
    colour = style.red if suit in RED_SUITS else style.black
    if rank in _PIPS:
        for x, y in _PIPS[rank]:
            draw_suit(draw, suit, x * W, y * H, 9 * PX, colour + (255,), flip=y > 0.5)
    elif rank == "A":
        draw_suit(draw, suit, W / 2, H / 2, 22 * PX, colour + (255,))
    else:
        x0, y0 = 12 * PX, 10 * PX
        tint = {"J": (120, 160, 220), "Q": (230, 190, 90), "K": (200, 120, 120)}[rank]
        draw.rectangle([x0, y0, W - x0, H - y0], fill=tint + (255,), outline=colour + (255,), width=PX)
        big = text_image(rank, style.rank_font, 26 * PX)
        img.paste(Image.new("RGBA", big.size, colour + (255,)), (int(W / 2 - big.width / 2), int(H / 2 - big.height / 2)), big)
    tile = _index_image(rank, suit, style)
    img.alpha_composite(tile, (0, 0))
    img.alpha_composite(tile.rotate(180), (W - tile.width, H - tile.height))
    if style.four_index:
        mirrored = _index_image_mirrored(tile)
        img.alpha_composite(mirrored, (W - tile.width, 0))
        img.alpha_composite(mirrored.rotate(180), (0, H - tile.height))
    img.putalpha(alpha)
    return _to_bgra(img)


def _index_image_mirrored(tile: Image.Image) -> Image.Image:
    """The same index placed against the right-hand edge (upright, not mirrored)."""
    box = tile.getbbox() or (0, 0, tile.width, tile.height)
    ink = tile.crop(box)
    out = Image.new("RGBA", tile.size, (0, 0, 0, 0))
    out.paste(ink, (tile.width - box[2], box[1]))
    return out


def _to_bgra(img: Image.Image) -> np.ndarray:
    arr = np.asarray(img.convert("RGBA"))
    return cv2.cvtColor(arr, cv2.COLOR_RGBA2BGRA)


BACK_COLOURS = ((30, 50, 150), (160, 20, 30), (20, 100, 50), (60, 30, 90))


@functools.cache
def card_back(design: int) -> np.ndarray:
    """A card back: lattice pattern, with a white border on even designs."""
    colour = BACK_COLOURS[design % len(BACK_COLOURS)]
    light = tuple(min(255, c + 90) for c in colour)
    img = Image.new("RGBA", (W, H), (250, 250, 250, 255) if design % 2 == 0 else colour + (255,))
    draw = ImageDraw.Draw(img)
    border = 4 * PX if design % 2 == 0 else 0
    draw.rectangle([border, border, W - border, H - border], fill=colour + (255,))
    step = 5 * PX
    for k in range(-H, W + H, step):
        draw.line([(k, border), (k + H, H)], fill=light + (255,), width=PX // 2 + 1)
        draw.line([(k, H - border), (k + H, 0)], fill=light + (255,), width=PX // 2 + 1)
    if border:
        draw.rectangle([0, 0, W, border], fill=(250, 250, 250, 255))
        draw.rectangle([0, H - border, W, H], fill=(250, 250, 250, 255))
        draw.rectangle([0, 0, border, H], fill=(250, 250, 250, 255))
        draw.rectangle([W - border, 0, W, H], fill=(250, 250, 250, 255))
    alpha = Image.new("L", (W, H), 0)
    _rounded_alpha(ImageDraw.Draw(alpha))
    img.putalpha(alpha)
    return _to_bgra(img)


def _paste_marker(img: Image.Image, marker_id: int, cx: float, cy: float, side_mm: float, rotate180: bool = False) -> None:
    side = int(side_mm * PX)
    quiet = int(side_mm * PX / 6)
    m = marker_image(marker_id, side)
    if rotate180:
        m = m[::-1, ::-1]
    tile = Image.new("RGBA", (side + 2 * quiet, side + 2 * quiet), (255, 255, 255, 255))
    tile.paste(Image.fromarray(m).convert("RGBA"), (quiet, quiet))
    img.paste(tile, (int(cx * PX - tile.width / 2), int(cy * PX - tile.height / 2)))


@functools.cache
def printed_card(marker_id: int, title: str = "") -> np.ndarray:
    """A printed game card: centre marker plus the same id in two corners."""
    img = Image.new("RGBA", (W, H), (248, 246, 240, 255))
    draw = ImageDraw.Draw(img)
    draw.rectangle([2 * PX, 2 * PX, W - 2 * PX, H - 2 * PX], outline=(120, 90, 40, 255), width=PX // 2)
    _paste_marker(img, marker_id, g.CARD_W / 2, g.CARD_H / 2, g.PRINTED_CENTRE_MARKER)
    o = g.PRINTED_CORNER_OFFSET
    _paste_marker(img, marker_id, o, o, g.PRINTED_CORNER_MARKER)
    _paste_marker(img, marker_id, g.CARD_W - o, g.CARD_H - o, g.PRINTED_CORNER_MARKER, rotate180=True)
    if title and card_fonts():
        ink = text_image(title, card_fonts()[0], 3 * PX)
        img.paste(Image.new("RGBA", ink.size, (60, 40, 20, 255)), (int(W / 2 - ink.width / 2), int(68 * PX)), ink)
    alpha = Image.new("L", (W, H), 0)
    _rounded_alpha(ImageDraw.Draw(alpha))
    img.putalpha(alpha)
    return _to_bgra(img)


@functools.cache
def marked_back(marker_id: int, design: int = 1) -> np.ndarray:
    """A card back carrying a side marker (e.g. Striking / Defending) in its centre."""
    back = Image.fromarray(cv2.cvtColor(card_back(design), cv2.COLOR_BGRA2RGBA))
    _paste_marker(back, marker_id, g.CARD_W / 2, g.CARD_H / 2, g.PRINTED_CENTRE_MARKER)
    alpha = Image.new("L", (W, H), 0)
    _rounded_alpha(ImageDraw.Draw(alpha))
    back.putalpha(alpha)
    return _to_bgra(back)
