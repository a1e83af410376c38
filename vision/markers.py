"""ArUco markers: one dictionary for the whole table, id ranges reserved per use.

One dictionary means one detector pass finds mat markers, printed cards and
marked card backs alike.  Every printed copy of a card has its own id, so two
copies of the same Keener card are told apart; the game (not vision) maps an id
to a card.  A marker on a card back says only what the back may say.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: The dictionary every marker on the table comes from (4x4 bits: the largest
#: cells for a given printed size, so small corner markers still read).
DICTIONARY_NAME = "DICT_4X4_1000"
DICTIONARY = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_1000)


@dataclass(frozen=True)
class MarkerRange:
    """A block of marker ids reserved for one use."""

    name: str
    first: int
    last: int
    kind: str  # "mat" | "back" | "card"
    meaning: str

    def __contains__(self, marker_id: int) -> bool:
        return self.first <= marker_id <= self.last


#: The table of reserved ids.  Printed cards of a game take ids from its
#: range(s) in print order; a game may hold more than one range (Two Freakin'
#: Swords: 400-599, then 800-919), filled one after the other
#: (:func:`printed_marker`, :func:`printed_index`); backs carry a fixed id per side.
MARKER_RANGES: tuple[MarkerRange, ...] = (
    MarkerRange("mat", 0, 3, "mat", "playmat corners: 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left"),
    MarkerRange("back:striking", 4, 4, "back", "Two Freakin' Swords card back: Striking"),
    MarkerRange("back:defending", 5, 5, "back", "Two Freakin' Swords card back: Defending"),
    MarkerRange("back:keener", 6, 6, "back", "Keener card back: a Keener card lies face down (never which one)"),
    MarkerRange("back:reserved", 7, 99, "back", "reserved for future card backs"),
    MarkerRange("keener", 100, 399, "card", "Keener printed cards, one id per printed copy"),
    MarkerRange("two-freakin-swords", 400, 599, "card", "Two Freakin' Swords printed cards, decks 1-5"),
    MarkerRange("double-side-play", 600, 799, "card", "Double Side Play printed cards"),
    MarkerRange("two-freakin-swords", 800, 919, "card", "Two Freakin' Swords printed cards, decks 6-8"),
    MarkerRange("spare", 920, 999, "card", "unassigned printed cards"),
)

MAT_IDS = (0, 1, 2, 3)
BACK_MEANINGS = {4: "striking", 5: "defending"}


def marker_range(marker_id: int) -> MarkerRange | None:
    """The reserved range an id belongs to, or None for an id outside the table."""
    for r in MARKER_RANGES:
        if marker_id in r:
            return r
    return None


def game_ranges(game: str) -> tuple[MarkerRange, ...]:
    """The card ranges of ``game`` in print order (empty for a game without printed cards)."""
    return tuple(r for r in MARKER_RANGES if r.name == game and r.kind == "card")


def printed_capacity(game: str) -> int:
    """How many printed cards of ``game`` have a marker id of their own."""
    return sum(r.last - r.first + 1 for r in game_ranges(game))


def printed_marker(game: str, index: int) -> int:
    """The marker id of printed card ``index`` (from 0) of ``game``, across its ranges in order;
    ValueError when the game's ranges have no room for it."""
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise ValueError(f"a printed card index is a whole number of 0 or more, not {index!r}")
    rest = index
    for r in game_ranges(game):
        size = r.last - r.first + 1
        if rest < size:
            return r.first + rest
        rest -= size
    spans = ", ".join(f"{r.first}-{r.last}" for r in game_ranges(game)) or "none"
    raise ValueError(f"{game}'s marker ranges ({spans}) hold {printed_capacity(game)} printed cards; "
                     f"there is no marker for printed card {index}")


def printed_index(marker_id: int) -> tuple[str, int] | None:
    """A printed card's marker id -> (game, printed index), counting through the game's earlier
    ranges; None for a mat, back, spare or unknown id."""
    found = marker_range(int(marker_id))
    if found is None or found.kind != "card" or found.name == "spare":
        return None
    index = 0
    for r in game_ranges(found.name):
        if r is found:
            return found.name, index + int(marker_id) - r.first
        index += r.last - r.first + 1
    return None  # pragma: no cover - found is one of its game's ranges


def back_meaning(marker_id: int) -> str | None:
    """What a card-back marker says (e.g. "striking"), or None if it is not a back marker."""
    return BACK_MEANINGS.get(marker_id)


def make_detector(fast: bool = True) -> cv2.aruco.ArucoDetector:
    """A detector for the table dictionary.  ``fast`` uses fewer threshold window
    sizes (a third of the default work), enough for printed, flat markers."""
    params = cv2.aruco.DetectorParameters()
    if fast:
        params.adaptiveThreshWinSizeMin = 5
        params.adaptiveThreshWinSizeMax = 25
        params.adaptiveThreshWinSizeStep = 10
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(DICTIONARY, params)


