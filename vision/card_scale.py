"""The size of a card in a photograph without a mat, from the corners of cards
that do not lie whole.

Without a mat, millimetres come from a card lying whole (its outline's
size).  In a pile, a fan or a staggered row no card does, yet its paper
corners still show whole edges: the top card's four, and on every card under
it the edge that runs from one visible corner to the next (the top edge of
each card in a staggered row).  Two corners facing each other along one
straight edge are a card's width (63 mm) or length (88 mm) apart, so the
distances between such pairs cluster at two values 88/63 apart, and the
offsets of a stagger do not.  This is what a person does when judging a
card's size in a photo, and it replaces guessing from how many cards a
scale happens to read (a wrong scale can read as many: a patch sampled twice
too large still holds the index)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .cards import Corner
from .geometry import CARD_H, CARD_W

#: how far (cosine) the line between two corners may turn from each one's edge
ALONG = 0.985
#: how far a distance may be from a card side at a scale and still count for it
TOLERANCE = 0.06
#: pairs that must agree before a scale is believed
MIN_SUPPORT = 2


def facing_pairs(corners: Sequence[Corner]) -> list[tuple[float, float]]:
    """(distance, longest other edge) for every two corners of one paper
    region that face each other along one straight edge: each one's edge
    points at the other.  The other edge is each corner's edge across the
    line; a card's width is shorter than its length, so a pair whose other
    edge runs clearly longer than their distance lies along a card's width."""
    out = []
    for i, a in enumerate(corners):
        for b in corners[i + 1 :]:
            if a.blob != b.blob:
                continue
            d = b.point - a.point
            t = float(np.hypot(*d))
            if not 1e-6 < t < np.inf:  # the same point, or not a number
                continue
            e = d / t
            for da, other_a in ((a.d1, a.len2), (a.d2, a.len1)):
                if float(e @ da) < ALONG:
                    continue
                for db, other_b in ((b.d1, b.len2), (b.d2, b.len1)):
                    if float(e @ db) > -ALONG:
                        continue
                    out.append((t, max(other_a, other_b)))
    return out


def card_scale(corners: Sequence[Corner], prior: float = 1.0) -> float | None:
    """Plane units per millimetre that best explain the corners' facing pairs
    as cards' widths and lengths, or None when fewer than :data:`MIN_SUPPORT`
    pairs agree on one.

    Each pair proposes two scales (its distance as a width, as a length;
    only the width when its other edge runs longer).  A scale's support is
    the number of pairs it explains; the best is refined to the mean of what
    its pairs say.  On a tie (only widths, or only lengths, in view: one
    reading 88/63 times the other) the scale explaining both sides wins,
    then the one nearer ``prior`` (the plane's current guess)."""
    pairs = facing_pairs(corners)
    if len(pairs) < MIN_SUPPORT:
        return None
    t = np.array([p[0] for p in pairs])
    other = np.array([p[1] for p in pairs])
    proposals = [(ti / CARD_W) for ti in t] + [ti / CARD_H for ti, oi in zip(t, other, strict=True) if oi <= 1.1 * ti]
    best = None
    for s in proposals:
        as_w = np.abs(t / (CARD_W * s) - 1) <= TOLERANCE
        as_h = (np.abs(t / (CARD_H * s) - 1) <= TOLERANCE) & (other <= 1.1 * t)
        support = int(np.count_nonzero(as_w | as_h))
        both = bool(as_w.any() and as_h.any())
        key = (support, both, -abs(np.log(s / prior)))
        if best is None or key > best[0]:
            best = (key, as_w, as_h)
    (support, _, _), as_w, as_h = best
    if support < MIN_SUPPORT:
        return None
    said = np.concatenate((t[as_w] / CARD_W, t[as_h & ~as_w] / CARD_H))
    return float(np.exp(np.mean(np.log(said))))
