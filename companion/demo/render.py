"""The demo's camera: the physical table drawn by vision's scene generator, frame by frame.

One camera pose, background and deck design per table (the scene's seed is
fixed), so the frames differ only where the cards do, by fresh sensor noise,
and by a hand that passes now and then, as with a camera clamped over a table.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from engines.core import FACE_DOWN, MatLayout

STAGGER_MM = 25.0
"""How far the cards of a staggered stack are shifted: enough to leave each corner index uncovered."""


@dataclass(frozen=True)
class Placed:
    """A card on the physical table: what it is (an engine card id or FACE_DOWN), where, and its layer."""

    card: str
    zone: str
    layer: int = 0
    x: float | None = None
    """Where the card's centre lies on the mat (mm), when the script places it itself (a spread row,
    a blocker facing its attacker); None: the renderer places it in its zone."""
    y: float | None = None
    angle: float | None = None
    """Degrees anticlockwise on the mat (a card turned to face another); None: upright for its seat."""


class Renderer:
    """Draws a list of :class:`Placed` cards on the game's mat as the camera sees it.

    ``art(card)`` gives the scene generator's card spec (``kind`` plus ``rank``/``suit``
    or ``marker_id``); ``facing(seat)`` the degrees (anticlockwise) a seat faces on the
    mat, so its cards lie upright for it and its stacks stagger towards it;
    ``shown(zone_kind, n)`` how many cards of a pile are drawn (the covered ones
    are not).
    """

    def __init__(self, layout: MatLayout, art: Callable[[str], dict], facing: Callable[[int], float],
                 width: int = 960, height: int = 540, seed: int = 1, max_tilt: float = 10.0,
                 pile_shown: int = 1, effects: bool = True):
        self.layout, self.art, self.facing = layout, art, facing
        self.width, self.height, self.seed, self.max_tilt = width, height, seed, max_tilt
        self.pile_shown = pile_shown
        self.effects = effects
        """The scene generator's lamp gradient, glare, tint, blur and JPEG artefacts (noise is added always)."""
        self._cache: tuple[tuple, np.ndarray] | None = None
        self._noise = np.random.default_rng(seed)
        self._grain: np.ndarray | None = None

    def scene(self, cards: Sequence[Placed]) -> list[dict]:
        """The scene generator's layout (bottom card first) for the cards on the table."""
        by_zone: dict[str, list[Placed]] = {}
        for p in cards:
            by_zone.setdefault(p.zone, []).append(p)
        out: list[tuple[int, dict]] = []
        for zone_id, placed in by_zone.items():
            zone = self.layout.zone(zone_id)
            placed = sorted(placed, key=lambda p: p.layer)
            if zone.kind == "pile":
                placed = placed[-self.pile_shown:]
            f = self.facing(zone.seat) if zone.seat is not None else 0.0
            dx, dy = math.sin(math.radians(f)), math.cos(math.radians(f))
            angle = (-f) % 360
            n = len(placed)
            step = STAGGER_MM if zone.kind in ("stack", "spread", "pile") else 0.0
            for i, p in enumerate(placed):
                off = (i - (n - 1) / 2) * step
                spec = dict(self.art(p.card))
                spec.update(cx=zone.x + zone.w / 2 + dx * off, cy=zone.y + zone.h / 2 + dy * off, angle=angle)
                if zone.kind in ("stack", "spread") and n > 1:
                    # Stacked by hand: each card a little askew (no real stack is squared to the millimetre).
                    side, turn = _askew(p)
                    spec.update(cx=spec["cx"] + dy * side, cy=spec["cy"] - dx * side, angle=(angle + turn) % 360)
                if p.x is not None and p.y is not None:
                    spec.update(cx=p.x, cy=p.y)
                if p.angle is not None:
                    spec.update(angle=p.angle % 360)
                out.append((p.layer, spec))
        return [spec for _, spec in sorted(out, key=lambda t: t[0])]

    def frame(self, cards: Sequence[Placed], hand: bool = False) -> np.ndarray:
        """One camera frame of the table (BGR); ``hand``: a hand reaches over the mat's edge."""
        from vision.scene import render_scene

        key = tuple(sorted((p.card, p.zone, p.layer, p.x or 0.0, p.y or 0.0, p.angle or 0.0) for p in cards))
        if hand:
            rng = np.random.default_rng(len(key) + self._noise.integers(1 << 16))
            edge = int(rng.integers(0, 4))
            tip = (float(rng.uniform(0.1, 0.3) * self.width), float(rng.uniform(0.1, 0.3) * self.height))
            specs = self.scene(cards)
            img, truth = render_scene(self.width, self.height, seed=self.seed, occluders=0, max_tilt=self.max_tilt,
                                      layout=[x for x in specs if x["kind"] != "image"], background="wood",
                                      hands=[(*tip, edge)], effects=self.effects)
            return _faces_on(img, truth.homography, [x for x in specs if x["kind"] == "image"])
        if self._cache is None or self._cache[0] != key:
            specs = self.scene(cards)
            img, truth = render_scene(self.width, self.height, seed=self.seed, occluders=0, max_tilt=self.max_tilt,
                                      layout=[x for x in specs if x["kind"] != "image"], background="wood",
                                      effects=self.effects)
            img = _faces_on(img, truth.homography, [x for x in specs if x["kind"] == "image"])
            self._cache = (key, img)
        # Fresh sensor noise per frame, cheaply: a random shift of one noise field made once.
        if self._grain is None or self._grain.shape != self._cache[1].shape:
            self._grain = self._noise.integers(-3, 4, self._cache[1].shape).astype(np.int16)
        shift = int(self._noise.integers(0, self._grain.shape[1]))
        grain = np.roll(self._grain, shift, axis=1)
        return np.clip(self._cache[1].astype(np.int16) + grain, 0, 255).astype(np.uint8)