def _codes(dictionary: cv2.aruco.Dictionary) -> np.ndarray:
    """Every marker's inner bits as a whole number (row by row, white = 1),
    in each of its four turns: (markers, 4)."""
    # each marker's row holds its turns one after the other, two bytes each
    b = dictionary.bytesList.reshape(len(dictionary.bytesList), 4, 2).astype(np.int64)
    return b[:, :, 0] << 8 | b[:, :, 1]


class ShortlistDetector:
    """The same markers, corners and ids as ``cv2.aruco.ArucoDetector(dictionary,
    params)``, found for a fraction of the cost.

    OpenCV looks every candidate quad up in the whole dictionary, one marker
    after another (in OpenCV 5 a few microseconds per marker: for the
    1000-marker table dictionary most of a search's time).  Here the candidate
    quads are found first as OpenCV finds them (adaptive thresholds, contours,
    convex four-sided outlines); each quad's cells are read as OpenCV reads
    them (the quad warped to 4 px per cell, Otsu's threshold, white share per
    cell) and only the markers within ``reach`` cells of that reading (in any
    turn; a cell exactly half white matches either colour) go into a small
    dictionary for OpenCV's own search.  The table dictionary corrects no
    bits, so a marker is identified only when every cell agrees with it: it is
    on the short list, and the search over the short list finds exactly what
    the search over the whole dictionary finds (``reach`` covers a quad OpenCV
    places a little differently).  No marker near any quad: no search at all.

    Meant for small crops around marker-sized spots (the pipeline's marker
    search: 7-9 ms -> about 2 ms for a crop holding a printed card).  On a
    whole frame, finding the quads in Python costs more than the short list
    saves; use :func:`make_detector` there."""

    def __init__(self, params: cv2.aruco.DetectorParameters, dictionary: cv2.aruco.Dictionary = DICTIONARY, reach: int = 1) -> None:
        if dictionary.markerSize != 4 or params.markerBorderBits != 1 or dictionary.maxCorrectionBits != 0:
            raise ValueError("the short list reads 4x4 markers with a one-cell border from a dictionary that corrects no bits")
        self._dictionary = dictionary
        self._params = params
        self._reach = reach
        self._by_code: dict[int, list[int]] = {}
        for marker_id, turns in enumerate(_codes(dictionary).tolist()):
            for code in set(turns):
                self._by_code.setdefault(code, []).append(marker_id)
        self._searchers: dict[tuple[int, ...], cv2.aruco.ArucoDetector] = {}
        self._probe = self._searcher((_PROBE_ID,))

    def getDictionary(self) -> cv2.aruco.Dictionary:  # noqa: N802 - cv2.aruco.ArucoDetector's name
        return self._dictionary

    def getDetectorParameters(self) -> cv2.aruco.DetectorParameters:  # noqa: N802
        return self._params

    def setDetectorParameters(self, params: cv2.aruco.DetectorParameters) -> None:  # noqa: N802
        self.__init__(params, self._dictionary, self._reach)

    def candidates(self, gray: np.ndarray) -> list[np.ndarray]:
        """Every quad OpenCV's detector would try to identify in ``gray`` (4x2,
        clockwise), as its _detectInitialCandidates finds them (a quad found at
        several threshold windows once)."""
        p = self._params
        side = max(gray.shape[:2])
        lo, hi = int(p.minMarkerPerimeterRate * side), int(p.maxMarkerPerimeterRate * side)
        out: dict[tuple[int, ...], tuple] = {}
        for win in range(p.adaptiveThreshWinSizeMin, p.adaptiveThreshWinSizeMax + 1, p.adaptiveThreshWinSizeStep):
            binary = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, win | 1, p.adaptiveThreshConstant)
            contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
            sizes = np.fromiter(map(len, contours), np.int64, len(contours))
            for k in np.flatnonzero((sizes >= lo) & (sizes <= hi)).tolist():
                c, n = contours[k], int(sizes[k])
                q = cv2.approxPolyDP(c, n * p.polygonalApproxAccuracyRate, True)
                if len(q) != 4 or not cv2.isContourConvex(q):
                    continue
                (ax, ay), (bx, by), (cx, cy), (dx, dy) = q.reshape(4, 2).tolist()
                sides = ((ax - bx) ** 2 + (ay - by) ** 2, (bx - cx) ** 2 + (by - cy) ** 2, (cx - dx) ** 2 + (cy - dy) ** 2, (dx - ax) ** 2 + (dy - ay) ** 2)
                if min(sides) < (n * p.minCornerDistanceRate) ** 2:
                    continue
                if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) < 0:  # clockwise, as OpenCV orders them
                    (bx, by), (dx, dy) = (dx, dy), (bx, by)
                out.setdefault((ax, ay, bx, by, cx, cy, dx, dy), ((ax, ay), (bx, by), (cx, cy), (dx, dy)))
        return [np.float32(q) for q in out.values()]

    def _cells(self, gray: np.ndarray, quad: np.ndarray) -> tuple[int, int, int]:
        """(code, mask of undecided cells, border cells not black) of a quad,
        as OpenCV's _extractCellPixelRatio reads them (4 px per cell, no margin)."""
        M = cv2.getPerspectiveTransform(np.float32(quad), _CANONICAL)
        img = cv2.warpPerspective(gray, M, (24, 24), flags=cv2.INTER_NEAREST)
        mean, std = cv2.meanStdDev(img[2:22, 2:22])
        if std[0, 0] < self._params.minOtsuStdDev:
            return (0xFFFF, 0, 20) if mean[0, 0] > 127 else (0, 0, 0)
        binary = cv2.threshold(img, 125, 1, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1]
        white = binary.reshape(6, 4, 6, 4).sum(axis=(1, 3))
        inner = white[1:5, 1:5].ravel()
        border = int((white >= 8).sum() - (inner >= 8).sum())  # OpenCV: white share above 0.49
        return int(_WEIGHTS[inner > 8].sum()), int(_WEIGHTS[inner == 8].sum()), border

    def shortlist(self, gray: np.ndarray, quads) -> list[int]:
        """Ids of the markers that any of ``quads`` (4x2 corners in ``gray``) may be:
        within ``reach`` cells of its reading, an undecided cell either way."""
        near: set[int] = set()
        # OpenCV drops a quad with more border errors than this before looking it up (one spare)
        most = int(16 * self._params.maxErroneousBitsInBorderRate) + 1
        for q in quads:
            code, undecided, border = self._cells(gray, q)
            if border > most:
                continue
            free = [w for w in _BITS if undecided & w]
            if len(free) > 4:  # hardly a marker, but not ruled out: every marker
                near.update(range(len(self._dictionary.bytesList)))
                continue
            codes = {code & ~undecided}
            for w in free:
                codes |= {c | w for c in codes}
            for _ in range(self._reach):
                codes |= {c ^ w for c in codes for w in _BITS}
            for c in codes:
                near.update(self._by_code.get(c, ()))
        return sorted(near)

    def _searcher(self, ids: tuple[int, ...]) -> cv2.aruco.ArucoDetector:
        det = self._searchers.get(ids)
        if det is None:
            if len(self._searchers) > 64:
                self._searchers.clear()
            d = cv2.aruco.Dictionary(self._dictionary.bytesList[list(ids)].copy(), 4, 0)
            det = self._searchers[ids] = cv2.aruco.ArucoDetector(d, self._params)
        return det

    def detectMarkers(self, gray: np.ndarray):  # noqa: N802
        """As ``cv2.aruco.ArucoDetector.detectMarkers``: (corners, ids or None, rejected)."""
        # OpenCV's own search with a one-marker dictionary first: where it
        # rejects no quad, the whole dictionary has nothing more to find
        corners, ids, rejected = self._probe.detectMarkers(gray)
        if not rejected:
            return corners, ids, rejected
        todo = set(self.shortlist(gray, self.candidates(gray)))
        if not todo - {_PROBE_ID}:
            return corners, ids, rejected  # the same search again
        if ids is not None:
            todo.add(_PROBE_ID)
        todo = tuple(sorted(todo))
        corners, ids, rejected = self._searcher(todo).detectMarkers(gray)
        if ids is not None:
            ids = np.asarray(todo, np.int32)[ids.ravel()].reshape(ids.shape)
        return corners, ids, rejected


