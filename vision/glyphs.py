"""Ranks, suits and how suit symbols are drawn (polygons, so no font is needed).

Shared by the scene generator (to paint faces) and the reader (to build
reference shapes), so both speak of the same four suits."""

from __future__ import annotations

from PIL import ImageDraw

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: the ranks a card shows as pips
NUMBER_RANKS = RANKS[1:10]
SUITS = ("spades", "hearts", "diamonds", "clubs")
RED_SUITS = frozenset({"hearts", "diamonds"})
SUIT_LETTER = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
LETTER_SUIT = {v: k for k, v in SUIT_LETTER.items()}
SUIT_CHAR = {"spades": "\u2660", "hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663"}


def card_code(rank: str, suit: str) -> str:
    """Short text form, e.g. ``QH``, ``10S``."""
    return f"{rank}{SUIT_LETTER[suit]}"


def parse_card_code(code: str) -> tuple[str, str] | None:
    """``"QH"`` / ``"10s"`` / ``"Td"`` -> (rank, suit), or None if it is not a card."""
    code = code.strip().upper()
    if len(code) < 2:
        return None
    rank, letter = code[:-1], code[-1]
    rank = "10" if rank == "T" else rank
    if rank not in RANKS or letter not in LETTER_SUIT:
        return None
    return rank, LETTER_SUIT[letter]


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float, fill, flip: bool = False) -> None:
    """Draw a suit symbol ``size`` tall centred on (cx, cy); ``flip`` turns it upside down."""
    s = size
    f = -1.0 if flip else 1.0

    def P(x: float, y: float) -> tuple[float, float]:
        return (cx + x * s, cy + f * y * s)

    def circle(x: float, y: float, r: float) -> None:
        px, py = P(x, y)
        draw.ellipse([px - r * s, py - r * s, px + r * s, py + r * s], fill=fill)

    if suit == "diamonds":
        draw.polygon([P(0, -0.5), P(0.37, 0), P(0, 0.5), P(-0.37, 0)], fill=fill)
    elif suit == "hearts":
        circle(-0.24, -0.2, 0.26)
        circle(0.24, -0.2, 0.26)
        draw.polygon([P(-0.49, -0.12), P(0.49, -0.12), P(0, 0.5)], fill=fill)
    elif suit == "spades":
        circle(-0.24, 0.1, 0.24)
        circle(0.24, 0.1, 0.24)
        draw.polygon([P(-0.47, 0.06), P(0.47, 0.06), P(0, -0.5)], fill=fill)
        draw.polygon([P(0, 0.1), P(-0.2, 0.5), P(0.2, 0.5)], fill=fill)
    elif suit == "clubs":
        circle(0, -0.26, 0.22)
        circle(-0.26, 0.08, 0.22)
        circle(0.26, 0.08, 0.22)
        draw.polygon([P(0, -0.05), P(-0.2, 0.5), P(0.2, 0.5)], fill=fill)
    else:
        raise ValueError(f"unknown suit {suit!r}")
