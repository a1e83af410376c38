"""Reading a card's corner index (rank over suit) from an upright patch.

The patch is sampled so that the card corner is at its top-left and the long
edge runs down, at ``PATCH_PPM`` pixels per millimetre.  Glyphs are found as
connected ink components (black or red on paper), the topmost group is the
rank, the one below it the suit.  Each is compared, as a small normalised
image, with reference shapes drawn from every font on the machine (and from a
taught deck, see :mod:`vision.teach`); red or black ink narrows the suit.
Anything that does not match well enough is not read: the caller reports it as
unknown rather than guess.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw

from . import glyph_model, patch_model
from .cardart import text_image
from .fonts import card_fonts, suit_glyph_fonts
from .geometry import INDEX_BOX_H, INDEX_BOX_W
from .glyphs import RANKS, RED_SUITS, SUIT_CHAR, SUITS, draw_suit
from .suit_decision import COLOUR_SUITS, likeliest_suit, suit_verdict

PATCH_PPM = 4.0
PATCH_W = int(INDEX_BOX_W * PATCH_PPM)
PATCH_H = int(INDEX_BOX_H * PATCH_PPM)
FEAT_W, FEAT_H = 16, 20

# Acceptance thresholds (normalised correlation, 1 = identical shape).
MIN_RANK_SCORE = 0.62
MIN_SUIT_SCORE = 0.62
MIN_MARGIN = 0.04
MIN_SUIT_SEPARATION = 0.1  # Fisher distance / 10 between same-colour suits
MIN_GLYPH_MM = 2.2  # the smallest glyph (a suit) the reader looks for
#: the tallest glyph: a jumbo index's rank is 11-12 mm (kde/standard, nicu)
MAX_GLYPH_MM = 14.0
#: letters that are a rank in other languages' decks and look like an English rank
#: when small: the German and Russian jack (B and its Cyrillic twin В, an "8") and the
#: Russian queen Д (a "10"); their templates let the reader decline them instead of misreading
FOREIGN_RANKS = ("B", "Д")
#: Read as a jack instead (out of the box, with no deck taught)?  Not safe (session 44,
#: /tmp script over the third-party decks' corner art at 1.2-6 px/mm): the B template
#: beats the 8's on 5 % of the B/В jacks by 0.02 or less, and 2-3 % of English decks'
#: eights (6 of 248 at 1.2 px/mm, 5 at 6 px/mm) match the B better than the 8, by up to
#: 0.04; the networks take both for an 8 (0.98).  Such decks are taught instead
#: (vision.teach: four photos of the suits laid out A to K name every letter)
#: the English rank each foreign letter looks like.  A reading of that rank stands only where
#: its templates match the glyph's shape better than the letter's, aspect aside: a deck's own
#: letter may be far narrower than any font's (aisleriot/Атласные prints its В at 0.35 of its
#: height, against the fonts' B at 0.5 or more, and the aspect penalty gave it to "8"); Д is a
#: "10" to the networks and a "0" (half a 10) or "10" to the templates
LOOKS_LIKE = {"8": "B", "10": "Д", "0": "Д"}
#: ... and only where the letter's shape is clearly there: the 720p glyphs it took from an 8 or
#: a 10 matched it at 0.56-0.72 (the generator's own 9 of diamonds and 8 of clubs lost), the
#: Russian deck's at 0.82-0.92
LETTER_SHAPE_AT_LEAST = 0.8
#: foreign letters weighed only against their lookalike, never among the ranks: as one of
#: them Д (with the ace Т) cost 720p reads of the generator's own cards (10C, 6D, AC, 7C and
#: 10D in 450 scenes), and Т is declined anyway
SHAPE_ONLY = ("Д",)


@dataclass(frozen=True)
class IndexReading:
    rank: str
    suit: str
    confidence: float
    rank_box: tuple[int, int, int, int]  # x, y, w, h in patch pixels
    suit_box: tuple[int, int, int, int]


def feature(ink: np.ndarray) -> np.ndarray:
    """A glyph's ink (float or uint8, tightly cropped to its box) -> normalised
    feature vector.  Grey levels, not a binary mask, so blur and low resolution
    change it little."""
    f = cv2.resize(np.asarray(ink, np.float32), (FEAT_W, FEAT_H), interpolation=cv2.INTER_AREA).ravel()
    # f.mean() and np.linalg.norm(f), the same floats, without their overhead
    f -= np.float32(f.sum() / np.intp(f.size))
    n = np.sqrt(f.dot(f))
    return f / n if n > 1e-6 else f


def _crop(ink: np.ndarray, level: float = 0.45) -> np.ndarray:
    """Crop to the box of ink above ``level`` of its range (as the reader's
    threshold would), keeping grey levels."""
    ink = ink.astype(np.float32)
    lo, hi = float(ink.min()), float(ink.max())
    ys, xs = np.nonzero(ink > lo + (hi - lo) * level)
    if len(xs) == 0:
        return ink
    return ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


class References:
    """Reference shapes: label -> stack of feature vectors (and glyph aspect ratios)."""

    use_lda = True

    def __init__(self) -> None:
        #: True for a set holding a taught deck: its templates are tried first
        self.taught = False
        self.rank_feats: list[np.ndarray] = []
        self.rank_labels: list[str] = []
        self.rank_aspects: list[float] = []
        self.suit_feats: list[np.ndarray] = []
        self.suit_labels: list[str] = []
        self.suit_aspects: list[float] = []
        #: templates of the SHAPE_ONLY letters, by letter (see LOOKS_LIKE)
        self.shape_only: dict[str, list[np.ndarray]] = {}
        #: with a taught deck, ranks the whole-patch network may not read alone: the
        #: built-in look of one of the deck's own glyphs taught as another rank (its
        #: B, taught as the jack, looks like the built-in 8 and B: no 8 read unseen),
        #: each with the taught ranks that look like it ({"8": {"J"}})
        self.lookalikes: dict[str, frozenset[str]] = {}

    def add_rank(self, label: str, ink: np.ndarray) -> None:
        m = _crop(ink)
        self.rank_feats.append(feature(m))
        self.rank_labels.append(label)
        self.rank_aspects.append(m.shape[1] / m.shape[0])

    def add_shape_only(self, label: str, ink: np.ndarray) -> None:
        self.shape_only.setdefault(label, []).append(feature(_crop(ink)))

    def add_suit(self, label: str, ink: np.ndarray) -> None:
        m = _crop(ink)
        self.suit_feats.append(feature(m))
        self.suit_labels.append(label)
        self.suit_aspects.append(m.shape[1] / m.shape[0])

    def freeze(self) -> References:
        def grouped(feats, aspects, labels):
            names, inverse = np.unique(np.array(labels), return_inverse=True)
            order = np.argsort(inverse, kind="stable")
            starts = np.searchsorted(inverse[order], np.arange(len(names)))
            return np.stack(feats)[order], np.array(aspects)[order], (names, starts), names[inverse[order]]

        self._R, self._Ra, self._Rl, _ = grouped(self.rank_feats, self.rank_aspects, self.rank_labels)
        names, starts = self._Rl
        ends = list(starts[1:]) + [len(self._R)]
        #: each rank label's templates (views of _R) and the SHAPE_ONLY letters', for _shape_score
        self._shapes = {str(n): self._R[a:b] for n, a, b in zip(names, starts, ends, strict=True)}
        self._shapes.update({k: np.stack(v) for k, v in self.shape_only.items()})
        self._bound = _Subspace.of(self._R, self._Ra) if len(self._R) >= 4 * BOUND_DIMS else None
        self._S, self._Sa, self._Sl, suit_names = grouped(self.suit_feats, self.suit_aspects, self.suit_labels)
        # Same-colour suits (clubs/spades, hearts/diamonds) differ in little of
        # their outline; a Fisher direction between them separates them far
        # better than correlation does once the glyph is ten pixels tall.
        self._lda = {}
        for a, b in (("spades", "clubs"), ("hearts", "diamonds")):
            Xa, Xb = self._S[suit_names == a], self._S[suit_names == b]
            if len(Xa) < 2 or len(Xb) < 2:
                continue
            cov = np.cov(np.vstack([Xa - Xa.mean(0), Xb - Xb.mean(0)]).T) + 0.01 * np.eye(self._S.shape[1])
            w = np.linalg.solve(cov, Xa.mean(0) - Xb.mean(0))
            pa, pb = Xa @ w, Xb @ w
            mid = (pa.mean() + pb.mean()) / 2
            spread = max(np.sqrt((pa.var() + pb.var()) / 2), 1e-6)
            self._lda[(a, b)] = (w, mid, spread)
        return self

    def extend(self, other: References) -> References:
        """A new reference set holding both (taught references first)."""
        out = References()
        out.taught = bool(other.rank_feats) or other.taught
        for src in (other, self):
            # a taught deck's own letters are its ranks: no foreign letter stands against them
            keep = [i for i, lab in enumerate(src.rank_labels) if not (src is self and other.rank_feats and lab in FOREIGN_RANKS)]
            out.rank_feats += [src.rank_feats[i] for i in keep]
            out.rank_labels += [src.rank_labels[i] for i in keep]
            out.rank_aspects += [src.rank_aspects[i] for i in keep]
            out.suit_feats += src.suit_feats
            out.suit_labels += src.suit_labels
            out.suit_aspects += src.suit_aspects
        out = out.freeze()
        looks: dict[str, set[str]] = {}
        for f, a, label in zip(other.rank_feats, other.rank_aspects, other.rank_labels, strict=True):
            seen = self._best(self._R, self._Ra, self._Rl, f, a)[0]
            if seen != label:
                for rank in ({seen} | {rank for rank, letter in LOOKS_LIKE.items() if letter == seen}) & set(RANKS):
                    looks.setdefault(rank, set()).add(label)
        out.lookalikes = {rank: frozenset(labels) for rank, labels in looks.items()}
        return out

    @staticmethod
    def _best(F, A, L, f, aspect, allowed=None) -> tuple[str, float, float]:
        """Best label by its best template: (label, score, margin over the next label)."""
        # einsum, not BLAS: a threaded BLAS on a busy machine is 30x slower here
        return _pick(np.einsum("ij,j->i", F, f) - _aspect_penalty(A, aspect), L, allowed)

    def rank(self, ink: np.ndarray) -> tuple[str, float, float]:
        """Best rank for a cropped glyph's ink: (label, score, margin over the next label)."""
        m = ink
        f, aspect = feature(m), m.shape[1] / m.shape[0]
        if self._bound is None:
            label, score, margin = self._best(self._R, self._Ra, self._Rl, f, aspect)
        else:
            label, score, margin = _pick(_bounded_scores(self._R, self._Ra, self._Rl, self._bound, f, aspect), self._Rl)
        letter = LOOKS_LIKE.get(label)
        if letter is not None:
            shape = self._shape_score(letter, f)
            if shape >= LETTER_SHAPE_AT_LEAST and shape > self._shape_score(label, f):
                return letter, score, 0.0
        return label, score, margin

    def _shape_score(self, label: str, f: np.ndarray) -> float:
        """The best score of ``label``'s templates without the aspect penalty (-1 without any)."""
        F = self._shapes.get(label)
        return -1.0 if F is None else float(np.max(np.einsum("ij,j->i", F, f)))

    def suit(self, ink: np.ndarray, red: bool | None) -> tuple[str, float, float]:
        """Best suit: (label, shape score, separation from the other suit of that colour)."""
        m = ink
        f = feature(m)
        allowed = None if red is None else {s for s in SUITS if (s in RED_SUITS) == red}
        label, score, margin = self._best(self._S, self._Sa, self._Sl, f, m.shape[1] / m.shape[0], allowed)
        pair = ("spades", "clubs") if label in ("spades", "clubs") else ("hearts", "diamonds")
        if self.use_lda and pair in self._lda:
            w, mid, spread = self._lda[pair]
            z = float((np.dot(f.astype(np.float64), w) - mid) / spread)
            lda_label = pair[0] if z > 0 else pair[1]
            # when shape correlation and the Fisher split disagree, only a
            # clear Fisher verdict counts (a weak one was wrong more often)
            weight = 10 if lda_label == label else 20
            label = lda_label
            margin = min(abs(z) / weight, 0.3) if red is not None else min(margin, abs(z) / weight)
        return label, score, margin


