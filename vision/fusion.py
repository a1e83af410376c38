"""Two looks at one card: one reading from several declined index corners.

The reader (:mod:`vision.corner_index`) reads every index corner alone and
declines it unless it is sure, which at 720p (rank glyphs 6-9 px tall) it
often is not: the suit network splits between spades and clubs, or hearts and
diamonds.  A card shows its index at two corners (four on four-index decks),
and a card whose every index is declined is lost though each corner leaned
the same way.  Here the corners that belong to one card (their card outlines,
each built from the corner and its edge assignment, coincide) pool their
evidence: the glyph networks' class probabilities are multiplied corner by
corner and renormalised (independent looks at the same glyphs, each a
posterior under a flat prior), and the result must clear checks of the same
kind as :func:`vision.corner_index.decide`.  The looks are not quite
independent (one card, one print, one blur), so the checks stay strict and a
fused reading carries a lower confidence than a sure single read.

Pure functions: the pipeline gathers the declined corners and their evidence."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import geometry as g
from .cards import card_outline
from .corner_index import FOREIGN_RANKS, Evidence, mixed
from .glyph_model import RANK_CLASSES
from .glyphs import RANKS, SUITS
from .suit_decision import likeliest_suit, suit_share


@dataclass(frozen=True)
class Look:
    """A declined corner read one way: the corner (plane mm), its inward edges
    ``u`` (short edge) and ``v`` (long edge) as the patch was sampled, and
    which corner of the frame's list it is (one look per corner may join)."""

    corner: int
    point: np.ndarray
    u: np.ndarray
    v: np.ndarray

    def outline(self) -> np.ndarray:
        return card_outline(self.point, self.u, self.v)


@dataclass(frozen=True)
class FusionThresholds:
    """What a fused reading must reach (on the pooled probabilities)."""

    #: the pooled rank probability (as decide's net_rank, net_rank_alone)
    rank: float = 0.9
    #: the pooled suit's share among the suits of the ink's colour (decide's net_suit)
    suit: float = 0.95
    #: pooled junk, rank or suit, at most this (decide's net_junk)
    junk: float = 0.2
    #: every look's own rank probability at least this (a corner that sees another rank vetoes)
    look_rank: float = 0.3
    #: every look's own suit share at least this
    look_suit: float = 0.2
    #: the templates must find the rank at one corner at least (decide's min_template_rank)
    min_template_rank: float = 0.45
    #: the templates' Fisher split between the ink colour's suits, averaged over the
    #: looks (against the suit read counts negative), may veto (decide's suit_veto)
    suit_veto: float = 0.2
    #: the templates must name the rank read at this share of the looks or more
    template_agree: float = 0.5
    #: a corner of one card lies within this many mm of the other look's outline corner
    same_card_mm: float = 6.0
    #: probabilities are floored here before the product (one look's zero is not infinitely sure)
    floor: float = 1e-3
    #: the whole-patch network's looks (Evidence.whole), pooled the same way, must give the
    #: rank read and the suit read (its share among the ink colour's suits) at least this;
    #: 0: not asked.  While asked (or weighed), looks without them read nothing.  On
    #: seeds 0-299 the glyph networks and templates alone read 14 cards right and 2
    #: wrong (a club both corners and the templates took for a spade, a 5 both took
    #: for a 6): systematic errors that a second look through the same eyes repeats.
    #: The whole-patch network sees the patch differently and disowned both
    #: (its suit 0.62, its rank 0.06)
    whole_min: float = 0.8
    #: and its looks join the glyph networks' product with this weight (an exponent)
    whole_weight: float = 0.5


FUSION = FusionThresholds()


@dataclass(frozen=True)
class FusedReading:
    rank: str
    suit: str
    confidence: float


