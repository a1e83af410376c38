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