def _aspect_penalty(A: np.ndarray, aspect: float) -> np.ndarray:
    """What a template of aspect ratio ``A`` loses against a glyph of ``aspect``."""
    return 0.35 * np.abs(np.log(np.maximum(A, 1e-3) / max(aspect, 1e-3)))


def _pick(scores: np.ndarray, L, allowed=None) -> tuple[str, float, float]:
    """(label, score, margin over the next label) of templates' ``scores``
    (grouped by label as ``L`` = (names, starts) says)."""
    labels, starts = L
    best = np.maximum.reduceat(scores, starts).astype(np.float64)
    if allowed is not None:
        best[[lab not in allowed for lab in labels]] = -9.0
    order = np.argsort(-best)
    if best[order[0]] <= -9:
        return "", -1.0, 0.0
    second = best[order[1]] if len(order) > 1 else -1.0
    return str(labels[order[0]]), float(best[order[0]]), float(best[order[0]] - second)


#: dimensions of the rank templates' principal subspace (see _Subspace):
#: 48 leave about 2 % of the 4000 templates to score in full
BOUND_DIMS = 48


@dataclass(frozen=True)
class _Subspace:
    """A template set's principal subspace: each template's part in it
    (``parts``, float32, one column a template) and the length of the rest
    (``rests``).  A template's score against a feature is its part's against
    the feature's part, give or take the product of the two rests
    (Cauchy-Schwarz): a few cheap products bound every score, and only the
    templates that may be their label's best among the two best labels are
    scored in full."""

    basis: np.ndarray  # features x BOUND_DIMS, orthonormal columns (float64)
    parts: np.ndarray  # BOUND_DIMS x templates (float32)
    rests: np.ndarray  # templates (float64)
    log_aspects: np.ndarray  # templates: log of the aspect ratio as _aspect_penalty takes it

    @staticmethod
    def of(F: np.ndarray, A: np.ndarray) -> _Subspace:
        F64 = F.astype(np.float64)
        basis = np.ascontiguousarray(np.linalg.svd(F64, full_matrices=False)[2][:BOUND_DIMS].T)
        parts = F64 @ basis
        rests = np.sqrt(((F64 - parts @ basis.T) ** 2).sum(axis=1))
        return _Subspace(basis, np.ascontiguousarray(parts.T, np.float32), rests, np.log(np.maximum(A, 1e-3)))


#: what float32 rounding may move a bounded score by (far more than it can: 320 products)
BOUND_SLACK = 1e-3


def _bounded_scores(F: np.ndarray, A: np.ndarray, L, sub: _Subspace, f: np.ndarray, aspect: float) -> np.ndarray:
    """The template scores :meth:`References._best` would compute, exactly
    (the same products), for every template that may be its label's best
    among the two best labels; -inf for the rest, which cannot change what
    _pick says."""
    f64 = f.astype(np.float64)
    pf = np.einsum("ij,i->j", sub.basis, f64)
    rest = float(np.sqrt(max(float(f64 @ f64) - float(pf @ pf), 0.0)))
    near = np.einsum("j,ji->i", pf.astype(np.float32), sub.parts) - 0.35 * np.abs(sub.log_aspects - np.log(max(aspect, 1e-3)))
    slack = sub.rests * rest + BOUND_SLACK
    lows = np.maximum.reduceat(near - slack, L[1])
    if len(lows) < 2 or not np.all(np.isfinite(lows)):
        return np.einsum("ij,j->i", F, f) - _aspect_penalty(A, aspect)
    floor = np.partition(lows, -2)[-2]  # the second best label's best score is at least this
    keep = np.flatnonzero(near + slack >= floor)
    scores = np.full(len(F), -np.inf)
    scores[keep] = np.einsum("ij,j->i", F[keep], f) - _aspect_penalty(A[keep], aspect)
    return scores