def card_centre(point: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The centre of the card whose corner is ``point``, ``u`` along its
    short edge and ``v`` along its long edge (plane mm)."""
    return point + (g.CARD_W * u + g.CARD_H * v) / 2


def same_card(a: Look, b: Look, tol: float = FUSION.same_card_mm) -> bool:
    """Whether two looks at different corners see one card: the card outlines
    they imply hold the same four corners (within ``tol`` mm).  Diagonal
    corners of a card, and neighbouring ones of a four-index deck, pass with
    the edge assignment that turns both indices upright; the other
    assignment puts the far corners (H - W) * sqrt(2), about 35 mm, apart."""
    if a.corner == b.corner:
        return False
    oa, ob = a.outline(), b.outline()
    d = np.linalg.norm(oa[:, None, :] - ob[None, :, :], axis=2)
    return bool(np.all(d.min(axis=1) < tol) and np.all(d.min(axis=0) < tol))


def card_groups(looks: list[Look], tol: float = FUSION.same_card_mm) -> list[list[int]]:
    """Sets of two or more looks, at different corners, that see one card
    (indices into ``looks``), largest first; a corner joins one set at most."""
    n = len(looks)
    if n < 2:
        return []
    # outlines that hold the same corners have the same centre: only looks whose
    # centres meet are compared corner by corner (a region of many cards has
    # dozens of looks, and comparing every pair cost milliseconds)
    centres = np.array([card_centre(x.point, x.u, x.v) for x in looks])
    close = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2) < tol
    near: list[list[int]] = [[] for _ in range(n)]
    for i, j in zip(*np.nonzero(np.triu(close, 1)), strict=True):
        i, j = int(i), int(j)
        if same_card(looks[i], looks[j], tol):
            near[i].append(j)
            near[j].append(i)
    groups: list[list[int]] = []
    for i in sorted(range(n), key=lambda k: -len(near[k])):
        if not near[i]:
            continue
        group = [i]
        for j in near[i]:
            # every member sees the same card as every other, one look per corner
            if all(looks[j].corner != looks[k].corner and j in near[k] for k in group):
                group.append(j)
        if len(group) >= 2:
            groups.append(sorted(group))
    out: list[list[int]] = []
    used: set[int] = set()
    for grp in sorted(groups, key=len, reverse=True):
        corners = {looks[k].corner for k in grp}
        if grp in out or corners & used:
            continue
        out.append(grp)
        used |= corners
    return out


def pooled(probs: list[np.ndarray], floor: float = FUSION.floor) -> np.ndarray:
    """Class probabilities from several looks: their product, renormalised
    (each look a posterior under a flat prior; ``floor`` keeps one look's
    near-zero from ruling alone)."""
    logp = np.sum([np.log(np.maximum(np.asarray(p, np.float64), floor)) for p in probs], axis=0)
    p = np.exp(logp - logp.max())
    return p / p.sum()


def fuse(evs: list[Evidence], t: FusionThresholds = FUSION) -> FusedReading | None:
    """One reading from the evidence of several looks at one card (each
    gathered with ``evidence(..., full=True)``), or None.  The ink's colour
    is what the looks that know it say (they must agree); the pooled rank and
    suit must clear ``t`` as decide's do, each look must not see another rank
    or suit outright, and the templates must find the rank somewhere and may
    veto the suit."""
    if len(evs) < 2 or not all(e.complete and e.rank_p is not None and e.suit_p is not None for e in evs):
        return None
    reds = {e.glyphs.red for e in evs if e.glyphs.red is not None}
    if len(reds) != 1:
        return None
    red = reds.pop()
    wholes = [mixed(e.rank_p, e.suit_p, e.whole, 1.0) for e in evs if e.whole is not None]
    if (t.whole_min > 0 or t.whole_weight > 0) and len(wholes) < len(evs):
        return None
    pr = pooled([e.rank_p for e in evs] + [w[0] ** t.whole_weight for w in wholes if t.whole_weight > 0], t.floor)
    ps = pooled([e.suit_p for e in evs] + [w[1] ** t.whole_weight for w in wholes if t.whole_weight > 0], t.floor)
    r = int(np.argmax(pr))
    rank = RANK_CLASSES[r]
    if rank not in RANKS or pr[r] < t.rank or pr[-1] > t.junk or ps[-1] > t.junk:
        return None
    si, p_suit = likeliest_suit(ps, red)
    suit = SUITS[si]
    if p_suit < t.suit:
        return None
    if any(e.rank_p[r] < t.look_rank or suit_share(e.suit_p, red, si) < t.look_suit for e in evs):
        return None
    if max(e.rank_score for e in evs) < t.min_template_rank or any(e.template_rank in FOREIGN_RANKS for e in evs):
        return None
    if sum(e.template_rank == rank for e in evs) < t.template_agree * len(evs):
        return None
    if t.whole_min > 0:
        wr, ws = pooled([w[0] for w in wholes], t.floor), pooled([w[1] for w in wholes], t.floor)
        if wr[r] < t.whole_min or suit_share(ws, red, si) < t.whole_min:
            return None
    split = np.mean([e.suit_split if e.template_suit == suit else -e.suit_split for e in evs])
    if split <= -t.suit_veto:
        return None
    # under a sure single read's (decide gives 0.7 and more) and under the 0.6 the
    # pipeline's spot searches ask of their own reads
    conf = float(0.55 * min(pr[r], p_suit))
    return FusedReading(rank, suit, conf)
