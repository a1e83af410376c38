"""Synthetic "commercial-looking" card faces and the views a camera gets of them.

Players of ガンナガン bring their own printed cards, which we may not copy; to
test and measure teach mode we draw stand-ins that share what matters to a
feature matcher: full-bleed artwork (gradients, shapes, textures), a title in
Japanese and English, a type banner and small body text.  Each card is drawn
from its seed alone, so a test or bench can name "card 7" and always get the
same face.

Views: :func:`registration_photo` (one phone photo of a card on a surface, as
a player takes to teach it), :func:`card_view` (one card under a random
perspective, lamp, blur, noise and JPEG) and :func:`table_scene` (several cards
on a table, with their true outlines).
"""

from __future__ import annotations

import functools
import glob
import subprocess
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

CARD_PX = (630, 880)  # width, height of a drawn face (63 x 88 mm at 10 px/mm)

TYPES = ("行動", "機能", "銃弾", "対応")
_TYPE_EN = {"行動": "ACTION", "機能": "FUNCTION", "銃弾": "BULLET", "対応": "RESPONSE"}
_SYLLABLES = "ガンナバレットショットリロードクイックドロウファイアストームミラージュシールドカウンターブラスト"
_KANJI = "銃弾撃閃影狼鋼雷炎氷風嵐刃盾星月夜命運速連射反撃装填狙撃"
_EN = ("Quick", "Draw", "Iron", "Storm", "Ghost", "Silver", "Bullet", "Mirage", "Shield", "Counter", "Blast", "Wolf", "Night", "Rapid", "Fire")


@functools.cache
def japanese_font() -> str | None:
    """A font file with Japanese glyphs (``fc-list :lang=ja``), or None.
    Without one the faces still render, with Latin text only."""
    try:
        out = subprocess.run(["fc-list", ":lang=ja", "file"], capture_output=True, text=True, timeout=10).stdout
        files = sorted(line.split(":")[0].strip() for line in out.splitlines() if line.strip())
    except (OSError, subprocess.SubprocessError):
        files = sorted(glob.glob("/usr/share/fonts/**/*CJK*", recursive=True))
    bold = [f for f in files if "Bold" in f and "Sans" in f]
    return (bold or files or [None])[0]


@functools.cache
def latin_font() -> str | None:
    files = sorted(glob.glob("/usr/share/fonts/**/DejaVuSans-Bold.ttf", recursive=True))
    return files[0] if files else japanese_font()


@functools.cache
def _font(path: str | None, size: int) -> ImageFont.ImageFont:
    if path is None:
        return ImageFont.load_default()
    return ImageFont.truetype(path, size)


@dataclass(frozen=True)
class CardSpec:
    """What a drawn card says: for the registry the name and type are what a
    player would enter when teaching it."""

    seed: int
    name: str
    name_en: str
    type: str


def card_spec(seed: int) -> CardSpec:
    rng = np.random.default_rng(10_000 + seed)
    n = int(rng.integers(3, 7))
    kana = "".join(_SYLLABLES[int(i)] for i in rng.integers(0, len(_SYLLABLES), n))
    kanji = "".join(_KANJI[int(i)] for i in rng.integers(0, len(_KANJI), 2))
    en = " ".join(_EN[int(i)] for i in rng.choice(len(_EN), 2, replace=False))
    return CardSpec(seed, f"{kanji}{kana}#{seed}", f"{en} {seed}", TYPES[int(rng.integers(0, len(TYPES)))])


