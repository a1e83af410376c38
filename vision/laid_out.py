"""Cards laid apart in a photo, told from their paper regions (for teaching
a deck from photos of its suits laid out, vision.teach).

A card laid apart is one region of paper, except where its face cuts the
paper: a court card's picture leaves a frame round it, or strips and pieces
where the picture reaches the card's edge, and a lamp's glare cuts a face in
two (paper is told from glare by colour).  So the regions are put together
again: a region of a third of a card, or whose box is a card's (a court
card's frame), starts a card, unless its middle lies in the box of a card
started already; a smaller one joins the card whose box holds it; pieces in
no card's box join one another while their box could still be one card's,
and make a card when it is one.

Boxes, not distances: a photo without a mat is measured in pseudo
millimetres (its pixels scaled by the cards lying whole), and a camera tilted
35 degrees makes its near cards half as large again as its far ones there.
Pure: paper regions (vision.cards.Blob, plane mm) in, cards out."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry as g
from .cards import Blob, inside

CARD_AREA = g.CARD_W * g.CARD_H
#: a card's box, a tenth larger, holds its own pieces (a picture's strips reach its edge)
BOX_SLACK = 1.1
#: pieces make one card while their box is at most this much larger than the
#: nearest card found whole (two cards a finger apart span far more)
PIECES_SLACK = 1.15


@dataclass(frozen=True)
class LaidCard:
    """One card: its middle (plane mm), its paper's area (mm^2) and the
    indices of the paper regions that are its."""

    centre: np.ndarray
    area: float
    regions: tuple[int, ...]


def card_box(size) -> bool:
    """Whether a box's sides (mm, either way round) may be a card's in a photo
    without a mat: its shape 0.55-1 (a card's is 0.72; the pseudo-mm of a
    camera tilted 35 degrees squash a card's length to about its width) and
    its length within 40 % of a card's (near cards that much larger than far
    ones)."""
    a, b = sorted(float(x) for x in size)
    return 0.55 <= a / max(b, 1e-6) and 0.6 * g.CARD_H <= b <= 1.4 * g.CARD_H


def cards_laid_apart(blobs: list[Blob]) -> list[LaidCard]:
    """The cards the paper regions ``blobs`` make (see the module docstring),
    those started from the largest regions first, then those put together
    from pieces."""
    starts: list[tuple[np.ndarray, list[int]]] = []  # (box corners, regions)
    pieces: list[int] = []

    def holder(centre: np.ndarray) -> int | None:
        """The card whose box holds ``centre`` (the nearest of several)."""
        d = [float(np.hypot(*(blobs[r[0]].rect[0] - centre))) if inside(centre, box) else np.inf for box, r in starts]
        return int(np.argmin(d)) if d and min(d) < np.inf else None

    for bi in sorted(range(len(blobs)), key=lambda k: -blobs[k].area):
        blob = blobs[bi]
        k = holder(np.float64(blob.rect[0]))
        if k is not None:
            starts[k][1].append(bi)
        elif blob.area >= CARD_AREA / 3 or card_box(blob.rect[1]):
            (cx, cy), (w, h), angle = blob.rect
            starts.append((cv2.boxPoints(((cx, cy), (BOX_SLACK * w, BOX_SLACK * h), angle)), [bi]))
        else:
            pieces.append(bi)
    # the nearest card found whole tells a piece how large a card is where it lies
    whole = [(np.float64(blobs[r[0]].rect[0]), sorted(blobs[r[0]].rect[1])) for _, r in starts if card_box(blobs[r[0]].rect[1])]
    groups: list[list[int]] = []
    for bi in pieces:
        centre = np.float64(blobs[bi].rect[0])
        k = holder(centre)
        if k is not None:
            starts[k][1].append(bi)
            continue
        if whole:
            size = min(whole, key=lambda x: float(np.hypot(*(x[0] - centre))))[1]
            limit = (PIECES_SLACK * size[0], PIECES_SLACK * size[1])
        else:
            limit = (1.4 * g.CARD_W, 1.4 * g.CARD_H)
        for members in groups:
            a, b = sorted(_box(blobs, members + [bi])[1])
            if a <= limit[0] and b <= limit[1]:
                members.append(bi)
                break
        else:
            groups.append([bi])
    out = [LaidCard(np.float64(blobs[r[0]].rect[0]), sum(blobs[i].area for i in r), tuple(r)) for _, r in starts]
    for members in groups:
        box = _box(blobs, members)
        if card_box(box[1]):
            out.append(LaidCard(np.float64(box[0]), sum(blobs[i].area for i in members), tuple(members)))
    return out


def _box(blobs: list[Blob], members: list[int]):
    """The minimum-area box round regions ``members`` (cv2.minAreaRect)."""
    return cv2.minAreaRect(np.vstack([blobs[i].contour_plane for i in members]).astype(np.float32))
