"""The demo's camera: the physical table drawn by vision's scene generator, frame by frame.

One camera pose, background and deck design per table (the scene's seed is
fixed), so the frames differ only where the cards do, by fresh sensor noise,
and by a hand that passes now and then, as with a camera clamped over a table.
"""

from __future__ import annotations

import math
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
                out.append((p.layer, spec))
        return [spec for _, spec in sorted(out, key=lambda t: t[0])]

    def frame(self, cards: Sequence[Placed], hand: bool = False) -> np.ndarray:
        """One camera frame of the table (BGR); ``hand``: a hand reaches over the mat's edge."""
        from vision.scene import render_scene

        key = tuple(sorted((p.card, p.zone, p.layer) for p in cards))
        if hand:
            rng = np.random.default_rng(len(key) + self._noise.integers(1 << 16))
            edge = int(rng.integers(0, 4))
            tip = (float(rng.uniform(0.1, 0.3) * self.width), float(rng.uniform(0.1, 0.3) * self.height))
            img, _ = render_scene(self.width, self.height, seed=self.seed, layout=self.scene(cards), occluders=0,
                                  max_tilt=self.max_tilt, background="wood", hands=[(*tip, edge)],
                                  effects=self.effects)
            return img
        if self._cache is None or self._cache[0] != key:
            img, _ = render_scene(self.width, self.height, seed=self.seed, layout=self.scene(cards), occluders=0,
                                  max_tilt=self.max_tilt, background="wood", effects=self.effects)
            self._cache = (key, img)
        # Fresh sensor noise per frame, cheaply: a random shift of one noise field made once.
        if self._grain is None or self._grain.shape != self._cache[1].shape:
            self._grain = self._noise.integers(-3, 4, self._cache[1].shape).astype(np.int16)
        shift = int(self._noise.integers(0, self._grain.shape[1]))
        grain = np.roll(self._grain, shift, axis=1)
        return np.clip(self._cache[1].astype(np.int16) + grain, 0, 255).astype(np.uint8)


def standard_art(card: str) -> dict:
    """A standard card id (``QH``, ``10S``) as the scene generator draws it; FACE_DOWN as a plain back."""
    if card == FACE_DOWN:
        return {"kind": "back"}
    suits = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
    return {"kind": "face", "rank": card[:-1], "suit": suits[card[-1]]}


def printed_art(game_id: str, index_of: Callable[[str], int]) -> Callable[[str], dict]:
    """Printed cards of ``game_id``: card ``c`` carries marker ``first + index_of(c)`` (docs/printing.md)."""
    from vision.markers import MARKER_RANGES

    first = next(r.first for r in MARKER_RANGES if r.name == game_id)

    def art(card: str) -> dict:
        if card == FACE_DOWN:
            return {"kind": "back"}
        return {"kind": "printed", "marker_id": first + index_of(card)}

    return art
