"""Training the corner-index glyph classifier (:mod:`vision.glyph_model`).

    .venv/bin/python -m vision.glyph_train            # writes vision/glyph_model.npz

Samples are corner indices drawn in random deck designs (every system font,
random index size, squeeze, stroke weight, polygon or font suits, colours),
photographed by a simulated camera (0.95-4.5 px/mm, mostly under 2, slight rotation, blur,
noise, JPEG) and sampled back into an upright patch with the corner placed a
little wrong, exactly as the pipeline would see them.  The glyphs are then cut
out by the reader's own :func:`vision.corner_index.extract_glyphs`, so the
classifier learns what the reader actually hands it.  Random designs (not the
scene generator's fixed ones) and stroke/shape jitter keep it from learning
one deck.  The weights are shipped in the repository, so every machine (a Pi
with other fonts too) reads the same way."""

from __future__ import annotations

import argparse
import os
import time

import cv2
import numpy as np
from PIL import Image, ImageDraw

from . import geometry as g
from .cardart import PX, DeckStyle, text_image
from .corner_index import PATCH_H, PATCH_PPM, PATCH_W, extract_glyphs
from .fonts import suit_glyph_fonts, system_fonts
from .glyph_model import MODEL_PATH, RANK_CLASSES, SUIT_CLASSES, glyph_features
from .glyphs import RED_SUITS, SUIT_CHAR, draw_suit

_MARGIN = 4.0  # mm of table around the card corner in the rendered tile


def _random_style(rng: np.random.Generator, fonts: list[str]) -> DeckStyle:
    glyph_fonts = suit_glyph_fonts()
    black = tuple(int(v) for v in rng.integers(0, 60, 3))
    red = (int(rng.integers(150, 235)), int(rng.integers(0, 60)), int(rng.integers(0, 70)))
    paper = tuple(int(v) for v in rng.integers(225, 256, 3))
    return DeckStyle(
        rank_font=str(rng.choice(fonts)),
        suit_font=str(rng.choice(glyph_fonts)) if glyph_fonts and rng.random() < 0.35 else None,
        rank_h=float(rng.uniform(4.5, 8.5)),
        suit_h=float(rng.uniform(3.6, 6.6)),
        index_x=float(rng.uniform(4.5, 7.5)),
        index_y=float(rng.uniform(2.5, 5.5)),
        gap=float(rng.uniform(0.3, 2.0)),
        four_index=False,
        condensed=float(rng.uniform(0.65, 1.1)),
        red=red,
        black=black,
        paper=paper,
    )