def _faces_on(img: np.ndarray, to_image: np.ndarray, specs: list[dict]) -> np.ndarray:
    """Cards whose art is an image (``{"kind": "image", "face": BGR array}``: stand-ins of a game's
    commercial cards, see :func:`taught_art`) drawn on the rendered table, after the scene generator's cards."""
    if not specs:
        return img
    from vision.feature_scene import paste_on_mat

    for x in specs:
        img = paste_on_mat(img, x["face"], to_image, x["cx"], x["cy"], x["angle"])
    return img


def taught_art(face_of: Callable[[str], np.ndarray | None]) -> Callable[[str], dict]:
    """A game played with its own commercial cards: ``face_of(card)`` is the stand-in face the camera was
    taught (``vision.feature_scene.card_face``), None for a back."""

    def art(card: str) -> dict:
        face = None if card == FACE_DOWN else face_of(card)
        return {"kind": "back"} if face is None else {"kind": "image", "face": face}

    return art


def _askew(p: Placed) -> tuple[float, float]:
    """A hand-stacked card's sideways slip (mm, within 2) and turn (degrees, within 2), the same every frame."""
    h = zlib.crc32(f"{p.card}|{p.zone}|{p.layer}".encode())
    return ((h & 0xFFFF) / 0xFFFF * 4 - 2, (h >> 16) / 0xFFFF * 4 - 2)


def standard_art(card: str) -> dict:
    """A standard card id (``QH``, ``10S``) as the scene generator draws it; FACE_DOWN as a plain back."""
    if card == FACE_DOWN:
        return {"kind": "back"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    return {"kind": "face", "rank": card[:-1], "suit": suits[card[-1]]}


def printed_art(game_id: str, index_of: Callable[[str], int]) -> Callable[[str], dict]:
    """Printed cards of ``game_id``: card ``c`` carries the marker of printed index ``index_of(c)``
    (``vision.markers.printed_marker``, docs/printing.md); ``"back:<meaning>"`` is a marked back."""
    from vision.markers import BACK_MEANINGS, printed_marker

    back_ids = {f"back:{meaning}": marker for marker, meaning in BACK_MEANINGS.items()}

    def art(card: str) -> dict:
        if card == FACE_DOWN:
            return {"kind": "back"}
        if card in back_ids:
            return {"kind": "back", "marker_id": back_ids[card]}
        return {"kind": "printed", "marker_id": printed_marker(game_id, index_of(card))}

    return art