def _gradient(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    c1, c2 = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
    ang = rng.uniform(0, np.pi)
    x, y = np.meshgrid(np.linspace(-1, 1, w, dtype=np.float32), np.linspace(-1, 1, h, dtype=np.float32))
    t = np.clip((x * np.cos(ang) + y * np.sin(ang)) * 0.5 + 0.5, 0, 1)[..., None]
    return c1 * (1 - t) + c2 * t


def _texture(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Low-frequency noise, stripes or halftone dots: the kind of print texture
    that gives a matcher many repeatable corners."""
    kind = int(rng.integers(0, 3))
    if kind == 0:
        n = rng.normal(0, 1, (h // 16, w // 16)).astype(np.float32)
        return cv2.resize(n, (w, h), interpolation=cv2.INTER_CUBIC) * 22
    if kind == 1:
        x, y = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        a = rng.uniform(0, np.pi)
        return np.sin((x * np.cos(a) + y * np.sin(a)) / rng.uniform(4, 14)) * 18
    out = np.zeros((h, w), np.float32)
    step = int(rng.integers(10, 22))
    for yy in range(step // 2, h, step):
        for xx in range(step // 2, w, step):
            cv2.circle(out, (xx, yy), int(rng.integers(1, step // 2)), 25, -1)
    return out


def _shapes(rng: np.random.Generator, img: np.ndarray, box: tuple[int, int, int, int], n: int) -> None:
    x0, y0, x1, y1 = box
    for _ in range(n):
        colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
        kind = int(rng.integers(0, 5))
        cx, cy = int(rng.integers(x0, x1)), int(rng.integers(y0, y1))
        r = int(rng.integers(12, (x1 - x0) // 3))
        if kind == 0:
            cv2.circle(img, (cx, cy), r, colour, int(rng.choice([-1, 3, 6])), cv2.LINE_AA)
        elif kind == 1:
            k = int(rng.integers(3, 8))
            a = rng.uniform(0, 2 * np.pi) + np.arange(k) * 2 * np.pi / k
            rr = r * rng.uniform(0.5, 1.0, k)
            pts = np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], 1).astype(np.int32)
            cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        elif kind == 2:
            p2 = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
            cv2.line(img, (cx, cy), p2, colour, int(rng.integers(2, 9)), cv2.LINE_AA)
        elif kind == 3:
            cv2.ellipse(img, (cx, cy), (r, max(r // 3, 4)), float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
        else:
            cv2.rectangle(img, (cx - r // 2, cy - r // 3), (cx + r // 2, cy + r // 3), colour, int(rng.choice([-1, 4])))


def card_face(seed: int) -> np.ndarray:
    """The face of card ``seed`` as a BGR image of :data:`CARD_PX`: a framed
    artwork window, a title bar (Japanese name, English name), a type banner and
    body text, all over a full-bleed gradient."""
    spec = card_spec(seed)
    rng = np.random.default_rng(seed)
    w, h = CARD_PX
    img = _gradient(rng, w, h) + _texture(rng, w, h)[..., None]
    art_box = (40, 130, w - 40, 560)
    art = _gradient(rng, w, h) + _texture(rng, w, h)[..., None] * 1.5
    img[art_box[1] : art_box[3], art_box[0] : art_box[2]] = art[art_box[1] : art_box[3], art_box[0] : art_box[2]]
    img = np.clip(img, 0, 255).astype(np.uint8).copy()
    window = img[art_box[1] : art_box[3], art_box[0] : art_box[2]].copy()
    _shapes(rng, window, (0, 0, window.shape[1], window.shape[0]), int(rng.integers(10, 22)))
    img[art_box[1] : art_box[3], art_box[0] : art_box[2]] = window
    frame_c = tuple(int(c) for c in rng.integers(0, 256, 3))
    cv2.rectangle(img, art_box[:2], art_box[2:], frame_c, 6)
    cv2.rectangle(img, (12, 12), (w - 13, h - 13), frame_c, 10)

    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    d = ImageDraw.Draw(pil)
    ja, la = japanese_font(), latin_font()
    ink = tuple(int(c) for c in rng.integers(0, 60, 3))
    paper = tuple(int(c) for c in rng.integers(200, 256, 3))
    d.rounded_rectangle((30, 30, w - 30, 118), 14, fill=paper, outline=ink, width=3)
    d.text((46, 36), spec.name if ja else spec.name_en, font=_font(ja, 44), fill=ink)
    d.text((48, 88), spec.name_en, font=_font(la, 22), fill=ink)
    banner = tuple(int(c) for c in rng.integers(0, 200, 3))
    d.rectangle((30, 572, w - 30, 628), fill=banner)
    label = f"{spec.type} / {_TYPE_EN[spec.type]}" if ja else _TYPE_EN[spec.type]
    d.text((48, 576), label, font=_font(ja or la, 36), fill=(255, 255, 255))
    d.rounded_rectangle((30, 640, w - 30, h - 30), 10, fill=paper, outline=ink, width=2)
    lines = []
    for _ in range(4):
        if ja:
            lines.append("".join(_KANJI[int(i)] if rng.random() < 0.4 else _SYLLABLES[int(i) % len(_SYLLABLES)] for i in rng.integers(0, len(_KANJI), 14)))
        else:
            lines.append(" ".join(_EN[int(i)] for i in rng.integers(0, len(_EN), 4)))
    for i, line in enumerate(lines):
        d.text((48, 654 + i * 44), line, font=_font(ja or la, 30), fill=ink)
    cost = int(rng.integers(0, 6))
    d.ellipse((w - 110, 40, w - 40, 110), fill=banner, outline=ink, width=3)
    d.text((w - 88, 46), str(cost), font=_font(la, 48), fill=(255, 255, 255))
    out = cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR)
    return out


# ---------------------------------------------------------------- camera views


def _surface(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A plain-ish table or desk: one colour, soft texture (float32 BGR)."""
    base = rng.choice([(40, 80, 140), (60, 110, 170), (40, 110, 30), (90, 60, 20), (50, 50, 55), (170, 185, 195), (30, 30, 110)])
    img = np.broadcast_to(np.float32(base), (h, w, 3)).copy()
    noise = rng.normal(0, 8, (h // 6 + 1, w // 6 + 1, 3)).astype(np.float32)
    return img + cv2.resize(noise, (w, h))


def _paste(img: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    """Warp ``face`` onto ``quad`` (TL, TR, BR, BL image pixels) in ``img`` (float32), with a soft shadow."""
    fh, fw = face.shape[:2]
    src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    H = cv2.getPerspectiveTransform(src, np.float32(quad))
    h, w = img.shape[:2]
    warped = cv2.warpPerspective(face, H, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((fh, fw), 255, np.uint8), H, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    shadow = np.roll(cv2.GaussianBlur(mask, (0, 0), 4), (4, 4), axis=(0, 1))
    shadow = shadow[..., None] if shadow.ndim == 2 else shadow
    img *= 1 - 0.35 * shadow
    img[:] = img * (1 - mask) + warped.astype(np.float32) * mask


def _card_quad(rng: np.random.Generator, centre: tuple[float, float], width_px: float, tilt: float) -> np.ndarray:
    """A card outline: rotated anywhere in the plane, then a keystone of up to
    ``tilt`` (fraction of the card) as a camera at an angle sees it."""
    hw, hh = width_px / 2, width_px * 88 / 63 / 2
    pts = np.float32([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
    a = rng.uniform(-np.pi, np.pi)
    R = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    pts = pts @ R.T
    # keystone: shrink the side farthest along a random direction
    d = rng.uniform(-np.pi, np.pi)
    u = np.float32([np.cos(d), np.sin(d)])
    k = rng.uniform(0, tilt)
    proj = pts @ u / (hh + 1e-6)
    pts = pts * (1 - k * (proj[:, None] + 1) / 2)
    pts += rng.normal(0, width_px * 0.015, pts.shape).astype(np.float32)
    return pts + np.float32(centre)


def _lighting(rng: np.random.Generator, img: np.ndarray, strength: float) -> np.ndarray:
    h, w = img.shape[:2]
    x, y = np.meshgrid(np.linspace(0, 1, w, dtype=np.float32), np.linspace(0, 1, h, dtype=np.float32))
    lx, ly = rng.uniform(-0.3, 1.3, 2)
    dist = np.sqrt((x - lx) ** 2 + (y - ly) ** 2)
    gain = rng.uniform(1 - strength, 1 + strength * 0.4) * (1 - strength * 0.6 * np.clip(dist, 0, 1.5) / 1.5)
    tint = np.float32(rng.uniform(0.9, 1.1, 3))  # warm or cool lamp
    out = img * gain[..., None] * tint
    if rng.random() < 0.3:  # glare spot
        gx, gy = rng.uniform(0.2, 0.8, 2)
        glare = np.exp(-((x - gx) ** 2 + (y - gy) ** 2) / (2 * rng.uniform(0.02, 0.06) ** 2))
        out += glare[..., None] * rng.uniform(60, 140)
    return out


def _camera_effects(rng: np.random.Generator, img: np.ndarray, blur: float, noise: float, jpeg: tuple[int, int]) -> np.ndarray:
    sigma = rng.uniform(0, blur)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < 0.3:  # a little motion blur
        k = int(rng.integers(3, 8))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1 / k
        M = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kern, M, (k, k)))
    img = img + rng.normal(0, rng.uniform(noise / 3, noise), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.integers(*jpeg))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


def registration_photo(face: np.ndarray, seed: int, size: tuple[int, int] = (900, 1200)) -> np.ndarray:
    """One phone photo of a card held flat over a surface, as a player takes it
    to teach the card: the card fills about 60 % of the width, a slight angle."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = _surface(rng, w, h)
    quad = _card_quad(rng, (w / 2 + rng.uniform(-30, 30), h / 2 + rng.uniform(-30, 30)), w * rng.uniform(0.55, 0.7), 0.08)
    # a teaching photo is roughly upright
    quad = _upright(quad, rng.uniform(-8, 8))
    _paste(img, face, quad)
    img = _lighting(rng, img, 0.2)
    return _camera_effects(rng, img, 0.8, 4, (80, 95))


def _upright(quad: np.ndarray, angle_deg: float) -> np.ndarray:
    c = quad.mean(0)
    hw = np.linalg.norm(quad[1] - quad[0]) / 2
    hh = np.linalg.norm(quad[3] - quad[0]) / 2
    a = np.radians(angle_deg)
    R = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    pts = np.float32([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]]) @ R.T
    return pts + c


@dataclass
class Placed:
    """A card in a rendered scene: which face, and its outline (TL, TR, BR, BL of the face) in pixels."""

    seed: int
    quad: np.ndarray


def card_view(face: np.ndarray, seed: int, size: tuple[int, int] = (480, 480), hard: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """One card seen by the table camera: card width 150-260 px (a 1080p
    overhead camera over a play area sees cards about this size), any rotation,
    keystone, lamp gradient and glare, blur, noise, JPEG.  Returns the image and
    the card's outline."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = _surface(rng, w, h)
    width = rng.uniform(150, 260) if hard else rng.uniform(220, 280)
    quad = _card_quad(rng, (w / 2 + rng.uniform(-20, 20), h / 2 + rng.uniform(-20, 20)), width, 0.35 if hard else 0.15)
    _paste(img, face, quad)
    img = _lighting(rng, img, 0.45 if hard else 0.2)
    return _camera_effects(rng, img, 1.6 if hard else 0.8, 8 if hard else 4, (55, 90)), quad


def table_scene(
    faces: dict[int, np.ndarray], seed: int, n: int = 4, size: tuple[int, int] = (1280, 960), overlap: bool = False
) -> tuple[np.ndarray, list[Placed]]:
    """A table frame with up to ``n`` of ``faces`` (seed -> face) as the
    overhead camera sees them, and where each one is (in drawing order, so a
    later card lies on top).  Cards lie apart (one that finds no free room is
    left out), or with ``overlap`` each card after the first is dropped
    partly over the one before (its centre 55-80 % of a card width away), so
    a card may be covered by one or more later cards."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = _surface(rng, w, h)
    keys = list(faces)
    chosen = [keys[int(i)] for i in rng.choice(len(keys), size=min(n, len(keys)), replace=False)]
    placed: list[Placed] = []
    cw = rng.uniform(170, 230)
    for s in chosen:
        c = None
        if overlap and placed:
            a = rng.uniform(-np.pi, np.pi)
            prev = placed[-1].quad.mean(0)
            c = prev + cw * rng.uniform(0.55, 0.8) * np.float32([np.cos(a), np.sin(a)])
            if not (cw * 0.8 < c[0] < w - cw * 0.8 and cw * 0.8 < c[1] < h - cw * 0.8):
                c = None
        else:
            for _ in range(200):
                cand = (rng.uniform(cw, w - cw), rng.uniform(cw, h - cw))
                if all(np.hypot(*(np.float32(cand) - p.quad.mean(0))) > cw * 1.8 for p in placed):
                    c = cand
                    break
        if c is None:
            continue
        quad = _card_quad(rng, (float(c[0]), float(c[1])), cw * rng.uniform(0.9, 1.1), 0.25)
        _paste(img, faces[s], quad)
        placed.append(Placed(s, quad))
    img = _lighting(rng, img, 0.4)
    return _camera_effects(rng, img, 1.2, 6, (60, 90)), placed


def paste_on_mat(img: np.ndarray, face: np.ndarray, to_image: np.ndarray, cx: float, cy: float,
                 angle: float = 0.0) -> np.ndarray:
    """``img`` (BGR uint8, a rendered table) with ``face`` lying face up at
    (``cx``, ``cy``) mm on the mat, turned ``angle`` degrees like the scene
    generator's cards; ``to_image`` maps mat mm to image px
    (``vision.scene.SceneTruth.homography``).  The demo camera draws stand-ins of a
    game's commercial cards this way (the scene generator knows only standard
    and printed cards)."""
    from .geometry import CARD_H, CARD_W

    a = np.radians(angle)
    c, s = np.cos(a), np.sin(a)
    corners = np.float64([[-CARD_W / 2, -CARD_H / 2], [CARD_W / 2, -CARD_H / 2], [CARD_W / 2, CARD_H / 2],
                          [-CARD_W / 2, CARD_H / 2]]) @ np.float64([[c, s], [-s, c]]) + (cx, cy)
    quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), np.float64(to_image)).reshape(4, 2)
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 12, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 12, (w, h))
    if x1 <= x0 or y1 <= y0:
        return img
    out = img.copy()
    roi = out[y0:y1, x0:x1].astype(np.float32)  # only the card's box is warped: a whole frame per card is slow
    _paste(roi, face, quad - (x0, y0))
    out[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    return out
