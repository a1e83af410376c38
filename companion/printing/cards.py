"""The cards PDF of each game with printed cards, and the answer for the others.

Printed card ``index`` carries marker ``vision.markers.printed_marker(game, index)``
(``range.first + index`` of the game's ranges in ``vision.markers.MARKER_RANGES``,
counted on into its next range); ``engines/<game>/printed.py``
says which card an index is (docs/printing.md).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from companion.printing import faces as F
from companion.printing.games import NO_PRINTED_CARDS
from companion.printing.pdfpage import MatPage
from companion.printing.sheets import CARD_H, CARD_W, Draw, write_sheets
from vision.markers import printed_marker

PRINTED_GAMES = ("double-side-play", "two-freakin-swords", "keener")


class NothingToPrint(Exception):
    """The game has no printed cards; the message says what the players use instead."""


def marker_id(game_id: str, index: int) -> int:
    """The marker printed on card ``index`` of ``game_id``, across the game's ranges in order
    (``vision.markers.printed_marker``); ValueError when they are full."""
    return printed_marker(game_id, index)


# -- Double Side Play ---------------------------------------------------------

_PLANETS: dict[str, F.RGB] = {
    "red": (0.82, 0.16, 0.14), "blue": (0.14, 0.36, 0.78), "green": (0.13, 0.58, 0.25), "yellow": (0.93, 0.76, 0.08),
}


def _dsp_face(canvas: Canvas, page: MatPage, index: int) -> None:
    from engines.double_side_play.cards import DEFAULT_COLOURS, alien_of
    from engines.double_side_play.printed import card_of

    card = card_of(index)
    colour = DEFAULT_COLOURS[index // 12]
    astronaut = int(card[1:])
    tint = _PLANETS[colour]
    F.paper(canvas, page, tint)
    F.face_markers(canvas, page, marker_id("double-side-play", index))
    # astronaut (black) number: top right, upright
    canvas.setFillColorRGB(*tint)
    page.rect(canvas, 24, 3.5, 36, 17.5, fill=True, radius=2)
    canvas.setFillColorRGB(1, 1, 1)
    page.rect(canvas, 40, 5, 18.5, 14.5, fill=True, radius=1.5)
    canvas.setFillColorRGB(0, 0, 0)
    page.text(canvas, 49.25, 17, str(astronaut), 28, bold=True)
    canvas.setFillColorRGB(1, 1, 1)
    page.text(canvas, 32, 11, colour, 7, bold=True)
    page.text(canvas, 32, 17, "astronaut", 5.5)
    # alien (white) number: bottom left, upside down
    a = alien_of(astronaut)
    canvas.setFillColorRGB(*tint)
    page.rect(canvas, 3.5, CARD_H - 21, 36, 17.5, fill=True, radius=2)
    canvas.setFillColorRGB(0.05, 0.05, 0.05)
    page.rect(canvas, 5, CARD_H - 19.5, 18.5, 14.5, fill=True, radius=1.5)
    canvas.setFillColorRGB(1, 1, 1)
    page.text(canvas, 14.25, CARD_H - 17, str(a), 28, angle=180, bold=True)
    page.text(canvas, 31.5, CARD_H - 11, colour, 7, angle=180, bold=True)
    page.text(canvas, 31.5, CARD_H - 17, "alien", 5.5, angle=180)
    canvas.setFillColorRGB(0.3, 0.3, 0.3)
    page.text(canvas, 4, 23.2, f"{card} · Double Side Play", 5, align="left")


def dsp_faces() -> list[Draw]:
    from engines.double_side_play.printed import COUNT

    return [partial(_dsp_face, index=i) for i in range(COUNT)]


# -- Two Freakin' Swords ------------------------------------------------------

_SIDE_TINT: dict[str, F.RGB] = {"striking": (0.72, 0.12, 0.1), "defending": (0.1, 0.32, 0.65)}
_BACK_ID = {"striking": 4, "defending": 5}


def _tfs_face(canvas: Canvas, page: MatPage, index: int) -> None:
    from engines.two_freakin_swords.cards import kind_of, number_of, side_of
    from engines.two_freakin_swords.printed import card_of, deck_of

    card = card_of(index)
    kind, side = kind_of(card), side_of(card)
    tint = _SIDE_TINT[side]
    F.paper(canvas, page, tint)
    F.face_markers(canvas, page, marker_id("two-freakin-swords", index))
    canvas.setFillColorRGB(*tint)
    F.fit_text(canvas, page, 40, 12, kind.upper(), 16, 21, align="centre", bold=True)
    page.text(canvas, 40, 18.5, f"{side} side", 6.5, align="centre")
    F.fit_text(canvas, page, 23.5, CARD_H - 12, kind.upper(), 16, 21, angle=180, align="centre", bold=True)
    canvas.setFillColorRGB(0.3, 0.3, 0.3)
    page.text(canvas, 4, 23.2, f"#{number_of(card)} · deck {deck_of(index) + 1} · Two Freakin' Swords", 5, align="left")


def _tfs_back(canvas: Canvas, page: MatPage, index: int) -> None:
    from engines.two_freakin_swords.cards import side_of
    from engines.two_freakin_swords.printed import card_of

    side = side_of(card_of(index))
    F.marked_back(canvas, page, _BACK_ID[side], side, _SIDE_TINT[side])


def tfs_cards(decks: int) -> tuple[list[Draw], list[Draw]]:
    from engines.two_freakin_swords.cards import DECK_SIZE
    from engines.two_freakin_swords.printed import DECKS

    if not 1 <= decks <= DECKS:
        raise ValueError(f"print 1 to {DECKS} Two Freakin' Swords decks (the marker ranges hold {DECKS}), not {decks}")
    indices = range(decks * DECK_SIZE)
    return [partial(_tfs_face, index=i) for i in indices], [partial(_tfs_back, index=i) for i in indices]


# -- Keener -------------------------------------------------------------------

_TYPE_TINT: dict[str, F.RGB] = {
    "commander": (0.55, 0.35, 0.05), "generator": (0.2, 0.45, 0.2), "fighter": (0.65, 0.12, 0.12),
    "defense": (0.25, 0.3, 0.45), "equipment": (0.4, 0.3, 0.5), "single-use": (0.3, 0.3, 0.3),
}


def _cost_text(cost) -> str:
    from engines.keener.catalog import RESOURCES

    parts = [f"{n} {r.capitalize()}" for n, r in zip(cost, RESOURCES, strict=True) if n]
    return ", ".join(parts) or "free"


def _keener_face(canvas: Canvas, page: MatPage, index: int) -> None:
    from engines.keener.catalog import CARDS
    from engines.keener.printed import card_of

    card_id, copy = card_of(index)
    card = CARDS[card_id]
    tint = _TYPE_TINT.get(card.type, (0.3, 0.3, 0.3))
    F.paper(canvas, page, tint)
    F.face_markers(canvas, page, marker_id("keener", index))
    canvas.setFillColorRGB(0.05, 0.05, 0.05)
    name_lines = F.wrapped(card.name, 39, 7.5)
    if len(name_lines) > 2:
        name_lines = [card.name]
    for i, line in enumerate(name_lines[:2]):
        F.fit_text(canvas, page, 20.5, 6.5 + i * 3.3, line, 7.5, 39.5, bold=True)
    canvas.setFillColorRGB(*tint)
    kind = card.type.replace("generator", "resource generator").capitalize()
    page.text(canvas, 20.5, 14.2, kind + (" · Cloak of Darkness" if card.cloak else ""), 5.5, align="left")
    canvas.setFillColorRGB(0.1, 0.1, 0.1)
    cost = "" if card.type in ("commander", "generator") else f"Cost: {_cost_text(card.cost)}"
    F.fit_text(canvas, page, 20.5, 18, cost, 5.5, 39.5)
    figure = f"PV {card.pv}" if card.type == "fighter" else (f"LP {card.lp}" if card.type in ("commander", "defense") else "")
    if figure:
        page.text(canvas, CARD_W - 4, 23, figure, 9, align="right", bold=True)
    text = card.text or ""
    if card.cloak and card.reveal_cost is not None:
        text = text or f"Cloak of Darkness: reveal for {_cost_text(card.reveal_cost)}."
    F.text_box(canvas, page, 4, 66, 38.5, 20, text, 5.5)
    canvas.setFillColorRGB(0.4, 0.4, 0.4)
    page.text(canvas, 4, 23.2, f"Keener · {card.set} · copy {copy}", 4.5, align="left")


def keener_indices(deck: str | None, copy_set: str) -> list[int]:
    """Printed indices: every card of the database once (copy 1 of the set), or every card of a deck.

    ``deck``: a deck file (JSON ``{"cards": {...}}`` or a list) or a sample deck id.
    ``copy_set``: "A" (copies 1-2) or "B" (copies 3-4), so two players' decks differ.
    """
    from engines.keener.decks import SAMPLE_DECKS, make_deck
    from engines.keener.printed import PRINT_ORDER, index_of

    if copy_set not in ("A", "B"):
        raise ValueError(f"the copy set is A or B, not {copy_set!r}")
    base = 0 if copy_set == "A" else 2
    if deck is None:
        return [index_of(card, base + 1) for card in PRINT_ORDER]
    if deck in SAMPLE_DECKS:
        built = SAMPLE_DECKS[deck]
    else:
        path = Path(deck)
        if not path.is_file():
            raise ValueError(f"no deck file {deck!r} (and no sample deck of that name: {', '.join(SAMPLE_DECKS)})")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"cannot read the deck file {deck!r}: {exc}") from None
        built = make_deck(data, path.stem)  # DeckError (a ValueError) lists every problem
    seen: Counter[str] = Counter()
    out = []
    for card in (built.commander, *built.cards):
        seen[card] += 1
        out.append(index_of(card, base + seen[card]))
    return out


def keener_faces(deck: str | None, copy_set: str) -> list[Draw]:
    return [partial(_keener_face, index=i) for i in keener_indices(deck, copy_set)]


KEENER_BACK_ID = 6
"""The marker on every Keener back (vision.markers ``back:keener``): vision finds a face-down card on any
mat colour (a plain back of white paper is hard to tell from the mat's zone frames), and the marker says
only that a Keener card lies there, never which (Cloak of Darkness stays hidden)."""


def _keener_back(canvas: Canvas, page: MatPage) -> None:
    F.marked_back(canvas, page, KEENER_BACK_ID, "Keener", (0.2, 0.2, 0.3))


# -- the command's entry ------------------------------------------------------

def write_cards(out: str | Path, game_id: str, *, paper: str = "A4", deck: str | None = None,
                copy_set: str = "A", decks: int = 1) -> int:
    """Write the game's cards PDF; returns the page count.

    NothingToPrint for a game played with real cards; ValueError for a bad game,
    paper, deck or count (nothing is written then).
    """
    from engines import registry

    if game_id in NO_PRINTED_CARDS:
        raise NothingToPrint(NO_PRINTED_CARDS[game_id])
    if game_id not in PRINTED_GAMES:
        registry.get(game_id)  # ValueError naming the known games
        raise NothingToPrint(f"{game_id} has no printed cards")
    title = registry.get(game_id).title
    if game_id == "double-side-play":
        return write_sheets(out, paper, dsp_faces(), None, f"{title} cards")
    if game_id == "two-freakin-swords":
        faces, backs = tfs_cards(decks)
        return write_sheets(out, paper, faces, backs, f"{title} cards, {decks} deck{'s' if decks > 1 else ''}")
    what = f"deck {deck}" if deck else "every card"
    faces = keener_faces(deck, copy_set)
    return write_sheets(out, paper, faces, [_keener_back] * len(faces), f"{title} cards, {what}, copy set {copy_set}")


__all__ = ["CARD_H", "CARD_W", "NothingToPrint", "PRINTED_GAMES", "marker_id", "write_cards"]
