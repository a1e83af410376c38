"""Scene generator: a photograph-like overhead view of a table, with ground truth.

For tests, benchmarks and the demo.  Renders the mat (or a bare table: wood,
felt, light cloth, plaid), standard cards in several deck designs, backs,
printed marker cards, staggered stacks and overlaps, seen through a random
tilted camera, then lamp gradients, glare, hand-like occluders, noise, blur and
JPEG artefacts.  Every card's outline, stacking order and which corner indices
are left uncovered come back as :class:`SceneTruth`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from . import cardart
from . import geometry as g
from .glyphs import RANKS, SUITS
from .markers import marker_image
from .sheet_art import PX as SHEET_PX
from .sheet_art import sheet_art

_CARD_MM = np.float32([[0, 0], [g.CARD_W, 0], [g.CARD_W, g.CARD_H], [0, g.CARD_H]])
_FOREIGN_INDEX_BOX = (1.5, 2.0, 11.0, 24.0)  # mm: where a deck that does not say keeps its index


@dataclass
class CardTruth:
    """One card as drawn.  ``corners_px``/``corners_mm``: the card's own top-left,
    top-right, bottom-right, bottom-left.  ``index_visible``: per index corner
    (same order as ``index_corners_px``) whether its index is fully uncovered."""

    kind: str  # "face" | "back" | "printed"
    rank: str | None
    suit: str | None
    marker_id: int | None
    z: int
    corners_mm: np.ndarray
    corners_px: np.ndarray
    index_corners_px: list[np.ndarray] = field(default_factory=list)
    index_visible: list[bool] = field(default_factory=list)
    visible_fraction: float = 1.0
    marker_visible: bool = False

    @property
    def readable(self) -> bool:
        """A face whose index shows somewhere, or a back/printed card that shows
        enough to be found (half the card, or a whole marker)."""
        if self.kind == "face":
            return any(self.index_visible)
        if self.kind == "printed":
            return self.marker_visible
        return self.visible_fraction > 0.8


@dataclass
class SceneTruth:
    size: tuple[int, int]  # (width, height)
    mat: bool
    homography: np.ndarray  # table millimetres -> image pixels (the mat's frame when mat=True)
    cards: list[CardTruth]
    occluder_mask: np.ndarray  # bool, image size: pixels covered by hands/arms
    background: str


def _table_texture(rng: np.random.Generator, w: int, h: int, kind: str) -> np.ndarray:
    if kind == "wood":
        base = np.array(rng.choice([(40, 80, 140), (60, 110, 170), (30, 55, 95)]), np.float32)
        x = np.linspace(0, 1, w, dtype=np.float32)[None, :]
        y = np.linspace(0, 1, h, dtype=np.float32)[:, None]
        warp = cv2.resize(rng.normal(0, 1, (8, 12)).astype(np.float32), (w, h))
        grain = np.sin((y * rng.uniform(20, 60) + warp * 0.8 + x * 0.3) * np.pi * 2) * 0.12
        img = base[None, None, :] * (1 + grain[..., None])
    elif kind == "felt":
        base = np.array(rng.choice([(40, 110, 30), (90, 60, 20), (30, 30, 120), (50, 50, 50)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    elif kind == "light":
        base = np.array(rng.choice([(170, 190, 200), (180, 180, 175), (150, 175, 190)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    elif kind == "white":  # a white tablecloth or laminate: never drawn at random, only when asked
        base = np.array(rng.choice([(205, 212, 215), (215, 215, 212), (196, 208, 214)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    elif kind == "bright":  # a white table nearly as bright as the cards' paper: only when asked
        base = np.array(rng.choice([(230, 233, 235), (234, 234, 231), (226, 232, 236)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    elif kind == "black":  # a black cloth or dark laminate: only when asked
        base = np.array(rng.choice([(20, 20, 22), (28, 24, 22), (16, 20, 26)]), np.float32)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32).copy()
    else:  # plaid cloth
        c1 = np.array(rng.choice([(40, 40, 140), (120, 60, 30), (60, 100, 60)]), np.float32)
        c2 = c1 * 0.6
        period = int(rng.integers(20, 60))
        xs = (np.arange(w) // period) % 2
        ys = (np.arange(h) // period) % 2
        m = ((xs[None, :] + ys[:, None]) % 2).astype(np.float32)[..., None]
        img = c1 * m + c2 * (1 - m)
    noise = rng.normal(0, 6, (h // 4 + 1, w // 4 + 1, 3)).astype(np.float32)
    img += cv2.resize(noise, (w, h))
    return img


def _camera(rng: np.random.Generator, w: int, h: int, plane_w: float, plane_h: float, max_tilt: float) -> np.ndarray:
    """A homography from plane mm to pixels: the plane fills most of the view,
    with keystone from a camera tilted up to ``max_tilt`` degrees."""
    fill = rng.uniform(0.8, 0.95)
    scale = min(w * fill / plane_w, h * fill / plane_h)
    pw, ph = plane_w * scale, plane_h * scale
    tilt = np.radians(rng.uniform(0, max_tilt))
    k = 1 / (1 + np.sin(tilt) * 0.7)  # far edge shrink
    squash = np.cos(tilt) ** 0.5
    ph *= squash
    cx, cy = w / 2 + rng.uniform(-0.04, 0.04) * w, h / 2 + rng.uniform(-0.04, 0.04) * h
    # corners TL, TR, BR, BL of the plane; the far edge shrinks toward its middle
    pts = np.float32([[-pw / 2, -ph / 2], [pw / 2, -ph / 2], [pw / 2, ph / 2], [-pw / 2, ph / 2]])
    far_edge = [(0, 1), (1, 2), (2, 3), (3, 0)][int(rng.integers(0, 4))]
    mid = (pts[far_edge[0]] + pts[far_edge[1]]) / 2
    for i in far_edge:
        pts[i] = mid + (pts[i] - mid) * k
    ang = np.radians(rng.uniform(-8, 8))
    rot = np.float32([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    pts = pts @ rot.T + np.float32([cx, cy])
    src = np.float32([[0, 0], [plane_w, 0], [plane_w, plane_h], [0, plane_h]])
    return cv2.getPerspectiveTransform(src, pts.astype(np.float32))


def _project(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.float32(pts).reshape(-1, 1, 2), H).reshape(-1, 2)


def _paste(img: np.ndarray, art: np.ndarray, H_art_to_img: np.ndarray, shadow: float) -> tuple[int, int, np.ndarray] | None:
    """Warp BGRA ``art`` into ``img`` (float32 BGR) with a soft shadow; returns
    (x0, y0, coverage mask of that box) or None when off the image."""
    ih, iw = img.shape[:2]
    ah, aw = art.shape[:2]
    quad = _project(H_art_to_img, [[0, 0], [aw, 0], [aw, ah], [0, ah]])
    x0, y0 = np.floor(quad.min(0)).astype(int) - 6
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 6
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, iw), min(y1, ih)
    if x1 <= x0 or y1 <= y0:
        return None
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ H_art_to_img
    warped = cv2.warpPerspective(art, T, (x1 - x0, y1 - y0), flags=cv2.INTER_AREA if aw > (x1 - x0) else cv2.INTER_LINEAR)
    alpha = warped[..., 3:4].astype(np.float32) / 255
    roi = img[y0:y1, x0:x1]
    if shadow > 0:
        # a soft shadow cast down-right, plus the thin dark rim every real card
        # edge shows on what lies below it (paper thickness, ambient shadow)
        sh = np.roll(cv2.GaussianBlur(alpha[..., 0], (0, 0), 2.0), (2, 2), axis=(0, 1))
        rim = cv2.GaussianBlur(alpha[..., 0], (0, 0), 1.0)
        roi *= (1 - shadow * np.maximum(sh, 0.6 * rim))[..., None]
    roi[:] = roi * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
    return (x0, y0, alpha[..., 0] > 0.5)


def _mat_art(rng: np.random.Generator) -> np.ndarray:
    px = 2
    w, h = int(g.MAT_W * px), int(g.MAT_H * px)
    colour = np.array(rng.choice([(60, 90, 30), (90, 50, 20), (50, 50, 55), (40, 30, 90)]), np.uint8)
    art = np.zeros((h, w, 4), np.uint8)
    art[..., :3] = colour
    art[..., 3] = 255
    cv2.rectangle(art, (20, 20), (w - 21, h - 21), (200, 200, 200, 255), 2)
    for mid, (cx, cy) in g.mat_marker_centres().items():
        q = int((g.MAT_MARKER / 2 + 6) * px)
        cv2.rectangle(art, (int(cx * px) - q, int(cy * px) - q), (int(cx * px) + q, int(cy * px) + q), (255, 255, 255, 255), -1)
        side = int(g.MAT_MARKER * px)
        m = marker_image(mid, side)
        x, y = int(cx * px - side / 2), int(cy * px - side / 2)
        art[y : y + side, x : x + side, :3] = m[..., None]
    return art, px


def _card_transform(cx: float, cy: float, angle: float, size: tuple[float, float] = (g.CARD_W, g.CARD_H)) -> np.ndarray:
    """Affine (3x3) from card millimetres (origin at the card's top-left) to
    plane mm; ``size``: another rectangle's (a sheet of paper)."""
    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)
    R = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    T0 = np.array([[1, 0, -size[0] / 2], [0, 1, -size[1] / 2], [0, 0, 1]])
    T1 = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]])
    return T1 @ R @ T0


