"""Index corners the reader declined, reported as unknown cards.

The issue asks that anything unreadable be reported as unknown with its
outline, never guessed.  A card whose corners were all declined used to be
reported only when its paper region was about one card (an unread blob); a
card in a staggered Base, under the next card, shares its region with the
others and simply vanished, so the referee could not tell "no card here" from
"a card I cannot read".  Here each such card becomes one ``unknown``
sighting, anchored at its index corners.

What counts: a corner whose patch holds an index layout (the reader cut a
rank and a suit glyph from it: not a bare corner, not a hand's edge), whose
index spot lies in no card already found (a bare corner of a card read at
its other corner lies inside that card), seen one way (the edge assignment
the whole-patch network takes least for junk, when both ways cut glyphs).
Looks at one card (their outlines coincide, :func:`vision.fusion.card_groups`)
make one sighting.

Indices the edge-free finder (:mod:`vision.index_pairs`) placed from their
ink and the reader declined count too (:func:`pair_looks`): a card under
the next one of a stagger often shows its index but no paper corner of its
own, and it vanished the same way.  Only where the card such an index
implies lies partly under a card found (:data:`MIN_UNDER`): with no card
edge to vouch for it, a digit over a digit on a score pad or a page of
rules beside the cards was an unknown card in most frames.

Pure functions: the pipeline gathers the corners and the known outlines."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry as g
from .cards import inside
from .corner_index import PATCH_PPM
from .fusion import FUSION, Look, card_groups
from .index_pairs import CARD_RANK_U

#: where a corner's index sits (plane mm in from the corner along u, v): the
#: anchor of every corner sighting
ANCHOR_U, ANCHOR_V = 5.0, 8.0
#: two card outlines whose centres lie this close (mm) are one card (the
#: pipeline's READ_CARD_MM; a stagger that shows an index moves a card further)
SAME_CENTRE_MM = 10.0
#: an index anchor this close (mm) to another is the same index
SAME_INDEX_MM = 6.0
#: a suit glyph's width over its height, at least: a suit sign is about as
#: wide as it is tall; the slivers of a line (a card's edge, the mat's frame
#: under a lamp) that the edge-free finder may pair are not
MIN_SUIT_ASPECT = 0.35
#: an index found from its ink alone (the edge-free finder) counts only when
#: the card it implies lies this share of its face under a card found
MIN_UNDER = 0.1
#: at most this share of a card's face may look like the table (cards.find_notched_corners' 25 %)
MAX_TABLE_SHARE = 0.25


@dataclass(frozen=True)
class UnreadLook:
    """One way of seeing a declined corner: the look, whether its patch held
    an index layout, and the whole-patch network's junk probability for it
    (1.0 when not asked)."""

    look: Look
    indexed: bool
    junk: float = 1.0


@dataclass(frozen=True)
class UnreadCard:
    """An unknown card: its outline (plane mm) and its index anchors."""

    outline: np.ndarray
    anchors: tuple[np.ndarray, ...]


def index_anchor(point: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Where a card read at the corner ``point`` (edges ``u`` across, ``v``
    down) is anchored: its index, as every stage of the pipeline places it."""
    return point + ANCHOR_U * u + ANCHOR_V * v


def anchor(look: Look) -> np.ndarray:
    return index_anchor(look.point, look.u, look.v)


def pair_looks(key: int, corner: np.ndarray, u: np.ndarray, v: np.ndarray) -> tuple[Look, Look]:
    """The two cards an index found from its ink alone (by the edge-free
    finder, rank over suit along ``v``) may belong to: one lying to its
    ``u`` side, its corner at ``corner`` (where :func:`vision.index_pairs.card_corner`
    places a read pair's card: the index at the card's top-left, as every
    deck prints one), and its mirror image about the rank's middle, lying to
    the other side (a four-index deck's top-right index).  The finder knows
    no card edge that would tell them apart; :func:`unread_cards` keeps the
    first whose card does not lie over bare table."""
    return (
        Look(key, corner, u, v),
        Look(key, corner + 2 * CARD_RANK_U * u, -u, v),
    )


def glyph_centre(
    corner: np.ndarray, u: np.ndarray, v: np.ndarray, rank_box: tuple[int, int, int, int], suit_box: tuple[int, int, int, int]
) -> np.ndarray:
    """The middle (plane mm) of the rank and suit glyphs cut from the patch
    sampled at ``corner`` along ``u``, ``v`` (boxes x, y, w, h in the
    patch's pixels, :data:`vision.corner_index.PATCH_PPM` a mm)."""
    x0, y0 = min(rank_box[0], suit_box[0]), min(rank_box[1], suit_box[1])
    x1 = max(rank_box[0] + rank_box[2], suit_box[0] + suit_box[2])
    y1 = max(rank_box[1] + rank_box[3], suit_box[1] + suit_box[3])
    return corner + ((x0 + x1) / 2 / PATCH_PPM) * u + ((y0 + y1) / 2 / PATCH_PPM) * v


