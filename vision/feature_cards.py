"""Teach mode for commercial cards: learn each card from one photo, then find it
on the table by local-feature matching.

Why feature matching: players of ガンナガン bring their own printed cards, whose
faces are full-bleed artwork with no corner index we could read and no marker
we could print.  What such a face does have is texture, and local features
(AKAZE by default, ORB as an option; see docs/vision-teach.md for the
measurement that chose AKAZE) match it under rotation, scale, perspective,
lamp changes and moderate blur.  A match only counts when a RANSAC homography
maps the taught face onto the frame with enough inliers and a card-like
(convex, not folded, not degenerate) outline, so a handful of chance
descriptor agreements never names a card: below the bar the answer is
``None`` ("unknown").

The registry is plain files: each taught card's rectified face as PNG plus one
``cards.json`` with names and types (no pickles); features are recomputed on
load, so the files stay valid across OpenCV versions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

# The rectified face every taught card is stored as (card proportions 63 x 88).
FACE_W, FACE_H = 315, 440

# Card types of ガンナガン as players write them, and the words the engine uses.
CARD_TYPES = {"行動": "action", "機能": "function", "銃弾": "bullet", "対応": "response"}
TYPE_NAMES_JA = {v: k for k, v in CARD_TYPES.items()}

MIN_INLIERS = 12  # fewer RANSAC inliers than this: not a match ("unknown")
RATIO = 0.8  # Lowe's ratio test
METHODS = ("orb", "sift", "akaze")
DEFAULT_METHOD = "orb"
APP = "table-companion"


def normalise_type(card_type: str) -> str:
    """``行動`` or ``action`` -> ``action`` (the engine's word); other types
    (ガンナガン has more than the four the ダブルエッジ rule names) are kept as
    written.  An empty type is refused."""
    t = (card_type or "").strip()
    if not t:
        raise ValueError("a card needs a type, e.g. 行動, 機能, 銃弾 or 対応")
    if len(t) > 32:
        raise ValueError(f"card type {t!r} is longer than 32 characters")
    if t in CARD_TYPES:
        return CARD_TYPES[t]
    if t.lower() in TYPE_NAMES_JA:
        return t.lower()
    return t


def type_label(card_type: str) -> str:
    """``action`` -> ``行動 (action)``: how a type is shown to players."""
    ja = TYPE_NAMES_JA.get(card_type)
    return f"{ja} ({card_type})" if ja else card_type


def taught_dir(game: str) -> Path:
    """Where ``companion vision teach --game GAME`` keeps its cards: the user
    data directory (``platformdirs``), ``<data>/taught/<GAME>``."""
    import platformdirs

    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", game):
        raise ValueError(f"game name {game!r}: use letters, digits, '.', '_' or '-' (at most 64)")
    return Path(platformdirs.user_data_dir(APP)) / "taught" / game


# ------------------------------------------------------------ finding the card


def _order_quad(pts: np.ndarray) -> np.ndarray:
    """Corners as TL, TR, BR, BL (clockwise from the top-left in the image) with
    the short side first, so the face is rectified upright-ish (portrait)."""
    pts = np.float32(pts).reshape(4, 2)
    c = pts.mean(0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(pts.sum(1)))
    pts = np.roll(pts, -start, axis=0)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[3] - pts[0]):
        pts = np.roll(pts, -1, axis=0)  # long side on top: turn to portrait
    return pts


def _quad_ok(quad: np.ndarray, image_area: float, min_frac: float) -> bool:
    q = np.float32(quad).reshape(4, 2)
    if not cv2.isContourConvex(q.reshape(-1, 1, 2)):
        return False
    area = abs(cv2.contourArea(q))
    if not min_frac * image_area < area < 0.97 * image_area:
        return False
    sides = np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)
    short = (sides[0] + sides[2]) / 2
    long = (sides[1] + sides[3]) / 2
    aspect = min(short, long) / max(short, long)
    return 0.45 < aspect < 0.95


def find_card_outline(photo: np.ndarray, min_frac: float = 0.12) -> np.ndarray | None:
    """The outline (TL, TR, BR, BL pixels) of the one card a teaching photo
    shows, or None when the photo is the card itself (already cropped).

    Two cues, because a card face may be light or dark: how far each pixel's
    colour is from the photo's border (the surface), and strong edges."""
    h, w = photo.shape[:2]
    scale = 640 / max(h, w)
    small = cv2.resize(photo, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    blur = cv2.GaussianBlur(small, (5, 5), 0)
    border = np.concatenate([blur[:4].reshape(-1, 3), blur[-4:].reshape(-1, 3), blur[:, :4].reshape(-1, 3), blur[:, -4:].reshape(-1, 3)])
    bg = np.median(border, axis=0)
    spread = np.percentile(np.linalg.norm(border - bg, axis=1), 90)
    dist = np.linalg.norm(blur.astype(np.float32) - bg, axis=2)
    masks = [((dist > max(30.0, spread * 1.5)) * 255).astype(np.uint8)]
    edges = cv2.Canny(cv2.cvtColor(blur, cv2.COLOR_BGR2GRAY), 40, 120)
    masks.append(cv2.dilate(edges, np.ones((5, 5), np.uint8)))
    best = None
    for mask in masks:
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in sorted(contours, key=cv2.contourArea, reverse=True)[:3]:
            hull = cv2.convexHull(c)
            peri = cv2.arcLength(hull, True)
            quad = None
            for eps in (0.02, 0.03, 0.05):
                ap = cv2.approxPolyDP(hull, eps * peri, True)
                if len(ap) == 4:
                    quad = ap.reshape(4, 2).astype(np.float32)
                    break
            if quad is None:
                rect = cv2.minAreaRect(hull)
                if cv2.contourArea(hull) / max(rect[1][0] * rect[1][1], 1) < 0.9:
                    continue
                quad = cv2.boxPoints(rect)
            if _quad_ok(quad, sw * sh, min_frac):
                area = abs(cv2.contourArea(quad))
                if best is None or area > best[0]:
                    best = (area, quad)
                break
    if best is None:
        return None
    return _order_quad(best[1] / scale)


def rectify(photo: np.ndarray, outline: np.ndarray | None) -> np.ndarray:
    """The card face, upright-ish, as a FACE_W x FACE_H image."""
    if outline is None:
        h, w = photo.shape[:2]
        img = photo if h >= w else cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE)
        return cv2.resize(img, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    dst = np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]])
    H = cv2.getPerspectiveTransform(np.float32(outline), dst)
    return cv2.warpPerspective(photo, H, (FACE_W, FACE_H), flags=cv2.INTER_AREA)