def _layout(rng: np.random.Generator, n: int, plane_w: float, plane_h: float, stagger: bool) -> list[tuple[np.ndarray, str]]:
    """Card placements (card mm -> plane mm) and what each is."""
    out: list[tuple[np.ndarray, str]] = []
    margin = 70
    while len(out) < n:
        cx, cy = rng.uniform(margin, plane_w - margin), rng.uniform(margin, plane_h - margin)
        angle = rng.uniform(-180, 180)
        r = rng.random()
        if stagger and r < 0.3 and n - len(out) >= 2:
            k = int(rng.integers(2, min(5, n - len(out)) + 1))
            if rng.random() < 0.6:
                step = np.array([rng.uniform(-2, 2), rng.uniform(25, 30)])
            else:
                step = np.array([rng.uniform(15, 18), rng.uniform(-2, 2)])
            a = np.radians(angle)
            d = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ step
            for i in range(k):
                out.append((_card_transform(cx + d[0] * i, cy + d[1] * i, angle + rng.uniform(-2, 2)), "face"))
            continue
        kind = "face"
        if r > 0.85:
            kind = "back"
        elif r > 0.75:
            kind = "printed"
        out.append((_card_transform(cx, cy, angle), kind))
    return out[:n]


_SKIN = ((150, 175, 225), (120, 150, 200), (90, 120, 170), (60, 85, 130), (45, 60, 95))


