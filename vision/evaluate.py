"""Scoring a :class:`FrameResult` against a generated scene's ground truth.

Used by bench/vision.py and the tests.  A face card counts as *expected* when
at least one of its corner indices is fully uncovered; it is *found* when a
card sighting was read within 9 mm of where a reading of one of its corners
is placed (one sighting per card; readings at an uncovered index first, then the
nearest), and *read* when rank and
suit also match.  A face card not found is *reported unknown* when an
``unknown`` sighting is anchored there (its index was seen but not read: the
referee knows a card lies there and can ask for it).  A sighting that
matches no card is *false*; it is blamed on an occluder when it overlaps one."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .cards import inside
from .results import FrameResult
from .scene import SceneTruth


@dataclass
class Score:
    expected: int = 0
    found: int = 0
    read: int = 0
    reported_unknown: int = 0
    misread: list[tuple[str, str]] = field(default_factory=list)
    false_cards: int = 0
    false_on_occluder: int = 0
    backs_expected: int = 0
    backs_found: int = 0
    printed_expected: int = 0
    printed_found: int = 0
    #: per expected face card: (its scale in image px per card mm, found, read right)
    outcomes: list[tuple[float, bool, bool]] = field(default_factory=list)
    #: of one frame (add() does not sum it): each card sighting matched to a
    #: face card, by sighting id, and whether it reads that card right
    sightings_right: dict[int, bool] = field(default_factory=dict)

    def add(self, other: Score) -> None:
        for k in ("expected", "found", "read", "reported_unknown", "false_cards", "false_on_occluder", "backs_expected", "backs_found", "printed_expected", "printed_found"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.misread += other.misread
        self.outcomes += other.outcomes


def _index_spots(card, H: np.ndarray) -> np.ndarray:
    """Where a reader places a reading of each index corner: 5 mm in along the
    short edge and 8 mm along the long edge (image px).  Only the corners that
    carry an index (top-left and bottom-right, all four on a four-index deck):
    a card's bare corner can lie right beside another card's index in a
    staggered stack, and matching readings there paired cards with their
    neighbours' readings and counted them as misreads."""
    c = np.asarray(card.corners_mm, np.float64)
    ex = (c[1] - c[0]) / np.linalg.norm(c[1] - c[0])
    ey = (c[3] - c[0]) / np.linalg.norm(c[3] - c[0])
    mm = np.array([c[0] + 5 * ex + 8 * ey, c[1] - 5 * ex + 8 * ey, c[2] - 5 * ex - 8 * ey, c[3] + 5 * ex - 8 * ey])
    which = [0, 1, 2, 3] if len(card.index_corners_px) == 4 else [0, 2]
    return cv2.perspectiveTransform(mm[which].reshape(-1, 1, 2).astype(np.float32), H).reshape(-1, 2)


def _spots_uncovered(card) -> list[bool]:
    """Per spot of :func:`_index_spots` (corners 0, 2 or 0-3), whether its index lies uncovered
    (``index_visible`` runs top-left, bottom-right, then top-right, bottom-left)."""
    vis = list(card.index_visible)
    if len(vis) == 4:
        return [vis[0], vis[2], vis[1], vis[3]]
    return vis if len(vis) == 2 else [True, True]


def card_scale(card) -> float:
    """Image pixels per millimetre over a card's face (the square root of its
    areas' ratio): where a camera tilts, cards on the far side are smaller."""
    return float(np.sqrt(cv2.contourArea(np.float32(card.corners_px)) / cv2.contourArea(np.float32(card.corners_mm))))


def score(result: FrameResult, truth: SceneTruth) -> Score:
    ppm = float(np.sqrt(abs(np.linalg.det(truth.homography[:2, :2] / truth.homography[2, 2]))))
    tol = 9 * ppm  # a reading is placed 5 mm x 8 mm in from its corner
    s = Score()
    used: set[int] = set()
    faces = [c for c in truth.cards if c.kind == "face" and c.readable]
    s.expected = len(faces)
    pairs = []
    for ci, card in enumerate(faces):
        spots = _index_spots(card, truth.homography)
        shown = _spots_uncovered(card)
        for sg in result.sightings:
            if sg.kind != "card":
                continue
            d, k = min((np.linalg.norm(np.array(a) - sp), k) for a in sg.anchors_px for k, sp in enumerate(spots))
            if d < tol:
                pairs.append((not shown[k], d, ci, sg))
    matched_cards: set[int] = set()
    right: dict[int, bool] = {}
    # A reading at an uncovered index belongs to that card before any card whose index lies under it
    # there (a card laid square on another: its index covers the other's, a few pixels apart).
    for *_key, ci, sg in sorted(pairs, key=lambda x: x[:2]):
        if ci in matched_cards or sg.id in used:
            continue
        matched_cards.add(ci)
        used.add(sg.id)
        s.found += 1
        card = faces[ci]
        right[ci] = s.sightings_right[sg.id] = (sg.rank, sg.suit) == (card.rank, card.suit)
        if right[ci]:
            s.read += 1
        else:
            s.misread.append((f"{card.rank} {card.suit}", f"{sg.rank} {sg.suit}"))
    s.outcomes = [(card_scale(card), ci in right, right.get(ci, False)) for ci, card in enumerate(faces)]
    unknown = [sg for sg in result.sightings if sg.kind == "unknown" and sg.id not in used]
    for ci, card in enumerate(faces):
        if ci in matched_cards or not unknown:
            continue
        spots = _index_spots(card, truth.homography)
        near = [sg for sg in unknown if min(np.linalg.norm(np.array(a) - sp) for a in sg.anchors_px for sp in spots) < tol]
        if near:
            s.reported_unknown += 1
    for card in truth.cards:
        centre = card.corners_px.mean(0)
        if card.kind == "face":
            continue
        elif card.kind == "printed":
            if card.readable:
                s.printed_expected += 1
            for sg in result.sightings:
                if sg.kind == "marker" and sg.marker_id == card.marker_id:
                    used.add(sg.id)
                    if card.readable:
                        s.printed_found += 1
                    break
        else:
            if card.readable:
                s.backs_expected += 1
            for sg in result.sightings:
                if sg.kind == "face_down" and np.linalg.norm(np.array(sg.centre_px) - centre) < tol * 1.5:
                    used.add(sg.id)
                    if card.readable:
                        s.backs_found += 1
                    break
    h, w = truth.occluder_mask.shape
    for sg in result.sightings:
        if sg.id in used:
            continue
        # a sighting of a real card that we did not require (partly covered) is not false
        if any(inside(a, c.corners_px) for a in sg.anchors_px for c in truth.cards):
            continue
        s.false_cards += 1
        m = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(m, np.round(np.array(sg.outline_px)).astype(np.int32), 1)
        if (truth.occluder_mask & (m > 0)).any():
            s.false_on_occluder += 1
    return s