# ------------------------------------------------------------------- features


def make_detector(method: str, n_features: int = 1500):
    """ORB (binary, fast), SIFT (float, slower, steadier under blur) or AKAZE
    (binary; in OpenCV 5 it moved out of the main module, so it is only offered
    where this OpenCV build still has it)."""
    if method == "orb":
        return cv2.ORB_create(nfeatures=n_features, scaleFactor=1.2, nlevels=10, edgeThreshold=15, patchSize=31, fastThreshold=10)
    if method == "sift":
        return cv2.SIFT_create(nfeatures=n_features)
    if method == "akaze":
        if not hasattr(cv2, "AKAZE_create"):
            raise ValueError(f"feature method 'akaze' is not in this OpenCV ({cv2.__version__}); use 'orb' or 'sift'")
        return cv2.AKAZE_create(threshold=0.0005)
    raise ValueError(f"feature method {method!r}: use one of {', '.join(METHODS)}")


def _norm(method: str) -> int:
    return cv2.NORM_L2 if method == "sift" else cv2.NORM_HAMMING


def _gray(image: np.ndarray) -> np.ndarray:
    g = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    # even out lamp gradients and exposure before detecting
    return cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8)).apply(g)


@dataclass
class TaughtCard:
    """One taught card: what the player entered, its rectified face and the
    face's features (points in face pixels)."""

    name: str
    type: str
    face: np.ndarray
    points: np.ndarray = field(repr=False)
    descriptors: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class Match:
    """A taught card recognised in an image.  ``inliers``: feature matches the
    homography agrees with; ``confidence`` in 0..1 (how clearly this card beat
    every other taught card, and by how many inliers); ``outline``: the card's
    corners in the image (TL, TR, BR, BL of the taught face)."""

    name: str
    type: str
    inliers: int
    confidence: float
    outline: tuple[tuple[float, float], ...] = ()

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "type": self.type,
            "type_label": type_label(self.type),
            "inliers": self.inliers,
            "confidence": round(self.confidence, 3),
            "outline_px": [[round(x, 1), round(y, 1)] for x, y in self.outline],
        }