def _hand(rng: np.random.Generator, w: int, h: int, px_per_mm: float, tip=None, edge=None) -> list[tuple[str, np.ndarray, float]]:
    """A hand-and-arm shape as drawing primitives in image pixels."""
    edge = int(rng.integers(0, 4)) if edge is None else edge
    tip = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h]) if tip is None else np.array(tip, float)
    start = {0: (tip[0] + rng.uniform(-200, 200), -50), 1: (w + 50, tip[1] + rng.uniform(-150, 150)), 2: (tip[0] + rng.uniform(-200, 200), h + 50), 3: (-50, tip[1] + rng.uniform(-150, 150))}[edge]
    start = np.array(start)
    d = tip - start
    d /= np.linalg.norm(d) + 1e-9
    n = np.array([-d[1], d[0]])
    s = px_per_mm
    palm = tip - d * 45 * s
    parts: list[tuple[str, np.ndarray, float]] = [("line", np.array([start, palm - d * 40 * s]), 75 * s)]
    parts.append(("ellipse", np.array([palm, [50 * s, 42 * s]]), float(np.degrees(np.arctan2(d[1], d[0])))))
    for k, off in enumerate((-30, -10, 10, 28)):
        base = palm + n * off * s + d * 30 * s
        length = (60, 72, 70, 55)[k] * s * rng.uniform(0.7, 1.1)
        bend = d * np.cos(rng.uniform(-0.3, 0.3)) + n * rng.uniform(-0.25, 0.25)
        parts.append(("line", np.array([base, base + bend * length]), 17 * s))
    thumb = palm - n * 45 * s
    parts.append(("line", np.array([palm - n * 20 * s, thumb + d * 30 * s - n * 10 * s]), 20 * s))
    return parts