def _variants(ink: np.ndarray):
    """A drawn glyph (about 64 px tall) as the reader would see it when the
    camera gives it 9 to 24 pixels: shrunk to that size, then enlarged back
    the way a patch is sampled; also a little bolder."""
    ink = ink.astype(np.float32)
    h, w = ink.shape
    yield ink
    for th in (9, 12, 15, 19, 24):
        k = th / h
        small = cv2.resize(ink, (max(2, round(w * k)), th), interpolation=cv2.INTER_AREA)
        yield cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    yield cv2.GaussianBlur(cv2.dilate(ink, np.ones((5, 5), np.uint8)), (0, 0), 3.0)


@functools.cache
def builtin_references() -> References:
    """References drawn from the card fonts (fonts.card_fonts: the same on
    every machine that has them) plus polygon suits."""
    refs = References()
    for font in card_fonts():
        # "0" and "1" alone are half a "10" whose other half was lost: they are
        # references so that such a half is recognised, and then not read;
        # so are the foreign letters
        for rank in RANKS + ("0", "1") + FOREIGN_RANKS:
            add = refs.add_shape_only if rank in SHAPE_ONLY else refs.add_rank
            for squeeze in (1.0, 0.78):
                ink = np.pad(np.asarray(text_image(rank, font, 64, squeeze)), 12)
                for v in _variants(ink):
                    add(rank, v)
    for suit in SUITS:
        img = Image.new("L", (96, 96), 0)
        draw_suit(ImageDraw.Draw(img), suit, 48, 48, 64, 255)
        for v in _variants(np.asarray(img)):
            refs.add_suit(suit, v)
        for font in suit_glyph_fonts()[:3]:
            g = np.pad(np.asarray(text_image(SUIT_CHAR[suit], font, 64)), 12)
            for v in _variants(g):
                refs.add_suit(suit, v)
    return refs.freeze()


def _ink(patch: np.ndarray) -> np.ndarray:
    """Ink strength: dark or coloured on light paper -> high."""
    b, g, r = cv2.split(np.ascontiguousarray(patch))
    return cv2.bitwise_not(cv2.min(cv2.min(b, g), r))


def _levels(ink: np.ndarray, fractions) -> list[float]:
    """Percentiles of a uint8 image from its histogram (far cheaper than np.percentile)."""
    return _levels_of(_cumulative(ink), fractions)


def _cumulative(ink: np.ndarray) -> np.ndarray:
    """The cumulative histogram of a uint8 image (float32 counts, as calcHist gives)."""
    return np.cumsum(cv2.calcHist([ink], [0], None, [256], [0, 256]).ravel())


def _levels_of(cumulative: np.ndarray, fractions) -> list[float]:
    """:func:`_levels` from the image's cumulative histogram (one histogram, several asks)."""
    total = cumulative[-1]
    return [float(np.searchsorted(cumulative, f * total)) for f in fractions]


def segment(patch: np.ndarray, ink: np.ndarray | None = None) -> tuple[np.ndarray, list[tuple[int, int, int, int, int]]] | None:
    """Binarise a patch and return (labels, [(label, x, y, w, h)]) of glyph-sized
    components not touching the patch border, or None if the patch holds no ink."""
    seg = _segment(patch, ink)
    return None if seg is None else seg[:2]


def _segment(patch: np.ndarray, ink: np.ndarray | None = None, cumulative: np.ndarray | None = None):
    """(labels, glyph-sized components, components too tall to be one glyph but
    narrow enough to be a rank and a suit run together), or None.
    ``cumulative``: the ink's :func:`_cumulative` histogram, when made already."""
    ink = _ink(patch) if ink is None else ink
    lo, hi = _levels_of(_cumulative(ink) if cumulative is None else cumulative, (0.2, 0.99))
    if hi - lo < 50:
        return None
    thr = lo + (hi - lo) * 0.45
    binary = (ink > thr).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    ph, pw = binary.shape
    comps, tall = [], []
    min_h = MIN_GLYPH_MM * PATCH_PPM
    # whole numbers, not numpy's: the tests below cost a tenth
    for i, (x, y, w, h, area) in enumerate(stats[1:n].tolist(), 1):
        if x <= 0 or y <= 0 or x + w >= pw or y + h >= ph:
            continue
        if h < min_h or w > 11 * PATCH_PPM or area < 12:
            continue
        if h > MAX_GLYPH_MM * PATCH_PPM:
            if h <= 22 * PATCH_PPM:
                tall.append((i, x, y, w, h))
            continue
        comps.append((i, x, y, w, h))
    return labels, comps, tall


def _layout(comps):
    """(rank group, suit component) of an index layout among glyph components, or None."""
    if len(comps) < 2:
        return None
    comps = sorted(comps, key=lambda c: c[2])
    first = comps[0]
    # The rank: the topmost glyph plus any glyph beside it at the same height ("10").
    group = [first]
    for c in comps[1:]:
        overlap = min(first[2] + first[4], c[2] + c[4]) - max(first[2], c[2])
        if overlap > 0.6 * min(first[4], c[4]) and abs(c[4] - first[4]) < 0.3 * first[4]:
            group.append(c)
    gx0 = min(c[1] for c in group)
    gx1 = max(c[1] + c[3] for c in group)
    gy0 = min(c[2] for c in group)
    gy1 = max(c[2] + c[4] for c in group)
    if gx1 - gx0 > 10 * PATCH_PPM:
        return None
    below = [c for c in comps if c not in group and c[2] >= gy1 - 0.5 * PATCH_PPM]
    if not below:
        return None
    cxr = (gx0 + gx1) / 2
    below.sort(key=lambda c: c[2])
    suit_c = below[0]
    if abs(suit_c[1] + suit_c[3] / 2 - cxr) > 4 * PATCH_PPM or suit_c[2] - gy1 > 5 * PATCH_PPM:
        return None
    if not (0.45 < suit_c[4] / (gy1 - gy0) < 1.5):
        return None
    return group, suit_c


def _split_merged(labels: np.ndarray, c, new_id: int):
    """A rank and a suit that blur and a small gap ran into one component: cut
    it at its narrowest row between them.  Returns the two parts (relabelling
    ``labels`` in place) or None when it has no clear waist."""
    i, x, y, w, h = c
    if h < 2 * MIN_GLYPH_MM * PATCH_PPM or h < 1.3 * w:
        return None
    sub = labels[y : y + h, x : x + w]
    prof = (sub == i).sum(1)
    lo, hi = int(0.3 * h), int(0.8 * h)
    if hi <= lo:
        return None
    cut = lo + int(np.argmin(prof[lo:hi]))
    if prof[cut] > 0.6 * min(prof[:cut].max(), prof[cut + 1 :].max()):
        return None
    mask = sub == i
    sub[cut:][mask[cut:]] = new_id
    sub[cut][mask[cut]] = 0
    parts = []
    for lab in (i, new_id):
        ys, xs = np.nonzero(sub == lab)
        if len(ys) == 0:
            return None
        parts.append((lab, x + int(xs.min()), y + int(ys.min()), int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)))
    if any(p[4] < MIN_GLYPH_MM * PATCH_PPM for p in parts) or parts[0][4] > 12 * PATCH_PPM:
        return None
    return parts


#: ink whose redness is unsure (red a little above green) but whose green stands
#: this far above its blue (each as a share of the paper's) is yellow or gold: the
#: diamonds of four-colour decks (aisleriot's anglo_modern_4_color,
#: neoclassical_4_color, atlasnye_skat), a red suit.  Red ink blurred towards
#: the paper, or a dark red, keeps green and blue together
YELLOW_GREEN_OVER_BLUE = 0.25