def _plausible(H: np.ndarray, image_shape: tuple[int, ...]) -> np.ndarray | None:
    """The taught face's outline under ``H`` if it looks like a card lying on
    a table seen by a camera: convex, not tiny, sides not wildly unequal."""
    if H is None or not np.all(np.isfinite(H)):
        return None
    face = np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]]).reshape(-1, 1, 2)
    q = cv2.perspectiveTransform(face, H).reshape(4, 2)
    if not np.all(np.isfinite(q)) or not cv2.isContourConvex(q.reshape(-1, 1, 2)):
        return None
    area = abs(cv2.contourArea(q))
    if area < 30 * 40:
        return None
    if area > 4 * image_shape[0] * image_shape[1]:
        return None
    sides = np.linalg.norm(q - np.roll(q, 1, axis=0), axis=1)
    if sides.min() < 0.25 * sides.max():
        return None
    # opposite sides of a card seen from above stay within a factor ~2
    if not (0.5 < sides[0] / sides[2] < 2 and 0.5 < sides[1] / sides[3] < 2):
        return None
    # orientation preserved (a mirror image is not a card face up)
    if cv2.contourArea(q.reshape(-1, 1, 2), oriented=True) * cv2.contourArea(face, oriented=True) < 0:
        return None
    return q


class FeatureCards:
    """The registry of taught cards for one game.

    >>> reg = FeatureCards()
    >>> reg.add("計略", "行動", cv2.imread("keiryaku.jpg"))
    >>> reg.match(crop)           # Match(name='計略', type='action', ...) or None
    >>> reg.find_all(frame)       # every taught card on the table
    >>> reg.save(taught_dir("gun-and-gun"))
    """

    def __init__(self, method: str = DEFAULT_METHOD) -> None:
        self.method = method
        self._detector = make_detector(method)
        self._query_detector = make_detector(method, n_features=6000)
        self.cards: list[TaughtCard] = []
        self._index: tuple[np.ndarray, np.ndarray] | None = None  # (all descriptors, card id per row)

    # ---------------------------------------------------------------- teaching
    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, name: object) -> bool:
        return any(c.name == name for c in self.cards)

    def names(self) -> list[str]:
        return [c.name for c in self.cards]

    def _features(self, image: np.ndarray, detector) -> tuple[np.ndarray, np.ndarray | None]:
        kps, des = detector.detectAndCompute(_gray(image), None)
        pts = np.float32([k.pt for k in kps]).reshape(-1, 2)
        return pts, des

    def add(self, name: str, card_type: str, image: np.ndarray, *, outline: np.ndarray | None | str = "auto") -> TaughtCard:
        """Teach one card from one photo.  The card's outline is found in the
        photo when it shows the card on a surface; otherwise the whole image is
        taken as the face.  Teaching a name again replaces that card.  Bad input
        (no name, no type, an unreadable or featureless image) raises
        ValueError and leaves the registry as it was."""
        name = (name or "").strip()
        if not name:
            raise ValueError("a card needs a name")
        if len(name) > 80:
            raise ValueError(f"card name {name[:20]!r}... is longer than 80 characters")
        ctype = normalise_type(card_type)
        if image is None or not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or min(image.shape[:2]) < 32:
            raise ValueError("the photo is not an image (or is smaller than 32 pixels)")
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        quad = find_card_outline(image) if isinstance(outline, str) else outline
        face = rectify(image, quad)
        return self._add_face(name, ctype, face)

    def _add_face(self, name: str, ctype: str, face: np.ndarray) -> TaughtCard:
        pts, des = self._features(face, self._detector)
        if des is None or len(pts) < 3 * MIN_INLIERS:
            raise ValueError(f"card {name!r}: the photo shows too little detail to recognise it later ({len(pts)} features); take it sharper, closer and evenly lit")
        card = TaughtCard(name, ctype, face, pts, des)
        self.cards = [c for c in self.cards if c.name != name] + [card]
        self._index = None
        return card

    def remove(self, name: str) -> bool:
        before = len(self.cards)
        self.cards = [c for c in self.cards if c.name != name]
        self._index = None
        return len(self.cards) != before

    # ------------------------------------------------------------- persisting
    def save(self, directory: str | Path) -> Path:
        """Write every taught face as PNG plus ``cards.json``; returns the JSON path."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        entries = []
        for i, c in enumerate(self.cards):
            fname = f"card-{i:04d}.png"
            if not cv2.imwrite(str(d / fname), c.face):
                raise OSError(f"cannot write {d / fname}")
            entries.append({"name": c.name, "type": c.type, "image": fname})
        keep = {e["image"] for e in entries}
        for old in d.glob("card-*.png"):
            if old.name not in keep:
                old.unlink()
        path = d / "cards.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps({"format": 1, "face_px": [FACE_W, FACE_H], "cards": entries}, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, directory: str | Path, method: str = DEFAULT_METHOD) -> FeatureCards:
        """The registry saved in ``directory`` (empty if nothing was taught there)."""
        reg = cls(method)
        path = Path(directory) / "cards.json"
        if not path.exists():
            return reg
        data = json.loads(path.read_text(encoding="utf-8"))
        for e in data.get("cards", []):
            face = cv2.imread(str(Path(directory) / e["image"]), cv2.IMREAD_COLOR)
            if face is None:
                raise ValueError(f"{path}: the face of {e['name']!r} ({e['image']}) is missing or unreadable")
            if face.shape[:2] != (FACE_H, FACE_W):
                face = cv2.resize(face, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
            reg._add_face(e["name"], e["type"], face)
        return reg

    # ---------------------------------------------------------------- matching
    def _db(self) -> tuple[np.ndarray, np.ndarray]:
        if self._index is None:
            des = np.concatenate([c.descriptors for c in self.cards])
            ids = np.concatenate([np.full(len(c.descriptors), i, np.int32) for i, c in enumerate(self.cards)])
            self._index = (des, ids)
        return self._index

    def _candidate_matches(self, q_des: np.ndarray) -> dict[int, list[tuple[int, int]]]:
        """Query descriptor -> nearest taught descriptor, kept when clearly
        nearer than the next taught descriptor; grouped by card:
        card id -> [(query index, face point index)]."""
        des, ids = self._db()
        bf = cv2.BFMatcher(_norm(self.method))
        offsets = np.cumsum([0] + [len(c.descriptors) for c in self.cards])
        by_card: dict[int, list[tuple[int, int]]] = {}
        # a close match: a quarter of the bits (binary) or of a unit SIFT vector (512)
        near = 0.25 * des.shape[1] * 8 if _norm(self.method) == cv2.NORM_HAMMING else 128.0
        for pair in bf.knnMatch(q_des, des, k=2):
            if len(pair) < 2:
                continue
            m, n = pair
            cid = int(ids[m.trainIdx])
            # Lowe's ratio test; two near neighbours on the same card (repeated
            # print texture) are no ambiguity about which card it is
            if m.distance < RATIO * n.distance or (cid == ids[n.trainIdx] and m.distance < near):
                by_card.setdefault(cid, []).append((m.queryIdx, m.trainIdx - int(offsets[cid])))
        return by_card

    def _verify(self, cid: int, pairs: list[tuple[int, int]], q_pts: np.ndarray, shape) -> tuple[int, np.ndarray, np.ndarray] | None:
        """RANSAC homography face -> image; (inliers, outline, inlier mask) or None."""
        if len(pairs) < MIN_INLIERS:
            return None
        card = self.cards[cid]
        src = card.points[[p[1] for p in pairs]].reshape(-1, 1, 2)
        dst = q_pts[[p[0] for p in pairs]].reshape(-1, 1, 2)
        H, mask = cv2.findHomography(src, dst, cv2.RANSAC, 6.0, maxIters=2000, confidence=0.995)
        if H is None:
            return None
        mask = mask.ravel().astype(bool)
        n = int(mask.sum())
        if n < MIN_INLIERS:
            return None
        q = _plausible(H, shape)
        if q is None:
            return None
        # inliers must be spread over the face, not a single clump
        inl = src.reshape(-1, 2)[mask]
        spread = np.ptp(inl, axis=0)
        if spread[0] < 0.2 * FACE_W and spread[1] < 0.2 * FACE_H:
            return None
        return n, q, mask

    @staticmethod
    def _confidence(best: int, runner_up: int) -> float:
        strength = min(1.0, best / (4 * MIN_INLIERS))
        margin = 1.0 - runner_up / best if best else 0.0
        return float(max(0.0, min(1.0, strength * margin)))

    def match(self, image: np.ndarray, max_side: int = 800) -> Match | None:
        """Which taught card ``image`` (a crop around one card, or a photo of
        one) shows, or None ("unknown") when no taught card matches with a
        geometrically consistent homography."""
        if not self.cards or image is None or image.size == 0:
            return None
        scale = min(1.0, max_side / max(image.shape[:2]))
        img = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        q_pts, q_des = self._features(img, self._query_detector)
        if q_des is None or len(q_pts) < MIN_INLIERS:
            return None
        by_card = self._candidate_matches(q_des)
        ranked = sorted(by_card, key=lambda c: len(by_card[c]), reverse=True)[:4]
        results = []
        for cid in ranked:
            v = self._verify(cid, by_card[cid], q_pts, img.shape)
            if v is not None:
                results.append((v[0], cid, v[1]))
        if not results:
            return None
        results.sort(key=lambda r: r[0], reverse=True)
        n, cid, quad = results[0]
        runner = results[1][0] if len(results) > 1 else 0
        card = self.cards[cid]
        outline = tuple((float(x) / scale, float(y) / scale) for x, y in quad)
        return Match(card.name, card.type, n, self._confidence(n, runner), outline)

    def find_all(self, frame: np.ndarray, max_side: int = 1600, max_copies: int = 4) -> list[Match]:
        """Every taught card in a whole table frame.

        The whole frame is matched at once (commercial faces are full-bleed
        colour, which the white-paper card finder of vision/cards.py does not
        outline reliably); each card's matches are explained by one homography
        after another (RANSAC, remove its inliers, again) so several copies of
        a card are each found.  Where two found cards overlap, the one with
        more inliers stands."""
        if not self.cards or frame is None or frame.size == 0:
            return []
        scale = min(1.0, max_side / max(frame.shape[:2]))
        img = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        q_pts, q_des = self._features(img, self._query_detector)
        if q_des is None or len(q_pts) < MIN_INLIERS:
            return []
        by_card = self._candidate_matches(q_des)
        found: list[tuple[int, int, np.ndarray]] = []
        for cid, pairs in by_card.items():
            for _ in range(max_copies):
                v = self._verify(cid, pairs, q_pts, img.shape)
                if v is None:
                    break
                n, quad, mask = v
                found.append((n, cid, quad))
                # drop this copy's inliers and every match inside its outline
                poly = quad.reshape(-1, 1, 2).astype(np.float32)
                pairs = [p for p, m in zip(pairs, mask, strict=True) if not m and cv2.pointPolygonTest(poly, tuple(map(float, q_pts[p[0]])), False) < 0]
        found.sort(key=lambda f: f[0], reverse=True)
        kept: list[tuple[int, int, np.ndarray, int]] = []  # (inliers, card, outline, best rival inliers)
        for n, cid, quad in found:
            clash = None
            for k, (_, _, kq, _) in enumerate(kept):
                if _overlap(quad, kq) > 0.3:
                    clash = k
                    break
            if clash is None:
                kept.append((n, cid, quad, 0))
            elif kept[clash][3] < n:
                kn, kc, kq, _ = kept[clash]
                kept[clash] = (kn, kc, kq, n)
        out = []
        for n, cid, quad, rival in kept:
            card = self.cards[cid]
            outline = tuple((float(x) / scale, float(y) / scale) for x, y in quad)
            out.append(Match(card.name, card.type, n, self._confidence(n, rival), outline))
        return out


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over the smaller of two convex outlines."""
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    small = min(abs(cv2.contourArea(np.float32(a))), abs(cv2.contourArea(np.float32(b))))
    return float(inter) / small if small > 0 else 0.0