#: a 4x4 marker's cells (row by row) as bits of a whole number, first cell highest
_WEIGHTS = 1 << np.arange(15, -1, -1)
_BITS = _WEIGHTS.tolist()
#: the one marker of the first, quad-finding search
_PROBE_ID = 0
#: where OpenCV warps a quad to read its cells: 6 x 6 cells (border included) of 4 px
_CANONICAL = np.float32([[0, 0], [23, 0], [23, 23], [0, 23]])


@dataclass(frozen=True)
class MarkerSighting:
    """One marker seen in a frame: id and its 4 corners in image pixels (marker's
    own top-left, top-right, bottom-right, bottom-left)."""

    marker_id: int
    corners: np.ndarray  # (4, 2) float32, frame pixels


def detect_markers(detector: cv2.aruco.ArucoDetector, gray: np.ndarray, offset=(0, 0), scale: float = 1.0) -> list[MarkerSighting]:
    """Detect markers in ``gray`` (a crop or a downscaled copy of the frame);
    corners are returned in full-frame pixels: ``frame = crop / scale + offset``."""
    corners, ids, _ = detector.detectMarkers(gray)
    out: list[MarkerSighting] = []
    if ids is None:
        return out
    for c, i in zip(corners, ids.ravel(), strict=True):
        pts = c.reshape(4, 2).astype(np.float32) / scale + np.float32(offset)
        out.append(MarkerSighting(int(i), pts))
    return out


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """The marker as a grey image (black/white), ``side_px`` square, no quiet zone."""
    return cv2.aruco.generateImageMarker(DICTIONARY, int(marker_id), int(side_px))