#: An index is printed in one ink.  Black print over a red mark (a digit on
#: a score pad's coloured disc) was read as a diamond at 0.94: the suit
#: networks and the font templates took the disc for one.  So a red suit's
#: rank must not be black: its ink's redness (its median colour's, as
#: redness_says measures it) at least this, unless it is yellow or gold.
#: Such print, rendered at twice the size, shrunk, blurred and saved as a
#: JPEG (chroma at half resolution), measured -0.02 to 0.008.  Right red
#: readings' ranks: on 720p corner patches (bench.reader_patches, seeds
#: 0-299) 0.004 and up, 1st percentile 0.07 (a camera's chroma subsampling
#: leaves a thin stroke, a jack's or a queen's drawn light, nearly grey):
#: 0.02 declines 1 of 852, 0.03 2, 0.04 4; over 1000 scenes a size
#: (bench/vision.py) 0.02 lost 1 card at 720p and 1 at 1080p, 0.03 2 at
#: each, and no misread went.  Black ranks measured -0.07 to 0.07 (99th
#: percentile 0.04), so the rule does not catch every such print.  Also
#: asking the rank to be darker than the suit (a thin red stroke is no
#: darker than a blot of its ink) kept right readings but let more print
#: through: at 720p a thin black stroke is no darker than a red disc
RANK_RED_AT_LEAST = 0.02


def _paper_colour(patch: np.ndarray, paper_mask: np.ndarray) -> np.ndarray | None:
    """The paper's median colour (B, G, R) + 1, the white point ink colours
    are measured against, or None on too little paper."""
    # every other row and column of the paper is plenty for its median colour
    paper = patch[::2, ::2][paper_mask[::2, ::2]]
    return _median_colour(paper) + 1 if len(paper) >= 10 else None


def _ink_colour(patch: np.ndarray, mask: np.ndarray, paper: np.ndarray | None) -> np.ndarray | None:
    """The median colour (B, G, R) of the ink under ``mask`` as shares of
    ``paper``'s (_paper_colour: white-balanced), or None when unmeasured."""
    ink = patch[mask > 0]
    if len(ink) < 4 or paper is None:
        return None
    return _median_colour(ink) / paper


def _redness(c: np.ndarray) -> float:
    """White-balanced ink colour ``c``'s red share less the larger of its green and blue shares."""
    return float(c[2] - max(c[0], c[1]))


def _yellow(c: np.ndarray) -> bool:
    """Whether white-balanced ink colour ``c`` is yellow or gold (YELLOW_GREEN_OVER_BLUE)."""
    return bool(c[1] - c[0] > YELLOW_GREEN_OVER_BLUE)


def _colour_of(c: np.ndarray | None) -> bool | None:
    """True if white-balanced ink colour ``c`` is red, False if black/blue, None if unsure."""
    if c is None:
        return None
    red = redness_says(_redness(c))
    if red is None and _yellow(c):
        return True  # yellow or gold: a four-colour deck's diamonds
    return red


def _two_inks(rank: np.ndarray | None, suit_red: bool) -> bool:
    """Whether a rank of white-balanced colour ``rank`` is clearly of another
    ink than a suit of colour ``suit_red``: a red suit's rank black
    (RANK_RED_AT_LEAST), or a black suit's rank clearly red."""
    if rank is None:
        return False
    if suit_red:
        return _redness(rank) < RANK_RED_AT_LEAST and not _yellow(rank)
    return redness_says(_redness(rank)) is True


def redness_says(redness: float) -> bool | None:
    """Red (True), black or blue (False) or unsure (None) from ink's redness: its
    red share of the paper's less the larger of its green and blue shares."""
    if redness > 0.22:
        return True
    if redness < 0.1:
        return False
    return None