def suit_shaped(suit_box: tuple[int, int, int, int]) -> bool:
    """Whether a patch's suit glyph (x, y, w, h) is shaped like a suit sign
    rather than a sliver of a line: for an index the edge-free finder placed
    from ink alone, with no card corner to vouch for it.  Session 39, the
    unknowns this kept on 300 720p and 100 1080p scenes: on a real index
    every suit glyph was 0.43-1.5 as wide as tall, on a line 0.09-0.3."""
    _x, _y, w, h = suit_box
    return w >= MIN_SUIT_ASPECT * h


def card_points(look: Look, n_u: int = 7, n_v: int = 10) -> np.ndarray:
    """A grid of points over the card ``look`` implies, 4 mm in from its edges (plane mm)."""
    a = np.linspace(4.0, g.CARD_W - 4.0, n_u)
    b = np.linspace(4.0, g.CARD_H - 4.0, n_v)
    uu, vv = np.meshgrid(a, b)
    return look.point + uu.reshape(-1, 1) * look.u + vv.reshape(-1, 1) * look.v


def _under_known(look: Look, known: list[np.ndarray]) -> bool:
    """Whether the card ``look`` implies lies partly under a card found
    (:data:`MIN_UNDER` of its face): a card in a stagger or a pile."""
    card = np.float32(look.outline())
    need = MIN_UNDER * g.CARD_W * g.CARD_H
    return any(cv2.intersectConvexConvex(card, np.float32(o).reshape(-1, 2))[0] >= need for o in known)


def inside_any(p: np.ndarray, outlines: list[np.ndarray]) -> bool:
    return any(inside(p, o) for o in outlines)


def unread_cards(
    looks: list[UnreadLook],
    known: list[np.ndarray],
    known_anchors: list[np.ndarray] = (),
    table_share: Callable[[np.ndarray], float] | None = None,
    tol: float = FUSION.same_card_mm,
    over: list[np.ndarray] | None = None,
) -> list[UnreadCard]:
    """The unknown cards that ``looks`` (declined corners, each way seen)
    show, leaving out any whose index lies inside a ``known`` outline (plane
    mm) or near a ``known_anchors`` index, or that has the centre of a card
    found or kept before, and any found from its ink alone (a look keyed
    below zero, :func:`pair_looks`) that lies under none of the cards
    ``over`` (outlines of cards read, backs and printed cards: not unknown
    ones, a score pad's column cut off as one; default ``known``).  One
    look per corner: the indexed one, or the one less like junk when both
    ways held an index layout.  ``table_share``
    (points in plane mm -> the share that looks like bare table,
    :func:`vision.cards.table_share_fn`): a way whose card would lie over
    more than :data:`MAX_TABLE_SHARE` of table is not the card's (a
    staggered card seen from its index at the pile's edge lies under the
    pile, not beside it)."""
    by_corner: dict[int, UnreadLook] = {}
    for x in looks:
        if not x.indexed or not np.all(np.isfinite(x.look.point)):
            continue
        if x.look.corner < 0 and not _under_known(x.look, known if over is None else over):
            continue  # an index found from its ink alone, on no card found: print (a page of rules, a score pad)
        if table_share is not None and table_share(card_points(x.look)) > MAX_TABLE_SHARE:
            continue  # the card this way would lie over bare table: the other way, or no card
        if inside_any(anchor(x.look), known):
            continue
        prev = by_corner.get(x.look.corner)
        if prev is None or x.junk < prev.junk:
            by_corner[x.look.corner] = x
    kept = [x.look for x in by_corner.values()]
    cards = []
    grouped: set[int] = set()
    for group in card_groups(kept, tol):
        grouped.update(group)
        first = kept[group[0]]
        cards.append(UnreadCard(first.outline(), tuple(anchor(kept[j]) for j in group)))
    for j, lk in enumerate(kept):
        if j not in grouped:
            cards.append(UnreadCard(lk.outline(), (anchor(lk),)))
    # one card seen at two corners whose outlines do not quite coincide (a
    # notched corner and the paper corner beside it), or a card found
    # otherwise from an index whose placement differs: the same centre
    centres = [np.mean(o, axis=0) for o in known]
    spots = [np.asarray(a, np.float64).reshape(2) for a in known_anchors]
    out: list[UnreadCard] = []
    for c in cards:
        m = c.outline.mean(axis=0)
        if any(np.linalg.norm(m - k) < SAME_CENTRE_MM for k in centres):
            continue
        if any(np.linalg.norm(a - k) < SAME_INDEX_MM for a in c.anchors for k in spots):
            continue
        out.append(c)
        centres.append(m)
        spots += list(c.anchors)
    return out