def _draw_occluder(img: np.ndarray, rng: np.random.Generator, px_per_mm: float, tip=None, edge=None) -> np.ndarray:
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    parts = _hand(rng, w, h, px_per_mm, tip, edge)
    sleeve = np.zeros((h, w), np.uint8)
    for i, (kind, p, v) in enumerate(parts):
        target = sleeve if i == 0 else mask
        if kind == "line":
            cv2.line(target, tuple(int(c) for c in p[0]), tuple(int(c) for c in p[1]), 255, max(2, int(v)), cv2.LINE_AA)
        else:
            cv2.ellipse(target, (int(p[0][0]), int(p[0][1])), (int(p[1][0]), int(p[1][1])), v, 0, 360, 255, -1, cv2.LINE_AA)
    skin = np.array(_SKIN[int(rng.integers(0, len(_SKIN)))], np.float32) * rng.uniform(0.85, 1.1)
    cloth = np.array(rng.choice([(120, 60, 20), (40, 40, 40), (30, 30, 150), (80, 120, 60), (150, 150, 150)]), np.float32)
    shade = cv2.GaussianBlur(rng.normal(1, 0.12, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (0, 0), 2)
    shade = cv2.resize(shade, (w, h))[..., None]
    for m, colour in ((sleeve, cloth), (mask, skin)):
        a = cv2.GaussianBlur(m, (0, 0), 1.2).astype(np.float32)[..., None] / 255
        small = cv2.resize(m, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        sh = cv2.resize(cv2.GaussianBlur(small, (0, 0), 2), (w, h)).astype(np.float32)[..., None] / 255
        sh = np.roll(sh, (12, 12), axis=(0, 1))
        img *= 1 - 0.35 * sh
        img[:] = img * (1 - a) + (colour * shade * a).astype(np.float32)
    return (mask | sleeve) > 127


def render_scene(
    width: int = 1280,
    height: int = 720,
    n_cards: int = 8,
    seed: int = 0,
    *,
    mat: bool = True,
    occluders: int | None = None,
    stagger: bool = True,
    kinds: tuple[str, ...] | None = None,
    max_tilt: float = 35.0,
    effects: bool = True,
    styles: tuple | None = None,
    background: str | None = None,
    layout: list[dict] | None = None,
    hands: list[tuple[float, float, int]] | None = None,
    faces: Callable[[str, str], np.ndarray] | None = None,
    lamp: tuple[float, float, float] | None = None,
    sheet: str | None = None,
) -> tuple[np.ndarray, SceneTruth]:
    """Render one scene.  Returns (BGR uint8 image, ground truth).

    ``kinds`` forces the kind of each card ("face", "back", "printed");
    ``styles`` restricts deck designs (see ``cardart.deck_styles``);
    ``occluders``: number of hands (default: 0-2 at random).
    ``layout``: exact cards instead of random ones, bottom first, each a dict
    with ``cx``, ``cy`` (mm on the mat/table), ``angle`` (degrees) and ``kind``,
    plus ``rank``/``suit`` or ``marker_id`` as wanted.
    ``hands``: exact hands, each (tip x px, tip y px, edge 0-3 the arm comes from).
    ``faces``: draw faces with ``faces(rank, suit)`` (BGRA, ``cardart.PX`` px/mm,
    ``cardart.W`` x ``cardart.H``) instead of a generated deck style, e.g. a
    third-party deck (:class:`vision.decks.Deck`); its optional ``index_box``
    (x0, y0, x1, y1 mm of the top-left index) and ``four_index`` say which
    corners must be uncovered for the card to count as readable.  The random
    stream is the same either way, so one seed gives the same layout.
    ``background``: the table, drawn at random among wood, felt, light and
    plaid unless given; "white" (a white cloth, 196-215), "bright" (a
    white table nearly as bright as the cards, 226-236) and "black" (a black
    cloth, 16-28) only when asked.
    ``lamp``: the light's colour as gains on (blue, green, red), applied
    before the camera's noise and JPEG, e.g. (0.6, 0.82, 1.0) for a warm
    lamp a camera has not corrected; the random stream is the same."""
    rng = np.random.default_rng(seed)
    styles = styles or cardart.deck_styles()
    style = styles[int(rng.integers(0, len(styles)))]
    background = background or str(rng.choice(["wood", "felt", "light", "plaid"]))
    img = _table_texture(rng, width, height, background)
    plane_w, plane_h = g.MAT_W, g.MAT_H
    H = _camera(rng, width, height, plane_w, plane_h, max_tilt)
    px_per_mm = float(np.sqrt(abs(np.linalg.det(H[:2, :2] / H[2, 2]))))
    if mat:
        art, apx = _mat_art(rng)
        _paste(img, art, H @ np.diag([1 / apx, 1 / apx, 1]), shadow=0.3)
    placements = _layout(rng, n_cards, plane_w, plane_h, stagger) if layout is None else [(_card_transform(d["cx"], d["cy"], d.get("angle", 0.0)), d.get("kind", "face")) for d in layout]
    if kinds:
        placements = [(T, kinds[i % len(kinds)]) for i, (T, _) in enumerate(placements)]
    if sheet is not None:
        _lay_sheet(img, sheet, np.random.default_rng([seed, 5]), H, [T for T, _ in placements], plane_w, plane_h, mat)
    zmap = np.full((height, width), -1, np.int16)
    cards: list[CardTruth] = []
    deck = [(r, s) for r in RANKS for s in SUITS]
    rng.shuffle(deck)
    next_marker = int(rng.integers(100, 790))
    back_design = int(rng.integers(0, 4))
    index_regions: list[list[np.ndarray]] = []
    for z, (T, kind) in enumerate(placements):
        rank = suit = None
        marker_id = None
        spec = layout[z] if layout is not None else {}
        if kind == "face":
            rank, suit = (spec["rank"], spec["suit"]) if "rank" in spec else deck.pop()
            art = cardart.card_face(rank, suit, style) if faces is None else faces(rank, suit)
        elif kind == "printed":
            marker_id = spec.get("marker_id", next_marker)
            next_marker += 1
            art = cardart.printed_card(marker_id)
        else:
            if "marker_id" in spec or (layout is None and rng.random() < 0.3):
                marker_id = int(spec.get("marker_id") or rng.choice([4, 5]))
                art = cardart.marked_back(marker_id, back_design)
            else:
                art = cardart.card_back(back_design)
        A = H @ T @ np.diag([1 / cardart.PX, 1 / cardart.PX, 1])
        cover = _paste(img, art, A, shadow=float(rng.uniform(0.15, 0.45)))
        if cover is not None:
            x0, y0, m = cover
            zmap[y0 : y0 + m.shape[0], x0 : x0 + m.shape[1]][m] = z
        corners_mm = _project(T, _CARD_MM)
        corners_px = _project(H, corners_mm)
        idx_corners, regions = [], []
        if kind == "face":
            four = style.four_index if faces is None else bool(getattr(faces, "four_index", False))
            which = [0, 2] + ([1, 3] if four else [])
            for c in which:
                idx_corners.append(corners_px[c])
                if faces is None:
                    x0, x1 = style.index_x - 3.2, style.index_x + 3.2
                    y0, y1 = style.index_y, style.index_y + style.rank_h + style.gap + style.suit_h
                else:
                    x0, y0, x1, y1 = getattr(faces, "index_box", _FOREIGN_INDEX_BOX)
                box = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
                if c in (1, 2):
                    box[:, 0] = g.CARD_W - box[:, 0]
                if c in (2, 3):
                    box[:, 1] = g.CARD_H - box[:, 1]
                regions.append(_project(H @ T, box))
        elif kind == "printed":
            for cx_, cy_, sd in ((g.CARD_W / 2, g.CARD_H / 2, g.PRINTED_CENTRE_MARKER), (g.PRINTED_CORNER_OFFSET, g.PRINTED_CORNER_OFFSET, g.PRINTED_CORNER_MARKER), (g.CARD_W - g.PRINTED_CORNER_OFFSET, g.CARD_H - g.PRINTED_CORNER_OFFSET, g.PRINTED_CORNER_MARKER)):
                h2 = sd / 2 + 1
                regions.append(_project(H @ T, np.float32([[cx_ - h2, cy_ - h2], [cx_ + h2, cy_ - h2], [cx_ + h2, cy_ + h2], [cx_ - h2, cy_ + h2]])))
        index_regions.append(regions)
        cards.append(CardTruth(kind, rank, suit, marker_id, z, corners_mm, corners_px, idx_corners))
    n_occ = int(rng.integers(0, 3)) if occluders is None else occluders
    occ = np.zeros((height, width), bool)
    if hands is not None:
        for x, y, edge in hands:
            occ |= _draw_occluder(img, rng, px_per_mm, (x, y), edge)
    else:
        for _ in range(n_occ):
            occ |= _draw_occluder(img, rng, px_per_mm)
    zmap[occ] = -2
    for card, regions in zip(cards, index_regions, strict=True):
        card.visible_fraction = _visible(zmap, card.corners_px, card.z)[0]
        vis = []
        for reg in regions:
            frac, inframe = _visible(zmap, reg, card.z)
            vis.append(bool(inframe and frac > 0.98))
        if card.kind == "face":
            card.index_visible = vis
        elif card.kind == "printed":
            card.marker_visible = any(vis)
    if effects:
        img = _effects(rng, img, lamp)
    elif lamp is not None:
        img = img * np.float32(lamp)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if effects:
        q = int(rng.integers(55, 95))
        img = cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])[1], cv2.IMREAD_COLOR)
    return img, SceneTruth((width, height), mat, H, cards, occ, background)