def _median_colour(pixels: np.ndarray) -> np.ndarray:
    """np.median(pixels.astype(np.float32), axis=0) of N x 3 uint8 pixels (N > 0),
    the same float32 values: the middle one or two grey levels found by a
    partial sort of the whole numbers, not of floats."""
    n = len(pixels)
    mid = np.partition(pixels, (n - 1) // 2 if n % 2 else (n // 2 - 1, n // 2), axis=0)
    if n % 2:
        return mid[n // 2].astype(np.float32)
    return (mid[n // 2 - 1].astype(np.float32) + mid[n // 2].astype(np.float32)) / np.float32(2)


def _glyph_ink(raw: np.ndarray, floor: float, labels: np.ndarray, ids: list[int], box) -> np.ndarray:
    """Grey ink (above the ``floor`` level) of the given components inside their
    box, other glyphs blanked."""
    x0, y0, x1, y1 = box
    lab = labels[y0:y1, x0:x1]
    sel = lab == ids[0]
    for i in ids[1:]:
        sel |= lab == i
    sel = cv2.dilate(sel.view(np.uint8), np.ones((3, 3), np.uint8))
    return np.maximum(raw[y0:y1, x0:x1].astype(np.float32) - floor, 0) * sel


@dataclass(frozen=True)
class Glyphs:
    """The rank and suit glyphs found in a patch (grey ink, cropped) and the ink colour."""

    rank_ink: np.ndarray
    suit_ink: np.ndarray
    red: bool | None
    rank_box: tuple[int, int, int, int]
    suit_box: tuple[int, int, int, int]
    #: the grey ink around each glyph's box, other glyphs not blanked: what a
    #: threshold cuts off a blurred glyph's edge (a club's lobes, a spade's
    #: point at 5 pixels) is still there for the network
    rank_view: np.ndarray | None = None
    suit_view: np.ndarray | None = None


#: margin of a glyph's view around its box, patch pixels (blur at 1 px/mm)
VIEW_PAD = 3


def _view(raw: np.ndarray, floor: float, box) -> np.ndarray:
    x0, y0, x1, y1 = box
    h, w = raw.shape
    x0, y0 = max(x0 - VIEW_PAD, 0), max(y0 - VIEW_PAD, 0)
    x1, y1 = min(x1 + VIEW_PAD, w), min(y1 + VIEW_PAD, h)
    return np.maximum(raw[y0:y1, x0:x1].astype(np.float32) - floor, 0)


def extract_glyphs(patch: np.ndarray) -> Glyphs | None:
    """Find an index layout (a rank glyph group with a suit glyph below it) in an
    upright patch, without deciding what they are."""
    return cut_glyphs(patch)[0]


def cut_glyphs(patch: np.ndarray) -> tuple[Glyphs | None, bool]:
    """extract_glyphs' glyphs, and whether, where it cut none, the patch
    held glyph-sized ink it could not lay out as an index (a rank run into
    its suit, a suit lost to blur): the whole-patch network may read there
    (Thresholds.patch_no_glyphs), not on a blank or smudged patch."""
    raw = _ink(patch)
    cumulative = _cumulative(raw)
    seg = _segment(patch, raw, cumulative)
    if seg is None:
        return None, False
    labels, comps, tall = seg
    found = _layout(comps)
    if found is None:
        # the topmost tall component may be a rank and a suit run together
        cands = sorted(comps + tall, key=lambda c: c[2])
        if not cands:
            return None, False
        c = cands[0]
        labels = labels.copy()
        parts = _split_merged(labels, c, int(labels.max()) + 1)
        if parts is None:
            return None, True
        found = _layout([x for x in comps if x != c] + parts)
        if found is None:
            return None, True
    group, suit_c = found
    gx0 = min(c[1] for c in group)
    gx1 = max(c[1] + c[3] for c in group)
    gy0 = min(c[2] for c in group)
    gy1 = max(c[2] + c[4] for c in group)
    _, sx, sy, sw, sh = suit_c
    p20, p40 = _levels_of(cumulative, (0.2, 0.4))
    rank_ink = _glyph_ink(raw, p20, labels, [c[0] for c in group], (gx0, gy0, gx1, gy1))
    suit_ink = _glyph_ink(raw, p20, labels, [suit_c[0]], (sx, sy, sx + sw, sy + sh))
    paper = (labels == 0) & (raw <= p40)
    paper_c = _paper_colour(patch, paper)
    red = _colour_of(_ink_colour(patch, labels == suit_c[0], paper_c))
    if red is not None and _two_inks(_ink_colour(patch, np.isin(labels, [c[0] for c in group]), paper_c), red):
        return None, False  # a rank and a suit of two inks: print over a coloured mark, no index
    return Glyphs(
        rank_ink,
        suit_ink,
        red,
        (gx0, gy0, gx1 - gx0, gy1 - gy0),
        (sx, sy, sw, sh),
        _view(raw, p20, (gx0, gy0, gx1, gy1)),
        _view(raw, p20, (sx, sy, sx + sw, sy + sh)),
    ), False


# The trained network (vision.glyph_model) reads; the font templates check it.
# A rank stands when the network gives it net_rank and the templates find the
# same rank (net_rank_low when they match it by template_sure), or
# net_rank_alone when they do not; either way the rank's ink
# must look like some rank to the templates (min_template_rank).  The suit is
# the network's among the suits of the ink's colour: on black ink holding
# net_suit or more of the probability those suits and junk hold, on red ink
# net_suit_red or more of what the two red suits hold (vision.suit_decision);
# the suit templates' Fisher split may veto it when it clearly says the other
# suit (suit_veto).  Glyphs the network takes for a sideways or upside-down
# index (junk) above net_junk are not read, nor is ink of unknown colour.
# Chosen on index patches cut from generated scenes (seeds 0-59; the network
# is trained on random designs, not the generator's) and checked on seeds
# 500-559.  With the
# averaged networks the same values stand: net_rank_alone 0.8 read 19 more
# of 300 scenes' found cards but misread 4 more, net_suit 0.97 misread 9 fewer
# but read 49 fewer (bench.reader_ab vision --set ...).
@dataclass(frozen=True)
class Thresholds:
    net_rank: float = 0.7
    net_rank_low: float = 0.55  # enough when the templates are sure of the same rank
    template_sure: float = 0.85
    net_rank_alone: float = 0.9
    net_suit: float = 0.95
    # With red_by_pair, a suit on red ink needs net_suit_red of the red pair's
    # probability alone, where the red pair holds red_shape of the four
    # suits' (vision.suit_decision).  On, it measured better everywhere
    # (found/right/misread: 300 scenes 1235/1198/37 -> 1247/1210/37, seeds
    # 500-559 269/264/5 -> 272/267/5, third-party decks 1195/1176/19 ->
    # 1202/1184/18), so it is on; off, the black rule decides both colours.
    red_by_pair: bool = True
    net_suit_red: float = 0.9
    red_shape: float = 0.2
    min_template_rank: float = 0.45
    suit_veto: float = 0.2
    net_junk: float = 0.2
    # The whole-patch network (vision.patch_model) reads alone where the glyph
    # reader declined glyphs it did cut: its rank (not junk) and suit
    # probabilities must reach these, and the suit's colour must be the ink's
    # (where the ink has a clear colour: patch_no_colour).
    # The glyph networks' likeliest rank and suit must be the same.  Without
    # cut glyphs it reads only where glyph-sized ink was left uncut
    # (patch_no_glyphs): anywhere, hands and clutter fooled it.  0.95
    # while the network had learnt from drawn corners alone (60 % of a
    # frame's index patches right); trained on patches cut from frames as
    # well (90 %), 0.8 found the most cards for no more misreads per card
    # read: 300 scenes at 720p (seeds 0-149 and 500-649) 1357 -> 1496
    # found, 26 -> 30 misread.  Tuned on a sibling run of the same recipe
    # (1496 and 29 at 0.8; 0.8 rank and 0.9 suit 1482 and 30; 0.75 and 0.9
    # 1490 and 31).  With the weights retrained in session 30, these two and
    # patch_no_colour and patch_no_glyphs together, 720p seeds 0-149 and
    # 500-649: 0.8 783 / 9 and 786 / 9; 0.75 789 / 12 and 788 / 11; 0.85
    # 776 / 8 and 781 / 7.
    patch_rank: float = 0.8
    patch_suit: float = 0.8
    # Its probabilities may also join the glyph networks' (this share of the
    # average), and a patch it takes for junk this surely may be declined
    # before any glyph is cut (cheaper).  Both off: averaging traded reads
    # for fewer misreads no better than the glyph thresholds do, and
    # skipping at 0.97 (half of all patches) lost 1.6 % of the reads.
    patch_weight: float = 0.0
    patch_skip: float = 1.01
    # A reading of the network alone has patch_conf times its probability as
    # its confidence.  The spot searches (edge-free finder, same-deck search)
    # take readings of 0.6 or more: at 0.55 they never took the network's
    # (it read at corners alone); at 0.7 they take it from p = 0.86 on
    # (the sibling run on the same 300 scenes, with patch_rank 0.8: 1464 ->
    # 1496 found, misreads 28 -> 29).
    # Since session 54 the network is two (patch_model.ensemble), surer
    # where both lean the same way: at 0.75 the spot searches take its
    # readings from p = 0.8 on.  720p seeds 0-999, found / right / misread:
    # the first network alone (0.7, patch_pooled 0.99) 5361 / 5296 / 65;
    # the pair weighted half and half, 0.7 5357 / 5296 / 61, 0.75 5371 /
    # 5308 / 63, with patch_pooled 0.98 5381 / 5318 / 63 (but 9 fewer of
    # the third-party decks' cards: bench/vision_decks.py); the second
    # weighted a third (shipped), 0.75 and 0.98 5394 / 5325 / 69 (the decks
    # 1620 / 1603 / 17 against 1619 / 1603 / 16).
    patch_conf: float = 0.75
    # Where the glyphs' ink is of no clear colour (between black and red:
    # a lamp's cast, blur mixing red ink with the paper), the glyph reader
    # declines, and the network may read alone at this: its suit names the
    # colour, and the glyph networks' likeliest rank and suit of all four
    # must be the same.  On 720p seeds 0-299 a fifth of the right-way index
    # patches the reader declined were of no clear colour, and the network
    # was sure and right at two thirds of them, wrong at none.  Found /
    # misread before -> after (shipped weights): 720p seeds 0-149 754 / 11
    # -> 767 / 11, 150-299 717 / 12 -> 730 / 12, 500-649 756 / 8 -> 763 / 8;
    # 1080p 500-649 871 / 0 both.  0.9 read 3 fewer of seeds 0-149 for no
    # fewer misreads.
    patch_no_colour: float = 0.8
    # Where the reader could cut no glyphs from glyph-sized ink (a rank run
    # into its suit, a suit blurred away: cut_glyphs' "uncut"), the network
    # may read alone at this, when the strong ink's colour is clearly the
    # suit's (read_without_glyphs); never on a blank patch or one without
    # glyph-sized ink (there it read nothing right in 30 720p frames, and
    # asking it everywhere cost 10 ms a 12-card frame).  With the weights
    # shipped before (be0e4af), found / misread: 720p seeds 0-149 767 / 11
    # -> 780 / 11 (0.9: 778 / 11), 500-649 763 / 8 -> 771 / 8 (0.9 alike);
    # 1080p 500-649 871 / 0 -> 873 / 1 (a 3 of spades read as clubs).
    patch_no_glyphs: float = 0.8
    # A reading of the network where the glyphs were cut (decide_patch) gains
    # this much confidence when the font templates' likeliest rank and suit
    # are the same: enough for the spot searches to take it from p = 0.8 on,
    # as they take the glyph reader's.  720p seeds 0-149, 150-299 and 500-649,
    # 1080p 0-149, found / misread: 785 / 9 -> 787 / 9, 760 / 13 alike,
    # 788 / 9 -> 790 / 9, 815 / 1 -> 816 / 1 (0.2: the same).
    patch_templates_agree: float = 0.1
    # Where neither the glyph reader nor the network alone is sure, the two
    # networks' probabilities multiplied (decide_pooled) may read at this
    # (above 1: never).  On saved right-way and wrong-way corner patches of
    # 720p seeds 0-299 (bench.reader_patches) the reader read 1635 right and
    # 69 wrong; pooled at 0.95 it read 45 more right and 5 more wrong, at
    # 0.98 23 and 2, at 0.99 10 and 0.  Over 1000 scenes, found / right /
    # misread: 720p 5301 / 5236 / 65 -> 0.98: 5334 / 5266 / 68, 0.99:
    # 5320 / 5255 / 65; 1080p 5698 / 5682 / 16 -> 0.99: 5699 / 5683 / 16.
    # With the two whole-patch networks (session 54), 0.98: 720p, half and
    # half, 5371 / 5308 / 63 -> 5381 / 5318 / 63 (with patch_conf 0.7: 5357
    # / 5296 / 61 -> 5368 / 5307 / 61); the second weighted a third, 5386 /
    # 5318 / 68 -> 5394 / 5325 / 69.
    patch_pooled: float = 0.98
    # ... and only where the whole-patch network gives its likeliest rank at
    # least this: the corners pooling read gave it 0.71 and more (the same
    # patches), and asking the glyph networks in full at every declined
    # corner had cost 2-4 % of a 12-card frame's CPU.  With it, 720p 5319 /
    # 5255 / 64 (the one reading it drops, scene 908's, was a misread).
    pooled_whole_rank: float = 0.5
    # Where the glyph networks lean to another card (at 720p most often
    # another suit), the whole-patch networks' reading stands alone at this (their
    # ensemble's rank and suit; the ink's colour must be the suit's, as
    # decide_patch asks, and the glyph networks' junk at most net_junk, as
    # decide_pooled asks).  720p seeds 0-999 (session 57), found / right /
    # misread 5418 / 5353 / 65 -> 0.98: 5427 / 5361 / 66; 0.97: 5432 /
    # 5365 / 67; 0.99: 5421 / 5356 / 65.  Asking the font templates to name
    # the same card too (a third reader) left 2 of 0.97's 14 (one misread).
    # With the glyph networks' junk vetoing (a sideways glyph), 4 of 0.98's
    # cards are left: with step 5's merged spots on a line, 5428 / 5361 /
    # 67 -> 5424 / 5357 / 67.
    patch_overrule: float = 0.98

    def rank_stands(self, ev: Evidence, rank: str, p: float) -> bool:
        """Whether the glyph networks' likeliest ``rank`` (at ``p``) stands
        with the templates' evidence in ``ev``: sure enough with the
        templates agreeing, or sure alone, and no foreign court letter."""
        agree = ev.template_rank == rank
        sure = p >= self.net_rank or (p >= self.net_rank_low and ev.rank_score >= self.template_sure)
        if ev.rank_score < self.min_template_rank or not ((agree and sure) or p >= self.net_rank_alone):
            return False
        return ev.template_rank not in FOREIGN_RANKS

    def suit_verdict(self, ps: np.ndarray, red: bool) -> tuple[tuple[int, float], bool]:
        """vision.suit_decision.suit_verdict with these thresholds."""
        return suit_verdict(ps, red, self.net_suit, self.net_suit_red, self.red_shape, self.red_by_pair)


THRESHOLDS = Thresholds()


def read_patch(patch: np.ndarray, refs: References | None = None, glyphs_of=None) -> IndexReading | None:
    """Read rank and suit from an upright corner patch (BGR, PATCH_W x PATCH_H), or None.

    A taught deck is read by its templates alone (they are that deck's own
    glyphs).  Otherwise two readers that fail differently must agree: the
    templates drawn from the machine's fonts and the trained glyph network.
    Where they decline glyphs that were cut (blurred, unsure, of no clear
    colour), or no index could be cut from glyph-sized ink, the whole-patch
    network may read alone when it is very sure, or, on glyphs that were
    cut, together with the glyph networks where both lean to the same card
    (decide_pooled), or alone where it is all but certain and the glyph
    networks lean to another card (Thresholds.patch_overrule).  Without the
    networks' weights, the templates alone.  ``glyphs_of``: the pipeline's
    per-frame glyph cache, whose ``cut(patch)`` answers as
    :func:`cut_glyphs` does, so that a declined patch's glyphs are not cut
    again by the stages that look at it next."""
    return read_patch_evidence(patch, refs, glyphs_of)[0]


def read_patch_evidence(patch: np.ndarray, refs: References | None = None, glyphs_of=None) -> tuple[IndexReading | None, Evidence | None]:
    """read_patch's reading and the glyph evidence it was decided on (None
    when no glyphs were cut, the templates alone read, or the networks are
    missing).  The evidence stops where a default threshold declined
    (``complete`` False): vision.jitter_read looks again at a near miss."""
    refs = refs or builtin_references()
    t = THRESHOLDS
    use_whole = patch_model.available() and not refs.taught
    whole = None
    if use_whole and (t.patch_weight > 0 or t.patch_skip <= 1):
        # the network's verdict is wanted before the glyphs are cut
        if not _has_ink(patch):
            return None, None
        whole = whole_probs(patch)
        if whole[0][-1] >= t.patch_skip:
            return None, None
    gl, uncut = (glyphs_of.cut if glyphs_of is not None else cut_glyphs)(patch)
    if gl is not None and (refs.taught or not glyph_model.available()):
        r = _read_templates(gl, refs)
        if r is not None and refs.taught and glyph_model.available() and not _taught_read_stands(r, gl, refs):
            r = None  # the networks' path below, with its own guards
        if r is not None or not glyph_model.available():
            return r, None
    if gl is None:
        # no glyphs to hold against a taught deck's own: the whole-patch network reads it as
        # an untaught one (bellot's glyphs run into a pip and are seldom cut: taught, its
        # photos read 6 cards of 15 instead of 12), but not as a rank one of its letters
        # looks like (refs.lookalikes, empty untaught); an untaught patch's ink was asked above
        if patch_model.available() and t.patch_no_glyphs <= 1 and uncut and (use_whole or _has_ink(patch)):
            r = read_without_glyphs(patch, t, whole)
            return (None if r is None or r.rank in refs.lookalikes else r), None
        return None, None
    ev = evidence(gl, refs, whole=whole)
    r = decide(ev, t)
    if r is not None and refs.taught and taught_shape_disagrees(refs, gl, r.rank):
        return None, ev
    if r is not None or not use_whole:
        return r, ev
    # only where the glyph reader did not read: the network costs a third of a read
    pr, ps = whole or whole_probs(patch)
    if decide_patch(patch, gl, pr, ps, t) is None and not may_pool(pr, t):
        return None, ev  # the glyph networks could only agree with a reading there is not
    rank_p = ev.rank_p if ev.rank_p is not None else glyph_model.rank_probs(gl.rank_ink, gl.rank_view)
    suit_p = ev.suit_p if ev.suit_p is not None else glyph_model.suit_probs(gl.suit_ink, gl.suit_view)
    r = decide_patch(patch, gl, pr, ps, t, (rank_p, suit_p)) or decide_pooled(gl, pr, ps, rank_p, suit_p, t)
    if r is None and t.patch_overrule <= 1 and max(float(rank_p[len(RANKS) :].sum()), float(suit_p[-1])) <= t.net_junk:
        # both whole-patch networks all but certain of one card the glyph networks do not
        # name, but take for a card too (their junk, a sideways glyph, vetoes as in pooling)
        r = decide_patch(patch, gl, pr, ps, dataclasses.replace(t, patch_rank=t.patch_overrule, patch_suit=t.patch_overrule))
    if r is None:
        return None, ev
    # a foreign court letter (the German and Russian jack) is an 8 to both
    # networks, which know no such rank: the templates know it (as decide asks)
    t_rank = ev.template_rank or refs.rank(gl.rank_ink)[0]
    if t_rank in FOREIGN_RANKS:
        return None, ev
    if t_rank == r.rank and gl.red is not None and (ev.template_suit or refs.suit(gl.suit_ink, gl.red)[0]) == r.suit:
        # the font templates, a third reader, name the same card (see Thresholds.patch_templates_agree)
        r = dataclasses.replace(r, confidence=min(1.0, r.confidence + t.patch_templates_agree))
    return r, ev


#: where an index's rank and suit glyphs lie in a patch when they were not cut
#: (x, y, w, h: the median boxes of cut glyphs in 720p frames' right-way patches)
NOMINAL_RANK_BOX = (11, 11, 16, 26)
NOMINAL_SUIT_BOX = (10, 41, 18, 20)
#: the mean redness of a patch's strong ink (patch_model's input channels)
#: that a red suit needs, and that a black suit must stay under: on 720p
#: frames' right-way index patches, 95 % of red indices lie above 0.13 and
#: 99 % of black ones under 0.16 (medians 0.31 and -0.01)
RED_INK_AT_LEAST = 0.2
BLACK_INK_AT_MOST = 0.08
#: strong ink pixels (of the network's input) that a place must hold for its colour to count
MIN_PART_INK = 3
#: how far across from the patch's left edge (mm) an index's glyphs lie, for
#: their colour (read_without_glyphs): the rank's middle is placed 5 mm in,
#: the widest ranks and suits reach 8 mm
INDEX_COLUMN_MM = 8.5


def read_without_glyphs(patch: np.ndarray, t: Thresholds, whole=None) -> IndexReading | None:
    """The whole-patch network's reading of a patch whose glyphs could not be
    cut: at ``t.patch_no_glyphs``, when the strong ink's colour where an
    index's glyphs lie (``INDEX_COLUMN_MM``) is clearly the suit's and
    neither the rank's place nor the suit's holds ink clearly of the other
    colour.  Its boxes are where an index's glyphs
    usually lie."""
    x = patch_model.patch_inputs(patch)
    if whole is None:
        rank_p, suit_p = patch_model.input_probs(x)
        whole = rank_p[0], suit_p[0]
    pr, ps = whole
    r, si = int(np.argmax(pr)), int(np.argmax(ps))
    rank, suit = patch_model.RANK_CLASSES[r], patch_model.SUIT_CLASSES[si]
    if rank not in RANKS or min(pr[r], ps[si]) < t.patch_no_glyphs:
        return None
    # the ink's colour is the index column's: a card's edge or back beside it is not the index
    # (a faint red J beside the next card's blue edge measured 0.15-0.19 red over the whole patch)
    column = int(round(INDEX_COLUMN_MM / INDEX_BOX_W * x.shape[3]))
    strong, red = x[0, 0, :, :column] > 0.5, x[0, 1, :, :column]
    redness = float(red[strong].mean()) if strong.any() else 0.0
    if not _clearly(redness, suit in RED_SUITS):
        return None
    # an index is printed in one ink: where the rank's place or the suit's holds strong ink
    # clearly of the other colour, the patch holds two cards' glyphs (a black rank over the
    # next card's red one in a staggered pile, read as a 6 of diamonds at 12 MP)
    cut = int(round(NOMINAL_SUIT_BOX[1] / PATCH_H * x.shape[2]))
    for part, part_red in ((strong[:cut], red[:cut]), (strong[cut:], red[cut:])):
        if part.sum() >= MIN_PART_INK:
            if _clearly(float(part_red[part].mean()), suit not in RED_SUITS):
                return None
    return IndexReading(rank, suit, float(t.patch_conf * min(pr[r], ps[si])), NOMINAL_RANK_BOX, NOMINAL_SUIT_BOX)


def _clearly(redness: float, red: bool) -> bool:
    """Whether ink of this mean redness (patch_model's channel) is clearly red
    (``red``) or clearly black (not ``red``)."""
    return redness >= RED_INK_AT_LEAST if red else redness <= BLACK_INK_AT_MOST


def whole_probs(patch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The whole-patch network's (rank, suit) probabilities for one upright patch."""
    pr, ps = patch_model.patch_probs(patch)
    return pr[0], ps[0]


def _has_ink(patch: np.ndarray) -> bool:
    """Whether a patch holds ink enough to segment (as _segment asks)."""
    lo, hi = _levels(_ink(patch), (0.2, 0.99))
    return hi - lo >= 50


def decide_patch(
    patch: np.ndarray, gl: Glyphs | None, pr: np.ndarray, ps: np.ndarray, t: Thresholds, glyph_p=None
) -> IndexReading | None:
    """A reading from the whole-patch network's rank (``pr``, patch_model.RANK_CLASSES)
    and suit (``ps``) probabilities when they clear ``t`` and the glyphs ``gl``
    were cut (an index layout, ink of the suit's colour), else None.  With
    ``glyph_p`` (the glyph networks' rank and suit probabilities), their
    likeliest rank and suit of the ink's colour must be the same."""
    r, si = int(np.argmax(pr)), int(np.argmax(ps))
    rank, suit = patch_model.RANK_CLASSES[r], patch_model.SUIT_CLASSES[si]
    if gl is None or rank not in RANKS or pr[r] < t.patch_rank or ps[si] < t.patch_suit:
        return None  # an index layout must be there (hands and clutter fooled it alone)
    if gl.red is None:
        # ink of no clear colour: the network's suit says it, surely
        if min(pr[r], ps[si]) < t.patch_no_colour:
            return None
    elif (suit in RED_SUITS) != gl.red:
        return None  # the suit's colour must be the ink's
    if glyph_p is not None:
        g_rank, g_suit = glyph_p
        g_si = int(np.argmax(g_suit[: len(SUITS)])) if gl.red is None else likeliest_suit(g_suit, gl.red)[0]
        if glyph_model.RANK_CLASSES[int(np.argmax(g_rank))] != rank or SUITS[g_si] != suit:
            return None
    # the spot searches (edge-free finder, same-deck search) take it from
    # t.patch_conf * p >= 0.6 on (see Thresholds.patch_conf)
    return IndexReading(rank, suit, float(t.patch_conf * min(pr[r], ps[si])), gl.rank_box, gl.suit_box)


def may_pool(pr: np.ndarray, t: Thresholds) -> bool:
    """Whether the whole-patch network's rank probabilities ``pr`` leave a
    pooled reading possible (Thresholds.pooled_whole_rank), asked before the
    glyph networks' are gathered in full for it."""
    return t.patch_pooled <= 1 and float(pr[: len(RANKS)].max()) >= t.pooled_whole_rank


def decide_pooled(gl: Glyphs, pr: np.ndarray, ps: np.ndarray, rank_p: np.ndarray, suit_p: np.ndarray, t: Thresholds) -> IndexReading | None:
    """A reading from the whole-patch network's probabilities (``pr``, ``ps``)
    and the glyph networks' (``rank_p``, ``suit_p``) multiplied class by class
    and renormalised, when the likeliest card's pooled probability reaches
    ``t.patch_pooled``; none of the three may see junk (nor the glyph rank
    network half a 10), the suit is one of the ink's colour, and the
    whole-patch network must give its likeliest rank ``t.pooled_whole_rank``
    (may_pool).

    Why: decide and decide_patch each ask one reader to be sure alone.  At
    720p (rank glyphs 5-9 px tall) a corner is often one the glyph networks
    lean to at 0.8 and the whole-patch network at 0.7, the same card: each
    alone declines it, and the card is lost.  The two look at the patch
    differently (cut glyphs against the whole patch, trained on different
    samples), so where both lean the same way the pooled evidence is far
    surer than either.  They are not independent (one print, one blur), so
    the threshold is strict (see Thresholds.patch_pooled)."""
    # the glyph rank network's other classes (junk, and the halves of a 10
    # cut apart) must hold little: a glyph it takes for a "1" is no rank
    # (a Russian ace's Т), however sure the whole-patch network is of one
    if not may_pool(pr, t) or gl.red is None or max(pr[-1], float(rank_p[len(RANKS) :].sum()), suit_p[-1]) > t.net_junk:
        return None
    same = list(COLOUR_SUITS[gl.red])  # the ink colour's suits
    rank = pr[: len(RANKS)] * rank_p[: len(RANKS)]
    suit = ps[same] * suit_p[same]
    if rank.sum() <= 0 or suit.sum() <= 0:
        return None
    ri, k = int(np.argmax(rank)), int(np.argmax(suit))
    p = float(rank[ri] / rank.sum() * suit[k] / suit.sum())
    if p < t.patch_pooled:
        return None
    return IndexReading(RANKS[ri], SUITS[same[k]], float(t.patch_conf * p), gl.rank_box, gl.suit_box)


@dataclass(frozen=True)
class Evidence:
    """What the network and the templates say of a patch's glyphs (see decide)."""

    glyphs: Glyphs
    rank_p: np.ndarray | None = None  # network, RANK_CLASSES
    suit_p: np.ndarray | None = None  # network, SUIT_CLASSES
    template_rank: str = ""
    rank_score: float = -1.0
    template_suit: str = ""
    suit_score: float = -1.0
    suit_split: float = 0.0
    complete: bool = False  # False: gathering stopped at a sure decline
    #: the whole-patch network's (rank, suit) probabilities (patch_model's classes)
    whole: tuple[np.ndarray, np.ndarray] | None = None


def mixed(glyph_rank: np.ndarray | None, glyph_suit: np.ndarray | None, whole, w: float) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The glyph networks' rank and suit probabilities averaged with the
    whole-patch network's (share ``w``), in the glyph networks' classes: its
    junk is their junk, it has no half-"10" classes."""
    if whole is None or w <= 0:
        return glyph_rank, glyph_suit
    pr, ps = whole
    r = s = None
    if glyph_rank is not None:
        mapped = np.zeros(len(glyph_model.RANK_CLASSES), np.float32)
        mapped[: len(RANKS)] = pr[: len(RANKS)]
        mapped[-1] = pr[-1]
        r = (1 - w) * glyph_rank + w * mapped
    if glyph_suit is not None:
        mapped = np.append(ps * (1 - pr[-1]), pr[-1]).astype(np.float32)
        s = (1 - w) * glyph_suit + w * mapped
    return r, s


def evidence(gl: Glyphs, refs: References, full: bool = False, whole=None) -> Evidence:
    """The networks' probabilities and the templates' matches (``whole``: the
    whole-patch network's, see mixed).  Unless ``full``, stops as soon as the
    default thresholds would decline (the networks first: they are cheap,
    and decline most unreadable patches)."""
    if gl.red is None and not full:
        return Evidence(gl, whole=whole)
    t = THRESHOLDS
    w = t.patch_weight if whole is not None else 0.0
    early = not full and w <= 0
    pr = glyph_model.rank_probs(gl.rank_ink, gl.rank_view, t.net_rank_low, t.net_junk) if early else glyph_model.rank_probs(gl.rank_ink, gl.rank_view)
    if pr is None:
        return Evidence(gl, whole=whole)
    if not full:
        mr = mixed(pr, None, whole, w)[0]
        r = int(np.argmax(mr))
        if glyph_model.RANK_CLASSES[r] not in RANKS or mr[r] < t.net_rank_low or mr[-1] > t.net_junk:
            return Evidence(gl, pr, whole=whole)
    ps = glyph_model.suit_probs(gl.suit_ink, gl.suit_view, t.net_junk) if early else glyph_model.suit_probs(gl.suit_ink, gl.suit_view)
    if ps is None:
        return Evidence(gl, pr, whole=whole)
    if not full:
        ms = mixed(None, ps, whole, w)[1]
        if not (ms[-1] <= t.net_junk and t.suit_verdict(ms, gl.red)[1]):
            return Evidence(gl, pr, ps, whole=whole)
    t_rank, rs, _ = refs.rank(gl.rank_ink)
    t_suit, ss, split = refs.suit(gl.suit_ink, gl.red) if gl.red is not None else ("", -1.0, 0.0)
    return Evidence(gl, pr, ps, t_rank, rs, t_suit, ss, split, complete=True, whole=whole)


#: a taught deck's templates read a rank one of its letters looks like
#: (References.lookalikes) only this far ahead of every other rank, and the networks
#: (which take the letter for that rank too) only where they are: at 1080p slavic's
#: В taught as the jack came out an 8 by 0.06-0.09, its own 8s by 0.115-0.19
LOOKALIKE_MARGIN = 0.1
#: ... and a suit only where the suit network does not see another suit this surely
#: (four-colour decks' blue or gold diamonds, forced among the black suits by their
#: ink, were read as spades from the templates alone; an Egyptian heart as a diamond)
TAUGHT_SUIT_VETO = 0.5


def _taught_read_stands(r: IndexReading, gl: Glyphs, refs: References) -> bool:
    """Whether a taught deck's template reading stands against the glyph
    networks (see LOOKALIKE_MARGIN, TAUGHT_SUIT_VETO): measured on
    bench.vision_teach_layout's decks read at 1080p, where taught they
    misread 15 cards of 566 found against 2 of 473 untaught."""
    if _lookalike_unclear(refs, gl, r.rank):
        return False
    p = glyph_model.suit_probs(gl.suit_ink, gl.suit_view)
    if p is None:
        return True
    k = int(np.argmax(p))
    seen = glyph_model.SUIT_CLASSES[k]
    return not (seen in SUITS and seen != r.suit and float(p[k]) >= TAUGHT_SUIT_VETO)


def _lookalike_unclear(refs: References, gl: Glyphs, rank: str) -> bool:
    """Whether ``rank`` is one a taught deck's letters look like and its
    templates do not lead every other rank's by LOOKALIKE_MARGIN: the
    networks take the letter for that rank too, the templates alone tell
    them apart."""
    if rank not in refs.lookalikes:
        return False
    label, _, margin = refs.rank(gl.rank_ink)
    return label != rank or margin < LOOKALIKE_MARGIN


def taught_shape_disagrees(refs: References, gl: Glyphs, rank: str) -> bool:
    """Whether, with a taught deck, another rank's templates fit the rank
    glyph's shape better than ``rank``'s, or ``rank`` is one of the deck's
    letters looks like and its templates are not LOOKALIKE_MARGIN ahead.  The networks know no court letter
    but J, Q, K (a German B is an 8 to them, at 0.98), and where the taught
    deck's own templates decline (too small a margin) the networks read
    alone: their reading stands only where the deck's own glyphs do not say
    otherwise by shape (atlasnye_skat's jack of diamonds, taught from a
    layout photo: shape 0.931 a J, 0.918 an 8, read as the 8 at 0.96)."""
    if _lookalike_unclear(refs, gl, rank):
        return True
    f = feature(gl.rank_ink)
    mine = refs._shape_score(rank, f)
    return any(refs._shape_score(label, f) > mine for label in RANKS if label != rank)


def decide(ev: Evidence, t: Thresholds) -> IndexReading | None:
    """A reading when the evidence clears the thresholds ``t``, else None."""
    if not ev.complete or ev.glyphs.red is None:
        return None
    gl = ev.glyphs
    pr, ps = mixed(ev.rank_p, ev.suit_p, ev.whole, t.patch_weight)
    r = int(np.argmax(pr))
    rank = glyph_model.RANK_CLASSES[r]
    if rank not in RANKS or pr[r] < t.net_rank_low or pr[-1] > t.net_junk or not ps[-1] <= t.net_junk:
        return None
    (si, p_suit), sure_suit = t.suit_verdict(ps, gl.red)
    suit = SUITS[si]
    if not sure_suit:
        return None
    if not t.rank_stands(ev, rank, pr[r]):
        return None
    agree = ev.template_rank == rank
    if ev.template_suit != suit and ev.suit_split >= t.suit_veto:
        return None
    conf = float(np.clip(0.5 * min(pr[r], p_suit) + 0.3 * min(ev.rank_score, ev.suit_score) + (0.2 if agree else 0.0), 0, 1))
    return IndexReading(rank, suit, conf, gl.rank_box, gl.suit_box)


def _read_templates(gl: Glyphs, refs: References) -> IndexReading | None:
    rank, rs, rmargin = refs.rank(gl.rank_ink)
    suit, ss, smargin = refs.suit(gl.suit_ink, gl.red)
    if rank not in RANKS:
        return None
    if rs < MIN_RANK_SCORE or ss < MIN_SUIT_SCORE or rmargin < MIN_MARGIN or smargin < MIN_SUIT_SEPARATION:
        return None
    if gl.red is not None and (suit in RED_SUITS) != gl.red:
        return None
    conf = float(np.clip(min(rs, ss) * 0.6 + min(rmargin, 0.3) + (0.1 if gl.red is not None else 0), 0, 1))
    return IndexReading(rank, suit, conf, gl.rank_box, gl.suit_box)
