"""Third-party playing-card art, for judging the reader on decks it was not built around.

Every accuracy figure from the scene generator comes from :mod:`vision.cardart`'s
own deck designs.  Debian ships other people's decks as SVG: ``gnome-cards-data``
(aisleriot themes, ``/usr/share/aisleriot/cards/*.svgz``, card ids like
``club_1``, ``heart_queen``) and ``kdegames-card-data-kf5`` (``/usr/share/carddecks/
svg-*/*.svgz``, ids like ``1_club``, ``queen_heart``).  This module finds the
installed ones, rasterizes each card face with ``rsvg-convert`` (``librsvg2-bin``)
to the generator's art format (BGRA, ``cardart.PX`` px/mm, 63 x 88 mm: a deck of a
narrower aspect is stretched to poker size, as the scenes only know one card
outline), and caches the PNGs in the user cache directory (``platformdirs``).

A :class:`Deck` is a callable ``deck(rank, suit) -> BGRA`` that
:func:`vision.scene.render_scene` takes as ``faces=``; it also says where its
corner index sits (``index_box``, measured from its own pip cards) and whether
it has four indices, so the scene's ground truth knows when an index is covered.

Decks that are not French-suited 52-card designs are listed in :data:`SKIPPED`
with the reason; decks whose indices are not J/Q/K/A (German ``B``/``D``, Russian
``В``/``Д``/``Т``, Italian ``F``/``R``) are kept but marked ``english=False``: they
are fair game for ``teach`` but no out-of-the-box reader can know their letters.
"""

from __future__ import annotations

import functools
import gzip
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import platformdirs

from . import cardart
from . import geometry as g
from .glyphs import NUMBER_RANKS, RANKS, SUITS

APP = "table-companion"
AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
APT_PACKAGES = ("gnome-cards-data", "kdegames-card-data-kf5", "librsvg2-bin")

# Not French-suited 52-card designs (or not renderable by id), by deck name, with why.
SKIPPED: dict[str, str] = {
    "aisleriot/swiss-xvii": "Swiss suits (acorns, bells, shields, roses), not French",
    "kde/xskat-german": "German suits (acorns, leaves, hearts, bells)",
    "kde/future": "a novelty design: rank-only tabs, no suit in the corner index",
    "kde/konqi-modern": "cards are embedded bitmaps without SVG dimensions; rsvg-convert cannot export them by id",
    "kde/xskat-french": "cards are embedded 72x112 px bitmaps without SVG dimensions; rsvg-convert cannot export them by id",
}

# French-suited decks whose court/ace indices are not the English J, Q, K, A.
LOCALIZED: dict[str, str] = {
    "aisleriot/berlin": "German indices B D K",
    "aisleriot/lattmann": "German indices B D K",
    "aisleriot/rheinland": "German indices B D K",
    "aisleriot/tarocco": "Italian/French indices F D R",
    "aisleriot/slavic_costumes": "Cyrillic indices",
    "aisleriot/atlasnye_skat": "German indices B D K, four-colour suits",
    "aisleriot/Атласные": "Cyrillic indices",
    "aisleriot/ancient_french": "French indices V D R, ace as 1",
}

# Kept, but worth knowing when reading their figures.
NOTES: dict[str, str] = {
    "kde/oxygen": "rank in the top-right corner, suit in the top-left: no rank-over-suit index",
    "kde/oxygen-air": "rank in the top-right corner, suit in the top-left: no rank-over-suit index",
    "kde/oxygen-white": "rank in the top-right corner, suit in the top-left: no rank-over-suit index",
    "aisleriot/tango": "rank top-left, suit top-right: no rank-over-suit index",
    "aisleriot/tango_nuevo": "large rank top-left, suit beside it: no rank-over-suit index",
    "aisleriot/anglo_modern_4_color": "four-colour suits (green clubs, blue spades, yellow diamonds)",
    "aisleriot/neoclassical_4_color": "four-colour suits (green clubs, blue spades, yellow diamonds)",
    "kde/dondorf": "four indices",
    "aisleriot/dondorf": "four indices",
}

_KDE_RANK = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}
_SUIT_ID = {"spades": "spade", "hearts": "heart", "diamonds": "diamond", "clubs": "club"}
_GENERIC_INDEX_BOX = (1.5, 2.0, 11.0, 24.0)  # mm: x0, y0, x1, y1 of a top-left index


def cache_dir() -> Path:
    """``<user cache>/table-companion/decks``: rendered faces, safe to delete."""
    return Path(platformdirs.user_cache_dir(APP)) / "decks"


def renderer() -> str | None:
    return shutil.which("rsvg-convert")