def _lay_sheet(
    img: np.ndarray, kind: str, rng: np.random.Generator, H: np.ndarray, cards: list[np.ndarray], plane_w: float, plane_h: float, mat: bool
) -> None:
    """Paste the sheet ``kind`` on the table (``img``, float32) where, of 24
    random places on the plane (its middle on the plane, turned up to 25
    degrees), it lies under the least of the ``cards`` (placements, card mm
    -> plane mm) and, on the ``mat``, covers none of its markers if it can:
    beside the cards, as a player lays the rules down."""
    art = sheet_art(kind, rng)
    size = (art.shape[1] / SHEET_PX, art.shape[0] / SHEET_PX)
    scale = 0.5  # px per mm of the overlap test
    taken = np.zeros((int(plane_h * scale) + 1, int(plane_w * scale) + 1), np.uint8)
    for T in cards:
        cv2.fillConvexPoly(taken, np.round(_project(T, _CARD_MM) * scale).astype(np.int32), 1)
    for quad in g.mat_marker_corners().values() if mat else ():
        cv2.fillConvexPoly(taken, np.round(np.float32(quad) * scale).astype(np.int32), 1)
    corners = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    best = None
    for _ in range(24):
        T = _card_transform(float(rng.uniform(0, plane_w)), float(rng.uniform(0, plane_h)), float(rng.uniform(-25, 25)), size)
        m = np.zeros_like(taken)
        cv2.fillConvexPoly(m, np.round(_project(T, corners) * scale).astype(np.int32), 1)
        under = int((m & taken).sum())
        if best is None or under < best[0]:
            best = (under, T)
    _paste(img, art, H @ best[1] @ np.diag([1 / SHEET_PX, 1 / SHEET_PX, 1]), shadow=0.15)


