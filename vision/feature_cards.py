"""Teach mode for commercial cards: learn each card from one photo, then find it
on the table by local-feature matching.

Why feature matching: players of ガンナガン bring their own printed cards, whose
faces are full-bleed artwork with no corner index we could read and no marker
we could print.  What such a face does have is texture, and local features
(ORB by default, SIFT as an option; AKAZE is no longer in OpenCV 5's main
module; docs/vision-teach.md has the measurement that chose ORB) match it
under rotation, scale, perspective, lamp changes and moderate blur.  A match
only counts when a robust (MAGSAC++) homography maps the taught face onto the
frame with enough inliers and a card-like (convex, not mirrored, not
degenerate) outline, and the face warped back looks like the taught face
where it is seen, so chance descriptor agreements or a shared card template
never name a card: below the bar the answer is ``None`` ("unknown").

The registry is plain files: each taught card's rectified face as PNG plus one
``cards.json`` with names and types (no pickles); features are recomputed on
load, so the files stay valid across OpenCV versions.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from .results import FrameResult, Sighting

# The rectified face every taught card is stored as (card proportions 63 x 88).
FACE_W, FACE_H = 315, 440

# Card types of ガンナガン as players write them, and the words the engine uses.
CARD_TYPES = {"行動": "action", "機能": "function", "銃弾": "bullet", "対応": "response"}
TYPE_NAMES_JA = {v: k for k, v in CARD_TYPES.items()}

MIN_INLIERS = 12  # fewer RANSAC inliers than this: not a match ("unknown")
MAX_OVERLAP = 0.6  # two found outlines sharing more than this (of the smaller) are one card
MIN_SIMILARITY = 0.5
MIN_VISIBLE = 0.15  # share of the face that inliers must cover  # correlation of the face warped back with the taught face
THUMB = (63, 88)  # the size faces are compared at (1 px per mm: artwork, not print grain)
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


def is_card_crop(image: np.ndarray) -> bool:
    """An image with a card's own proportions (63:88, within 2 %) is taken to
    be the card itself, a scan or a crop, not a photo of a card on a surface
    (a phone photo is 3:4 or 9:16).  Looking for an outline inside a crop would
    find the artwork window and keep only that."""
    h, w = image.shape[:2]
    return abs(min(h, w) / max(h, w) - 63 / 88) < 0.015


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


def _equalise(gray: np.ndarray) -> np.ndarray:
    """Even out lamp gradients and exposure before detecting features."""
    return cv2.createCLAHE(clipLimit=2.0, tileGridSize=(8, 8)).apply(gray)


@dataclass
class TaughtCard:
    """One taught card: what the player entered, its rectified face and the
    face's features (points in face pixels)."""

    name: str
    type: str
    face: np.ndarray
    points: np.ndarray = field(repr=False)
    descriptors: np.ndarray = field(repr=False)
    thumb: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((0, 0), np.float32))