@dataclass(frozen=True)
class DeckSource:
    """One installed SVG deck: ``name`` like ``aisleriot/anglo`` or ``kde/oxygen``."""

    name: str
    path: Path
    fmt: str  # "aisleriot" | "kde"

    def element_id(self, rank: str, suit: str) -> str:
        r = _KDE_RANK.get(rank, rank)
        if self.fmt == "kde":
            return f"{r}_{_SUIT_ID[suit]}"
        return f"{_SUIT_ID[suit]}_{r}"

    @property
    def english(self) -> bool:
        return self.name not in LOCALIZED

    @property
    def slug(self) -> str:
        """A file-system and ``teach``-safe name (``aisleriot-anglo``)."""
        s = re.sub(r"[^A-Za-z0-9_.-]", "_", self.name.replace("/", "-"))
        return s if s.strip("_-") else "deck"


@functools.cache
def _has_52(path: Path, fmt: str, mtime: float) -> bool:
    try:
        text = gzip.open(path).read().decode("utf-8", "replace") if path.suffix == ".svgz" else path.read_text("utf-8", "replace")
    except OSError:
        return False
    ids = set(re.findall(r'\bid="([^"]+)"', text))
    src = DeckSource("x", path, fmt)
    return all(src.element_id(r, s) in ids for r in RANKS for s in SUITS)


def all_sources(aisleriot_dir: Path = AISLERIOT_DIR, kde_dir: Path = KDE_DIR) -> list[DeckSource]:
    """Every installed SVG deck that names all 52 cards, skipped ones included."""
    out = []
    if aisleriot_dir.is_dir():
        for p in sorted(aisleriot_dir.glob("*.svg*")):
            out.append(DeckSource(f"aisleriot/{p.name.split('.')[0]}", p, "aisleriot"))
    if kde_dir.is_dir():
        for d in sorted(kde_dir.glob("svg-*")):
            svgs = sorted(d.glob("*.svg*"))
            if svgs:
                out.append(DeckSource(f"kde/{d.name[4:]}", svgs[0], "kde"))
    return [s for s in out if _has_52(s.path, s.fmt, s.path.stat().st_mtime)]


def sources(english_only: bool = False) -> list[DeckSource]:
    """The installed decks fit for the benchmark: French-suited, 52 cards, and a
    renderer to draw them (empty without ``rsvg-convert``)."""
    if renderer() is None:
        return []
    out = [s for s in all_sources() if s.name not in SKIPPED]
    return [s for s in out if s.english] if english_only else out


def _run(args: list[str]) -> None:
    p = subprocess.run(args, capture_output=True, timeout=120)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(args[:4])}...: {p.stderr.decode(errors='replace').strip()[:200]}")