def _visible(zmap: np.ndarray, poly: np.ndarray, z: int) -> tuple[float, bool]:
    """Share of polygon ``poly`` (image px) where card ``z`` is on top, and
    whether the polygon lies wholly inside the image."""
    h, w = zmap.shape
    pts = np.round(poly).astype(np.int32)
    x0, y0 = pts.min(0)
    x1, y1 = pts.max(0) + 1
    inframe = x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0, False
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, pts - [x0, y0], 1)
    total = int(m.sum())
    sub = m[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0] > 0
    own = int((zmap[cy0:cy1, cx0:cx1][sub] == z).sum())
    return (own / total if total else 0.0), inframe


def _effects(rng: np.random.Generator, img: np.ndarray, lamp: tuple[float, float, float] | None = None) -> np.ndarray:
    h, w = img.shape[:2]
    gx, gy = rng.uniform(-0.3, 0.3, 2)
    x = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    y = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    cx, cy = rng.uniform(-0.3, 0.3, 2)
    vignette = 1 - rng.uniform(0, 0.5) * ((x - cx) ** 2 + (y - cy) ** 2)
    gain = (rng.uniform(0.75, 1.1) + gx * x + gy * y) * vignette
    img = img * gain[..., None].astype(np.float32)
    if rng.random() < 0.5:
        gxp, gyp = rng.uniform(0, w) / 8, rng.uniform(0, h) / 8
        r = rng.uniform(0.05, 0.15) * w / 8
        yy, xx = np.ogrid[: h // 8 + 1, : w // 8 + 1]
        blob = np.exp(-((xx - gxp) ** 2 + (yy - gyp) ** 2) / (2 * r * r)).astype(np.float32)
        img = img + rng.uniform(30, 90) * cv2.resize(blob, (w, h))[..., None]
    tint = rng.uniform(0.92, 1.08, 3).astype(np.float32)
    if lamp is not None:
        tint = tint * np.float32(lamp)
    img = (img * tint).astype(np.float32)
    img += rng.standard_normal(img.shape, dtype=np.float32) * np.float32(rng.uniform(1.5, 5))
    sigma = rng.uniform(0, 1.0)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    return img