@dataclass(frozen=True)
class Match:
    """A taught card recognised in an image.  ``inliers``: feature matches the
    homography agrees with; ``confidence`` in 0..1 (how clearly this card beat
    every other taught card, and by how many inliers); ``outline``: the card's
    corners in the image (TL, TR, BR, BL of the taught face); ``similarity``:
    correlation of the image, warped back, with the taught face."""

    name: str
    type: str
    inliers: int
    confidence: float
    outline: tuple[tuple[float, float], ...] = ()
    similarity: float = 0.0

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "type": self.type,
            "type_label": type_label(self.type),
            "inliers": self.inliers,
            "confidence": round(self.confidence, 3),
            "similarity": round(self.similarity, 3),
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
        self._crop_detector = make_detector(method, n_features=2000)
        self._frame_detector = make_detector(method, n_features=8000)
        self.cards: list[TaughtCard] = []
        self._template: np.ndarray | None = None
        self._index: tuple[np.ndarray, np.ndarray, cv2.DescriptorMatcher] | None = None  # (all descriptors, card id per row, index)

    # ---------------------------------------------------------------- teaching
    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, name: object) -> bool:
        return any(c.name == name for c in self.cards)

    def names(self) -> list[str]:
        return [c.name for c in self.cards]

    def _features(self, image: np.ndarray, detector) -> tuple[np.ndarray, np.ndarray | None]:
        kps, des = detector.detectAndCompute(image if image.ndim == 2 else _equalise(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)), None)
        pts = np.float32([k.pt for k in kps]).reshape(-1, 2)
        return pts, des

    def add(self, name: str, card_type: str, image: np.ndarray, *, outline: np.ndarray | None | str = "auto") -> TaughtCard:
        """Teach one card from one photo.  The card's outline is found in the
        photo when it shows the card on a surface; an image with card
        proportions (a scan or crop), or one with no card outline, is taken as
        the face itself; ``outline=None`` forces that, an array of 4 corners
        gives the outline.  Teaching a name again replaces that card.  Bad input
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
        if isinstance(outline, str):
            quad = None if is_card_crop(image) else find_card_outline(image)
        else:
            quad = outline
        face = rectify(image, quad)
        return self._add_face(name, ctype, face)

    def _add_face(self, name: str, ctype: str, face: np.ndarray) -> TaughtCard:
        pts, des = self._features(face, self._detector)
        if des is None or len(pts) < 3 * MIN_INLIERS:
            raise ValueError(f"card {name!r}: the photo shows too little detail to recognise it later ({len(pts)} features); take it sharper, closer and evenly lit")
        card = TaughtCard(name, ctype, face, pts, des, _thumb(face))
        self.cards = [c for c in self.cards if c.name != name] + [card]
        self._changed()
        return card

    def remove(self, name: str) -> bool:
        before = len(self.cards)
        self.cards = [c for c in self.cards if c.name != name]
        self._changed()
        return len(self.cards) != before

    def _changed(self) -> None:
        self._index = None
        # the look every taught card shares (a game's card template), once
        # there are enough cards for the mean to be the template, not one card
        self._template = _unit(np.mean([c.thumb for c in self.cards], axis=0)) if len(self.cards) >= 3 else None

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
    def _db(self) -> tuple[np.ndarray, np.ndarray, cv2.DescriptorMatcher]:
        """Every taught descriptor in one approximate nearest-neighbour index
        (FLANN: LSH for binary ORB, k-d trees for SIFT).  Brute force is
        exact but takes seconds per frame on a Raspberry-Pi-class CPU."""
        if self._index is None:
            des = np.concatenate([c.descriptors for c in self.cards])
            ids = np.concatenate([np.full(len(c.descriptors), i, np.int32) for i, c in enumerate(self.cards)])
            if _norm(self.method) == cv2.NORM_HAMMING:
                params = {"algorithm": 6, "table_number": 8, "key_size": 20, "multi_probe_level": 1}
            else:
                des = des.astype(np.float32)
                params = {"algorithm": 1, "trees": 4}
            matcher = cv2.FlannBasedMatcher(params, {"checks": 64})
            matcher.add([des])
            matcher.train()
            self._index = (des, ids, matcher)
        return self._index

    def _candidate_matches(self, q_des: np.ndarray) -> dict[int, list[tuple[int, int]]]:
        """Query descriptor -> nearest taught descriptor, kept when clearly
        nearer than the next taught descriptor; grouped by card:
        card id -> [(query index, face point index)]."""
        des, ids, matcher = self._db()
        if q_des.dtype != des.dtype:
            q_des = q_des.astype(des.dtype)
        offsets = np.cumsum([0] + [len(c.descriptors) for c in self.cards])
        by_card: dict[int, list[tuple[int, int]]] = {}
        # a close match: a quarter of the bits (binary) or of a unit SIFT vector (512)
        near = 0.25 * des.shape[1] * 8 if _norm(self.method) == cv2.NORM_HAMMING else 128.0
        for pair in matcher.knnMatch(q_des, k=2):
            if len(pair) < 2:
                continue
            m, n = pair
            cid = int(ids[m.trainIdx])
            # Lowe's ratio test; two near neighbours on the same card (repeated
            # print texture) are no ambiguity about which card it is
            if m.distance < RATIO * n.distance or (cid == ids[n.trainIdx] and m.distance < near):
                by_card.setdefault(cid, []).append((m.queryIdx, m.trainIdx - int(offsets[cid])))
        return by_card

    def _verify(self, cid: int, pairs: list[tuple[int, int]], q_pts: np.ndarray, q_image: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, float] | None:
        """Robust homography face -> image (MAGSAC++, OpenCV's USAC: finds the
        card among 90 % wrong matches where plain RANSAC needs 10x the time),
        then the look of the whole face:
        (inliers, outline, inlier mask, similarity) or None.

        The second check matters because the cards of one game share a
        template (frame, title bar, type banner, the same font's glyphs), so an
        untaught card can gather a dozen consistent matches on the template
        alone; its artwork, warped back onto the taught face, does not look
        like the taught artwork."""
        if len(pairs) < MIN_INLIERS:
            return None
        card = self.cards[cid]
        src = card.points[[p[1] for p in pairs]].reshape(-1, 1, 2)
        dst = q_pts[[p[0] for p in pairs]].reshape(-1, 1, 2)
        H, mask = cv2.findHomography(src, dst, cv2.USAC_MAGSAC, 6.0, maxIters=2000, confidence=0.995)
        if H is None:
            return None
        mask = mask.ravel().astype(bool)
        n = int(mask.sum())
        if n < MIN_INLIERS:
            return None
        q = _plausible(H, q_image.shape)
        if q is None:
            return None
        # inliers must be spread over the face, not a single clump; the look
        # is judged where they are (a card partly under another still counts)
        visible = _visible_part(src.reshape(-1, 2)[mask])
        if visible is None:
            return None
        sim = _similarity(card.thumb, q_image, H, self._template, visible)
        if sim < MIN_SIMILARITY:
            return None
        return n, q, mask, sim

    @staticmethod
    def _confidence(best: int, runner_up: int, similarity: float) -> float:
        """0..1: enough inliers (saturating at 4x the minimum), well ahead of
        any other taught card, and a face that looks like the taught one."""
        strength = min(1.0, best / (4 * MIN_INLIERS))
        margin = 1.0 - runner_up / best if best else 0.0
        look = min(1.0, max(0.0, (similarity - MIN_SIMILARITY) / (0.8 - MIN_SIMILARITY)))
        return float(max(0.0, min(1.0, strength * margin * (0.5 + 0.5 * look))))

    def match(self, image: np.ndarray, max_side: int = 800) -> Match | None:
        """Which taught card ``image`` (a crop around one card, or a photo of
        one) shows, or None ("unknown") when no taught card matches with a
        geometrically consistent homography."""
        if not self.cards or image is None or image.size == 0:
            return None
        scale = min(1.0, max_side / max(image.shape[:2]))
        img = image if scale == 1.0 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        q_pts, q_des = self._features(img, self._crop_detector)
        if q_des is None or len(q_pts) < MIN_INLIERS:
            return None
        by_card = self._candidate_matches(q_des)
        ranked = sorted(by_card, key=lambda c: len(by_card[c]), reverse=True)[:4]
        results = []
        for cid in ranked:
            v = self._verify(cid, by_card[cid], q_pts, img)
            if v is not None:
                results.append((v[0], cid, v[1], v[3]))
        if not results:
            return None
        results.sort(key=lambda r: r[0], reverse=True)
        n, cid, quad, sim = results[0]
        runner = results[1][0] if len(results) > 1 else 0
        card = self.cards[cid]
        outline = tuple((float(x) / scale, float(y) / scale) for x, y in quad)
        return Match(card.name, card.type, n, self._confidence(n, runner, sim), outline, sim)

    def find_all(self, frame: np.ndarray, max_side: int = 1600, max_copies: int = 4) -> list[Match]:
        """Every taught card in a whole table frame.

        The whole frame is matched at once (commercial faces are full-bleed
        colour, which the white-paper card finder of vision/cards.py does not
        outline reliably); each card's matches are explained by one homography
        after another (RANSAC, remove its inliers, again) so several copies of
        a card are each found.  Where two found outlines overlap by more
        than :data:`MAX_OVERLAP`, the one with more inliers stands (cards lying partly on each other share less)."""
        if not self.cards or frame is None or frame.size == 0:
            return []
        scale = min(1.0, max_side / max(frame.shape[:2]))
        img = frame if scale == 1.0 else cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if img.ndim == 2:
            img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
        # about one feature per 150 px^2: dense enough for cards 150 px wide
        n = int(np.clip(img.shape[0] * img.shape[1] / 150, 2000, 10000))
        if self.method == "orb":
            self._frame_detector.setMaxFeatures(n)
        elif self.method == "sift":
            self._frame_detector.setNFeatures(n)
        q_pts, q_des = self._features(img, self._frame_detector)
        if q_des is None or len(q_pts) < MIN_INLIERS:
            return []
        by_card = self._candidate_matches(q_des)
        found: list[tuple[int, int, np.ndarray, float]] = []
        for cid, pairs in by_card.items():
            for _ in range(max_copies):
                v = self._verify(cid, pairs, q_pts, img)
                if v is None:
                    break
                n, quad, mask, sim = v
                found.append((n, cid, quad, sim))
                # drop this copy's inliers and every match inside its outline
                poly = quad.reshape(-1, 1, 2).astype(np.float32)
                pairs = [p for p, m in zip(pairs, mask, strict=True) if not m and cv2.pointPolygonTest(poly, tuple(map(float, q_pts[p[0]])), False) < 0]
        found.sort(key=lambda f: f[0], reverse=True)
        kept: list[list] = []  # [inliers, card, outline, similarity, best rival inliers]
        for n, cid, quad, sim in found:
            clash = next((k for k in kept if _overlap(quad, k[2]) > MAX_OVERLAP), None)
            if clash is None:
                kept.append([n, cid, quad, sim, 0])
            else:
                clash[4] = max(clash[4], n)
        out = []
        for n, cid, quad, sim, rival in kept:
            card = self.cards[cid]
            outline = tuple((float(x) / scale, float(y) / scale) for x, y in quad)
            out.append(Match(card.name, card.type, n, self._confidence(n, rival, sim), outline, sim))
        return out


def _thumb(image: np.ndarray) -> np.ndarray:
    """A face at :data:`THUMB` size, each colour channel zero-mean, unit-norm."""
    small = cv2.GaussianBlur(cv2.resize(image, THUMB, interpolation=cv2.INTER_AREA).astype(np.float32), (3, 3), 0.8)
    return _unit(small)


def _unit(x: np.ndarray) -> np.ndarray:
    x = x - x.reshape(-1, x.shape[-1]).mean(0)
    n = np.sqrt((x.reshape(-1, x.shape[-1]) ** 2).sum(0))
    return x / np.where(n > 0, n, 1) / np.sqrt(x.shape[-1])


def _masked_unit(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``x`` restricted to ``mask`` (pixels x channels), each channel zero-mean, unit-norm."""
    v = x[mask]
    v = v - v.mean(0)
    n = np.sqrt((v**2).sum(0))
    return v / np.where(n > 0, n, 1) / np.sqrt(v.shape[1])


def _similarity(thumb: np.ndarray, query: np.ndarray, H: np.ndarray, template: np.ndarray | None, visible: np.ndarray | None = None) -> float:
    """How much the image region ``H`` maps the taught face to looks like
    that face: correlation at :data:`THUMB` size, per colour channel (so lamp
    brightness, contrast and tint do not count).  With a ``template`` (the
    mean of all taught faces, i.e. the frame, title bar and banner every card
    of a game shares) it is the partial correlation with the template taken
    out, so only what tells this card from the others counts.  ``visible``
    (a THUMB-sized bool mask) limits the comparison to the part of the face
    that is not covered (by a hand or another card)."""
    S = np.diag([FACE_W / THUMB[0], FACE_H / THUMB[1], 1.0])  # thumb px -> face px
    back = cv2.warpPerspective(query, H @ S, THUMB, flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    back = cv2.GaussianBlur(back.astype(np.float32), (3, 3), 0.8)
    m = np.ones(thumb.shape[:2], bool) if visible is None else visible
    a, b = _masked_unit(thumb, m), _masked_unit(back, m)
    r_ab = float((a * b).sum())
    if template is None:
        return r_ab
    t = _masked_unit(template, m)
    r_at, r_bt = float((a * t).sum()), float((b * t).sum())
    den = np.sqrt(max(1e-9, (1 - r_at**2) * (1 - r_bt**2)))
    return float((r_ab - r_at * r_bt) / den)


def _visible_part(face_pts: np.ndarray) -> np.ndarray | None:
    """The part of the face the inliers cover (a disc around each, so an L
    left uncovered by another card stays an L), as a THUMB-sized mask: where
    the card is seen.  None when that is under :data:`MIN_VISIBLE` of the face
    (too little seen to judge its look)."""
    pts = face_pts * np.float32([THUMB[0] / FACE_W, THUMB[1] / FACE_H])
    mask = np.zeros((THUMB[1], THUMB[0]), np.uint8)
    for x, y in np.round(pts).astype(int):
        cv2.circle(mask, (int(x), int(y)), 6, 1, -1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    if mask.sum() < MIN_VISIBLE * mask.size:
        return None
    return mask.astype(bool)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over the smaller of two convex outlines."""
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    small = min(abs(cv2.contourArea(np.float32(a))), abs(cv2.contourArea(np.float32(b))))
    return float(inter) / small if small > 0 else 0.0


# ------------------------------------------------------------ for the command line


@dataclass(frozen=True)
class Taught:
    """What ``teach_photo`` did: the card as taught, whether a card outline
    was found in the photo (else the whole photo was taken as the face), and
    where the registry was saved."""

    name: str
    type: str
    outline_found: bool
    features: int
    replaced: bool
    saved_to: Path


def teach_photo(game: str, name: str, card_type: str, photo: str | Path, root: Path | None = None, method: str = DEFAULT_METHOD) -> Taught:
    """Teach one card of ``game`` from a photo file and save the registry
    (``companion vision teach --game GAME --name NAME --type TYPE PHOTO``).
    Raises ValueError with a sentence for the player on bad input; nothing is
    saved then."""
    directory = root if root is not None else taught_dir(game)
    image = cv2.imread(str(photo), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"cannot read {str(photo)!r} as an image (JPEG, PNG ...)")
    reg = FeatureCards.load(directory, method)
    replaced = name.strip() in reg
    outline = None if is_card_crop(image) else find_card_outline(image)
    card = reg.add(name, card_type, image, outline=outline)
    path = reg.save(directory)
    return Taught(card.name, card.type, outline is not None, len(card.points), replaced, path)


def load_taught(game: str, root: Path | None = None, method: str = DEFAULT_METHOD) -> FeatureCards | None:
    """The taught cards of ``game``, or None when none were ever taught."""
    reg = FeatureCards.load(root if root is not None else taught_dir(game), method)
    return reg if len(reg) else None


# ------------------------------------------------------------ on the table camera


@dataclass(frozen=True)
class TaughtSighting(Sighting):
    """A taught card the table camera recognised: vision's :class:`~vision.results.Sighting`
    of kind ``"taught"`` with the registered ``name`` and ``type``.  Its label
    (``"taught:<name>"``) is what the stability filter tracks, so two taught
    cards in the same place are told apart by name, as read cards are by index."""

    name: str = ""
    type: str = ""

    @property
    def label(self) -> str:
        return f"taught:{self.name}"


def with_taught(result: FrameResult, matches: list[Match]) -> FrameResult:
    """``result`` (vision's pipeline on one frame) with the taught cards found in
    that frame added as :class:`TaughtSighting` (in mat millimetres when the mat
    is calibrated).

    Why replace: a commercial face is full-bleed colour, so the pipeline sees it
    as an unreadable paper blob or even as a plain back.  Whatever the pipeline
    found with its centre inside a recognised card's outline is that card, so
    it is dropped; printed markers never lie on a commercial face, but they are
    kept all the same (a marker is certain)."""
    if not matches:
        return result
    outlines = [np.float32(m.outline).reshape(-1, 1, 2) for m in matches]
    kept = [s for s in result.sightings if s.kind == "marker" or not any(
        cv2.pointPolygonTest(o, s.centre_px, False) >= 0 for o in outlines)]
    next_id = max((s.id for s in result.sightings), default=-1) + 1
    added = []
    for i, m in enumerate(matches):
        mm = None
        if result.to_mat is not None:
            pts = cv2.perspectiveTransform(np.float64(m.outline).reshape(-1, 1, 2), np.float64(result.to_mat))
            mm = tuple((float(x), float(y)) for x, y in pts.reshape(-1, 2))
        added.append(TaughtSighting(next_id + i, "taught", m.confidence, tuple(m.outline), mm, name=m.name,
                                    type=m.type))
    return replace(result, sightings=[*kept, *added])