def _largest_opaque(alpha: np.ndarray) -> tuple[int, int, int, int] | None:
    """Bounding box (x, y, w, h) of the largest opaque region: the card itself.
    ``rsvg-convert -i`` exports an element's box, which in many themes also holds
    invisible or clipped parts far from the card."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((alpha > 8).astype(np.uint8), connectivity=8)
    if n < 2:
        return None
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h, area = (int(v) for v in stats[i])
    if area < 0.8 * w * h or w < 8 or h < 8:
        return None
    return x, y, w, h


def _read_bgra(path: str) -> np.ndarray | None:
    """A PNG as BGRA; a wholly opaque render comes back as RGB, so add the alpha."""
    a = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if a is None or a.ndim != 3:
        return None
    return cv2.cvtColor(a, cv2.COLOR_BGR2BGRA) if a.shape[2] == 3 else a


def rasterize(source: DeckSource, rank: str, suit: str) -> np.ndarray:
    """Render one face as BGRA at ``cardart.PX`` px/mm, ``cardart.W`` x ``cardart.H``."""
    eid = source.element_id(rank, suit)
    exe = renderer()
    if exe is None:
        raise RuntimeError("rsvg-convert is missing: apt-get install librsvg2-bin")
    with tempfile.TemporaryDirectory() as tmp:
        out = str(Path(tmp) / "c.png")
        # pass 1: the element's own box at natural size, to find the card in it
        zoom = 1.0
        for _ in range(3):
            _run([exe, "-i", eid, "-z", f"{zoom:g}", str(source.path), "-o", out])
            a = _read_bgra(out)
            if a is None:
                raise RuntimeError(f"{source.name} {eid}: rsvg-convert wrote no image")
            box = _largest_opaque(a[..., 3])
            if box is None:
                raise RuntimeError(f"{source.name} {eid}: no card-shaped opaque region")
            if box[2] >= 60 or max(a.shape[:2]) > 6000:
                break
            zoom *= min(8.0, 120.0 / box[2], 6000.0 / max(a.shape[:2]))
        x, y, w, h = box
        # pass 2: just the card (plus a margin), at about twice the final size
        z2 = zoom * 2.0 * cardart.W / w
        m = 3  # margin, pass-1 px
        pw, ph = int((w + 2 * m) * z2 / zoom) + 1, int((h + 2 * m) * z2 / zoom) + 1
        left, top = -(x - m) * z2 / zoom, -(y - m) * z2 / zoom
        _run([exe, "-i", eid, "-z", f"{z2:g}", "--page-width", str(pw), "--page-height", str(ph), f"--left={left:g}", f"--top={top:g}", str(source.path), "-o", out])
        b = _read_bgra(out)
    box = _largest_opaque(b[..., 3]) if b is not None else None
    if box is None:
        raise RuntimeError(f"{source.name} {eid}: lost the card in the close render")
    x, y, w, h = box
    card = b[y : y + h, x : x + w]
    return cv2.resize(card, (cardart.W, cardart.H), interpolation=cv2.INTER_AREA)


def _ink(art: np.ndarray) -> np.ndarray:
    """Printed ink on the face: darker than the local paper, or strongly coloured."""
    bgr = art[..., :3]
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.int16)
    paper = cv2.dilate(gray.astype(np.uint8), np.ones((31, 31), np.uint8)).astype(np.int16)
    sat = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[..., 1]
    return ((gray < paper - 70) | ((sat > 110) & (gray < paper - 30))) & (art[..., 3] > 200)


def _corner_index_box(art: np.ndarray, right: bool = False) -> tuple[float, float, float, float] | None:
    """The corner index's box (mm, card's own top-left frame) of one pip card:
    the ink blobs near the top-left (or top-right) corner that lie wholly
    inside the corner region."""
    px = cardart.PX
    rw, rh = int(16 * px), int(30 * px)
    ink = _ink(art)
    region = ink[:rh, -rw:][:, ::-1] if right else ink[:rh, :rw]
    n, _, st, _ = cv2.connectedComponentsWithStats(region.astype(np.uint8), connectivity=8)
    boxes = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in st[i])
        if area < 6 or x <= 0 or y <= 0 or x + w >= rw or y + h >= rh:
            continue
        if h < 1.5 * px or x < px // 2 or y < px // 2:  # the card's own edge, shading or a frame, not ink of an index
            continue
        if x > 11 * px or y > 24 * px or w > 12 * px or h > 14 * px:
            continue
        boxes.append((x, y, x + w, y + h))
    if not boxes:
        return None
    # the index: the topmost blob and what stacks under it within a narrow column
    boxes.sort(key=lambda b: b[1])
    x0, y0, x1, y1 = boxes[0]
    for b in boxes[1:]:
        cx = (b[0] + b[2]) / 2
        if b[1] - y1 < 4 * px and x0 - 2 * px <= cx <= x1 + 2 * px:
            x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
    return x0 / px, y0 / px, x1 / px, y1 / px


class Deck:
    """One third-party deck's faces, rendered on demand and cached on disk.

    ``deck(rank, suit)`` -> BGRA face.  ``index_box``: the top-left corner
    index (x0, y0, x1, y1, mm, a margin included), the median over the deck's
    pip cards; ``four_index``: whether the index is printed in all four corners."""

    def __init__(self, source: DeckSource, root: Path | None = None) -> None:
        self.source = source
        self.name = source.name
        self.english = source.english
        self.dir = (root or cache_dir()) / source.slug
        self._mem: dict[tuple[str, str], np.ndarray] = {}

    def __repr__(self) -> str:
        return f"Deck({self.name!r})"

    def __call__(self, rank: str, suit: str) -> np.ndarray:
        key = (rank, suit)
        if key not in self._mem:
            path = self.dir / f"{rank}{suit[0].upper()}.png"
            art = cv2.imread(str(path), cv2.IMREAD_UNCHANGED) if path.exists() else None
            if art is None or art.shape != (cardart.H, cardart.W, 4):
                art = rasterize(self.source, rank, suit)
                self.dir.mkdir(parents=True, exist_ok=True)
                # a name of this process's own: two benchmarks rendering one deck at once each
                # replaced the other's half-written file (FileNotFoundError on the second replace)
                tmp = path.with_suffix(f".{os.getpid()}.tmp.png")
                cv2.imwrite(str(tmp), art)
                tmp.replace(path)
            self._mem[key] = art
        return self._mem[key]

    def render_all(self) -> None:
        for s in SUITS:
            for r in RANKS:
                self(r, s)

    @functools.cached_property
    def _layout(self) -> tuple[tuple[float, float, float, float], bool]:
        left, right = [], []
        for s in SUITS:
            for r in NUMBER_RANKS:
                art = self(r, s)
                b = _corner_index_box(art)
                if b is not None:
                    left.append(b)
                br = _corner_index_box(art, right=True)
                if br is not None:
                    right.append(br)
        box = np.median(np.array(left), axis=0) if len(left) >= 8 else None
        if box is None or box[3] - box[1] < 5 or box[2] - box[0] < 2.5:
            return _GENERIC_INDEX_BOX, False
        four = False
        if len(right) >= 0.75 * len(left):
            rb = np.median(np.array(right), axis=0)
            four = bool(abs((rb[3] - rb[1]) - (box[3] - box[1])) < 0.3 * (box[3] - box[1]))
        mx = 0.6
        x0, y0, x1, y1 = (float(v) for v in box)
        return (max(0.0, x0 - mx), max(0.0, y0 - mx), min(g.CARD_W / 2, x1 + mx), min(g.CARD_H / 2, y1 + mx)), four

    @property
    def index_box(self) -> tuple[float, float, float, float]:
        return self._layout[0]

    @property
    def four_index(self) -> bool:
        return self._layout[1]


def decks(english_only: bool = False, root: Path | None = None) -> list[Deck]:
    """Every installed deck fit for the benchmark, as :class:`Deck` (renders lazily)."""
    return [Deck(s, root) for s in sources(english_only)]


def chosen(keys: list[str]) -> list[Deck | None]:
    """The decks a benchmark's ``--deck`` options name (any whose name
    contains one of ``keys``), or ``[None]`` (the scene generator's own
    decks) when there are none."""
    return [d for d in decks() if any(k in d.name for k in keys)] if keys else [None]


def single_card_photo(art: np.ndarray, seed: int = 0, px_per_mm: float = 5.0, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A phone-photo-like image of one face-up card (BGRA ``art``) on a plain
    table, as a person would take for ``companion vision teach``: slightly
    turned and tilted, uneven light, noise, a little blur, JPEG."""
    rng = np.random.default_rng(seed)
    w, h = size
    table = np.array(rng.choice([(40, 80, 140), (40, 110, 30), (170, 185, 195), (60, 60, 65)]), np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = table
    cw, ch = g.CARD_W * px_per_mm, g.CARD_H * px_per_mm
    centre = np.array([w / 2, h / 2]) + rng.uniform(-40, 40, 2)
    a = np.radians(rng.uniform(-12, 12))
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    quad = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]]) @ rot.T + centre
    quad += rng.uniform(-0.03, 0.03, (4, 2)) * cw  # a hand-held camera is never quite square on
    src = np.float32([[0, 0], [cardart.W, 0], [cardart.W, cardart.H], [0, cardart.H]])
    M = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(art, M, (w, h), flags=cv2.INTER_AREA)
    alpha = warped[..., 3:4].astype(np.float32) / 255
    img = img * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
    x = np.linspace(-0.5, 0.5, w, dtype=np.float32)[None, :]
    y = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    img *= (rng.uniform(0.8, 1.05) + gx * x + gy * y)[..., None]
    img += rng.standard_normal(img.shape).astype(np.float32) * float(rng.uniform(1.5, 4))
    img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.0)))
    img = np.clip(img, 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])[1], cv2.IMREAD_COLOR)