def _suit_ink(rng: np.random.Generator, suit: str, style: DeckStyle, size: int) -> Image.Image:
    """A suit symbol, from a font or a polygon with jittered proportions."""
    if style.suit_font:
        return text_image(SUIT_CHAR[suit], style.suit_font, size)
    img = Image.new("L", (size * 2, size * 2), 0)
    draw_suit(ImageDraw.Draw(img), suit, size, size, size, 255)
    arr = np.asarray(img)
    sx = rng.uniform(0.8, 1.2)
    arr = cv2.resize(arr, None, fx=sx, fy=1.0, interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(arr > 0)
    return Image.fromarray(arr[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def _weight(rng: np.random.Generator, ink: Image.Image) -> Image.Image:
    """Bolder or lighter strokes than the font has."""
    r = rng.random()
    a = np.asarray(ink)
    if r < 0.2:
        a = cv2.dilate(a, np.ones((3, 3), np.uint8))
    elif r < 0.35:
        a = cv2.erode(a, np.ones((2, 2), np.uint8))
    return Image.fromarray(a)


def _corner_tile(rng: np.random.Generator, rank: str, suit: str, style: DeckStyle) -> np.ndarray:
    """A card corner (BGR, ``PX`` px/mm) with table around its top and left."""
    tw, th = int((g.INDEX_BOX_W + 2 * _MARGIN + 6) * PX), int((g.INDEX_BOX_H + 2 * _MARGIN + 6) * PX)
    table = rng.integers(20, 200, 3)
    img = Image.new("RGB", (tw, th), tuple(int(v) for v in table))
    m = int(_MARGIN * PX)
    ImageDraw.Draw(img).rounded_rectangle([m, m, tw + 50, th + 50], radius=int(g.CARD_RADIUS * PX), fill=style.paper)
    colour = style.red if suit in RED_SUITS else style.black
    squeeze = style.condensed * (0.8 if rank == "10" else 1.0)
    rank_ink = _weight(rng, text_image(rank, style.rank_font, int(style.rank_h * PX), squeeze))
    cx, y = m + style.index_x * PX, m + style.index_y * PX
    img.paste(Image.new("RGB", rank_ink.size, colour), (int(cx - rank_ink.width / 2), int(y)), rank_ink)
    sy = y + rank_ink.height + style.gap * PX
    suit_ink = _weight(rng, _suit_ink(rng, suit, style, int(style.suit_h * PX)))
    img.paste(Image.new("RGB", suit_ink.size, colour), (int(cx - suit_ink.width / 2 + rng.uniform(-0.5, 0.5) * PX), int(sy)), suit_ink)
    if rng.random() < 0.3:  # a pip or picture edge further in
        x0 = int(m + rng.uniform(11, 14) * PX)
        ImageDraw.Draw(img).rectangle([x0, int(m + rng.uniform(8, 12) * PX), x0 + 8 * PX, th], fill=colour)
    return cv2.cvtColor(np.asarray(img), cv2.COLOR_RGB2BGR)


def _photograph(rng: np.random.Generator, tile: np.ndarray, view: str = "upright", far: tuple[float, float] = (12.0, 20.0)) -> np.ndarray:
    """The tile as a camera sees it, then sampled back into an upright patch
    whose corner estimate is a little off (position, angle, scale).

    ``view`` "transposed" samples it the way the pipeline's other edge
    assignment does (long edge across the top, then mirrored back), "inverted"
    from a point ``far`` (mm) inside the card with both axes reversed, as a
    corner found on the wrong side of an index gives it: the glyphs are then
    sideways or upside down, and the network learns to call them junk."""
    # most tables are seen at 1.0-2.0 px/mm (720p over an A2 mat and more); some closer
    ppm = rng.uniform(0.95, 2.0) if rng.random() < 0.7 else rng.uniform(2.0, 4.5)
    ang = rng.uniform(-180, 180)
    h, w = tile.shape[:2]
    # tile px -> camera px: rotate and scale around the tile centre
    A = cv2.getRotationMatrix2D((w / 2, h / 2), ang, ppm / PX)
    corners = cv2.transform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), A)[0]
    lo = corners.min(0)
    A[:, 2] -= lo - 2
    size = tuple(int(v) for v in np.ceil(corners.max(0) - lo + 4))
    small = tile
    k = PX / ppm
    if k > 1.5:  # anti-alias like a sensor before rotating
        small = cv2.GaussianBlur(tile, (0, 0), 0.45 * k)
    cam = cv2.warpAffine(small, A, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    cam *= rng.uniform(0.55, 1.15)
    cam += rng.uniform(-15, 15, 3).astype(np.float32)
    s = rng.uniform(0, 0.9)
    if s > 0.3:
        cam = cv2.GaussianBlur(cam, (0, 0), s)
    cam += rng.standard_normal(cam.shape).astype(np.float32) * rng.uniform(1, 6)
    cam = np.clip(cam, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        cam = cv2.imdecode(cv2.imencode(".jpg", cam, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(50, 95))])[1], cv2.IMREAD_COLOR)
    # patch px -> tile px (corner at (_MARGIN, _MARGIN) mm, jittered), then -> camera px
    err = np.radians(rng.uniform(-3, 3))
    sc = rng.uniform(0.94, 1.06) * PX / PATCH_PPM
    c, s_ = np.cos(err) * sc, np.sin(err) * sc
    ox, oy = (_MARGIN + rng.uniform(-1.2, 1.2)) * PX, (_MARGIN + rng.uniform(-1.2, 1.2)) * PX
    R = np.array([[c, -s_], [s_, c]])
    if view == "transposed":  # x runs down the long edge, y across (mirrored back)
        R = R @ np.array([[0.0, 1.0], [-1.0, 0.0]])
        P = np.array([[*R[0], ox - R[0, 0] * PATCH_W], [*R[1], oy - R[1, 0] * PATCH_W], [0, 0, 1]])
    elif view == "inverted":
        ox, oy = ox + far[0] * PX, oy + far[1] * PX
        P = np.array([[-R[0, 0], -R[0, 1], ox], [-R[1, 0], -R[1, 1], oy], [0, 0, 1]])
    else:
        P = np.array([[*R[0], ox], [*R[1], oy], [0, 0, 1]])
    M = np.vstack([A, [0, 0, 1]]) @ P
    return cv2.warpPerspective(cam, M, (PATCH_W, PATCH_H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


# hard cases drawn more often: the black suits, and ranks that blur into each other
_SUIT_P = np.array([{"spades": 0.3, "clubs": 0.3}.get(s, 0.2) for s in SUIT_CLASSES[:4]])
_RANK_W = np.array([1.6 if r in ("6", "8", "9", "10", "Q", "J") else 1.0 for r in RANK_CLASSES[:13]])


def make_samples(n: int, seed: int, junk: float = 0.45) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rank features, rank labels, suit features, suit labels) from ``n`` drawn
    corners; for a share ``junk`` of them also the same corner seen sideways or
    upside down, labelled junk."""
    rng = np.random.default_rng(seed)
    fonts = list(system_fonts())
    RX, RY, SX, SY = [], [], [], []
    for _ in range(n):
        style = _random_style(rng, fonts)
        if rng.random() < 0.97:
            rank = str(rng.choice(RANK_CLASSES[:13], p=_RANK_W / _RANK_W.sum()))
        else:
            rank = str(rng.choice(["0", "1"]))
        suit = str(rng.choice(SUIT_CLASSES[:4], p=_SUIT_P))
        tile = _corner_tile(rng, rank, suit, style)
        views = ["upright"]
        if rng.random() < junk:
            views.append("transposed" if rng.random() < 0.65 else "inverted")
        for view in views:
            far = (style.index_x + rng.uniform(2, 8), style.index_y + style.rank_h + style.gap + style.suit_h + rng.uniform(0.5, 10))
            gl = extract_glyphs(_photograph(rng, tile, view, far))
            if gl is None:
                continue
            RX.append(glyph_features(gl.rank_ink))
            SX.append(glyph_features(gl.suit_ink))
            if view == "upright":
                RY.append(RANK_CLASSES.index(rank))
                SY.append(SUIT_CLASSES.index(suit))
            else:
                RY.append(RANK_CLASSES.index("junk"))
                SY.append(SUIT_CLASSES.index("junk"))
    return np.array(RX, np.float32), np.array(RY), np.array(SX, np.float32), np.array(SY)


def train_mlp(X: np.ndarray, y: np.ndarray, classes: int, hidden: int, epochs: int, seed: int) -> dict[str, np.ndarray]:
    """A one-hidden-layer network (ReLU, softmax) trained with Adam, in numpy."""
    rng = np.random.default_rng(seed)
    d = X.shape[1]
    params = {
        "W1": rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32),
        "b1": np.zeros(hidden, np.float32),
        "W2": rng.normal(0, np.sqrt(1 / hidden), (hidden, classes)).astype(np.float32),
        "b2": np.zeros(classes, np.float32),
    }
    m = {k: np.zeros_like(v) for k, v in params.items()}
    v = {k: np.zeros_like(v_) for k, v_ in params.items()}
    step, lr, wd = 0, 2e-3, 1e-4
    Y = np.eye(classes, dtype=np.float32)[y]
    for ep in range(epochs):
        order = rng.permutation(len(X))
        for i in range(0, len(X), 128):
            idx = order[i : i + 128]
            xb, yb = X[idx], Y[idx]
            h = np.maximum(xb @ params["W1"] + params["b1"], 0)
            z = h @ params["W2"] + params["b2"]
            z -= z.max(1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(1, keepdims=True)
            dz = (p - yb) / len(idx)
            grads = {"W2": h.T @ dz + wd * params["W2"], "b2": dz.sum(0)}
            dh = (dz @ params["W2"].T) * (h > 0)
            grads["W1"] = xb.T @ dh + wd * params["W1"]
            grads["b1"] = dh.sum(0)
            step += 1
            rate = lr * (0.5 if ep >= epochs * 0.6 else 1.0) * (0.4 if ep >= epochs * 0.85 else 1.0)
            for k in params:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9**step), v[k] / (1 - 0.999**step)
                params[k] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
    return params


def _accuracy(params, X, y) -> float:
    h = np.maximum(X @ params["W1"] + params["b1"], 0)
    return float(((h @ params["W2"] + params["b2"]).argmax(1) == y).mean())


RANK_HIDDEN, SUIT_HIDDEN = 160, 96


def merge(paths: list[str], out: str) -> None:
    """Weight files (each one network per kind, or ensembles) -> one ensemble,
    member prefixes "", "m1_", "m2_" ..."""
    arrays: dict[str, np.ndarray] = {}
    for path in paths:
        d = np.load(path)
        for m in sorted(k[: -len("rank_W1")] for k in d.files if k.endswith("rank_W1")):
            prefix = f"m{len(arrays) // 8}_" if arrays else ""
            for kind in ("rank", "suit"):
                for k in ("W1", "b1", "W2", "b2"):
                    arrays[f"{prefix}{kind}_{k}"] = d[f"{m}{kind}_{k}"]
    np.savez_compressed(out, **arrays)
    print(f"wrote {out}: {len(arrays) // 8} networks of each kind")


def _samples_parallel(n: int, seed: int, jobs: int):
    """make_samples in ``jobs`` processes (each its own seed), concatenated."""
    if jobs <= 1:
        return make_samples(n, seed)
    import multiprocessing

    chunk = -(-n // jobs)
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        parts = pool.starmap(make_samples, [(chunk, seed * 1000 + j) for j in range(jobs)])
    return tuple(np.concatenate([p[k] for p in parts]) for k in range(4))


def main() -> None:
    ap = argparse.ArgumentParser(description="train the corner-index glyph classifier")
    ap.add_argument("--samples", type=int, default=40000)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--out", default=str(MODEL_PATH))
    ap.add_argument("--jobs", type=int, default=1, help="processes drawing samples")
    ap.add_argument("--save-samples", help="also keep the drawn samples in this .npz")
    ap.add_argument("--merge", nargs="+", help="instead of training: join these weight files into one ensemble at --out")
    args = ap.parse_args()
    if args.merge:
        merge(args.merge, args.out)
        return
    cv2.setNumThreads(1)
    t = time.time()
    RX, RY, SX, SY = _samples_parallel(args.samples, 7, args.jobs)
    tRX, tRY, tSX, tSY = _samples_parallel(max(300, args.samples // 10), 99, args.jobs)
    if args.save_samples:
        np.savez_compressed(args.save_samples, RX=RX, RY=RY, SX=SX, SY=SY, tRX=tRX, tRY=tRY, tSX=tSX, tSY=tSY)
    print(f"{len(RX)} training samples, {len(tRX)} test samples in {time.time() - t:.0f} s", flush=True)
    rank = train_mlp(RX, RY, len(RANK_CLASSES), RANK_HIDDEN, args.epochs, 1)
    suit = train_mlp(SX, SY, len(SUIT_CLASSES), SUIT_HIDDEN, args.epochs, 2)
    print(f"rank accuracy train {_accuracy(rank, RX, RY):.4f} test {_accuracy(rank, tRX, tRY):.4f}")
    print(f"suit accuracy train {_accuracy(suit, SX, SY):.4f} test {_accuracy(suit, tSX, tSY):.4f}")
    np.savez_compressed(args.out, **{f"rank_{k}": v for k, v in rank.items()}, **{f"suit_{k}": v for k, v in suit.items()})
    print(f"wrote {os.path.relpath(args.out)} in {time.time() - t:.0f} s")


if __name__ == "__main__":
    main()