def suit_layout_photo(faces, suit: str, seed: int = 0, size: tuple[int, int] = (4000, 3000), ranks: tuple[str, ...] = RANKS):
    """A photo of one suit's 13 cards laid out for ``companion vision teach``
    (a file named after the suit): two rows, A to 7 over 8 to K, a finger's
    width (about 10 mm) apart, each a little off its place and turned, on a
    random table with a camera tilted as the scene generator's is.  ``faces``:
    a deck (``faces(rank, suit)``), or None for a generated deck style;
    ``ranks``: the cards in their places (a layout out of order, or short).
    Returns (BGR image, vision.scene's truth)."""
    from .scene import render_scene

    rng = np.random.default_rng(seed)
    layout = []
    for i, rank in enumerate(ranks):
        row, col = divmod(i, 7)
        layout.append(
            {
                "cx": g.MAT_W / 2 + (col - 3) * (g.CARD_W + 11) + (g.CARD_W + 11) / 2 * row + float(rng.uniform(-2, 2)),
                "cy": g.MAT_H / 2 + (row - 0.5) * (g.CARD_H + 14) + float(rng.uniform(-2, 2)),
                "angle": float(rng.uniform(-4, 4)),
                "kind": "face",
                "rank": rank,
                "suit": suit,
            }
        )
    return render_scene(size[0], size[1], len(layout), seed=seed, mat=False, faces=faces, layout=layout, occluders=0)
